//! `Session`: the one opaque handle the worker holds. Large, long-lived data (the corpus,
//! both vector matrices, the query snapshot) stays in wasm memory; JavaScript gets small,
//! copyable results: progress, query answers, and the 2-D coordinates of the plotted words.
//!
//! Its methods are split by topic, each file one `#[wasm_bindgen] impl Session` block with
//! its private helpers; this file holds the session's state and what the others share.
//!
//! - `training`: the text, BPE merges, the vocabulary and trainer, training steps, threads.
//! - `queries`: a token's provenance, neighbours, analogies, completions, neighbours per epoch.
//! - `maps`: PCA frames, t-SNE and UMAP maps, and the word lists of their frames.
//! - `files`: vectors files, fastText models and bundles, read and written.
//! - `models`: a language model's embedding matrix, read from its file a slice at a time.
//! - `tables`: a Parquet table of vectors (Spark's Word2VecModel), read column chunk by chunk.
//! - `moves`: the rows the step mode's last updates moved, as arrows on the map.
//! - `matrix`: a band of the vectors' matrix, rows × dimensions, for the Matrix card.
//! - `sampling`: a word's keep and noise probabilities and window partners, the Zipf chart.
//! - `evaluation`: analogy and similarity benchmarks run on the vectors.

mod evaluation;
mod files;
mod maps;
mod matrix;
mod models;
mod moves;
mod queries;
mod sampling;
mod tables;
mod training;

use std::rc::Rc;

