//! A dropped file's bytes to text: the encoding is told from the bytes, binary files are
//! refused with a message that says what they look like, and nothing the bytes hold can
//! make decoding panic.
//!
//! # How the encoding is told
//!
//! 1. **A byte-order mark** decides: `EF BB BF` is UTF-8, `FF FE` UTF-16 little-endian,
//!    `FE FF` UTF-16 big-endian. The mark is removed from the text.
//! 2. **Magic numbers** at the start name a binary file (PNG, JPEG, GIF, PDF, ZIP and the
//!    Office documents built on it, gzip, programs, WebAssembly, …): [`Error::NotText`].
//! 3. **UTF-16 without a mark** is told from its zero bytes: text in ASCII or Latin-1
//!    stored in UTF-16 has a zero high byte in most code units. In the first 64 KB, when at
//!    least a fifth of the code units have a zero byte at one position (odd for
//!    little-endian, even for big-endian) and the other position is zero at most a
//!    twentieth as often, the file is read as UTF-16 in that byte order.
//! 4. **Binary data** otherwise: more than 0.1 % zero bytes, or more than 5 % C0 control
//!    characters (bytes below 0x20 other than tab, line feed, carriage return, form feed,
//!    and escape, which terminal logs with colours hold). Compressed or random data has
//!    about 12 % such bytes, text has next to none. UTF-16 text is checked the same way
//!    once decoded, so a binary file that happens to look like UTF-16 is still refused.
//! 5. **UTF-8**, when the bytes are valid UTF-8: the `Vec` becomes the `String` without a
//!    copy.
//! 6. **Invalid UTF-8**: every non-ASCII character of a UTF-8 text is a valid multi-byte
//!    sequence, while a Windows-1252 (Latin-1) text almost never holds one (an accented
//!    letter is a single byte, followed by ASCII). So when the valid multi-byte sequences
//!    outnumber the invalid ones, the file is UTF-8 with a few bad bytes, each invalid
//!    sequence becoming one U+FFFD (as `String::from_utf8_lossy` does); otherwise it is
//!    read as Windows-1252, where every byte is a character except 0x81, 0x8D, 0x8F, 0x90
//!    and 0x9D, which become U+FFFD. Both are counted in [`Decoded::replaced`].
//!
//! # Limits
//!
//! - UTF-16 without a byte-order mark is recognised only when at least a fifth of its
//!   characters are ASCII or Latin-1 (spaces and line breaks count, so Russian or Greek
//!   prose usually is); Chinese or Japanese without a mark has too few zero bytes and is
//!   refused as binary data. Saving it with a byte-order mark (or as UTF-8) fixes that.
//! - Other 8-bit encodings (Latin-2, KOI8-R, Shift JIS, …) are read as Windows-1252, so
//!   their letters come out wrong but nothing is lost to U+FFFD beyond the five bytes above.
//! - A file that mixes UTF-8 and Windows-1252 is read as the one with more non-ASCII
//!   characters; the other part is garbled.
//! - UTF-32 is not recognised; it is refused as binary data.
//! - Only the start of a file is searched for magic numbers, and a text that really starts
//!   with one (a text file beginning `%PDF-`) is refused.

use crate::error::{Error, Result};

/// The encoding a text was read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16Le,
    Utf16Be,
    /// Windows-1252, the superset of Latin-1 (ISO 8859-1) that Windows and the web use.
    Windows1252,
}

impl Encoding {
    /// A name for people: "UTF-8", "UTF-16 (little-endian)", "Windows-1252 (Latin-1)".
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf16Le => "UTF-16 (little-endian)",
            Encoding::Utf16Be => "UTF-16 (big-endian)",
            Encoding::Windows1252 => "Windows-1252 (Latin-1)",
        }
    }
}

/// A decoded text and how it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    pub text: String,
    pub encoding: Encoding,
    /// Whether the bytes began with a byte-order mark; it is not part of `text`.
    pub bom: bool,
    /// Characters replaced by U+FFFD: invalid UTF-8 sequences, unpaired UTF-16 surrogates
    /// (and a lone last byte), or the five Windows-1252 bytes that have no character.
    pub replaced: usize,
}

