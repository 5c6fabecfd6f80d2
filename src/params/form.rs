//! The parameters as the page's form and a bundle name them ([`Params`]), one flat list of
//! fields; [`Params`] turns them into the core's configurations.

use serde::Deserialize;

use crate::error::Result;
use crate::io::json;
use crate::params::{RunParams, TokenizerSpec};
use crate::text::{BpeConfig, BpeMode, Tokenizer, VocabConfig, WordTokenizer};
use crate::train::TrainConfig;

/// Training parameters as the page's form sends them; a missing field takes its default.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Params {
    /// "word", "whitespace" or "bpe".
    pub tokenizer: String,
    /// With "bpe": the vocabulary size to learn, and "cross" or "within".
    pub bpe_vocab_size: usize,
    pub bpe_mode: String,
    pub lowercase: bool,
    pub keep_punctuation: bool,
    pub dim: usize,
    pub window: usize,
    pub negative: usize,
    pub sample: f64,
    pub min_count: u64,
    pub max_vocab: Option<usize>,
    pub epochs: u32,
    /// The learning rate; missing, the model's default (0.025 skip-gram, 0.05 CBOW).
    pub alpha: Option<f32>,
    pub min_alpha: f32,
    pub ns_exponent: f64,
    pub seed: u64,
    /// Threads to train on (the worker sizes its pool to it first; 1 is bit-reproducible).
    pub threads: usize,
    /// CBOW rather than skip-gram.
    pub cbow: bool,
    /// Skip-gram: one draw of noise words per window (`TrainConfig::shared_noise`).
    pub shared_noise: bool,
}

impl Default for Params {
    fn default() -> Self {
        let (t, v) = (TrainConfig::default(), VocabConfig::default());
        Params {
            tokenizer: "word".into(),
            bpe_vocab_size: BpeConfig::default().vocab_size,
            bpe_mode: BpeConfig::default().mode.name().into(),
            lowercase: false,
            keep_punctuation: false,
            dim: t.dim,
            window: t.window,
            negative: t.negative,
            sample: t.sample,
            min_count: v.min_count,
            max_vocab: v.max_vocab,
            epochs: t.epochs,
            alpha: None,
            min_alpha: t.min_alpha,
            ns_exponent: t.ns_exponent,
            seed: t.seed,
            threads: t.threads,
            cbow: t.cbow,
            shared_noise: t.shared_noise,
        }
    }
}

impl Params {
    /// The tokenizer chosen by name, with its own options from the form.
    pub fn tokenizer_spec(&self) -> Result<TokenizerSpec> {
        let word = WordTokenizer { lowercase: self.lowercase, keep_punctuation: self.keep_punctuation };
        // The BPE fields are checked only when BPE is chosen.
        let bpe = if self.tokenizer == "bpe" { self.bpe_config()? } else { BpeConfig::default() };
        TokenizerSpec::from_name(&self.tokenizer, word, bpe)
    }

    /// The word-level tokenizer, or `None` for "bpe", whose model must be learned first.
    pub fn word_tokenizer(&self) -> Result<Option<Box<dyn Tokenizer>>> {
        Ok(self.tokenizer_spec()?.ready())
    }

    pub fn bpe_config(&self) -> Result<BpeConfig> {
        let config = BpeConfig { vocab_size: self.bpe_vocab_size, mode: BpeMode::from_name(&self.bpe_mode)? };
        config.validate()?;
        Ok(config)
    }

    pub fn vocab_config(&self) -> VocabConfig {
        VocabConfig { min_count: self.min_count, max_vocab: self.max_vocab }
    }

    /// The parameters under the page's names, as the command-line tool writes them into a
    /// bundle (`RunParams::to_json`). The session keeps this for the trainer it makes, so a
    /// bundle tells how its vectors were trained, whatever the form says later.
    pub fn to_json(&self) -> Result<json::Value> {
        let run = RunParams {
            tokenizer: self.tokenizer_spec()?,
            vocab: self.vocab_config(),
            train: self.train_config(),
        };
        Ok(run.to_json())
    }

    pub fn train_config(&self) -> TrainConfig {
        TrainConfig {
            dim: self.dim,
            window: self.window,
            negative: self.negative,
            sample: self.sample,
            alpha: self.alpha(),
            min_alpha: self.min_alpha,
            epochs: self.epochs,
            ns_exponent: self.ns_exponent,
            seed: self.seed,
            threads: self.threads,
            cbow: self.cbow,
            shared_noise: self.shared_noise,
        }
    }

    /// The learning rate asked for, or the model's default.
    fn alpha(&self) -> f32 {
        self.alpha.unwrap_or(TrainConfig::default_alpha(self.cbow))
    }
}
