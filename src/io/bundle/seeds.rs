//! The serde visitors and seeds of the bundle's reader: the bundle's object, the large
//! arrays (`words`, `counts`, `vectors`) read element by element as borrowed text, and the
//! elements and members behind [`BundleReader`]'s `array` and `object`.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::read::{BundleReader, Parts, Vectors, Words};
use crate::error::Result;
use crate::io::json::{self, Kind, quoted};

/// The bundle's object on the whole text: the large arrays through their own seeds, the
/// other keys as raw values.
pub(super) struct BundleVisitor<'r, 't> {
    pub(super) r: &'r BundleReader<'t>,
}

impl<'t> Visitor<'t> for BundleVisitor<'_, 't> {
    type Value = Parts;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an embedscope bundle")
    }

    fn visit_map<A: MapAccess<'t>>(self, mut map: A) -> std::result::Result<Parts, A::Error> {
        let r = self.r;
        let text = r.text;
        let mut parts = Parts::default();
        let mut keys: HashSet<String> = HashSet::new();
        while let Some(raw_key) = map.next_key::<&'t RawValue>()? {
            let key = r.string(raw_key).map_err(|fault| r.raise(fault))?;
            let colon = json::skip_whitespace(text, r.at(raw_key) + raw_key.get().len());
            if text.as_bytes().get(colon) != Some(&b':') {
                // serde_json reports what stands there instead.
                map.next_value::<IgnoredAny>()?;
            }
            let at = json::skip_whitespace(text, colon + 1);
            if keys.contains(&key) {
                return Err(r.raise(r.fault(at, format!("the key {} occurs twice", quoted(&key)))));
            }
            let is_null = Kind::at(text, at) == Some(Kind::Null);
            match key.as_str() {
                "words" => {
                    r.expect(at, Kind::Array, |kind| {
                        format!("\"words\" must be an array of strings, not {kind}")
                    })
                    .map_err(|fault| r.raise(fault))?;
                    parts.words = Some(map.next_value_seed(Seq(WordsSeed { r }))?);
                }
                "counts" if is_null => {
                    map.next_value::<IgnoredAny>()?;
                    parts.counts = None;
                }
                "counts" => {
                    r.expect(at, Kind::Array, |kind| {
                        format!("\"counts\" must be an array of whole numbers, not {kind}")
                    })
                    .map_err(|fault| r.raise(fault))?;
                    let counts = map.next_value_seed(Seq(CountsSeed { r, words: parts.words.as_ref() }))?;
                    parts.counts = Some((at, counts));
                }
                "vectors" => {
                    r.expect(at, Kind::Array, |kind| {
                        format!("\"vectors\" must be an array of arrays of numbers, not {kind}")
                    })
                    .map_err(|fault| r.raise(fault))?;
                    let seed = VectorsSeed { r, at, words: parts.words.as_ref(), dim: parts.dim };
                    parts.vectors = Some(map.next_value_seed(Seq(seed))?);
                }
                "version" | "dim" | "fingerprint" | "source" | "epochLosses" | "timeline" => {
                    // What a key must hold is told from its first character, before the
                    // whole value is read, as the old reader did: a timeline that is an
                    // array is named so even when what follows is no JSON.
                    let expected = match key.as_str() {
                        "version" | "dim" => Some((Kind::Number, "a number")),
                        "epochLosses" => Some((Kind::Array, "an array of numbers")),
                        "timeline" => Some((Kind::Object, "an object")),
                        _ => None,
                    };
                    if let (Some((kind, what)), Some(found)) = (expected, Kind::at(text, at))
                        && found != kind
                        && !(found == Kind::Null && kind != Kind::Number)
                    {
                        let message = match kind {
                            Kind::Number => format!("\"{key}\" is {found}, not a number"),
                            _ => format!("\"{key}\" must be {what}, not {found}"),
                        };
                        return Err(r.raise(r.fault(at, message)));
                    }
                    let raw = map.next_value::<&'t RawValue>()?;
                    r.small_key(&key, raw, &mut parts).map_err(|fault| r.raise(fault))?;
                }
                // format, params and unknown keys: trees, read in this pass, so nesting
                // too deep is named where it starts.
                _ => {
                    let value = map.next_value_seed(r.strict.seed(1))?;
                    r.tree_key(&key, at, value, &mut parts).map_err(|fault| r.raise(fault))?;
                }
            }
            keys.insert(key);
        }
        Ok(parts)
    }
}

