//! The one error type of the core. Every variant carries what a person needs to act on it;
//! `Display` gives a one-line message fit for a status line or a CLI's stderr.

use std::fmt;

/// Everything that can go wrong in the core.
///
/// Errors derive `PartialEq` so tests can `assert_eq!` on them.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// Occurs when a parameter lies outside its valid range; `expected` names the range.
    InvalidParameter { name: &'static str, value: String, expected: String },
    /// Occurs when the text holds no token at all (empty, or only whitespace).
    EmptyCorpus,
    /// Occurs when every token type was cut by `min_count` / `max_vocab`.
    EmptyVocabulary { types_cut: usize, tokens_cut: u64, min_count: u64, max_count: u64 },
    /// Occurs when training produces NaN or infinity, usually because `alpha` is too large.
    Diverged { epoch: u32, tokens_done: u64 },
    /// Occurs when a query names words that are not in the vocabulary; lists each of them.
    UnknownWords(Vec<String>),
    /// Occurs when a vectors file is malformed; `line` is 1-based (0 for binary data).
    Format { line: usize, message: String },
    /// Occurs when a benchmark file (analogy questions or word-pair similarities) is
    /// malformed or holds no question; `line` is 1-based (0 for the file as a whole).
    BenchmarkFormat { line: usize, message: String },
    /// Occurs when reading or writing a file fails.
    Io(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidParameter { name, value, expected } => {
                write!(f, "invalid {name} = {value}: expected {expected}")
            }
            Error::EmptyCorpus => write!(f, "the text holds no tokens: it is empty or only whitespace"),
            Error::EmptyVocabulary { types_cut, tokens_cut, min_count, max_count } => write!(
                f,
                "no word is left in the vocabulary: all {types_cut} distinct words ({tokens_cut} tokens) \
                 were cut by min_count = {min_count}; the most frequent word occurs {max_count} times, \
                 so try min_count <= {max_count}"
            ),
            Error::Diverged { epoch, tokens_done } => write!(
                f,
                "training diverged (NaN or infinity) in epoch {epoch} after {tokens_done} tokens; \
                 lower the learning rate alpha"
            ),
            Error::UnknownWords(words) => {
                let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
                let verb = if words.len() == 1 { "is" } else { "are" };
                write!(f, "{} {verb} not in the vocabulary", quoted.join(" and "))
            }
            Error::Format { line: 0, message } => write!(f, "malformed vectors file: {message}"),
            Error::Format { line, message } => write!(f, "malformed vectors file, line {line}: {message}"),
            Error::BenchmarkFormat { line: 0, message } => write!(f, "malformed benchmark file: {message}"),
            Error::BenchmarkFormat { line, message } => {
                write!(f, "malformed benchmark file, line {line}: {message}")
            }
            Error::Io(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(err: std::io::Error) -> Self {
        Error::Io(err.to_string())
    }
}

/// The core's result type.
pub type Result<T> = std::result::Result<T, Error>;
