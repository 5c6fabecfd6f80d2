//! The word2vec vector formats, as written by Mikolov et al.'s `word2vec` tool and read by
//! gensim's `KeyedVectors.load_word2vec_format`.
//!
//! Both formats open with the text header `"<n> <dim>\n"` and then hold `n` words in order:
//!
//! * **text**: one line per word, `word v1 … vdim\n`, fields separated by one space. Values
//!   are written with Rust's shortest round-trip formatting (`{}`), so reading a file back
//!   gives the same `f32` bits.
//! * **binary**: per word, the word's UTF-8 bytes, one space, `dim` little-endian `f32`s
//!   (4 bytes each), then `\n`.
//!
//! # Escaping tokens
//!
//! Both formats end a word at whitespace, but a subword tokenizer makes tokens such as
//! `"from the dead"` or `"Jesus\n"`. Writers therefore store every word through
//! [`escape_token`] and readers undo it with [`unescape_token`]:
//!
//! | character                                       | written as                      |
//! |-------------------------------------------------|---------------------------------|
//! | `\` (backslash)                                 | `\\`                            |
//! | space U+0020                                    | `\s`                            |
//! | line feed U+000A                                | `\n`                            |
//! | tab U+0009                                      | `\t`                            |
//! | carriage return U+000D                          | `\r`                            |
//! | any other `c` with `char::is_whitespace(c)`     | `\u{HEX}`: lowercase hex, no leading zeros (U+00A0 is `\u{a0}`) |
//! | anything else                                   | itself                          |
//!
//! An escaped token therefore holds no whitespace, and a token without backslashes or
//! whitespace is written unchanged, so ordinary word2vec files read as they always did.
//! Unescaping accepts exactly the escapes above (`\u{HEX}` for any Unicode scalar value,
//! 1 to 6 hex digits) and rejects any other backslash sequence. The empty word cannot be
//! stored in either format, so writers reject it.
//!
//! # Reading
//!
//! Readers check everything and report the first problem as [`Error::Format`] with a 1-based
//! line number (0 inside binary vector data, where the message names the word instead).
//! They accept what the `word2vec` tool writes (a trailing space before the newline in text,
//! a newline after each binary vector) and ignore blank lines after the last word. The
//! header's counts are not trusted for allocation: a short file with a huge header fails on
//! its missing data, not by exhausting memory.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{BufRead, BufWriter, Read, Write};

use super::Embeddings;
use crate::error::{Error, Result};

/// The most words, and floats, that a reader reserves room for from the header alone.
const MAX_PREALLOCATED_WORDS: usize = 1 << 16;
const MAX_PREALLOCATED_FLOATS: usize = 1 << 22;

/// Floats read from binary data per `read` call.
const BINARY_CHUNK_FLOATS: usize = 1024;

/// Escapes `token` so it holds no whitespace; see the [module documentation](self).
///
/// Borrows when nothing needs escaping, which is the common case.
pub fn escape_token(token: &str) -> Cow<'_, str> {
    if !token.chars().any(|c| c == '\\' || c.is_whitespace()) {
        return Cow::Borrowed(token);
    }
    let mut escaped = String::with_capacity(token.len() + 8);
    for c in token.chars() {
        match c {
            '\\' => escaped.push_str("\\\\"),
            ' ' => escaped.push_str("\\s"),
            '\n' => escaped.push_str("\\n"),
            '\t' => escaped.push_str("\\t"),
            '\r' => escaped.push_str("\\r"),
            c if c.is_whitespace() => escaped.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => escaped.push(c),
        }
    }
    Cow::Owned(escaped)
}

/// Undoes [`escape_token`]: `unescape_token(&escape_token(t)) == Ok(t)` for every `t`.
///
/// Fails with [`Error::InvalidParameter`] on a backslash that starts no valid escape.
pub fn unescape_token(escaped: &str) -> Result<String> {
    unescape(escaped).map_err(|problem| Error::InvalidParameter {
        name: "token",
        value: escaped.to_string(),
        expected: format!("valid escapes ({problem})"),
    })
}

