//! [`VectorsParser`], the one reader of every vector format: a push parser that takes a
//! file in slices of any size, so the browser worker can load a large file a few megabytes at
//! a time and report progress in between.
//!
//! **Invariant:** the result and every error are the same however the file is sliced: a
//! slice may end inside a line, a UTF-8 character or a binary float, and the parser keeps
//! the unfinished part for the next push.

mod binary;
mod lines;

use std::collections::HashMap;
use std::io::Read;

use super::escape::unescape_leniently;
use super::format::VectorFormat;
use crate::error::{Error, Result, thousands};
use crate::vectors::Embeddings;

/// The most words, and floats, that a parser reserves room for from a header (or the
/// metadata) alone: a short file with a huge header fails on its missing data, not by
/// exhausting memory.
const MAX_PREALLOCATED_WORDS: usize = 1 << 16;
const MAX_PREALLOCATED_FLOATS: usize = 1 << 22;

/// Bytes read per `read` call by [`VectorsParser::read_all`].
const READ_CHUNK: usize = 1 << 20;

/// Words and values longer than this are shortened in error messages, which stay one line.
const MAX_SHOWN_CHARS: usize = 40;

/// A push parser for one vector file in one [`VectorFormat`].
///
/// ```
/// use embedscope::io::{VectorFormat, VectorsParser};
///
/// let mut parser = VectorsParser::new(VectorFormat::Glove);
/// parser.push(b"the 0.5 -1\nof 2 ").unwrap(); // a slice may end anywhere
/// parser.push(b"0.25\n").unwrap();
/// assert_eq!(parser.words_read(), 2);
/// let emb = parser.finish().unwrap();
/// assert_eq!(emb.words(), ["the", "of"]);
/// ```
///
/// Errors are [`Error::Format`] with the 1-based line of the problem; in word2vec binary
/// data, which has no lines, the line is 0 and the message starts with the 1-based word
/// number (`"word 7: …"`). After an error the parser is spent: every later call returns
/// the same error.
pub struct VectorsParser {
    format: VectorFormat,
    bytes_read: u64,
    /// Lines handled so far (the text formats, and the binary format's header).
    line: usize,
    /// The start of a line that a push cut off, completed by the next push.
    cut_line: Vec<u8>,
    /// The word count a word2vec header promises.
    promised: Option<usize>,
    /// From the header, or from the first row of GloVe and TSV.
    dim: Option<usize>,
    /// Complete rows (words with their vectors) read so far.
    n_rows: usize,
    /// The words of the word2vec and GloVe formats; TSV's come from `metadata` or are row numbers.
    words: Vec<String>,
    vectors: Vec<f32>,
    /// Where each word first occurred: its line, or its word number in binary.
    first_seen: HashMap<String, usize>,
    /// The words of `metadata.tsv`, for TSV.
    metadata: Option<Vec<String>>,
    /// The first blank line after which no row has come yet: an error only if one comes.
    blank_line: Option<usize>,
    /// GloVe: the first line is two integers, like a word2vec header (used in a hint).
    header_like_first_line: bool,
    binary: Binary,
    failed: Option<Error>,
    /// Words whose bytes are not all UTF-8, read with U+FFFD in place of what does not decode.
    non_utf8_words: usize,
}

impl std::fmt::Debug for VectorsParser {
    /// Where the parser stands, without the words and vectors.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VectorsParser")
            .field("format", &self.format)
            .field("bytes_read", &self.bytes_read)
            .field("lines", &self.line)
            .field("words_read", &self.n_rows)
            .field("dim", &self.dim)
            .field("failed", &self.failed)
            .field("non_utf8_words", &self.non_utf8_words)
            .finish_non_exhaustive()
    }
}

/// `bytes` as text, each byte that is not UTF-8 read as U+FFFD, and whether one was.
fn lossy(bytes: &[u8]) -> (std::borrow::Cow<'_, str>, bool) {
    let text = String::from_utf8_lossy(bytes);
    let replaced = matches!(text, std::borrow::Cow::Owned(_));
    (text, replaced)
}

/// Said of a word that occurs twice once bytes that are not UTF-8 read as U+FFFD.
const NOT_UTF8_ALIKE: &str =
    ", once its bytes that are not UTF-8 are read as \u{FFFD}: the file's words are in another encoding";

