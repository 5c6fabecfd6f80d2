//! Byte-pair encoding (Sennrich et al. 2016, "Neural Machine Translation of Rare Words with
//! Subword Units"): learn merges from a text up to a target vocabulary size, then split any
//! text into the learned tokens, so SGNS trains over subwords and phrases as over words.
//!
//! # Brief overview
//!
//! - [`BpeLearner`] learns the merges a chunk at a time ([`BpeLearner::step`]), so a Web
//!   Worker or the CLI can report progress and cancel between calls.
//! - [`BpeModel`] is the result: the alphabet and the merges. It encodes any text and says
//!   where each token came from ([`BpeModel::provenance`]).
//! - [`BpeTokenizer`] hands a model's tokens to a [`TokenSink`], so [`Corpus::build`]
//!   treats them like words.
//!
//! # Alphabet: characters
//!
//! The base tokens are the distinct characters (Unicode scalar values) of the training
//! text, ordered by code point, so every token is a string of whole characters and a valid
//! `&str` (byte-level BPE can merge half a character, which no sink could receive). A
//! character unseen in training becomes a one-character token of its own when encoding,
//! outside the model's vocabulary. Nothing is ever "unknown" and every token is a slice of
//! the input, so concatenating the tokens gives the text back exactly (`\r\n`, tabs, emoji
//! and combining marks included).
//!
//! # Chunks: where merges may reach
//!
//! A merge never crosses a chunk boundary. The text is first cut into lines: a line ends
//! after a run of line breaks (`\n`, `\r`), so `\r\n` and the blank lines that follow stay
//! with the line before. A line break can therefore only end a token, never start one.
//!
//! - [`BpeMode::Cross`] (default): a chunk is a line. Merges cross spaces and tabs and may
//!   take the line break: `from the dead`, `Jesus\n`.
//! - [`BpeMode::Within`]: a chunk is a word (a run of non-whitespace) with the whitespace
//!   that follows it on its line, line break included (`night, `, `Jesus\n`); whitespace
//!   at the start of a line is a chunk of its own. The trailing whitespace plays the part
//!   of the paper's end-of-word marker `</w>`, so `est ` is the paper's `est</w>` (GPT-2
//!   attaches the space in front of the word instead; attaching it behind gives the same
//!   line-final tokens as cross mode and keeps the `</w>` reading of the paper).
//!
//! # Sentences
//!
//! A sentence ends after the last token of each line. On a text with one verse (or one
//! sentence) per line, training windows then stay within a verse, exactly as with the
//! word tokenizers, and a verse-final token such as `Jesus\n` still sits in its verse's
//! windows. Letting merges and windows run on across lines would glue the end of one verse
//! to the start of the next (`.\nAnd`), which means nothing. The price: on hard-wrapped
//! prose a phrase broken by the wrap is not merged, and windows end at each line, as they
//! do for the word tokenizers.
//!
//! # Learning
//!
//! Pair counts are kept incrementally: every distinct chunk is stored once (weighted by its
//! count) as a linked list of symbols, every pair keeps the positions where it occurs, and
//! a merge only visits those positions and updates the pairs around them. The best pair
//! comes from a priority queue with lazy deletion: entries whose count is out of date are
//! skipped when popped. Natively, learning 8,000 merges on the King James Bible (4 MB)
//! takes about 2 s in cross mode and 0.2 s in within mode (where chunks repeat).
//!
//! **Ties** between pairs of equal count go to the pair that appeared first: its position,
//! fixed when the pair first appears, in the distinct chunks laid out in order of first
//! occurrence; then to the smaller pair of token ids. Learning is therefore deterministic,
//! and on Sennrich's toy corpus it gives the paper's merges (see the tests).
//!
//! Learning stops early when no pair occurs twice any more: a merge of a pair seen once
//! adds a token seen once. Two merges can make the same string (`ab`+`c` and `a`+`bc`);
//! the second reuses the first one's token, so the vocabulary size counts distinct strings.

mod learn;
mod model;

pub use learn::{BpeLearner, BpeProgress};
pub use model::{BpeModel, Merge, Provenance};

