//! The core's JSON: `serde_json` (`Value`, the parser, string escaping) with the strictness
//! and the spelling the bundle has always had, which serde_json alone does not give.
//!
//! # Brief overview
//!
//! * [`parse`] reads a whole text into a [`Value`] (serde_json's, objects in the order
//!   written) and refuses what serde_json accepts but a bundle never held: a key twice in an
//!   object (serde_json keeps the last), nesting deeper than [`MAX_DEPTH`]. Its
//!   [`JsonError`] says what is wrong in a person's words, at a 1-based line and column.
//! * [`to_json`], [`write_value`], [`write_string`], [`write_f32`], [`write_f64`] write
//!   JSON through serde_json's serializer with this crate's [`Formatter`](serde_json::ser::Formatter):
//!   floats in Rust's shortest round-trip form, the shorter of plain and exponent
//!   (`0.025`, `4e-3`; serde_json's own ryu form would write `0.004` and `1000.0`), so a
//!   bundle writes the same text it always did; U+0085, U+2028 and U+2029 escaped, which
//!   JSON allows raw but some editors and older JavaScript take for line breaks.
//! * [`number`] is an `f64` as the [`Value`] that reads back equal from its own text
//!   (`2.0` becomes the integer 2, since it is written `2`).
//! * The bundle reader (`crate::embed::read_bundle`) drives serde_json itself, with seeds
//!   that take vector elements as borrowed raw numbers; it shares [`Kind`],
//!   [`strict_value`] and [`JsonError::from_serde`] from here.
//!
//! # Numbers
//!
//! serde_json is built with `float_roundtrip`, so an `f64` is parsed correctly rounded. An
//! `f32` must not be parsed as `f64` and then cast: that rounds twice, and the two can
//! differ (`1.00000005960464477539062500000001` lies just above the midpoint between two
//! `f32`s, but rounds to that midpoint as an `f64`, which then rounds to the even neighbour
//! below). Readers of `f32`s take the number's text (`&RawValue`) and `str::parse::<f32>` it.
//!
//! # Strictness
//!
//! serde_json accepts exactly RFC 8259 (no comments, trailing commas, `NaN`, `01`, …; no raw
//! control character in a string; a `\u` surrogate must be paired). On top of it:
//!
//! * a key may occur only once per object (RFC 8259 leaves the meaning of repeats open);
//! * nesting deeper than [`MAX_DEPTH`] arrays and objects is an error, counted here
//!   (serde_json's own limit, built out with `unbounded_depth`, stops one level short of
//!   128 and cannot say where the text started);
//! * a byte order mark before the value is skipped, as RFC 8259 §8.1 allows.
//!
//! Errors name the first fault as before serde_json: columns count characters (serde_json
//! counts bytes), and the message is the one this crate always gave ("a trailing comma
//! before ']' is not allowed", at the comma), told from serde_json's error and the text at
//! its position.

use std::cell::RefCell;
use std::fmt;
use std::io::{self, Write};

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::Serialize;
use serde_json::ser::{Formatter, Serializer};
use serde_json::value::RawValue;
pub use serde_json::{Map, Number, Value};

/// The deepest nesting of arrays and objects a reader accepts.
pub const MAX_DEPTH: usize = 128;

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

impl Kind {
    /// The kind of `value`.
    pub fn of(value: &Value) -> Kind {
        match value {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        }
    }

