//! Sampling: a word's count, keep and noise probabilities and window partners, and the
//! vocabulary's Zipf chart, as the trainer defines them (`train::sampling`).

use wasm_bindgen::prelude::*;

use super::{Session, js_error, no_text, to_js};
use crate::error::{Error, UnknownWord};
use crate::train::{word_sampling, zipf_curve};
use crate::wasm::dto::{PartnerDto, WordSamplingDto, ZipfDto};

#[wasm_bindgen]
impl Session {
    /// What sampling does to `word` (`WordSamplingDto`), with its `max_partners` most
    /// frequent window partners. Fails without a trainer (vectors opened from a file have no
    /// text to sample) and for a word outside its vocabulary.
    pub fn word_sampling(&self, word: &str, max_partners: usize) -> Result<JsValue, JsError> {
        let trainer = &self.training().ok_or_else(|| no_sampling(self))?.trainer;
        let vocab = trainer.corpus().vocab();
        let id = vocab
            .id(word)
            .ok_or_else(|| js_error(Error::UnknownWords(vec![UnknownWord::new(word, vocab.words())])))?;
        let sampling = word_sampling(trainer, id, max_partners);
        let config = trainer.config();
        to_js(&WordSamplingDto {
            word: word.to_string(),
            rank: id as usize,
            count: sampling.count,
            frequency: sampling.frequency,
            keep: sampling.keep,
            noise: sampling.noise,
            window: config.window,
            sample: config.sample,
            ns_exponent: config.ns_exponent,
            partners: sampling
                .partners
                .iter()
                .map(|p| PartnerDto { word: vocab.words()[p.id as usize].clone(), count: p.count })
                .collect(),
        })
    }

    /// The trainer's vocabulary on a Zipf chart: at most `points` ranks spread on a log
    /// scale, with their frequency, keep and noise probabilities (`ZipfDto`). Fails without
    /// a trainer.
    pub fn zipf_curve(&self, points: usize) -> Result<JsValue, JsError> {
        let trainer = &self.training().ok_or_else(|| no_sampling(self))?.trainer;
        let curve = zipf_curve(trainer, points);
        let config = trainer.config();
        to_js(&ZipfDto {
            ranks: curve.ranks,
            counts: curve.counts,
            frequency: curve.frequency,
            keep: curve.keep,
            noise: curve.noise,
            vocab_size: trainer.corpus().vocab().len(),
            sample: config.sample,
            ns_exponent: config.ns_exponent,
        })
    }
}

/// Why there is no sampling to show: no text yet, or vectors opened from a file.
fn no_sampling(session: &Session) -> JsError {
    match session.text_run() {
        Some(_) => no_text(),
        None => JsError::new(
            "sampling belongs to training on a text: vectors opened from a file were sampled elsewhere",
        ),
    }
}
