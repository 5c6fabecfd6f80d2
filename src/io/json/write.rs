//! The writers: serde_json's compact serializer with its default formatter, and [`number`],
//! [`number_f32`] and [`object`], which build [`Value`]s that read back equal to themselves.

use serde::ser::Serialize;

use super::Value;

/// An `f64` as a [`Value`]: NaN and infinities, which JSON cannot hold, become `null` (as in
/// JavaScript's `JSON.stringify`). A float is written with a fraction or an exponent
/// (`2.0`, `1e21`), so it reads back as the same float, equal to itself.
pub fn number(value: f64) -> Value {
    serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)
}

/// An object of `members`, in their order.
pub fn object(members: Vec<(String, Value)>) -> Value {
    Value::Object(members.into_iter().collect())
}

/// An `f32` as the [`Value`] of its own shortest text (`0.025`, where serde_json's
/// `Value::from(0.025f32)` holds the `f64` 0.02500000037252903 and writes all its digits).
pub fn number_f32(value: f32) -> Value {
    value.to_string().parse::<f64>().map_or(Value::Null, number)
}

fn serialize(out: &mut Vec<u8>, value: &(impl Serialize + ?Sized)) {
    // Writing to a Vec cannot fail, and every Value, str and float serializes.
    let _ = serde_json::to_writer(out, value);
}

/// Appends `value` as compact JSON to `out`.
pub fn write_value(out: &mut Vec<u8>, value: &Value) {
    serialize(out, value);
}

/// `value` as compact JSON (no whitespace).
pub fn to_json(value: &Value) -> String {
    serialized(value)
}

fn serialized(value: &(impl Serialize + ?Sized)) -> String {
    let mut out = Vec::new();
    serialize(&mut out, value);
    // serde_json writes UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// Appends `s` as a JSON string, quotes included; control characters are escaped (`\n`,
/// `\u001f`), so one string is one line.
pub fn write_string(out: &mut Vec<u8>, s: &str) {
    serialize(out, s);
}

/// `s` as a JSON string, for messages: `"Jesus\n"` shows its newline.
pub fn quoted(s: &str) -> String {
    serialized(s)
}

/// Appends `value` as a JSON number in its shortest round-trip form (`0.1`, `2.0`,
/// `1e-45`), so it reads back as the same `f32` through `str::parse::<f32>`. NaN and
/// infinities, which JSON cannot hold, are written as `null`, as JavaScript's
/// `JSON.stringify` does.
pub fn write_f32(out: &mut Vec<u8>, value: f32) {
    serialize(out, &value);
}

/// [`write_f32`] for `f64`.
pub fn write_f64(out: &mut Vec<u8>, value: f64) {
    serialize(out, &value);
}
