//! The bundle's `timeline` section (see the module documentation of
//! `src/io/bundle/mod.rs`): the checks the writer and the reader share, its writer, and
//! its reading from raw values.

use std::io::Write;

use serde_json::value::RawValue;

use super::read::BundleReader;
use super::write::write_rows;
use crate::error::Result;
use crate::io::json::{self, Kind, Value};
use crate::map::{EpochNeighbours, NeighbourHistory, Timeline, TimelineFrame};

/// Where in a timeline a fault is, for the reader to name its line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum TimelinePlace {
    WordList(usize),
    Frame(usize),
    Neighbours,
    Epoch(usize),
}

/// The first fault of a timeline for a bundle of `n_words` words, which both the writer and
/// the reader refuse: a word id beyond the words, a frame of another word list or with the
/// wrong number of coordinates, a coordinate or score that is not finite, a `mapSpec` that is
/// not an object, neighbours of the wrong shape.
pub(super) fn timeline_fault(timeline: &Timeline, n_words: usize) -> Option<(TimelinePlace, String)> {
    let too_large = |id: u32| id as usize >= n_words;
    for (i, list) in timeline.word_lists.iter().enumerate() {
        if let Some(id) = list.iter().copied().find(|&id| too_large(id)) {
            let message =
                format!("word list {} names word id {id}, and the bundle has {n_words} words", i + 1);
            return Some((TimelinePlace::WordList(i), message));
        }
    }
    for (i, frame) in timeline.frames.iter().enumerate() {
        let fault = |message: String| Some((TimelinePlace::Frame(i), format!("frame {}: {message}", i + 1)));
        let Some(list) = timeline.word_lists.get(frame.word_list) else {
            let lists = timeline.word_lists.len();
            return fault(format!(
                "it shows word list {}, and there are {lists} word lists",
                frame.word_list + 1
            ));
        };
        if frame.coords.len() != 2 * list.len() {
            return fault(format!(
                "it has {} coordinates for {} words; it needs 2 per word",
                frame.coords.len(),
                list.len()
            ));
        }
        if frame.coords.iter().any(|v| !v.is_finite()) {
            return fault("a coordinate is not a finite number".into());
        }
        if Kind::of(&frame.map_spec) != Kind::Object {
            return fault(format!("\"mapSpec\" must be an object, not {}", Kind::of(&frame.map_spec)));
        }
    }
    let history = timeline.neighbours.as_ref()?;
    let (h_words, k) = (history.n_words(), history.k());
    if h_words > n_words || (k > 0 && k >= h_words) {
        let message = format!("neighbours of {h_words} words, {k} each, in a bundle of {n_words} words");
        return Some((TimelinePlace::Neighbours, message));
    }
    for (i, epoch) in history.epochs().enumerate() {
        let fault = |message: String| {
            Some((TimelinePlace::Epoch(i), format!("neighbours of epoch {}: {message}", epoch.epoch)))
        };
        if epoch.ids.len() != h_words * k || epoch.scores.len() != epoch.ids.len() {
            return fault(format!(
                "{} ids and {} scores, where {h_words} words of {k} neighbours need {} of each",
                epoch.ids.len(),
                epoch.scores.len(),
                h_words * k
            ));
        }
        if let Some(id) = epoch.ids.iter().copied().find(|&id| too_large(id)) {
            return fault(format!("word id {id}, and the bundle has {n_words} words"));
        }
        if epoch.scores.iter().any(|v| !v.is_finite()) {
            return fault("a score is not a finite number".into());
        }
    }
    None
}

