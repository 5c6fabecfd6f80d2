//! The parser's lines: the header of the word2vec formats (text and binary), then, in the
//! text formats, one row a line (word2vec text, GloVe, the Projector's TSV and its metadata),
//! each line whole however the file is sliced.

use super::{
    Binary, MAX_PREALLOCATED_FLOATS, MAX_PREALLOCATED_WORDS, NOT_UTF8_ALIKE, VectorsParser, find, lossy,
    parse_values, quoted,
};
use crate::error::{Error, Result};
use crate::io::escape::{escape_token, unescape, unescape_leniently};
use crate::io::format::{UTF8_BOM, VectorFormat, header_counts, is_integer};

impl VectorsParser {
    /// Hands each complete line to [`Self::text_line`] and keeps a cut last line. In the
    /// binary format only the header is a line; the bytes after it go to the binary parser.
    pub(super) fn push_lines(&mut self, mut bytes: &[u8]) -> Result<()> {
        if !self.cut_line.is_empty() {
            let Some(end) = find(bytes, b'\n') else {
                self.cut_line.extend_from_slice(bytes);
                return Ok(());
            };
            let mut line = std::mem::take(&mut self.cut_line);
            line.extend_from_slice(&bytes[..end]);
            self.text_line(&line, false)?;
            line.clear();
            self.cut_line = line;
            bytes = &bytes[end + 1..];
        }
        loop {
            if self.format == VectorFormat::Word2VecBinary && self.line > 0 {
                return self.push_binary(bytes);
            }
            let Some(end) = find(bytes, b'\n') else { break };
            self.text_line(&bytes[..end], false)?;
            bytes = &bytes[end + 1..];
        }
        self.cut_line.extend_from_slice(bytes);
        Ok(())
    }

    /// One line, without its `\n`; `at_end` when it is a last line without one.
    pub(super) fn text_line(&mut self, mut line: &[u8], at_end: bool) -> Result<()> {
        self.line += 1;
        if self.line == 1 {
            line = line.strip_prefix(UTF8_BOM).unwrap_or(line);
        }
        if self.line == 1 && self.format.has_header() {
            self.header_line(line)
        } else if self.format == VectorFormat::ProjectorTsv {
            self.tsv_line(line, at_end)
        } else {
            self.word_line(line, at_end)
        }
    }

    fn header_line(&mut self, line: &[u8]) -> Result<()> {
        let text = String::from_utf8_lossy(line);
        let Some((n, dim)) = header_counts(&text) else {
            return Err(self.error(header_fault(&text).unwrap_or_else(|| {
                format!("expected the header '<number of words> <dimension>', found {}", quoted(text.trim()))
            })));
        };
        if dim == 0 {
            return Err(self.error("the header gives dimension 0; it must be at least 1".into()));
        }
        self.promised = Some(n);
        self.dim = Some(dim);
        self.words.reserve(n.min(MAX_PREALLOCATED_WORDS));
        self.first_seen.reserve(n.min(MAX_PREALLOCATED_WORDS));
        self.vectors.reserve(n.saturating_mul(dim).min(MAX_PREALLOCATED_FLOATS));
        if n == 0 {
            self.binary = Binary::Trailer;
        }
        Ok(())
    }

    /// A line of the word2vec text or GloVe format: `word v1 … vdim`. Bytes that are not
    /// UTF-8 are read as U+FFFD (in a value they then make it no number).
    fn word_line(&mut self, line: &[u8], at_end: bool) -> Result<()> {
        let (text, replaced) = lossy(line);
        let text = text.as_ref();
        let mut fields = text.split_ascii_whitespace();
        let Some(escaped) = fields.next() else { return self.blank_line() };
        if let Some(n) = self.promised
            && self.n_rows == n
        {
            return Err(self.error(format!("more words than the {n} the header promises")));
        }
        self.no_blank_line_before()?;
        let word = if self.format == VectorFormat::Glove {
            if self.line == 1 {
                self.header_like_first_line = header_counts(text).is_some();
            }
            unescape_leniently(escaped)
        } else {
            unescape(escaped)
                .map_err(|problem| self.error(format!("bad word {}: {problem}", quoted(escaped))))?
        };
        if let Some(first) = self.first_seen.get(&word) {
            return Err(self.error(format!(
                "the word {} occurs twice (first on line {first}){}",
                quoted(escaped),
                if replaced { NOT_UTF8_ALIKE } else { "" }
            )));
        }
        match parse_values(fields, self.dim, &mut self.vectors) {
            Ok(found) => self.dim = Some(found),
            Err(fault) => return Err(self.row_error(fault, Some(escaped), at_end)),
        }
        self.first_seen.insert(word.clone(), self.line);
        self.words.push(word);
        self.n_rows += 1;
        self.non_utf8_words += usize::from(replaced);
        Ok(())
    }

    /// A line of a Projector `vectors.tsv`: tab-separated values.
    fn tsv_line(&mut self, line: &[u8], at_end: bool) -> Result<()> {
        let text = self.utf8(line)?.trim_ascii();
        if text.is_empty() {
            return self.blank_line();
        }
        self.no_blank_line_before()?;
        let word = match &self.metadata {
            None => None,
            Some(words) => match words.get(self.n_rows) {
                Some(word) => Some(word),
                None => {
                    return Err(self.error(format!(
                        "row {} has no word: the metadata gives only {} words",
                        self.n_rows + 1,
                        words.len()
                    )));
                }
            },
        };
        match parse_values(text.split('\t').map(str::trim_ascii), self.dim, &mut self.vectors) {
            Ok(found) => self.dim = Some(found),
            Err(fault) => {
                let shown = word.map(|word| escape_token(word));
                return Err(self.row_error(fault, shown.as_deref(), at_end));
            }
        }
        self.n_rows += 1;
        Ok(())
    }

    fn utf8<'a>(&self, line: &'a [u8]) -> Result<&'a str> {
        std::str::from_utf8(line)
            .map_err(|err| self.error(format!("invalid UTF-8 at byte {}", err.valid_up_to() + 1)))
    }

    /// A line with nothing but whitespace: allowed only after the last row.
    fn blank_line(&mut self) -> Result<()> {
        if let Some(n) = self.promised
            && self.n_rows < n
        {
            return Err(self.error(format!("empty line where word {} of {n} was expected", self.n_rows + 1)));
        }
        self.blank_line.get_or_insert(self.line);
        Ok(())
    }

    fn no_blank_line_before(&self) -> Result<()> {
        match self.blank_line {
            Some(blank) => Err(Error::Format {
                line: blank,
                message: format!("an empty line among the vectors (line {} holds more)", self.line),
            }),
            None => Ok(()),
        }
    }
}

/// What is wrong with a header line of two integers that are no counts (negative, or too
/// large for this machine); `None` for any other line.
fn header_fault(line: &str) -> Option<String> {
    let mut fields = line.split_ascii_whitespace();
    let (Some(n), Some(dim), None) = (fields.next(), fields.next(), fields.next()) else { return None };
    if !is_integer(n) || !is_integer(dim) {
        return None;
    }
    [(n, "number of words"), (dim, "dimension")].into_iter().find_map(|(field, what)| {
        match (field.parse::<usize>(), field.starts_with('-')) {
            (Ok(_), _) => None,
            (Err(_), true) => Some(format!("the header gives the {what} as {field}; it cannot be negative")),
            (Err(_), false) => {
                Some(format!("the header gives the {what} as {field}, more than this reader can hold"))
            }
        }
    })
}
