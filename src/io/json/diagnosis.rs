//! serde_json's errors in this crate's words: [`JsonError::from_serde`] and `Diagnosis`,
//! which tells the message and the place from serde_json's error and the text around it,
//! with the small readers of that text (among them [`skip_whitespace`], which the bundle
//! reader shares).

use super::strict::NEST_DEEPER;
use super::{JsonError, error_at, quoted};

impl JsonError {
    /// serde_json's `err`, from parsing `text[start..]`, as this crate has always said it:
    /// the message in a person's words ("expected ':' after the key \"a\", found a number"),
    /// placed where the fault starts (the comma of a trailing comma, the `0` of `01`), the
    /// column in characters.
    pub fn from_serde(text: &str, start: usize, err: &serde_json::Error) -> JsonError {
        let full = err.to_string();
        let code = full.rfind(" at line ").map_or(full.as_str(), |cut| &full[..cut]);
        // serde_json places most faults just after the byte it rejected, some on it; its
        // column counts bytes from the line's start, 1-based.
        let slice = &text[start..];
        let line_start =
            slice.split_inclusive('\n').take(err.line().saturating_sub(1)).map(str::len).sum::<usize>();
        let at = (start + line_start + err.column().saturating_sub(1)).min(text.len());
        let (at, message) = Diagnosis { text, at }.explain(code);
        error_at(text, at, message)
    }
}

/// Tells a serde_json error in this crate's words, from the text around its place.
struct Diagnosis<'t> {
    text: &'t str,
    /// Where serde_json placed the fault.
    at: usize,
}

