//! [`VectorFormat`], and telling the format of a file from its first bytes.
//!
//! Sniffing looks at the shape of whole lines, never at one line alone: a text corpus whose
//! first line is `"3 2"` is not taken for word2vec vectors, because the lines that follow do
//! not hold a word and 2 numbers each. When nothing fits the answer is `None`, and the app
//! takes the file for a text to train on.
//!
//! The evidence for vectors is rows of one token and a fixed number of finite numbers. Those
//! rows make a file word2vec text after any header-like line (two integers), even one that
//! gives another dimension or a negative count, so the reader refuses the file naming the
//! header's fault rather than the app training on it. The token may be a number too (the
//! Projector's row numbers, written out as words), but then no row may misfit and some value
//! must have a fraction or an exponent: a table of integers, such as token ids, is a text.

use std::fmt;

/// The byte order mark some editors put at the start of a UTF-8 file; readers skip it.
pub(super) const UTF8_BOM: &[u8] = b"\xef\xbb\xbf";

/// The vector file formats that embedscope reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VectorFormat {
    /// word2vec text: a `"<n> <dim>"` header line, then `word v1 … vdim` per line.
    Word2VecText,
    /// word2vec binary: the same header, then per word the word, a space and `dim`
    /// little-endian `f32`s.
    Word2VecBinary,
    /// GloVe text: `word v1 … vdim` per line, no header.
    Glove,
    /// The TensorFlow Embedding Projector's `vectors.tsv`: tab-separated values per line; the
    /// words are in a separate `metadata.tsv`.
    ProjectorTsv,
}

/// The longest word the sniffer expects in binary data; a longer one means it is not binary.
const MAX_SNIFFED_WORD: usize = 1000;

impl VectorFormat {
    /// Every format, in the order of the enum.
    pub const ALL: [VectorFormat; 4] = [
        VectorFormat::Word2VecText,
        VectorFormat::Word2VecBinary,
        VectorFormat::Glove,
        VectorFormat::ProjectorTsv,
    ];

    /// How many of a file's first bytes [`VectorFormat::sniff`] looks at.
    pub const SNIFF_LEN: usize = 1 << 16;

