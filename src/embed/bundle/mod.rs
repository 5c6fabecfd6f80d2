//! The bundle: one JSON file that holds a whole run (the vectors, the vocabulary counts, the
//! training parameters, the fingerprint, the loss of each epoch and where the text came
//! from) and re-opens exactly. Words are JSON strings, so any token (spaces, newlines,
//! backslashes, any Unicode) is stored as itself, without the word2vec escape; floats are
//! written with Rust's shortest round-trip formatting, so every vector reads back with the
//! same bits.
//!
//! # Layout
//!
//! ```text
//! {"format":"embedscope-bundle","version":1,
//! "fingerprint":"9f0c2b1d5e6a7788",
//! "source":"kjv.txt",
//! "params":{"tokenizer":"bpe","dim":3,"window":5,"alpha":0.025,"seed":1},
//! "dim":3,
//! "epochLosses":[2.75,2.5],
//! "words":[
//! "the",
//! "from the dead",
//! "Jesus\n"
//! ],
//! "counts":[
//! 10,
//! 4,
//! 2
//! ],
//! "vectors":[
//! [0.1,-0.5,4e-3],
//! [2,0,-0],
//! [1e-45,3.4028235e38,-1.25]
//! ]}
//! ```
//!
//! | key           | holds                                                    | required |
//! |---------------|----------------------------------------------------------|----------|
//! | `format`      | `"embedscope-bundle"`                                    | yes      |
//! | `version`     | `1`; a reader rejects versions newer than its own        | yes      |
//! | `fingerprint` | the run fingerprint, a string                            | no       |
//! | `source`      | where the text came from (a file name), a string         | no       |
//! | `params`      | the training parameters as given, an object              | no       |
//! | `dim`         | the dimension of every vector, at least 1                | yes      |
//! | `epochLosses` | the mean loss of each finished epoch, numbers            | no       |
//! | `words`       | the words, most frequent first, strings                  | yes      |
//! | `counts`      | how often each word occurs, whole numbers, one per word  | no       |
//! | `vectors`     | one array of `dim` numbers per word, in the words' order | yes      |
//! | `timeline`    | the run's map through time, an object (below)            | no       |
//!
//! # The timeline
//!
//! A bundle saved after training in the explorer holds how its map looked as it was learned
//! (see `src/embed/timeline.rs`), after the vectors, so the keys above read as before and a
//! reader that does not know the section skips it:
//!
//! ```text
//! "timeline":{"wordLists":[
//! [0,1,2]
//! ],
//! "frames":[
//! {"epoch":1,"epochs":2,"tokensDone":0,"tokensTotal":40,"view":{"method":"tsne","nWords":3,"layout":{"perplexity":30}},"axisLabels":["t-SNE 1","t-SNE 2"],"words":0,"coords":[0.5,1,-2,0,3,1.5]}
//! ],
//! "neighbours":{"words":3,"k":2,"epochs":[
//! {"epoch":1,"tokensDone":20,"ids":[1,2,0,2,0,1],"scores":[0.9,0.1,0.9,0.3,0.3,0.1]}
//! ]}}
//! ```
//!
//! `wordLists` are lists of word ids (0-based indices into `words`); each frame names the list
//! it shows (`words`, 0-based), with two `coords` per word, the moment of training (`epoch`,
//! `epochs`, `tokensDone`, `tokensTotal`), how the map was made (`view`: `method` "pca",
//! "tsne" or "umap" with its parameters: components or word axes, t-SNE's perplexity, UMAP's
//! neighbours, …) and the axes' titles. `neighbours`, optional, holds each kept epoch's `k`
//! nearest neighbour ids of the `words` most frequent words, word after word, and their
//! cosines. The reader checks every id against `words`, the coordinate counts, and that
//! numbers are finite.
//!
//! The writer puts the small keys first, `format` and `version` on the first line (which
//! is what [`Bundle::sniff`] looks for), then one word, count or vector per line, so a diff
//! of two bundles shows lines of words.
//!
//! # Reading
//!
//! [`read_bundle`] takes the keys in any order, ignores keys it does not know (so version 1
//! can grow), and reads `null` for an optional key as absent. It checks everything and
//! reports the first fault as [`Error::Format`] with the 1-based line of the JSON text (0
//! when the fault is a key missing from the whole file): invalid JSON (with its column), a
//! file that is not a bundle, a newer version, a value of the wrong kind, numbers out of
//! `f32` range, vectors of the wrong length (naming the word), counts that do not match the
//! words, words that repeat, keys that repeat. The vectors are read straight into one
//! `Vec<f32>`, never into a tree of JSON values.
//!
//! serde_json does the parsing, in one pass over the text: `words`, `counts` and `vectors`
//! through seeds that take each element as its borrowed text (`&RawValue`), so a vector
//! component is parsed from its decimal straight to `f32` (rounding once; through `f64` it
//! could round twice); `format`, `params` and unknown keys as strict trees
//! (`crate::json::Strict`); the other keys as raw values. Where each value starts is known
//! from where its text lies in the file, which gives a fault its line. A value's kind is
//! judged by its first character before the value is read, so `"timeline":[…` is named as
//! an array even when what follows is no JSON; inside the timeline (read as raw values),
//! invalid JSON is reported before what is wrong in a valid part before it.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::{BufWriter, Write};