/// [`unescape_token`] with the problem as a plain message, for readers to place in a file.
fn unescape(escaped: &str) -> std::result::Result<String, String> {
    if !escaped.contains('\\') {
        return Ok(escaped.to_string());
    }
    let mut token = String::with_capacity(escaped.len());
    let mut chars = escaped.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            token.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => token.push('\\'),
            Some('s') => token.push(' '),
            Some('n') => token.push('\n'),
            Some('t') => token.push('\t'),
            Some('r') => token.push('\r'),
            Some('u') => token.push(unescape_code_point(&mut chars)?),
            Some(other) => return Err(format!("unknown escape '\\{other}'")),
            None => return Err("a lone backslash at the end".to_string()),
        }
    }
    Ok(token)
}

/// Reads the `{HEX}` of a `\u{HEX}` escape.
fn unescape_code_point(chars: &mut std::str::Chars<'_>) -> std::result::Result<char, String> {
    let malformed = || "a '\\u' escape must look like \\u{a0}".to_string();
    if chars.next() != Some('{') {
        return Err(malformed());
    }
    let rest = chars.as_str();
    let close = rest.find('}').ok_or_else(malformed)?;
    let hex = &rest[..close];
    if hex.is_empty() || hex.len() > 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(malformed());
    }
    let code = u32::from_str_radix(hex, 16).map_err(|_| malformed())?;
    let c = char::from_u32(code).ok_or_else(|| format!("\\u{{{hex}}} is not a Unicode scalar value"))?;
    *chars = rest[close + 1..].chars();
    Ok(c)
}

/// Writes `emb` in the word2vec text format, words escaped.
///
/// Fails with [`Error::InvalidParameter`] (before writing anything) when a word is empty,
/// and with [`Error::Io`] when writing fails.
pub fn write_word2vec_text(emb: &Embeddings, writer: impl Write) -> Result<()> {
    check_words_storable(emb)?;
    let mut w = BufWriter::new(writer);
    writeln!(w, "{} {}", emb.len(), emb.dim())?;
    for (word_idx, word) in emb.words().iter().enumerate() {
        w.write_all(escape_token(word).as_bytes())?;
        for v in emb.vector(word_idx) {
            write!(w, " {v}")?;
        }
        w.write_all(b"\n")?;
    }
    w.flush()?;
    Ok(())
}

/// Writes the TensorFlow Embedding Projector's pair of files: `vectors` gets one line of
/// tab-separated values per word, `metadata` one escaped word per line (a single column, so
/// no header line, as the Projector expects). Escaping keeps a token with a tab or a
/// newline on its own line.
pub fn write_projector_tsv(emb: &Embeddings, vectors: impl Write, metadata: impl Write) -> Result<()> {
    let (mut v, mut m) = (BufWriter::new(vectors), BufWriter::new(metadata));
    for (word_idx, word) in emb.words().iter().enumerate() {
        writeln!(m, "{}", escape_token(word))?;
        for (i, x) in emb.vector(word_idx).iter().enumerate() {
            write!(v, "{}{x}", if i == 0 { "" } else { "\t" })?;
        }
        v.write_all(b"\n")?;
    }
    v.flush()?;
    m.flush()?;
    Ok(())
}

/// Writes `emb` in the word2vec binary format, words escaped.
///
/// Fails like [`write_word2vec_text`].
pub fn write_word2vec_binary(emb: &Embeddings, writer: impl Write) -> Result<()> {
    check_words_storable(emb)?;
    let mut w = BufWriter::new(writer);
    writeln!(w, "{} {}", emb.len(), emb.dim())?;
    for (word_idx, word) in emb.words().iter().enumerate() {
        w.write_all(escape_token(word).as_bytes())?;
        w.write_all(b" ")?;
        for v in emb.vector(word_idx) {
            w.write_all(&v.to_le_bytes())?;
        }
        w.write_all(b"\n")?;
    }
    w.flush()?;
    Ok(())
}

