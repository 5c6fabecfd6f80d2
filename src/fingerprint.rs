//! A run fingerprint: FNV-1a (64 bit) over the text and a canonical description of the
//! tokenizer, vocabulary and training parameters (the thread count and the model kind
//! among them) and the seed. Two runs with the same fingerprint on the same build produce
//! bit-identical vectors when they train on one thread; with more, threads race.
//!
//! FNV-1a is not a cryptographic hash; it identifies runs, it does not authenticate them.

use crate::text::VocabConfig;
use crate::train::TrainConfig;

/// FNV-1a's offset basis: the hash of no bytes.
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 of `bytes`, continuing from `hash` (start from [`FNV_OFFSET`]).
pub(crate) fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(PRIME);
    }
    hash
}

/// The fingerprint of a run, as 16 lowercase hex digits.
pub fn fingerprint(text: &str, tokenizer: &str, vocab: &VocabConfig, train: &TrainConfig) -> String {
    let params = format!(
        "\u{0}tokenizer={tokenizer};min_count={};max_vocab={:?};dim={};window={};negative={};sample={:e};\
         alpha={:e};min_alpha={:e};epochs={};ns_exponent={:e};seed={};threads={};cbow={}",
        vocab.min_count,
        vocab.max_vocab,
        train.dim,
        train.window,
        train.negative,
        train.sample,
        train.alpha,
        train.min_alpha,
        train.epochs,
        train.ns_exponent,
        train.seed,
        train.threads,
        train.cbow
    );
    // Appended only when set, so runs without it keep the fingerprints they had.
    let params = if train.shared_noise { params + ";shared_noise" } else { params };
    let hash = fnv1a(fnv1a(FNV_OFFSET, text.as_bytes()), params.as_bytes());
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_known_answers() {
        assert_eq!(fnv1a(FNV_OFFSET, b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a(FNV_OFFSET, b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a(FNV_OFFSET, b"foobar"), 0x85944171f73967e8);
    }

    /// Fingerprints that bundles and tests hold: a run's fingerprint must never change.
    #[test]
    fn fingerprints_known_answers() {
        let (v, t) = (VocabConfig::default(), TrainConfig::default());
        let varied_vocab = VocabConfig { min_count: 3, max_vocab: Some(1000) };
        let varied = TrainConfig {
            dim: 16,
            window: 8,
            negative: 7,
            sample: 1e-5,
            alpha: 0.0251,
            min_alpha: 1e-5,
            epochs: 12,
            ns_exponent: -0.5,
            seed: u64::MAX,
            threads: 4,
            cbow: true,
            shared_noise: false,
        };
        let cases = [
            (fingerprint("text", "word", &v, &t), "bf96c01e9d775b17"),
            (fingerprint("", "whitespace", &v, &TrainConfig { sample: 0.0, ..t }), "69358d02cd9c7ae6"),
            (fingerprint("the king\n", "bpe 800 cross", &varied_vocab, &varied), "923088056a157d5a"),
            (
                fingerprint("text", "word", &v, &TrainConfig { shared_noise: true, alpha: 0.05, ..t }),
                "7b14e7b2156e0380",
            ),
        ];
        for (got, expected) in cases {
            assert_eq!(got, expected);
        }
    }

    #[test]
    fn every_input_changes_the_fingerprint() {
        let (v, t) = (VocabConfig::default(), TrainConfig::default());
        let base = fingerprint("text", "word", &v, &t);
        assert_eq!(base, fingerprint("text", "word", &v, &t));
        assert_eq!(base.len(), 16);
        let others = [
            fingerprint("text!", "word", &v, &t),
            fingerprint("text", "whitespace", &v, &t),
            fingerprint("text", "word", &VocabConfig { min_count: 4, ..v }, &t),
            fingerprint("text", "word", &v, &TrainConfig { seed: 2, ..t }),
            fingerprint("text", "word", &v, &TrainConfig { alpha: 0.0251, ..t }),
            fingerprint("text", "word", &v, &TrainConfig { threads: 2, ..t }),
            fingerprint("text", "word", &v, &TrainConfig { cbow: true, ..t }),
            fingerprint("text", "word", &v, &TrainConfig { shared_noise: true, ..t }),
        ];
        for other in others {
            assert_ne!(base, other);
        }
    }
}