use serde::de::{self, DeserializeSeed, Deserializer as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::Embeddings;
use super::{EpochNeighbours, NeighbourHistory, Timeline, TimelineFrame};
use crate::error::{Error, Result};
use crate::json::{self, JsonError, Kind, Value, quoted};

/// The value of the `format` key.
const FORMAT: &str = "embedscope-bundle";

/// The version this build writes, and the newest it reads.
pub const BUNDLE_VERSION: u64 = 1;

/// How much of a file's start [`Bundle::sniff`] looks at.
const SNIFF_BYTES: usize = 512;

/// Lines are gathered in a buffer and written when it holds this many bytes.
const WRITE_CHUNK: usize = 1 << 16;

/// A whole run: what [`write_bundle`] stores and [`read_bundle`] gives back.
///
/// The file is one JSON object: `format` and `version`, then `fingerprint`, `source`,
/// `params`, `dim`, `epochLosses`, and one word, count and vector per line in `words`,
/// `counts` and `vectors`. Floats are written in Rust's shortest round-trip form, so the
/// vectors re-open bit-identical; words are plain JSON strings.
///
/// The writer checks what the fields cannot promise by their types: one count per word,
/// `params` an object, finite losses.
#[derive(Debug, Clone, PartialEq)]
pub struct Bundle {
    /// The words and their vectors, most frequent first.
    pub embeddings: Embeddings,
    /// How often each word occurs in the text, one count per word in the same order.
    pub counts: Option<Vec<u64>>,
    /// The training parameters as the page or CLI gave them (tokenizer, dim, window, …,
    /// seed): a JSON object, kept as written, so a later run can repeat this one.
    pub params: Option<Value>,
    /// The run fingerprint (see `embedscope::fingerprint`).
    pub fingerprint: Option<String>,
    /// The mean loss of each finished epoch, the first epoch first.
    pub epoch_losses: Vec<f64>,
    /// Where the text came from, such as its file name.
    pub source: Option<String>,
    /// The run's map through time and its neighbours per epoch, for replay.
    pub timeline: Option<Timeline>,
}

impl Bundle {
    /// A bundle of `embeddings` alone; set the other fields with struct update syntax.
    pub fn new(embeddings: Embeddings) -> Bundle {
        Bundle {
            embeddings,
            counts: None,
            params: None,
            fingerprint: None,
            epoch_losses: Vec::new(),
            source: None,
            timeline: None,
        }
    }

    /// Whether a file that starts with `head` looks like a bundle: after whitespace (and a
    /// byte order mark) it opens with `{`, and its first 512 bytes hold `"embedscope-bundle"`.
    /// Pass at least that many bytes when the file has them. This recognises every bundle
    /// [`write_bundle`] writes; a bundle written by hand with `format` far from the start
    /// is not recognised, but [`read_bundle`] still reads it.
    pub fn sniff(head: &[u8]) -> bool {
        let head = &head[..head.len().min(SNIFF_BYTES)];
        let body = head.strip_prefix("\u{feff}".as_bytes()).unwrap_or(head);
        let mark = format!("\"{FORMAT}\"");
        body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
            && body.windows(mark.len()).any(|window| window == mark.as_bytes())
    }
}

/// A bundle that borrows its parts, for writing vectors held elsewhere (shared with
/// queries, say) without copying them; [`write_bundle`] takes this or a `&Bundle`.
#[derive(Debug, Clone, Copy)]
pub struct BundleRef<'a> {
    /// The words and their vectors, most frequent first.
    pub embeddings: &'a Embeddings,
    /// How often each word occurs, one count per word in the same order.
    pub counts: Option<&'a [u64]>,
    /// The training parameters, a JSON object (see [`Bundle::params`]).
    pub params: Option<&'a Value>,
    /// The run fingerprint.
    pub fingerprint: Option<&'a str>,
    /// The mean loss of each finished epoch, the first epoch first.
    pub epoch_losses: &'a [f64],
    /// Where the text came from.
    pub source: Option<&'a str>,
    /// The run's map through time (see [`Bundle::timeline`]).
    pub timeline: Option<&'a Timeline>,
}

impl<'a> BundleRef<'a> {
    /// A bundle of `embeddings` alone; set the other fields with struct update syntax.
    pub fn new(embeddings: &'a Embeddings) -> BundleRef<'a> {
        BundleRef {
            embeddings,
            counts: None,
            params: None,
            fingerprint: None,
            epoch_losses: &[],
            source: None,
            timeline: None,
        }
    }
}

impl<'a> From<&'a Bundle> for BundleRef<'a> {
    fn from(bundle: &'a Bundle) -> BundleRef<'a> {
        BundleRef {
            embeddings: &bundle.embeddings,
            counts: bundle.counts.as_deref(),
            params: bundle.params.as_ref(),
            fingerprint: bundle.fingerprint.as_deref(),
            epoch_losses: &bundle.epoch_losses,
            source: bundle.source.as_deref(),
            timeline: bundle.timeline.as_ref(),
        }
    }
}

/// Writes `bundle` (a `&Bundle` or a [`BundleRef`]) as one JSON file in the bundle layout
/// (the module documentation of `src/embed/bundle/mod.rs` shows it, with an example).
///
/// Fails with [`Error::InvalidParameter`] (before writing anything) when `counts` does not
/// hold one count per word, when `params` is not an object, or when a loss is NaN or
/// infinite; and with [`Error::Io`] when writing fails.
pub fn write_bundle<'a>(bundle: impl Into<BundleRef<'a>>, writer: impl Write) -> Result<()> {
    let bundle = bundle.into();
    check_writable(&bundle)?;
    // Written line by hand, each piece with serde_json's escaping and `json`'s float form,
    // rather than by serializing a struct: serde_json's compact form would put the whole
    // file on one line, and its pretty form every number on a line of its own, where the
    // layout holds one word, count or vector per line (for diffs) and `format` and
    // `version` on the first (for `Bundle::sniff`); and the text goes out in chunks, so a
    // large bundle is never in memory twice.
    let emb = bundle.embeddings;
    let mut w = BufWriter::new(writer);
    let mut out = Vec::with_capacity(WRITE_CHUNK + 4096);
    out.extend_from_slice(b"{\"format\":");
    json::write_string(&mut out, FORMAT);
    let _ = writeln!(&mut out, ",\"version\":{BUNDLE_VERSION},");
    for (key, text) in [("fingerprint", bundle.fingerprint), ("source", bundle.source)] {
        if let Some(text) = text {
            let _ = write!(out, "\"{key}\":");
            json::write_string(&mut out, text);
            out.extend_from_slice(b",\n");
        }
    }
    if let Some(params) = bundle.params {
        out.extend_from_slice(b"\"params\":");
        json::write_value(&mut out, params);
        out.extend_from_slice(b",\n");
    }
    let _ = write!(out, "\"dim\":{},\n\"epochLosses\":[", emb.dim());
    for (i, &loss) in bundle.epoch_losses.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        json::write_f64(&mut out, loss);
    }
    out.extend_from_slice(b"],\n");
    write_rows(&mut w, &mut out, "words", emb.len(), |out, word_idx| {
        json::write_string(out, emb.word(word_idx))
    })?;
    out.extend_from_slice(b",\n");
    if let Some(counts) = bundle.counts {
        write_rows(&mut w, &mut out, "counts", counts.len(), |out, word_idx| {
            let _ = write!(out, "{}", counts[word_idx]);
        })?;
        out.extend_from_slice(b",\n");
    }
    write_rows(&mut w, &mut out, "vectors", emb.len(), |out, word_idx| {
        out.push(b'[');
        for (i, &v) in emb.vector(word_idx).iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            json::write_f32(out, v);
        }
        out.push(b']');
    })?;
    if let Some(timeline) = bundle.timeline {
        out.extend_from_slice(b",\n");
        write_timeline(&mut w, &mut out, timeline)?;
    }
    out.extend_from_slice(b"}\n");
    w.write_all(&out)?;
    w.flush()?;
    Ok(())
}