impl Decoded {
    /// One line for the page when the bytes were not plain UTF-8, e.g. "read as UTF-16
    /// (little-endian, with a byte-order mark)"; `None` for plain, valid UTF-8.
    pub fn note(&self) -> Option<String> {
        if self.encoding == Encoding::Utf8 && !self.bom && self.replaced == 0 {
            return None;
        }
        let mark = if self.bom { "with a byte-order mark" } else { "without a byte-order mark" };
        let mut note = match self.encoding {
            Encoding::Utf8 if self.bom => "read as UTF-8 (with a byte-order mark)".to_string(),
            Encoding::Utf8 => "not valid UTF-8 throughout: read as UTF-8".to_string(),
            Encoding::Utf16Le => format!("read as UTF-16 (little-endian, {mark})"),
            Encoding::Utf16Be => format!("read as UTF-16 (big-endian, {mark})"),
            Encoding::Windows1252 => "not UTF-8: read as Windows-1252 (Latin-1)".to_string(),
        };
        if self.replaced > 0 {
            let n = self.replaced;
            let (one, many) = match self.encoding {
                Encoding::Utf8 => ("invalid byte sequence", "invalid byte sequences"),
                Encoding::Utf16Le | Encoding::Utf16Be => {
                    ("unpaired surrogate or stray byte", "unpaired surrogates or stray bytes")
                }
                Encoding::Windows1252 => ("byte with no character there", "bytes with no character there"),
            };
            let what = if n == 1 { format!("1 {one} was") } else { format!("{n} {many} were") };
            note.push_str(&format!("; {what} replaced by \u{FFFD}"));
        }
        Some(note)
    }
}

/// Decodes a file's bytes into text; see the module documentation for how the encoding is
/// told. Takes the bytes by value so that valid UTF-8 becomes the text without a copy.
/// Empty input is an empty text.
///
/// Fails with [`Error::NotText`] when the bytes are an image, an archive, a program or
/// other binary data.
pub fn decode_text(mut bytes: Vec<u8>) -> Result<Decoded> {
    for (mark, encoding) in [([0xFF, 0xFE], Encoding::Utf16Le), ([0xFE, 0xFF], Encoding::Utf16Be)] {
        if bytes.starts_with(&mark) {
            return decode_utf16(&bytes[2..], encoding, true);
        }
    }
    let bom = bytes.starts_with(&[0xEF, 0xBB, 0xBF]);
    if bom {
        bytes.drain(..3);
    } else if let Some(kind) = magic_kind(&bytes) {
        return Err(Error::NotText { kind: kind.to_string() });
    } else if let Some(encoding) = utf16_without_bom(&bytes) {
        return decode_utf16(&bytes, encoding, false);
    }
    refuse_binary(&bytes)?;
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return Ok(Decoded { text, encoding: Encoding::Utf8, bom, replaced: 0 }),
        Err(err) => err.into_bytes(),
    };
    let (mut valid_multibyte, mut invalid) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        valid_multibyte += chunk.valid().bytes().filter(|&b| b >= 0xC0).count();
        invalid += !chunk.invalid().is_empty() as usize;
    }
    if bom || valid_multibyte > invalid {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        Ok(Decoded { text, encoding: Encoding::Utf8, bom, replaced: invalid })
    } else {
        let (text, replaced) = decode_windows_1252(&bytes);
        Ok(Decoded { text, encoding: Encoding::Windows1252, bom: false, replaced })
    }
}

