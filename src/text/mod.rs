//! Text to tokens: decoding a file, tokenizers and the vocabulary.
//!
//! [`decode_text`] turns a file's bytes into text (UTF-8, UTF-16 or Windows-1252, told from
//! the bytes) or refuses a file that is not text. A [`Tokenizer`] turns text into sentences
//! of tokens and hands them, one at a time, to a [`TokenSink`]; the sink (usually a
//! [`CorpusBuilder`], behind [`Corpus::build`]) interns them. Tokens are plain
//! `&str` and may contain any character, spaces and newlines included, so a byte-pair
//! tokenizer whose merges cross word boundaries fits the same interface.
//!
//! Before training, [`Markup`] tells a text that is XML or HTML and keeps only its text, and
//! [`TooSmall`] says when a corpus is too small for its vectors to mean anything.
//!
//! **Architecture Invariant:** training windows never cross a sentence boundary; a
//! tokenizer decides where sentences end (the word-level ones: at each line end).

mod bpe;
mod concordance;
mod decode;
mod interner;
mod markup;
mod small;
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
pub use markup::{MARKUP_FRACTION, Markup, MarkupKind};
pub use small::{MIN_TRAINING_TOKENS, MIN_VOCAB_SIZE, TooSmall};
pub use spelling::{MAX_SUGGESTIONS, max_edits, nearest_spellings};
pub use tokenize::{WhitespaceTokenizer, WordTokenizer};
pub use vocab::{Corpus, CorpusBuilder, CutReport, Vocab, VocabConfig};

/// The whitespace characters a token may hold, each of which the page shows as a sign
/// (`WHITESPACE_SIGNS` in www/shared/tokens.js lists the same four).
pub const TOKEN_WHITESPACE: [char; 4] = [' ', '\n', '\t', '\r'];

/// How many of `words` hold whitespace (BPE tokens that span words or line ends do): the
/// page explains its whitespace signs only where a vocabulary has such tokens.
pub fn count_holding_whitespace(words: &[String]) -> usize {
    words.iter().filter(|word| word.contains(TOKEN_WHITESPACE)).count()
}

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

#[cfg(test)]
mod tests {
    use super::count_holding_whitespace;

    #[test]
    fn counts_the_words_holding_a_space_a_tab_or_a_line_end() {
        let words: Vec<String> =
            ["the", "the ", "and\n", "a\tb", "x\r", "word", "\u{a0}nbsp"].map(String::from).to_vec();
        assert_eq!(count_holding_whitespace(&words), 4);
        assert_eq!(count_holding_whitespace(&words[..1]), 0);
    }
}
