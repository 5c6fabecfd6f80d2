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

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::{BufWriter, Write};

use super::Embeddings;
use super::{EpochNeighbours, NeighbourHistory, Timeline, TimelineFrame};
use crate::error::{Error, Result};
use crate::json::{self, JsonError, Kind, Reader, Value, quoted};

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
/// (the module documentation of `src/embed/bundle.rs` shows it, with an example).
///
/// Fails with [`Error::InvalidParameter`] (before writing anything) when `counts` does not
/// hold one count per word, when `params` is not an object, or when a loss is NaN or
/// infinite; and with [`Error::Io`] when writing fails.
pub fn write_bundle<'a>(bundle: impl Into<BundleRef<'a>>, writer: impl Write) -> Result<()> {
    let bundle = bundle.into();
    check_writable(&bundle)?;
    let emb = bundle.embeddings;
    let mut w = BufWriter::new(writer);
    let mut out = String::with_capacity(WRITE_CHUNK + 4096);
    out.push_str("{\"format\":");
    json::write_string(&mut out, FORMAT);
    let _ = writeln!(out, ",\"version\":{BUNDLE_VERSION},");
    for (key, text) in [("fingerprint", bundle.fingerprint), ("source", bundle.source)] {
        if let Some(text) = text {
            let _ = write!(out, "\"{key}\":");
            json::write_string(&mut out, text);
            out.push_str(",\n");
        }
    }
    if let Some(params) = bundle.params {
        out.push_str("\"params\":");
        params.write_json(&mut out);
        out.push_str(",\n");
    }
    let _ = write!(out, "\"dim\":{},\n\"epochLosses\":[", emb.dim());
    for (i, &loss) in bundle.epoch_losses.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json::write_f64(&mut out, loss);
    }
    out.push_str("],\n");
    write_rows(&mut w, &mut out, "words", emb.len(), |out, word_idx| {
        json::write_string(out, emb.word(word_idx))
    })?;
    out.push_str(",\n");
    if let Some(counts) = bundle.counts {
        write_rows(&mut w, &mut out, "counts", counts.len(), |out, word_idx| {
            let _ = write!(out, "{}", counts[word_idx]);
        })?;
        out.push_str(",\n");
    }
    write_rows(&mut w, &mut out, "vectors", emb.len(), |out, word_idx| {
        out.push('[');
        for (i, &v) in emb.vector(word_idx).iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            json::write_f32(out, v);
        }
        out.push(']');
    })?;
    if let Some(timeline) = bundle.timeline {
        out.push_str(",\n");
        write_timeline(&mut w, &mut out, timeline)?;
    }
    out.push_str("}\n");
    w.write_all(out.as_bytes())?;
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
    if let Some(params) = bundle.params.filter(|params| params.kind() != Kind::Object) {
        return Err(Error::InvalidParameter {
            name: "params",
            value: params.to_json(),
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
        if frame.view.kind() != Kind::Object {
            return fault(format!("\"view\" must be an object, not {}", frame.view.kind()));
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
fn write_timeline(w: &mut impl Write, out: &mut String, timeline: &Timeline) -> Result<()> {
    let numbers = |out: &mut String, values: &mut dyn Iterator<Item = String>| {
        out.push('[');
        for (i, value) in values.enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&value);
        }
        out.push(']');
    };
    let floats = |out: &mut String, values: &[f32]| {
        out.push('[');
        for (i, &v) in values.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            json::write_f32(out, v);
        }
        out.push(']');
    };
    out.push_str("\"timeline\":{");
    write_rows(w, out, "wordLists", timeline.word_lists.len(), |out, i| {
        numbers(out, &mut timeline.word_lists[i].iter().map(u32::to_string))
    })?;
    out.push_str(",\n");
    write_rows(w, out, "frames", timeline.frames.len(), |out, i| {
        let f = &timeline.frames[i];
        let _ = write!(
            out,
            "{{\"epoch\":{},\"epochs\":{},\"tokensDone\":{},\"tokensTotal\":{},\"view\":",
            f.epoch, f.epochs, f.tokens_done, f.tokens_total
        );
        f.view.write_json(out);
        out.push_str(",\"axisLabels\":[");
        json::write_string(out, &f.axis_labels[0]);
        out.push(',');
        json::write_string(out, &f.axis_labels[1]);
        let _ = write!(out, "],\"words\":{},\"coords\":", f.word_list);
        floats(out, &f.coords);
        out.push('}');
    })?;
    if let Some(history) = &timeline.neighbours {
        let _ = write!(out, ",\n\"neighbours\":{{\"words\":{},\"k\":{},", history.n_words(), history.k());
        let epochs: Vec<&EpochNeighbours> = history.epochs().collect();
        write_rows(w, out, "epochs", epochs.len(), |out, i| {
            let e = epochs[i];
            let _ = write!(out, "{{\"epoch\":{},\"tokensDone\":{},\"ids\":", e.epoch, e.tokens_done);
            numbers(out, &mut e.ids.iter().map(u32::to_string));
            out.push_str(",\"scores\":");
            floats(out, &e.scores);
            out.push('}');
        })?;
        out.push('}');
    }
    out.push('}');
    Ok(())
}

/// Appends `"key":[` and `n` rows, one per line, then `]`, writing `out` out whenever it
/// fills, so a large bundle never sits in memory twice.
fn write_rows(
    w: &mut impl Write,
    out: &mut String,
    key: &str,
    n: usize,
    mut row: impl FnMut(&mut String, usize),
) -> Result<()> {
    let _ = write!(out, "\"{key}\":[");
    for i in 0..n {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        row(out, i);
        if out.len() >= WRITE_CHUNK {
            w.write_all(out.as_bytes())?;
            out.clear();
        }
    }
    out.push_str("\n]");
    Ok(())
}

/// Reads a bundle written by [`write_bundle`], or by hand in the same layout.
///
/// Fails with [`Error::Format`] naming the line of the first fault; see the
/// module documentation of `src/embed/bundle.rs` for what is checked.
pub fn read_bundle(text: &str) -> Result<Bundle> {
    let mut r = BundleReader { json: Reader::new(text), text_len: text.len() };
    match r.peek_kind()? {
        Kind::Object => {}
        kind => {
            let at = r.json.offset();
            return Err(
                r.fault(at, format!("not an embedscope bundle: it starts with {kind}, not a JSON object"))
            );
        }
    }
    r.json.begin_object().map_err(invalid_json)?;
    let mut parts = Parts::default();
    let mut keys: HashSet<String> = HashSet::new();
    while let Some(key) = r.json.next_key().map_err(invalid_json)? {
        let at = r.json.offset();
        if keys.contains(&key) {
            return Err(r.fault(at, format!("the key {} occurs twice", quoted(&key))));
        }
        match key.as_str() {
            "format" => {
                let format = r.value()?;
                if format.as_str() != Some(FORMAT) {
                    return Err(r.fault(
                        at,
                        format!(
                            "not an embedscope bundle: \"format\" is {}, not \"{FORMAT}\"",
                            shown(&format)
                        ),
                    ));
                }
                parts.format_seen = true;
            }
            "version" => {
                let version = r.whole_number("\"version\"")?;
                if version > BUNDLE_VERSION {
                    return Err(r.fault(
                        at,
                        format!(
                            "this bundle has version {version}, newer than version {BUNDLE_VERSION} that \
                             this embedscope reads; open it with a newer embedscope"
                        ),
                    ));
                }
                if version == 0 {
                    return Err(r.fault(at, "\"version\" must be at least 1, found 0".into()));
                }
                parts.version_seen = true;
            }
            "dim" => {
                let dim = r.whole_number("\"dim\"")?;
                parts.dim = match usize::try_from(dim) {
                    Ok(0) => return Err(r.fault(at, "\"dim\" must be at least 1, found 0".into())),
                    Ok(dim) => Some(dim),
                    Err(_) => {
                        return Err(r.fault(at, format!("\"dim\" is {dim}, too large for this machine")));
                    }
                };
            }
            "fingerprint" => parts.fingerprint = r.optional_string("\"fingerprint\"")?,
            "source" => parts.source = r.optional_string("\"source\"")?,
            "params" => {
                let params = r.value()?;
                parts.params = match params.kind() {
                    Kind::Null => None,
                    Kind::Object => Some(params),
                    kind => return Err(r.fault(at, format!("\"params\" must be an object, not {kind}"))),
                };
            }
            "epochLosses" => parts.epoch_losses = r.epoch_losses()?,
            "words" => parts.words = Some(r.words()?),
            "counts" => parts.counts = r.counts(parts.words.as_ref())?,
            "vectors" => parts.vectors = Some(r.vectors(parts.words.as_ref(), parts.dim)?),
            "timeline" => parts.timeline = r.timeline()?,
            _ => {
                r.value()?;
            }
        }
        keys.insert(key);
    }
    r.json.finish().map_err(invalid_json)?;
    r.assemble(parts)
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

/// A [`Reader`] whose faults are [`Error::Format`]s.
struct BundleReader<'a> {
    json: Reader<'a>,
    text_len: usize,
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
    let json = value.to_json();
    match json.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &json[..cut]),
        None => json,
    }
}