    /// The kind of value that starts at byte `at` of `text`, judged by its first character
    /// (and the spelling of `true`, `false`, `null`); `None` when no value starts there.
    /// Reading the value may still fail later inside it.
    pub fn at(text: &str, at: usize) -> Option<Kind> {
        let rest = text.get(at..)?;
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

/// `text` without a leading byte order mark. Readers parse this, so offsets, lines and
/// columns never count the mark.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// A serde_json deserializer over `text` whose nesting the seeds here count themselves
/// ([`MAX_DEPTH`]); serde_json's readers of raw values and of ignored values do not recurse.
pub fn deserializer(text: &str) -> serde_json::Deserializer<serde_json::de::StrRead<'_>> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    de
}

/// Parses a whole JSON text; see the [module documentation](self) for what it rejects.
pub fn parse(text: &str) -> Result<Value, JsonError> {
    let text = strip_bom(text);
    let faults = Faults::default();
    let mut de = deserializer(text);
    let value = StrictSeed { text, faults: &faults, depth: 0 }
        .deserialize(&mut de)
        .and_then(|value| de.end().map(|()| value));
    value.map_err(|err| faults.take().unwrap_or_else(|| JsonError::from_serde(text, 0, &err)))
}

/// The value `raw` (a piece of `text`, enclosed by `depth` arrays and objects) as a strict
/// [`Value`]: no key twice, at most [`MAX_DEPTH`] levels in all. Faults are placed in `text`.
pub fn strict_value(text: &str, raw: &RawValue, depth: usize) -> Result<Value, JsonError> {
    let start = offset_in(text, raw.get());
    let faults = Faults::default();
    let mut de = deserializer(raw.get());
    let value = StrictSeed { text, faults: &faults, depth }.deserialize(&mut de);
    value.map_err(|err| faults.take().unwrap_or_else(|| JsonError::from_serde(text, start, &err)))
}

/// The string `raw` (a JSON string literal that is a piece of `text`), unescaped.
pub fn string_value(text: &str, raw: &RawValue) -> Result<String, JsonError> {
    let literal = raw.get();
    match literal.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        // Without escapes the text between the quotes is the string (serde_json checked it).
        Some(inner) if !inner.contains('\\') => Ok(inner.to_string()),
        _ => serde_json::from_str(literal)
            .map_err(|err| JsonError::from_serde(text, offset_in(text, literal), &err)),
    }
}

/// The byte offset of `piece`, a slice of `text`, within it.
pub fn offset_in(text: &str, piece: &str) -> usize {
    (piece.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize).min(text.len())
}

/// The 1-based line and column (in characters) of byte `offset` of `text`. An offset inside
/// a character counts as that character's, one past the end as the end's.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

fn error_at(text: &str, offset: usize, message: impl Into<String>) -> JsonError {
    let (line, column) = line_column(text, offset);
    JsonError { line, column, message: message.into() }
}

/// Reads strict values (no key twice, nesting capped) in one pass as part of a larger
/// deserialization over `text`, such as a bundle's: `seed(depth)` reads one value enclosed
/// by `depth` arrays and objects, and [`Strict::take_fault`] gives the fault a seed found
/// itself (a repeated key) when the deserialization failed on it.
pub struct Strict<'t> {
    text: &'t str,
    faults: Faults,
}

impl<'t> Strict<'t> {
    /// A reader of values in `text`, the whole text the deserializer reads.
    pub fn new(text: &'t str) -> Self {
        Strict { text, faults: Faults::default() }
    }

    /// A seed for a value enclosed by `depth` arrays and objects.
    pub fn seed(&self, depth: usize) -> impl DeserializeSeed<'t, Value = Value> + '_ {
        StrictSeed { text: self.text, faults: &self.faults, depth }
    }

    /// The fault a seed left, if the deserialization failed because of it.
    pub fn take_fault(&self) -> Option<JsonError> {
        self.faults.take()
    }
}

/// Faults a visitor found itself, with their place; serde_json's error type can carry only
/// a message, so the visitor leaves its fault here and returns a placeholder error.
#[derive(Default)]
struct Faults(RefCell<Option<JsonError>>);

impl Faults {
    fn raise<E: de::Error>(&self, fault: JsonError) -> E {
        self.0.borrow_mut().get_or_insert(fault);
        E::custom("see the fault left beside")
    }

    fn take(&self) -> Option<JsonError> {
        self.0.borrow_mut().take()
    }
}

/// Reads any value into a [`Value`], refusing repeated keys and deep nesting.
#[derive(Clone, Copy)]
struct StrictSeed<'a, 't> {
    text: &'t str,
    faults: &'a Faults,
    /// How many arrays and objects enclose the value.
    depth: usize,
}