use std::hash::{BuildHasherDefault, Hasher};

use super::{TokenSink, Tokenizer};
use crate::error::{Error, Result};
use crate::fingerprint::{FNV_OFFSET, fnv1a};
use crate::params::spec;

#[cfg(doc)]
use super::Corpus;

/// The largest vocabulary size accepted; far beyond any useful BPE vocabulary.
pub const MAX_VOCAB_SIZE: usize = match spec::BPE_VOCAB_SIZE.max {
    Some(max) => max as usize,
    None => usize::MAX,
};

/// Where merges may reach; see the documentation of `src/text/bpe/mod.rs`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum BpeMode {
    /// Merges cross spaces within a line and may take the line break at its end.
    #[default]
    Cross,
    /// Merges stay within a word and the whitespace after it.
    Within,
}

impl BpeMode {
    /// `"cross"` or `"within"`.
    pub fn name(self) -> &'static str {
        match self {
            BpeMode::Cross => "cross",
            BpeMode::Within => "within",
        }
    }

    /// Parses [`BpeMode::name`].
    pub fn from_name(name: &str) -> Result<BpeMode> {
        match name {
            "cross" => Ok(BpeMode::Cross),
            "within" => Ok(BpeMode::Within),
            other => Err(Error::InvalidParameter {
                name: "bpe_mode",
                value: other.to_string(),
                expected: "cross (merges may cross spaces) or within (merges stay inside words)".into(),
            }),
        }
    }
}

/// What to learn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BpeConfig {
    /// Tokens in the learned vocabulary: the text's distinct characters plus one per merge
    /// (default 8,000). At least the number of distinct characters, at most [`MAX_VOCAB_SIZE`].
    pub vocab_size: usize,
    /// Where merges may reach (default [`BpeMode::Cross`]).
    pub mode: BpeMode,
}

impl Default for BpeConfig {
    fn default() -> Self {
        BpeConfig { vocab_size: spec::BPE_VOCAB_SIZE.default as usize, mode: BpeMode::Cross }
    }
}

impl BpeConfig {
    /// Checks what can be checked without the text; [`BpeLearner::new`] also checks that
    /// `vocab_size` covers the text's alphabet.
    pub fn validate(&self) -> Result<()> {
        spec::BPE_VOCAB_SIZE.check_whole(
            "vocab_size",
            self.vocab_size as u64,
            " (1,000 to 32,000 is typical)",
        )
    }
}

/// Feeds the tokens of a [`BpeModel`] to a [`TokenSink`]; a sentence ends after the last
/// token of each line (see the documentation of `src/text/bpe/mod.rs`).
#[derive(Debug, Clone, PartialEq)]
pub struct BpeTokenizer {
    model: BpeModel,
}

impl BpeTokenizer {
    /// A tokenizer over `model`.
    pub fn new(model: BpeModel) -> BpeTokenizer {
        BpeTokenizer { model }
    }

    /// The model.
    pub fn model(&self) -> &BpeModel {
        &self.model
    }

    /// Gives the model back.
    pub fn into_model(self) -> BpeModel {
        self.model
    }
}

impl Tokenizer for BpeTokenizer {
    fn tokenize(&self, text: &str, sink: &mut dyn TokenSink) {
        self.model.for_each_token(text, |token, ends_line| {
            sink.token(token);
            if ends_line {
                sink.end_sentence();
            }
        });
    }

    /// `bpe(mode=…,vocab_size=…,merges=…,hash=…)`, the hash covering the alphabet and
    /// every merge.
    fn describe(&self) -> String {
        self.model.describe()
    }
}

fn is_line_break(c: char) -> bool {
    c == '\n' || c == '\r'
}

/// Cuts `text` into the chunks that merges stay within (see the module documentation)
/// and calls `f` on each, in order. The chunks cover `text` exactly.
fn for_each_chunk<'t>(text: &'t str, mode: BpeMode, mut f: impl FnMut(&'t str)) {
    let mut start = 0;
    let mut before: Option<char> = None;
    for (i, c) in text.char_indices() {
        if let Some(b) = before {
            let line_ends = is_line_break(b) && !is_line_break(c);
            let word_starts = mode == BpeMode::Within && b.is_whitespace() && !c.is_whitespace();
            if line_ends || word_starts {
                f(&text[start..i]);
                start = i;
            }
        }
        before = Some(c);
    }
    if start < text.len() {
        f(&text[start..]);
    }
}

