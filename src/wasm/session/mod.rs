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
//! - `files`: vectors files and bundles, read and written.
//! - `evaluation`: analogy and similarity benchmarks run on the vectors.

mod evaluation;
mod files;
mod maps;
mod queries;
mod training;

use std::rc::Rc;

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use self::evaluation::Evaluation;
use self::maps::{LayoutRun, WordList};
use self::training::Preparing;
use super::pool::Pool;
use crate::Embeddings;
use crate::error::Error;
use crate::io::VectorsParser;
use crate::io::json;
use crate::map::{NeighbourHistory, Projection, Timeline};
use crate::text::{BpeConfig, BpeLearner, BpeTokenizer};
use crate::train::Trainer;

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`, in window and worker scopes alike.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

fn clock() -> f64 {
    performance_now() / 1000.0
}

fn js_error(err: Error) -> JsError {
    JsError::new(&err.to_string())
}

pub(super) fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsError> {
    serde_wasm_bindgen::to_value(value).map_err(|e| JsError::new(&e.to_string()))
}

/// BPE merges being learned, or learned, for the session's text with one configuration.
struct Bpe<T> {
    config: BpeConfig,
    state: T,
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
}

/// A training and query session over one text, or over vectors opened from a file.
#[wasm_bindgen]
#[derive(Default)]
pub struct Session {
    /// The text being trained on, for the concordance of a token.
    text: String,
    learner: Option<Bpe<BpeLearner>>,
    bpe: Option<Bpe<Rc<BpeTokenizer>>>,
    /// A text being tokenized a piece at a time (`prepare_begin`).
    preparing: Option<Preparing>,
    trainer: Option<Trainer>,
    /// The run fingerprint of the trainer's text and parameters.
    fingerprint: String,
    /// The parameters the trainer was made with (`Params::to_json`), for the bundle: the
    /// page's form may have changed since.
    trained_params: Option<json::Value>,
    /// The vectors as of the first number of trained tokens, for queries.
    snapshot: Option<(u64, Rc<Embeddings>)>,
    /// Training diverged: the trainer's vectors hold NaN or infinity, so queries keep using
    /// the last snapshot, the last good vectors.
    diverged: bool,
    /// Vectors opened from a file; there is no trainer then.
    opened: Option<Opened>,
    /// A vectors file being read, slice by slice, and its name for messages.
    loading: Option<(String, VectorsParser)>,
    evaluation: Option<Evaluation>,
    /// The last frame of the map: what the next one is aligned to, and how to place extra words.
    frame: Option<Projection>,
    /// The t-SNE or UMAP map (`layout_begin`).
    layout: Option<LayoutRun>,
    /// The words of the last frame, `project`'s or `layout_frame`'s.
    frame_words: WordList,
    /// The trainer's neighbours at each epoch end, for `neighbour_history` and the bundle.
    history: Option<NeighbourHistory>,
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
        match &self.opened {
            Some(opened) => opened.timeline.as_ref().and_then(|t| t.neighbours.as_ref()),
            None => self.history.as_ref(),
        }
    }

    /// Replaces the text; whatever was learned from or opened before it is gone.
    fn replace_text(&mut self, text: String) {
        // The pool is the worker's, not the text's: it stays. So does the numbering of word
        // lists: the worker tells the page's lists by number, so a number never names two.
        let pool = std::mem::take(&mut self.pool);
        let frame_words = std::mem::take(&mut self.frame_words);
        *self = Session { text, pool, frame_words, ..Session::default() };
    }

    /// The vectors to query: those opened from a file, or those trained so far, copied out
    /// of the trainer only when it has moved on since the last copy.
    fn embeddings(&mut self) -> Result<Rc<Embeddings>, JsError> {
        if let Some(opened) = &self.opened {
            return Ok(Rc::clone(&opened.embeddings));
        }
        let trainer = self.trainer.as_ref().ok_or_else(no_text)?;
        if self.diverged {
            return match &self.snapshot {
                Some((_, last_good)) => Ok(Rc::clone(last_good)),
                None => Err(JsError::new(
                    "training diverged before any vectors were kept: lower the learning rate alpha and train again",
                )),
            };
        }
        let tokens_done = trainer.progress().tokens_done;
        if self.snapshot.as_ref().is_none_or(|(tokens, _)| *tokens != tokens_done) {
            self.snapshot = Some((tokens_done, Rc::new(trainer.to_embeddings().map_err(js_error)?)));
        }
        Ok(Rc::clone(&self.snapshot.as_ref().expect("set above").1))
    }

    /// Replaces the text, the trainer and the plot with vectors opened from a file.
    fn open(&mut self, opened: Opened) {
        let pool = std::mem::take(&mut self.pool);
        let frame_words = std::mem::take(&mut self.frame_words);
        *self = Session { opened: Some(opened), pool, frame_words, ..Session::default() };
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
