//! Training: the session's text, BPE merges learned from it, the vocabulary and trainer
//! prepared a piece at a time, training steps, and the threads they run on. The run itself
//! is the core's (`crate::session`); this file adapts its types.

use wasm_bindgen::prelude::*;

use super::{Session, clock, js_error, no_text, to_js};
use crate::params::Params;
use crate::session::{Training, check_inflated_text_size, check_text_size};
use crate::wasm::dto::{BpeProgressDto, CorpusStats, ProgressDto, StepUpdatesDto, TextInfo, UpdateDto};

#[wasm_bindgen]
impl Session {
    /// Takes the bytes of a text file and keeps its text for `prepare`, `bpe_begin` and
    /// `token_info`, replacing the text, the training and any opened vectors; returns
    /// `TextInfo`. The bytes are decoded as UTF-8, UTF-16 or Latin-1 (`TextInfo.note` says
    /// which when it is not plain UTF-8). A binary file or one over `MAX_TEXT_BYTES` is
    /// refused, and then nothing is replaced.
    pub fn set_text(&mut self, bytes: Vec<u8>) -> Result<JsValue, JsError> {
        let info = TextInfo::from(self.core.set_text(bytes).map_err(js_error)?);
        self.source_replaced();
        to_js(&info)
    }

    /// Makes the built-in sample the session's text (see `set_text`).
    pub fn set_sample_text(&mut self) -> Result<JsValue, JsError> {
        let info = TextInfo::from(self.core.set_sample_text());
        self.source_replaced();
        to_js(&info)
    }

    /// Keeps only the text of the session's text, when it is XML or HTML (`TextInfo.markup`
    /// said so), in its place: what was learned from it before is gone. Returns the new
    /// `TextInfo`, whose note says what was kept.
    pub fn strip_markup(&mut self) -> Result<JsValue, JsError> {
        let info = TextInfo::from(self.core.strip_markup().map_err(js_error)?);
        self.source_replaced();
        to_js(&info)
    }

    /// Refuses, before anything is read, a text of `bytes` bytes over `MAX_TEXT_BYTES`.
    pub fn check_text_size(&self, bytes: f64) -> Result<(), JsError> {
        check_text_size(bytes).map_err(js_error)
    }

    /// Refuses a compressed text once `bytes` of it, inflated, pass `MAX_TEXT_BYTES`.
    pub fn check_inflated_text_size(&self, bytes: f64) -> Result<(), JsError> {
        check_inflated_text_size(bytes).map_err(js_error)
    }

    /// Starts learning BPE merges of the text with the `bpeVocabSize` and `bpeMode` of
    /// `params`; `bpe_step` then advances it, so the worker can report and cancel.
    pub fn bpe_begin(&mut self, params: JsValue) -> Result<JsValue, JsError> {
        let progress = self.core.bpe_begin(&parse_params(params)?).map_err(js_error)?;
        to_js(&BpeProgressDto::from(progress))
    }

    /// Learns at most `max_merges` more merges (`BpeProgressDto`). When learning is done the
    /// model is kept for `prepare` and for `token_info`.
    pub fn bpe_step(&mut self, max_merges: usize) -> Result<JsValue, JsError> {
        to_js(&BpeProgressDto::from(self.core.bpe_step(max_merges).map_err(js_error)?))
    }

    /// Tokenizes the text (`set_text`), builds the vocabulary and a fresh trainer, replacing
    /// any earlier one. Returns the text's statistics (`CorpusStats`). Nothing is trained
    /// yet. With the BPE tokenizer it uses the merges `bpe_begin`/`bpe_step` learned for this
    /// configuration, learning them here, in one go, when there are none. `prepare_begin`,
    /// `prepare_step` and `prepare_finish` do the same a piece at a time.
    pub fn prepare(&mut self, params: JsValue) -> Result<JsValue, JsError> {
        self.prepare_begin(params)?;
        self.prepare_step(usize::MAX)?;
        self.prepare_finish()
    }

