//! Whether a text is large enough to learn from: a verdict given before training, so that
//! a person who opens a few sentences knows the map will show noise, and why.
//!
//! # Where the thresholds come from
//!
//! The built-in sample (`crate::planted`) is written to be learnable: 183 words, each
//! entity's contexts drawn from small pools. Trained with its preset on its first *n*
//! sentences (three seeds each), 3CosAdd answered this share of its planted analogies:
//!
//! | tokens an epoch | 1,217 | 2,420 | 4,906 | 9,769 | 24,052 |
//! |-----------------|-------|-------|-------|-------|--------|
//! | analogies right | 4 %   | 7 %   | 25 %  | 68 %  | 100 %  |
//!
//! So below [`MIN_TRAINING_TOKENS`] an epoch, even a text made to be learned gives vectors
//! that answer next to nothing; a natural text needs more. A vocabulary under
//! [`MIN_VOCAB_SIZE`] words is too few for neighbours to mean anything: ten neighbours are
//! then a fifth of all the words, so chance alone puts most of them in any word's list.

use std::fmt;

use super::Corpus;
use crate::error::thousands;

/// Tokens an epoch below which the vectors are noise (see the module documentation).
pub const MIN_TRAINING_TOKENS: usize = 5_000;

/// Vocabulary size below which neighbours are mostly chance (see the module documentation).
pub const MIN_VOCAB_SIZE: usize = 50;

/// A text too small to learn from: its tokens an epoch and its vocabulary, at least one of
/// them under its threshold. `Display` says so in one line a person can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooSmall {
    pub training_tokens: usize,
    pub vocab_size: usize,
}

impl TooSmall {
    /// The verdict on a text of `training_tokens` tokens an epoch and `vocab_size` words:
    /// `None` when both reach their thresholds.
    pub fn check(training_tokens: usize, vocab_size: usize) -> Option<TooSmall> {
        (training_tokens < MIN_TRAINING_TOKENS || vocab_size < MIN_VOCAB_SIZE)
            .then_some(TooSmall { training_tokens, vocab_size })
    }
}

impl Corpus {
    /// Whether this corpus is too small to learn from (see [`TooSmall`]).
    pub fn too_small(&self) -> Option<TooSmall> {
        TooSmall::check(self.n_tokens(), self.vocab().len())
    }
}

impl fmt::Display for TooSmall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tokens = format!(
            "{} {} an epoch",
            thousands(self.training_tokens as u64),
            if self.training_tokens == 1 { "token" } else { "tokens" }
        );
        let words = format!(
            "{} {}",
            thousands(self.vocab_size as u64),
            if self.vocab_size == 1 { "word" } else { "words" }
        );
        let (few_tokens, few_words) =
            (self.training_tokens < MIN_TRAINING_TOKENS, self.vocab_size < MIN_VOCAB_SIZE);
        let what = match (few_tokens, few_words) {
            (true, true) => format!("{tokens} and a vocabulary of {words}"),
            (true, false) => tokens,
            _ => format!("a vocabulary of {words}"),
        };
        write!(
            f,
            "{what}: too few for the vectors to mean anything, so the map and the neighbours will be noise; \
             {} tokens an epoch and {MIN_VOCAB_SIZE} words are the least (more text, or a lower min count)",
            thousands(MIN_TRAINING_TOKENS as u64)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planted::planted_corpus;
    use crate::text::{VocabConfig, WhitespaceTokenizer};

    #[test]
    fn the_verdict_names_what_is_too_small() {
        let cases: &[(usize, usize, Option<&str>)] = &[
            (
                42,
                10,
                Some(
                    "42 tokens an epoch and a vocabulary of 10 words: too few for the vectors to mean \
                     anything, so the map and the neighbours will be noise; 5,000 tokens an epoch and 50 \
                     words are the least (more text, or a lower min count)",
                ),
            ),
            (1, 1, Some("1 token an epoch and a vocabulary of 1 word: too few")),
            (4_999, 500, Some("4,999 tokens an epoch: too few")),
            (1_000_000, 49, Some("a vocabulary of 49 words: too few")),
            (5_000, 50, None),
            (1_234_567, 50, None),
        ];
        for &(tokens, words, expected) in cases {
            let verdict = TooSmall::check(tokens, words).map(|v| v.to_string());
            match expected {
                None => assert_eq!(verdict, None, "{tokens} tokens, {words} words"),
                Some(start) => {
                    let verdict = verdict.expect("too small");
                    assert!(verdict.starts_with(start), "{verdict}");
                }
            }
        }
    }

    /// The sample's first sentences, where its analogies do not come out yet, are too small;
    /// the whole sample is not.
    #[test]
    fn the_planted_sample_passes_and_its_first_sentences_do_not() {
        let corpus = |sentences| {
            let text = planted_corpus(sentences, crate::planted::SAMPLE_SEED);
            Corpus::build(&text, &WhitespaceTokenizer, &VocabConfig { min_count: 1, max_vocab: None })
                .unwrap()
        };
        assert_eq!(corpus(crate::planted::SAMPLE_SENTENCES).too_small(), None);
        let small = corpus(200).too_small().expect("200 sentences are too few");
        assert!(
            small.training_tokens < MIN_TRAINING_TOKENS && small.vocab_size >= MIN_VOCAB_SIZE,
            "{small:?}"
        );
        let tiny = corpus(2).too_small().expect("2 sentences are too few");
        assert!(tiny.vocab_size < MIN_VOCAB_SIZE, "{tiny:?}");
    }
}
