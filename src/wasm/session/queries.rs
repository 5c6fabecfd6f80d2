//! Queries on the vectors: where a token came from, nearest neighbours, analogies,
//! completions of a prefix, the words holding a text, and a word's neighbours at each epoch end.

use wasm_bindgen::prelude::*;

use super::{Session, js_error, no_text, to_js};
use crate::error::{Error, UnknownWord};
use crate::text::concordance;
use crate::vectors::AnalogyMethod;
use crate::wasm::dto::{AnalogyDto, MergeDto, NeighbourDto, RankedWordDto, TokenInfoDto, VocabMatchesDto};

#[wasm_bindgen]
impl Session {
    /// Where `token` came from: its count and frequency rank, the BPE merge that made it and
    /// whether it spans words (BPE only), and up to `max_lines` lines of the text holding it.
    pub fn token_info(&self, token: &str, max_lines: usize) -> Result<JsValue, JsError> {
        let run = self.text_run().ok_or_else(no_text)?;
        let trainer = &run.training.as_ref().ok_or_else(no_text)?.trainer;
        let vocab = trainer.corpus().vocab();
        let unknown = || js_error(Error::UnknownWords(vec![UnknownWord::new(token, vocab.words())]));
        let rank = vocab.id(token).ok_or_else(unknown)? as usize;
        let provenance = run.bpe.as_ref().and_then(|bpe| bpe.state.model().provenance(token));
        to_js(&TokenInfoDto {
            token: token.to_string(),
            rank,
            count: vocab.counts()[rank],
            merge: provenance.as_ref().and_then(MergeDto::of),
            spans_words: provenance.is_some_and(|p| p.spans_words),
            concordance: concordance(&run.text, token, max_lines),
        })
    }

    /// `word`'s `k` nearest neighbours (at most `NEIGHBOUR_K`) at the end of each epoch kept
    /// (`NeighbourHistory` in www/protocol.js): of the trainer, or of an opened bundle; null
    /// for vectors without a history (opened from a word2vec, GloVe or Projector file). Fails
    /// for a word outside the most frequent ones kept.
    pub fn neighbour_history(&mut self, word: &str, k: usize) -> Result<JsValue, JsError> {
        let embeddings = self.embeddings()?;
        match self.kept_history() {
            Some(history) => crate::wasm::timeline::word_history(history, &embeddings, word, k),
            None => Ok(JsValue::NULL),
        }
    }

    /// Number of words in the vocabulary (0 before `prepare`).
    pub fn vocab_size(&self) -> usize {
        self.training().map_or(0, |t| t.trainer.corpus().vocab().len())
    }

    /// The `k` nearest neighbours of `word` by cosine (`NeighbourDto[]`).
    pub fn neighbours(&mut self, word: &str, k: usize) -> Result<JsValue, JsError> {
        let list = self.embeddings()?.neighbours(word, k, None).map_err(js_error)?;
        to_js(&list.into_iter().map(NeighbourDto::from).collect::<Vec<_>>())
    }

    /// Whether `word` is not in the vocabulary and its vector is built from its character
    /// n-grams (a fastText model's), as its neighbours and analogies use it.
    pub fn built_from_ngrams(&mut self, word: &str) -> Result<bool, JsError> {
        Ok(self.embeddings()?.built_from_ngrams(word))
    }

    /// "a is to b as c is to ?", by 3CosAdd and 3CosMul (`AnalogyDto`).
    pub fn analogy(&mut self, a: &str, b: &str, c: &str, k: usize) -> Result<JsValue, JsError> {
        let emb = self.embeddings()?;
        let answer = |method| -> Result<Vec<NeighbourDto>, JsError> {
            let list = emb.analogy(a, b, c, k, method, None).map_err(js_error)?;
            Ok(list.into_iter().map(NeighbourDto::from).collect())
        };
        to_js(&AnalogyDto {
            cos_add: answer(AnalogyMethod::CosAdd)?,
            cos_mul: answer(AnalogyMethod::CosMul)?,
        })
    }

    /// Up to `limit` vocabulary words starting with `prefix` (any case), most frequent first.
    pub fn complete(&mut self, prefix: &str, limit: usize) -> Result<Vec<String>, JsError> {
        let emb = self.embeddings()?;
        Ok(emb.complete(prefix, limit).into_iter().map(|i| emb.word(i).to_string()).collect())
    }

    /// Vocabulary words holding `needle` (any case), for a search on the map that the words
    /// shown do not answer: how many, and up to `limit` of them, most frequent first, with
    /// their ranks (`VocabMatchesDto`).
    pub fn find_words(&mut self, needle: &str, limit: usize) -> Result<JsValue, JsError> {
        let emb = self.embeddings()?;
        let (count, found) = emb.containing(needle, limit);
        let words =
            found.into_iter().map(|rank| RankedWordDto { word: emb.word(rank).to_string(), rank }).collect();
        to_js(&VocabMatchesDto { count, words })
    }
}
