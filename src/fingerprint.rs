//! A run fingerprint: FNV-1a (64 bit) over the text and a canonical description of the run:
//! the tokenizer as it describes itself (its own options with it), then the vocabulary's
//! and the training's fields of [`Params`] (the thread count and the model kind among them)
//! and the seed. Two runs with the same fingerprint on the same build produce bit-identical
//! vectors when they train on one thread; with more, threads race.
//!
//! The description is made from the fields of `Params`, so a field added there is in every
//! fingerprint made after; fingerprints made before stay what they were (bundles and tests
//! hold them): [`ALWAYS`] are written in their order, any other field only when it is not
//! at its default.
//!
//! FNV-1a is not a cryptographic hash; it identifies runs, it does not authenticate them.

use std::fmt::Write as _;

use crate::io::json::Value;
use crate::params::spec::{self, Kind};
use crate::params::{Params, RunParams, TokenizerSpec};
use crate::text::VocabConfig;
use crate::train::TrainConfig;

/// FNV-1a's offset basis: the hash of no bytes.
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// The fields every fingerprint describes, in the order it describes them.
const ALWAYS: [&str; 13] = [
    "minCount",
    "maxVocab",
    "dim",
    "window",
    "negative",
    "sample",
    "alpha",
    "minAlpha",
    "epochs",
    "nsExponent",
    "seed",
    "threads",
    "cbow",
];

/// FNV-1a 64 of `bytes`, continuing from `hash` (start from [`FNV_OFFSET`]).
pub(crate) fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(PRIME);
    }
    hash
}

/// The fingerprint of a run, as 16 lowercase hex digits; `tokenizer` is the tokenizer's
/// description (`Tokenizer::describe`).
pub fn fingerprint(text: &str, tokenizer: &str, vocab: &VocabConfig, train: &TrainConfig) -> String {
    let hash = fnv1a(fnv1a(FNV_OFFSET, text.as_bytes()), describe(tokenizer, vocab, train).as_bytes());
    format!("{hash:016x}")
}

/// The run as the fingerprint hashes it: `\0tokenizer=…;min_count=5;max_vocab=None;…`, each
/// field under its name in snake case.
fn describe(tokenizer: &str, vocab: &VocabConfig, train: &TrainConfig) -> String {
    // The tokenizer's own options are in its description; these are the others.
    let run = RunParams { tokenizer: TokenizerSpec::Whitespace, vocab: *vocab, train: *train };
    let fields = Params::from(&run).fields();
    let mut described = format!("\u{0}tokenizer={tokenizer}");
    for name in ALWAYS {
        let _ = write!(described, ";{}={}", snake_case(name), shown(name, &fields[name]));
    }
    let defaults = Params::default().fields();
    for (name, value) in &fields {
        let own = spec::field(name).is_none_or(|field| field.tokenizer.is_some()) || name == "tokenizer";
        if own || ALWAYS.contains(&name.as_str()) || defaults.get(name) == Some(value) {
            continue;
        }
        let _ = match value {
            Value::Bool(true) => write!(described, ";{}", snake_case(name)),
            _ => write!(described, ";{}={}", snake_case(name), shown(name, value)),
        };
    }
    described
}

/// `minCount` as `min_count`.
fn snake_case(name: &str) -> String {
    let mut snake = String::with_capacity(name.len() + 2);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            snake.push('_');
        }
        snake.push(c.to_ascii_lowercase());
    }
    snake
}

/// A field's value as the description writes it: a real number in scientific notation
/// (`2.5e-2`), a limit as `None` or `Some(10)`, anything else as JSON has it.
fn shown(name: &str, value: &Value) -> String {
    match (spec::field(name).map(|field| field.kind), value) {
        (Some(Kind::Limit), Value::Null) => "None".into(),
        (Some(Kind::Limit), limit) => format!("Some({limit})"),
        (Some(Kind::Number(number)), Value::Number(x)) if !number.whole => {
            format!("{:e}", x.as_f64().unwrap_or(f64::NAN))
        }
        (_, Value::String(text)) => text.clone(),
        (_, other) => other.to_string(),
    }
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
    fn the_description_names_each_field_once() {
        let train = TrainConfig { shared_noise: true, ..TrainConfig::default() };
        assert_eq!(
            describe("word", &VocabConfig::default(), &train),
            "\u{0}tokenizer=word;min_count=5;max_vocab=None;dim=100;window=5;negative=5;sample=1e-3;\
             alpha=2.5e-2;min_alpha=1e-4;epochs=5;ns_exponent=7.5e-1;seed=1;threads=1;cbow=false;shared_noise"
        );
        let vocab = VocabConfig { min_count: 1, max_vocab: Some(10) };
        assert!(describe("word", &vocab, &train).contains(";min_count=1;max_vocab=Some(10);"));
    }

    /// Each field of `Params` but the tokenizer's own options (its description holds those)
    /// changes the fingerprint, with no line here for a field added to `Params`.
    #[test]
    fn every_input_changes_the_fingerprint() {
        let (v, t) = (VocabConfig::default(), TrainConfig::default());
        let base = fingerprint("text", "word", &v, &t);
        assert_eq!(base, fingerprint("text", "word", &v, &t));
        assert_eq!(base.len(), 16);
        assert_ne!(base, fingerprint("text!", "word", &v, &t));
        assert_ne!(base, fingerprint("text", "whitespace", &v, &t));
        let defaults =
            Params::from(&RunParams { tokenizer: TokenizerSpec::Whitespace, vocab: v, train: t }).fields();
        for name in ALWAYS {
            assert!(defaults.contains_key(name), "{name} is no field of Params");
        }
        let fields =
            spec::FIELDS.iter().filter(|field| field.tokenizer.is_none() && field.name != "tokenizer");
        for field in fields {
            let changed = match field.kind {
                Kind::Switch => Value::Bool(true),
                Kind::Limit => Value::from(10),
                Kind::Number(number) if number.whole => Value::from(number.default as u64 + 1),
                Kind::Number(number) => Value::from(number.default * 1.5),
                Kind::Choice(names) => Value::from(names[1]),
            };
            let mut changed_fields = defaults.clone();
            changed_fields.insert(field.name.into(), changed);
            let params: Params = serde_json::from_value(Value::Object(changed_fields)).unwrap();
            let run = params.run_params().unwrap();
            assert_ne!(fingerprint("text", "word", &run.vocab, &run.train), base, "{}", field.name);
        }
    }
}
