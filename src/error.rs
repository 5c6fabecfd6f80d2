//! The one error type of the core. Every variant carries what a person needs to act on it;
//! `Display` gives a one-line message fit for a status line or a CLI's stderr.

use std::fmt;

use crate::text::{MAX_SUGGESTIONS, nearest_spellings};

/// Everything that can go wrong in the core.
///
/// Errors derive `PartialEq` so tests can `assert_eq!` on them.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// Occurs when a parameter lies outside its valid range; `expected` names the range.
    InvalidParameter { name: &'static str, value: String, expected: String },
    /// Occurs when a file's bytes are not text (an image, an archive, a program, binary
    /// data); `kind` says what it looks like, e.g. "a PNG image".
    NotText { kind: String },
    /// Occurs when the text holds no token at all (empty, or only whitespace).
    EmptyCorpus,
    /// Occurs when the text is not blank but the tokenizer made no token of it: the word
    /// tokenizer drops punctuation and symbols, and the text holds nothing else. `sample`
    /// holds its first few non-space characters.
    NoWords { sample: String },
    /// Occurs when every token type was cut by `min_count`; `max_count` and `second_count`
    /// are the counts of the two most frequent types (`second_count` is 0 when there is one).
    EmptyVocabulary { types_cut: usize, tokens_cut: u64, min_count: u64, max_count: u64, second_count: u64 },
    /// Occurs when a single distinct word is left, in the text or after `min_count`; an
    /// embedding needs at least two. `types_cut` words were cut; `second_count` is the
    /// count of the most frequent of them (0 when none was cut).
    SingleWord { word: String, types_cut: usize, min_count: u64, second_count: u64 },
    /// Occurs when the vectors of `vocab_size` words at `dim` would take more memory than
    /// `limit_bytes` (see `train::MAX_MODEL_BYTES`); checked before anything is allocated.
    /// `max_words` words fit at this `dim`, and `max_dim` (0 if none) fits this vocabulary.
    TooLarge {
        vocab_size: usize,
        dim: usize,
        estimate_bytes: u64,
        limit_bytes: u64,
        max_words: usize,
        max_dim: usize,
    },
    /// Occurs when training would find no (word, context) pair to learn from: no line holds
    /// two words of the vocabulary (`sample` is `None`), or subsampling at rate `sample`
    /// keeps so few tokens of a short text that an epoch is expected to train only
    /// `windows` windows (fewer than one).
    NoContext { sample: Option<f64>, windows: f64 },
    /// Occurs when training produces NaN or infinity, usually because `alpha` is too large.
    Diverged { epoch: u32, tokens_done: u64 },
    /// Occurs when a query names words that are not in the vocabulary; lists each of them,
    /// with the vocabulary's nearest spellings of it.
    UnknownWords(Vec<UnknownWord>),
    /// Occurs when the neighbours of a word whose vector is all zeros are asked for: it has
    /// no direction, so its cosine with every word is undefined (a vectors file may hold such).
    NoDirection { word: String },
    /// Occurs when a vectors file is malformed; `line` is 1-based (0 for binary data).
    Format { line: usize, message: String },
    /// Occurs when a benchmark file (analogy questions or word-pair similarities) is
    /// malformed or holds no question; `line` is 1-based (0 for the file as a whole).
    BenchmarkFormat { line: usize, message: String },
    /// Occurs when a language model's file or tokenizer is malformed, or holds what embedscope
    /// does not read (a dtype, a quantization); the message names the file's part at fault
    /// and what to do.
    Model(String),
    /// Occurs when a compressed file (gzip, bzip2, xz, zip) is corrupt, cut short or empty,
    /// inflates past the limits (a zip bomb), or is a zip of several files none of which was
    /// named; the message says what to do.
    Archive(String),
    /// Occurs when a Parquet table is malformed, cut short, compressed with a codec embedscope
    /// does not read, or holds no words and vectors it can take (a null, rows of different
    /// lengths); the message names the row or column at fault and what to do.
    Parquet(String),
    /// Occurs when reading or writing a file fails.
    Io(String),
    /// Occurs when the session is asked for what it does not hold or cannot do now (no text
    /// yet, a text too large for the explorer, an event its state refuses, vectors lost to a
    /// run that diverged); the message says what to do.
    Session(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidParameter { name, value, expected } => {
                write!(f, "invalid {name} = {value}: expected {expected}")
            }
            Error::NotText { kind } => write!(
                f,
                "this file is not text: it looks like {kind}. Open a plain-text file (UTF-8, UTF-16 or Latin-1)"
            ),
            Error::EmptyCorpus => write!(
                f,
                "the text holds no tokens: it is empty or only whitespace; choose a file with some text in it"
            ),
            Error::NoWords { sample } => write!(
                f,
                "the text holds no words, only punctuation and symbols (such as '{}'), which the word \
                 tokenizer drops: turn on keep punctuation, or use the whitespace tokenizer",
                shorten(sample)
            ),
            &Error::EmptyVocabulary { types_cut, tokens_cut, min_count, max_count, second_count } => {
                write_empty_vocabulary(f, types_cut, tokens_cut, min_count, max_count, second_count)
            }
            Error::SingleWord { word, types_cut: 0, .. } => write!(
                f,
                "the text holds only one distinct word, '{}': embeddings need at least two distinct words",
                shorten(word)
            ),
            Error::SingleWord { word, types_cut, min_count, second_count } => write!(
                f,
                "only one word, '{}', occurs at least min_count = {min_count} times (the other {} distinct \
                 words were cut): embeddings need at least two distinct words, so try min_count <= {second_count}",
                shorten(word),
                thousands(*types_cut as u64)
            ),
            &Error::TooLarge { vocab_size, dim, estimate_bytes, limit_bytes, max_words, max_dim } => {
                write_too_large(f, vocab_size, dim, (estimate_bytes, limit_bytes), max_words, max_dim)
            }
            Error::NoContext { sample: None, .. } => write!(
                f,
                "no line of the text holds two words of the vocabulary, so there is nothing to learn: \
                 word2vec learns a word from the words near it in a line; use a text whose lines hold \
                 several words"
            ),
            Error::NoContext { sample: Some(sample), windows } => write!(
                f,
                "subsampling (sample = {sample}) drops nearly every token of this short text: an epoch \
                 would train about {windows:.2} windows of words, fewer than one, so nothing would be \
                 learned; set sample to 0 to turn subsampling off, or use a longer text"
            ),
            Error::Diverged { epoch, tokens_done } => write!(
                f,
                "training diverged (NaN or infinity) in epoch {epoch} after {tokens_done} tokens; \
                 lower the learning rate alpha"
            ),
            Error::UnknownWords(words) => {
                let mut result = Ok(());
                unknown_words_message(words, &mut |part| {
                    result = result.and_then(|()| match part {
                        MessagePart::Text(text) => f.write_str(text),
                        MessagePart::Suggestion { word, .. } => write!(f, "'{word}'"),
                    });
                });
                result
            }
            Error::NoDirection { word } => write!(
                f,
                "the vector of '{}' is all zeros: it points no way, so no word is nearer to it than another",
                shorten(word)
            ),
            Error::Format { line: 0, message } => write!(f, "malformed vectors file: {message}"),
            Error::Format { line, message } => write!(f, "malformed vectors file, line {line}: {message}"),
            Error::BenchmarkFormat { line: 0, message } => write!(f, "malformed benchmark file: {message}"),
            Error::BenchmarkFormat { line, message } => {
                write!(f, "malformed benchmark file, line {line}: {message}")
            }
            Error::Model(message) | Error::Parquet(message) | Error::Archive(message) => {
                write!(f, "{message}")
            }
            Error::Io(message) | Error::Session(message) => write!(f, "{message}"),
        }
    }
}

