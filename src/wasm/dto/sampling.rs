//! Sampling: what subsampling and the noise distribution do to a word, and to the whole
//! vocabulary (`train::sampling`), for the page's Sampling card.

use serde::Serialize;
use tsify::Tsify;

/// A word of the trainer's vocabulary as sampling sees it (`train::WordSampling`), with the
/// parameters that decide it.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct WordSamplingDto {
    pub word: String,
    /// 0-based frequency rank.
    pub rank: usize,
    pub count: u64,
    /// The word's share of the text's tokens.
    pub frequency: f64,
    /// The probability that subsampling keeps one of its tokens.
    pub keep: f64,
    /// The probability that a noise draw is this word.
    pub noise: f64,
    /// The window, the subsampling threshold and the noise exponent the trainer uses.
    pub window: usize,
    pub sample: f64,
    pub ns_exponent: f64,
    /// The words most often within the window of its tokens, before subsampling.
    pub partners: Vec<PartnerDto>,
}

/// A word found in another's windows, and how often.
#[derive(Debug, Serialize, Tsify)]
pub struct PartnerDto {
    pub word: String,
    pub count: u64,
}

/// The Zipf chart's points (`train::ZipfCurve`): ranks spread on a log scale, each with its
/// count, share of the tokens, keep probability and noise probability.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ZipfDto {
    pub ranks: Vec<u32>,
    pub counts: Vec<u64>,
    pub frequency: Vec<f64>,
    pub keep: Vec<f64>,
    pub noise: Vec<f64>,
    /// The vocabulary's size, the subsampling threshold and the noise exponent.
    pub vocab_size: usize,
    pub sample: f64,
    pub ns_exponent: f64,
}
