//! Training: the session's text, BPE merges learned from it, the vocabulary and trainer
//! prepared a piece at a time, training steps, and the threads they run on.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::moves::MovedRows;
use super::{Bpe, Queried, Session, Source, TextRun, Training, clock, js_error, no_text, to_js};
use crate::error::Error;
use crate::fingerprint;
use crate::map::NeighbourHistory;
use crate::params::Params;
use crate::text::{BpeConfig, BpeLearner, BpeTokenizer, CorpusBuilder, Markup, Tokenizer, decode_text};
use crate::train::Trainer;
use crate::wasm::dto::{BpeProgressDto, CorpusStats, ProgressDto, StepUpdatesDto, TextInfo, UpdateDto};

/// The text being tokenized into a corpus, a piece at a time, with the parameters it is for.
pub(super) struct Preparing {
    builder: CorpusBuilder<Box<dyn Tokenizer>>,
    /// Bytes of the text fed to the builder so far.
    fed: usize,
    params: Params,
    tokenizer: String,
}

#[wasm_bindgen]
impl Session {
    /// Takes the bytes of a text file and keeps its text for `prepare`, `bpe_begin` and
    /// `token_info`, replacing the text, the training and any opened vectors; returns
    /// `TextInfo`. The bytes are decoded as UTF-8, UTF-16 or Latin-1 (`TextInfo.note` says
    /// which when it is not plain UTF-8). A binary file or one over `MAX_TEXT_BYTES` is
    /// refused, and then nothing is replaced.
    pub fn set_text(&mut self, bytes: Vec<u8>) -> Result<JsValue, JsError> {
        check_text_size(bytes.len() as f64)?;
        let decoded = decode_text(bytes).map_err(js_error)?;
        let info = TextInfo::new(&decoded);
        self.replace_text(decoded.text, info.clone());
        to_js(&info)
    }

    /// Makes the built-in sample the session's text (see `set_text`).
    pub fn set_sample_text(&mut self) -> Result<JsValue, JsError> {
        let text = crate::wasm::sample_text();
        let info = TextInfo::plain(text.len());
        self.replace_text(text, info.clone());
        to_js(&info)
    }

    /// Keeps only the text of the session's text, when it is XML or HTML (`TextInfo.markup`
    /// said so), in its place: what was learned from it before is gone. Returns the new
    /// `TextInfo`, whose note says what was kept.
    pub fn strip_markup(&mut self) -> Result<JsValue, JsError> {
        let Source::Text(run) = &self.source else { return Err(no_text()) };
        let markup = Markup::detect(&run.text)
            .ok_or_else(|| JsError::new("this text is not XML or HTML: there is no markup to take out"))?;
        let text = markup.strip(&run.text);
        let info = run.info.stripped(&markup, text.len());
        self.replace_text(text, info.clone());
        to_js(&info)
    }

    /// Refuses, before anything is read, a text of `bytes` bytes over `MAX_TEXT_BYTES`.
    pub fn check_text_size(&self, bytes: f64) -> Result<(), JsError> {
        check_text_size(bytes)
    }

    /// Refuses a compressed text once `bytes` of it, inflated, pass `MAX_TEXT_BYTES`.
    pub fn check_inflated_text_size(&self, bytes: f64) -> Result<(), JsError> {
        if bytes > MAX_TEXT_BYTES {
            return Err(JsError::new(&format!(
                "this file inflates to more than {} of text, and the explorer takes texts up to that: open a part \
                 of it, or train on it with the command-line tool (embedscope train), which has no such limit",
                megabytes(MAX_TEXT_BYTES)
            )));
        }
        Ok(())
    }

    /// Starts learning BPE merges of the text with the `bpeVocabSize` and `bpeMode` of
    /// `params`; `bpe_step` then advances it, so the worker can report and cancel.
    pub fn bpe_begin(&mut self, params: JsValue) -> Result<JsValue, JsError> {
        let config = parse_params(params)?.bpe_config().map_err(js_error)?;
        let Source::Text(run) = &mut self.source else { return Err(no_text()) };
        check_bpe_size(run.text.len())?;
        let learner = BpeLearner::new(&run.text, &config).map_err(js_error)?;
        let progress = learner.progress();
        run.learner = Some(Bpe { config, state: learner });
        to_js(&BpeProgressDto::from(progress))
    }