impl Diagnosis<'_> {
    fn explain(&self, code: &str) -> (usize, String) {
        let (text, at) = (self.text, self.at);
        if let Some(explained) = self.literal_word() {
            return explained;
        }
        match code {
            "EOF while parsing a value"
                if text.ends_with(|c: char| c.is_ascii_digit() || "-+.eE".contains(c)) =>
            {
                Diagnosis { text, at: text.len() }.number(code)
            }
            "EOF while parsing a value" => {
                (text.len(), format!("expected a JSON value, found {}", found(text, text.len())))
            }
            "EOF while parsing a list" => match last_token(text, text.len()) {
                Some(b'[' | b',') => (text.len(), "expected a JSON value, found the end of the text".into()),
                _ => (
                    text.len(),
                    "expected ',' or ']' after an array element, found the end of the text".into(),
                ),
            },
            "EOF while parsing an object" => match last_token(text, text.len()) {
                Some(b'{' | b',') => (
                    text.len(),
                    "expected a key (a string in double quotes), found the end of the text".into(),
                ),
                Some(b':') => (text.len(), "expected a JSON value, found the end of the text".into()),
                _ => (
                    text.len(),
                    "expected ',' or '}' after an object member, found the end of the text".into(),
                ),
            },
            "EOF while parsing a string" => self.unterminated_string(),
            "expected `:`" => {
                let at = skip_whitespace(text, self.token_start());
                let key = self.key_before(at).map_or_else(String::new, |key| format!(" {}", quoted(&key)));
                (at, format!("expected ':' after the key{key}, found {}", found(text, at)))
            }
            "expected `,` or `]`" => {
                let at = self.token_start();
                (at, format!("expected ',' or ']' after an array element, found {}", found(text, at)))
            }
            "expected `,` or `}`" => {
                let at = self.token_start();
                (at, format!("expected ',' or '}}' after an object member, found {}", found(text, at)))
            }
            "key must be a string" => {
                let at = self.token_start();
                (at, format!("expected a key (a string in double quotes), found {}", found(text, at)))
            }
            "expected value" | "expected ident" => {
                // serde_json stops inside a word it took for `true`, `false` or `null`.
                let at = self.token_start();
                let at = text.as_bytes()[..at]
                    .iter()
                    .rposition(|b| !b.is_ascii_alphanumeric())
                    .map_or(0, |i| i + 1);
                (at, format!("expected a JSON value, found {}", found(text, at)))
            }
            "trailing characters" => {
                let at = self.token_start();
                (at, format!("unexpected {} after the JSON value", found(text, at)))
            }
            "trailing comma" => {
                let close = skip_whitespace(text, self.token_start());
                let comma = text[..close].trim_end_matches([' ', '\t', '\n', '\r']).len().saturating_sub(1);
                let bracket = text[close..].chars().next().unwrap_or(']');
                (comma, format!("a trailing comma before '{bracket}' is not allowed"))
            }
            c if c.starts_with("control character") => {
                let at =
                    (at.saturating_sub(1)..text.len()).find(|&i| text.as_bytes()[i] < 0x20).unwrap_or(at);
                let b = text.as_bytes().get(at).copied().unwrap_or(0);
                (at, format!("control character U+{b:04X} in a string; write it as \\u{b:04x}"))
            }
            "invalid escape" => {
                let upto = (at + 1).min(text.len());
                let slash = text.as_bytes()[..upto].iter().rposition(|&b| b == b'\\').unwrap_or(at);
                match text[slash + 1..].chars().next() {
                    Some('u') => (slash, "a \\u escape needs four hex digits, as in \\u00e9".into()),
                    Some(c) => (slash, format!("unknown escape '\\{c}' in a string")),
                    None => (slash, "unterminated string: the text ends inside an escape".into()),
                }
            }
            "lone leading surrogate in hex escape"
            | "unexpected end of hex escape"
            | "invalid unicode code point" => self.lone_surrogate(),
            "invalid number" | "number out of range" => self.number(code),
            // serde_json placed it past the bracket that goes too deep, and past its closing
            // bracket too when that follows at once.
            NEST_DEEPER => {
                let bytes = text.as_bytes();
                let mut open = at.min(bytes.len().saturating_sub(1));
                if matches!(bytes.get(open), Some(b']' | b'}')) {
                    open = text[..open].trim_end_matches([' ', '\t', '\n', '\r']).len().saturating_sub(1);
                }
                (open, NEST_DEEPER.to_string())
            }
            message => (at, message.to_string()),
        }
    }

    /// Where the token serde_json rejected starts: its place, on a character boundary.
    fn token_start(&self) -> usize {
        let mut at = self.at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    /// A word that starts as `true`, `false` or `null` and goes on (`truex`, `nul`), which
    /// serde_json rejects at the letter it did not expect, as one unknown word.
    fn literal_word(&self) -> Option<(usize, String)> {
        let bytes = self.text.as_bytes();
        let at = self.token_start();
        let word = |b: &u8| b.is_ascii_alphanumeric();
        let start = bytes[..at].iter().rposition(|b| !word(b)).map_or(0, |i| i + 1);
        let end = at + bytes[at..].iter().take_while(|b| word(b)).count();
        let w = &self.text[start..end];
        let literal = ["true", "false", "null"];
        let partial = literal.iter().any(|l| l.starts_with(w) || w.starts_with(l));
        (start < at && partial && !literal.contains(&w))
            .then(|| (start, format!("expected a JSON value, found {}", found(self.text, start))))
    }

    fn unterminated_string(&self) -> (usize, String) {
        let text = self.text;
        let slashes = text.len() - text.trim_end_matches('\\').len();
        if slashes % 2 == 1 {
            return (text.len() - 1, "unterminated string: the text ends inside an escape".into());
        }
        if let Some(slash) =
            text.rfind("\\u").filter(|&s| text.len() - s < 6 && odd_slashes_before(text, s + 1))
        {
            return (slash, "a \\u escape needs four hex digits, as in \\u00e9".into());
        }
        // The string has no unescaped quote after its opening one.
        let quote =
            (0..text.len()).rev().find(|&i| text.as_bytes()[i] == b'"' && !odd_slashes_before(text, i));
        (quote.unwrap_or(self.at), "unterminated string: the text ends before its closing '\"'".into())
    }

    fn lone_surrogate(&self) -> (usize, String) {
        let text = self.text;
        let escape = |at: usize| {
            text.get(at..at + 6)
                .filter(|e| e.starts_with("\\u"))
                .and_then(|e| u32::from_str_radix(&e[2..], 16).ok())
        };
        let mut at = text[..self.at.min(text.len())].rfind("\\u").unwrap_or(self.at);
        // A high surrogate followed by anything but a low one: name the high one.
        if at >= 6 && escape(at - 6).is_some_and(|h| (0xd800..0xdc00).contains(&h)) {
            at -= 6;
        }
        let shown = text.get(at..at + 6).unwrap_or("\\u");
        match escape(at) {
            Some(0xdc00..=0xdfff) => {
                (at, format!("{shown} is a low surrogate without a high surrogate before it"))
            }
            _ => (
                at,
                format!(
                    "{shown} is a high surrogate without a low surrogate escape (\\udc00 to \\udfff) after it"
                ),
            ),
        }
    }

    /// A number that breaks RFC 8259's grammar, said as which part is missing.
    fn number(&self, code: &str) -> (usize, String) {
        let bytes = self.text.as_bytes();
        let is_part = |b: &u8| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E');
        let at = self.at.min(bytes.len());
        let start = bytes[..at].iter().rposition(|b| !is_part(b)).map_or(0, |i| i + 1);
        let digits = |pos: &mut usize| {
            let from = *pos;
            while bytes.get(*pos).is_some_and(u8::is_ascii_digit) {
                *pos += 1;
            }
            *pos > from
        };
        let mut pos = start;
        if bytes.get(pos) == Some(&b'-') {
            pos += 1;
        }
        if bytes.get(pos) == Some(&b'0') && bytes.get(pos + 1).is_some_and(u8::is_ascii_digit) {
            return (start, "a number cannot start with 0 followed by more digits".into());
        }
        if !digits(&mut pos) {
            return (pos, "a number needs a digit after '-'".into());
        }
        if bytes.get(pos) == Some(&b'.') {
            pos += 1;
            if !digits(&mut pos) {
                return (pos, "a number needs a digit after its '.'".into());
            }
        }
        if matches!(bytes.get(pos), Some(b'e' | b'E')) {
            pos += 1;
            if matches!(bytes.get(pos), Some(b'+' | b'-')) {
                pos += 1;
            }
            if !digits(&mut pos) {
                return (pos, "a number needs a digit in its exponent".into());
            }
        }
        let shown = &self.text[start..pos];
        if code == "number out of range" {
            (start, format!("the number {shown} is beyond the range of f64"))
        } else {
            (start, format!("{shown} is not a valid number"))
        }
    }

    /// The key that ends just before `at`, for "expected ':' after the key …".
    fn key_before(&self, at: usize) -> Option<String> {
        let text = self.text;
        let end = text[..at].trim_end_matches([' ', '\t', '\n', '\r']).len();
        let close = end.checked_sub(1).filter(|&i| text.as_bytes()[i] == b'"')?;
        let open = (0..close).rev().find(|&i| text.as_bytes()[i] == b'"' && !odd_slashes_before(text, i))?;
        serde_json::from_str(&text[open..=close]).ok()
    }
}

/// Whether an odd number of backslashes stands right before byte `at`, escaping it.
fn odd_slashes_before(text: &str, at: usize) -> bool {
    text.as_bytes()[..at].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

/// The last byte before `at` that is not whitespace.
fn last_token(text: &str, at: usize) -> Option<u8> {
    text[..at].trim_end_matches([' ', '\t', '\n', '\r']).bytes().last()
}

/// The first byte at or after `at` that is not whitespace.
pub fn skip_whitespace(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = at.min(bytes.len());
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// Describes what is at byte `at`, for "expected …, found …".
fn found(text: &str, at: usize) -> String {
    let rest = text.get(at..).unwrap_or("");
    let Some(c) = rest.chars().next() else { return "the end of the text".to_string() };
    match c {
        '"' => "a string".to_string(),
        '-' | '0'..='9' => "a number".to_string(),
        c if c.is_alphanumeric() => {
            let word: String = rest.chars().take_while(|c| c.is_alphanumeric()).take(20).collect();
            format!("'{word}'")
        }
        c if c.is_control() || c.is_whitespace() => format!("U+{:04X}", u32::from(c)),
        c if c.is_ascii() => format!("'{c}'"),
        c => format!("'{c}' (U+{:04X})", u32::from(c)),
    }
}