/// Appends the `timeline` section: the word lists, then one frame, and one epoch of
/// neighbours, per line.
pub(super) fn write_timeline(w: &mut impl Write, out: &mut Vec<u8>, timeline: &Timeline) -> Result<()> {
    let numbers = |out: &mut Vec<u8>, values: &mut dyn Iterator<Item = String>| {
        out.push(b'[');
        for (i, value) in values.enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(value.as_bytes());
        }
        out.push(b']');
    };
    let floats = |out: &mut Vec<u8>, values: &[f32]| {
        out.push(b'[');
        for (i, &v) in values.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            json::write_f32(out, v);
        }
        out.push(b']');
    };
    out.extend_from_slice(b"\"timeline\":{");
    write_rows(w, out, "wordLists", timeline.word_lists.len(), |out, i| {
        numbers(out, &mut timeline.word_lists[i].iter().map(u32::to_string))
    })?;
    out.extend_from_slice(b",\n");
    write_rows(w, out, "frames", timeline.frames.len(), |out, i| {
        let f = &timeline.frames[i];
        let _ = write!(
            out,
            "{{\"epoch\":{},\"epochs\":{},\"tokensDone\":{},\"tokensTotal\":{},\"mapSpec\":",
            f.epoch, f.epochs, f.tokens_done, f.tokens_total
        );
        json::write_value(out, &f.map_spec);
        out.extend_from_slice(b",\"axisLabels\":[");
        json::write_string(out, &f.axis_labels[0]);
        out.push(b',');
        json::write_string(out, &f.axis_labels[1]);
        let _ = write!(out, "],\"words\":{},\"coords\":", f.word_list);
        floats(out, &f.coords);
        out.push(b'}');
    })?;
    if let Some(history) = &timeline.neighbours {
        let _ = write!(out, ",\n\"neighbours\":{{\"words\":{},\"k\":{},", history.n_words(), history.k());
        let epochs: Vec<&EpochNeighbours> = history.epochs().collect();
        write_rows(w, out, "epochs", epochs.len(), |out, i| {
            let e = epochs[i];
            let _ = write!(out, "{{\"epoch\":{},\"tokensDone\":{},\"ids\":", e.epoch, e.tokens_done);
            numbers(out, &mut e.ids.iter().map(u32::to_string));
            out.extend_from_slice(b",\"scores\":");
            floats(out, &e.scores);
            out.push(b'}');
        })?;
        out.push(b'}');
    }
    out.push(b'}');
    Ok(())
}

/// The `timeline` section with where its pieces start, for the line of a fault.
pub(super) struct TimelinePart {
    pub(super) timeline: Timeline,
    pub(super) at: usize,
    pub(super) word_lists_at: Vec<usize>,
    pub(super) frames_at: Vec<usize>,
    pub(super) neighbours_at: usize,
    pub(super) epochs_at: Vec<usize>,
}

// Reading the section, with the reader's helpers for raw values (in `read.rs`).
impl<'t> BundleReader<'t> {
    /// An array of finite `f32` numbers; `what(i)` names the i-th in messages.
    fn floats(&self, raw: &'t RawValue, whose: &str, what: &str) -> Result<Vec<f32>> {
        let mut values = Vec::new();
        self.array(
            raw,
            |kind| format!("{whose} must be an array of numbers, not {kind}"),
            |i, raw| {
                values.push(self.float(raw, || format!("{what} {} of {whose}", i + 1))?);
                Ok(())
            },
        )?;
        Ok(values)
    }

    /// An array of word ids.
    fn ids(&self, raw: &'t RawValue, whose: &str) -> Result<Vec<u32>> {
        let mut ids = Vec::new();
        self.array(
            raw,
            |kind| format!("{whose} must be an array of word ids, not {kind}"),
            |i, raw| {
                ids.push(self.small_number(raw, &format!("word id {} of {whose}", i + 1))?);
                Ok(())
            },
        )?;
        Ok(ids)
    }

    /// The optional `timeline` section (see the module documentation); null is none.
    pub(super) fn timeline(&self, raw: &'t RawValue) -> Result<Option<TimelinePart>> {
        if Self::kind(raw) == Kind::Null {
            return Ok(None);
        }
        let mut part = TimelinePart {
            timeline: Timeline::default(),
            at: self.at(raw),
            word_lists_at: Vec::new(),
            frames_at: Vec::new(),
            neighbours_at: 0,
            epochs_at: Vec::new(),
        };
        self.object(raw, "\"timeline\"", &["wordLists", "frames"], |key, raw| {
            match key {
                "wordLists" => self.array(
                    raw,
                    |kind| format!("\"wordLists\" must be an array of arrays of word ids, not {kind}"),
                    |i, raw| {
                        part.timeline.word_lists.push(self.ids(raw, &format!("word list {}", i + 1))?);
                        part.word_lists_at.push(self.at(raw));
                        Ok(())
                    },
                )?,
                "frames" => self.array(
                    raw,
                    |kind| format!("\"frames\" must be an array of objects, not {kind}"),
                    |i, raw| {
                        part.timeline.frames.push(self.timeline_frame(raw, i)?);
                        part.frames_at.push(self.at(raw));
                        Ok(())
                    },
                )?,
                "neighbours" => {
                    part.neighbours_at = self.at(raw);
                    if Self::kind(raw) != Kind::Null {
                        let (history, epochs_at) = self.neighbour_history(raw)?;
                        part.timeline.neighbours = Some(history);
                        part.epochs_at = epochs_at;
                    }
                }
                _ => {
                    self.value(raw, 2)?;
                }
            }
            Ok(())
        })?;
        Ok(Some(part))
    }

