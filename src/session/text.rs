//! A text run: the text, how it was read, the BPE merges learned from it (and when they are
//! reused), and the text tokenized into a corpus a piece at a time.

use std::rc::Rc;

use crate::error::{Error, Result};
use crate::params::Params;
use crate::text::{
    BpeConfig, BpeLearner, BpeProgress, BpeTokenizer, CorpusBuilder, Decoded, Markup, Tokenizer,
};

use super::training::Training;

/// The largest text the explorer takes: its copy in wasm memory, the tokens, the vectors
/// and the snapshots must fit in the 4 GiB a wasm instance can have, with room to spare.
/// The command-line tool has no such limit.
pub const MAX_TEXT_BYTES: f64 = 250e6;

/// The largest text BPE learns merges from in the explorer: learning keeps several words of
/// bookkeeping per character (pairs, their counts, the queue).
pub const MAX_BPE_TEXT_BYTES: usize = 32_000_000;

/// How a text was read: its size and encoding, a note for the page when it was not plain
/// UTF-8 (UTF-16, Latin-1, characters replaced) or when only its text was kept, and
/// `markup`, what `Markup::describe` says when the text is XML or HTML.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextRead {
    pub bytes: usize,
    pub encoding: &'static str,
    pub replaced: usize,
    pub note: Option<String>,
    pub markup: Option<String>,
}

impl TextRead {
    pub fn new(decoded: &Decoded) -> TextRead {
        TextRead {
            bytes: decoded.text.len(),
            encoding: decoded.encoding.name(),
            replaced: decoded.replaced,
            note: decoded.note(),
            markup: Markup::detect(&decoded.text).map(|markup| markup.describe()),
        }
    }

    /// A text the app wrote itself, in UTF-8.
    pub fn plain(bytes: usize) -> TextRead {
        TextRead { bytes, encoding: "UTF-8", replaced: 0, note: None, markup: None }
    }

    /// This text with only the text of its markup kept: `kept` bytes of `markup`.
    pub fn stripped(&self, markup: &Markup, kept: usize) -> TextRead {
        let what =
            format!("only the text of its {} is kept ({} of {} bytes)", markup.kind.name(), kept, self.bytes);
        let note = match &self.note {
            Some(note) => format!("{note}; {what}"),
            None => what,
        };
        TextRead { bytes: kept, note: Some(note), markup: None, ..self.clone() }
    }
}

/// BPE merges being learned, or learned, for the run's text with one configuration.
pub struct Bpe<T> {
    pub config: BpeConfig,
    pub state: T,
}

/// A text and what has been learned from it. Each part is there or not on its own: merges
/// for one configuration can be learned while a trainer made with another one answers
/// queries, and a new vocabulary is prepared while the last trainer stays (it is replaced
/// only when the new one is made).
#[derive(Default)]
pub struct TextRun {
    /// The text being trained on, for the concordance of a token.
    pub text: String,
    /// How the text was read, kept for `strip_markup`.
    pub read: TextRead,
    /// BPE merges being learned (`bpe_begin`, `bpe_step`).
    pub learner: Option<Bpe<BpeLearner>>,
    /// BPE merges learned, for `prepare` and the provenance of a token.
    pub bpe: Option<Bpe<Rc<BpeTokenizer>>>,
    /// The text being tokenized a piece at a time (`prepare_begin`).
    pub preparing: Option<Preparing>,
    /// The trainer and what belongs to it (`prepare_finish`).
    pub training: Option<Training>,
}

/// The text being tokenized into a corpus, a piece at a time, with the parameters it is for.
pub struct Preparing {
    pub builder: CorpusBuilder<Box<dyn Tokenizer>>,
    /// Bytes of the text fed to the builder so far.
    pub fed: usize,
    pub params: Params,
    /// What the tokenizer is, for the run's fingerprint.
    pub tokenizer: String,
}

impl TextRun {
    pub fn new(text: String, read: TextRead) -> TextRun {
        TextRun { text, read, ..TextRun::default() }
    }

    /// Starts learning BPE merges for `config`; `bpe_step` goes on.
    pub fn bpe_begin(&mut self, config: BpeConfig) -> Result<BpeProgress> {
        check_bpe_size(self.text.len())?;
        let learner = BpeLearner::new(&self.text, &config)?;
        let progress = learner.progress();
        self.learner = Some(Bpe { config, state: learner });
        Ok(progress)
    }

