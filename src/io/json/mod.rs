//! The core's JSON: `serde_json` (`Value`, the parser, the writer) with the strictness a
//! bundle needs, which serde_json alone does not give.
//!
//! # Brief overview
//!
//! * [`parse`] reads a whole text into a [`Value`] (serde_json's, objects in the order
//!   written) and refuses what serde_json accepts but a bundle never holds: a key twice in an
//!   object (serde_json keeps the last), nesting deeper than [`MAX_DEPTH`]. Its
//!   [`JsonError`] is serde_json's message (or this module's, for those two faults) at a
//!   1-based line and column.
//! * [`to_json`], [`write_value`], [`write_string`], [`write_f32`], [`write_f64`] write
//!   compact JSON with serde_json's own formatter: floats in their shortest round-trip form
//!   (`0.025`, `2.0`, `1e-45`), so each reads back with the same bits.
//! * [`number`] and [`number_f32`] are floats as [`Value`]s that read back equal to
//!   themselves from their own text.
//! * The bundle reader (`crate::io::read_bundle`) drives serde_json itself, with seeds
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
//!   128);
//! * a byte order mark before the value is skipped, as RFC 8259 §8.1 allows.
//!
//! Columns count characters (serde_json counts bytes), so a fault in a line of Greek or
//! emoji is placed where an editor shows it.

mod strict;
mod write;

#[cfg(test)]
mod tests;

use std::fmt;

use serde::de::DeserializeSeed;
use serde_json::value::RawValue;
pub use serde_json::{Map, Number, Value};

pub use strict::Strict;
use strict::{Faults, StrictSeed};
pub use write::{
    number, number_f32, object, quoted, to_json, write_f32, write_f64, write_string, write_value,
};

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
    /// What is wrong: serde_json's message without its place ("trailing comma"), or this
    /// module's for a repeated key or deep nesting.
    pub message: String,
}

impl JsonError {
    /// serde_json's `err`, from reading `text[start..]`, placed in the whole `text`.
    pub fn from_serde(text: &str, start: usize, err: &serde_json::Error) -> JsonError {
        // serde_json's line and column are 1-based, counted in bytes from `start`; its column
        // is that of the last byte it read (0 before the first byte of a line).
        let read = text.get(start..).unwrap_or("");
        let line_start: usize =
            read.split_inclusive('\n').take(err.line().saturating_sub(1)).map(str::len).sum();
        let at = start + line_start + err.column().saturating_sub(1);
        // Its `Display` ends with the place, which JsonError gives in characters instead.
        let full = err.to_string();
        let place = format!(" at line {} column {}", err.line(), err.column());
        error_at(text, at, full.strip_suffix(&place).unwrap_or(&full))
    }
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

/// The first byte at or after `at` that is not JSON whitespace.
pub fn skip_whitespace(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = at.min(bytes.len());
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}