fn check_words_storable(emb: &Embeddings) -> Result<()> {
    match emb.words().iter().position(String::is_empty) {
        Some(word_idx) => Err(Error::InvalidParameter {
            name: "word",
            value: format!("\"\" (word {})", word_idx + 1),
            expected: "a non-empty word: word2vec files cannot hold an empty one".into(),
        }),
        None => Ok(()),
    }
}

/// Reads the word2vec text format, unescaping words.
///
/// Fails with [`Error::Format`] naming the line of the first problem, and with
/// [`Error::Io`] when reading fails.
pub fn read_word2vec_text(mut reader: impl BufRead) -> Result<Embeddings> {
    let mut buf = Vec::new();
    let (n, dim) = read_header(&mut reader, &mut buf)?;
    let mut words: Vec<String> = Vec::with_capacity(n.min(MAX_PREALLOCATED_WORDS));
    let mut vectors: Vec<f32> = Vec::with_capacity(n.saturating_mul(dim).min(MAX_PREALLOCATED_FLOATS));
    let mut first_line: HashMap<String, usize> = HashMap::with_capacity(words.capacity());
    let mut line = 1;
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        line += 1;
        let format_error = |message: String| Error::Format { line, message };
        let text = std::str::from_utf8(&buf)
            .map_err(|err| format_error(format!("invalid UTF-8 at byte {}", err.valid_up_to() + 1)))?;
        let mut fields = text.split_ascii_whitespace();
        let Some(escaped) = fields.next() else {
            if words.len() == n {
                continue;
            }
            return Err(format_error(format!(
                "empty line where word {} of {n} was expected",
                words.len() + 1
            )));
        };
        if words.len() == n {
            return Err(format_error(format!("more words than the {n} the header promises")));
        }
        let word =
            unescape(escaped).map_err(|problem| format_error(format!("bad word '{escaped}': {problem}")))?;
        if let Some(first) = first_line.get(&word) {
            return Err(format_error(format!("the word '{escaped}' occurs twice (first on line {first})")));
        }
        let values: Vec<&str> = fields.collect();
        if values.len() != dim {
            return Err(format_error(format!(
                "expected {dim} values after '{escaped}', found {}",
                values.len()
            )));
        }
        for (i, value) in values.iter().enumerate() {
            let parsed: f32 = value.parse().map_err(|_| {
                format_error(format!("value {} of '{escaped}' is '{value}', not a number", i + 1))
            })?;
            if !parsed.is_finite() {
                return Err(format_error(format!(
                    "value {} of '{escaped}' is {value}, not a finite number",
                    i + 1
                )));
            }
            vectors.push(parsed);
        }
        first_line.insert(word.clone(), line);
        words.push(word);
    }
    if words.len() < n {
        return Err(Error::Format {
            line: line + 1,
            message: format!("the file ends after {} of the {n} words the header promises", words.len()),
        });
    }
    Embeddings::new(words, dim, vectors)
}