/// Whether a token holds whitespace other than at its edges, i.e. joins words
/// (`from the dead`, `. And`), as opposed to `Jesus\n` or ` the`.
pub fn spans_words(token: &str) -> bool {
    token.trim().contains(char::is_whitespace)
}

/// A pair of token ids packed into one `u64` key, left id in the high half.
fn pack(left: u32, right: u32) -> u64 {
    (left as u64) << 32 | right as u64
}

fn unpack(key: u64) -> (u32, u32) {
    ((key >> 32) as u32, key as u32)
}

/// Hashes packed pairs: std's SipHash is several times slower on these hot maps, and a
/// plain multiply would leave the low bits (the bucket index) blind to the left id.
#[derive(Default, Clone, Copy)]
struct PairHasher(u64);

impl Hasher for PairHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0 = fnv1a(self.0 ^ FNV_OFFSET, bytes);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    fn finish(&self) -> u64 {
        // The splitmix64 finaliser: every input bit reaches every output bit.
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

type PairMap<V> = std::collections::HashMap<u64, V, BuildHasherDefault<PairHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::{from_pieces, random_unicode};
    use crate::text::{Corpus, Sentences, VocabConfig};
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    fn learn(text: &str, vocab_size: usize, mode: BpeMode) -> BpeModel {
        let mut learner = BpeLearner::new(text, &BpeConfig { vocab_size, mode }).unwrap();
        learner.step(usize::MAX);
        learner.into_model()
    }

    fn merges(model: &BpeModel) -> Vec<(String, String)> {
        (0..model.n_merges())
            .map(|rank| {
                let m = model.merge(rank).unwrap();
                (m.left.to_string(), m.right.to_string())
            })
            .collect()
    }

    /// Sennrich et al.'s toy corpus: low ×5, lower ×2, newest ×6, widest ×3, each word
    /// followed by a space, which stands for the paper's `</w>`.
    fn toy_corpus() -> String {
        [("low ", 5), ("lower ", 2), ("newest ", 6), ("widest ", 3)]
            .iter()
            .map(|(word, n)| word.repeat(*n))
            .collect()
    }

    #[test]
    fn sennrich_toy_corpus_gives_the_papers_merges() {
        // Derived by hand. Alphabet " deilnorstw" (11). Counts: e s 9, s t 9, t␣ 9 (ties
        // go to the earliest first position: e s, in "newest"), then es t 9, est ␣ 9;
        // l o 7 and o w 7 tie, l o is first; lo w 7; n e 6, ne w 6 (first at "newest"'s
        // n, before w est␣), new est␣ 6; low ␣ 5; w i 3, wi d 3, wid est␣ 3; then the
        // count-2 pairs of "lower": low e (first at "lower"'s l), lowe r, lower ␣.
        // After that every word is one token and no pair is left.
        let expected = [
            ("e", "s"),
            ("es", "t"),
            ("est", " "),
            ("l", "o"),
            ("lo", "w"),
            ("n", "e"),
            ("ne", "w"),
            ("new", "est "),
            ("low", " "),
            ("w", "i"),
            ("wi", "d"),
            ("wid", "est "),
            ("low", "e"),
            ("lowe", "r"),
            ("lower", " "),
        ];
        let expected: Vec<(String, String)> =
            expected.iter().map(|(l, r)| (l.to_string(), r.to_string())).collect();
        let model = learn(&toy_corpus(), 100, BpeMode::Within);
        assert_eq!(model.alphabet_size(), 11);
        assert_eq!(merges(&model), expected);
        assert_eq!(model.vocab_size(), 26);

        // A target vocabulary stops learning exactly: 11 characters + 4 merges.
        let model = learn(&toy_corpus(), 15, BpeMode::Within);
        assert_eq!(merges(&model), expected[..4]);

        // The paper's example: "lowest" splits into "low" and "est".
        let full = learn(&toy_corpus(), 100, BpeMode::Within);
        let cases: &[(&str, &[&str])] = &[
            ("lowest ", &["low", "est "]),
            ("newer ", &["new", "e", "r", " "]),
            ("widest newest", &["widest ", "new", "est"]),
            ("", &[]),
        ];
        for (text, expected) in cases {
            assert_eq!(full.encode(text), *expected, "{text:?}");
        }
    }

