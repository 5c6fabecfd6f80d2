//! The strict reading: the visitor behind [`parse`](super::parse) and
//! [`strict_value`](super::strict_value), which refuses a key twice in an object and nesting
//! deeper than [`MAX_DEPTH`], and [`Strict`], its seeds for a larger deserialization (a
//! bundle's) that reads values in the same pass.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::{JsonError, MAX_DEPTH, Map, Value, error_at, number, offset_in, quoted, string_value};

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
pub(super) struct Faults(RefCell<Option<JsonError>>);

impl Faults {
    fn raise<E: de::Error>(&self, fault: JsonError) -> E {
        self.0.borrow_mut().get_or_insert(fault);
        E::custom("see the fault left beside")
    }

    pub(super) fn take(&self) -> Option<JsonError> {
        self.0.borrow_mut().take()
    }
}

/// Reads any value into a [`Value`], refusing repeated keys and deep nesting.
#[derive(Clone, Copy)]
pub(super) struct StrictSeed<'a, 't> {
    pub(super) text: &'t str,
    pub(super) faults: &'a Faults,
    /// How many arrays and objects enclose the value.
    pub(super) depth: usize,
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