fn check_writable(bundle: &BundleRef<'_>) -> Result<()> {
    let n_words = bundle.embeddings.len();
    if let Some(counts) = bundle.counts.filter(|counts| counts.len() != n_words) {
        return Err(Error::InvalidParameter {
            name: "counts",
            value: format!("{} counts", counts.len()),
            expected: format!("one count per word ({n_words})"),
        });
    }
    if let Some(params) = bundle.params.filter(|params| Kind::of(params) != Kind::Object) {
        return Err(Error::InvalidParameter {
            name: "params",
            value: json::to_json(params),
            expected: "a JSON object".into(),
        });
    }
    if let Some((epoch, loss)) = bundle.epoch_losses.iter().enumerate().find(|(_, loss)| !loss.is_finite()) {
        return Err(Error::InvalidParameter {
            name: "epoch_losses",
            value: format!("{loss} (epoch {})", epoch + 1),
            expected: "finite numbers".into(),
        });
    }
    if let Some((_, message)) = bundle.timeline.and_then(|t| timeline_fault(t, n_words)) {
        return Err(Error::InvalidParameter {
            name: "timeline",
            value: message,
            expected: "a timeline of this bundle's words, with finite coordinates".into(),
        });
    }
    Ok(())
}

/// Where in a timeline a fault is, for the reader to name its line.
#[derive(Debug, Clone, Copy, PartialEq)]
enum TimelinePlace {
    WordList(usize),
    Frame(usize),
    Neighbours,
    Epoch(usize),
}