    #[test]
    fn provenance_says_which_merge_made_a_token() {
        let model = learn(&toy_corpus(), 100, BpeMode::Within);
        let newest = model.provenance("newest ").unwrap();
        assert_eq!(newest.merge, Some(Merge { left: "new", right: "est ", rank: 7, pair_count: 6 }));
        assert_eq!((newest.count, newest.spans_words), (6, false));
        // "est " was merged 9 times, then absorbed into "newest " and "widest ".
        let est = model.provenance("est ").unwrap();
        assert_eq!(est.merge.map(|m| (m.rank, m.pair_count)), Some((2, 9)));
        assert_eq!(est.count, 0);
        let e = model.provenance("e").unwrap();
        assert_eq!((e.merge, e.count), (None, 0));
        assert_eq!(model.provenance("zebra"), None);

        let cases =
            [("from the dead", true), (". And", true), ("Jesus\n", false), (" the ", false), ("a\tb", true)];
        for (token, expected) in cases {
            assert_eq!(spans_words(token), expected, "{token:?}");
        }
    }

    /// Lines where "from the dead" comes in varied company.
    fn phrase_corpus() -> String {
        let before = ["He rose", "They came", "Christ is risen", "raised him", "back"];
        let after = [".", ", and lived", "; so", " again,", " at last"];
        let mut text = String::new();
        for (i, b) in before.iter().enumerate() {
            for (j, a) in after.iter().enumerate() {
                text.push_str(&format!("{b} from the dead{a}\n"));
                text.push_str(&format!("line {i}{j} says nothing\n"));
            }
        }
        text
    }

    #[test]
    fn cross_mode_learns_a_phrase_and_within_mode_does_not() {
        let text = phrase_corpus();
        let cross = learn(&text, 70, BpeMode::Cross);
        // "from the dead" occurs 25 times; then " from the dead" and "e from the dead"
        // grow from it (10 and 10 times), "He rose from the dead" too (5).
        let phrase = cross.provenance("from the dead").expect("the phrase is one token");
        assert!(phrase.spans_words);
        assert_eq!(phrase.merge.map(|m| (m.left, m.right, m.pair_count)), Some(("from the dea", "d", 25)));
        assert_eq!(cross.provenance(" from the dead").map(|p| p.count), Some(10));
        let tokens = cross.encode("back from the dead, we came from the dead sea\n");
        assert_eq!(tokens.iter().filter(|t| t.contains("from the dead")).count(), 2, "{tokens:?}");

        let within = learn(&text, 70, BpeMode::Within);
        let spanning: Vec<&str> = (0..within.vocab_size() as u32)
            .map(|id| within.token(id).unwrap())
            .filter(|t| spans_words(t))
            .collect();
        assert!(spanning.is_empty(), "{spanning:?}");
        assert!(within.id("from ").is_some());
    }

    #[test]
    fn sentences_end_with_lines() {
        let text = "a b a b\r\na b\n\n\nb a  \n  a b";
        for mode in [BpeMode::Cross, BpeMode::Within] {
            let tokenizer = BpeTokenizer::new(learn(text, 8, mode));
            let sentences = Sentences::of(text, &tokenizer);
            let lines: Vec<String> = sentences.iter().map(|s| s.concat()).collect();
            assert_eq!(lines, ["a b a b\r\n", "a b\n\n\n", "b a  \n", "  a b"], "{mode:?}");
        }
        let within = learn(text, 8, BpeMode::Within);
        let chunks = |text| {
            let mut out = Vec::new();
            for_each_chunk(text, BpeMode::Within, |c| out.push(c));
            out
        };
        assert_eq!(chunks("  a b\t\n c\r\n\r\nd"), ["  ", "a ", "b\t\n", " ", "c\r\n\r\n", "d"]);
        assert!(within.encode("a b").len() >= 2);
    }