/// What a file is, told from the magic number at its start; `None` when none is known.
fn magic_kind(bytes: &[u8]) -> Option<&'static str> {
    let starts = |magic: &[u8]| bytes.starts_with(magic);
    let at = |offset: usize, magic: &[u8]| bytes.get(offset..).is_some_and(|rest| rest.starts_with(magic));
    let kind = if starts(b"\x89PNG\r\n\x1a\n") {
        "a PNG image"
    } else if starts(&[0xFF, 0xD8, 0xFF]) {
        "a JPEG image"
    } else if starts(b"GIF87a") || starts(b"GIF89a") {
        "a GIF image"
    } else if starts(b"II*\0") || starts(b"MM\0*") {
        "a TIFF image"
    } else if starts(b"RIFF") && at(8, b"WEBP") {
        "a WebP image"
    } else if starts(b"RIFF") && at(8, b"WAVE") {
        "a WAV sound"
    } else if starts(b"RIFF") && at(8, b"AVI ") {
        "an AVI video"
    } else if starts(b"OggS\0") {
        "an Ogg sound or video"
    } else if starts(b"fLaC") {
        "a FLAC sound"
    } else if starts(b"ID3") && bytes.get(3).is_some_and(|v| (2..=4).contains(v)) {
        "an MP3 sound"
    } else if bytes.first() == Some(&0) && at(4, b"ftyp") {
        "an MP4 or QuickTime video or sound"
    } else if starts(b"%PDF-") {
        "a PDF document"
    } else if starts(b"PK\x03\x04") || starts(b"PK\x05\x06") || starts(b"PK\x07\x08") {
        "a ZIP archive (or a Word/Excel document)"
    } else if starts(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        "an old-style Word/Excel document (.doc, .xls)"
    } else if starts(&[0x1F, 0x8B]) {
        "a gzip archive"
    } else if starts(b"BZh") && bytes.get(3).is_some_and(u8::is_ascii_digit) && at(4, b"1AY&SY") {
        "a bzip2 archive"
    } else if starts(&[0xFD, b'7', b'z', b'X', b'Z', 0]) {
        "an xz archive"
    } else if starts(&[b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C]) {
        "a 7-Zip archive"
    } else if starts(b"Rar!\x1a\x07") {
        "a RAR archive"
    } else if starts(&[0x28, 0xB5, 0x2F, 0xFD]) {
        "a Zstandard archive"
    } else if at(257, b"ustar") {
        // A tar header's magic sits at byte 257; its file name, at 0, may be any text.
        "a tar archive, several files in one: extract it (tar -xf) and open the file you want"
    } else if starts(b"SQLite format 3\0") {
        "an SQLite database"
    } else if starts(b"\x7fELF") {
        "a program (ELF, Linux or Unix)"
    } else if starts(b"MZ") && bytes[..bytes.len().min(64)].contains(&0) {
        // The DOS header that starts every Windows program holds zeros; a text starting
        // with "MZ" does not.
        "a Windows program (.exe or .dll)"
    } else if [
        [0xFE, 0xED, 0xFA, 0xCE],
        [0xFE, 0xED, 0xFA, 0xCF],
        [0xCE, 0xFA, 0xED, 0xFE],
        [0xCF, 0xFA, 0xED, 0xFE],
    ]
    .iter()
    .any(|magic| starts(magic))
    {
        "a macOS program (Mach-O)"
    } else if starts(&[0xCA, 0xFE, 0xBA, 0xBE]) {
        "a macOS program or a Java class file"
    } else if starts(b"\0asm") {
        "a WebAssembly module"
    } else {
        return None;
    };
    Some(kind)
}

/// The bytes examined to tell UTF-16 without a byte-order mark.
const UTF16_SAMPLE: usize = 64 * 1024;

/// The byte order of UTF-16 without a byte-order mark, told from where its zero bytes are.
fn utf16_without_bom(bytes: &[u8]) -> Option<Encoding> {
    let sample = &bytes[..bytes.len().min(UTF16_SAMPLE)];
    let units = sample.len() / 2;
    let (mut zero_even, mut zero_odd) = (0, 0);
    for unit in sample.chunks_exact(2) {
        zero_even += (unit[0] == 0) as usize;
        zero_odd += (unit[1] == 0) as usize;
    }
    let looks_like = |zero_high: usize, zero_low: usize| zero_high * 5 >= units && zero_low * 20 <= zero_high;
    if units == 0 {
        None
    } else if looks_like(zero_odd, zero_even) {
        Some(Encoding::Utf16Le)
    } else if looks_like(zero_even, zero_odd) {
        Some(Encoding::Utf16Be)
    } else {
        None
    }
}