/// The first fault of a timeline for a bundle of `n_words` words, which both the writer and
/// the reader refuse: a word id beyond the words, a frame of another word list or with the
/// wrong number of coordinates, a coordinate or score that is not finite, a `view` that is
/// not an object, neighbours of the wrong shape.
fn timeline_fault(timeline: &Timeline, n_words: usize) -> Option<(TimelinePlace, String)> {
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
        if Kind::of(&frame.view) != Kind::Object {
            return fault(format!("\"view\" must be an object, not {}", Kind::of(&frame.view)));
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
fn write_timeline(w: &mut impl Write, out: &mut Vec<u8>, timeline: &Timeline) -> Result<()> {
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
            "{{\"epoch\":{},\"epochs\":{},\"tokensDone\":{},\"tokensTotal\":{},\"view\":",
            f.epoch, f.epochs, f.tokens_done, f.tokens_total
        );
        json::write_value(out, &f.view);
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

/// Appends `"key":[` and `n` rows, one per line, then `]`, writing `out` out whenever it
/// fills, so a large bundle never sits in memory twice.
fn write_rows(
    w: &mut impl Write,
    out: &mut Vec<u8>,
    key: &str,
    n: usize,
    mut row: impl FnMut(&mut Vec<u8>, usize),
) -> Result<()> {
    let _ = write!(out, "\"{key}\":[");
    for i in 0..n {
        out.extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
        row(out, i);
        if out.len() >= WRITE_CHUNK {
            w.write_all(out)?;
            out.clear();
        }
    }
    out.extend_from_slice(b"\n]");
    Ok(())
}

/// Reads a bundle written by [`write_bundle`], or by hand in the same layout.
///
/// Fails with [`Error::Format`] naming the line of the first fault; see the
/// module documentation of `src/embed/bundle/mod.rs` for what is checked.
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
struct Parts {
    format_seen: bool,
    version_seen: bool,
    dim: Option<usize>,
    words: Option<Words>,
    counts: Option<(usize, Vec<u64>)>,
    vectors: Option<Vectors>,
    epoch_losses: Vec<f64>,
    fingerprint: Option<String>,
    source: Option<String>,
    params: Option<Value>,
    timeline: Option<TimelinePart>,
}

/// The `timeline` section with where its pieces start, for the line of a fault.
struct TimelinePart {
    timeline: Timeline,
    at: usize,
    word_lists_at: Vec<usize>,
    frames_at: Vec<usize>,
    neighbours_at: usize,
    epochs_at: Vec<usize>,
}

struct Words {
    list: Vec<String>,
    offsets: Vec<usize>,
}

struct Vectors {
    at: usize,
    values: Vec<f32>,
    /// Each vector's offset and length.
    rows: Vec<(usize, usize)>,
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
struct BundleReader<'t> {
    text: &'t str,
    fault: RefCell<Option<Error>>,
    /// Values read in the same pass (format, params, unknown keys), as the tree they are.
    strict: json::Strict<'t>,
}

/// A JSON syntax error as the bundle's error.
fn invalid_json(err: JsonError) -> Error {
    Error::Format {
        line: err.line,
        message: format!("not valid JSON at column {}: {}", err.column, err.message),
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
    fn fault(&self, at: usize, message: String) -> Error {
        Error::Format { line: json::line_column(self.text, at).0, message }
    }

    /// Keeps `fault` for [`BundleReader::error`] and gives serde_json an error to unwind with.
    fn raise<E: de::Error>(&self, fault: Error) -> E {
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
    fn at(&self, raw: &RawValue) -> usize {
        json::offset_in(self.text, raw.get())
    }

    /// The kind of `raw`, which serde_json has checked is one JSON value.
    fn kind(raw: &RawValue) -> Kind {
        Kind::at(raw.get(), 0).unwrap_or(Kind::Null)
    }

    /// Checks that the value at `at` is of `kind`; `message` describes the fault from the
    /// kind found. Where no value starts, serde_json's reading of it reports the syntax.
    fn expect(&self, at: usize, kind: Kind, message: impl FnOnce(Kind) -> String) -> Result<()> {
        match Kind::at(self.text, at) {
            Some(found) if found != kind => Err(self.fault(at, message(found))),
            _ => Ok(()),
        }
    }

    /// A strict value (no repeated key, nesting capped), enclosed by `depth` levels.
    fn value(&self, raw: &RawValue, depth: usize) -> Result<Value> {
        json::strict_value(self.text, raw, depth).map_err(invalid_json)
    }

    fn string(&self, raw: &RawValue) -> Result<String> {
        json::string_value(self.text, raw).map_err(invalid_json)
    }

    /// Calls `element(index, raw)` for each element of the array `raw`; `message` describes
    /// the fault when it is not an array.
    fn array(
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
    fn object(
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
    fn number(&self, raw: &'t RawValue, what: impl FnOnce() -> String) -> Result<&'t str> {
        match Self::kind(raw) {
            Kind::Number => Ok(raw.get()),
            kind => Err(self.fault(self.at(raw), format!("{} is {kind}, not a number", what()))),
        }
    }

    fn whole_number(&self, raw: &'t RawValue, what: &str) -> Result<u64> {
        let text = self.number(raw, || what.to_string())?;
        text.parse()
            .map_err(|_| self.fault(self.at(raw), format!("{what} must be a whole number, found {text}")))
    }

    /// A whole number that fits a `u32`; `what` names it.
    fn small_number(&self, raw: &'t RawValue, what: &str) -> Result<u32> {
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
    fn tree_key(&self, key: &str, at: usize, value: Value, parts: &mut Parts) -> Result<()> {
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
    fn small_key(&self, key: &str, raw: &'t RawValue, parts: &mut Parts) -> Result<()> {
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
    fn float(&self, raw: &'t RawValue, what: impl Fn() -> String) -> Result<f32> {
        let text = self.number(raw, &what)?;
        let value: f32 = text.parse().unwrap_or(f32::NAN);
        if !value.is_finite() {
            return Err(self.fault(self.at(raw), format!("{} is {text}, beyond the range of f32", what())));
        }
        Ok(value)
    }

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
    fn timeline(&self, raw: &'t RawValue) -> Result<Option<TimelinePart>> {
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
            view: Value::Null,
            axis_labels: [String::new(), String::new()],
            word_list: 0,
            coords: Vec::new(),
        };
        self.object(raw, &what, &["view", "words", "coords"], |key, raw| {
            let named = |name: &str| format!("\"{name}\" of {what}");
            match key {
                "epoch" => frame.epoch = self.small_number(raw, &named(key))?,
                "epochs" => frame.epochs = self.small_number(raw, &named(key))?,
                "tokensDone" => frame.tokens_done = self.whole_number(raw, &named(key))?,
                "tokensTotal" => frame.tokens_total = self.whole_number(raw, &named(key))?,
                "words" => frame.word_list = self.small_number(raw, &named(key))? as usize,
                "coords" => frame.coords = self.floats(raw, &named(key), "coordinate")?,
                "view" => {
                    frame.view = self.value(raw, 4)?;
                    if Kind::of(&frame.view) != Kind::Object {
                        let kind = Kind::of(&frame.view);
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

/// The bundle's object on the whole text: the large arrays through their own seeds, the
/// other keys as raw values.
struct BundleVisitor<'r, 't> {
    r: &'r BundleReader<'t>,
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
struct Elements<'r, 't, F> {
    r: &'r BundleReader<'t>,
    element: F,
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
struct Members<'r, 't, 's, F> {
    r: &'r BundleReader<'t>,
    what: &'s str,
    seen: &'s mut HashSet<String>,
    field: F,
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

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, RngExt, SeedableRng};

    use super::*;
    use crate::fuzz::random_finite_f32;

    include!("../tricky_tokens.rs");

    fn words(ws: &[&str]) -> Vec<String> {
        ws.iter().map(|w| w.to_string()).collect()
    }

    fn bits(emb: &Embeddings) -> Vec<u32> {
        emb.raw().iter().map(|v| v.to_bits()).collect()
    }

    fn written(bundle: &Bundle) -> String {
        let mut file = Vec::new();
        write_bundle(bundle, &mut file).unwrap();
        String::from_utf8(file).unwrap()
    }

    /// Reads `text` back and checks it equals `bundle` to the bit.
    fn assert_reads_as(text: &str, bundle: &Bundle) {
        let back = read_bundle(text).unwrap_or_else(|err| panic!("{err}\n{text}"));
        assert_eq!(back.embeddings.words(), bundle.embeddings.words());
        assert_eq!(bits(&back.embeddings), bits(&bundle.embeddings));
        let loss_bits = |b: &Bundle| b.epoch_losses.iter().map(|l| l.to_bits()).collect::<Vec<_>>();
        assert_eq!(loss_bits(&back), loss_bits(bundle));
        assert_eq!(back, *bundle);
    }

    fn documented_bundle() -> Bundle {
        let vectors = vec![0.1, -0.5, 0.004, 2.0, 0.0, -0.0, 1e-45, f32::MAX, -1.25];
        let embeddings = Embeddings::new(words(&["the", "from the dead", "Jesus\n"]), 3, vectors).unwrap();
        let params = json::object(vec![
            ("tokenizer".into(), "bpe".into()),
            ("dim".into(), 3u64.into()),
            ("window".into(), 5u64.into()),
            ("alpha".into(), 0.025f64.into()),
            ("seed".into(), 1u64.into()),
        ]);
        Bundle {
            counts: Some(vec![10, 4, 2]),
            params: Some(params),
            fingerprint: Some("9f0c2b1d5e6a7788".into()),
            epoch_losses: vec![2.75, 2.5],
            source: Some("kjv.txt".into()),
            ..Bundle::new(embeddings)
        }
    }

    #[test]
    fn writes_the_documented_layout() {
        let expected = r#"{"format":"embedscope-bundle","version":1,
"fingerprint":"9f0c2b1d5e6a7788",
"source":"kjv.txt",
"params":{"tokenizer":"bpe","dim":3,"window":5,"alpha":0.025,"seed":1},
"dim":3,
"epochLosses":[2.75,2.5],
"words":[
"the",
"from the dead",
"Jesus\n"
],
"counts":[
10,
4,
2
],
"vectors":[
[0.1,-0.5,4e-3],
[2,0,-0],
[1e-45,3.4028235e38,-1.25]
]}
"#;
        let bundle = documented_bundle();
        assert_eq!(written(&bundle), expected);
        assert_reads_as(expected, &bundle);
        // The module documentation shows the same text.
        let doc: String = include_str!("mod.rs")
            .lines()
            .skip_while(|line| *line != "//! ```text")
            .skip(1)
            .take_while(|line| *line != "//! ```")
            .map(|line| format!("{}\n", line.strip_prefix("//! ").unwrap_or("")))
            .collect();
        assert_eq!(doc, expected);
    }

    #[test]
    fn a_borrowed_bundle_writes_the_same_file() {
        let bundle = documented_bundle();
        let borrowed = BundleRef {
            counts: bundle.counts.as_deref(),
            params: bundle.params.as_ref(),
            fingerprint: bundle.fingerprint.as_deref(),
            epoch_losses: &bundle.epoch_losses,
            source: bundle.source.as_deref(),
            ..BundleRef::new(&bundle.embeddings)
        };
        let mut file = Vec::new();
        write_bundle(borrowed, &mut file).unwrap();
        assert_eq!(String::from_utf8(file).unwrap(), written(&bundle));
    }

    #[test]
    fn a_bare_bundle_writes_only_the_required_keys() {
        let bundle = Bundle::new(Embeddings::new(words(&["a"]), 2, vec![1.0, -2.0]).unwrap());
        let text = written(&bundle);
        assert_eq!(
            text,
            "{\"format\":\"embedscope-bundle\",\"version\":1,\n\"dim\":2,\n\"epochLosses\":[],\n\
             \"words\":[\n\"a\"\n],\n\"vectors\":[\n[1,-2]\n]}\n"
        );
        assert_reads_as(&text, &bundle);
        let empty = Bundle::new(Embeddings::new(vec![], 4, vec![]).unwrap());
        assert_reads_as(&written(&empty), &empty);
    }

    /// The documented bundle with a timeline: two word lists, two frames (PCA, t-SNE) and
    /// two epochs of neighbours.
    fn timeline_bundle() -> Bundle {
        let view = |method: &str| {
            json::object(vec![("method".into(), method.into()), ("perplexity".into(), 30u64.into())])
        };
        let frame = |epoch, word_list, method: &str, coords: Vec<f32>| TimelineFrame {
            epoch,
            epochs: 2,
            tokens_done: 20 * u64::from(epoch),
            tokens_total: 40,
            view: view(method),
            axis_labels: ["PC1 (50.0 % of variance)".into(), "t-SNE \"2\"\n".into()],
            word_list,
            coords,
        };
        let epoch = |epoch, ids: Vec<u32>| EpochNeighbours {
            epoch,
            tokens_done: 20 * u64::from(epoch),
            ids,
            scores: vec![0.5, -0.25, 1e-45, 0.1, -0.0, 0.3],
        };
        Bundle {
            timeline: Some(Timeline {
                word_lists: vec![vec![0, 1, 2], vec![2, 0]],
                frames: vec![
                    frame(1, 0, "pca", vec![0.1, -0.2, 1e-45, 3.5, -0.0, 2.0]),
                    frame(2, 1, "tsne", vec![1.0, f32::MAX, -3.0, 4.0]),
                ],
                neighbours: Some(NeighbourHistory::from_epochs(
                    3,
                    2,
                    vec![epoch(1, vec![1, 2, 0, 2, 0, 1]), epoch(2, vec![2, 1, 2, 0, 1, 0])],
                )),
            }),
            ..documented_bundle()
        }
    }

    #[test]
    fn a_timeline_round_trips_bit_exactly_after_the_vectors() {
        let bundle = timeline_bundle();
        let text = written(&bundle);
        // The version 1 keys come first, unchanged; the section follows the vectors.
        let old = written(&documented_bundle());
        assert!(text.starts_with(old.strip_suffix("}\n").unwrap()), "{text}");
        assert!(text.contains("\n\"frames\":[\n{\"epoch\":1,\"epochs\":2,\"tokensDone\":20,\"tokensTotal\":40,\"view\":{\"method\":\"pca\",\"perplexity\":30},"), "{text}");
        assert_reads_as(&text, &bundle);
        let back = read_bundle(&text).unwrap();
        let coord_bits = |b: &Bundle| -> Vec<u32> {
            b.timeline
                .as_ref()
                .unwrap()
                .frames
                .iter()
                .flat_map(|f| f.coords.iter().map(|v| v.to_bits()))
                .collect()
        };
        assert_eq!(coord_bits(&back), coord_bits(&bundle));
        assert_eq!(written(&back), text);
    }

    #[test]
    fn a_bundle_written_before_timelines_opens_and_writes_the_same() {
        // A version 1 file as written before the timeline section existed.
        let old = written(&documented_bundle());
        assert!(!old.contains("timeline"));
        let bundle = read_bundle(&old).unwrap();
        assert_eq!(bundle.timeline, None);
        assert_eq!(written(&bundle), old);
        // And a null section is none.
        let null = old.replacen("\"dim\":3,", "\"timeline\":null,\"dim\":3,", 1);
        assert_eq!(read_bundle(&null).unwrap().timeline, None);
    }

    #[test]
    fn rejects_every_fault_in_the_timeline() {
        let text = written(&timeline_bundle());
        let line_of = |text: &str, piece: &str| {
            1 + text[..text.find(piece).unwrap_or_else(|| panic!("{piece}"))].matches('\n').count()
        };
        let cases: &[(&str, &str, &str)] = &[
            ("[2,0]", "[2,7]", "word list 2 names word id 7, and the bundle has 3 words"),
            ("\"words\":1,", "\"words\":4,", "frame 2: it shows word list 5, and there are 2 word lists"),
            ("[1,3.4028235e38,-3,4]", "[1,3.4028235e38,-3]", "frame 2: it has 3 coordinates for 2 words"),
            ("[1,3.4028235e38,-3,4]", "[1,3.5e38,-3,4]", "coordinate 2 of \"coords\" of frame 2 is 3.5e38"),
            (
                "{\"method\":\"tsne\",\"perplexity\":30}",
                "[\"tsne\"]",
                "\"view\" of frame 2 must be an object",
            ),
            (
                "\"axisLabels\":[\"PC1 (50.0 % of variance)\",\"t-SNE \\\"2\\\"\\n\"],\"words\":1",
                "\"axisLabels\":[\"x\"],\"words\":1",
                "\"axisLabels\" of frame 2 must be two strings",
            ),
            ("\"ids\":[2,1,2,0,1,0]", "\"ids\":[2,1,2,0,1]", "neighbours of epoch 2: 5 ids and 6 scores"),
            ("\"ids\":[2,1,2,0,1,0]", "\"ids\":[2,1,2,0,1,9]", "neighbours of epoch 2: word id 9"),
            ("\"ids\":[2,1,2,0,1,0]", "\"idz\":[2,1,2,0,1,0]", "lacks the key \"ids\""),
            ("\"k\":2", "\"k\":3", "neighbours of 3 words, 3 each"),
        ];
        for &(from, to, fragment) in cases {
            assert!(text.contains(from), "{from}");
            // The fault is reported on the line of the piece changed.
            let at = text.rfind(from).unwrap();
            let broken = format!("{}{to}{}", &text[..at], &text[at + from.len()..]);
            check(&broken, line_of(&text, &text[at..]).max(line_of(&broken, &broken[at..])), fragment);
        }
        check(
            &text.replacen("\"timeline\":{", "\"timeline\":[", 1),
            line_of(&text, "\"timeline\""),
            "must be an object",
        );
    }

    #[test]
    fn writer_rejects_a_timeline_it_could_not_read_back() {
        for broken in [
            |t: &mut Timeline| t.frames[0].coords[0] = f32::NAN,
            |t: &mut Timeline| t.frames[1].word_list = 2,
            |t: &mut Timeline| t.word_lists[0].push(3),
            |t: &mut Timeline| t.frames[0].view = Value::Null,
        ] {
            let mut bundle = timeline_bundle();
            broken(bundle.timeline.as_mut().unwrap());
            let err = write_bundle(&bundle, Vec::new()).unwrap_err();
            assert!(matches!(err, Error::InvalidParameter { name: "timeline", .. }), "{err:?}");
        }
    }

    #[test]
    fn round_trip_is_bit_exact_with_tricky_tokens() {
        let mut list = words(TRICKY);
        list.extend(words(&["", "\"quoted\"", "\u{0}nul", "\u{2029}", "\u{feff}bom", "\\u0041"]));
        let dim = 7;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
        let specials = [0.1f32, -0.0, 0.0, 1e-45, -1e-45, f32::MAX, f32::MIN, f32::MIN_POSITIVE, 1.0 / 3.0];
        let mut vectors: Vec<f32> = specials.to_vec();
        vectors.extend((specials.len()..list.len() * dim).map(|_| random_finite_f32(&mut rng)));
        let n = list.len();
        let tricky_params: Vec<(String, Value)> =
            TRICKY.iter().map(|t| (t.to_string(), Value::from(*t))).collect();
        let bundle = Bundle {
            counts: Some((0..n as u64).map(|i| u64::MAX - i).collect()),
            params: Some(json::object(vec![
                ("tokens".into(), json::object(tricky_params)),
                ("sample".into(), 1e-3f64.into()),
                ("lowercase".into(), true.into()),
                ("maxVocab".into(), Value::Null),
            ])),
            fingerprint: Some("0123456789abcdef".into()),
            epoch_losses: vec![5e-324, f64::MAX, 0.1, -0.0, 1.0 / 3.0],
            source: Some("C:\\texts\\\"bible\".txt\n".into()),
            ..Bundle::new(Embeddings::new(list, dim, vectors).unwrap())
        };
        let text = written(&bundle);
        assert!(Bundle::sniff(text.as_bytes()));
        // Every word has its own line, so a line is a word.
        assert_eq!(text.lines().count(), 6 + 3 * (n + 2));
        assert_reads_as(&text, &bundle);
    }

    #[test]
    fn generated_bundles_round_trip() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for round in 0..40 {
            let n = rng.random_range(0..30);
            let dim = rng.random_range(1..12);
            let mut list: Vec<String> = Vec::new();
            while list.len() < n {
                let len = rng.random_range(0..6);
                let word: String =
                    (0..len).map(|_| char::from_u32(rng.random_range(0..0x11_0000)).unwrap_or('?')).collect();
                if !list.contains(&word) {
                    list.push(word);
                }
            }
            let vectors: Vec<f32> = (0..n * dim).map(|_| random_finite_f32(&mut rng)).collect();
            let bundle = Bundle {
                counts: rng.random_bool(0.5).then(|| (0..n).map(|_| rng.next_u64()).collect()),
                epoch_losses: (0..rng.random_range(0..4)).map(|_| rng.random::<f64>() * 10.0).collect(),
                ..Bundle::new(Embeddings::new(list, dim, vectors).unwrap())
            };
            let text = written(&bundle);
            let back = read_bundle(&text).unwrap_or_else(|err| panic!("round {round}: {err}"));
            assert_eq!(bits(&back.embeddings), bits(&bundle.embeddings), "round {round}");
            assert_eq!(back, bundle, "round {round}");
        }
    }

    #[test]
    fn key_order_does_not_matter_and_unknown_keys_are_ignored() {
        let bundle = documented_bundle();
        let Ok(Value::Object(members)) = json::parse(&written(&bundle)) else { panic!("not an object") };
        let mut members: Vec<(String, Value)> = members.into_iter().collect();
        members.reverse();
        let reversed = json::to_json(&json::object(members.clone()));
        assert!(reversed.starts_with("{\"vectors\":[[0.1,-0.5,4e-3],"), "{reversed}");
        assert_reads_as(&reversed, &bundle);

        members
            .insert(3, ("comment".into(), json::parse(r#"{"any":[1,{"thing":null}],"vectors":7}"#).unwrap()));
        members.push(("trainedOn".into(), "a laptop".into()));
        let text = json::to_json(&json::object(members)).replace(",", " ,\r\n\t");
        assert_reads_as(&text, &bundle);

        // Optional keys may be null, and a byte order mark is skipped.
        let nulls = "\u{feff}{\"format\":\"embedscope-bundle\",\"version\":1,\"fingerprint\":null,\
                     \"source\":null,\"params\":null,\"counts\":null,\"epochLosses\":null,\
                     \"dim\":1,\"words\":[\"a\"],\"vectors\":[[0.5]]}";
        assert_reads_as(nulls, &Bundle::new(Embeddings::new(words(&["a"]), 1, vec![0.5]).unwrap()));
    }

    /// Checks that reading `text` fails on `line` with a message containing `fragment`.
    fn check(text: &str, line: usize, fragment: &str) {
        match read_bundle(text) {
            Err(Error::Format { line: got, message }) => {
                assert_eq!(got, line, "{text:?}: {message}");
                assert!(message.contains(fragment), "{text:?}: '{message}' lacks '{fragment}'");
            }
            other => panic!("{text:?}: expected a format error on line {line} ('{fragment}'), got {other:?}"),
        }
    }

    #[test]
    fn rejects_files_that_are_not_bundles_or_lack_keys() {
        let bundle = |keys: &str| format!(r#"{{"format":"embedscope-bundle",{keys}}}"#);
        // Table: (text, line, part of the message).
        let cases: Vec<(String, usize, &str)> = vec![
            ("".into(), 1, "not valid JSON at column 1: expected a JSON value, found the end of the text"),
            ("2 3\nthe 1 2 3\n".into(), 1, "it starts with a number, not a JSON object"),
            ("[1, 2]".into(), 1, "not an embedscope bundle: it starts with an array"),
            ("the 1 2".into(), 1, "not valid JSON at column 1: expected a JSON value, found 'the'"),
            (bundle("\n\"version\":1,\n\"dim\":2,,"), 3, "column 9: expected a key"),
            (r#"{"name":"package","version":1}"#.into(), 0, "not an embedscope bundle: it has no \"format\""),
            (r#"{"format":"word2vec"}"#.into(), 1, "not an embedscope bundle: \"format\" is \"word2vec\""),
            (r#"{"format":7}"#.into(), 1, "\"format\" is 7, not"),
            (bundle(r#""version":2,"dim":"?""#), 1, "version 2, newer than version 1"),
            (bundle(r#""version":"1""#), 1, "\"version\" is a string, not a number"),
            (bundle(r#""version":1.0"#), 1, "\"version\" must be a whole number, found 1.0"),
            (bundle(r#""version":0"#), 1, "\"version\" must be at least 1"),
            (bundle(r#""dim":1,"words":[],"vectors":[]"#), 0, "lacks the key \"version\""),
            (bundle(r#""version":1,"words":[],"vectors":[]"#), 0, "lacks the key \"dim\""),
            (bundle(r#""version":1,"dim":2,"vectors":[]"#), 0, "lacks the key \"words\""),
            (bundle(r#""version":1,"dim":2,"words":[]"#), 0, "lacks the key \"vectors\""),
            (bundle(r#""version":1,"dim":0"#), 1, "\"dim\" must be at least 1, found 0"),
            (bundle(r#""version":1,"dim":-2"#), 1, "\"dim\" must be a whole number"),
        ];
        for (text, line, fragment) in &cases {
            check(text, *line, fragment);
        }
    }

    #[test]
    fn rejects_every_fault_in_the_keys() {
        let bundle = |keys: &str| format!(r#"{{"format":"embedscope-bundle","version":1,"dim":2,{keys}}}"#);
        // The keys after "dim", all on line 1. Table: (keys, part of the message).
        let cases: &[(&str, &str)] = &[
            // Invalid JSON.
            (r#""words":["a"],"vectors":[[1,2]]} x"#, "unexpected 'x' after the JSON value"),
            (r#""words":["a",],"vectors":[[1,2]]"#, "trailing comma"),
            (r#""words":["a"],"vectors":[[1,NaN]]"#, "found 'NaN'"),
            (r#""words":["a"],"vectors":[[1,2]],"x":"#, "expected a JSON value, found '}'"),
            (r#""words":["a"],"vectors":[[1,-]]"#, "column 80: a number needs a digit after '-'"),
            (r#""words":["a"],"vectors":[[1,01]]"#, "column 79: a number cannot start with 0"),
            // Repeated and mistyped keys.
            (r#""dim":3,"words":[],"vectors":[]"#, "the key \"dim\" occurs twice"),
            (r#""words":"a b","vectors":[]"#, "\"words\" must be an array of strings, not a string"),
            (r#""words":["a",["b"]],"vectors":[]"#, "word 2 is an array, not a string"),
            (r#""vectors":{}"#, "\"vectors\" must be an array of arrays of numbers, not an object"),
            (r#""fingerprint":12,"words":[],"vectors":[]"#, "\"fingerprint\" must be a string, not a number"),
            (r#""source":["a"],"words":[],"vectors":[]"#, "\"source\" must be a string, not an array"),
            (r#""params":[1],"words":[],"vectors":[]"#, "\"params\" must be an object, not an array"),
            // Vectors.
            (r#""words":["a","b"],"vectors":[[1,2]]"#, "there are 2 words but 1 vectors"),
            (r#""words":["a"],"vectors":[[1,2],[3,4]]"#, "there are 1 words but 2 vectors"),
            (r#""words":["a","b"],"vectors":[[1,2],[3]]"#, "the vector of \"b\" has 1 value; \"dim\" is 2"),
            (r#""words":["a\n"],"vectors":[[1,2,3]]"#, "the vector of \"a\\n\" has 3 values"),
            (r#""words":["a","b"],"vectors":[[1,2],7]"#, "the vector of \"b\" is a number, not an array"),
            (r#""words":["a"],"vectors":[[1,"2"]]"#, "value 2 of the vector of \"a\" is a string, not"),
            (r#""words":["a"],"vectors":[[null,2]]"#, "value 1 of the vector of \"a\" is null, not a number"),
            (r#""vectors":[[1,2],[true,2]],"words":["a","b"]"#, "value 1 of vector 2 is true or false"),
            (r#""words":["a"],"vectors":[[1,1e39]]"#, "value 2 of the vector of \"a\" is 1e39, beyond"),
            (r#""words":["a"],"vectors":[[-3.5e38,1]]"#, "is -3.5e38, beyond the range of f32"),
            // Counts and losses.
            (r#""words":["a","b"],"counts":[3],"vectors":[[1,2],[3,4]]"#, "2 words, 1 counts"),
            (r#""words":["a"],"counts":[1.5],"vectors":[[1,2]]"#, "count 1 (of \"a\") must be a whole"),
            (r#""counts":[-1],"words":["a"],"vectors":[[1,2]]"#, "count 1 must be a whole number from 0"),
            (r#""words":["a"],"counts":["1"],"vectors":[[1,2]]"#, "count 1 (of \"a\") is a string"),
            (r#""words":["a"],"counts":7,"vectors":[[1,2]]"#, "\"counts\" must be an array of whole numbers"),
            (r#""epochLosses":[1,"x"],"words":[],"vectors":[]"#, "epoch loss 2 is a string, not a number"),
            (r#""epochLosses":[1e400],"words":[],"vectors":[]"#, "epoch loss 1 is 1e400, beyond the range"),
            // Words that repeat.
            (r#""words":["a","a"],"vectors":[[1,2],[3,4]]"#, "the word \"a\" occurs twice (words 1 and 2)"),
        ];
        for &(keys, fragment) in cases {
            check(&bundle(keys), 1, fragment);
        }
        let deep = format!(r#"{{"format":"embedscope-bundle","x":{}"#, "[".repeat(200));
        check(&deep, 1, "nest deeper than 128");
    }

    #[test]
    fn vector_components_are_rounded_once_from_their_text() {
        // Just above the midpoint between 1 and the next f32 up: read through f64 (as
        // serde_json would give it) it lands on the midpoint and ties to even, down.
        let text = r#"{"format":"embedscope-bundle","version":1,"dim":2,"words":["a"],
            "vectors":[[1.00000005960464477539062500000001,-1e-50]]}"#;
        let bundle = read_bundle(text).unwrap();
        assert_eq!(bits(&bundle.embeddings), [(1.0f32 + f32::EPSILON).to_bits(), (-0.0f32).to_bits()]);
    }

    #[test]
    fn trees_in_a_bundle_are_read_strictly() {
        let bundle = |keys: &str| {
            format!(
                r#"{{"format":"embedscope-bundle","version":1,"dim":1,"words":["a"],"vectors":[[1]],{keys}}}"#
            )
        };
        // serde_json would keep the last of two equal keys.
        check(&bundle(r#""params":{"seed":1,"seed":2}"#), 1, "the key \"seed\" occurs twice in this object");
        check(&bundle(r#""x":[{"a":{},"a":[]}]"#), 1, "the key \"a\" occurs twice in this object");
        check(&bundle(r#""params":{"x":1e400}"#), 1, "the number 1e400 is beyond the range of f64");
        // 128 levels in all are read (the bundle, params and 126 arrays), 129 are not;
        // serde_json's own limit would stop at 127.
        let nested = |depth: usize| format!(r#""params":{{"x":{}{}}}"#, "[".repeat(depth), "]".repeat(depth));
        assert!(read_bundle(&bundle(&nested(126))).is_ok());
        check(&bundle(&nested(127)), 1, "arrays and objects nest deeper than 128 levels");
        // Columns count characters, not bytes.
        let text = bundle(r#""source":"日本語 🦀","x":[1,-]"#);
        let at = text.find("-]").unwrap() + 1;
        let column = text[..at].chars().count() + 1;
        assert!(column < at + 1);
        check(&text, 1, &format!("not valid JSON at column {column}: a number needs a digit after '-'"));
    }

    #[test]
    fn faults_name_the_line_they_are_on() {
        let text = written(&documented_bundle());
        // The line of `from`'s first non-blank character.
        let line_of = |from: &str| {
            let at = text.find(from).unwrap() + from.len() - from.trim_start().len();
            text[..at].matches('\n').count() + 1
        };
        let cases = [
            ("[2,0,-0]", "[2,0]", "the vector of \"from the dead\" has 2 values; \"dim\" is 3"),
            ("[2,0,-0]", "[2,0,\"-0\"]", "value 3 of the vector of \"from the dead\" is a string"),
            ("[2,0,-0]", "[2,0,-0,]", "not valid JSON at column 8: a trailing comma before ']'"),
            ("\"Jesus\\n\"", "\"the\"", "the word \"the\" occurs twice (words 1 and 3)"),
            ("\"kjv.txt\"", "\"kjv.txt", "control character U+000A in a string"),
            ("\n\"dim\":3", "\n\"dim\":3.5", "\"dim\" must be a whole number, found 3.5"),
            (
                "\"counts\":[",
                "\"counts\":[\n1,",
                "\"counts\" must hold one count per word: 3 words, 4 counts",
            ),
        ];
        for (from, to, fragment) in cases {
            let line = line_of(from);
            check(&text.replacen(from, to, 1), line, fragment);
        }
    }

    #[test]
    fn writer_rejects_what_it_could_not_read_back() {
        let emb = Embeddings::new(words(&["a", "b"]), 1, vec![1.0, 2.0]).unwrap();
        let cases = [
            (Bundle { counts: Some(vec![1]), ..Bundle::new(emb.clone()) }, "counts"),
            (Bundle { params: Some(Value::from("word")), ..Bundle::new(emb.clone()) }, "params"),
            (Bundle { epoch_losses: vec![1.0, f64::NAN], ..Bundle::new(emb.clone()) }, "epoch_losses"),
            (Bundle { epoch_losses: vec![f64::INFINITY], ..Bundle::new(emb.clone()) }, "epoch_losses"),
        ];
        for (bundle, field) in cases {
            let mut out = Vec::new();
            match write_bundle(&bundle, &mut out) {
                Err(Error::InvalidParameter { name, .. }) => assert_eq!(name, field),
                other => panic!("{field}: {other:?}"),
            }
            assert!(out.is_empty());
        }
    }

    #[test]
    fn sniff_recognises_bundles_only() {
        let text = written(&documented_bundle());
        assert!(Bundle::sniff(text.as_bytes()));
        assert!(Bundle::sniff(&text.as_bytes()[..60]));
        assert!(Bundle::sniff(format!("\u{feff} \r\n\t{text}").as_bytes()));
        let far = format!("{{\"x\":\"{}\",\"format\":\"embedscope-bundle\"}}", " ".repeat(600));
        let cases: [&[u8]; 7] = [
            b"",
            b"{",
            b"2 3\nthe 1 2 3\n",
            b"[\"embedscope-bundle\"]",
            b"{\"format\":\"embedscope-bundles\"}",
            b"x{\"format\":\"embedscope-bundle\"}",
            far.as_bytes(),
        ];
        for head in cases {
            assert!(!Bundle::sniff(head), "{:?}", String::from_utf8_lossy(head));
        }
        // That last one is still a JSON text read_bundle reads as far as its keys go.
        check(&far, 0, "lacks the key \"version\"");
    }

    #[test]
    fn random_and_mutated_bundles_never_panic() {
        let keys = [
            "\"words\"",
            "\"vectors\"",
            "\"counts\"",
            "\"dim\"",
            "\"version\"",
            "-1",
            "\"coords\"",
            "\"ids\"",
        ];
        let interesting = [crate::fuzz::JSON_PIECES, &keys].concat();
        // The bundle as before, and one with a timeline (longer, so fewer of its mutations read).
        for (document, seed, least) in
            [(written(&documented_bundle()), 41, 100), (written(&timeline_bundle()), 42, 60)]
        {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut read = 0;
            for _ in 0..2_000 {
                let text = crate::fuzz::random_or_mutated(&mut rng, &document, &interesting);
                let _ = Bundle::sniff(text.as_bytes());
                match read_bundle(&text) {
                    // What was read writes out and reads back the same.
                    Ok(bundle) => {
                        read += 1;
                        assert_reads_as(&written(&bundle), &bundle);
                    }
                    Err(err) => assert!(matches!(err, Error::Format { .. }), "{err:?}"),
                }
            }
            assert!(read > least, "{read}");
        }
    }
}
