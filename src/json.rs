//! A small, strict JSON (RFC 8259) reader and writer for the core's own files, so the core
//! needs no serde (the Architecture Invariant keeps serde at the wasm boundary).
//!
//! # Brief overview
//!
//! * [`parse`] reads a whole text into a [`Value`] tree; [`Value::to_json`] writes one back.
//! * [`Reader`] is the pull parser underneath. A caller walks objects and arrays itself and
//!   takes numbers as text, so a large array of floats goes straight into a `Vec<f32>`
//!   without a tree of millions of nodes (the bundle's vectors, `crate::embed::read_bundle`).
//! * [`write_string`], [`write_f32`] and [`write_f64`] append JSON to a `String`.
//!
//! # Numbers keep their text
//!
//! A [`Number`] holds its text as written and parses it only when asked, to the type asked
//! for. [`Number::to_f32`] parses the text straight to `f32`, rounding once: parsing to
//! `f64` and then casting rounds twice, and the two can differ (`1.00000005960464477539062500000001`
//! lies just above the midpoint between two `f32`s, but rounds to that midpoint as an `f64`,
//! which then rounds to the even neighbour below). The writers use Rust's shortest
//! round-trip formatting, so an `f32` written by [`write_f32`] reads back with the same bits.
//!
//! # Strictness
//!
//! The parser accepts exactly RFC 8259 and reports the first fault with its 1-based line
//! and column ([`JsonError`]; columns count characters, lines end at `\n`):
//!
//! * no comments, single quotes, trailing commas, `NaN`, `Infinity`, `+1`, `01`, `.5`, `1.`;
//! * no unescaped control character (U+0000 to U+001F) inside a string;
//! * a `\u` escape must give a Unicode scalar value: a high surrogate must be followed by a
//!   low one (the pair is combined) and a lone surrogate is an error, since a Rust `String`
//!   cannot hold one;
//! * a key may occur only once per object (RFC 8259 leaves the meaning of repeats open);
//! * nesting deeper than [`MAX_DEPTH`] arrays and objects is an error, so hostile input
//!   cannot overflow the stack of the recursive parse or of dropping the tree;
//! * nothing but whitespace may follow the value. A byte order mark before it is skipped,
//!   as RFC 8259 §8.1 allows.

use std::collections::HashSet;
use std::fmt::{self, Write as _};

/// The deepest nesting of arrays and objects the parser accepts.
pub const MAX_DEPTH: usize = 128;

/// A JSON value. Objects keep their members in the order written.
///
/// Equality compares numbers by their text, so `1` and `1.0` differ.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
}

/// What kind of JSON value something is; `Display` gives it as in "found an array".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Null => "null",
            Kind::Bool => "true or false",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        })
    }
}

/// A JSON number as its text, which always follows the RFC 8259 grammar
/// (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Number(String);

impl Number {
    /// The number with this text, or `None` when the text is not a JSON number.
    pub fn from_text(text: &str) -> Option<Number> {
        let mut reader = Reader::new(text);
        let number = reader.number().ok()?;
        reader.finish().ok()?;
        (number.len() == text.len()).then(|| Number(text.to_string()))
    }

    /// The number written with [`write_f32`], or `None` for NaN and infinities, which JSON
    /// cannot hold.
    pub fn from_f32(value: f32) -> Option<Number> {
        value.is_finite().then(|| {
            let mut text = String::new();
            write_f32(&mut text, value);
            Number(text)
        })
    }

    /// The number written with [`write_f64`], or `None` for NaN and infinities.
    pub fn from_f64(value: f64) -> Option<Number> {
        value.is_finite().then(|| {
            let mut text = String::new();
            write_f64(&mut text, value);
            Number(text)
        })
    }

    /// The text, as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The nearest `f32` to the text, rounded once; beyond `f32`'s range it is infinite.
    pub fn to_f32(&self) -> f32 {
        // Every JSON number is valid Rust float syntax, so parsing cannot fail.
        self.0.parse().unwrap_or(f32::NAN)
    }

    /// The nearest `f64` to the text; beyond `f64`'s range it is infinite.
    pub fn to_f64(&self) -> f64 {
        self.0.parse().unwrap_or(f64::NAN)
    }

    /// The value when the text is a whole number without fraction or exponent that fits in
    /// a `u64` (`3`, not `3.0`, `3e0` or `-3`).
    pub fn to_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<u64> for Number {
    fn from(value: u64) -> Self {
        Number(value.to_string())
    }
}

impl From<i64> for Number {
    fn from(value: i64) -> Self {
        Number(value.to_string())
    }
}

impl Value {
    /// The kind of this value.
    pub fn kind(&self) -> Kind {
        match self {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        }
    }

    /// The member `key` of an object (`None` for a missing key and for other kinds).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(elements) => Some(elements),
            _ => None,
        }
    }

    /// The members in order, if this is an object.
    pub fn as_object(&self) -> Option<&[(String, Value)]> {
        match self {
            Value::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The value as compact JSON (no whitespace), numbers as their text.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    /// Appends the value as compact JSON to `out`.
    pub fn write_json(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => out.push_str(n.as_str()),
            Value::String(s) => write_string(out, s),
            Value::Array(elements) => {
                out.push('[');
                for (i, element) in elements.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    element.write_json(out);
                }
                out.push(']');
            }
            Value::Object(members) => {
                out.push('{');
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(out, key);
                    out.push(':');
                    value.write_json(out);
                }
                out.push('}');
            }
        }
    }
}