impl<'a> BundleReader<'a> {
    /// A fault in a well-formed JSON text, on the line of byte `at`.
    fn fault(&self, at: usize, message: String) -> Error {
        Error::Format { line: self.json.line_column(at).0, message }
    }

    /// The kind of the next value; where no value starts, the JSON syntax error.
    fn peek_kind(&mut self) -> Result<Kind> {
        match self.json.peek_kind() {
            Some(kind) => Ok(kind),
            None => Err(self
                .json
                .value()
                .err()
                .map_or_else(|| Error::Format { line: 0, message: "not valid JSON".into() }, invalid_json)),
        }
    }

    /// Checks that the next value is of `kind`; `message` describes the fault from the kind found.
    fn expect(&mut self, kind: Kind, message: impl FnOnce(Kind) -> String) -> Result<usize> {
        let found = self.peek_kind()?;
        let at = self.json.offset();
        if found == kind { Ok(at) } else { Err(self.fault(at, message(found))) }
    }

    fn value(&mut self) -> Result<Value> {
        self.json.value().map_err(invalid_json)
    }

    /// Reads an array, calling `element(self, index, offset)` with the reader on each element.
    fn array(
        &mut self,
        message: impl FnOnce(Kind) -> String,
        mut element: impl FnMut(&mut Self, usize, usize) -> Result<()>,
    ) -> Result<()> {
        self.expect(Kind::Array, message)?;
        self.json.begin_array().map_err(invalid_json)?;
        let mut i = 0;
        while self.json.next_element().map_err(invalid_json)? {
            let at = self.json.offset();
            element(self, i, at)?;
            i += 1;
        }
        Ok(())
    }