/// The message of [`Error::EmptyVocabulary`]: what `min_count` cut, and the one that keeps
/// a word.
fn write_empty_vocabulary(
    f: &mut fmt::Formatter<'_>,
    types_cut: usize,
    tokens_cut: u64,
    min_count: u64,
    max_count: u64,
    second_count: u64,
) -> fmt::Result {
    write!(
        f,
        "no word is left in the vocabulary: all {} distinct words ({} tokens) were cut by \
         min_count = {min_count}; the most frequent word occurs {}",
        thousands(types_cut as u64),
        thousands(tokens_cut),
        times(max_count)
    )?;
    if second_count > 0 && second_count < max_count {
        write!(f, " and the next {}", times(second_count))?;
    }
    write!(f, ", so try min_count <= {}", if second_count > 0 { second_count } else { max_count })
}

/// The message of [`Error::TooLarge`]: the memory needed against the limit, and what would
/// fit.
fn write_too_large(
    f: &mut fmt::Formatter<'_>,
    vocab_size: usize,
    dim: usize,
    (estimate_bytes, limit_bytes): (u64, u64),
    max_words: usize,
    max_dim: usize,
) -> fmt::Result {
    write!(
        f,
        "the model is too large: {} words at dim {dim} need about {} (the vectors, their copies \
         for queries and the text's tokens), over the limit of {}; ",
        thousands(vocab_size as u64),
        bytes(estimate_bytes),
        bytes(limit_bytes)
    )?;
    if max_words < 2 {
        return write!(f, "the text is too long: use a shorter text");
    }
    write!(
        f,
        "raise min_count or set max_vocab to keep at most {} words at dim {dim}",
        thousands(max_words as u64)
    )?;
    if max_dim > 0 {
        write!(f, ", or lower dim to {max_dim}")?;
    }
    Ok(())
}

