//! The bundle's reader: [`read_bundle`], the parts it gathers, and [`BundleReader`], the
//! text with the helpers that read a raw value and name the line of a fault. The serde
//! visitors that drive it are in `seeds.rs`, the timeline's reading in `timeline.rs`.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use serde::de::{self, Deserializer as _, IgnoredAny};
use serde_json::value::RawValue;

use super::seeds::{BundleVisitor, Elements, Members};
use super::timeline::{TimelinePart, TimelinePlace, timeline_fault};
use super::{BUNDLE_VERSION, Bundle, FORMAT};
use crate::error::{Error, Result};
use crate::io::json::{self, JsonError, Kind, Value, quoted};
use crate::vectors::Embeddings;

/// Reads a bundle written by [`write_bundle`], or by hand in the same layout.
///
/// Fails with [`Error::Format`] naming the line of the first fault; see the
/// module documentation of `src/io/bundle/mod.rs` for what is checked.
///
/// [`write_bundle`]: super::write_bundle
pub fn read_bundle(text: &str) -> Result<Bundle> {
    let text = json::strip_bom(text);
    let r = BundleReader { text, fault: RefCell::new(None), strict: json::Strict::new(text) };
    let at = json::skip_whitespace(text, 0);
    match Kind::at(text, at) {
        Some(Kind::Object) => {}
        Some(kind) => {
            return Err(
                r.fault(at, format!("not an embedscope bundle: it starts with {kind}, not a JSON object"))
            );
        }
        // Not a JSON value at all: serde_json says what is wrong.
        None => {
            let err = serde_json::from_str::<IgnoredAny>(text).err();
            return Err(err.map_or_else(
                || Error::Format { line: 0, message: "not valid JSON".into() },
                |err| r.error(&err, 0),
            ));
        }
    }
    let mut de = json::deserializer(text);
    let parts = de.deserialize_map(BundleVisitor { r: &r }).and_then(|parts| de.end().map(|()| parts));
    r.assemble(parts.map_err(|err| r.error(&err, 0))?)
}

/// What the keys of a bundle held, before the checks that need more than one of them.
/// Offsets (`at`) are where a value starts in the text, for the line of a later fault.
#[derive(Default)]
pub(super) struct Parts {
    format_seen: bool,
    version_seen: bool,
    pub(super) dim: Option<usize>,
    pub(super) words: Option<Words>,
    pub(super) counts: Option<(usize, Vec<u64>)>,
    pub(super) vectors: Option<Vectors>,
    epoch_losses: Vec<f64>,
    fingerprint: Option<String>,
    source: Option<String>,
    params: Option<Value>,
    timeline: Option<TimelinePart>,
}

pub(super) struct Words {
    pub(super) list: Vec<String>,
    pub(super) offsets: Vec<usize>,
}

pub(super) struct Vectors {
    pub(super) at: usize,
    pub(super) values: Vec<f32>,
    /// Each vector's offset and length.
    pub(super) rows: Vec<(usize, usize)>,
}

/// The bundle's text and the first fault its readers found.
///
/// serde_json drives the reading: the large arrays (`words`, `counts`, `vectors`) through
/// seeds on one deserializer over the whole text, each number borrowed as its text
/// (`&RawValue`) and parsed straight to `f32`, rounding once, into one `Vec<f32>`; the
/// small keys as raw values read by the helpers below. Where a value starts is known from
/// where its raw text lies in the file (or, for a vector, from where the one before ended),
/// which gives a fault its line. A fault is kept here while serde_json unwinds with a
/// placeholder error, since its error type carries only a message.
pub(super) struct BundleReader<'t> {
    pub(super) text: &'t str,
    fault: RefCell<Option<Error>>,
    /// Values read in the same pass (format, params, unknown keys), as the tree they are.
    pub(super) strict: json::Strict<'t>,
}

/// A JSON syntax error as the bundle's error: the file is no bundle until its JSON is mended.
fn invalid_json(err: JsonError) -> Error {
    Error::Format {
        line: err.line,
        message: format!("not a valid bundle: invalid JSON at column {}: {}", err.column, err.message),
    }
}