/// Reads an array with the visitor inside: the seeds below are visitors of arrays.
struct Seq<V>(V);

impl<'t, V: Visitor<'t>> DeserializeSeed<'t> for Seq<V> {
    type Value = V::Value;

    fn deserialize<D: de::Deserializer<'t>>(
        self,
        deserializer: D,
    ) -> std::result::Result<V::Value, D::Error> {
        deserializer.deserialize_seq(self.0)
    }
}

/// The name of word `row`'s vector in messages.
fn vector_name(words: Option<&Words>, row: usize) -> String {
    match words.and_then(|words| words.list.get(row)) {
        Some(word) => format!("the vector of {}", quoted(word)),
        None => format!("vector {}", row + 1),
    }
}

struct WordsSeed<'r, 't> {
    r: &'r BundleReader<'t>,
}

impl<'t> Visitor<'t> for WordsSeed<'_, 't> {
    type Value = Words;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of strings")
    }

    fn visit_seq<A: SeqAccess<'t>>(self, mut seq: A) -> std::result::Result<Words, A::Error> {
        let r = self.r;
        let mut words = Words { list: Vec::new(), offsets: Vec::new() };
        while let Some(raw) = seq.next_element::<&'t RawValue>()? {
            let at = r.at(raw);
            let word = match BundleReader::kind(raw) {
                Kind::String => r.string(raw),
                kind => Err(r.fault(at, format!("word {} is {kind}, not a string", words.list.len() + 1))),
            };
            words.list.push(word.map_err(|fault| r.raise(fault))?);
            words.offsets.push(at);
        }
        Ok(words)
    }
}

struct CountsSeed<'r, 't> {
    r: &'r BundleReader<'t>,
    words: Option<&'r Words>,
}

impl<'t> Visitor<'t> for CountsSeed<'_, 't> {
    type Value = Vec<u64>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of whole numbers")
    }

    fn visit_seq<A: SeqAccess<'t>>(self, mut seq: A) -> std::result::Result<Vec<u64>, A::Error> {
        let r = self.r;
        let mut counts = Vec::new();
        while let Some(raw) = seq.next_element::<&'t RawValue>()? {
            let i = counts.len();
            let whose = || match self.words.and_then(|words| words.list.get(i)) {
                Some(word) => format!("count {} (of {})", i + 1, quoted(word)),
                None => format!("count {}", i + 1),
            };
            let count = r.number(raw, whose).and_then(|text| {
                text.parse().map_err(|_| {
                    r.fault(r.at(raw), format!("{} must be a whole number from 0, found {text}", whose()))
                })
            });
            counts.push(count.map_err(|fault| r.raise(fault))?);
        }
        Ok(counts)
    }
}

/// The vectors, straight into one `Vec<f32>`; their lengths are checked once `dim` is
/// surely known.
struct VectorsSeed<'r, 't> {
    r: &'r BundleReader<'t>,
    /// Where the array starts.
    at: usize,
    words: Option<&'r Words>,
    dim: Option<usize>,
}