    /// Starts tokenizing the text for `params` (checked here); `prepare_step` goes on.
    pub fn prepare_begin(&mut self, params: JsValue) -> Result<(), JsError> {
        self.core.prepare_cancel();
        self.core.prepare_begin(parse_params(params)?).map_err(js_error)
    }

    /// Tokenizes about `max_bytes` more of the text; returns the fraction done.
    pub fn prepare_step(&mut self, max_bytes: usize) -> Result<f64, JsError> {
        self.core.prepare_step(max_bytes).map_err(js_error)
    }

    /// Finishes the vocabulary and makes a fresh trainer (see `prepare`); returns `CorpusStats`.
    pub fn prepare_finish(&mut self) -> Result<JsValue, JsError> {
        self.core.prepare_finish(clock).map_err(js_error)?;
        let run = self.text_run().ok_or_else(no_text)?;
        let Training { trainer, fingerprint, min_count, .. } = run.training.as_ref().ok_or_else(no_text)?;
        let stats = CorpusStats::new(&run.text, trainer.corpus(), *min_count, fingerprint.clone());
        to_js(&stats)
    }

    /// Trains on at most `max_tokens` more tokens and returns the progress (`ProgressDto`).
    pub fn step(&mut self, max_tokens: f64) -> Result<JsValue, JsError> {
        let max_tokens = max_tokens.max(0.0) as u64;
        // Through the pool, which ends this instance with a message if a thread panics.
        let pool = &self.pool;
        let progress =
            self.core.step_with(max_tokens, |trainer, max| pool.step(trainer, max)).map_err(js_error)?;
        let trainer = &self.training().ok_or_else(no_text)?.trainer;
        to_js(&ProgressDto::new(progress, trainer))
    }

    /// Trains on `threads` threads from now on: the pool is rebuilt when its size changes.
    /// In the threaded build the worker must have started that many host workers first
    /// (www/worker/threads.js); the single-threaded build takes 1 only.
    pub fn use_threads(&mut self, threads: usize) -> Result<(), JsError> {
        self.pool.resize(threads).map_err(|e| JsError::new(&e))
    }

    /// The threads training runs on: the pool's `current_num_threads()`, or 1 without one.
    pub fn threads(&self) -> usize {
        self.pool.threads()
    }

    /// Runs a job on every thread of the pool at once (rayon's `broadcast`) and returns how
    /// many distinct threads ran it: proof that the pool's threads are really there and
    /// working, for the page and the browser tests.
    pub fn threads_working(&self) -> usize {
        let ran_on = self.pool.install(|| rayon::broadcast(|_| std::thread::current().id()));
        let mut distinct = Vec::new();
        for id in ran_on {
            if !distinct.contains(&id) {
                distinct.push(id);
            }
        }
        distinct.len()
    }

    /// The step mode: performs the next `count` updates (skip-gram's pairs or CBOW's
    /// windows) one at a time, on one thread whatever the pool's size
    /// (`Trainer::step_update`), and returns the last one with the progress
    /// (`StepUpdatesDto`). The next `step` goes on from there. The input rows the updates
    /// moved are kept as they were before them, for `step_moves`.
    pub fn step_updates(&mut self, count: u32) -> Result<JsValue, JsError> {
        let (last, updates) = self.core.step_updates(count).map_err(js_error)?;
        let trainer = &self.training().ok_or_else(no_text)?.trainer;
        let update = last.map(|report| UpdateDto::new(report, trainer));
        to_js(&StepUpdatesDto { update, updates, progress: ProgressDto::new(trainer.progress(), trainer) })
    }

    /// The progress without training.
    pub fn progress(&self) -> Result<JsValue, JsError> {
        let trainer = &self.training().ok_or_else(no_text)?.trainer;
        to_js(&ProgressDto::new(trainer.progress(), trainer))
    }
}

fn parse_params(params: JsValue) -> Result<Params, JsError> {
    serde_wasm_bindgen::from_value(params).map_err(|e| JsError::new(&format!("bad training parameters: {e}")))
}