/// A value for a message, cut short when long.
fn shown(value: &Value) -> String {
    let json = json::to_json(value);
    match json.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &json[..cut]),
        None => json,
    }
}

impl<'t> BundleReader<'t> {
    /// A fault in a well-formed JSON text, on the line of byte `at`.
    pub(super) fn fault(&self, at: usize, message: String) -> Error {
        Error::Format { line: json::line_column(self.text, at).0, message }
    }

    /// Keeps `fault` for [`BundleReader::error`] and gives serde_json an error to unwind with.
    pub(super) fn raise<E: de::Error>(&self, fault: Error) -> E {
        self.fault.borrow_mut().get_or_insert(fault);
        E::custom("see the bundle's fault")
    }

    /// The fault behind `err` (from a deserializer over `self.text[start..]`): the one kept,
    /// or serde_json's own, a JSON syntax error.
    fn error(&self, err: &serde_json::Error, start: usize) -> Error {
        let fault = self.fault.borrow_mut().take();
        fault
            .or_else(|| self.strict.take_fault().map(invalid_json))
            .unwrap_or_else(|| invalid_json(JsonError::from_serde(self.text, start, err)))
    }

    /// Where `raw` starts in the text.
    pub(super) fn at(&self, raw: &RawValue) -> usize {
        json::offset_in(self.text, raw.get())
    }

    /// The kind of `raw`, which serde_json has checked is one JSON value.
    pub(super) fn kind(raw: &RawValue) -> Kind {
        Kind::at(raw.get(), 0).unwrap_or(Kind::Null)
    }

    /// Checks that the value at `at` is of `kind`; `message` describes the fault from the
    /// kind found. Where no value starts, serde_json's reading of it reports the syntax.
    pub(super) fn expect(&self, at: usize, kind: Kind, message: impl FnOnce(Kind) -> String) -> Result<()> {
        match Kind::at(self.text, at) {
            Some(found) if found != kind => Err(self.fault(at, message(found))),
            _ => Ok(()),
        }
    }

    /// A strict value (no repeated key, nesting capped), enclosed by `depth` levels.
    pub(super) fn value(&self, raw: &RawValue, depth: usize) -> Result<Value> {
        json::strict_value(self.text, raw, depth).map_err(invalid_json)
    }

    pub(super) fn string(&self, raw: &RawValue) -> Result<String> {
        json::string_value(self.text, raw).map_err(invalid_json)
    }