    /// Characters that stress exactness: line ends, tabs, combining marks, emoji with
    /// modifiers and joiners, right-to-left and CJK text.
    const TRAIN_CHARS: &[&str] = &[
        "a",
        "b",
        "c",
        "the",
        " ",
        " ",
        "\n",
        "\r\n",
        "\t",
        "e\u{301}",
        "é",
        "👍🏽",
        "👩\u{200d}💻",
        "שלום",
        "東京",
        ".",
        "\n\n",
    ];
    /// More characters, most of them unseen in training.
    const ENCODE_CHARS: &[&str] =
        &["a", "the", " ", "\n", "x", "ß", "\u{0}", "\u{a0}", "🦀", "\u{302}", "\r", "Ω", "\u{2028}", "b c"];

    #[test]
    fn decoding_gives_back_any_text_exactly() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let training = from_pieces(&mut rng, TRAIN_CHARS, 3_000) + "the end";
        let mut all_pieces = TRAIN_CHARS.to_vec();
        all_pieces.extend_from_slice(ENCODE_CHARS);
        for mode in [BpeMode::Cross, BpeMode::Within] {
            let model = learn(&training, 150, mode);
            assert!(model.n_merges() > 50, "{mode:?}: {}", model.n_merges());
            let tokenizer = BpeTokenizer::new(model.clone());
            for case in 0..300 {
                let len = rng.random_range(0..60);
                let text = from_pieces(&mut rng, &all_pieces, len);
                let tokens = model.encode(&text);
                assert_eq!(model.decode(&tokens), text, "{mode:?} case {case}");
                for token in &tokens {
                    // Either a learned token or one character unseen in training.
                    assert!(
                        model.id(token).is_some() || token.chars().count() == 1,
                        "{mode:?}: {token:?} in {text:?}"
                    );
                }
                // The tokenizer gives the same tokens, sentence by sentence.
                let sentences = Sentences::of(&text, &tokenizer);
                assert_eq!(sentences.concat(), tokens, "{mode:?} case {case}");
                for sentence in &sentences[..sentences.len().saturating_sub(1)] {
                    let last = sentence.last().unwrap();
                    assert!(last.ends_with(['\n', '\r']), "{mode:?}: {sentence:?}");
                }
            }
        }