/// Where the binary data stands after the header line.
enum Binary {
    /// The bytes of a word, up to the space that ends it.
    Word(Vec<u8>),
    /// The vector of `word` (`escaped` as in the file), `left` floats to go, `partial`
    /// holding the first `partial_len` bytes of a float that a push cut.
    Vector { word: String, escaped: String, left: usize, partial: [u8; 4], partial_len: usize },
    /// After the promised words: only whitespace may follow.
    Trailer,
}

/// What is wrong with a row's values.
#[derive(Debug, PartialEq)]
pub(super) enum RowFault<'a> {
    /// The row holds `found` values, not the dimension (or none, when it is not known yet).
    Count { found: usize },
    /// Value `index` (1-based) does not parse as a number.
    NotANumber { index: usize, field: &'a str },
    /// Value `index` (1-based) is NaN or infinite.
    NotFinite { index: usize, field: &'a str },
}

/// Parses `fields` into `out` as they are split off, expecting `dim` values (any number but
/// 0 when `None`), and returns how many there were. A wrong count is reported before a bad
/// value. On a fault `out` is left as it was.
pub(super) fn parse_values<'a>(
    fields: impl Iterator<Item = &'a str>,
    dim: Option<usize>,
    out: &mut Vec<f32>,
) -> std::result::Result<usize, RowFault<'a>> {
    let start = out.len();
    let limit = dim.unwrap_or(usize::MAX);
    let mut found = 0;
    let mut fault = None;
    for field in fields {
        found += 1;
        if found > limit || fault.is_some() {
            continue;
        }
        match field.parse::<f32>() {
            Ok(value) if value.is_finite() => out.push(value),
            Ok(_) => fault = Some(RowFault::NotFinite { index: found, field }),
            Err(_) => fault = Some(RowFault::NotANumber { index: found, field }),
        }
    }
    let fault =
        if found != limit && (dim.is_some() || found == 0) { Some(RowFault::Count { found }) } else { fault };
    match fault {
        Some(fault) => {
            out.truncate(start);
            Err(fault)
        }
        None => Ok(found),
    }
}

/// `text` in single quotes, shortened and with control characters escaped, so an error
/// message stays one readable line.
fn quoted(text: &str) -> String {
    let mut shown: String = text
        .chars()
        .take(MAX_SHOWN_CHARS)
        .map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.to_string() })
        .collect();
    if text.chars().nth(MAX_SHOWN_CHARS).is_some() {
        shown.push('…');
    }
    format!("'{shown}'")
}

/// `"1 value"`, `"2 values"`.
fn values(n: usize) -> String {
    format!("{n} value{}", if n == 1 { "" } else { "s" })
}

fn find(bytes: &[u8], byte: u8) -> Option<usize> {
    bytes.iter().position(|&b| b == byte)
}

impl VectorsParser {
    /// A parser for a file in `format`. A `vectors.tsv` read this way has no words: they are
    /// the 1-based row numbers `"1"`, `"2"`, … (see [`VectorsParser::with_metadata`]).
    pub fn new(format: VectorFormat) -> Self {
        VectorsParser {
            format,
            bytes_read: 0,
            line: 0,
            cut_line: Vec::new(),
            promised: None,
            dim: None,
            n_rows: 0,
            words: Vec::new(),
            vectors: Vec::new(),
            first_seen: HashMap::new(),
            metadata: None,
            blank_line: None,
            header_like_first_line: false,
            binary: Binary::Word(Vec::new()),
            failed: None,
            non_utf8_words: 0,
        }
    }