    /// Learns at most `max_merges` more merges; when learning is done the merges are kept
    /// for `prepare` and for the provenance of a token.
    pub fn bpe_step(&mut self, max_merges: usize) -> Result<BpeProgress> {
        let learner = self.learner.as_mut().ok_or_else(no_learning)?;
        let progress = learner.state.step(max_merges);
        if progress.done {
            let Bpe { config, state } = self.learner.take().expect("checked above");
            self.bpe = Some(Bpe { config, state: Rc::new(BpeTokenizer::new(state.into_model())) });
        }
        Ok(progress)
    }

    /// The merges for `config`: those learned already, or the ones being learned, finished
    /// now, or new ones learned in one go; kept in `self.bpe`.
    pub fn learn_bpe(&mut self, config: BpeConfig) -> Result<&Rc<BpeTokenizer>> {
        if !self.bpe.as_ref().is_some_and(|b| b.config == config) {
            let mut learner = match self.learner.take() {
                Some(l) if l.config == config => l.state,
                _ => BpeLearner::new(&self.text, &config)?,
            };
            while !learner.step(usize::MAX).done {}
            self.bpe = Some(Bpe { config, state: Rc::new(BpeTokenizer::new(learner.into_model())) });
        }
        Ok(&self.bpe.as_ref().expect("set above").state)
    }

    /// Starts tokenizing the text for `params` with `word_tokenizer`, or with BPE merges for
    /// `params` when there is none; `prepare_step` goes on. A preparation under way before is
    /// dropped first, whether or not this one starts.
    pub fn prepare_begin(
        &mut self,
        params: Params,
        word_tokenizer: Option<Box<dyn Tokenizer>>,
    ) -> Result<()> {
        self.preparing = None;
        let tokenizer: Box<dyn Tokenizer> = match word_tokenizer {
            Some(tokenizer) => tokenizer,
            None => {
                check_bpe_size(self.text.len())?;
                Box::new(Rc::clone(self.learn_bpe(params.bpe_config()?)?))
            }
        };
        let described = tokenizer.describe();
        self.preparing =
            Some(Preparing { builder: CorpusBuilder::new(tokenizer), fed: 0, params, tokenizer: described });
        Ok(())
    }

    /// Tokenizes about `max_bytes` more of the text (at least one character, ending on a
    /// character's boundary); returns the fraction done.
    pub fn prepare_step(&mut self, max_bytes: usize) -> Result<f64> {
        let preparing = self.preparing.as_mut().ok_or_else(not_preparing)?;
        let text = &self.text;
        let mut end = preparing.fed.saturating_add(max_bytes.max(1)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        preparing.builder.feed(&text[preparing.fed..end]);
        preparing.fed = end;
        Ok(if text.is_empty() { 1.0 } else { end as f64 / text.len() as f64 })
    }
}

pub(super) fn no_learning() -> Error {
    Error::Session("no BPE learning in progress".into())
}

pub(super) fn not_preparing() -> Error {
    Error::Session("no text is being prepared".into())
}

fn megabytes(bytes: f64) -> String {
    format!("{:.0} MB", bytes / 1e6)
}

/// Refuses, before anything is read, a text of `bytes` bytes over [`MAX_TEXT_BYTES`].
pub fn check_text_size(bytes: f64) -> Result<()> {
    if bytes > MAX_TEXT_BYTES {
        return Err(Error::Session(format!(
            "this file is {}, and the explorer takes texts up to {}: open a part of it, or train on it \
             with the command-line tool (embedscope train), which has no such limit",
            megabytes(bytes),
            megabytes(MAX_TEXT_BYTES)
        )));
    }
    Ok(())
}

/// Refuses a compressed text once `bytes` of it, inflated, pass [`MAX_TEXT_BYTES`].
pub fn check_inflated_text_size(bytes: f64) -> Result<()> {
    if bytes > MAX_TEXT_BYTES {
        return Err(Error::Session(format!(
            "this file inflates to more than {} of text, and the explorer takes texts up to that: open a part \
             of it, or train on it with the command-line tool (embedscope train), which has no such limit",
            megabytes(MAX_TEXT_BYTES)
        )));
    }
    Ok(())
}

/// Refuses to learn BPE merges from a text of `bytes` bytes over [`MAX_BPE_TEXT_BYTES`].
pub fn check_bpe_size(bytes: usize) -> Result<()> {
    if bytes > MAX_BPE_TEXT_BYTES {
        return Err(Error::Session(format!(
            "BPE learns its merges from texts up to {} in the explorer, and this one is {}: choose the \
             word or whitespace tokenizer, or open a part of the text",
            megabytes(MAX_BPE_TEXT_BYTES as f64),
            megabytes(bytes as f64)
        )));
    }
    Ok(())
}