        // Models learned from short random texts of any characters (controls, lone
        // combining marks, every kind of space), any vocabulary size: learning fails with
        // an error or succeeds, and encoding gives back any text exactly.
        let mut learned = 0;
        for case in 0..400 {
            let len = rng.random_range(0..50);
            let training = random_unicode(&mut rng, len);
            let mode = [BpeMode::Cross, BpeMode::Within][case % 2];
            let config = BpeConfig { vocab_size: rng.random_range(0..80), mode };
            let mut learner = match BpeLearner::new(&training, &config) {
                Ok(learner) => learner,
                Err(err) => {
                    assert!(matches!(err, Error::EmptyCorpus | Error::InvalidParameter { .. }), "{err:?}");
                    continue;
                }
            };
            while !learner.step(rng.random_range(1..5)).done {}
            let model = learner.into_model();
            learned += 1;
            let len = rng.random_range(0..50);
            for text in [training.clone(), random_unicode(&mut rng, len)] {
                let tokens = model.encode(&text);
                assert!(tokens.iter().all(|t| !t.is_empty()), "{tokens:?}");
                assert_eq!(model.decode(&tokens), text, "{mode:?} case {case}");
            }
            let _ = Corpus::build(&training, &BpeTokenizer::new(model), &VocabConfig::default());
        }
        assert!(learned > 100, "{learned}");
    }

    #[test]
    fn learning_is_deterministic_and_chunking_changes_nothing() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let text = from_pieces(&mut rng, TRAIN_CHARS, 2_000) + &phrase_corpus();
        for mode in [BpeMode::Cross, BpeMode::Within] {
            let config = BpeConfig { vocab_size: 120, mode };
            let one_shot = learn(&text, 120, mode);
            assert_eq!(one_shot, learn(&text, 120, mode));
            for chunk in [1, 7] {
                let mut learner = BpeLearner::new(&text, &config).unwrap();
                let mut calls = 0;
                let mut last = learner.progress();
                while !learner.is_done() {
                    let progress = learner.step(chunk);
                    assert!(progress.merges_done <= last.merges_done + chunk);
                    assert!(progress.fraction() >= last.fraction());
                    last = progress;
                    calls += 1;
                }
                assert!(last.done && last.vocab_size == 120, "{last:?}");
                assert!(calls >= last.merges_done / chunk);
                assert_eq!(learner.into_model(), one_shot, "{mode:?} in chunks of {chunk}");
            }
        }
        let a = learn(&text, 120, BpeMode::Cross).describe();
        assert!(a.starts_with("bpe(mode=cross,vocab_size=120,merges="), "{a}");
        for other in [learn(&text, 119, BpeMode::Cross), learn(&text, 120, BpeMode::Within)] {
            assert_ne!(a, other.describe());
        }
    }

    #[test]
    fn learning_stops_when_no_pair_occurs_twice() {
        let mut learner =
            BpeLearner::new("abcd abcd xyz", &BpeConfig { vocab_size: 1_000, mode: BpeMode::Cross }).unwrap();
        let progress = learner.step(1_000);
        assert!(progress.done);
        // a b, ab c, abc d, abcd ␣: " x", "xy" and so on occur once.
        assert_eq!(progress.merges_done, 4);
        assert_eq!(progress.vocab_size, 8 + 4);
        assert_eq!(progress.last_pair_count, 2);
        assert_eq!(progress.fraction(), 1.0);
        assert_eq!(learner.step(10), progress);
    }

    #[test]
    fn bad_parameters_say_what_to_do() {
        let learn_err = |text: &str, vocab_size| {
            BpeLearner::new(text, &BpeConfig { vocab_size, mode: BpeMode::Cross }).err().unwrap()
        };
        assert_eq!(learn_err("", 100), Error::EmptyCorpus);
        assert_eq!(learn_err(" \n\t\r\n", 100), Error::EmptyCorpus);
        for (text, vocab_size, message) in [
            ("abcabc", 2, "invalid vocab_size = 2: expected at least 3, the number of distinct characters"),
            ("abc", 0, "invalid vocab_size = 0: expected an integer from 1 to 1000000"),
            ("abc", 2_000_000, "invalid vocab_size = 2000000"),
        ] {
            let err = learn_err(text, vocab_size);
            assert!(err.to_string().starts_with(message), "{err}");
        }
        assert!(BpeMode::from_name("diagonal").unwrap_err().to_string().contains("cross"));
        assert_eq!(BpeMode::from_name(BpeMode::Within.name()), Ok(BpeMode::Within));
    }

    #[test]
    fn sgns_corpus_builds_over_bpe_tokens_counted_as_learning_counted_them() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let text = from_pieces(&mut rng, TRAIN_CHARS, 2_000) + &phrase_corpus() + &toy_corpus();
        for mode in [BpeMode::Cross, BpeMode::Within] {
            let tokenizer = BpeTokenizer::new(learn(&text, 150, mode));
            let corpus =
                Corpus::build(&text, &tokenizer, &VocabConfig { min_count: 1, max_vocab: None }).unwrap();
            assert!(corpus.n_sentences() > 50);
            // Encoding the training text splits it exactly as learning did.
            let model = tokenizer.model();
            for (word, &count) in corpus.vocab().words().iter().zip(corpus.vocab().counts()) {
                assert_eq!(model.provenance(word).map(|p| p.count), Some(count), "{mode:?}: {word:?}");
            }
            let merged = (0..model.vocab_size() as u32)
                .filter(|&id| model.provenance(model.token(id).unwrap()).unwrap().count > 0);
            assert_eq!(merged.count(), corpus.vocab().len());
        }
    }
}
