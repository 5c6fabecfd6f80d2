//! What a run is: its source (a text and what was learned from it, or vectors opened from a
//! file), preparation, training, the snapshot kept for queries, the numbered word lists of
//! the map's frames, and the one state machine of the session's life ([`machine`]).
//!
//! [`Session`] is plain Rust: the worker's wasm `Session` adapts it (types in and out, the
//! clock and the training threads passed in), and native tests drive it directly.

pub mod machine;
mod maps;
mod text;
mod training;

use std::rc::Rc;

pub use self::maps::{LayoutRun, WordList};
pub use self::text::{
    Bpe, MAX_BPE_TEXT_BYTES, MAX_TEXT_BYTES, Preparing, TextRead, TextRun, check_bpe_size,
    check_inflated_text_size, check_text_size,
};
pub use self::training::{MovedRows, Queried, Training};
use crate::Embeddings;
use crate::error::{Error, Result};
use crate::fingerprint;
use crate::io::json;
use crate::lm::ModelInfo;
use crate::map::{NeighbourHistory, Projection, Timeline};
use crate::params::Params;
use crate::text::{BpeProgress, Markup, decode_text};
use crate::train::{Clock, Progress, Trainer, UpdateReport};

/// What the session's vectors come from: a text and what was learned from it, or a file.
/// The two never mix: opening vectors drops the text and its training, and a text drops
/// the vectors opened before it.
// One per session, so the text's run beside the smaller opened vectors costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub enum Source {
    Text(TextRun),
    Opened(Opened),
}

impl Default for Source {
    /// An empty text, nothing learned from it.
    fn default() -> Self {
        Source::Text(TextRun::default())
    }
}

/// Vectors opened from a file (trained elsewhere, or a bundle saved here), with what the
/// file said about them.
pub struct Opened {
    pub embeddings: Rc<Embeddings>,
    pub counts: Option<Vec<u64>>,
    pub params: Option<json::Value>,
    pub fingerprint: Option<String>,
    pub epoch_losses: Vec<f64>,
    /// A bundle's timeline (its frames, for the page, and its neighbours per epoch).
    pub timeline: Option<Timeline>,
    /// What a language model's embedding matrix is, when the vectors are one.
    pub model: Option<ModelInfo>,
}