impl<'t> Visitor<'t> for VectorsSeed<'_, 't> {
    type Value = Vectors;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of arrays of numbers")
    }

    fn visit_seq<A: SeqAccess<'t>>(self, mut seq: A) -> std::result::Result<Vectors, A::Error> {
        let (r, text) = (self.r, self.r.text);
        let mut values = Vec::new();
        if let (Some(words), Some(dim)) = (self.words, self.dim) {
            // Every number takes at least two bytes of text, which bounds a hostile "dim".
            values.reserve(words.list.len().saturating_mul(dim).min(text.len() / 2));
        }
        let mut rows = Vec::new();
        // Just past the '[' or the vector before: the next vector starts after whitespace
        // and a comma, so its line is known before serde_json reads it.
        let mut cursor = self.at + 1;
        loop {
            let row = rows.len();
            let mut row_at = json::skip_whitespace(text, cursor);
            let comma = row > 0 && text.as_bytes().get(row_at) == Some(&b',');
            if comma {
                row_at = json::skip_whitespace(text, row_at + 1);
            }
            if row == 0 || comma {
                match Kind::at(text, row_at) {
                    Some(Kind::Array) | None => {}
                    Some(kind) => {
                        let name = vector_name(self.words, row);
                        return Err(
                            r.raise(r.fault(row_at, format!("{name} is {kind}, not an array of numbers")))
                        );
                    }
                }
            }
            let seed = RowSeed { r, words: self.words, row, values: &mut values, end: row_at + 1 };
            let Some((len, end)) = seq.next_element_seed(Seq(seed))? else { break };
            rows.push((row_at, len));
            cursor = end;
        }
        Ok(Vectors { at: self.at, values, rows })
    }
}

/// One vector: its numbers' text parsed to `f32`, appended to `values`; gives how many and
/// where the vector ends.
struct RowSeed<'r, 't> {
    r: &'r BundleReader<'t>,
    words: Option<&'r Words>,
    row: usize,
    values: &'r mut Vec<f32>,
    /// Just past the '['; then just past the last number.
    end: usize,
}

impl<'t> Visitor<'t> for RowSeed<'_, 't> {
    type Value = (usize, usize);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of numbers")
    }

    fn visit_seq<A: SeqAccess<'t>>(mut self, mut seq: A) -> std::result::Result<(usize, usize), A::Error> {
        let r = self.r;
        let start = self.values.len();
        while let Some(raw) = seq.next_element::<&'t RawValue>()? {
            let i = self.values.len() - start;
            let value = r.float(raw, || format!("value {} of {}", i + 1, vector_name(self.words, self.row)));
            self.values.push(value.map_err(|fault| r.raise(fault))?);
            self.end = r.at(raw) + raw.get().len();
        }
        // serde_json has read the closing ']', after whitespace.
        Ok((self.values.len() - start, json::skip_whitespace(r.text, self.end) + 1))
    }
}

/// The elements of an array, each as its raw text.
pub(super) struct Elements<'r, 't, F> {
    pub(super) r: &'r BundleReader<'t>,
    pub(super) element: F,
}

impl<'t, F: FnMut(usize, &'t RawValue) -> Result<()>> Visitor<'t> for Elements<'_, 't, F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'t>>(mut self, mut seq: A) -> std::result::Result<(), A::Error> {
        let mut i = 0;
        while let Some(raw) = seq.next_element::<&'t RawValue>()? {
            (self.element)(i, raw).map_err(|fault| self.r.raise(fault))?;
            i += 1;
        }
        Ok(())
    }
}

/// The members of an object, each value as its raw text, refusing repeated keys.
pub(super) struct Members<'r, 't, 's, F> {
    pub(super) r: &'r BundleReader<'t>,
    pub(super) what: &'s str,
    pub(super) seen: &'s mut HashSet<String>,
    pub(super) field: F,
}

impl<'t, F: FnMut(&str, &'t RawValue) -> Result<()>> Visitor<'t> for Members<'_, 't, '_, F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'t>>(mut self, mut map: A) -> std::result::Result<(), A::Error> {
        let r = self.r;
        while let Some((raw_key, raw)) = map.next_entry::<&'t RawValue, &'t RawValue>()? {
            let key = r.string(raw_key).map_err(|fault| r.raise(fault))?;
            if self.seen.contains(&key) {
                let message = format!("the key {} occurs twice in {}", quoted(&key), self.what);
                return Err(r.raise(r.fault(r.at(raw), message)));
            }
            (self.field)(&key, raw).map_err(|fault| r.raise(fault))?;
            self.seen.insert(key);
        }
        Ok(())
    }
}
