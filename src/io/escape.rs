//! The reversible whitespace escape for tokens, and why it exists, is described in the
//! [`io` module documentation](super); the table of escapes is on [`escape_token`].

use std::borrow::Cow;

use crate::error::{Error, Result};

/// Escapes `token` so it holds no whitespace, reversibly, for the vector file formats:
///
/// | character                                       | written as                      |
/// |-------------------------------------------------|---------------------------------|
/// | `\` (backslash)                                 | `\\`                            |
/// | space U+0020                                    | `\s`                            |
/// | line feed U+000A                                | `\n`                            |
/// | tab U+0009                                      | `\t`                            |
/// | carriage return U+000D                          | `\r`                            |
/// | any other `c` with `char::is_whitespace(c)`     | `\u{HEX}`: lowercase hex, no leading zeros (U+00A0 is `\u{a0}`) |
/// | anything else                                   | itself                          |
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
pub(super) fn unescape(escaped: &str) -> std::result::Result<String, String> {
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

/// Unescapes a word from a file whose other writers do not escape (GloVe, `metadata.tsv`):
/// a backslash that starts no valid escape is taken literally, so a token such as `\o/` reads
/// as itself.
pub(super) fn unescape_leniently(escaped: &str) -> String {
    unescape(escaped).unwrap_or_else(|_| escaped.to_string())
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

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, SeedableRng};

    use super::*;

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
            assert_eq!(unescape_leniently(bad), bad);
        }
        // Any scalar value may be spelled as \u{…}, not only whitespace.
        assert_eq!(unescape_token("\\u{41}\\u{1F980}").as_deref(), Ok("A🦀"));
        assert_eq!(unescape_leniently("\\o/"), "\\o/");
        assert_eq!(unescape_leniently("a\\sb"), "a b");
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
            assert_eq!(unescape_leniently(&escaped), token);
            // Unescaping the raw string, escapes right or wrong, gives a string or an error.
            let _ = unescape_token(&token);
        }
    }
}