    /// Reads a number's text; `what` names it in messages ("value 2 of the vector of \"a\"").
    fn number(&mut self, what: impl FnOnce() -> String) -> Result<&'a str> {
        self.expect(Kind::Number, |kind| format!("{} is {kind}, not a number", what()))?;
        self.json.number().map_err(invalid_json)
    }

    fn whole_number(&mut self, what: &str) -> Result<u64> {
        let at = self.json.offset();
        let text = self.number(|| what.to_string())?;
        let fault = format!("{what} must be a whole number, found {text}");
        text.parse().map_err(|_| self.fault(at, fault))
    }

    fn optional_string(&mut self, what: &str) -> Result<Option<String>> {
        let at = self.json.offset();
        match self.value()? {
            Value::Null => Ok(None),
            Value::String(text) => Ok(Some(text)),
            other => Err(self.fault(at, format!("{what} must be a string, not {}", other.kind()))),
        }
    }

    fn epoch_losses(&mut self) -> Result<Vec<f64>> {
        let mut losses = Vec::new();
        if self.peek_kind()? == Kind::Null {
            self.value()?;
            return Ok(losses);
        }
        self.array(
            |kind| format!("\"epochLosses\" must be an array of numbers, not {kind}"),
            |r, i, at| {
                let text = r.number(|| format!("epoch loss {}", i + 1))?;
                let loss: f64 = text.parse().unwrap_or(f64::NAN);
                if !loss.is_finite() {
                    return Err(
                        r.fault(at, format!("epoch loss {} is {text}, beyond the range of f64", i + 1))
                    );
                }
                losses.push(loss);
                Ok(())
            },
        )?;
        Ok(losses)
    }

    fn words(&mut self) -> Result<Words> {
        let mut words = Words { list: Vec::new(), offsets: Vec::new() };
        self.array(
            |kind| format!("\"words\" must be an array of strings, not {kind}"),
            |r, i, at| {
                r.expect(Kind::String, |kind| format!("word {} is {kind}, not a string", i + 1))?;
                words.list.push(r.json.string().map_err(invalid_json)?);
                words.offsets.push(at);
                Ok(())
            },
        )?;
        Ok(words)
    }

    fn counts(&mut self, words: Option<&Words>) -> Result<Option<(usize, Vec<u64>)>> {
        let at = self.json.offset();
        if self.peek_kind()? == Kind::Null {
            self.value()?;
            return Ok(None);
        }
        let mut counts = Vec::new();
        self.array(
            |kind| format!("\"counts\" must be an array of whole numbers, not {kind}"),
            |r, i, at| {
                let whose = || match words.and_then(|words| words.list.get(i)) {
                    Some(word) => format!("count {} (of {})", i + 1, quoted(word)),
                    None => format!("count {}", i + 1),
                };
                let text = r.number(whose)?;
                let count = text.parse().map_err(|_| {
                    r.fault(at, format!("{} must be a whole number from 0, found {text}", whose()))
                })?;
                counts.push(count);
                Ok(())
            },
        )?;
        Ok(Some((at, counts)))
    }

    /// Reads the vectors into one `Vec<f32>`; their lengths are checked once `dim` is surely known.
    fn vectors(&mut self, words: Option<&Words>, dim: Option<usize>) -> Result<Vectors> {
        let at = self.json.offset();
        let mut values = Vec::new();
        if let (Some(words), Some(dim)) = (words, dim) {
            // Every number takes at least two bytes of text, which bounds a hostile "dim".
            values.reserve(words.list.len().saturating_mul(dim).min(self.text_len / 2));
        }
        let mut rows = Vec::new();
        let name = |row: usize| match words.and_then(|words| words.list.get(row)) {
            Some(word) => format!("the vector of {}", quoted(word)),
            None => format!("vector {}", row + 1),
        };
        self.array(
            |kind| format!("\"vectors\" must be an array of arrays of numbers, not {kind}"),
            |r, row, row_at| {
                let start = values.len();
                r.array(
                    |kind| format!("{} is {kind}, not an array of numbers", name(row)),
                    |r, i, at| {
                        let text = r.number(|| format!("value {} of {}", i + 1, name(row)))?;
                        let value: f32 = text.parse().unwrap_or(f32::NAN);
                        if !value.is_finite() {
                            return Err(r.fault(
                                at,
                                format!(
                                    "value {} of {} is {text}, beyond the range of f32",
                                    i + 1,
                                    name(row)
                                ),
                            ));
                        }
                        values.push(value);
                        Ok(())
                    },
                )?;
                rows.push((row_at, values.len() - start));
                Ok(())
            },
        )?;
        Ok(Vectors { at, values, rows })
    }

    /// A whole number that fits a `u32`; `what` names it.
    fn small_number(&mut self, what: &str) -> Result<u32> {
        let at = self.json.offset();
        let n = self.whole_number(what)?;
        u32::try_from(n).map_err(|_| self.fault(at, format!("{what} is {n}, too large")))
    }

    /// An array of finite `f32` numbers; `what(i)` names the i-th in messages.
    fn floats(&mut self, whose: &str, what: &str) -> Result<Vec<f32>> {
        let mut values = Vec::new();
        self.array(
            |kind| format!("{whose} must be an array of numbers, not {kind}"),
            |r, i, at| {
                let text = r.number(|| format!("{what} {} of {whose}", i + 1))?;
                let value: f32 = text.parse().unwrap_or(f32::NAN);
                if !value.is_finite() {
                    return Err(r.fault(
                        at,
                        format!("{what} {} of {whose} is {text}, beyond the range of f32", i + 1),
                    ));
                }
                values.push(value);
                Ok(())
            },
        )?;
        Ok(values)
    }

    /// An array of word ids.
    fn ids(&mut self, whose: &str) -> Result<Vec<u32>> {
        let mut ids = Vec::new();
        self.array(
            |kind| format!("{whose} must be an array of word ids, not {kind}"),
            |r, i, _| {
                ids.push(r.small_number(&format!("word id {} of {whose}", i + 1))?);
                Ok(())
            },
        )?;
        Ok(ids)
    }

    /// Reads the object of `what` key by key with `field(self, key, offset)`, unknown keys
    /// skipped by `field` itself; then checks none of `required` was missing.
    fn object(
        &mut self,
        what: &str,
        required: &[&str],
        mut field: impl FnMut(&mut Self, &str, usize) -> Result<()>,
    ) -> Result<usize> {
        let at = self.expect(Kind::Object, |kind| format!("{what} must be an object, not {kind}"))?;
        self.json.begin_object().map_err(invalid_json)?;
        let mut seen: HashSet<String> = HashSet::new();
        while let Some(key) = self.json.next_key().map_err(invalid_json)? {
            let key_at = self.json.offset();
            if !seen.insert(key.clone()) {
                return Err(self.fault(key_at, format!("the key {} occurs twice in {what}", quoted(&key))));
            }
            field(self, &key, key_at)?;
        }
        if let Some(key) = required.iter().find(|key| !seen.contains(**key)) {
            return Err(self.fault(at, format!("{what} lacks the key \"{key}\"")));
        }
        Ok(at)
    }

    /// The optional `timeline` section (see the module documentation); null is none.
    fn timeline(&mut self) -> Result<Option<TimelinePart>> {
        if self.peek_kind()? == Kind::Null {
            self.value()?;
            return Ok(None);
        }
        let mut part = TimelinePart {
            timeline: Timeline::default(),
            at: 0,
            word_lists_at: Vec::new(),
            frames_at: Vec::new(),
            neighbours_at: 0,
            epochs_at: Vec::new(),
        };
        part.at = self.object("\"timeline\"", &["wordLists", "frames"], |r, key, at| {
            match key {
                "wordLists" => r.array(
                    |kind| format!("\"wordLists\" must be an array of arrays of word ids, not {kind}"),
                    |r, i, at| {
                        part.timeline.word_lists.push(r.ids(&format!("word list {}", i + 1))?);
                        part.word_lists_at.push(at);
                        Ok(())
                    },
                )?,
                "frames" => r.array(
                    |kind| format!("\"frames\" must be an array of objects, not {kind}"),
                    |r, i, at| {
                        part.timeline.frames.push(r.timeline_frame(i)?);
                        part.frames_at.push(at);
                        Ok(())
                    },
                )?,
                "neighbours" => {
                    part.neighbours_at = at;
                    if r.peek_kind()? == Kind::Null {
                        r.value()?;
                    } else {
                        let (history, epochs_at) = r.neighbour_history()?;
                        part.timeline.neighbours = Some(history);
                        part.epochs_at = epochs_at;
                    }
                }
                _ => {
                    r.value()?;
                }
            }
            Ok(())
        })?;
        Ok(Some(part))
    }

    fn timeline_frame(&mut self, i: usize) -> Result<TimelineFrame> {
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
        self.object(&what, &["view", "words", "coords"], |r, key, at| {
            let named = |name: &str| format!("\"{name}\" of {what}");
            match key {
                "epoch" => frame.epoch = r.small_number(&named(key))?,
                "epochs" => frame.epochs = r.small_number(&named(key))?,
                "tokensDone" => frame.tokens_done = r.whole_number(&named(key))?,
                "tokensTotal" => frame.tokens_total = r.whole_number(&named(key))?,
                "words" => frame.word_list = r.small_number(&named(key))? as usize,
                "coords" => frame.coords = r.floats(&named(key), "coordinate")?,
                "view" => {
                    frame.view = r.value()?;
                    if frame.view.kind() != Kind::Object {
                        return Err(r.fault(
                            at,
                            format!("{} must be an object, not {}", named(key), frame.view.kind()),
                        ));
                    }
                }
                "axisLabels" => {
                    let labels = r.value()?;
                    match labels.as_array() {
                        Some([Value::String(x), Value::String(y)]) => {
                            frame.axis_labels = [x.clone(), y.clone()]
                        }
                        _ => return Err(r.fault(at, format!("{} must be two strings", named(key)))),
                    }
                }
                _ => {
                    r.value()?;
                }
            }
            Ok(())
        })?;
        Ok(frame)
    }

    fn neighbour_history(&mut self) -> Result<(NeighbourHistory, Vec<usize>)> {
        let (mut n_words, mut k) = (0, 0);
        let mut epochs = Vec::new();
        let mut epochs_at = Vec::new();
        self.object("the timeline's \"neighbours\"", &["words", "k", "epochs"], |r, key, _| {
            match key {
                "words" => n_words = r.small_number("the number of words with neighbours")? as usize,
                "k" => k = r.small_number("the number of neighbours")? as usize,
                "epochs" => r.array(
                    |kind| format!("the neighbours' \"epochs\" must be an array of objects, not {kind}"),
                    |r, i, at| {
                        let what = format!("epoch record {} of the neighbours", i + 1);
                        let mut record =
                            EpochNeighbours { epoch: 0, tokens_done: 0, ids: Vec::new(), scores: Vec::new() };
                        r.object(&what, &["epoch", "ids", "scores"], |r, key, _| {
                            match key {
                                "epoch" => record.epoch = r.small_number(&format!("the epoch of {what}"))?,
                                "tokensDone" => {
                                    record.tokens_done =
                                        r.whole_number(&format!("\"tokensDone\" of {what}"))?
                                }
                                "ids" => record.ids = r.ids(&what)?,
                                "scores" => record.scores = r.floats(&what, "score")?,
                                _ => {
                                    r.value()?;
                                }
                            }
                            Ok(())
                        })?;
                        epochs.push(record);
                        epochs_at.push(at);
                        Ok(())
                    },
                )?,
                _ => {
                    r.value()?;
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

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, RngExt, SeedableRng};

    use super::*;
    use crate::fuzz::random_finite_f32;

    include!("tricky_tokens.rs");

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
        let params = Value::Object(vec![
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
        let doc: String = include_str!("bundle.rs")
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
            Value::Object(vec![("method".into(), method.into()), ("perplexity".into(), 30u64.into())])
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
            params: Some(Value::Object(vec![
                ("tokens".into(), Value::Object(tricky_params)),
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
        let Ok(Value::Object(mut members)) = json::parse(&written(&bundle)) else { panic!("not an object") };
        members.reverse();
        let reversed = Value::Object(members.clone()).to_json();
        assert!(reversed.starts_with("{\"vectors\":[[0.1,-0.5,4e-3],"), "{reversed}");
        assert_reads_as(&reversed, &bundle);

        members
            .insert(3, ("comment".into(), json::parse(r#"{"any":[1,{"thing":null}],"vectors":7}"#).unwrap()));
        members.push(("trainedOn".into(), "a laptop".into()));
        let text = Value::Object(members).to_json().replace(",", " ,\r\n\t");
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