    /// A name for messages: `"word2vec text"`, `"word2vec binary"`, `"GloVe"`,
    /// `"Projector vectors.tsv"`.
    pub fn name(self) -> &'static str {
        match self {
            VectorFormat::Word2VecText => "word2vec text",
            VectorFormat::Word2VecBinary => "word2vec binary",
            VectorFormat::Glove => "GloVe",
            VectorFormat::ProjectorTsv => "Projector vectors.tsv",
        }
    }

    /// Whether the file opens with the header line `"<n> <dim>"`.
    pub fn has_header(self) -> bool {
        matches!(self, VectorFormat::Word2VecText | VectorFormat::Word2VecBinary)
    }

    /// The format a file name suggests, for when [`VectorFormat::sniff`] cannot tell:
    /// `.bin` is word2vec binary, `.tsv` a Projector `vectors.tsv`.
    pub fn from_file_name(name: &str) -> Option<VectorFormat> {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".bin") {
            Some(VectorFormat::Word2VecBinary)
        } else if lower.ends_with(".tsv") {
            Some(VectorFormat::ProjectorTsv)
        } else {
            None
        }
    }

    /// The most likely format of a file that is meant to hold vectors, from `head` (as for
    /// [`VectorFormat::sniff`]) and its name, so that reading it reports what is wrong with it
    /// rather than a missing header: what `sniff` tells, else what the name tells
    /// ([`VectorFormat::from_file_name`]), else what the first line alone suggests
    /// (tab-separated numbers: TSV; a header: word2vec, binary when the data after it is not
    /// text; a word then a number: GloVe), else word2vec text.
    pub fn guess(head: &[u8], file_name: &str) -> VectorFormat {
        if let Some(format) = Self::sniff(head).or_else(|| Self::from_file_name(file_name)) {
            return format;
        }
        let head = &head[..head.len().min(Self::SNIFF_LEN)];
        let head = head.strip_prefix(UTF8_BOM).unwrap_or(head);
        let first_end = head.iter().position(|&b| b == b'\n').unwrap_or(head.len());
        let first = String::from_utf8_lossy(&head[..first_end]);
        let first = first.trim_ascii();
        // Before the header: "1\t2" is two integers too.
        if first.contains('\t') && first.split('\t').all(|field| is_number(field.trim_ascii())) {
            VectorFormat::ProjectorTsv
        } else if header_counts(first).is_some() {
            match looks_like_text(head.get(first_end + 1..).unwrap_or_default()) {
                true => VectorFormat::Word2VecText,
                false => VectorFormat::Word2VecBinary,
            }
        } else if first.split_ascii_whitespace().nth(1).is_some_and(is_number) {
            VectorFormat::Glove
        } else {
            VectorFormat::Word2VecText
        }
    }

    /// The format of a file from `head`, its first [`VectorFormat::SNIFF_LEN`] bytes (or all
    /// of it when it is shorter: a shorter `head` is taken to be the whole file, so its last
    /// line counts even without a line end). Beyond `SNIFF_LEN`, bytes are ignored.
    ///
    /// * a `"<n> <dim>"` header line followed by lines of a word and `dim` numbers (or by
    ///   nothing) is **word2vec text**;
    /// * a header followed by binary data shaped like words, each followed by `dim` finite
    ///   `f32`s, is **word2vec binary**;
    /// * a line of two integers followed by lines of a word and the same number (at least 2)
    ///   of numbers is **word2vec text** with a faulty header (another dimension, a negative
    ///   count), which the reader then names;
    /// * lines of only tab-separated numbers, at least 2 and as many on every line, are a
    ///   **Projector `vectors.tsv`**;
    /// * lines of a word and the same number (at least 2) of numbers are **GloVe**.
    ///
    /// Blank lines are ignored; a last line cut by `SNIFF_LEN` only has to start right. In
    /// the word formats, when every word is a number, every line must fit and some value must
    /// have a fraction or an exponent, so a table of integers is not taken for vectors.
    /// Anything else, an ordinary text above all, is `None`.
    pub fn sniff(head: &[u8]) -> Option<VectorFormat> {
        let whole_file = head.len() < Self::SNIFF_LEN;
        let head = &head[..head.len().min(Self::SNIFF_LEN)];
        let head = head.strip_prefix(UTF8_BOM).unwrap_or(head);
        let lines = split_lines(head, whole_file);
        let first = lines.first()?;
        if first.complete
            && let Some(first_text) = first.text()
            && is_header_like(first_text)
        {
            if let Some((n, dim)) = header_counts(first_text)
                && dim > 0
            {
                if word_rows_fit(&lines[1..], Some(dim)) {
                    return Some(VectorFormat::Word2VecText);
                }
                let data = head.get(first.bytes.len() + 1..).unwrap_or_default();
                if binary_fits(data, n, dim) {
                    return Some(VectorFormat::Word2VecBinary);
                }
            }
            // Rows of vectors that the header does not describe.
            if word_rows_fit(&lines[1..], None) {
                return Some(VectorFormat::Word2VecText);
            }
        }
        if tsv_rows_fit(&lines) {
            Some(VectorFormat::ProjectorTsv)
        } else if word_rows_fit(&lines, None) {
            Some(VectorFormat::Glove)
        } else {
            None
        }
    }
}

impl fmt::Display for VectorFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A line of the sniffed head, without its `\n`; not `complete` when the head cuts it.
struct Line<'a> {
    bytes: &'a [u8],
    complete: bool,
}

impl<'a> Line<'a> {
    /// The line as text; a cut line may end inside a character, which is dropped.
    fn text(&self) -> Option<&'a str> {
        match std::str::from_utf8(self.bytes) {
            Ok(text) => Some(text),
            Err(err) if !self.complete && err.error_len().is_none() => {
                std::str::from_utf8(&self.bytes[..err.valid_up_to()]).ok()
            }
            Err(_) => None,
        }
    }
}