use js_sys::Reflect;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use self::evaluation::Evaluation;
use self::maps::{LayoutRun, WordList};
use self::models::ModelLoading;
use self::training::Preparing;
use super::dto::MessagePartDto;
use super::pool::Pool;
use crate::Embeddings;
use crate::error::Error;
use crate::io::json;
use crate::lm::ModelInfo;
use crate::map::{NeighbourHistory, Projection, Timeline};
use crate::text::{BpeConfig, BpeLearner, BpeTokenizer};
use crate::train::Trainer;
use crate::wasm::dto::TextInfo;

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`, in window and worker scopes alike.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

fn clock() -> f64 {
    performance_now() / 1000.0
}

/// `err` as a JavaScript `Error` with its message; an unknown-words error also carries the
/// message in `parts` (`MessagePartDto[]`), so the page can offer each suggested spelling.
pub(super) fn js_error(err: Error) -> JsError {
    let error = JsError::new(&err.to_string());
    if let Error::UnknownWords(words) = &err {
        let serializer = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
        // A clone of a JsError is the same JavaScript object: the property goes on the error thrown.
        if let Ok(parts) = MessagePartDto::of_unknown(words).serialize(&serializer) {
            let _ = Reflect::set(&JsValue::from(error.clone()), &"parts".into(), &parts);
        }
    }
    error
}

pub(super) fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsError> {
    serde_wasm_bindgen::to_value(value).map_err(|e| JsError::new(&e.to_string()))
}

/// BPE merges being learned, or learned, for the session's text with one configuration.
struct Bpe<T> {
    config: BpeConfig,
    state: T,
}

/// What the session's vectors come from: a text and what was learned from it, or a file.
/// The two never mix: opening vectors drops the text and its training, and a text drops
/// the vectors opened before it.
// One per session, so the text's run beside the smaller opened vectors costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
enum Source {
    Text(TextRun),
    Opened(Opened),
}

impl Default for Source {
    /// An empty text, nothing learned from it.
    fn default() -> Self {
        Source::Text(TextRun::default())
    }
}

/// A text and what has been learned from it. Each part is there or not on its own: merges
/// for one configuration can be learned while a trainer made with another one answers
/// queries, and a new vocabulary is prepared while the last trainer stays (it is replaced
/// only when the new one is made).
#[derive(Default)]
struct TextRun {
    /// The text being trained on, for the concordance of a token.
    text: String,
    /// How the text was read (`set_text`), kept for `strip_markup`.
    info: TextInfo,
    /// BPE merges being learned (`bpe_begin`, `bpe_step`).
    learner: Option<Bpe<BpeLearner>>,
    /// BPE merges learned, for `prepare` and the provenance of a token.
    bpe: Option<Bpe<Rc<BpeTokenizer>>>,
    /// The text being tokenized a piece at a time (`prepare_begin`).
    preparing: Option<Preparing>,
    /// The trainer and what belongs to it (`prepare_finish`).
    training: Option<Training>,
}

/// A trainer with the run it belongs to: made together in `prepare_finish`, gone together.
struct Training {
    trainer: Trainer,
    /// The run fingerprint of the trainer's text and parameters.
    fingerprint: String,
    /// The parameters the trainer was made with (`Params::to_json`), for the bundle: the
    /// page's form may have changed since.
    params: json::Value,
    /// The trainer's neighbours at each epoch end, for `neighbour_history` and the bundle.
    history: NeighbourHistory,
    /// The vectors queries see.
    queried: Queried,
    /// The input rows the last `step_updates` moved, as they were before it; none once
    /// training goes on at full speed.
    moved: Option<moves::MovedRows>,
}

/// The vectors queries see while a trainer trains.
enum Queried {
    /// No copy of the trainer's vectors yet.
    Nothing,
    /// The trainer's vectors as of `tokens` trained tokens, copied out of the trainer again
    /// only when it has moved on.
    Snapshot { tokens: u64, embeddings: Rc<Embeddings> },
    /// Training diverged: the trainer's vectors hold NaN or infinity, so queries keep the
    /// last snapshot, the last good vectors, if there was one.
    Diverged(Option<(u64, Rc<Embeddings>)>),
}

impl Training {
    /// The vectors to query, copied out of the trainer only when it has moved on since the
    /// last copy.
    fn embeddings(&mut self) -> Result<Rc<Embeddings>, JsError> {
        let tokens_done = self.trainer.progress().tokens_done;
        match &self.queried {
            Queried::Diverged(Some((_, last_good))) => return Ok(Rc::clone(last_good)),
            Queried::Diverged(None) => {
                return Err(JsError::new(
                    "training diverged before any vectors were kept: lower the learning rate alpha and train again",
                ));
            }
            Queried::Snapshot { tokens, embeddings } if *tokens == tokens_done => {
                return Ok(Rc::clone(embeddings));
            }
            Queried::Snapshot { .. } | Queried::Nothing => {}
        }
        let embeddings = Rc::new(self.trainer.to_embeddings().map_err(js_error)?);
        self.queried = Queried::Snapshot { tokens: tokens_done, embeddings: Rc::clone(&embeddings) };
        Ok(embeddings)
    }
}

/// Vectors opened from a file (trained elsewhere, or a bundle saved here), with what the
/// file said about them.
struct Opened {
    embeddings: Rc<Embeddings>,
    counts: Option<Vec<u64>>,
    params: Option<json::Value>,
    fingerprint: Option<String>,
    epoch_losses: Vec<f64>,
    /// A bundle's timeline (its frames, for the page, and its neighbours per epoch).
    timeline: Option<Timeline>,
    /// What a language model's embedding matrix is, when the vectors are one.
    model: Option<ModelInfo>,
}

impl Opened {
    /// Vectors from a file that says nothing else of them (word2vec, GloVe, a Projector pair).
    fn vectors(embeddings: Embeddings) -> Opened {
        Opened {
            embeddings: Rc::new(embeddings),
            counts: None,
            params: None,
            fingerprint: None,
            epoch_losses: Vec::new(),
            timeline: None,
            model: None,
        }
    }
}

/// A training and query session over one text, or over vectors opened from a file.
#[wasm_bindgen]
#[derive(Default)]
pub struct Session {
    /// The text and its training, or the vectors opened.
    source: Source,
    /// A vectors file being read, slice by slice, and its name for messages; it replaces
    /// `source` when it is read to its end.
    loading: Option<(String, files::Loading)>,
    /// A language model's file being read (`model_open`); its matrix replaces `source`
    /// when it is read to its end.
    model: Option<ModelLoading>,
    /// A Parquet table being read (`table_open`); its rows replace `source` when every
    /// part is read.
    table: Option<tables::TableLoading>,
    evaluation: Option<Evaluation>,
    /// The last frame of the map: what the next one is aligned to, and how to place extra words.
    frame: Option<Projection>,
    /// The t-SNE or UMAP map (`layout_begin`).
    layout: Option<LayoutRun>,
    /// The words of the last frame, `project`'s or `layout_frame`'s.
    frame_words: WordList,
    /// The threads training runs on (`use_threads`); one, the worker's own, until then.
    pool: Pool,
}

#[wasm_bindgen]
impl Session {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Session {
        Session::default()
    }
}

impl Session {
    /// The neighbours per epoch of the vectors queried: the trainer's, or an opened bundle's.
    fn kept_history(&self) -> Option<&NeighbourHistory> {
        match &self.source {
            Source::Opened(opened) => opened.timeline.as_ref().and_then(|t| t.neighbours.as_ref()),
            Source::Text(run) => run.training.as_ref().map(|t| &t.history),
        }
    }

    /// The text and what was learned from it; none when vectors were opened.
    fn text_run(&self) -> Option<&TextRun> {
        match &self.source {
            Source::Text(run) => Some(run),
            Source::Opened(_) => None,
        }
    }

    /// The trainer and its run, when there is one.
    fn training(&self) -> Option<&Training> {
        self.text_run().and_then(|run| run.training.as_ref())
    }

    /// Replaces the text, read as `info` says; whatever was learned from or opened before it is gone.
    fn replace_text(&mut self, text: String, info: TextInfo) {
        self.replace_source(Source::Text(TextRun { text, info, ..TextRun::default() }));
    }

    /// Replaces the text, the trainer and the plot with vectors opened from a file.
    fn open(&mut self, opened: Opened) {
        self.replace_source(Source::Opened(opened));
    }

    /// Starts over from `source`, with nothing drawn, evaluated or read from it yet.
    fn replace_source(&mut self, source: Source) {
        // The pool is the worker's, not the text's: it stays. So does the numbering of word
        // lists: the worker tells the page's lists by number, so a number never names two.
        let pool = std::mem::take(&mut self.pool);
        let frame_words = std::mem::take(&mut self.frame_words);
        *self = Session { source, pool, frame_words, ..Session::default() };
    }

    /// The vectors to query: those opened from a file, or those trained so far.
    fn embeddings(&mut self) -> Result<Rc<Embeddings>, JsError> {
        match &mut self.source {
            Source::Opened(opened) => Ok(Rc::clone(&opened.embeddings)),
            Source::Text(run) => run.training.as_mut().ok_or_else(no_text)?.embeddings(),
        }
    }
}

fn no_text() -> JsError {
    JsError::new("no text loaded yet: choose a file or the built-in sample first")
}

fn set(target: &JsValue, key: &str, value: &JsValue) -> Result<(), JsError> {
    Reflect::set(target, &key.into(), value)
        .map(|_| ())
        .map_err(|_| JsError::new("cannot build the result object"))
}