impl std::error::Error for Error {}

/// A word a query named that the vocabulary lacks, with the vocabulary's nearest spellings of
/// it, nearest first (perhaps none).
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownWord {
    pub word: String,
    pub suggestions: Vec<String>,
}

impl UnknownWord {
    /// `word`, with up to [`MAX_SUGGESTIONS`] nearest spellings of it in `vocabulary` (see
    /// [`nearest_spellings`]). **Unchecked precondition:** `vocabulary` is ordered most
    /// frequent first.
    pub fn new(word: &str, vocabulary: &[String]) -> UnknownWord {
        let suggestions = nearest_spellings(word, vocabulary, MAX_SUGGESTIONS);
        UnknownWord {
            word: word.to_string(),
            suggestions: suggestions.into_iter().map(|i| vocabulary[i].clone()).collect(),
        }
    }
}

/// A piece of the message of [`Error::UnknownWords`]: text, or a spelling suggested for the
/// unknown word `replaces`, which a CLI quotes and the page shows as a button that uses it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MessagePart<'a> {
    Text(&'a str),
    Suggestion { word: &'a str, replaces: &'a str },
}

/// The one wording of [`Error::UnknownWords`], in pieces, so that the CLI and the page say
/// the same: "'qeen' is not in the vocabulary. Did you mean 'queen' or 'Queen'?"; with several
/// words, "'x' and 'y' are not in the vocabulary. For 'x', did you mean …?"
pub fn unknown_words_message<'a>(words: &'a [UnknownWord], part: &mut impl FnMut(MessagePart<'a>)) {
    use MessagePart::{Suggestion, Text};
    for (i, unknown) in words.iter().enumerate() {
        part(Text(if i == 0 { "'" } else { " and '" }));
        part(Text(&unknown.word));
        part(Text("'"));
    }
    part(Text(if words.len() == 1 { " is not in the vocabulary" } else { " are not in the vocabulary" }));
    for (i, unknown) in words.iter().filter(|w| !w.suggestions.is_empty()).enumerate() {
        if i == 0 {
            part(Text("."));
        }
        if words.len() == 1 {
            part(Text(" Did you mean "));
        } else {
            part(Text(" For '"));
            part(Text(&unknown.word));
            part(Text("', did you mean "));
        }
        let n = unknown.suggestions.len();
        for (j, word) in unknown.suggestions.iter().enumerate() {
            if j > 0 {
                part(Text(if j + 1 == n { " or " } else { ", " }));
            }
            part(Suggestion { word, replaces: &unknown.word });
        }
        part(Text("?"));
    }
}

impl From<std::io::Error> for Error {
    /// The `Error` an `io::Error` carries (a compressed file's reader sends its own through
    /// `Read`), else [`Error::Io`].
    fn from(err: std::io::Error) -> Self {
        match err.get_ref().and_then(|inner| inner.downcast_ref::<Error>()) {
            Some(error) => error.clone(),
            None => Error::Io(err.to_string()),
        }
    }
}

