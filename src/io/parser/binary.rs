//! The word2vec binary format's data after its header: per word, the word, a space, then
//! `dim` little-endian `f32`s, fed to the parser in slices that may end anywhere (inside a
//! word, a vector or a float).

use super::{Binary, VectorsParser, find, quoted};
use crate::error::{Error, Result};
use crate::io::escape::unescape;

impl VectorsParser {
    /// Binary data after the header: per word, the word, a space, `dim` little-endian `f32`s.
    pub(super) fn push_binary(&mut self, mut bytes: &[u8]) -> Result<()> {
        let dim = self.dim.unwrap_or(1);
        while !bytes.is_empty() {
            match &mut self.binary {
                Binary::Word(word) => {
                    // The newline that ends the previous vector is skipped, as gensim does.
                    if word.is_empty() {
                        let skip = bytes.iter().take_while(|&&b| b == b'\n').count();
                        bytes = &bytes[skip..];
                        if bytes.is_empty() {
                            break;
                        }
                    }
                    match find(bytes, b' ') {
                        None => {
                            word.extend_from_slice(bytes);
                            bytes = &[];
                        }
                        Some(end) => {
                            word.extend_from_slice(&bytes[..end]);
                            bytes = &bytes[end + 1..];
                            let word = std::mem::take(word);
                            self.begin_vector(&word, dim)?;
                        }
                    }
                }
                Binary::Vector { left, partial, partial_len, .. } => {
                    let checked_from = self.vectors.len();
                    if *partial_len > 0 {
                        let take = (4 - *partial_len).min(bytes.len());
                        partial[*partial_len..*partial_len + take].copy_from_slice(&bytes[..take]);
                        *partial_len += take;
                        bytes = &bytes[take..];
                        if *partial_len < 4 {
                            break;
                        }
                        self.vectors.push(f32::from_le_bytes(*partial));
                        *partial_len = 0;
                        *left -= 1;
                    }
                    let whole = (bytes.len() / 4).min(*left);
                    self.vectors.extend(
                        bytes[..4 * whole]
                            .chunks_exact(4)
                            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
                    );
                    *left -= whole;
                    bytes = &bytes[4 * whole..];
                    if *left > 0 && !bytes.is_empty() {
                        partial[..bytes.len()].copy_from_slice(bytes);
                        *partial_len = bytes.len();
                        bytes = &[];
                    }
                    let done = *left == 0;
                    self.check_finite(checked_from, dim)?;
                    if done {
                        self.end_vector();
                    }
                }
                Binary::Trailer => {
                    if !bytes.iter().all(u8::is_ascii_whitespace) {
                        let n = self.promised.unwrap_or(0);
                        return Err(Error::Format {
                            line: 0,
                            message: format!("more data after the {n} words the header promises"),
                        });
                    }
                    bytes = &[];
                }
            }
        }
        Ok(())
    }

    /// Checks a complete binary word and starts reading its vector.
    fn begin_vector(&mut self, bytes: &[u8], dim: usize) -> Result<()> {
        if bytes.is_empty() {
            return Err(self.word_error("the word is empty".into()));
        }
        // Bytes that are not UTF-8 read as U+FFFD, as in the text formats.
        let (escaped, replaced) = super::lossy(bytes);
        let escaped = escaped.as_ref();
        let word = unescape(escaped)
            .map_err(|problem| self.word_error(format!("bad word {}: {problem}", quoted(escaped))))?;
        if let Some(first) = self.first_seen.get(&word) {
            return Err(self.word_error(format!(
                "the word {} occurs twice (first as word {first}){}",
                quoted(escaped),
                if replaced { super::NOT_UTF8_ALIKE } else { "" }
            )));
        }
        self.non_utf8_words += usize::from(replaced);
        let escaped = escaped.to_string();
        self.binary = Binary::Vector { word, escaped, left: dim, partial: [0; 4], partial_len: 0 };
        Ok(())
    }

    /// Checks the binary values from `self.vectors[from..]` of the current word.
    fn check_finite(&self, from: usize, dim: usize) -> Result<()> {
        let Some(offset) = self.vectors[from..].iter().position(|v| !v.is_finite()) else { return Ok(()) };
        let Binary::Vector { escaped, .. } = &self.binary else { return Ok(()) };
        let value = self.vectors[from + offset];
        let index = (from + offset) % dim + 1;
        Err(self.word_error(format!("value {index} of {} is {value}, not a finite number", quoted(escaped))))
    }

    fn end_vector(&mut self) {
        let state = std::mem::replace(&mut self.binary, Binary::Word(Vec::new()));
        if let Binary::Vector { word, .. } = state {
            self.n_rows += 1;
            self.first_seen.insert(word.clone(), self.n_rows);
            self.words.push(word);
        }
        if Some(self.n_rows) == self.promised {
            self.binary = Binary::Trailer;
        }
    }
}