impl StrictSeed<'_, '_> {
    fn nest<E: de::Error>(self) -> Result<Self, E> {
        if self.depth >= MAX_DEPTH {
            // serde_json gives this its place: just after the bracket that goes too deep.
            return Err(E::custom(NEST_DEEPER));
        }
        Ok(StrictSeed { depth: self.depth + 1, ..self })
    }
}

const NEST_DEEPER: &str = "arrays and objects nest deeper than 128 levels";

impl<'de> DeserializeSeed<'de> for StrictSeed<'_, 'de> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrictSeed<'_, 'de> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(number(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = self.nest()?;
        let mut elements = Vec::new();
        while let Some(element) = seq.next_element_seed(inner)? {
            elements.push(element);
        }
        Ok(Value::Array(elements))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let inner = self.nest()?;
        let mut members = Map::new();
        // Keys as their raw text, so a repeated one is named where it starts.
        while let Some(raw) = map.next_key::<&'de RawValue>()? {
            let key = string_value(self.text, raw).map_err(|fault| self.faults.raise(fault))?;
            if members.contains_key(&key) {
                let at = offset_in(self.text, raw.get());
                let message = format!("the key {} occurs twice in this object", quoted(&key));
                return Err(self.faults.raise(error_at(self.text, at, message)));
            }
            let value = map.next_value_seed(inner)?;
            members.insert(key, value);
        }
        Ok(Value::Object(members))
    }
}

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

/// An `f64` as the [`Value`] that its own text reads back as: NaN and infinities, which
/// JSON cannot hold, become `null` (as in JavaScript's `JSON.stringify`), and a float
/// written as a whole number (`2`, not `1e3`) becomes that integer, so a value read from a
/// file, written and read again is equal to itself.
pub fn number(value: f64) -> Value {
    if !value.is_finite() {
        return Value::Null;
    }
    // Only a whole number can be written without a fraction or an exponent.
    if value.fract() != 0.0 {
        return serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number);
    }
    let mut text = Vec::new();
    write_f64(&mut text, value);
    let text = String::from_utf8(text).unwrap_or_default();
    if let Ok(int) = text.parse::<u64>() {
        Value::from(int)
    } else if let Some(int) = text.parse::<i64>().ok().filter(|_| text != "-0") {
        Value::from(int)
    } else {
        serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)
    }
}

/// An object of `members`, in their order.
pub fn object(members: Vec<(String, Value)>) -> Value {
    Value::Object(members.into_iter().collect())
}

/// An `f32` as the [`Value`] written with its own shortest form (`0.025`, where serde_json's
/// `Value::from(0.025f32)` holds the `f64` 0.02500000037252903 and writes all its digits).
pub fn number_f32(value: f32) -> Value {
    let mut text = Vec::new();
    write_f32(&mut text, value);
    let text = String::from_utf8(text).unwrap_or_default();
    text.parse::<f64>().map_or(Value::Null, number)
}

/// The serde_json [`Formatter`] of this crate's files: compact, floats in Rust's shortest
/// round-trip form (the shorter of plain and exponent), U+0085, U+2028 and U+2029 escaped.
/// Everything else (`"`, `\`, control characters as `\n` or `\u001f`) is serde_json's.
struct Spelling;

impl Formatter for Spelling {
    fn write_f32<W: ?Sized + Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        write_float(writer, value, f64::from(value.abs()), value.is_finite())
    }

    fn write_f64<W: ?Sized + Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        write_float(writer, value, value.abs(), value.is_finite())
    }

    fn write_string_fragment<W: ?Sized + Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        let mut rest = fragment;
        while let Some(at) = rest.find(['\u{85}', '\u{2028}', '\u{2029}']) {
            writer.write_all(&rest.as_bytes()[..at])?;
            let c = rest[at..].chars().next().unwrap_or('\u{85}');
            write!(writer, "\\u{:04x}", u32::from(c))?;
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }
}

