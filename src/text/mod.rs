//! Text to tokens: decoding a file, tokenizers and the vocabulary.
//!
//! [`decode_text`] turns a file's bytes into text (UTF-8, UTF-16 or Windows-1252, told from
//! the bytes) or refuses a file that is not text. A [`Tokenizer`] turns text into sentences
//! of tokens and hands them, one at a time, to a [`TokenSink`]; the sink (usually a
//! [`CorpusBuilder`], behind [`Corpus::build`]) interns them. Tokens are plain
//! `&str` and may contain any character, spaces and newlines included, so a byte-pair
//! tokenizer whose merges cross word boundaries fits the same interface.
//!
//! **Architecture Invariant:** training windows never cross a sentence boundary; a
//! tokenizer decides where sentences end (the word-level ones: at each line end).

mod bpe;
mod concordance;
mod decode;
mod interner;
mod spelling;
mod tokenize;
mod vocab;

pub use bpe::{
    BpeConfig, BpeLearner, BpeMode, BpeModel, BpeProgress, BpeTokenizer, MAX_VOCAB_SIZE, Merge, Provenance,
    spans_words,
};
pub use concordance::concordance;
pub use decode::{Decoded, Encoding, decode_text};
pub use interner::Words;
pub use spelling::{MAX_SUGGESTIONS, max_edits, nearest_spellings};
pub use tokenize::{WhitespaceTokenizer, WordTokenizer};
pub use vocab::{Corpus, CorpusBuilder, CutReport, Vocab, VocabConfig};

/// Receives the tokens of a text in order.
pub trait TokenSink {
    /// One token. It is never empty.
    fn token(&mut self, token: &str);
    /// The end of the current sentence; windows do not reach past it.
    fn end_sentence(&mut self);
}

/// Splits text into sentences of tokens.
///
/// **Precondition for implementors:** a text cut right after a `\n` that is followed by a
/// character other than `\n` or `\r` must give, tokenized in its two parts, the same
/// tokens and sentence ends as tokenized whole. [`CorpusBuilder`] relies on it to tokenize
/// a large text in pieces; the word tokenizers work line by line and BPE never merges across
/// such a boundary.
pub trait Tokenizer {
    /// Feeds every token of `text` to `sink`, ending each sentence with `sink.end_sentence()`.
    fn tokenize(&self, text: &str, sink: &mut dyn TokenSink);

    /// A short, stable description of the tokenizer and its options (part of the run fingerprint).
    fn describe(&self) -> String;
}

impl<T: Tokenizer + ?Sized> Tokenizer for &T {
    fn tokenize(&self, text: &str, sink: &mut dyn TokenSink) {
        (**self).tokenize(text, sink)
    }

    fn describe(&self) -> String {
        (**self).describe()
    }
}

impl<T: Tokenizer + ?Sized> Tokenizer for Box<T> {
    fn tokenize(&self, text: &str, sink: &mut dyn TokenSink) {
        (**self).tokenize(text, sink)
    }

    fn describe(&self) -> String {
        (**self).describe()
    }
}

impl<T: Tokenizer + ?Sized> Tokenizer for std::rc::Rc<T> {
    fn tokenize(&self, text: &str, sink: &mut dyn TokenSink) {
        (**self).tokenize(text, sink)
    }

    fn describe(&self) -> String {
        (**self).describe()
    }
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