    /// Calls `element(index, raw)` for each element of the array `raw`; `message` describes
    /// the fault when it is not an array.
    pub(super) fn array(
        &self,
        raw: &'t RawValue,
        message: impl FnOnce(Kind) -> String,
        element: impl FnMut(usize, &'t RawValue) -> Result<()>,
    ) -> Result<()> {
        self.expect(self.at(raw), Kind::Array, message)?;
        let mut de = json::deserializer(raw.get());
        de.deserialize_seq(Elements { r: self, element }).map_err(|err| self.error(&err, self.at(raw)))
    }

    /// Calls `field(key, raw)` for each member of the object `raw` (`what`), refusing
    /// repeated keys; then checks none of `required` was missing. Unknown keys are `field`'s
    /// to read (as [`BundleReader::value`], which checks them) or skip.
    pub(super) fn object(
        &self,
        raw: &'t RawValue,
        what: &str,
        required: &[&str],
        field: impl FnMut(&str, &'t RawValue) -> Result<()>,
    ) -> Result<()> {
        let at = self.at(raw);
        self.expect(at, Kind::Object, |kind| format!("{what} must be an object, not {kind}"))?;
        let mut seen = HashSet::new();
        let mut de = json::deserializer(raw.get());
        de.deserialize_map(Members { r: self, what, seen: &mut seen, field })
            .map_err(|err| self.error(&err, at))?;
        if let Some(key) = required.iter().find(|key| !seen.contains(**key)) {
            return Err(self.fault(at, format!("{what} lacks the key \"{key}\"")));
        }
        Ok(())
    }

    /// A number's text; `what` names it in messages ("value 2 of the vector of \"a\"").
    pub(super) fn number(&self, raw: &'t RawValue, what: impl FnOnce() -> String) -> Result<&'t str> {
        match Self::kind(raw) {
            Kind::Number => Ok(raw.get()),
            kind => Err(self.fault(self.at(raw), format!("{} is {kind}, not a number", what()))),
        }
    }

    pub(super) fn whole_number(&self, raw: &'t RawValue, what: &str) -> Result<u64> {
        let text = self.number(raw, || what.to_string())?;
        text.parse()
            .map_err(|_| self.fault(self.at(raw), format!("{what} must be a whole number, found {text}")))
    }

    /// A whole number that fits a `u32`; `what` names it.
    pub(super) fn small_number(&self, raw: &'t RawValue, what: &str) -> Result<u32> {
        let n = self.whole_number(raw, what)?;
        u32::try_from(n).map_err(|_| self.fault(self.at(raw), format!("{what} is {n}, too large")))
    }

    fn optional_string(&self, raw: &'t RawValue, what: &str) -> Result<Option<String>> {
        match Self::kind(raw) {
            Kind::Null => Ok(None),
            Kind::String => self.string(raw).map(Some),
            kind => Err(self.fault(self.at(raw), format!("{what} must be a string, not {kind}"))),
        }
    }

    /// `format` and `params`, read as a tree; `at` is where the value starts.
    pub(super) fn tree_key(&self, key: &str, at: usize, value: Value, parts: &mut Parts) -> Result<()> {
        match key {
            "format" => {
                let format = value;
                if format.as_str() != Some(FORMAT) {
                    return Err(self.fault(
                        at,
                        format!(
                            "not an embedscope bundle: \"format\" is {}, not \"{FORMAT}\"",
                            shown(&format)
                        ),
                    ));
                }
                parts.format_seen = true;
            }
            "params" => {
                parts.params = match Kind::of(&value) {
                    Kind::Null => None,
                    Kind::Object => Some(value),
                    kind => return Err(self.fault(at, format!("\"params\" must be an object, not {kind}"))),
                };
            }
            // Unknown keys are skipped, though read as strictly as the rest.
            _ => {}
        }
        Ok(())
    }

    /// The other small keys, each value read as its raw text.
    pub(super) fn small_key(&self, key: &str, raw: &'t RawValue, parts: &mut Parts) -> Result<()> {
        let at = self.at(raw);
        match key {
            "version" => {
                let version = self.whole_number(raw, "\"version\"")?;
                if version > BUNDLE_VERSION {
                    return Err(self.fault(
                        at,
                        format!(
                            "this bundle has version {version}, newer than version {BUNDLE_VERSION} that \
                             this embedscope reads; open it with a newer embedscope"
                        ),
                    ));
                }
                if version == 0 {
                    return Err(self.fault(at, "\"version\" must be at least 1, found 0".into()));
                }
                parts.version_seen = true;
            }
            "dim" => {
                let dim = self.whole_number(raw, "\"dim\"")?;
                parts.dim = match usize::try_from(dim) {
                    Ok(0) => return Err(self.fault(at, "\"dim\" must be at least 1, found 0".into())),
                    Ok(dim) => Some(dim),
                    Err(_) => {
                        return Err(self.fault(at, format!("\"dim\" is {dim}, too large for this machine")));
                    }
                };
            }
            "fingerprint" => parts.fingerprint = self.optional_string(raw, "\"fingerprint\"")?,
            "source" => parts.source = self.optional_string(raw, "\"source\"")?,
            "epochLosses" => parts.epoch_losses = self.epoch_losses(raw)?,
            "timeline" => parts.timeline = self.timeline(raw)?,
            _ => {}
        }
        Ok(())
    }

    fn epoch_losses(&self, raw: &'t RawValue) -> Result<Vec<f64>> {
        let mut losses = Vec::new();
        if Self::kind(raw) == Kind::Null {
            return Ok(losses);
        }
        self.array(
            raw,
            |kind| format!("\"epochLosses\" must be an array of numbers, not {kind}"),
            |i, raw| {
                let text = self.number(raw, || format!("epoch loss {}", i + 1))?;
                let loss: f64 = text.parse().unwrap_or(f64::NAN);
                if !loss.is_finite() {
                    return Err(self.fault(
                        self.at(raw),
                        format!("epoch loss {} is {text}, beyond the range of f64", i + 1),
                    ));
                }
                losses.push(loss);
                Ok(())
            },
        )?;
        Ok(losses)
    }

    /// A finite `f32` from the number `raw`, parsed from its text (rounding once); `what()`
    /// names it in messages.
    pub(super) fn float(&self, raw: &'t RawValue, what: impl Fn() -> String) -> Result<f32> {
        let text = self.number(raw, &what)?;
        let value: f32 = text.parse().unwrap_or(f32::NAN);
        if !value.is_finite() {
            return Err(self.fault(self.at(raw), format!("{} is {text}, beyond the range of f32", what())));
        }
        Ok(value)
    }

    /// The checks that need several keys, then the bundle.
    fn assemble(&self, parts: Parts) -> Result<Bundle> {
        let missing =
            |key: &str| Error::Format { line: 0, message: format!("the bundle lacks the key \"{key}\"") };
        if !parts.format_seen {
            return Err(Error::Format {
                line: 0,
                message: format!("not an embedscope bundle: it has no \"format\": \"{FORMAT}\""),
            });
        }
        if !parts.version_seen {
            return Err(missing("version"));
        }
        let dim = parts.dim.ok_or_else(|| missing("dim"))?;
        let words = parts.words.ok_or_else(|| missing("words"))?;
        let vectors = parts.vectors.ok_or_else(|| missing("vectors"))?;
        if vectors.rows.len() != words.list.len() {
            return Err(self.fault(
                vectors.at,
                format!(
                    "there are {} words but {} vectors; each word needs one vector",
                    words.list.len(),
                    vectors.rows.len()
                ),
            ));
        }
        if let Some((row, &(at, len))) = vectors.rows.iter().enumerate().find(|(_, (_, len))| *len != dim) {
            let plural = if len == 1 { "" } else { "s" };
            return Err(self.fault(
                at,
                format!(
                    "the vector of {} has {len} value{plural}; \"dim\" is {dim}",
                    quoted(&words.list[row])
                ),
            ));
        }
        if let Some((at, counts)) = &parts.counts
            && counts.len() != words.list.len()
        {
            return Err(self.fault(
                *at,
                format!(
                    "\"counts\" must hold one count per word: {} words, {} counts",
                    words.list.len(),
                    counts.len()
                ),
            ));
        }
        let mut first_seen: HashMap<&str, usize> = HashMap::with_capacity(words.list.len());
        for (word_idx, word) in words.list.iter().enumerate() {
            if let Some(first) = first_seen.insert(word, word_idx) {
                return Err(self.fault(
                    words.offsets[word_idx],
                    format!(
                        "the word {} occurs twice (words {} and {})",
                        quoted(word),
                        first + 1,
                        word_idx + 1
                    ),
                ));
            }
        }
        let timeline = match parts.timeline {
            Some(part) => {
                if let Some((place, message)) = timeline_fault(&part.timeline, words.list.len()) {
                    let at = match place {
                        TimelinePlace::WordList(i) => part.word_lists_at[i],
                        TimelinePlace::Frame(i) => part.frames_at[i],
                        TimelinePlace::Neighbours => part.neighbours_at,
                        TimelinePlace::Epoch(i) => part.epochs_at[i],
                    };
                    return Err(self.fault(at.max(part.at), format!("the timeline's {message}")));
                }
                Some(part.timeline)
            }
            None => None,
        };
        Ok(Bundle {
            embeddings: Embeddings::new(words.list, dim, vectors.values)?,
            counts: parts.counts.map(|(_, counts)| counts),
            params: parts.params,
            fingerprint: parts.fingerprint,
            epoch_losses: parts.epoch_losses,
            source: parts.source,
            timeline,
        })
    }
}