impl Opened {
    /// Vectors from a file that says nothing else of them (word2vec, GloVe, a Projector pair).
    pub fn vectors(embeddings: Embeddings) -> Opened {
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
#[derive(Default)]
pub struct Session {
    /// The text and its training, or the vectors opened.
    source: Source,
    /// The last PCA frame of the map: what the next one is aligned to, and how to place extra words.
    pub frame: Option<Projection>,
    /// The t-SNE or UMAP map.
    pub layout: Option<LayoutRun>,
    /// The words of the last frame, PCA's or the layout's, numbered.
    pub frame_words: WordList,
}

impl Session {
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The text and what was learned from it; none when vectors were opened.
    pub fn text_run(&self) -> Option<&TextRun> {
        match &self.source {
            Source::Text(run) => Some(run),
            Source::Opened(_) => None,
        }
    }

    /// The trainer and its run, when there is one.
    pub fn training(&self) -> Option<&Training> {
        self.text_run().and_then(|run| run.training.as_ref())
    }

    /// The neighbours per epoch of the vectors queried: the trainer's, or an opened bundle's.
    pub fn kept_history(&self) -> Option<&NeighbourHistory> {
        match &self.source {
            Source::Opened(opened) => opened.timeline.as_ref().and_then(|t| t.neighbours.as_ref()),
            Source::Text(run) => run.training.as_ref().map(|t| &t.history),
        }
    }

    /// The vectors to query: those opened from a file, or those trained so far.
    pub fn embeddings(&mut self) -> Result<Rc<Embeddings>> {
        match &mut self.source {
            Source::Opened(opened) => Ok(Rc::clone(&opened.embeddings)),
            Source::Text(run) => run.training.as_mut().ok_or_else(no_text)?.embeddings(),
        }
    }

    /// Starts over from `source`, with nothing drawn from it yet. The numbering of word lists
    /// stays: the worker tells the page's lists by number, so a number never names two.
    pub fn replace_source(&mut self, source: Source) {
        let frame_words = std::mem::take(&mut self.frame_words);
        *self = Session { source, frame_words, ..Session::default() };
    }

    /// Replaces the text, the trainer and the map with vectors opened from a file.
    pub fn open(&mut self, opened: Opened) {
        self.replace_source(Source::Opened(opened));
    }

    /// Takes the bytes of a text file as the text, replacing whatever was there; says how it
    /// was read (UTF-8, UTF-16 or Latin-1). A binary file or one over [`MAX_TEXT_BYTES`] is
    /// refused, and then nothing is replaced.
    pub fn set_text(&mut self, bytes: Vec<u8>) -> Result<&TextRead> {
        check_text_size(bytes.len() as f64)?;
        let decoded = decode_text(bytes)?;
        let read = TextRead::new(&decoded);
        Ok(self.replace_text(decoded.text, read))
    }

    /// Makes the built-in sample the text (see [`Session::set_text`]).
    pub fn set_sample_text(&mut self) -> &TextRead {
        let text = crate::planted::sample_corpus();
        let read = TextRead::plain(text.len());
        self.replace_text(text, read)
    }

    /// Keeps only the text of the text, when it is XML or HTML, in its place: what was
    /// learned from it before is gone. The note of what is returned says what was kept.
    pub fn strip_markup(&mut self) -> Result<&TextRead> {
        let Source::Text(run) = &self.source else { return Err(no_text()) };
        let markup = Markup::detect(&run.text).ok_or_else(|| {
            Error::Session("this text is not XML or HTML: there is no markup to take out".into())
        })?;
        let text = markup.strip(&run.text);
        let read = run.read.stripped(&markup, text.len());
        Ok(self.replace_text(text, read))
    }

    fn replace_text(&mut self, text: String, read: TextRead) -> &TextRead {
        self.replace_source(Source::Text(TextRun::new(text, read)));
        let Source::Text(run) = &self.source else { unreachable!("a text was just set") };
        &run.read
    }

    /// Starts learning BPE merges of the text with the `bpeVocabSize` and `bpeMode` of
    /// `params`; [`Session::bpe_step`] goes on.
    pub fn bpe_begin(&mut self, params: &Params) -> Result<BpeProgress> {
        let config = params.bpe_config()?;
        self.text_run_mut().ok_or_else(no_text)?.bpe_begin(config)
    }

    /// Learns at most `max_merges` more merges.
    pub fn bpe_step(&mut self, max_merges: usize) -> Result<BpeProgress> {
        self.text_run_mut().ok_or_else(text::no_learning)?.bpe_step(max_merges)
    }

    /// Starts tokenizing the text for `params` (checked here), with the BPE merges learned
    /// for its configuration (learned here, in one go, when there are none);
    /// [`Session::prepare_step`] goes on and [`Session::prepare_finish`] ends it.
    pub fn prepare_begin(&mut self, params: Params) -> Result<()> {
        self.prepare_cancel();
        params.train_config().validate()?;
        params.vocab_config().validate()?;
        let word_tokenizer = params.word_tokenizer()?;
        self.text_run_mut().ok_or_else(no_text)?.prepare_begin(params, word_tokenizer)
    }

    /// Drops the text being tokenized, if any.
    pub fn prepare_cancel(&mut self) {
        if let Some(run) = self.text_run_mut() {
            run.preparing = None;
        }
    }

    /// Tokenizes about `max_bytes` more of the text; returns the fraction done.
    pub fn prepare_step(&mut self, max_bytes: usize) -> Result<f64> {
        self.text_run_mut().ok_or_else(text::not_preparing)?.prepare_step(max_bytes)
    }

    /// Finishes the vocabulary and makes a fresh trainer on `clock`, replacing any earlier
    /// one (and the maps drawn from it). Nothing is trained yet.
    pub fn prepare_finish(&mut self, clock: Clock) -> Result<&Training> {
        let Source::Text(run) = &mut self.source else { return Err(text::not_preparing()) };
        let Preparing { builder, fed, params, tokenizer } =
            run.preparing.take().ok_or_else(text::not_preparing)?;
        if fed < run.text.len() {
            return Err(Error::Session("the text is not tokenized to its end yet".into()));
        }
        let (vocab_config, train_config) = (params.vocab_config(), params.train_config());
        let corpus = builder.finish(&vocab_config)?;
        let run_id = fingerprint(&run.text, &tokenizer, &vocab_config, &train_config);
        let trainer = Trainer::new(corpus, train_config, clock)?;
        let trained_params = params.to_json()?;
        if params.tokenizer != "bpe" {
            run.bpe = None;
        }
        let history = NeighbourHistory::for_vocabulary(trainer.corpus().vocab().len());
        let training = run.training.insert(Training {
            trainer,
            fingerprint: run_id,
            params: trained_params,
            min_count: vocab_config.min_count,
            history,
            queried: Queried::Nothing,
            moved: None,
        });
        (self.frame, self.layout) = (None, None);
        Ok(training)
    }

    /// Trains on at most `max_tokens` more tokens through `step`, which runs the trainer's
    /// step (on the caller's threads) and hands the trainer back with what the step returned.
    /// Records the neighbours at an epoch's end; after a divergence queries keep the last
    /// snapshot, and the message says so.
    pub fn step_with(
        &mut self,
        max_tokens: u64,
        step: impl FnOnce(Trainer, u64) -> (Trainer, Result<Progress>),
    ) -> Result<Progress> {
        let run = self.text_run_mut().ok_or_else(no_text)?;
        let mut training = run.training.take().ok_or_else(no_text)?;
        training.moved = None;
        let (trainer, stepped) = step(training.trainer, max_tokens);
        training.trainer = trainer;
        run.training.insert(training).stepped(stepped)
    }

    /// [`Session::step_with`] on this thread.
    pub fn step(&mut self, max_tokens: u64) -> Result<Progress> {
        self.step_with(max_tokens, |mut trainer, max| {
            let stepped = trainer.step(max);
            (trainer, stepped)
        })
    }

    /// The step mode: the next `count` single updates (see [`Training::step_updates`]).
    pub fn step_updates(&mut self, count: u32) -> Result<(Option<UpdateReport>, u32)> {
        self.text_run_mut().and_then(|run| run.training.as_mut()).ok_or_else(no_text)?.step_updates(count)
    }

    fn text_run_mut(&mut self) -> Option<&mut TextRun> {
        match &mut self.source {
            Source::Text(run) => Some(run),
            Source::Opened(_) => None,
        }
    }
}

/// There is no text (or no trainer) to answer with.
pub fn no_text() -> Error {
    Error::Session("no text loaded yet: choose a file or the built-in sample first".into())
}

#[cfg(test)]
mod tests;