    /// A parser for a Projector `vectors.tsv` whose words are in `metadata_text`, the whole
    /// `metadata.tsv`.
    ///
    /// With one column the metadata has no header: each line is a word. With several (the
    /// first line holds a tab, as the Projector decides) the first line is a header and the
    /// word is each later line's first column. Words are unescaped as [`escape_token`] wrote
    /// them; a backslash that starts no valid escape is kept literally, since other tools do
    /// not escape. Blank lines at the end are ignored.
    ///
    /// Fails with [`Error::Format`], the line being the metadata's, on an empty word, a word
    /// that occurs twice, or metadata without words.
    pub fn with_metadata(metadata_text: &str) -> Result<Self> {
        let metadata_text = metadata_text.strip_prefix('\u{feff}').unwrap_or(metadata_text);
        let mut lines: Vec<&str> = metadata_text.lines().collect();
        while lines.last().is_some_and(|line| line.is_empty()) {
            lines.pop();
        }
        let has_header = lines.first().is_some_and(|line| line.contains('\t'));
        let mut words = Vec::with_capacity(lines.len());
        let mut first_seen: HashMap<String, usize> = HashMap::with_capacity(lines.len());
        for (line_idx, line) in lines.iter().enumerate().skip(usize::from(has_header)) {
            let line_no = line_idx + 1;
            let error = |message: String| Error::Format { line: line_no, message };
            let field = line.split('\t').next().unwrap_or_default();
            if field.is_empty() {
                return Err(error("the metadata gives an empty word; every vector needs one".into()));
            }
            let word = unescape_leniently(field);
            if let Some(first) = first_seen.get(&word) {
                return Err(error(format!(
                    "the metadata word {} occurs twice (first on line {first})",
                    quoted(field)
                )));
            }
            first_seen.insert(word.clone(), line_no);
            words.push(word);
        }
        if words.is_empty() {
            let what = if has_header { "only a header line" } else { "no words" };
            return Err(Error::Format { line: 1, message: format!("the metadata holds {what}") });
        }
        let mut parser = VectorsParser::new(VectorFormat::ProjectorTsv);
        parser.metadata = Some(words);
        Ok(parser)
    }

    /// The format this parser reads.
    pub fn format(&self) -> VectorFormat {
        self.format
    }

    /// Parses the next slice of the file. `bytes` may end anywhere, even inside a line, a
    /// UTF-8 character or a binary float; the rest waits for the next push or [`finish`].
    ///
    /// Fails with [`Error::Format`] on the first problem in a complete line or record.
    ///
    /// [`finish`]: VectorsParser::finish
    pub fn push(&mut self, bytes: &[u8]) -> Result<()> {
        if let Some(err) = &self.failed {
            return Err(err.clone());
        }
        self.bytes_read += bytes.len() as u64;
        let pushed = if self.format == VectorFormat::Word2VecBinary && self.line > 0 {
            self.push_binary(bytes)
        } else {
            self.push_lines(bytes)
        };
        if let Err(err) = &pushed {
            self.failed = Some(err.clone());
        }
        pushed
    }

    /// Complete rows (a word and its vector) read so far.
    pub fn words_read(&self) -> usize {
        self.n_rows
    }

    /// Words read so far whose bytes are not all UTF-8 (fastText writes a word's bytes as
    /// they came, in whatever encoding the text had): each byte that does not decode is
    /// read as U+FFFD, as gensim reads them with `unicode_errors='replace'`, and the page
    /// and the CLI say how many words that touched.
    pub fn non_utf8_words(&self) -> usize {
        self.non_utf8_words
    }

    /// What the page and the CLI say when [`non_utf8_words`](Self::non_utf8_words) is not 0.
    pub fn non_utf8_note(&self) -> Option<String> {
        let n = self.non_utf8_words;
        (n > 0).then(|| {
            let (count, hold) = if n == 1 { ("1 word".to_string(), "holds") } else { (format!("{} words", thousands(n as u64)), "hold") };
            format!(
                "{count} {hold} bytes that are not UTF-8 (written in another encoding), each shown as \u{FFFD}"
            )
        })
    }

    /// Bytes pushed so far: with the file's size, the progress of a load.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Ends the file: parses a last line without a line end, checks that nothing is missing
    /// (the words a header promises, the rest of a binary word or vector, a row per metadata
    /// word) and builds the [`Embeddings`].
    ///
    /// Fails with [`Error::Format`] on an empty file, a file that ends early, or the first
    /// problem an earlier push found.
    pub fn finish(mut self) -> Result<Embeddings> {
        if let Some(err) = self.failed.take() {
            return Err(err);
        }
        if !self.cut_line.is_empty() {
            let line = std::mem::take(&mut self.cut_line);
            self.text_line(&line, true)?;
        }
        self.check_complete()?;
        // Embeddings::new builds its own index; this one can go first.
        drop(std::mem::take(&mut self.first_seen));
        let words = match (self.format, self.metadata.take()) {
            (VectorFormat::ProjectorTsv, Some(words)) => words,
            (VectorFormat::ProjectorTsv, None) => (1..=self.n_rows).map(|row| row.to_string()).collect(),
            _ => self.words,
        };
        Embeddings::new(words, self.dim.unwrap_or(0), self.vectors)
    }