/// Decodes UTF-16 in `encoding`'s byte order; unpaired surrogates and a lone last byte
/// become U+FFFD. Refuses the result when it looks binary.
fn decode_utf16(bytes: &[u8], encoding: Encoding, bom: bool) -> Result<Decoded> {
    let big_endian = encoding == Encoding::Utf16Be;
    let units = bytes.chunks_exact(2).map(|unit| {
        let pair = [unit[0], unit[1]];
        if big_endian { u16::from_be_bytes(pair) } else { u16::from_le_bytes(pair) }
    });
    let mut text = String::with_capacity(bytes.len() / 2);
    let mut replaced = 0;
    for decoded in char::decode_utf16(units) {
        text.push(decoded.unwrap_or_else(|_| {
            replaced += 1;
            char::REPLACEMENT_CHARACTER
        }));
    }
    if bytes.len() % 2 == 1 {
        text.push(char::REPLACEMENT_CHARACTER);
        replaced += 1;
    }
    // Control characters are ASCII, so the UTF-8 bytes of the text tell them as well.
    refuse_binary(text.as_bytes())?;
    Ok(Decoded { text, encoding, bom, replaced })
}

/// C0 control characters that text holds: tab, line feed, form feed, carriage return and
/// escape (terminal colours), as a bit mask over the byte values 0..32.
const TEXT_CONTROLS: u32 = 1 << 0x09 | 1 << 0x0A | 1 << 0x0C | 1 << 0x0D | 1 << 0x1B;

/// Fails with [`Error::NotText`] when more than 1 byte in 1,000 is zero or more than 1 in
/// 20 is a control character that text does not hold.
fn refuse_binary(bytes: &[u8]) -> Result<()> {
    let (mut zeros, mut controls) = (0usize, 0usize);
    for &b in bytes {
        zeros += (b == 0) as usize;
        controls += (b < 0x20 && TEXT_CONTROLS >> (b & 31) & 1 == 0) as usize;
    }
    let n = bytes.len();
    if zeros * 1000 <= n && controls * 20 <= n {
        return Ok(());
    }
    let percent = controls as f64 * 100.0 / n as f64;
    let shown = if percent >= 1.0 { format!("{percent:.0}") } else { format!("{percent:.1}") };
    Err(Error::NotText {
        kind: format!("binary data ({shown}% of its bytes are zeros or control characters)"),
    })
}

/// Windows-1252's characters for the bytes 0x80 to 0x9F; U+FFFD where it has none.
const WINDOWS_1252_HIGH: [char; 32] = [
    '€', '\u{FFFD}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{FFFD}', 'Ž', '\u{FFFD}',
    '\u{FFFD}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{FFFD}', 'ž', 'Ÿ',
];

