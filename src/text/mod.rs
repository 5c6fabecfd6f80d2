//! Text to tokens: tokenizers and the vocabulary.
//!
//! A [`Tokenizer`] turns text into sentences of tokens and hands them, one at a time, to a
//! [`TokenSink`]; the sink (usually [`Corpus::build`]) interns them. Tokens are plain
//! `&str` and may contain any character, spaces and newlines included, so a byte-pair
//! tokenizer whose merges cross word boundaries fits the same interface.
//!
//! **Architecture Invariant:** training windows never cross a sentence boundary; a
//! tokenizer decides where sentences end (the word-level ones: at each line end).

mod bpe;
mod vocab;
mod word;

pub use bpe::{
    BpeConfig, BpeLearner, BpeMode, BpeModel, BpeProgress, BpeTokenizer, MAX_VOCAB_SIZE, Merge, Provenance,
    spans_words,
};
pub use vocab::{Corpus, CutReport, Vocab, VocabConfig};
pub use word::{WhitespaceTokenizer, WordTokenizer};

/// Receives the tokens of a text in order.
pub trait TokenSink {
    /// One token. It is never empty.
    fn token(&mut self, token: &str);
    /// The end of the current sentence; windows do not reach past it.
    fn end_sentence(&mut self);
}

/// Splits text into sentences of tokens.
pub trait Tokenizer {
    /// Feeds every token of `text` to `sink`, ending each sentence with `sink.end_sentence()`.
    fn tokenize(&self, text: &str, sink: &mut dyn TokenSink);

    /// A short, stable description of the tokenizer and its options (part of the run fingerprint).
    fn describe(&self) -> String;
}

/// Collects tokens as owned sentences; handy for tests and small texts.
#[derive(Debug, Default, PartialEq)]
pub struct Sentences(pub Vec<Vec<String>>);

impl TokenSink for Sentences {
    fn token(&mut self, token: &str) {
        if self.0.is_empty() {
            self.0.push(Vec::new());
        }
        self.0.last_mut().expect("pushed above").push(token.to_string());
    }

    fn end_sentence(&mut self) {
        // An empty trailing sentence is reused, so blank lines leave no empty sentences.
        if self.0.last().is_none_or(|s| !s.is_empty()) {
            self.0.push(Vec::new());
        }
    }
}

impl Sentences {
    /// Tokenizes `text` and returns its non-empty sentences.
    pub fn of(text: &str, tokenizer: &dyn Tokenizer) -> Vec<Vec<String>> {
        let mut sink = Sentences::default();
        tokenizer.tokenize(text, &mut sink);
        sink.0.retain(|s| !s.is_empty());
        sink.0
    }
}