    /// Learns at most `max_merges` more merges (`BpeProgressDto`). When learning is done the
    /// model is kept for `prepare` and for `token_info`.
    pub fn bpe_step(&mut self, max_merges: usize) -> Result<JsValue, JsError> {
        let no_learning = || JsError::new("no BPE learning in progress");
        let Source::Text(run) = &mut self.source else { return Err(no_learning()) };
        let learner = run.learner.as_mut().ok_or_else(no_learning)?;
        let progress = learner.state.step(max_merges);
        if progress.done {
            let Bpe { config, state } = run.learner.take().expect("checked above");
            run.bpe = Some(Bpe { config, state: Rc::new(BpeTokenizer::new(state.into_model())) });
        }
        to_js(&BpeProgressDto::from(progress))
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
        if let Source::Text(run) = &mut self.source {
            run.preparing = None;
        }
        let params = parse_params(params)?;
        params.train_config().validate().map_err(js_error)?;
        params.vocab_config().validate().map_err(js_error)?;
        let word_tokenizer = params.word_tokenizer().map_err(js_error)?;
        let Source::Text(run) = &mut self.source else { return Err(no_text()) };
        let tokenizer: Box<dyn Tokenizer> = match word_tokenizer {
            Some(tokenizer) => tokenizer,
            None => {
                check_bpe_size(run.text.len())?;
                Box::new(Rc::clone(run.learn_bpe(params.bpe_config().map_err(js_error)?)?))
            }
        };
        let described = tokenizer.describe();
        run.preparing =
            Some(Preparing { builder: CorpusBuilder::new(tokenizer), fed: 0, params, tokenizer: described });
        Ok(())
    }