/// Reads the word2vec binary format, unescaping words.
///
/// Fails with [`Error::Format`] (line 1 for the header, 0 in the vector data, where the
/// message names the word), and with [`Error::Io`] when reading fails.
pub fn read_word2vec_binary(mut reader: impl BufRead) -> Result<Embeddings> {
    let mut buf = Vec::new();
    let (n, dim) = read_header(&mut reader, &mut buf)?;
    let mut words: Vec<String> = Vec::with_capacity(n.min(MAX_PREALLOCATED_WORDS));
    let mut vectors: Vec<f32> = Vec::with_capacity(n.saturating_mul(dim).min(MAX_PREALLOCATED_FLOATS));
    let mut first_seen: HashMap<String, usize> = HashMap::with_capacity(words.capacity());
    let mut chunk = vec![0u8; 4 * dim.min(BINARY_CHUNK_FLOATS)];
    for word_no in 1..=n {
        let format_error =
            |message: String| Error::Format { line: 0, message: format!("word {word_no}: {message}") };
        buf.clear();
        reader.read_until(b' ', &mut buf)?;
        // The newline that ends the previous vector is skipped, as gensim does.
        let start = buf.iter().position(|&b| b != b'\n').unwrap_or(buf.len());
        let Some((&b' ', bytes)) = buf[start..].split_last() else {
            return Err(if start == buf.len() {
                Error::Format {
                    line: 0,
                    message: format!(
                        "the file ends after {} of the {n} words the header promises",
                        word_no - 1
                    ),
                }
            } else {
                format_error("the data ends inside the word, before the space that ends it".into())
            });
        };
        if bytes.is_empty() {
            return Err(format_error("the word is empty".into()));
        }
        let escaped = std::str::from_utf8(bytes).map_err(|err| {
            format_error(format!("invalid UTF-8 at byte {} of the word", err.valid_up_to() + 1))
        })?;
        let word =
            unescape(escaped).map_err(|problem| format_error(format!("bad word '{escaped}': {problem}")))?;
        if let Some(first) = first_seen.get(&word) {
            return Err(format_error(format!("the word '{escaped}' occurs twice (first as word {first})")));
        }
        // The vector is read in bounded chunks, so a huge `dim` cannot force a huge buffer.
        let mut remaining = dim;
        while remaining > 0 {
            let take = remaining.min(BINARY_CHUNK_FLOATS);
            let got = read_fully(&mut reader, &mut chunk[..4 * take])?;
            if got < 4 * take {
                let read_before = 4 * (dim - remaining);
                return Err(format_error(format!(
                    "the vector of '{escaped}' is truncated: expected {} bytes, found {}",
                    4 * dim as u128,
                    read_before + got
                )));
            }
            for bytes in chunk[..4 * take].chunks_exact(4) {
                let value = f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                if !value.is_finite() {
                    let i = vectors.len() % dim + 1;
                    return Err(format_error(format!(
                        "value {i} of '{escaped}' is {value}, not a finite number"
                    )));
                }
                vectors.push(value);
            }
            remaining -= take;
        }
        first_seen.insert(word.clone(), word_no);
        words.push(word);
    }
    // Only whitespace (the last vector's newline) may follow the last word.
    loop {
        let data = reader.fill_buf()?;
        if data.is_empty() {
            break;
        }
        if !data.iter().all(u8::is_ascii_whitespace) {
            return Err(Error::Format {
                line: 0,
                message: format!("more data after the {n} words the header promises"),
            });
        }
        let len = data.len();
        reader.consume(len);
    }
    Embeddings::new(words, dim, vectors)
}

