//! The writers: serde_json's serializer with this crate's [`Formatter`] (`Spelling`), and
//! [`number`], [`number_f32`] and [`object`], which build [`Value`]s that read back equal to
//! themselves.

use std::fmt;
use std::io::{self, Write};

use serde::ser::Serialize;
use serde_json::ser::{Formatter, Serializer};

use super::Value;

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