/// `1234567` as `"1,234,567"`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// "1 time", "2 times".
fn times(n: u64) -> String {
    if n == 1 { "1 time".to_string() } else { format!("{} times", thousands(n)) }
}

/// A size in bytes in binary units: "512 bytes", "3.4 MiB", "1.5 GiB".
pub(crate) fn bytes(n: u64) -> String {
    const KIB: f64 = 1024.0;
    let x = n as f64;
    if x >= KIB * KIB * KIB {
        format!("{:.1} GiB", x / (KIB * KIB * KIB))
    } else if x >= KIB * KIB {
        format!("{:.1} MiB", x / (KIB * KIB))
    } else if x >= KIB {
        format!("{:.1} KiB", x / KIB)
    } else {
        format!("{n} bytes")
    }
}

/// A word as shown in a one-line message: whitespace escaped as in vector files (a BPE
/// token may end in a line break), at most 40 characters, with "…" when cut.
fn shorten(word: &str) -> String {
    let escaped = crate::io::escape_token(word);
    match escaped.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &escaped[..at]),
        None => escaped.into_owned(),
    }
}

/// The core's result type.
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_messages_are_readable() {
        let cases = [(0, "0"), (999, "999"), (1_000, "1,000"), (1_234_567, "1,234,567")];
        for (n, expected) in cases {
            assert_eq!(thousands(n), expected);
        }
        let cases = [(512, "512 bytes"), (1536, "1.5 KiB"), (3 << 29, "1.5 GiB"), (5 << 20, "5.0 MiB")];
        for (n, expected) in cases {
            assert_eq!(bytes(n), expected);
        }
        assert_eq!(shorten("short"), "short");
        assert_eq!(shorten("Jesus\n"), "Jesus\\n");
        assert_eq!(shorten(&"é".repeat(50)), format!("{}…", "é".repeat(40)));
    }

    #[test]
    fn unknown_words_are_named_with_their_suggestions() {
        let unknown = |word: &str, suggestions: &[&str]| UnknownWord {
            word: word.to_string(),
            suggestions: suggestions.iter().map(|s| s.to_string()).collect(),
        };
        let cases: &[(&[UnknownWord], &str)] = &[
            (&[unknown("yeti", &[])], "'yeti' is not in the vocabulary"),
            (&[unknown("pony", &[]), unknown("yeti", &[])], "'pony' and 'yeti' are not in the vocabulary"),
            (&[unknown("france", &["France"])], "'france' is not in the vocabulary. Did you mean 'France'?"),
            (
                &[unknown("qeen", &["queen", "Queen", "quern"])],
                "'qeen' is not in the vocabulary. Did you mean 'queen', 'Queen' or 'quern'?",
            ),
            (
                &[
                    unknown("france", &["France"]),
                    unknown("yeti", &[]),
                    unknown("Egpyt", &["Egypt", "egypt"]),
                ],
                "'france' and 'yeti' and 'Egpyt' are not in the vocabulary. For 'france', did you mean \
                 'France'? For 'Egpyt', did you mean 'Egypt' or 'egypt'?",
            ),
        ];
        for (words, expected) in cases {
            assert_eq!(Error::UnknownWords(words.to_vec()).to_string(), *expected);
        }
    }

    #[test]
    fn a_suggestion_is_a_part_that_names_the_word_it_replaces() {
        let words = [UnknownWord { word: "Egpyt".into(), suggestions: vec!["Egypt".into()] }];
        let mut parts = Vec::new();
        unknown_words_message(&words, &mut |part| parts.push(part));
        let suggestions: Vec<_> =
            parts.iter().filter(|p| matches!(p, MessagePart::Suggestion { .. })).collect();
        assert_eq!(suggestions, [&MessagePart::Suggestion { word: "Egypt", replaces: "Egpyt" }]);
    }

    #[test]
    fn an_unknown_word_finds_its_suggestions_in_the_vocabulary() {
        let vocabulary: Vec<String> = ["the", "France", "french"].map(String::from).to_vec();
        let found = UnknownWord::new("france", &vocabulary);
        assert_eq!(
            found,
            UnknownWord { word: "france".into(), suggestions: vec!["France".into(), "french".into()] }
        );
    }
}
