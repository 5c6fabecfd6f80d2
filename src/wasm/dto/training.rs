//! Training: what a text gave before training ([`CorpusStats`]), and the progress of
//! training and of learning BPE merges. The page's form is the core's `params::Params`.

use serde::Serialize;
use tsify::Tsify;

use crate::text::{BpeProgress, Corpus, count_holding_whitespace};
use crate::train::{Progress, Trainer, UpdateReport};

/// What a text gave before training: shown as soon as a file is chosen.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct CorpusStats {
    pub bytes: usize,
    pub lines: usize,
    pub sentences: usize,
    pub tokens: u64,
    pub types: usize,
    pub vocab_size: usize,
    pub training_tokens: usize,
    pub types_below_min_count: usize,
    pub tokens_below_min_count: u64,
    pub types_over_max_vocab: usize,
    pub tokens_over_max_vocab: u64,
    pub min_count: u64,
    pub fingerprint: String,
    /// Why the vectors will be noise, when the text is too small to learn from (`TooSmall`).
    pub too_small: Option<String>,
    /// How many vocabulary tokens hold whitespace (see `text::count_holding_whitespace`).
    pub tokens_with_whitespace: usize,
}

impl CorpusStats {
    pub fn new(text: &str, corpus: &Corpus, min_count: u64, fingerprint: String) -> CorpusStats {
        let cut = corpus.cut();
        CorpusStats {
            bytes: text.len(),
            lines: text.lines().count(),
            sentences: corpus.n_sentences(),
            tokens: cut.tokens_seen,
            types: cut.types_seen,
            vocab_size: corpus.vocab().len(),
            training_tokens: corpus.n_tokens(),
            types_below_min_count: cut.types_below_min_count,
            tokens_below_min_count: cut.tokens_below_min_count,
            types_over_max_vocab: cut.types_over_max_vocab,
            tokens_over_max_vocab: cut.tokens_over_max_vocab,
            min_count,
            fingerprint,
            too_small: corpus.too_small().map(|verdict| verdict.to_string()),
            tokens_with_whitespace: count_holding_whitespace(corpus.vocab().words()),
        }
    }
}

/// Training progress, with the loss of every finished epoch for the loss chart.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ProgressDto {
    pub epoch: u32,
    pub epochs: u32,
    pub epoch_tokens_done: u64,
    pub epoch_tokens: u64,
    pub tokens_done: u64,
    pub tokens_total: u64,
    pub alpha: f32,
    /// The epoch's mean loss so far, and its two terms: `loss = positive_loss + negative_loss`.
    pub loss: f64,
    pub positive_loss: f64,
    pub negative_loss: f64,
    pub tokens_per_sec: f64,
    pub done: bool,
    /// Each finished epoch's mean loss, and its two terms.
    pub epoch_losses: Vec<f64>,
    pub epoch_positive_losses: Vec<f64>,
    pub epoch_negative_losses: Vec<f64>,
}

impl ProgressDto {
    pub fn new(p: Progress, trainer: &Trainer) -> ProgressDto {
        let terms = trainer.epoch_loss_terms();
        ProgressDto {
            epoch: p.epoch,
            epochs: p.epochs,
            epoch_tokens_done: p.epoch_tokens_done,
            epoch_tokens: p.epoch_tokens,
            tokens_done: p.tokens_done,
            tokens_total: p.tokens_total,
            alpha: p.alpha,
            loss: p.loss,
            positive_loss: p.loss_terms.positive,
            negative_loss: p.loss_terms.negative,
            tokens_per_sec: p.tokens_per_sec,
            done: p.done,
            epoch_losses: trainer.epoch_losses().to_vec(),
            epoch_positive_losses: terms.iter().map(|t| t.positive).collect(),
            epoch_negative_losses: terms.iter().map(|t| t.negative).collect(),
        }
    }
}

/// Progress of learning BPE merges.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct BpeProgressDto {
    pub merges_done: usize,
    pub vocab_size: usize,
    pub target_vocab_size: usize,
    pub alphabet_size: usize,
    pub fraction: f64,
    pub done: bool,
}

impl From<BpeProgress> for BpeProgressDto {
    fn from(p: BpeProgress) -> Self {
        BpeProgressDto {
            fraction: p.fraction(),
            merges_done: p.merges_done,
            vocab_size: p.vocab_size,
            target_vocab_size: p.target_vocab_size,
            alphabet_size: p.alphabet_size,
            done: p.done,
        }
    }
}

/// Tokens shown on each side of a step's window: the sentence around it, not all of a long one.
const STEP_CONTEXT_TOKENS: usize = 12;

/// One update for the step mode ([`Trainer::step_update`]), with words for ids: a
/// skip-gram pair, or a CBOW window.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct UpdateDto {
    /// Whether it is CBOW's update (the window's context words predict the centre) or
    /// skip-gram's (one context word predicts it).
    pub cbow: bool,
    pub epoch: u32,
    pub alpha: f32,
    /// The sentence around the window: its tokens from `first_at` (a corpus position), each
    /// with whether subsampling kept it.
    pub first_at: usize,
    pub tokens: Vec<String>,
    pub kept: Vec<bool>,
    /// Whether the shown tokens start at the sentence's start and end at its end.
    pub sentence_start: bool,
    pub sentence_end: bool,
    /// Corpus positions: the centre token, the context tokens (skip-gram's one, CBOW's
    /// whole window but the centre), the window's first and last.
    pub centre_at: usize,
    pub contexts_at: Vec<usize>,
    pub window_from: usize,
    pub window_to: usize,
    /// The context words (their input rows moved), in the order of `contexts_at`, and the
    /// output words: the centre, then the noise words (their output rows moved).
    pub input_words: Vec<String>,
    pub output_words: Vec<String>,
    pub scores_before: Vec<f64>,
    pub scores_after: Vec<f64>,
    pub loss_terms: Vec<f64>,
    pub positive_loss: f32,
    pub negative_loss: f32,
}

impl UpdateDto {
    pub fn new(report: UpdateReport, trainer: &Trainer) -> UpdateDto {
        let corpus = trainer.corpus();
        let words = corpus.vocab().words();
        let word = |id: u32| words[id as usize].clone();
        let segment_end = report.segment_start + report.segment_len;
        let first_at = report.window.0.saturating_sub(STEP_CONTEXT_TOKENS).max(report.segment_start);
        let end = (report.window.1 + 1 + STEP_CONTEXT_TOKENS).min(segment_end);
        UpdateDto {
            cbow: report.cbow,
            epoch: report.epoch,
            alpha: report.alpha,
            first_at,
            tokens: corpus.ids()[first_at..end].iter().map(|&id| word(id)).collect(),
            kept: (first_at..end).map(|at| report.kept.binary_search(&at).is_ok()).collect(),
            sentence_start: first_at == report.segment_start,
            sentence_end: end == segment_end,
            centre_at: report.centre_at,
            contexts_at: report.contexts_at,
            window_from: report.window.0,
            window_to: report.window.1,
            input_words: report.input_words.iter().map(|&id| word(id)).collect(),
            output_words: report.output_words.iter().map(|&id| word(id)).collect(),
            scores_before: report.scores_before,
            scores_after: report.scores_after,
            loss_terms: report.loss_terms,
            positive_loss: report.loss.positive,
            negative_loss: report.loss.negative,
        }
    }
}

/// What `Session::step_updates` did: the last update of those asked for (none once training
/// is done), how many ran, and the progress after them.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct StepUpdatesDto {
    pub update: Option<UpdateDto>,
    pub updates: u32,
    pub progress: ProgressDto,
}