fn write_float(
    writer: &mut (impl ?Sized + Write),
    value: impl fmt::Display + fmt::LowerExp,
    abs: f64,
    finite: bool,
) -> io::Result<()> {
    if !finite {
        return writer.write_all(b"null");
    }
    // The exponent form is shorter only below 0.01 (`0.005`, `5e-3`) or from 1000 up
    // (`1000`, `1e3`); in between, formatting once is enough.
    if abs == 0.0 || (1e-2..1e3).contains(&abs) {
        return write!(writer, "{value}");
    }
    // Both forms, on the stack: a bundle writes millions of floats.
    let (mut plain, mut exponent) = (Digits::default(), Digits::default());
    let _ = fmt::write(&mut plain, format_args!("{value}"));
    let _ = fmt::write(&mut exponent, format_args!("{value:e}"));
    let shorter = if exponent.len < plain.len { exponent } else { plain };
    writer.write_all(shorter.as_bytes())
}

/// A float's text, on the stack. The longest `f64` Rust writes plainly is 5e-324 (326 bytes).
struct Digits {
    bytes: [u8; 400],
    len: usize,
}

impl Default for Digits {
    fn default() -> Self {
        Digits { bytes: [0; 400], len: 0 }
    }
}

impl Digits {
    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl fmt::Write for Digits {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

fn serialize(out: &mut Vec<u8>, value: &(impl Serialize + ?Sized)) {
    // Writing to a Vec cannot fail, and every Value and str serializes.
    let _ = value.serialize(&mut Serializer::with_formatter(out, Spelling));
}

/// Appends `value` as compact JSON to `out`.
pub fn write_value(out: &mut Vec<u8>, value: &Value) {
    serialize(out, value);
}

/// `value` as compact JSON (no whitespace), numbers as [`write_f64`] spells them.
pub fn to_json(value: &Value) -> String {
    serialized(value)
}

fn serialized(value: &(impl Serialize + ?Sized)) -> String {
    let mut out = Vec::new();
    serialize(&mut out, value);
    // serde_json writes UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// Appends `s` as a JSON string, quotes included. One line of output is one line in any
/// editor: control characters and U+0085, U+2028, U+2029 are escaped.
pub fn write_string(out: &mut Vec<u8>, s: &str) {
    serialize(out, s);
}

/// `s` as a JSON string, for messages: `"Jesus\n"` shows its newline.
pub fn quoted(s: &str) -> String {
    serialized(s)
}

/// Appends `value` as a JSON number with Rust's shortest round-trip formatting, so it reads
/// back as the same `f32` through `str::parse::<f32>`. Of the plain (`0.00012`) and
/// exponent (`1.2e-4`) forms it writes the shorter. NaN and infinities, which JSON cannot
/// hold, are written as `null`, as JavaScript's `JSON.stringify` does.
pub fn write_f32(out: &mut Vec<u8>, value: f32) {
    serialize(out, &value);
}

/// [`write_f32`] for `f64`.
pub fn write_f64(out: &mut Vec<u8>, value: f64) {
    serialize(out, &value);
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, RngExt, SeedableRng};

    use super::*;

    include!("../embed/tricky_tokens.rs");

    fn num(text: &str) -> Value {
        parse(text).unwrap()
    }

    fn string(s: &str) -> String {
        quoted(s)
    }

    /// An object of `members` in their order.
    fn object(members: Vec<(String, Value)>) -> Value {
        Value::Object(members.into_iter().collect())
    }

    /// What `write` appends for `v`.
    fn written<T>(write: fn(&mut Vec<u8>, T), v: T) -> String {
        let mut out = Vec::new();
        write(&mut out, v);
        String::from_utf8(out).unwrap()
    }

    fn f32_text(v: f32) -> String {
        written(write_f32, v)
    }

    fn f64_text(v: f64) -> String {
        written(write_f64, v)
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
            ("[ [ ] , {} ]", Value::Array(vec![Value::Array(vec![]), object(vec![])])),
            (
                r#"{"b": [1, "x", null], "a": {"": false}}"#,
                object(vec![
                    ("b".into(), Value::Array(vec![Value::from(1u64), "x".into(), Value::Null])),
                    ("a".into(), object(vec![(String::new(), Value::Bool(false))])),
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
            let expected = Value::Array(vec![object(vec![(s.clone(), Value::String(s))])]);
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
            let text = f32_text(v);
            assert_eq!(text.parse::<f32>().unwrap().to_bits(), v.to_bits(), "{v:e} written as {text}");
            assert_eq!(parse(&text).map(|n| Kind::of(&n)), Ok(Kind::Number), "{text}");
            // The shorter of the two forms.
            assert!(text.len() <= format!("{v}").len().min(format!("{v:e}").len()), "{text}");
        }
    }

    #[test]
    fn f64_written_reads_back_bit_exact() {
        let specials = [0.0, -0.0, 0.1, 5e-324, f64::MAX, f64::MIN_POSITIVE, 1e21, 123456.0, 1234567.0];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(64);
        let random = (0..100_000).map(|_| f64::from_bits(rng.next_u64())).filter(|v| v.is_finite());
        for v in specials.into_iter().chain(random) {
            let text = f64_text(v);
            assert_eq!(text.parse::<f64>().unwrap().to_bits(), v.to_bits(), "{v:e} written as {text}");
            // serde_json (float_roundtrip) reads it back to the bit too.
            let back = parse(&text).unwrap();
            assert_eq!(back.as_f64().map(f64::to_bits), Some(v.to_bits()), "{text}");
            assert_eq!(back, number(v), "{text}");
            assert!(text.len() <= format!("{v}").len().min(format!("{v:e}").len()), "{text}");
        }
    }

    #[test]
    fn float_known_answers() {
        assert_eq!(f32_text(0.1), "0.1");
        assert_eq!(f32_text(-0.0), "-0");
        assert_eq!(f32_text(1e-45), "1e-45");
        assert_eq!(f32_text(f32::MAX), "3.4028235e38");
        assert_eq!(f32_text(0.00125), "0.00125");
        assert_eq!(f32_text(0.000125), "1.25e-4");
        assert_eq!(f32_text(999.5), "999.5");
        assert_eq!(f32_text(1e3), "1e3");
        assert_eq!(f32_text(0.005), "5e-3");
        assert_eq!(f32_text(0.05), "0.05");
        assert_eq!(f32_text(-12345678.0), "-12345678");
        assert_eq!(f32_text(-1.2e7), "-1.2e7");
        assert_eq!(f32_text(f32::NAN), "null");
        assert_eq!(number(f64::INFINITY), Value::Null);
        assert_eq!(to_json(&number(f64::NAN)), "null");
        assert_eq!(f32_text(f32::NEG_INFINITY), "null");
    }

    #[test]
    fn f32_is_rounded_once_from_the_text() {
        // Just above the midpoint between 1 and the next f32 up: correctly rounded it is
        // the upper one, but through f64 it lands on the midpoint and ties to even, down.
        // This is why the readers of f32s parse the number's text, not serde_json's f64.
        let text = "1.00000005960464477539062500000001";
        assert_eq!(text.parse::<f32>().unwrap(), 1.0 + f32::EPSILON);
        assert_eq!(parse(text).unwrap().as_f64().unwrap() as f32, 1.0);
        assert_eq!("1e39".parse::<f32>().unwrap(), f32::INFINITY);
        assert_eq!("-1e-50".parse::<f32>().unwrap().to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn numbers_read_back_equal_to_themselves() {
        // A float written as a whole number is that integer, so equality survives a round trip.
        for (v, text) in
            [(2.0, "2"), (-3.0, "-3"), (1e3, "1e3"), (-0.0, "-0"), (0.025, "0.025"), (1e-3, "1e-3")]
        {
            assert_eq!(to_json(&number(v)), text);
            assert_eq!(parse(text), Ok(number(v)), "{text}");
        }
        assert_eq!(parse("3.0"), Ok(Value::from(3u64)));
        assert_eq!(parse("18446744073709551615"), Ok(Value::from(u64::MAX)));
        assert_eq!(to_json(&Value::from(u64::MAX)), "18446744073709551615");
        assert_eq!(to_json(&Value::from(-5i64)), "-5");
        // Integers beyond u64 are f64s, as serde_json reads them.
        assert_eq!(to_json(&parse("18446744073709551616").unwrap()), "18446744073709552000");
        check_rejected("[1e400]", 1, 2, "the number 1e400 is beyond the range of f64");
    }

    #[test]
    fn values_round_trip_through_to_json() {
        let text = concat!(
            r#"{"tokenizer":"bpe","dim":100,"alpha":0.025,"sample":1e-3,"lower":true,"max":null,"#,
            r#""w":["a\nb","\u0000",[],{}],"nested":{"x":[-0,1.5e10]}}"#
        );
        let value = parse(text).unwrap();
        assert_eq!(to_json(&value), text);
        assert_eq!(parse(&to_json(&value)), Ok(value.clone()));
        assert_eq!(value.get("dim").and_then(Value::as_u64), Some(100));
        assert_eq!(value.get("tokenizer").and_then(Value::as_str), Some("bpe"));
        assert_eq!(value.get("lower").and_then(Value::as_bool), Some(true));
        assert_eq!(value.get("w").and_then(Value::as_array).map(Vec::len), Some(4));
        assert_eq!(value.get("max").map(Kind::of), Some(Kind::Null));
        assert_eq!(value.get("missing"), None);
        assert_eq!(Value::Null.get("dim"), None);
        // Whitespace goes, everything else stays; numbers take their shortest form.
        let spaced = "[ 1 ,\n\t{ \"a\" : \"b c\" }, 1.5E+10, 0.001 ]";
        assert_eq!(to_json(&parse(spaced).unwrap()), r#"[1,{"a":"b c"},1.5e10,1e-3]"#);
    }

    #[test]
    fn kinds_and_positions() {
        let text = "{\"n\": [1, 2.5],\n \"s\": \"é\", \"x\": {\"deep\": [null]}}";
        let at = |piece: &str| text.find(piece).unwrap();
        assert_eq!(Kind::at(text, 0), Some(Kind::Object));
        assert_eq!(Kind::at(text, at("[1")), Some(Kind::Array));
        assert_eq!(Kind::at(text, at("2.5")), Some(Kind::Number));
        assert_eq!(Kind::at(text, at("\"é")), Some(Kind::String));
        assert_eq!(Kind::at(text, at(": [")), None);
        assert_eq!(Kind::at(text, usize::MAX), None);
        assert_eq!(Kind::at("tru", 0), None);
        assert_eq!(Kind::at("false", 0), Some(Kind::Bool));
        assert_eq!(Kind::at("null", 0), Some(Kind::Null));
        assert_eq!(line_column(text, at("{\"deep")), (2, 17));
        assert_eq!(line_column(text, at("é") + 1), (2, 8)); // Inside the 'é'.
        assert_eq!(line_column(text, usize::MAX), (2, 34));
        let members: std::collections::HashMap<&str, &RawValue> = serde_json::from_str(text).unwrap();
        let raw = members["x"];
        assert_eq!(offset_in(text, raw.get()), at("{\"deep"));
        assert_eq!(to_json(&strict_value(text, raw, 1).unwrap()), r#"{"deep":[null]}"#);
        // Placed in the whole text, nesting counted from its start.
        let err = strict_value(text, raw, MAX_DEPTH - 1).unwrap_err();
        assert_eq!((err.line, err.column), (2, 26), "{err}");
        assert!(err.message.contains("nest deeper than 128"), "{err}");
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
                    assert_eq!(parse(&to_json(&value)), Ok(value), "{text:?}");
                }
                Err(err) => assert!(!err.to_string().is_empty()),
            }
        }
        assert!(parsed > 100, "{parsed}");
    }
}
