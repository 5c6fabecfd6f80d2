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
use self::models::ModelLoading;
use super::dto::MessagePartDto;
use super::pool::Pool;
use crate::Embeddings;
use crate::error::Error;
use crate::map::NeighbourHistory;
use crate::session::{Opened, Source, TextRun, Training};

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

/// A training and query session over one text, or over vectors opened from a file: the
/// core's [`crate::session::Session`], with what only the browser has (files read slice by
/// slice, layouts run on the pool, the training threads).
#[wasm_bindgen]
#[derive(Default)]
pub struct Session {
    /// The text and its training, or the vectors opened; the map's frame, layout and word lists.
    core: crate::session::Session,
    /// A vectors file being read, slice by slice, and its name for messages; it replaces
    /// the source when it is read to its end.
    loading: Option<(String, files::Loading)>,
    /// A language model's file being read (`model_open`); its matrix replaces the source
    /// when it is read to its end.
    model: Option<ModelLoading>,
    /// A Parquet table being read (`table_open`); its rows replace the source when every
    /// part is read.
    table: Option<tables::TableLoading>,
    evaluation: Option<Evaluation>,
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
        self.core.kept_history()
    }

    /// The text and what was learned from it; none when vectors were opened.
    fn text_run(&self) -> Option<&TextRun> {
        self.core.text_run()
    }

    /// The trainer and its run, when there is one.
    fn training(&self) -> Option<&Training> {
        self.core.training()
    }

    /// Replaces the text, the trainer and the plot with vectors opened from a file.
    fn open(&mut self, opened: Opened) {
        self.core.open(opened);
        self.source_replaced();
    }

    /// After the core took a new source: nothing is drawn, evaluated or read from the old
    /// one any more. The pool is the worker's, not the source's: it stays.
    fn source_replaced(&mut self) {
        let pool = std::mem::take(&mut self.pool);
        let core = std::mem::take(&mut self.core);
        *self = Session { core, pool, ..Session::default() };
    }

    /// The vectors to query: those opened from a file, or those trained so far.
    fn embeddings(&mut self) -> Result<Rc<Embeddings>, JsError> {
        self.core.embeddings().map_err(js_error)
    }
}

fn no_text() -> JsError {
    js_error(crate::session::no_text())
}

fn set(target: &JsValue, key: &str, value: &JsValue) -> Result<(), JsError> {
    Reflect::set(target, &key.into(), value)
        .map(|_| ())
        .map_err(|_| JsError::new("cannot build the result object"))
}