impl From<bool> for Value {
    fn from(value: bool) -> Self {
        Value::Bool(value)
    }
}

impl From<&str> for Value {
    fn from(value: &str) -> Self {
        Value::String(value.to_string())
    }
}

impl From<String> for Value {
    fn from(value: String) -> Self {
        Value::String(value)
    }
}

impl From<Number> for Value {
    fn from(value: Number) -> Self {
        Value::Number(value)
    }
}

impl From<u64> for Value {
    fn from(value: u64) -> Self {
        Value::Number(value.into())
    }
}

impl From<u32> for Value {
    fn from(value: u32) -> Self {
        Value::Number(u64::from(value).into())
    }
}

impl From<usize> for Value {
    fn from(value: usize) -> Self {
        Value::Number((value as u64).into())
    }
}

impl From<i64> for Value {
    fn from(value: i64) -> Self {
        Value::Number(value.into())
    }
}

/// NaN and infinities become `null`, as in JavaScript's `JSON.stringify`.
impl From<f32> for Value {
    fn from(value: f32) -> Self {
        Number::from_f32(value).map_or(Value::Null, Value::Number)
    }
}

/// NaN and infinities become `null`, as in JavaScript's `JSON.stringify`.
impl From<f64> for Value {
    fn from(value: f64) -> Self {
        Number::from_f64(value).map_or(Value::Null, Value::Number)
    }
}

/// The first fault in a JSON text: where it is and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong, in a sentence fragment ("expected ':' after the key \"a\", found '}'").
    pub message: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for JsonError {}

/// Parses a whole JSON text; see the [module documentation](self) for what it rejects.
pub fn parse(text: &str) -> Result<Value, JsonError> {
    let mut reader = Reader::new(text);
    let value = reader.value()?;
    reader.finish()?;
    Ok(value)
}

