//! `Embeddings`: a vocabulary with one vector per word, kept both raw and L2-normalised.
//!
//! **Architecture Invariant:** words are unique and ordered by descending corpus frequency
//! where it is known (index 0 is the most frequent), so "the N most frequent words" is the
//! prefix `0..N`. Every vector is finite and has exactly `dim` components; the constructor
//! checks this once and there are no setters.

use std::sync::Arc;

use crate::error::{Error, Result, UnknownWord};
use crate::linalg;
use crate::text::Words;

/// Word vectors: `len()` rows of `dim()` floats, row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Embeddings {
    /// Shared with the vocabulary they were trained on, when they were.
    words: Arc<Words>,
    dim: usize,
    vectors: Vec<f32>,
    unit: Vec<f32>,
}

impl Embeddings {
    /// Builds embeddings from words and their row-major vectors.
    ///
    /// Fails when `dim` is 0, when `vectors.len() != words.len() * dim`, when a word
    /// repeats, or when a component is NaN or infinite.
    pub fn new(words: Vec<String>, dim: usize, vectors: Vec<f32>) -> Result<Self> {
        let words = Words::from_vec(words)
            .map_err(|word| Error::Format { line: 0, message: format!("the word '{word}' occurs twice") })?;
        Embeddings::with_words(Arc::new(words), dim, vectors)
    }

    /// Like [`Embeddings::new`], with words already in a table (a vocabulary's, shared: a
    /// snapshot of training copies no word).
    pub fn with_words(words: Arc<Words>, dim: usize, vectors: Vec<f32>) -> Result<Self> {
        if dim == 0 {
            return Err(Error::InvalidParameter {
                name: "dim",
                value: "0".into(),
                expected: "at least 1".into(),
            });
        }
        if vectors.len() != words.len() * dim {
            return Err(Error::Format {
                line: 0,
                message: format!(
                    "{} words of dimension {dim} need {} numbers, found {}",
                    words.len(),
                    words.len() * dim,
                    vectors.len()
                ),
            });
        }
        if let Some(pos) = vectors.iter().position(|v| !v.is_finite()) {
            return Err(Error::Format {
                line: 0,
                message: format!(
                    "the vector of '{}' holds a NaN or infinite value",
                    words.as_slice()[pos / dim]
                ),
            });
        }
        let mut unit = vectors.clone();
        unit.chunks_exact_mut(dim).for_each(linalg::normalize);
        Ok(Embeddings { words, dim, vectors, unit })
    }

    /// Number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether there are no words.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Number of components of each vector.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// All words, most frequent first.
    pub fn words(&self) -> &[String] {
        self.words.as_slice()
    }

    /// The word at `word_idx`. **Unchecked precondition:** `word_idx < len()` (panics otherwise).
    pub fn word(&self, word_idx: usize) -> &str {
        &self.words.as_slice()[word_idx]
    }

    /// The index of `word`, or `None` when it is not in the vocabulary.
    pub fn index_of(&self, word: &str) -> Option<usize> {
        self.words.id(word).map(|id| id as usize)
    }

    /// Like [`Embeddings::index_of`], but an unknown word is an [`Error::UnknownWords`] with
    /// the nearest spellings of it.
    pub fn try_index_of(&self, word: &str) -> Result<usize> {
        self.index_of(word).ok_or_else(|| Error::UnknownWords(vec![self.unknown(word)]))
    }

    /// `word`, which the vocabulary lacks, with the nearest spellings of it that it holds.
    pub fn unknown(&self, word: &str) -> UnknownWord {
        UnknownWord::new(word, self.words())
    }

    /// The raw vector at `word_idx`. **Unchecked precondition:** `word_idx < len()`.
    pub fn vector(&self, word_idx: usize) -> &[f32] {
        &self.vectors[word_idx * self.dim..(word_idx + 1) * self.dim]
    }

    /// The L2-normalised vector at `word_idx` (zero stays zero). **Unchecked precondition:** `word_idx < len()`.
    pub fn unit_vector(&self, word_idx: usize) -> &[f32] {
        &self.unit[word_idx * self.dim..(word_idx + 1) * self.dim]
    }