fn split_lines(head: &[u8], whole_file: bool) -> Vec<Line<'_>> {
    let mut lines: Vec<Line<'_>> =
        head.split(|&b| b == b'\n').map(|bytes| Line { bytes, complete: true }).collect();
    // `split` yields the part after the last `\n`: empty when the head ends a line, else a
    // last line that is complete only when the head is the whole file.
    match lines.last_mut() {
        Some(last) if last.bytes.is_empty() => {
            lines.pop();
        }
        Some(last) => last.complete = whole_file,
        None => {}
    }
    lines
}

fn is_number(field: &str) -> bool {
    field.parse::<f64>().is_ok()
}

/// Whether a few lines that do not fit among many that do still make a vectors file: it
/// is then read as one, so the reader can name the faulty line instead of the app taking
/// the file for a text. At most one line in ten may misfit, and at least two must fit.
fn mostly_fits(rows: usize, misfits: usize) -> bool {
    misfits == 0 || (rows >= 2 && misfits * 10 <= rows)
}

/// Whether the lines are rows of a word and `dim` numbers (`None`: the same number, at
/// least 2, on every line); see [`mostly_fits`] for the lines that may not fit. When every
/// word is a number, no line may misfit and some value must not be an integer: a table of
/// integers is a text, vectors are real numbers.
fn word_rows_fit(lines: &[Line<'_>], header_dim: Option<usize>) -> bool {
    let mut dim = header_dim;
    let (mut rows, mut misfits, mut cut_row_values) = (0, 0, 0);
    let (mut any_word, mut any_fraction) = (false, false);
    for line in lines {
        // A word's bytes need not be UTF-8 (the parser reads them with U+FFFD); the values
        // are ASCII, so a lossy reading judges them all the same.
        let text = String::from_utf8_lossy(line.bytes);
        let mut fields: Vec<&str> = text.split_ascii_whitespace().collect();
        if !line.complete {
            fields.pop();
        }
        if fields.is_empty() {
            continue;
        }
        let word = fields.remove(0);
        let values = fields.len();
        let fits = fields.iter().all(|field| is_finite_number(field))
            && if line.complete {
                *dim.get_or_insert(values) == values
            } else {
                dim.is_none_or(|dim| values <= dim)
            };
        if !fits {
            misfits += 1;
            continue;
        }
        if !line.complete {
            cut_row_values = values;
        }
        rows += 1;
        any_word |= !is_number(word);
        any_fraction |= !fields.iter().all(|field| is_integer(field));
    }
    let words_or_reals = any_word || (misfits == 0 && any_fraction);
    mostly_fits(rows, misfits)
        && match header_dim {
            Some(_) => rows == 0 || words_or_reals,
            None => rows > 0 && words_or_reals && dim.unwrap_or(cut_row_values) >= 2,
        }
}

/// Whether the lines are rows of tab-separated finite numbers, the same number (at least 2)
/// on each.
fn tsv_rows_fit(lines: &[Line<'_>]) -> bool {
    let mut dim = None;
    let (mut rows, mut misfits, mut cut_row_values) = (0, 0, 0);
    for line in lines {
        let Some(text) = line.text() else { return false };
        let text = text.trim_ascii();
        let mut fields: Vec<&str> = text.split('\t').collect();
        if !line.complete {
            fields.pop();
        }
        if text.is_empty() || fields.is_empty() {
            continue;
        }
        let fits = fields.iter().all(|field| is_finite_number(field.trim_ascii()))
            && if line.complete {
                fields.len() >= 2 && *dim.get_or_insert(fields.len()) == fields.len()
            } else {
                dim.is_none_or(|dim| fields.len() <= dim)
            };
        if !fits {
            misfits += 1;
            continue;
        }
        if !line.complete {
            cut_row_values = fields.len();
        }
        rows += 1;
    }
    mostly_fits(rows, misfits) && dim.unwrap_or(cut_row_values) >= 2
}

fn is_finite_number(field: &str) -> bool {
    field.parse::<f32>().is_ok_and(f32::is_finite)
}

/// Digits, with an optional sign: `"-5"`, `"1000"`, also beyond any integer type.
pub(super) fn is_integer(field: &str) -> bool {
    let digits = field.strip_prefix(['-', '+']).unwrap_or(field);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `line` is two integers, the shape of a word2vec header, even when they are no
/// counts (negative, or too large).
fn is_header_like(line: &str) -> bool {
    let mut fields = line.split_ascii_whitespace();
    match (fields.next(), fields.next(), fields.next()) {
        (Some(n), Some(dim), None) => is_integer(n) && is_integer(dim),
        _ => false,
    }
}

/// Whether `data`, the bytes after a header, look like `n` binary records of a word, a space
/// and `dim` finite `f32`s, as far as `data` goes. The float bytes must not read as text:
/// letters read as floats are finite too, so a text after a header would otherwise fit.
fn binary_fits(data: &[u8], n: usize, dim: usize) -> bool {
    let vector_len = dim.saturating_mul(4);
    let mut rest = data;
    let mut float_bytes: Vec<u8> = Vec::new();
    let mut records = 0;
    while records < n {
        let skip = rest.iter().take_while(|&&b| b == b'\n').count();
        rest = &rest[skip..];
        if rest.is_empty() {
            break;
        }
        let word_end = rest.iter().position(|&b| b == b' ');
        let word = &rest[..word_end.unwrap_or(rest.len())];
        if word.len() > MAX_SNIFFED_WORD || word.iter().any(|&b| b == b'\n' || b == b'\r' || b == b'\t') {
            return false;
        }
        let Some(word_end) = word_end else {
            // The head ends inside the word.
            return !float_bytes.is_empty();
        };
        if word.is_empty() {
            return false;
        }
        rest = &rest[word_end + 1..];
        let take = rest.len().min(vector_len);
        let floats = &rest[..take - take % 4];
        if !floats.chunks_exact(4).all(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]).is_finite()) {
            return false;
        }
        float_bytes.extend_from_slice(floats);
        rest = &rest[take..];
        records += 1;
    }
    !float_bytes.is_empty() && !looks_like_text(&float_bytes)
}

/// Valid UTF-8 (but for a character cut at the end) without control bytes other than
/// tab, line feed and carriage return.
fn looks_like_text(bytes: &[u8]) -> bool {
    let valid = match std::str::from_utf8(bytes) {
        Ok(_) => bytes,
        Err(err) if err.error_len().is_none() => &bytes[..err.valid_up_to()],
        Err(_) => return false,
    };
    valid.iter().all(|&b| b >= 0x20 || matches!(b, b'\t' | b'\n' | b'\r'))
}

/// The header line `"<n> <dim>"` as (`n`, `dim`), or `None` when the line is not two
/// unsigned integers.
pub(super) fn header_counts(line: &str) -> Option<(usize, usize)> {
    let mut fields = line.split_ascii_whitespace();
    let (Some(n), Some(dim), None) = (fields.next(), fields.next(), fields.next()) else { return None };
    Some((n.parse().ok()?, dim.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: Option<VectorFormat> = Some(VectorFormat::Word2VecText);
    const BINARY: Option<VectorFormat> = Some(VectorFormat::Word2VecBinary);
    const GLOVE: Option<VectorFormat> = Some(VectorFormat::Glove);
    const TSV: Option<VectorFormat> = Some(VectorFormat::ProjectorTsv);

    const KJV: &str = "\
1:1 In the beginning God created the heaven and the earth.
1:2 And the earth was without form, and void; and darkness was upon the face of the deep.
1:3 And God said, Let there be light: and there was light.
1:4 And God saw the light, that it was good: and God divided the light from the darkness.
";

    fn check(head: &[u8], expected: Option<VectorFormat>) {
        let shown = String::from_utf8_lossy(&head[..head.len().min(80)]).into_owned();
        assert_eq!(VectorFormat::sniff(head), expected, "{shown:?}");
    }

    fn binary(header: &str, records: &[(&str, &[f32])]) -> Vec<u8> {
        let mut file = header.as_bytes().to_vec();
        for (word, vector) in records {
            file.extend(word.as_bytes());
            file.push(b' ');
            vector.iter().for_each(|v| file.extend(v.to_le_bytes()));
            file.push(b'\n');
        }
        file
    }

    /// `n_rows` lines of `dim` values, each `prefix(row)` then the values joined by `sep`:
    /// long enough, for large `dim`, to be cut by `SNIFF_LEN`.
    fn rows(n_rows: usize, dim: usize, prefix: impl Fn(usize) -> String, sep: &str) -> String {
        (0..n_rows)
            .map(|row| {
                let values: Vec<String> =
                    (0..dim).map(|i| format!("{:.6}", (row * dim + i) as f32 / 7.0 - 3.0)).collect();
                format!("{}{}\n", prefix(row), values.join(sep))
            })
            .collect()
    }

    #[test]
    fn sniffing_tells_vectors_from_texts() {
        let kjv_with_header = format!("3 2\n{KJV}");
        let cases: &[(&[u8], Option<VectorFormat>)] = &[
            // word2vec text, also with CRLF, a trailing space, no last line end, or no words.
            (b"2 2\nthe 1 2\nof 3 4\n", TEXT),
            (b"2 2\r\nthe 1 2 \r\nof 3 4 \r\n", TEXT),
            (b"2 2\nthe 0.1 -2e-3\nof 3 4", TEXT),
            (b"2 2\nthe 1 2\n\n\n", TEXT),
            (b"0 4\n", TEXT),
            (b"3 2", TEXT),
            (b"2 2\n1999 1 2\nthe 3 4\n", TEXT),
            (b"\xef\xbb\xbf2 2\nthe 1 2\nof 3 4\n", TEXT),
            (b"\xef\xbb\xbfthe 1 2\nof 3 4\n", GLOVE),
            // Words whose bytes are not UTF-8 (Latin-1, as fastText may write them).
            (b"2 2\nclich\xe9s 1 2\n\x97 3 4\n", TEXT),
            (b"clich\xe9s 0.1 0.2\nof 0.3 0.4\n", GLOVE),
            (b"Clich\xe9s of the caf\xe9,\nsaid he.\n", None),
            // A corpus whose first line could be a header is still a corpus.
            (kjv_with_header.as_bytes(), None),
            (b"3 2\nthe cat sat on the mat\n", None),
            (b"2 2\nthe 1 2\nand then prose\n", None),
            (KJV.as_bytes(), None),
            (b"In the beginning God created the heaven and the earth.", None),
            // Files of numbers are not vectors, unless they are tab-separated rows.
            (b"1\n2\n3\n", None),
            (b"1 2 3\n4 5 6\n", None),
            (b"2 2\n4 5 6\n7 8 9\n", None),
            (b"2 1\n4 5\n7 8\n", None),
            (b"1\t2\n3\t4\n", TSV),
            (b"0.1\t-0.2\t3e-4\r\n1\t2\t3\r\n\n", TSV),
            (b"1\t2\n3\t4\t5\n", None),
            (b"1\n2\t3\n", None),
            (b"1\tx\n", None),
            // GloVe: a word and at least 2 numbers, as many on every line.
            (b"the 0.1 0.2\nof 0.3 0.4\n", GLOVE),
            (b"the\t0.1\t0.2\nof\t0.3\t0.4\n", GLOVE),
            (b"the 0.1 0.2\n\\o/ 0.3 0.4", GLOVE),
            (b"the 0.1 0.2\nof 0.3\n", None),
            (b"the 1061396\nof 593677\n", None),
            (b"the 0.1 inf\nof 0.3 0.4\n", None),
            (b"word,1,2\nother,3,4\n", None),
            (b"the 1 2\nplus some prose\n", None),
            // Nothing, or not text at all.
            (b"", None),
            (b"\n\n", None),
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", None),
            (b"\x1f\x8b\x08\0\0\0\0\0", None),
            (b"\xff\xfe2\x002\x00\n\x00", None),
        ];
        for (head, expected) in cases {
            check(head, *expected);
        }
    }

    #[test]
    fn a_vectors_file_with_a_few_faulty_lines_is_still_vectors() {
        // One faulty line in twenty: still vectors, so the reader can name the line.
        let mut good = rows(20, 3, |row| format!("w{row} "), " ");
        let faulty = good.replacen("w5 ", "w5 oops ", 1);
        check(format!("20 3\n{faulty}").as_bytes(), TEXT);
        check(faulty.as_bytes(), GLOVE);
        check(good.replacen("w7 ", "w7 1 ", 1).as_bytes(), GLOVE);
        good =
            good.lines().map(|line| line.split(' ').skip(1).collect::<Vec<_>>().join("\t") + "\n").collect();
        check(good.replacen("\t", "\tx", 1).as_bytes(), TSV);
        // Two faulty lines in three, or a faulty line among two, are not.
        check(b"the 1 2\nof 3 x\nto 4 y\n", None);
        check(b"2 2\nthe 1 2\nof 3 x\n", None);
    }

    #[test]
    fn rows_of_vectors_after_a_faulty_header_are_word2vec_text() {
        let vectors = rows(20, 3, |row| format!("w{row} "), " ");
        // Another dimension, a negative count, counts too large: the reader names the fault.
        for header in ["20 5", "20 2", "-5 3", "20 -3", "1000000000 100000", "99999999999999999999999 3"] {
            check(format!("{header}\n{vectors}").as_bytes(), TEXT);
        }
        // Not when the rows are no vectors, or of one value (a list of word counts).
        check(b"20 5\nthe cat sat on the mat\nand the dog\n", None);
        check(b"-5 3\nthe 1061396\nof 593677\n", None);
        check(b"1000 0\nw0\nw1\nw2\n", None);
    }

    #[test]
    fn vectors_whose_words_are_numbers_are_vectors_and_tables_of_integers_are_texts() {
        // A Projector vectors.tsv opened without metadata.tsv names its words 1, 2, …: its
        // export must open again, and so must GloVe with such words.
        let numbered = rows(20, 3, |row| format!("{} ", row + 1), " ");
        check(format!("20 3\n{numbered}").as_bytes(), TEXT);
        check(numbered.as_bytes(), GLOVE);
        check(format!("20 4\n{numbered}").as_bytes(), TEXT);
        check(b"2 2\n1 0.5 -1\n2 1e-3 2\n", TEXT);
        // A text whose first line is "1 2" holds no vectors after it, and integers (token
        // ids, a table) are no evidence of vectors: every value could be a count.
        check(b"1 2\nthe cat sat on the mat\n", None);
        check(b"1 2\n3 4 5\n6 7 8\n", None);
        check(b"5 5\n1 2 3\n4 5 6\n", None);
        check(b"17 4 9\n3 8 1\n", None);
        // With numbers for words, no row may misfit: a mostly numeric table is not vectors.
        let faulty = numbered.replacen("\n6 ", "\n6 x ", 1);
        check(format!("20 3\n{faulty}").as_bytes(), None);
        check(faulty.as_bytes(), None);
        check(rows(20, 3, |row| format!("w{row} "), " ").replacen("\nw6 ", "\nw6 x ", 1).as_bytes(), GLOVE);
    }

    #[test]
    fn sniffing_tells_binary_from_text_after_a_header() {
        check(&binary("2 3\n", &[("the", &[0.1, -0.2, 0.3]), ("of", &[1.0, 2.0, 3.0])]), BINARY);
        // Zero vectors are valid UTF-8, but text holds no NUL bytes.
        check(&binary("1 2\n", &[("a", &[0.0, 0.0])]), BINARY);
        check(&binary("1 1\n", &[("日本", &[-1.5])]), BINARY);
        // A word whose bytes are not UTF-8.
        let mut latin1 = binary("2 1\n", &[("clichXs", &[0.5]), ("of", &[1.5])]);
        let at = latin1.iter().position(|&b| b == b'X').unwrap();
        latin1[at] = 0xE9;
        check(&latin1, BINARY);
        // Letters read as floats are finite: binary data must not read as text.
        check(b"2 1\nthe abcd\nof efgh\n", None);
        check(b"1 2\nthe quick brown\n", None);
        // NaN in the data, an empty word, an over-long word.
        check(&binary("1 2\n", &[("a", &[0.0, f32::NAN])]), None);
        check(&binary("1 2\n", &[("", &[0.5, 0.25])]), None);
        check(&binary("1 1\n", &[(&"w".repeat(2000), &[0.5])]), None);
        // The head may end inside a vector, or inside the next word.
        let mut cut = binary("2 3\n", &[("the", &[0.1, -0.2, 0.3]), ("of", &[1.0, 2.0, 3.0])]);
        cut.truncate(cut.len() - 5);
        check(&cut, BINARY);
        let mut file = binary("3 1\n", &[("the", &[0.1])]);
        file.extend(b"o");
        check(&file, BINARY);
    }

    #[test]
    fn sniffing_reads_only_the_head_of_a_long_file() {
        let len = VectorFormat::SNIFF_LEN;
        let word = |row: usize| format!("w{row} ");
        // 300 values a line: the head ends inside some line, most likely inside a number.
        let mut text = format!("1000 300\n{}", rows(1000, 300, word, " ")).into_bytes();
        let glove = rows(1000, 300, word, " ").into_bytes();
        let tsv = rows(1000, 300, |_| String::new(), "\t").into_bytes();
        for cut in [len, len + 1, len + 7] {
            check(&text[..cut], TEXT);
            check(&glove[..cut], GLOVE);
            check(&tsv[..cut], TSV);
        }
        // Lines longer than the head: only the start of the first data line is seen.
        let long_text = format!("2 20000\n{}", rows(2, 20000, word, " ")).into_bytes();
        check(&long_text[..len], TEXT);
        check(&rows(2, 20000, word, " ").as_bytes()[..len], GLOVE);
        check(&rows(2, 20000, |_| String::new(), "\t").as_bytes()[..len], TSV);
        let values: Vec<f32> = (0..20000).map(|i| i as f32 / 3.0).collect();
        check(&binary("2 20000\n", &[("a", &values), ("b", &values)])[..len], BINARY);
        // Bytes beyond the head change nothing, even prose.
        text.extend(KJV.as_bytes());
        check(&text, TEXT);
        // A short head is the whole file, so its last line is complete.
        check(b"the 1 2\nof 3 x", None);
    }

    #[test]
    fn guessing_picks_the_format_whose_reader_explains_the_fault() {
        let glove = "the 1 2\nof 3\n";
        let cases: &[(&[u8], &str, VectorFormat)] = &[
            // What sniffing tells wins, then the name, then the first line.
            (b"the 1 2\nof 3 4\n", "vectors.bin", VectorFormat::Glove),
            (glove.as_bytes(), "vectors.bin", VectorFormat::Word2VecBinary),
            (glove.as_bytes(), "glove.txt", VectorFormat::Glove),
            (b"the 1 x\n", "glove.txt", VectorFormat::Glove),
            (b"2 2\nthe 1 2\nof 3\n", "w.txt", VectorFormat::Word2VecText),
            (b"2 2\nthe \0\0\x80?\nof", "w.txt", VectorFormat::Word2VecBinary),
            (b"1\t2\n3\n", "v.txt", VectorFormat::ProjectorTsv),
            (b"0.5\n", "v.tsv", VectorFormat::ProjectorTsv),
            (b"In the beginning\n", "kjv.txt", VectorFormat::Word2VecText),
            (b"", "empty", VectorFormat::Word2VecText),
        ];
        for (head, name, expected) in cases {
            assert_eq!(
                VectorFormat::guess(head, name),
                *expected,
                "{name}: {:?}",
                String::from_utf8_lossy(head)
            );
        }
    }

    #[test]
    fn names_and_file_names() {
        let names: Vec<&str> = VectorFormat::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(names, ["word2vec text", "word2vec binary", "GloVe", "Projector vectors.tsv"]);
        assert_eq!(VectorFormat::Glove.to_string(), "GloVe");
        assert_eq!(VectorFormat::from_file_name("GoogleNews-vectors.BIN"), BINARY);
        assert_eq!(VectorFormat::from_file_name("dir/vectors.tsv"), TSV);
        assert_eq!(VectorFormat::from_file_name("glove.6B.50d.txt"), None);
    }
}