/// Reads the header line `"<n> <dim>"` into (`n`, `dim`).
fn read_header(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> Result<(usize, usize)> {
    let bad_header = |found: &str| Error::Format {
        line: 1,
        message: format!("expected the header '<number of words> <dimension>', found '{found}'"),
    };
    buf.clear();
    reader.read_until(b'\n', buf)?;
    let text = std::str::from_utf8(buf).map_err(|_| bad_header("invalid UTF-8"))?;
    let shown = text.trim_end();
    let fields: Vec<&str> = text.split_ascii_whitespace().collect();
    let [n, dim] = fields[..] else { return Err(bad_header(shown)) };
    let (Ok(n), Ok(dim)) = (n.parse::<usize>(), dim.parse::<usize>()) else { return Err(bad_header(shown)) };
    if dim == 0 {
        return Err(Error::Format {
            line: 1,
            message: "the header gives dimension 0; it must be at least 1".into(),
        });
    }
    Ok((n, dim))
}

/// Reads until `buf` is full or the data ends; returns the number of bytes read.
fn read_fully(reader: &mut impl Read, buf: &mut [u8]) -> Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(got) => filled += got,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err.into()),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, SeedableRng};

    use super::*;

    include!("tricky_tokens.rs");

    fn tricky_embeddings() -> Embeddings {
        let words: Vec<String> = TRICKY.iter().map(|w| w.to_string()).collect();
        let dim = 3;
        let specials = [0.1f32, -0.0, 1e-45, f32::MAX, f32::MIN_POSITIVE, -3.4028235e38, 1.0 / 3.0];
        let vectors = (0..words.len() * dim)
            .map(|i| specials[i % specials.len()] * if i % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        Embeddings::new(words, dim, vectors).unwrap()
    }

    fn bits(emb: &Embeddings) -> Vec<u32> {
        emb.raw().iter().map(|v| v.to_bits()).collect()
    }

    #[test]
    fn escape_table() {
        let cases = [
            ("plain", "plain"),
            ("from the dead", "from\\sthe\\sdead"),
            ("Jesus\n", "Jesus\\n"),
            ("a\tb\rc", "a\\tb\\rc"),
            ("back\\slash", "back\\\\slash"),
            ("nbsp\u{a0}", "nbsp\\u{a0}"),
            ("\u{3000}", "\\u{3000}"),
            ("日本", "日本"),
        ];
        for (token, escaped) in cases {
            assert_eq!(escape_token(token), escaped, "{token:?}");
            assert_eq!(unescape_token(escaped).as_deref(), Ok(token), "{escaped:?}");
        }
        assert!(matches!(escape_token("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn unescape_rejects_unknown_and_malformed_escapes() {
        for bad in [
            "\\x",
            "a\\",
            "\\u",
            "\\u{",
            "\\u{}",
            "\\u{zz}",
            "\\u{1234567}",
            "\\u{d800}",
            "\\u{110000}",
            "\\u20",
        ] {
            assert!(
                matches!(unescape_token(bad), Err(Error::InvalidParameter { name: "token", .. })),
                "{bad:?} was accepted"
            );
        }
        // Any scalar value may be spelled as \u{…}, not only whitespace.
        assert_eq!(unescape_token("\\u{41}\\u{1F980}").as_deref(), Ok("A🦀"));
    }

    #[test]
    fn escape_round_trips_generated_strings() {
        let alphabet = [
            'a', 's', 'n', 'u', '{', '}', '\\', ' ', '\n', '\t', '\r', '\u{a0}', '\u{2028}', '\u{85}', 'é',
            '🦀',
        ];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
        for _ in 0..5000 {
            let len = rng.next_u32() % 12;
            let token: String = (0..len)
                .map(|_| {
                    // Mostly the tricky alphabet, sometimes any Unicode scalar value.
                    let r = rng.next_u32();
                    if r % 4 == 0 {
                        char::from_u32(rng.next_u32() % 0x11_0000).unwrap_or('x')
                    } else {
                        alphabet[r as usize % alphabet.len()]
                    }
                })
                .collect();
            let escaped = escape_token(&token);
            assert!(!escaped.chars().any(char::is_whitespace), "{token:?} -> {escaped:?}");
            assert_eq!(unescape_token(&escaped).as_deref(), Ok(token.as_str()));
        }
    }

    #[test]
    fn text_round_trip_is_bit_exact() {
        let emb = tricky_embeddings();
        let mut file = Vec::new();
        write_word2vec_text(&emb, &mut file).unwrap();
        let text = String::from_utf8(file.clone()).unwrap();
        assert!(text.starts_with(&format!("{} 3\nthe ", TRICKY.len())));
        assert!(text.contains("\nfrom\\sthe\\sdead "));
        assert_eq!(text.lines().count(), TRICKY.len() + 1);
        let back = read_word2vec_text(&file[..]).unwrap();
        assert_eq!(back.words(), emb.words());
        assert_eq!(bits(&back), bits(&emb));
    }

    #[test]
    fn binary_round_trip_is_bit_exact() {
        let emb = tricky_embeddings();
        let mut file = Vec::new();
        write_word2vec_binary(&emb, &mut file).unwrap();
        let header = format!("{} 3\n", TRICKY.len());
        assert!(file.starts_with(format!("{header}the ").as_bytes()));
        assert_eq!(file[header.len() + 4..header.len() + 8], 0.1f32.to_le_bytes());
        let back = read_word2vec_binary(&file[..]).unwrap();
        assert_eq!(back.words(), emb.words());
        assert_eq!(bits(&back), bits(&emb));
    }

    #[test]
    fn generated_files_round_trip_in_both_formats() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for round in 0..50 {
            let n = 1 + rng.next_u32() as usize % 20;
            let dim = 1 + rng.next_u32() as usize % 9;
            let mut words: Vec<String> = Vec::new();
            while words.len() < n {
                let len = 1 + rng.next_u32() % 6;
                let word: String =
                    (0..len).map(|_| char::from_u32(rng.next_u32() % 0x3100).unwrap_or('?')).collect();
                if !words.contains(&word) {
                    words.push(word);
                }
            }
            // Random finite bit patterns cover subnormals, huge values and negative zero.
            let vectors: Vec<f32> = (0..n * dim)
                .map(|_| {
                    loop {
                        let v = f32::from_bits(rng.next_u32());
                        if v.is_finite() {
                            break v;
                        }
                    }
                })
                .collect();
            let emb = Embeddings::new(words, dim, vectors).unwrap();
            let (mut text, mut binary) = (Vec::new(), Vec::new());
            write_word2vec_text(&emb, &mut text).unwrap();
            write_word2vec_binary(&emb, &mut binary).unwrap();
            for back in [read_word2vec_text(&text[..]).unwrap(), read_word2vec_binary(&binary[..]).unwrap()] {
                assert_eq!(back.words(), emb.words(), "round {round}");
                assert_eq!(bits(&back), bits(&emb), "round {round}");
            }
        }
    }

    #[test]
    fn readers_accept_what_the_word2vec_tool_writes() {
        // The C tool ends each text line with a space; blank lines at the end are harmless.
        let text = "2 2\r\nthe 0.5 -1 \r\nof 2 3e-2 \n\n";
        let emb = read_word2vec_text(text.as_bytes()).unwrap();
        assert_eq!(emb.words(), ["the", "of"]);
        assert_eq!(emb.raw(), &[0.5, -1.0, 2.0, 0.03]);
        // Binary without a newline after each vector.
        let mut binary = b"2 1\nthe ".to_vec();
        binary.extend(1.5f32.to_le_bytes());
        binary.extend(b"of ");
        binary.extend((-2.0f32).to_le_bytes());
        let emb = read_word2vec_binary(&binary[..]).unwrap();
        assert_eq!(emb.words(), ["the", "of"]);
        assert_eq!(emb.raw(), &[1.5, -2.0]);
        // An empty vocabulary is a valid file.
        assert_eq!(read_word2vec_text(&b"0 4\n"[..]).unwrap().len(), 0);
    }

    fn format_error(line: usize, fragment: &str) -> impl Fn(Result<Embeddings>) {
        let fragment = fragment.to_string();
        move |result| match result {
            Err(Error::Format { line: got, message }) => {
                assert_eq!(got, line, "{message}");
                assert!(message.contains(&fragment), "'{message}' lacks '{fragment}'");
            }
            other => panic!("expected a format error on line {line} ('{fragment}'), got {other:?}"),
        }
    }

    #[test]
    fn text_reader_rejects_malformed_files_naming_the_line() {
        // Table: (file, line, part of the message).
        let cases: &[(&[u8], usize, &str)] = &[
            (b"", 1, "header"),
            (b"3\n", 1, "header"),
            (b"3 x\n", 1, "header"),
            (b"-1 2\n", 1, "header"),
            (b"1 2 3\n", 1, "header"),
            (b"1 0\n", 1, "dimension 0"),
            (b"2 2\na 1 2\nb 1\n", 3, "expected 2 values after 'b', found 1"),
            (b"2 2\na 1 2\nb 1 2 3\n", 3, "found 3"),
            (b"2 2\na 1 2\nb 1 two\n", 3, "value 2 of 'b' is 'two', not a number"),
            (b"1 2\na 1 NaN\n", 2, "not a finite number"),
            (b"1 2\na inf 1\n", 2, "not a finite number"),
            (b"3 1\na 1\nb 2\n", 4, "ends after 2 of the 3 words"),
            (b"1 1\na 1\nb 2\n", 3, "more words than the 1"),
            (b"3 1\na 1\nb 2\na 3\n", 4, "'a' occurs twice (first on line 2)"),
            (b"2 1\na\\sb 1\na\\u{20}b 2\n", 3, "occurs twice"),
            (b"2 1\na 1\n\xff 2\n", 3, "invalid UTF-8"),
            (b"2 1\na 1\n\nb 2\n", 3, "empty line where word 2 of 2"),
            (b"1 1\nbad\\q 1\n", 2, "unknown escape '\\q'"),
            (b"9999999999999999 1\na 1\n", 3, "ends after 1 of the 9999999999999999 words"),
        ];
        for (file, line, fragment) in cases {
            format_error(*line, fragment)(read_word2vec_text(*file));
        }
    }

    #[test]
    fn binary_reader_rejects_malformed_files() {
        let f = |x: f32| x.to_le_bytes();
        let file = |parts: &[&[u8]]| parts.concat();
        // Table: (file, line, part of the message).
        let cases: Vec<(Vec<u8>, usize, &str)> = vec![
            (b"x y\n".to_vec(), 1, "header"),
            (b"1 0\n".to_vec(), 1, "dimension 0"),
            (
                file(&[b"1 2\na ", &f(1.0), &[0, 0]]),
                0,
                "word 1: the vector of 'a' is truncated: expected 8 bytes, found 6",
            ),
            (file(&[b"2 1\na ", &f(1.0), b"\nb"]), 0, "word 2: the data ends inside the word"),
            (file(&[b"3 1\na ", &f(1.0), b"\nb ", &f(2.0), b"\n"]), 0, "ends after 2 of the 3 words"),
            (file(&[b"1 1\na ", &f(1.0), b"\nb ", &f(2.0)]), 0, "more data after the 1 words"),
            (
                file(&[b"2 1\na ", &f(1.0), b"\na ", &f(2.0)]),
                0,
                "word 2: the word 'a' occurs twice (first as word 1)",
            ),
            (file(&[b"1 1\n\xc3\x28 ", &f(1.0)]), 0, "word 1: invalid UTF-8"),
            (file(&[b"1 1\n\\x ", &f(1.0)]), 0, "unknown escape"),
            (file(&[b"1 1\n ", &f(1.0)]), 0, "word 1: the word is empty"),
            (file(&[b"1 2\na ", &f(1.0), &f(f32::NAN)]), 0, "value 2 of 'a' is NaN"),
            (b"5 1000000000000\na ".to_vec(), 0, "found 0"),
        ];
        for (bytes, line, fragment) in &cases {
            format_error(*line, fragment)(read_word2vec_binary(&bytes[..]));
        }
    }

    #[test]
    fn writers_reject_the_empty_word() {
        let emb = Embeddings::new(vec!["a".into(), String::new()], 1, vec![1.0, 2.0]).unwrap();
        let mut out = Vec::new();
        assert!(matches!(
            write_word2vec_text(&emb, &mut out),
            Err(Error::InvalidParameter { name: "word", .. })
        ));
        assert!(matches!(
            write_word2vec_binary(&emb, &mut out),
            Err(Error::InvalidParameter { name: "word", .. })
        ));
        assert!(out.is_empty());
    }

    #[test]
    fn projector_tsv_has_one_line_per_word_and_escapes_tokens() {
        let words = vec!["a\tb".to_string(), "x y".to_string()];
        let emb = Embeddings::new(words, 2, vec![1.0, -0.5, 0.25, 2.0]).unwrap();
        let (mut vectors, mut metadata) = (Vec::new(), Vec::new());
        write_projector_tsv(&emb, &mut vectors, &mut metadata).unwrap();
        assert_eq!(String::from_utf8(vectors).unwrap(), "1\t-0.5\n0.25\t2\n");
        assert_eq!(String::from_utf8(metadata).unwrap(), "a\\tb\nx\\sy\n");
    }
}