/// Decodes Windows-1252: ASCII, the table above, and Latin-1 from 0xA0 (the code point is
/// the byte). Returns the text and the number of bytes that became U+FFFD.
fn decode_windows_1252(bytes: &[u8]) -> (String, usize) {
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 4);
    let mut replaced = 0;
    let mut rest = bytes;
    while !rest.is_empty() {
        // Runs of ASCII are copied whole: pushing a character at a time is several times slower.
        let ascii = rest.iter().position(|&b| b >= 0x80).unwrap_or(rest.len());
        text.push_str(std::str::from_utf8(&rest[..ascii]).expect("ASCII is UTF-8"));
        let Some(&b) = rest.get(ascii) else { break };
        let c = match b {
            0x80..=0x9F => WINDOWS_1252_HIGH[(b - 0x80) as usize],
            _ => char::from(b),
        };
        replaced += (c == char::REPLACEMENT_CHARACTER) as usize;
        text.push(c);
        rest = &rest[ascii + 1..];
    }
    (text, replaced)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::random_unicode;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, RngExt, SeedableRng};

    fn decode(bytes: &[u8]) -> Result<Decoded> {
        decode_text(bytes.to_vec())
    }

    fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
        text.encode_utf16().flat_map(|u| if big_endian { u.to_be_bytes() } else { u.to_le_bytes() }).collect()
    }

    fn not_text(bytes: &[u8]) -> String {
        match decode(bytes) {
            Err(Error::NotText { kind }) => kind,
            other => panic!("{bytes:?}: expected NotText, got {other:?}"),
        }
    }

    #[test]
    fn texts_in_each_encoding_read_back() {
        let text = "Café naïve “quoted” €5\r\nline two\n";
        let with_mark = |mark: &[u8], body: Vec<u8>| [mark.to_vec(), body].concat();
        // (bytes, encoding, byte-order mark, the note); nothing is replaced.
        let cases: Vec<(Vec<u8>, Encoding, bool, Option<&str>)> = vec![
            (text.as_bytes().to_vec(), Encoding::Utf8, false, None),
            (
                with_mark(&[0xEF, 0xBB, 0xBF], text.into()),
                Encoding::Utf8,
                true,
                Some("read as UTF-8 (with a byte-order mark)"),
            ),
            (
                with_mark(&[0xFF, 0xFE], utf16(text, false)),
                Encoding::Utf16Le,
                true,
                Some("read as UTF-16 (little-endian, with a byte-order mark)"),
            ),
            (
                with_mark(&[0xFE, 0xFF], utf16(text, true)),
                Encoding::Utf16Be,
                true,
                Some("read as UTF-16 (big-endian, with a byte-order mark)"),
            ),
            (
                utf16(text, false),
                Encoding::Utf16Le,
                false,
                Some("read as UTF-16 (little-endian, without a byte-order mark)"),
            ),
            (
                utf16(text, true),
                Encoding::Utf16Be,
                false,
                Some("read as UTF-16 (big-endian, without a byte-order mark)"),
            ),
            (
                b"Caf\xe9 na\xefve \x93quoted\x94 \x805\r\nline two\n".to_vec(),
                Encoding::Windows1252,
                false,
                Some("not UTF-8: read as Windows-1252 (Latin-1)"),
            ),
        ];
        for (bytes, encoding, bom, note) in cases {
            let decoded = decode(&bytes).unwrap();
            assert_eq!(decoded, Decoded { text: text.into(), encoding, bom, replaced: 0 }, "{bytes:?}");
            assert_eq!(decoded.note().as_deref(), note);
        }
        assert_eq!(
            decode(b"").unwrap(),
            Decoded { text: String::new(), encoding: Encoding::Utf8, bom: false, replaced: 0 }
        );
        assert_eq!(decode(&[0xEF, 0xBB, 0xBF]).unwrap().text, "");
        assert_eq!(decode(&[0xFF, 0xFE]).unwrap().text, "");
        assert_eq!(Encoding::Windows1252.name(), "Windows-1252 (Latin-1)");
    }

    #[test]
    fn what_cannot_be_decoded_is_replaced_and_counted() {
        let check = |bytes: &[u8], text: &str, encoding: Encoding, replaced: usize, note: &str| {
            let decoded = decode(bytes).unwrap();
            assert_eq!(
                (decoded.text.as_str(), decoded.encoding, decoded.replaced),
                (text, encoding, replaced)
            );
            assert_eq!(decoded.note().as_deref(), Some(note));
        };
        // Windows-1252's five holes.
        check(
            b"a\x81b\x8dc\x8fd\x90e\x9df \x80",
            "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}f €",
            Encoding::Windows1252,
            5,
            "not UTF-8: read as Windows-1252 (Latin-1); 5 bytes with no character there were replaced by \u{FFFD}",
        );
        // A UTF-8 text with a few bad bytes stays UTF-8: its valid sequences outnumber them.
        check(
            "naïve café résumé \u{2014} "
                .as_bytes()
                .iter()
                .chain(b"\xff ok \xe2\x82")
                .copied()
                .collect::<Vec<_>>()
                .as_slice(),
            "naïve café résumé \u{2014} \u{FFFD} ok \u{FFFD}",
            Encoding::Utf8,
            2,
            "not valid UTF-8 throughout: read as UTF-8; 2 invalid byte sequences were replaced by \u{FFFD}",
        );
        // An English text with one Windows apostrophe is Windows-1252, which reads it right.
        check(
            b"don\x92t stop",
            "don\u{2019}t stop",
            Encoding::Windows1252,
            0,
            "not UTF-8: read as Windows-1252 (Latin-1)",
        );
        // A byte-order mark says UTF-8 whatever follows.
        check(
            b"\xef\xbb\xbfcaf\xe9",
            "caf\u{FFFD}",
            Encoding::Utf8,
            1,
            "read as UTF-8 (with a byte-order mark); 1 invalid byte sequence was replaced by \u{FFFD}",
        );
        // An unpaired surrogate and a lone last byte in UTF-16.
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend(utf16("ab", false));
        bytes.extend([0x00, 0xD8]); // a high surrogate with no low one after it
        bytes.extend(utf16("cd", false));
        bytes.push(b'e');
        check(
            &bytes,
            "ab\u{FFFD}cd\u{FFFD}",
            Encoding::Utf16Le,
            2,
            "read as UTF-16 (little-endian, with a byte-order mark); 2 unpaired surrogates or stray bytes were replaced by \u{FFFD}",
        );
    }

    #[test]
    fn binary_files_are_named() {
        // What `tar` writes first: the name of the first file, then its header's fields.
        let mut tar_header = vec![0u8; 512];
        tar_header[..8].copy_from_slice(b"kjv.txt\0");
        tar_header[257..263].copy_from_slice(b"ustar\0");
        let cases: &[(&[u8], &str)] = &[
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "a PNG image"),
            (b"\xff\xd8\xff\xe0\0\x10JFIF", "a JPEG image"),
            (b"GIF89a\x01\0\x01\0", "a GIF image"),
            (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3", "a PDF document"),
            (b"PK\x03\x04\x14\0\x06\0", "a ZIP archive (or a Word/Excel document)"),
            (b"\x1f\x8b\x08\0", "a gzip archive"),
            (b"\x7fELF\x02\x01\x01", "a program (ELF, Linux or Unix)"),
            (b"MZ\x90\0\x03\0\0\0\x04\0", "a Windows program (.exe or .dll)"),
            (b"\xcf\xfa\xed\xfe\x07\0\0\x01", "a macOS program (Mach-O)"),
            (b"\0asm\x01\0\0\0", "a WebAssembly module"),
            (b"RIFF\x24\x08\0\0WAVEfmt ", "a WAV sound"),
            (b"\0\0\0\x20ftypisom", "an MP4 or QuickTime video or sound"),
            (b"SQLite format 3\0\x10\0", "an SQLite database"),
            (
                &tar_header,
                "a tar archive, several files in one: extract it (tar -xf) and open the file you want",
            ),
        ];
        for (bytes, kind) in cases {
            assert_eq!(not_text(bytes), *kind);
        }
        let message = decode(b"\x89PNG\r\n\x1a\n").unwrap_err().to_string();
        assert_eq!(
            message,
            "this file is not text: it looks like a PNG image. Open a plain-text file (UTF-8, UTF-16 or Latin-1)"
        );
        // Texts that merely start like a magic number are text.
        for text in ["MZ is a place", "GIF is a format", "PK, not a ZIP", "ID3 tags", "RIFF raff"] {
            assert_eq!(decode(text.as_bytes()).unwrap().text, text);
        }
    }

    #[test]
    fn binary_data_is_told_by_its_zeros_and_control_characters() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut random = vec![0u8; 4096];
        rng.fill_bytes(&mut random);
        assert!(not_text(&random).starts_with("binary data ("), "{}", not_text(&random));

        let text = "plain text with words in it. ".repeat(40); // 1,160 bytes
        let n = text.len();
        // Zero bytes: at most 1 in 1,000.
        let with = |byte: u8, count: usize| {
            let mut bytes = text.clone().into_bytes();
            for k in 0..count {
                bytes[k * 4 + 1] = byte;
            }
            bytes
        };
        assert!(decode(&with(0, n / 1000)).is_ok());
        assert!(not_text(&with(0, n / 1000 + 1)).starts_with("binary data (0.2% of its bytes"));
        // Other control characters: at most 1 in 20.
        assert!(decode(&with(0x01, n / 20)).is_ok());
        assert_eq!(
            not_text(&with(0x01, n / 20 + 1)),
            "binary data (5% of its bytes are zeros or control characters)"
        );
        // Tab, line feed, form feed, carriage return and escape are text.
        assert!(decode(&with(0x1B, n / 5)).is_ok());
        assert!(decode(&with(0x0C, n / 5)).is_ok());
        // Valid UTF-8 with zeros all over (a tar archive, say) is still binary.
        assert!(not_text(b"name\0\0\0\0\0\0\0\x000000644\0").starts_with("binary data"));
        // Binary data whose zeros look like UTF-16 is refused once decoded.
        let pseudo: Vec<u8> = (0..2000).flat_map(|i| [(i * 37 % 256) as u8, 0]).collect();
        assert!(not_text(&pseudo).starts_with("binary data"));
    }

    #[test]
    fn utf16_without_a_mark_needs_enough_zero_bytes() {
        // Russian with spaces: the spaces are a fifth of the code units.
        let russian = "мир дом кот сад лес ".repeat(50);
        assert_eq!(decode(&utf16(&russian, false)).unwrap().encoding, Encoding::Utf16Le);
        // Chinese has no zero byte at all; with a mark it reads, without one it is refused.
        let chinese = "我们的世界很大".repeat(50);
        assert_eq!(
            decode(&[&[0xFE, 0xFF], utf16(&chinese, true).as_slice()].concat()).unwrap().text,
            chinese
        );
        assert!(decode(&utf16(&chinese, true)).is_err());
    }

    /// A random text without the control characters text does not hold, nor a byte-order
    /// mark at its start.
    fn random_text(rng: &mut Xoshiro256PlusPlus, len: usize) -> String {
        let text: String = random_unicode(rng, len)
            .chars()
            .filter(|&c| c >= ' ' || TEXT_CONTROLS >> c as u32 & 1 == 1)
            .collect();
        text.trim_start_matches('\u{feff}').to_string()
    }

    #[test]
    fn random_bytes_never_panic_and_utf8_round_trips() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for case in 0..3_000 {
            let len = rng.random_range(0..300);
            let bytes: Vec<u8> = match case % 4 {
                // Any bytes.
                0 => (0..len).map(|_| rng.next_u32() as u8).collect(),
                // Mostly ASCII with a few high bytes: Windows-1252 or broken UTF-8.
                1 => (0..len)
                    .map(|_| {
                        if rng.random_range(0..10) == 0 {
                            rng.random_range(0x80..=0xFF)
                        } else {
                            rng.random_range(0x20..0x7F)
                        }
                    })
                    .collect(),
                // UTF-16-like: a zero byte in every other place, with noise.
                2 => (0..len)
                    .map(|i| if i % 2 == 1 && rng.random_range(0..8) != 0 { 0 } else { rng.next_u32() as u8 })
                    .collect(),
                // A byte-order mark then anything.
                _ => [[0xFF, 0xFE], [0xFE, 0xFF], [0xEF, 0xBB]][rng.random_range(0..3)]
                    .into_iter()
                    .chain((0..len).map(|_| rng.next_u32() as u8))
                    .collect(),
            };
            match decode(&bytes) {
                Ok(decoded) => {
                    let plain = decoded.encoding == Encoding::Utf8 && !decoded.bom && decoded.replaced == 0;
                    assert_eq!(plain, decoded.note().is_none());
                    if let Ok(text) = std::str::from_utf8(&bytes)
                        && decoded.encoding == Encoding::Utf8
                        && !decoded.bom
                    {
                        assert_eq!(decoded.text, text);
                    }
                }
                Err(err) => assert!(matches!(err, Error::NotText { .. }), "{err:?}"),
            }
        }
        for _ in 0..1_000 {
            let len = rng.random_range(0..200);
            let text = random_text(&mut rng, len);
            let decoded = decode(text.as_bytes()).unwrap_or_else(|err| panic!("{text:?}: {err}"));
            assert_eq!(decoded, Decoded { text, encoding: Encoding::Utf8, bom: false, replaced: 0 });
        }
    }
}
