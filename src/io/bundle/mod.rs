//! The bundle: one JSON file that holds a whole run (the vectors, the vocabulary counts, the
//! training parameters, the fingerprint, the loss of each epoch and where the text came
//! from) and re-opens exactly. Words are JSON strings, so any token (spaces, newlines,
//! backslashes, any Unicode) is stored as itself, without the word2vec escape; floats are
//! written in serde_json's shortest round-trip form, so every vector reads back with the
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
//! [0.1,-0.5,0.004],
//! [2.0,0.0,-0.0],
//! [1e-45,3.4028235e+38,-1.25]
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
//! (see `src/map/timeline.rs`), after the vectors, so the keys above read as before and a
//! reader that does not know the section skips it:
//!
//! ```text
//! "timeline":{"wordLists":[
//! [0,1,2]
//! ],
//! "frames":[
//! {"epoch":1,"epochs":2,"tokensDone":0,"tokensTotal":40,"mapSpec":{"method":"tsne","nWords":3,"layout":{"perplexity":30}},"axisLabels":["t-SNE 1","t-SNE 2"],"words":0,"coords":[0.5,1,-2,0,3,1.5]}
//! ],
//! "neighbours":{"words":3,"k":2,"epochs":[
//! {"epoch":1,"tokensDone":20,"ids":[1,2,0,2,0,1],"scores":[0.9,0.1,0.9,0.3,0.3,0.1]}
//! ]}}
//! ```
//!
//! `wordLists` are lists of word ids (0-based indices into `words`); each frame names the list
//! it shows (`words`, 0-based), with two `coords` per word, the moment of training (`epoch`,
//! `epochs`, `tokensDone`, `tokensTotal`), how the map was made (`mapSpec`: `method` "pca",
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
//! (`crate::io::json::Strict`); the other keys as raw values. Where each value starts is known
//! from where its text lies in the file, which gives a fault its line. A value's kind is
//! judged by its first character before the value is read, so `"timeline":[…` is named as
//! an array even when what follows is no JSON; inside the timeline (read as raw values),
//! invalid JSON is reported before what is wrong in a valid part before it.
//!
//! [`Error::Format`]: crate::Error::Format

mod read;
mod seeds;
mod timeline;
mod write;

#[cfg(test)]
mod tests;

pub use read::read_bundle;
pub use write::write_bundle;

use crate::io::json::Value;
use crate::map::Timeline;
use crate::vectors::Embeddings;

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
/// `counts` and `vectors`. Floats are written in their shortest round-trip form, so the
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