/// A pull parser over a JSON text: the caller asks for the value it expects next.
///
/// Objects are read with [`begin_object`](Reader::begin_object) and then
/// [`next_key`](Reader::next_key) until it returns `None`, reading each member's value in
/// between; arrays with [`begin_array`](Reader::begin_array) and
/// [`next_element`](Reader::next_element) until it returns `false`. [`value`](Reader::value)
/// reads any value as a tree and [`finish`](Reader::finish) checks that nothing follows.
///
/// ```
/// use embedscope::json::Reader;
///
/// let mut reader = Reader::new(r#"{"v": [1.5, -0]}"#);
/// let mut floats = Vec::new();
/// reader.begin_object()?;
/// while let Some(key) = reader.next_key()? {
///     assert_eq!(key, "v");
///     reader.begin_array()?;
///     while reader.next_element()? {
///         floats.push(reader.number()?.parse::<f32>().unwrap());
///     }
/// }
/// reader.finish()?;
/// assert_eq!(floats, [1.5, -0.0]);
/// # Ok::<(), embedscope::json::JsonError>(())
/// ```
pub struct Reader<'a> {
    text: &'a str,
    /// Where the JSON starts: after a byte order mark, if any.
    start: usize,
    pos: usize,
    depth: usize,
    /// Whether the last token opened an array or object, so no ',' is due before the next.
    after_open: bool,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `text`, past a byte order mark if there is one.
    pub fn new(text: &'a str) -> Self {
        let start = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
        Reader { text, start, pos: start, depth: 0, after_open: false }
    }

    /// Skips whitespace and returns the byte offset of what comes next.
    pub fn offset(&mut self) -> usize {
        self.skip_whitespace();
        self.pos
    }

    /// Skips whitespace and tells what kind of value starts next, judged by its first
    /// character (and the spelling of `true`, `false`, `null`); `None` when no value can
    /// start there. Reading the value may still fail later inside it.
    pub fn peek_kind(&mut self) -> Option<Kind> {
        self.skip_whitespace();
        let rest = &self.text[self.pos..];
        match rest.as_bytes().first()? {
            b'{' => Some(Kind::Object),
            b'[' => Some(Kind::Array),
            b'"' => Some(Kind::String),
            b'-' | b'0'..=b'9' => Some(Kind::Number),
            _ if rest.starts_with("true") || rest.starts_with("false") => Some(Kind::Bool),
            _ if rest.starts_with("null") => Some(Kind::Null),
            _ => None,
        }
    }

    /// The 1-based line and column (in characters) of byte `offset`, such as one that
    /// [`Reader::offset`] returned. An offset inside a character counts as that character's,
    /// one past the end as the end's.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let line_start = before.rfind('\n').map_or(self.start.min(offset), |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    /// Reads the next value, whatever it is, as a tree.
    pub fn value(&mut self) -> Result<Value, JsonError> {
        match self.peek_kind() {
            Some(Kind::Object) => {
                self.begin_object()?;
                let mut members = Vec::new();
                let mut keys = HashSet::new();
                while let Some((at, key)) = self.next_key_at()? {
                    if !keys.insert(key.clone()) {
                        return Err(self
                            .error_at(at, format!("the key {} occurs twice in this object", quoted(&key))));
                    }
                    let value = self.value()?;
                    members.push((key, value));
                }
                Ok(Value::Object(members))
            }
            Some(Kind::Array) => {
                self.begin_array()?;
                let mut elements = Vec::new();
                while self.next_element()? {
                    elements.push(self.value()?);
                }
                Ok(Value::Array(elements))
            }
            Some(Kind::String) => self.string().map(Value::String),
            Some(Kind::Number) => Ok(Value::Number(Number(self.number()?.to_string()))),
            Some(Kind::Bool | Kind::Null) | None => self.literal(),
        }
    }

    /// Reads `true`, `false` or `null`.
    fn literal(&mut self) -> Result<Value, JsonError> {
        let rest = &self.text[self.pos..];
        let word_len = rest.bytes().take_while(u8::is_ascii_alphanumeric).count();
        let value = match &rest[..word_len] {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            "null" => Value::Null,
            _ => return Err(self.error(format!("expected a JSON value, found {}", self.found()))),
        };
        self.pos += word_len;
        Ok(value)
    }

    /// Reads a string.
    pub fn string(&mut self) -> Result<String, JsonError> {
        self.skip_whitespace();
        let start = self.pos;
        if self.byte() != Some(b'"') {
            return Err(self.error(format!("expected a string, found {}", self.found())));
        }
        self.pos += 1;
        let bytes = self.text.as_bytes();
        let mut out = String::new();
        loop {
            // Copy the run of characters that need no attention in one go; it ends at an
            // ASCII byte, so the slice ends on a character boundary.
            let run = self.pos;
            while bytes.get(self.pos).is_some_and(|&b| b != b'"' && b != b'\\' && b >= 0x20) {
                self.pos += 1;
            }
            out.push_str(&self.text[run..self.pos]);
            match bytes.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => out.push(self.escape()?),
                Some(&b) => {
                    return Err(self
                        .error(format!("control character U+{b:04X} in a string; write it as \\u{b:04x}")));
                }
                None => {
                    return Err(
                        self.error_at(start, "unterminated string: the text ends before its closing '\"'")
                    );
                }
            }
        }
    }

    /// Reads the escape at the backslash under the cursor.
    fn escape(&mut self) -> Result<char, JsonError> {
        let at = self.pos;
        let Some(c) = self.text[at + 1..].chars().next() else {
            return Err(self.error("unterminated string: the text ends inside an escape"));
        };
        let simple = match c {
            '"' => Some('"'),
            '\\' => Some('\\'),
            '/' => Some('/'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'u' => None,
            _ => return Err(self.error(format!("unknown escape '\\{c}' in a string"))),
        };
        if let Some(c) = simple {
            self.pos += 2;
            return Ok(c);
        }
        let high = self.hex4(at)?;
        self.pos = at + 6;
        let code = match high {
            0xd800..=0xdbff => {
                let low =
                    if self.text[self.pos..].starts_with("\\u") { self.hex4(self.pos).ok() } else { None };
                match low {
                    Some(low @ 0xdc00..=0xdfff) => {
                        self.pos += 6;
                        0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)
                    }
                    _ => {
                        return Err(self.error_at(
                            at,
                            format!(
                                "{} is a high surrogate without a low surrogate escape \
                                 (\\udc00 to \\udfff) after it",
                                &self.text[at..at + 6]
                            ),
                        ));
                    }
                }
            }
            0xdc00..=0xdfff => {
                return Err(self.error_at(
                    at,
                    format!(
                        "{} is a low surrogate without a high surrogate before it",
                        &self.text[at..at + 6]
                    ),
                ));
            }
            _ => high,
        };
        // Surrogates are handled above, so every code left is a scalar value.
        char::from_u32(code).ok_or_else(|| self.error_at(at, "not a Unicode scalar value"))
    }

    /// The four hex digits of the `\u` escape at byte `at`.
    fn hex4(&self, at: usize) -> Result<u32, JsonError> {
        let digits = self.text.get(at + 2..at + 6).filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()));
        digits
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .ok_or_else(|| self.error_at(at, "a \\u escape needs four hex digits, as in \\u00e9"))
    }

    /// Reads a number and returns its text, which follows the RFC 8259 grammar (and so
    /// parses with `str::parse` as any Rust float or, without fraction and exponent, integer).
    pub fn number(&mut self) -> Result<&'a str, JsonError> {
        self.skip_whitespace();
        let bytes = self.text.as_bytes();
        let start = self.pos;
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
        match bytes.get(pos) {
            Some(b'0') => {
                pos += 1;
                if bytes.get(pos).is_some_and(u8::is_ascii_digit) {
                    return Err(self.error("a number cannot start with 0 followed by more digits"));
                }
            }
            Some(b'1'..=b'9') => {
                digits(&mut pos);
            }
            _ if pos > start => return Err(self.error_at(pos, "a number needs a digit after '-'")),
            _ => return Err(self.error(format!("expected a number, found {}", self.found()))),
        }
        if bytes.get(pos) == Some(&b'.') {
            pos += 1;
            if !digits(&mut pos) {
                return Err(self.error_at(pos, "a number needs a digit after its '.'"));
            }
        }
        if matches!(bytes.get(pos), Some(b'e' | b'E')) {
            pos += 1;
            if matches!(bytes.get(pos), Some(b'+' | b'-')) {
                pos += 1;
            }
            if !digits(&mut pos) {
                return Err(self.error_at(pos, "a number needs a digit in its exponent"));
            }
        }
        self.pos = pos;
        Ok(&self.text[start..pos])
    }

    /// Reads the `{` that opens an object.
    pub fn begin_object(&mut self) -> Result<(), JsonError> {
        self.open(b'{', "an object")
    }

    /// Reads the `[` that opens an array.
    pub fn begin_array(&mut self) -> Result<(), JsonError> {
        self.open(b'[', "an array")
    }

    fn open(&mut self, bracket: u8, what: &str) -> Result<(), JsonError> {
        self.skip_whitespace();
        if self.byte() != Some(bracket) {
            return Err(self.error(format!("expected {what}, found {}", self.found())));
        }
        if self.depth == MAX_DEPTH {
            return Err(self.error(format!("arrays and objects nest deeper than {MAX_DEPTH} levels")));
        }
        self.depth += 1;
        self.pos += 1;
        self.after_open = true;
        Ok(())
    }

    /// In an object: reads the next key and its `:`, or the closing `}` (then `None`).
    pub fn next_key(&mut self) -> Result<Option<String>, JsonError> {
        Ok(self.next_key_at()?.map(|(_, key)| key))
    }

    /// [`Reader::next_key`] with the key's byte offset.
    fn next_key_at(&mut self) -> Result<Option<(usize, String)>, JsonError> {
        if !self.next_item(b'}', "an object member")? {
            return Ok(None);
        }
        let at = self.pos;
        if self.byte() != Some(b'"') {
            return Err(
                self.error(format!("expected a key (a string in double quotes), found {}", self.found()))
            );
        }
        let key = self.string()?;
        self.skip_whitespace();
        if self.byte() != Some(b':') {
            return Err(self.error(format!(
                "expected ':' after the key {}, found {}",
                quoted(&key),
                self.found()
            )));
        }
        self.pos += 1;
        Ok(Some((at, key)))
    }

    /// In an array: reads the ',' before the next element and returns `true`, or reads the
    /// closing `]` and returns `false`.
    pub fn next_element(&mut self) -> Result<bool, JsonError> {
        self.next_item(b']', "an array element")
    }

    /// Reads what separates items of an array or object: `,` (then `true`, with the cursor
    /// on the next item) or the closing bracket (then `false`).
    fn next_item(&mut self, close: u8, item: &str) -> Result<bool, JsonError> {
        self.skip_whitespace();
        let first = std::mem::replace(&mut self.after_open, false);
        if self.byte() == Some(close) {
            self.pos += 1;
            // Saturating, so a caller who reads a close bracket it never opened gets no panic.
            self.depth = self.depth.saturating_sub(1);
            return Ok(false);
        }
        if first {
            return Ok(true);
        }
        if self.byte() != Some(b',') {
            return Err(self.error(format!(
                "expected ',' or '{}' after {item}, found {}",
                close as char,
                self.found()
            )));
        }
        let comma = self.pos;
        self.pos += 1;
        self.skip_whitespace();
        if self.byte() == Some(close) {
            return Err(
                self.error_at(comma, format!("a trailing comma before '{}' is not allowed", close as char))
            );
        }
        Ok(true)
    }

    /// Checks that only whitespace is left.
    pub fn finish(&mut self) -> Result<(), JsonError> {
        self.skip_whitespace();
        match self.byte() {
            None => Ok(()),
            Some(_) => Err(self.error(format!("unexpected {} after the JSON value", self.found()))),
        }
    }

    fn byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        let bytes = self.text.as_bytes();
        while matches!(bytes.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Describes what is under the cursor, for "expected …, found …".
    fn found(&self) -> String {
        let rest = &self.text[self.pos..];
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

    fn error(&self, message: impl Into<String>) -> JsonError {
        self.error_at(self.pos, message)
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> JsonError {
        let (line, column) = self.line_column(offset);
        JsonError { line, column, message: message.into() }
    }
}

/// `s` as a JSON string, for messages: `"Jesus\n"` shows its newline.
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::new();
    write_string(&mut out, s);
    out
}

/// Appends `s` as a JSON string, quotes included.
///
/// Escapes `"` and `\`; the control characters U+0000 to U+001F as `\b`, `\f`, `\n`, `\r`,
/// `\t` or `\u00XX`; and U+0085, U+2028 and U+2029 as `\u0085`, `\u2028`, `\u2029`, which
/// JSON allows raw but some editors and older JavaScript treat as line breaks. Everything
/// else is written as itself, so one line of output is one line in any editor.
pub fn write_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        // `len` is how many bytes of the character end at `i`. U+0085 is C2 85 in UTF-8,
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; those lead bytes never continue a
        // character, so matching the bytes before is enough.
        let (escaped, len): (&str, usize) = match b {
            b'"' => ("\\\"", 1),
            b'\\' => ("\\\\", 1),
            b'\n' => ("\\n", 1),
            b'\r' => ("\\r", 1),
            b'\t' => ("\\t", 1),
            0x08 => ("\\b", 1),
            0x0c => ("\\f", 1),
            0x00..=0x1f => {
                out.push_str(&s[run..i]);
                let _ = write!(out, "\\u{b:04x}");
                run = i + 1;
                continue;
            }
            0x85 if bytes[i - 1] == 0xc2 => ("\\u0085", 2),
            0xa8 if i >= 2 && bytes[i - 2..i] == [0xe2, 0x80] => ("\\u2028", 3),
            0xa9 if i >= 2 && bytes[i - 2..i] == [0xe2, 0x80] => ("\\u2029", 3),
            _ => continue,
        };
        out.push_str(&s[run..i + 1 - len]);
        out.push_str(escaped);
        run = i + 1;
    }
    out.push_str(&s[run..]);
    out.push('"');
}