    fn timeline_frame(&self, raw: &'t RawValue, i: usize) -> Result<TimelineFrame> {
        let what = format!("frame {}", i + 1);
        let mut frame = TimelineFrame {
            epoch: 0,
            epochs: 0,
            tokens_done: 0,
            tokens_total: 0,
            map_spec: Value::Null,
            axis_labels: [String::new(), String::new()],
            word_list: 0,
            coords: Vec::new(),
        };
        // Older bundles name the map's settings "view"; they still read.
        let mut has_spec = false;
        self.object(raw, &what, &["words", "coords"], |key, raw| {
            let named = |name: &str| format!("\"{name}\" of {what}");
            match key {
                "epoch" => frame.epoch = self.small_number(raw, &named(key))?,
                "epochs" => frame.epochs = self.small_number(raw, &named(key))?,
                "tokensDone" => frame.tokens_done = self.whole_number(raw, &named(key))?,
                "tokensTotal" => frame.tokens_total = self.whole_number(raw, &named(key))?,
                "words" => frame.word_list = self.small_number(raw, &named(key))? as usize,
                "coords" => frame.coords = self.floats(raw, &named(key), "coordinate")?,
                "mapSpec" | "view" => {
                    has_spec = true;
                    frame.map_spec = self.value(raw, 4)?;
                    if Kind::of(&frame.map_spec) != Kind::Object {
                        let kind = Kind::of(&frame.map_spec);
                        return Err(
                            self.fault(self.at(raw), format!("{} must be an object, not {kind}", named(key)))
                        );
                    }
                }
                "axisLabels" => match self.value(raw, 4)?.as_array().map(Vec::as_slice) {
                    Some([Value::String(x), Value::String(y)]) => frame.axis_labels = [x.clone(), y.clone()],
                    _ => return Err(self.fault(self.at(raw), format!("{} must be two strings", named(key)))),
                },
                _ => {
                    self.value(raw, 4)?;
                }
            }
            Ok(())
        })?;
        if !has_spec {
            return Err(self.fault(self.at(raw), format!("{what} lacks the key \"mapSpec\"")));
        }
        Ok(frame)
    }

    fn neighbour_history(&self, raw: &'t RawValue) -> Result<(NeighbourHistory, Vec<usize>)> {
        let (mut n_words, mut k) = (0, 0);
        let mut epochs = Vec::new();
        let mut epochs_at = Vec::new();
        self.object(raw, "the timeline's \"neighbours\"", &["words", "k", "epochs"], |key, raw| {
            match key {
                "words" => n_words = self.small_number(raw, "the number of words with neighbours")? as usize,
                "k" => k = self.small_number(raw, "the number of neighbours")? as usize,
                "epochs" => self.array(
                    raw,
                    |kind| format!("the neighbours' \"epochs\" must be an array of objects, not {kind}"),
                    |i, raw| {
                        let what = format!("epoch record {} of the neighbours", i + 1);
                        let mut record =
                            EpochNeighbours { epoch: 0, tokens_done: 0, ids: Vec::new(), scores: Vec::new() };
                        self.object(raw, &what, &["epoch", "ids", "scores"], |key, raw| {
                            match key {
                                "epoch" => {
                                    record.epoch = self.small_number(raw, &format!("the epoch of {what}"))?
                                }
                                "tokensDone" => {
                                    record.tokens_done =
                                        self.whole_number(raw, &format!("\"tokensDone\" of {what}"))?
                                }
                                "ids" => record.ids = self.ids(raw, &what)?,
                                "scores" => record.scores = self.floats(raw, &what, "score")?,
                                _ => {
                                    self.value(raw, 5)?;
                                }
                            }
                            Ok(())
                        })?;
                        epochs.push(record);
                        epochs_at.push(self.at(raw));
                        Ok(())
                    },
                )?,
                _ => {
                    self.value(raw, 3)?;
                }
            }
            Ok(())
        })?;
        Ok((NeighbourHistory::from_epochs(n_words, k, epochs), epochs_at))
    }
}