    /// Indices of up to `limit` words that start with `prefix`, ignoring case, most
    /// frequent first: the completions of a search box.
    pub fn complete(&self, prefix: &str, limit: usize) -> Vec<usize> {
        let prefix = prefix.to_lowercase();
        self.words()
            .iter()
            .enumerate()
            .filter(|(_, word)| starts_with_ignoring_case(word, &prefix))
            .map(|(i, _)| i)
            .take(limit)
            .collect()
    }

    /// How many words hold `needle`, ignoring case, and the indices of the first `limit` of
    /// them, most frequent first: what a search finds in the whole vocabulary.
    pub fn containing(&self, needle: &str, limit: usize) -> (usize, Vec<usize>) {
        let needle = needle.to_lowercase();
        let mut found = Vec::new();
        let mut count = 0;
        for (i, word) in self.words().iter().enumerate() {
            if word.to_lowercase().contains(&needle) {
                count += 1;
                if found.len() < limit {
                    found.push(i);
                }
            }
        }
        (count, found)
    }

    /// All raw vectors, row-major.
    pub fn raw(&self) -> &[f32] {
        &self.vectors
    }

    /// All normalised vectors, row-major.
    pub fn unit(&self) -> &[f32] {
        &self.unit
    }
}

#[cfg(test)]
impl Embeddings {
    /// Test embeddings from `(word, vector)` rows, most frequent first; panics on rows that
    /// break the invariant.
    pub(crate) fn from_rows(rows: &[(&str, &[f32])]) -> Embeddings {
        let dim = rows[0].1.len();
        let words = rows.iter().map(|(w, _)| w.to_string()).collect();
        let vectors = rows.iter().flat_map(|(_, v)| v.iter().copied()).collect();
        Embeddings::new(words, dim, vectors).expect("valid test embeddings")
    }
}

/// Whether `word` lowercased starts with `lower_prefix` (already lowercase), without
/// allocating: the search box calls this for every vocabulary word on every keystroke.
fn starts_with_ignoring_case(word: &str, lower_prefix: &str) -> bool {
    let mut word_chars = word.chars().flat_map(char::to_lowercase);
    lower_prefix.chars().all(|p| word_chars.next() == Some(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(ws: &[&str]) -> Vec<String> {
        ws.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn constructor_checks_its_invariant() {
        assert!(Embeddings::new(words(&["a"]), 0, vec![]).is_err());
        assert!(Embeddings::new(words(&["a", "b"]), 2, vec![1.0; 3]).is_err());
        assert!(Embeddings::new(words(&["a", "a"]), 1, vec![1.0; 2]).is_err());
        assert!(Embeddings::new(words(&["a"]), 1, vec![f32::NAN]).is_err());
        let e = Embeddings::new(words(&["a", "b"]), 2, vec![3.0, 4.0, 0.0, 0.0]).unwrap();
        assert_eq!(e.unit_vector(0), &[0.6, 0.8]);
        assert_eq!(e.unit_vector(1), &[0.0, 0.0]);
        assert_eq!(e.complete("A", 5), vec![0]);
        let unknown = UnknownWord { word: "c".into(), suggestions: words(&["a", "b"]) };
        assert_eq!(e.try_index_of("c"), Err(Error::UnknownWords(vec![unknown])));
    }

    #[test]
    fn completion_ignores_case_and_keeps_frequency_order() {
        let e = Embeddings::new(words(&["The", "them", "Theos", "ÉTÉ", "other"]), 1, vec![1.0; 5]).unwrap();
        assert_eq!(e.complete("the", 10), vec![0, 1, 2]);
        assert_eq!(e.complete("THE", 2), vec![0, 1]);
        assert_eq!(e.complete("été", 10), vec![3]);
        assert_eq!(e.complete("", 2), vec![0, 1]);
        assert_eq!(e.complete("zzz", 10), Vec::<usize>::new());
    }

    #[test]
    fn containing_counts_every_word_and_lists_the_most_frequent() {
        let e = Embeddings::new(words(&["The", "other", "them", "ÉTÉ", "father"]), 1, vec![1.0; 5]).unwrap();
        assert_eq!(e.containing("THE", 2), (4, vec![0, 1]));
        assert_eq!(e.containing("the", 10), (4, vec![0, 1, 2, 4]));
        assert_eq!(e.containing("été", 10), (1, vec![3]));
        assert_eq!(e.containing("zzz", 10), (0, vec![]));
    }
}