/// Appends `value` as a JSON number with Rust's shortest round-trip formatting, so it reads
/// back as the same `f32` (through [`Number::to_f32`] or `str::parse::<f32>`). Of the plain
/// (`0.00012`) and exponent (`1.2e-4`) forms it writes the shorter. NaN and infinities,
/// which JSON cannot hold, are written as `null`, as JavaScript's `JSON.stringify` does.
pub fn write_f32(out: &mut String, value: f32) {
    write_float(out, value, f64::from(value.abs()), value.is_finite());
}

/// [`write_f32`] for `f64`.
pub fn write_f64(out: &mut String, value: f64) {
    write_float(out, value, value.abs(), value.is_finite());
}

fn write_float(out: &mut String, value: impl fmt::Display + fmt::LowerExp, abs: f64, finite: bool) {
    if !finite {
        out.push_str("null");
        return;
    }
    let start = out.len();
    let _ = write!(out, "{value}");
    // The exponent form is shorter only below 0.01 (`0.005`, `5e-3`) or from 1000 up
    // (`1000`, `1e3`); in between, formatting once is enough.
    if abs != 0.0 && !(1e-2..1e3).contains(&abs) {
        let plain_end = out.len();
        let _ = write!(out, "{value:e}");
        if out.len() - plain_end < plain_end - start {
            out.replace_range(start..plain_end, "");
        } else {
            out.truncate(plain_end);
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, RngExt, SeedableRng};

    use super::*;

    include!("embed/tricky_tokens.rs");

    fn num(text: &str) -> Value {
        Value::Number(Number::from_text(text).unwrap())
    }

    fn string(s: &str) -> String {
        let mut out = String::new();
        write_string(&mut out, s);
        out
    }

    #[test]
    fn parses_known_answers() {
        let cases: Vec<(&str, Value)> = vec![
            ("null", Value::Null),
            (" true ", Value::Bool(true)),
            ("\t\r\nfalse\n", Value::Bool(false)),
            ("0", num("0")),
            ("-0", num("-0")),
            ("-12.5e+3", num("-12.5e+3")),
            ("1E-7", num("1E-7")),
            (r#""""#, Value::String(String::new())),
            (r#""a\"b\\c\/d\b\f\n\r\t""#, Value::String("a\"b\\c/d\u{8}\u{c}\n\r\t".into())),
            (r#""\u00e9\u00C9\u20ac\ud83e\udd80""#, Value::String("éÉ€🦀".into())),
            ("\"raw é 🦀 \u{7f} \u{2028}\"", Value::String("raw é 🦀 \u{7f} \u{2028}".into())),
            ("[]", Value::Array(vec![])),
            ("[ [ ] , {} ]", Value::Array(vec![Value::Array(vec![]), Value::Object(vec![])])),
            (
                r#"{"b": [1, "x", null], "a": {"": false}}"#,
                Value::Object(vec![
                    ("b".into(), Value::Array(vec![num("1"), "x".into(), Value::Null])),
                    ("a".into(), Value::Object(vec![(String::new(), Value::Bool(false))])),
                ]),
            ),
            ("\u{feff}[1]", Value::Array(vec![num("1")])),
        ];
        for (text, expected) in cases {
            assert_eq!(parse(text), Ok(expected), "{text:?}");
        }
    }

    /// Checks that `text` fails at `line`:`column` with a message containing `fragment`.
    fn check_rejected(text: &str, line: usize, column: usize, fragment: &str) {
        match parse(text) {
            Err(err) => {
                assert_eq!((err.line, err.column), (line, column), "{text:?}: {err}");
                assert!(err.message.contains(fragment), "{text:?}: '{}' lacks '{fragment}'", err.message);
            }
            Ok(value) => panic!("{text:?} was accepted as {value:?}"),
        }
    }

    #[test]
    fn rejects_every_fault_naming_line_and_column() {
        // Table: (text, line, column, part of the message).
        let cases: &[(&str, usize, usize, &str)] = &[
            ("", 1, 1, "expected a JSON value, found the end of the text"),
            ("   \n  ", 2, 3, "found the end of the text"),
            ("nul", 1, 1, "found 'nul'"),
            ("truex", 1, 1, "found 'truex'"),
            ("NaN", 1, 1, "found 'NaN'"),
            ("[Infinity]", 1, 2, "found 'Infinity'"),
            ("'a'", 1, 1, "found '''"),
            ("[1,]", 1, 3, "trailing comma before ']'"),
            ("{\"a\":1,\n }", 1, 7, "trailing comma before '}'"),
            ("[,1]", 1, 2, "expected a JSON value, found ','"),
            ("[1 2]", 1, 4, "expected ',' or ']' after an array element, found a number"),
            ("[1", 1, 3, "found the end of the text"),
            ("{\"a\" 1}", 1, 6, "expected ':' after the key \"a\", found a number"),
            ("{\"a\":1 \"b\":2}", 1, 8, "expected ',' or '}' after an object member, found a string"),
            ("{a:1}", 1, 2, "expected a key (a string in double quotes), found 'a'"),
            ("{,}", 1, 2, "expected a key"),
            ("{\"a\":}", 1, 6, "expected a JSON value, found '}'"),
            ("{\"a\":1,\"b\":2,\"a\":3}", 1, 14, "the key \"a\" occurs twice"),
            ("[1] x", 1, 5, "unexpected 'x' after the JSON value"),
            ("{} {}", 1, 4, "unexpected '{' after the JSON value"),
            ("\"abc", 1, 1, "unterminated string"),
            ("[\"ab\\", 1, 5, "ends inside an escape"),
            ("\n  \"a\nb\"", 2, 5, "control character U+000A in a string; write it as \\u000a"),
            ("\"a\tb\"", 1, 3, "U+0009"),
            ("\"\u{0}\"", 1, 2, "U+0000"),
            (r#""\x""#, 1, 2, "unknown escape '\\x'"),
            (r#""\é""#, 1, 2, "unknown escape '\\é'"),
            (r#""\u12""#, 1, 2, "four hex digits"),
            (r#""\u12g4""#, 1, 2, "four hex digits"),
            (r#""é\ud800""#, 1, 3, "\\ud800 is a high surrogate without a low surrogate"),
            (r#""\ud800\u0041""#, 1, 2, "high surrogate"),
            (r#""\ud800\ud800""#, 1, 2, "high surrogate"),
            (r#""\ud800x""#, 1, 2, "high surrogate"),
            (r#""\udc00""#, 1, 2, "\\udc00 is a low surrogate without a high surrogate"),
            (r#""\uDFFF\uD800""#, 1, 2, "low surrogate"),
            ("-", 1, 2, "a digit after '-'"),
            ("-a", 1, 2, "a digit after '-'"),
            ("+1", 1, 1, "expected a JSON value, found '+'"),
            ("01", 1, 1, "cannot start with 0 followed by more digits"),
            ("-012", 1, 1, "cannot start with 0"),
            ("1.", 1, 3, "a digit after its '.'"),
            (".5", 1, 1, "found '.'"),
            ("1.e3", 1, 3, "a digit after its '.'"),
            ("1e", 1, 3, "a digit in its exponent"),
            ("1e+", 1, 4, "a digit in its exponent"),
            ("0x10", 1, 2, "unexpected 'x10'"),
            ("[1] // c", 1, 5, "unexpected '/'"),
            ("\u{a0}1", 1, 1, "found U+00A0"),
            ("[\n\"日本\" ,\n 🦀]", 3, 2, "found '🦀' (U+1F980)"),
            ("\u{feff}\u{feff}1", 1, 1, "(U+FEFF)"),
        ];
        for &(text, line, column, fragment) in cases {
            check_rejected(text, line, column, fragment);
        }
    }

    #[test]
    fn nesting_is_limited_without_overflowing_the_stack() {
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(parse(&nested(MAX_DEPTH)).is_ok());
        check_rejected(&nested(MAX_DEPTH + 1), 1, MAX_DEPTH + 1, "nest deeper than 128");
        check_rejected(&"[".repeat(100_000), 1, MAX_DEPTH + 1, "nest deeper");
        check_rejected(&"{\"a\":".repeat(100_000), 1, 5 * MAX_DEPTH + 1, "nest deeper");
        check_rejected(&"[{\"\":".repeat(50_000), 1, 5 * (MAX_DEPTH / 2) + 1, "nest deeper");
    }

    #[test]
    fn write_string_known_answers() {
        let cases = [
            ("plain", r#""plain""#),
            ("", r#""""#),
            ("say \"hi\"\\", r#""say \"hi\"\\""#),
            ("a\nb\rc\td\u{8}e\u{c}", r#""a\nb\rc\td\be\f""#),
            ("\u{0}\u{1}\u{1f}", r#""\u0000\u0001\u001f""#),
            ("\u{7f}/é", "\"\u{7f}/é\""),
            ("x\u{85}y\u{2028}z\u{2029}", r#""x\u0085y\u2028z\u2029""#),
            ("\u{2027}\u{202a}\u{84}🦀", "\"\u{2027}\u{202a}\u{84}🦀\""),
            ("\u{a8}\u{a9}\u{c2}\u{2028}", "\"\u{a8}\u{a9}\u{c2}\\u2028\""),
        ];
        for (s, json) in cases {
            assert_eq!(string(s), json, "{s:?}");
            assert_eq!(parse(json), Ok(Value::String(s.into())), "{json:?}");
        }
    }

    #[test]
    fn strings_round_trip_tricky_tokens_and_every_control_character() {
        let controls: String =
            (0u32..0x20).chain([0x7f, 0x85, 0x2028, 0x2029]).filter_map(char::from_u32).collect();
        for s in TRICKY.iter().copied().chain([controls.as_str(), "🦀👩‍👩‍👧\u{fe0f}", "\u{10ffff}\u{e000}"])
        {
            let json = string(s);
            assert!(!json.bytes().any(|b| b < 0x20), "{json:?} holds a raw control character");
            assert_eq!(json.lines().count(), 1, "{json:?}");
            assert_eq!(parse(&json), Ok(Value::String(s.to_string())), "{s:?}");
        }
    }

    #[test]
    fn random_strings_survive_write_and_parse() {
        let alphabet =
            ['"', '\\', '/', 'u', 'd', '8', '0', '\n', '\u{0}', '\u{1f}', '\u{85}', '\u{2028}', 'é', '🦀'];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8259);
        for _ in 0..5000 {
            let len = rng.random_range(0..16);
            let s: String = (0..len)
                .map(|_| {
                    // Mostly the awkward alphabet, sometimes any scalar value.
                    if rng.random_range(0..4) == 0 {
                        char::from_u32(rng.random_range(0..0x11_0000)).unwrap_or('\u{fffd}')
                    } else {
                        alphabet[rng.random_range(0..alphabet.len())]
                    }
                })
                .collect();
            let json = string(&s);
            assert_eq!(parse(&json), Ok(Value::String(s.clone())), "{s:?} as {json:?}");
            // Inside an array and as a key too.
            let wrapped = format!("[{{{json}:{json}}}]");
            let expected = Value::Array(vec![Value::Object(vec![(s.clone(), Value::String(s))])]);
            assert_eq!(parse(&wrapped), Ok(expected));
        }
    }

    #[test]
    fn f32_written_reads_back_bit_exact() {
        let specials =
            [0.0f32, -0.0, 0.1, 1.0 / 3.0, 1e-45, -1e-45, f32::MIN_POSITIVE, f32::MAX, f32::MIN, 1e10];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(32);
        let random = (0..100_000).map(|_| f32::from_bits(rng.next_u32())).filter(|v| v.is_finite());
        for v in specials.into_iter().chain(random) {
            let number = Number::from_f32(v).unwrap();
            assert_eq!(number.to_f32().to_bits(), v.to_bits(), "{v:e} written as {number}");
            assert_eq!(parse(number.as_str()), Ok(Value::Number(number.clone())));
            // The shorter of the two forms.
            assert!(number.as_str().len() <= format!("{v}").len().min(format!("{v:e}").len()), "{number}");
        }
    }

    #[test]
    fn f64_written_reads_back_bit_exact() {
        let specials = [0.0, -0.0, 0.1, 5e-324, f64::MAX, f64::MIN_POSITIVE, 1e21, 123456.0, 1234567.0];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(64);
        let random = (0..100_000).map(|_| f64::from_bits(rng.next_u64())).filter(|v| v.is_finite());
        for v in specials.into_iter().chain(random) {
            let number = Number::from_f64(v).unwrap();
            assert_eq!(number.to_f64().to_bits(), v.to_bits(), "{v:e} written as {number}");
            assert!(number.as_str().len() <= format!("{v}").len().min(format!("{v:e}").len()), "{number}");
        }
    }

    #[test]
    fn float_known_answers() {
        let written = |v: f32| Number::from_f32(v).map(|n| n.to_string());
        assert_eq!(written(0.1).as_deref(), Some("0.1"));
        assert_eq!(written(-0.0).as_deref(), Some("-0"));
        assert_eq!(written(1e-45).as_deref(), Some("1e-45"));
        assert_eq!(written(f32::MAX).as_deref(), Some("3.4028235e38"));
        assert_eq!(written(0.00125).as_deref(), Some("0.00125"));
        assert_eq!(written(0.000125).as_deref(), Some("1.25e-4"));
        assert_eq!(written(999.5).as_deref(), Some("999.5"));
        assert_eq!(written(1e3).as_deref(), Some("1e3"));
        assert_eq!(written(0.005).as_deref(), Some("5e-3"));
        assert_eq!(written(0.05).as_deref(), Some("0.05"));
        assert_eq!(written(-12345678.0).as_deref(), Some("-12345678"));
        assert_eq!(written(-1.2e7).as_deref(), Some("-1.2e7"));
        assert_eq!(written(f32::NAN), None);
        assert_eq!(Value::from(f32::INFINITY), Value::Null);
        assert_eq!(Value::from(f64::NAN).to_json(), "null");
        let mut out = String::new();
        write_f32(&mut out, f32::NEG_INFINITY);
        assert_eq!(out, "null");
    }

    #[test]
    fn to_f32_rounds_once() {
        // Just above the midpoint between 1 and the next f32 up: correctly rounded it is
        // the upper one, but through f64 it lands on the midpoint and ties to even, down.
        let n = Number::from_text("1.00000005960464477539062500000001").unwrap();
        assert_eq!(n.to_f32(), 1.0 + f32::EPSILON);
        assert_eq!(n.to_f64() as f32, 1.0);
        assert_eq!(Number::from_text("1e39").unwrap().to_f32(), f32::INFINITY);
        assert_eq!(Number::from_text("-1e-50").unwrap().to_f32().to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn number_text_and_integers() {
        for good in ["0", "-0", "12", "1.5", "1e5", "1E+05", "-0.0e-0"] {
            assert_eq!(Number::from_text(good).map(|n| n.to_string()).as_deref(), Some(good));
        }
        for bad in ["", " 1", "1 ", "01", "+1", "1.", ".1", "1e", "--1", "NaN", "inf", "0x1"] {
            assert_eq!(Number::from_text(bad), None, "{bad:?}");
        }
        let int = |text: &str| Number::from_text(text).unwrap().to_u64();
        assert_eq!(int("18446744073709551615"), Some(u64::MAX));
        assert_eq!(int("18446744073709551616"), None);
        assert_eq!(int("3.0"), None);
        assert_eq!(int("3e0"), None);
        assert_eq!(int("-3"), None);
        assert_eq!(Value::from(u64::MAX).to_json(), "18446744073709551615");
        assert_eq!(Value::from(-5i64).to_json(), "-5");
    }

    #[test]
    fn values_round_trip_through_to_json() {
        let text = concat!(
            r#"{"tokenizer":"bpe","dim":100,"alpha":0.025,"sample":1e-3,"lower":true,"max":null,"#,
            r#""w":["a\nb","\u0000",[],{}],"nested":{"x":[-0,1.5E+10]}}"#
        );
        let value = parse(text).unwrap();
        assert_eq!(value.to_json(), text);
        assert_eq!(parse(&value.to_json()), Ok(value.clone()));
        assert_eq!(value.get("dim").and_then(Value::as_number).and_then(Number::to_u64), Some(100));
        assert_eq!(value.get("tokenizer").and_then(Value::as_str), Some("bpe"));
        assert_eq!(value.get("lower").and_then(Value::as_bool), Some(true));
        assert_eq!(value.get("w").and_then(Value::as_array).map(<[Value]>::len), Some(4));
        assert_eq!(value.get("max").map(Value::kind), Some(Kind::Null));
        assert_eq!(value.get("missing"), None);
        assert_eq!(Value::Null.get("dim"), None);
        // Whitespace goes, everything else stays.
        let spaced = "[ 1 ,\n\t{ \"a\" : \"b c\" } ]";
        assert_eq!(parse(spaced).unwrap().to_json(), r#"[1,{"a":"b c"}]"#);
    }

    #[test]
    fn reader_pulls_values_and_tells_positions() {
        let text = "{\"n\": [1, 2.5],\n \"s\": \"é\", \"x\": {\"deep\": [null]}}";
        let mut reader = Reader::new(text);
        reader.begin_object().unwrap();
        assert_eq!(reader.next_key().unwrap().as_deref(), Some("n"));
        reader.begin_array().unwrap();
        let mut numbers = Vec::new();
        while reader.next_element().unwrap() {
            assert_eq!(reader.peek_kind(), Some(Kind::Number));
            numbers.push(reader.number().unwrap());
        }
        assert_eq!(numbers, ["1", "2.5"]);
        assert_eq!(reader.next_key().unwrap().as_deref(), Some("s"));
        assert_eq!(reader.peek_kind(), Some(Kind::String));
        assert_eq!(reader.string().unwrap(), "é");
        assert_eq!(reader.next_key().unwrap().as_deref(), Some("x"));
        let at = reader.offset();
        assert_eq!(reader.line_column(at), (2, 17));
        assert_eq!(reader.line_column(24), (2, 8)); // Inside the 'é'.
        assert_eq!(reader.line_column(usize::MAX), (2, 34));
        assert_eq!(reader.value().unwrap().to_json(), r#"{"deep":[null]}"#);
        assert_eq!(reader.next_key().unwrap(), None);
        assert_eq!(reader.finish(), Ok(()));

        let mut reader = Reader::new(" [\"a\"]");
        let err = reader.begin_object().unwrap_err();
        assert_eq!(err.to_string(), "line 1, column 2: expected an object, found '['");
        let err = Reader::new("\"a\"").number().unwrap_err();
        assert_eq!(err.message, "expected a number, found a string");
        assert_eq!(Reader::new("tru").peek_kind(), None);
        assert_eq!(Reader::new(" false").peek_kind(), Some(Kind::Bool));
    }

    #[test]
    fn random_and_mutated_json_never_panics() {
        let document = concat!(
            r#"{"tokenizer":"bpe","dim":100,"alpha":0.025,"sample":1e-3,"lower":true,"max":null,"#,
            r#""w":["a\nb","\u0000","\ud83e\udd80",[],{}],"nested":{"x":[-0,1.5E+10,[[{"y":"z"}]]]}}"#
        );
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
        let mut parsed = 0;
        for _ in 0..3_000 {
            let text = crate::fuzz::random_or_mutated(&mut rng, document, crate::fuzz::JSON_PIECES);
            match parse(&text) {
                Ok(value) => {
                    parsed += 1;
                    assert_eq!(parse(&value.to_json()), Ok(value), "{text:?}");
                }
                Err(err) => assert!(!err.to_string().is_empty()),
            }
            // A random walk over the pull reader's calls, right or wrong for the text.
            let mut reader = Reader::new(&text);
            for _ in 0..30 {
                let _ = match rng.random_range(0..10) {
                    0 => reader.value().map(drop),
                    1 => reader.string().map(drop),
                    2 => reader.number().map(drop),
                    3 => reader.begin_object(),
                    4 => reader.begin_array(),
                    5 => reader.next_key().map(drop),
                    6 => reader.next_element().map(drop),
                    7 => reader.finish(),
                    8 => {
                        reader.peek_kind();
                        Ok(())
                    }
                    _ => {
                        let at = reader.offset();
                        let _ = reader.line_column(at + rng.random_range(0..4));
                        Ok(())
                    }
                };
            }
        }
        assert!(parsed > 100, "{parsed}");
    }
}