    /// Checks, at the end of the file, that nothing is missing.
    fn check_complete(&self) -> Result<()> {
        if self.bytes_read == 0 {
            let expected = match self.format.has_header() {
                true => "; expected the header '<number of words> <dimension>'",
                false => "",
            };
            return Err(Error::Format { line: 1, message: format!("the file is empty{expected}") });
        }
        let ends_early =
            |n: usize| format!("the file ends after {} of the {n} words the header promises", self.n_rows);
        let dim = self.dim.unwrap_or(0);
        match (self.format, &self.binary, self.promised) {
            (VectorFormat::Word2VecText, _, Some(n)) if self.n_rows < n => {
                Err(Error::Format { line: self.line + 1, message: ends_early(n) })
            }
            (VectorFormat::Word2VecBinary, Binary::Word(bytes), Some(n))
                if bytes.is_empty() && self.n_rows < n =>
            {
                Err(Error::Format { line: 0, message: ends_early(n) })
            }
            (VectorFormat::Word2VecBinary, Binary::Word(bytes), _) if !bytes.is_empty() => {
                Err(self.word_error("the data ends inside the word, before the space that ends it".into()))
            }
            (VectorFormat::Word2VecBinary, Binary::Vector { escaped, left, partial_len, .. }, _) => Err(self
                .word_error(format!(
                    "the vector of {} is truncated: expected {} bytes, found {}",
                    quoted(escaped),
                    4 * dim as u128,
                    4 * (dim - left) + partial_len
                ))),
            (VectorFormat::Glove | VectorFormat::ProjectorTsv, _, _) if self.n_rows == 0 => {
                Err(Error::Format { line: 1, message: "the file holds no vectors, only blank lines".into() })
            }
            (VectorFormat::ProjectorTsv, _, _) => match &self.metadata {
                Some(words) if words.len() != self.n_rows => Err(Error::Format {
                    line: self.line + 1,
                    message: format!(
                        "the file ends after {} rows, but the metadata gives {} words",
                        self.n_rows,
                        words.len()
                    ),
                }),
                _ => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// Pushes everything `reader` yields, then [`finish`](VectorsParser::finish)es.
    ///
    /// Fails like `push` and `finish`, and with [`Error::Io`] when reading fails.
    pub fn read_all(mut self, reader: impl Read) -> Result<Embeddings> {
        self.push_all(reader)?;
        self.finish()
    }

    /// Pushes everything `reader` yields. Fails like `push`, and with [`Error::Io`] when
    /// reading fails.
    pub fn push_all(&mut self, mut reader: impl Read) -> Result<()> {
        let mut buf = vec![0u8; READ_CHUNK];
        loop {
            match reader.read(&mut buf) {
                Ok(0) => return Ok(()),
                Ok(got) => self.push(&buf[..got])?,
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err.into()),
            }
        }
    }

    fn error(&self, message: String) -> Error {
        Error::Format { line: self.line, message }
    }

    /// An error in binary data, which names the word instead of a line.
    fn word_error(&self, message: String) -> Error {
        Error::Format { line: 0, message: format!("word {}: {message}", self.n_rows + 1) }
    }

    /// The message for a row's fault; `word` as shown in the file.
    fn row_error(&self, fault: RowFault<'_>, word: Option<&str>, at_end: bool) -> Error {
        let of = word.map(|word| format!(" of {}", quoted(word))).unwrap_or_default();
        let message = match fault {
            RowFault::Count { found } => {
                let after = match word {
                    None => String::new(),
                    Some(word) if self.format == VectorFormat::ProjectorTsv => {
                        format!(" for {}", quoted(word))
                    }
                    Some(word) => format!(" after {}", quoted(word)),
                };
                let mut message = match (self.dim, word) {
                    // The first row: the header is as likely wrong as the row.
                    (Some(dim), Some(word)) if self.format.has_header() && self.n_rows == 0 => {
                        format!("the header says {} a word, but {} has {found}", values(dim), quoted(word))
                    }
                    (Some(dim), _) => format!("expected {}{after}, found {found}", values(dim)),
                    (None, _) => format!("expected values{after}, found none"),
                };
                if at_end && self.dim.is_some_and(|dim| found < dim) {
                    message.push_str(" (the file ends inside this line)");
                }
                if self.format == VectorFormat::Glove && self.header_like_first_line && self.line == 2 {
                    message.push_str(
                        "; line 1 looks like a word2vec header '<words> <dimension>': \
                         is this a word2vec text file?",
                    );
                }
                message
            }
            RowFault::NotANumber { index, field } => {
                format!("value {index}{of} is {}, not a number", quoted(field))
            }
            RowFault::NotFinite { index, field } => {
                format!("value {index}{of} is {field}, not a finite number")
            }
        };
        self.error(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `file` (with `metadata`, for TSV) in one push, then in slices of 1 and 3 bytes:
    /// each must fail with the same [`Error::Format`], on `line`, its message containing
    /// `fragment`.
    fn check(format: VectorFormat, metadata: Option<&str>, file: &[u8], (line, fragment): (usize, &str)) {
        let read = |slice_len: usize| -> Result<Embeddings> {
            let mut parser = match metadata {
                Some(text) => VectorsParser::with_metadata(text)?,
                None => VectorsParser::new(format),
            };
            for slice in file.chunks(slice_len) {
                parser.push(slice)?;
            }
            parser.finish()
        };
        let context = format!("{format} {:?}", String::from_utf8_lossy(file));
        let whole = read(usize::MAX);
        match &whole {
            Err(Error::Format { line: got, message }) => {
                assert_eq!(*got, line, "{context}: {message}");
                assert!(message.contains(fragment), "{context}: '{message}' lacks '{fragment}'");
            }
            other => {
                panic!("{context}: expected a format error on line {line} ('{fragment}'), got {other:?}")
            }
        }
        for slice_len in [1, 3] {
            assert_eq!(read(slice_len), whole, "{context} in slices of {slice_len}");
        }
    }

    fn f(x: f32) -> [u8; 4] {
        x.to_le_bytes()
    }

    /// A word whose bytes are not UTF-8 (a Latin-1 "clichés", a lone 0x97) is read with
    /// U+FFFD, as gensim's `unicode_errors='replace'` reads it, and counted, in every format
    /// that holds words and however the file is sliced (a slice may end inside the bytes).
    #[test]
    fn words_not_utf8_are_read_with_replacement_characters_and_counted() {
        let binary =
            [&b"3 1\nclich\xe9s "[..], &f(1.0), b"\x97 ", &f(2.0), b"caf\xc3\xa9 ", &f(3.0)].concat();
        let cases: [(VectorFormat, &[u8]); 3] = [
            (VectorFormat::Word2VecText, b"3 1\nclich\xe9s 1\n\x97 2\ncaf\xc3\xa9 3\n"),
            (VectorFormat::Glove, b"clich\xe9s 1\n\x97 2\ncaf\xc3\xa9 3\n"),
            (VectorFormat::Word2VecBinary, &binary),
        ];
        for (format, file) in cases {
            for slice_len in [1, 2, 5, usize::MAX] {
                let mut parser = VectorsParser::new(format);
                for slice in file.chunks(slice_len) {
                    parser.push(slice).unwrap();
                }
                assert_eq!(parser.non_utf8_words(), 2, "{format} in slices of {slice_len}");
                assert_eq!(
                    parser.non_utf8_note().as_deref(),
                    Some(
                        "2 words hold bytes that are not UTF-8 (written in another encoding), each shown as \u{FFFD}"
                    )
                );
                let emb = parser.finish().unwrap();
                assert_eq!(emb.words(), ["clich\u{FFFD}s", "\u{FFFD}", "café"], "{format}");
                assert_eq!(emb.vector(1).as_ref(), [2.0]);
            }
        }
    }

    #[test]
    fn word2vec_text_rejections_name_the_line() {
        let cases: &[(&[u8], (usize, &str))] = &[
            (b"", (1, "the file is empty; expected the header")),
            (b"3\n", (1, "expected the header '<number of words> <dimension>', found '3'")),
            (b"3 x\n", (1, "header")),
            (b"-1 2\n", (1, "the header gives the number of words as -1; it cannot be negative")),
            (b"5 -2\na 1 2\n", (1, "the header gives the dimension as -2; it cannot be negative")),
            (
                b"99999999999999999999999 2\na 1 2\n",
                (1, "the number of words as 99999999999999999999999, more than this reader can hold"),
            ),
            (b"2 3\na 1 2\nb 1 2\n", (2, "the header says 3 values a word, but 'a' has 2")),
            (b"1 1\na 1 2\n", (2, "the header says 1 value a word, but 'a' has 2")),
            (b"2 3\na 1 2", (2, "the header says 3 values a word, but 'a' has 2 (the file ends inside")),
            (b"1 2 3\n", (1, "header")),
            (b"\xff 2\n", (1, "header")),
            (b"1 0\n", (1, "dimension 0")),
            (b"2 2\na 1 2\nb 1\n", (3, "expected 2 values after 'b', found 1")),
            (b"2 2\na 1 2\nb 1 2 3\n", (3, "found 3")),
            (b"2 2\na 1 2\nb 1 two\n", (3, "value 2 of 'b' is 'two', not a number")),
            (b"2 2\na 1 2\nb 1 two 3\n", (3, "expected 2 values after 'b', found 3")),
            (b"1 2\na 1 NaN\n", (2, "value 2 of 'a' is NaN, not a finite number")),
            (b"1 2\na inf 1\n", (2, "value 1 of 'a' is inf, not a finite number")),
            (b"1 1\na 1e39\n", (2, "not a finite number")),
            (b"3 1\na 1\nb 2\n", (4, "ends after 2 of the 3 words")),
            (b"3 1\na 1\nb 2", (4, "ends after 2 of the 3 words")),
            (b"1 1\na 1\nb 2\n", (3, "more words than the 1")),
            (b"1 1\na 1\n\nb 2\n", (4, "more words than the 1")),
            (b"3 1\na 1\nb 2\na 3\n", (4, "'a' occurs twice (first on line 2)")),
            (b"2 1\na\\sb 1\na\\u{20}b 2\n", (3, "occurs twice")),
            (
                b"2 1\n\xff 1\n\xfe 2\n",
                (3, "'\u{FFFD}' occurs twice (first on line 2), once its bytes that are not UTF-8"),
            ),
            (b"2 1\na 1\nb 1\xc3", (3, "value 1 of 'b' is '1\u{FFFD}', not a number")),
            (b"2 1\na 1\n\nb 2\n", (3, "empty line where word 2 of 2")),
            (b"1 1\nbad\\q 1\n", (2, "bad word 'bad\\q': unknown escape '\\q'")),
            (b"9999999999999999 1\na 1\n", (3, "ends after 1 of the 9999999999999999 words")),
            (
                b"2 2\na 1 2\nb 1",
                (3, "expected 2 values after 'b', found 1 (the file ends inside this line)"),
            ),
            (b"2 2\na 1 2\nb", (3, "found 0 (the file ends inside this line)")),
        ];
        for (file, expected) in cases {
            check(VectorFormat::Word2VecText, None, file, *expected);
        }
    }

    #[test]
    fn word2vec_binary_rejections_name_the_word() {
        let file = |parts: &[&[u8]]| parts.concat();
        let cases: Vec<(Vec<u8>, (usize, &str))> = vec![
            (b"".to_vec(), (1, "the file is empty; expected the header")),
            (b"x y\n".to_vec(), (1, "header")),
            (b"1 0\n".to_vec(), (1, "dimension 0")),
            (b"1 1".to_vec(), (0, "the file ends after 0 of the 1 words")),
            (
                file(&[b"1 2\na ", &f(1.0), &[0, 0]]),
                (0, "word 1: the vector of 'a' is truncated: expected 8 bytes, found 6"),
            ),
            (
                b"1 2\na \x01\x02".to_vec(),
                (0, "word 1: the vector of 'a' is truncated: expected 8 bytes, found 2"),
            ),
            (b"1 2\na ".to_vec(), (0, "word 1: the vector of 'a' is truncated: expected 8 bytes, found 0")),
            (b"1 2\na".to_vec(), (0, "word 1: the data ends inside the word")),
            (file(&[b"2 1\na ", &f(1.0), b"\nb"]), (0, "word 2: the data ends inside the word")),
            (file(&[b"3 1\na ", &f(1.0), b"\nb ", &f(2.0), b"\n"]), (0, "ends after 2 of the 3 words")),
            (file(&[b"1 1\na ", &f(1.0), b"\nb ", &f(2.0)]), (0, "more data after the 1 words")),
            (
                file(&[b"2 1\na ", &f(1.0), b"\na ", &f(2.0)]),
                (0, "word 2: the word 'a' occurs twice (first as word 1)"),
            ),
            (
                file(&[b"2 1\n\xc3\x28 ", &f(1.0), b"\xc3\x28 ", &f(2.0)]),
                (
                    0,
                    "word 2: the word '\u{FFFD}(' occurs twice (first as word 1), once its bytes that are not UTF-8",
                ),
            ),
            (file(&[b"1 1\n\\x ", &f(1.0)]), (0, "word 1: bad word '\\x': unknown escape")),
            (file(&[b"1 1\n ", &f(1.0)]), (0, "word 1: the word is empty")),
            (
                file(&[b"1 2\na ", &f(1.0), &f(f32::NAN)]),
                (0, "word 1: value 2 of 'a' is NaN, not a finite number"),
            ),
            (
                file(&[b"2 1\na ", &f(1.0), b"\nb ", &f(f32::NEG_INFINITY)]),
                (0, "word 2: value 1 of 'b' is -inf"),
            ),
            (b"5 1000000000000\na ".to_vec(), (0, "expected 4000000000000 bytes, found 0")),
        ];
        for (file, expected) in &cases {
            check(VectorFormat::Word2VecBinary, None, file, *expected);
        }
    }

    #[test]
    fn glove_rejections_name_the_line() {
        let cases: &[(&[u8], (usize, &str))] = &[
            (b"", (1, "the file is empty")),
            (b"\n \r\n", (1, "the file holds no vectors, only blank lines")),
            (b"a\n", (1, "expected values after 'a', found none")),
            (b"a 1 2\nb 1\n", (2, "expected 2 values after 'b', found 1")),
            (b"a 1 2\nb 1 2 3\n", (2, "expected 2 values after 'b', found 3")),
            (b"a 1 x\n", (1, "value 2 of 'a' is 'x', not a number")),
            (b"a 1 NaN\n", (1, "value 2 of 'a' is NaN, not a finite number")),
            (b"a 1\na 2\n", (2, "the word 'a' occurs twice (first on line 1)")),
            (b"a\\sb 1\na\\u{20}b 2\n", (2, "occurs twice")),
            (b"a 1\n\nb 2\n", (2, "an empty line among the vectors (line 3 holds more)")),
            (b"\na 1\n", (1, "an empty line among the vectors (line 2 holds more)")),
            (b"\xff 1\n\xfe 2\n", (2, "occurs twice (first on line 1), once its bytes that are not UTF-8")),
            (b"a 1 2\nb 1", (2, "expected 2 values after 'b', found 1 (the file ends inside this line)")),
            // The tokens with spaces of GloVe's 840B file are not supported.
            (b"the 1 2\nNew York 1 2\n", (2, "expected 2 values after 'New', found 3")),
            (
                b"3 2\nthe 1 2\n",
                (2, "expected 1 value after 'the', found 2; line 1 looks like a word2vec header"),
            ),
        ];
        for (file, expected) in cases {
            check(VectorFormat::Glove, None, file, *expected);
        }
    }

    #[test]
    fn projector_tsv_rejections_name_the_line() {
        let cases: &[(&[u8], (usize, &str))] = &[
            (b"", (1, "the file is empty")),
            (b"\n", (1, "the file holds no vectors")),
            (b"1\t2\n3\n", (2, "expected 2 values, found 1")),
            (b"1\t2\n3\t4\t5\n", (2, "expected 2 values, found 3")),
            (b"1\t2\n3\tx\n", (2, "value 2 is 'x', not a number")),
            (b"1\tinf\n", (1, "value 2 is inf, not a finite number")),
            (b"1\t\t2\n", (1, "value 2 is '', not a number")),
            (b"1 2\n", (1, "value 1 is '1 2', not a number")),
            (b"1\t2\n\n3\t4\n", (2, "an empty line among the vectors (line 3 holds more)")),
            (b"1\xff\t2\n", (1, "invalid UTF-8 at byte 2")),
            (b"1\t2\n3", (2, "expected 2 values, found 1 (the file ends inside this line)")),
        ];
        for (file, expected) in cases {
            check(VectorFormat::ProjectorTsv, None, file, *expected);
        }
    }

    #[test]
    fn projector_metadata_rejections_name_the_line() {
        let tsv = VectorFormat::ProjectorTsv;
        // Table: (metadata.tsv, vectors.tsv, expected); lines are the metadata's when it is at fault.
        let cases: &[(&str, &[u8], (usize, &str))] = &[
            ("a\nb\n", b"1\t2\n3\t4\n5\t6\n", (3, "row 3 has no word: the metadata gives only 2 words")),
            ("a\nb\n", b"1\t2\n", (2, "the file ends after 1 rows, but the metadata gives 2 words")),
            ("a\nb\n", b"1\t2\n3\n", (2, "expected 2 values for 'b', found 1")),
            ("a b\nc\n", b"1\tx\n", (1, "value 2 of 'a\\sb' is 'x', not a number")),
            ("a\nb\n", b"", (1, "the file is empty")),
            ("a\na\n", b"1\t2\n3\t4\n", (2, "the metadata word 'a' occurs twice (first on line 1)")),
            ("a\\sb\na b\n", b"1\t2\n3\t4\n", (2, "occurs twice")),
            ("a\n\nb\n", b"1\t2\n3\t4\n", (2, "the metadata gives an empty word")),
            ("", b"1\t2\n", (1, "the metadata holds no words")),
            ("\n\n", b"1\t2\n", (1, "the metadata holds no words")),
            ("word\tcount\n", b"1\t2\n", (1, "the metadata holds only a header line")),
            ("word\tcount\nthe\t1\n\t2\n", b"1\t2\n3\t4\n", (3, "the metadata gives an empty word")),
        ];
        for (metadata, file, expected) in cases {
            check(tsv, Some(metadata), file, *expected);
        }
    }

    #[test]
    fn a_failed_parser_keeps_failing_with_the_same_error() {
        let mut parser = VectorsParser::new(VectorFormat::Glove);
        let err = parser.push(b"a 1\nb\n").unwrap_err();
        assert_eq!(err, Error::Format { line: 2, message: "expected 1 value after 'b', found 0".into() });
        assert_eq!(parser.push(b"c 1\n"), Err(err.clone()));
        assert_eq!(parser.finish().map(|_| ()), Err(err));
    }

    #[test]
    fn messages_stay_one_short_line() {
        let long = format!("{} 1\n", "w".repeat(500));
        let mut file = format!("a 1 2\n{long}").into_bytes();
        file.extend(b"\n");
        let message = VectorsParser::new(VectorFormat::Glove).read_all(&file[..]).unwrap_err().to_string();
        assert!(message.contains(&format!("after '{}…', found 1", "w".repeat(40))), "{message}");
        let message =
            VectorsParser::new(VectorFormat::Word2VecText).read_all(&b"\x1b[31m \x07\n"[..]).unwrap_err();
        assert!(message.to_string().contains("found '\\u{1b}[31m \\u{7}'"), "{message}");
    }

    #[test]
    fn parse_values_reports_the_count_before_a_bad_value() {
        let mut out = vec![9.0];
        let fields = |text: &'static str| text.split(' ');
        assert_eq!(parse_values(fields("1 2"), Some(2), &mut out), Ok(2));
        assert_eq!(out, [9.0, 1.0, 2.0]);
        assert_eq!(parse_values(fields("1 x 3"), Some(2), &mut out), Err(RowFault::Count { found: 3 }));
        assert_eq!(
            parse_values(fields("1 x"), Some(2), &mut out),
            Err(RowFault::NotANumber { index: 2, field: "x" })
        );
        assert_eq!(
            parse_values(fields("-inf 1"), None, &mut out),
            Err(RowFault::NotFinite { index: 1, field: "-inf" })
        );
        assert_eq!(parse_values(std::iter::empty(), None, &mut out), Err(RowFault::Count { found: 0 }));
        assert_eq!(out, [9.0, 1.0, 2.0], "a fault leaves the output as it was");
    }
}