    /// Tokenizes about `max_bytes` more of the text; returns the fraction done.
    pub fn prepare_step(&mut self, max_bytes: usize) -> Result<f64, JsError> {
        let none = || JsError::new("no text is being prepared");
        let Source::Text(run) = &mut self.source else { return Err(none()) };
        let preparing = run.preparing.as_mut().ok_or_else(none)?;
        let text = &run.text;
        let mut end = preparing.fed.saturating_add(max_bytes.max(1)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        preparing.builder.feed(&text[preparing.fed..end]);
        preparing.fed = end;
        Ok(if text.is_empty() { 1.0 } else { end as f64 / text.len() as f64 })
    }

    /// Finishes the vocabulary and makes a fresh trainer (see `prepare`); returns `CorpusStats`.
    pub fn prepare_finish(&mut self) -> Result<JsValue, JsError> {
        let none = || JsError::new("no text is being prepared");
        let Source::Text(run) = &mut self.source else { return Err(none()) };
        let Preparing { builder, fed, params, tokenizer } = run.preparing.take().ok_or_else(none)?;
        if fed < run.text.len() {
            return Err(JsError::new("the text is not tokenized to its end yet"));
        }
        let (vocab_config, train_config) = (params.vocab_config(), params.train_config());
        let corpus = builder.finish(&vocab_config).map_err(js_error)?;
        let text = &run.text;
        let run_id = fingerprint(text, &tokenizer, &vocab_config, &train_config);
        let stats = CorpusStats::new(text, &corpus, vocab_config.min_count, run_id.clone());
        let trainer = Trainer::new(corpus, train_config, clock).map_err(js_error)?;
        let trained_params = params.to_json().map_err(js_error)?;
        if params.tokenizer != "bpe" {
            run.bpe = None;
        }
        let history = NeighbourHistory::for_vocabulary(trainer.corpus().vocab().len());
        run.training = Some(Training {
            trainer,
            fingerprint: run_id,
            params: trained_params,
            history,
            queried: Queried::Nothing,
            moved: None,
        });
        self.frame = None;
        self.layout = None;
        to_js(&stats)
    }

    /// Trains on at most `max_tokens` more tokens and returns the progress (`ProgressDto`).
    pub fn step(&mut self, max_tokens: f64) -> Result<JsValue, JsError> {
        let max_tokens = max_tokens.max(0.0) as u64;
        let Source::Text(run) = &mut self.source else { return Err(no_text()) };
        let mut training = run.training.take().ok_or_else(no_text)?;
        training.moved = None;
        // Through the pool, which ends this instance with a message if a thread panics.
        let (trainer, stepped) = self.pool.step(training.trainer, max_tokens);
        training.trainer = trainer;
        let training = run.training.insert(training);
        let progress = match stepped {
            Ok(progress) => progress,
            Err(err @ Error::Diverged { .. }) => {
                let last_good = match std::mem::replace(&mut training.queried, Queried::Nothing) {
                    Queried::Snapshot { tokens, embeddings } => Some((tokens, embeddings)),
                    Queried::Diverged(last_good) => last_good,
                    Queried::Nothing => None,
                };
                let kept = match &last_good {
                    Some((tokens, _)) => {
                        format!("the vectors from before it ({} tokens trained) are kept for queries", tokens)
                    }
                    None => "it happened before any vectors were kept".to_string(),
                };
                training.queried = Queried::Diverged(last_good);
                return Err(JsError::new(&format!("{err}; {kept}")));
            }
            Err(err) => return Err(js_error(err)),
        };
        let out = to_js(&ProgressDto::new(progress.clone(), &training.trainer))?;
        // A chunk stops at an epoch's end, so this sees every epoch end once, whatever the chunks.
        if progress.epoch_tokens > 0 && progress.epoch_tokens_done == progress.epoch_tokens {
            let embeddings = training.embeddings()?;
            training.history.record(&embeddings, progress.epoch, progress.tokens_done);
        }
        Ok(out)
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
        let Source::Text(run) = &mut self.source else { return Err(no_text()) };
        let training = run.training.as_mut().ok_or_else(no_text)?;
        let before = training.embeddings()?;
        let trainer = &mut training.trainer;
        let (mut last, mut updates, mut moved_words) = (None, 0, Vec::new());
        while updates < count {
            match trainer.step_update().map_err(js_error)? {
                Some(report) => {
                    moved_words.extend_from_slice(&report.input_words);
                    last = Some(report);
                }
                None => break,
            }
            updates += 1;
        }
        training.moved = Some(MovedRows::new(&before, moved_words, updates));
        let trainer = &training.trainer;
        let update = last.map(|report| UpdateDto::new(report, trainer));
        to_js(&StepUpdatesDto { update, updates, progress: ProgressDto::new(trainer.progress(), trainer) })
    }

    /// The progress without training.
    pub fn progress(&self) -> Result<JsValue, JsError> {
        let trainer = &self.training().ok_or_else(no_text)?.trainer;
        to_js(&ProgressDto::new(trainer.progress(), trainer))
    }
}

impl TextRun {
    /// The merges for `config`: those learned already, or the ones being learned, finished
    /// now, or new ones learned in one go; kept in `self.bpe`.
    fn learn_bpe(&mut self, config: BpeConfig) -> Result<&Rc<BpeTokenizer>, JsError> {
        if !self.bpe.as_ref().is_some_and(|b| b.config == config) {
            let mut learner = match self.learner.take() {
                Some(l) if l.config == config => l.state,
                _ => BpeLearner::new(&self.text, &config).map_err(js_error)?,
            };
            while !learner.step(usize::MAX).done {}
            self.bpe = Some(Bpe { config, state: Rc::new(BpeTokenizer::new(learner.into_model())) });
        }
        Ok(&self.bpe.as_ref().expect("set above").state)
    }
}

fn parse_params(params: JsValue) -> Result<Params, JsError> {
    serde_wasm_bindgen::from_value(params).map_err(|e| JsError::new(&format!("bad training parameters: {e}")))
}

/// The largest text the explorer takes: its copy in wasm memory, the tokens, the vectors
/// and the snapshots must fit in the 4 GiB a wasm instance can have, with room to spare.
/// The command-line tool has no such limit.
const MAX_TEXT_BYTES: f64 = 250e6;

/// The largest text BPE learns merges from in the explorer: learning keeps several words of
/// bookkeeping per character (pairs, their counts, the queue).
const MAX_BPE_TEXT_BYTES: usize = 32_000_000;

fn megabytes(bytes: f64) -> String {
    format!("{:.0} MB", bytes / 1e6)
}

fn check_text_size(bytes: f64) -> Result<(), JsError> {
    if bytes > MAX_TEXT_BYTES {
        return Err(JsError::new(&format!(
            "this file is {}, and the explorer takes texts up to {}: open a part of it, or train on it \
             with the command-line tool (embedscope train), which has no such limit",
            megabytes(bytes),
            megabytes(MAX_TEXT_BYTES)
        )));
    }
    Ok(())
}

fn check_bpe_size(bytes: usize) -> Result<(), JsError> {
    if bytes > MAX_BPE_TEXT_BYTES {
        return Err(JsError::new(&format!(
            "BPE learns its merges from texts up to {} in the explorer, and this one is {}: choose the \
             word or whitespace tokenizer, or open a part of the text",
            megabytes(MAX_BPE_TEXT_BYTES as f64),
            megabytes(bytes as f64)
        )));
    }
    Ok(())
}
