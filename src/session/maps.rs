//! The map's policy that is plain Rust: the numbering of the word lists of its frames.

use crate::Embeddings;
use crate::error::{Error, Result};

/// The words of the last frame, numbered: frames of the same words (every frame of a t-SNE
/// or UMAP run, the PCA frames while training) carry the number alone, since turning 20,000
/// words into JavaScript strings and posting them took 20 to 30 ms a frame; the worker asks
/// for the words ([`WordList::words`]) when a number is new to the page.
#[derive(Debug, Default)]
pub struct WordList {
    /// 0 before the first list.
    id: u32,
    words: Vec<String>,
}

impl WordList {
    /// The number of the list of `emb`'s words at `indices`: the last one's when they are the
    /// same words (compared word for word, so a new vocabulary with the same words keeps it).
    pub fn number(&mut self, emb: &Embeddings, indices: impl ExactSizeIterator<Item = usize> + Clone) -> u32 {
        let same = self.id != 0
            && indices.len() == self.words.len()
            && indices.clone().zip(&self.words).all(|(i, word)| emb.word(i) == word);
        if !same {
            self.id += 1;
            self.words = indices.map(|i| emb.word(i).to_string()).collect();
        }
        self.id
    }

    /// The words of list `id`; fails when a later list gave way to it.
    pub fn words(&self, id: u32) -> Result<&[String]> {
        if id == 0 || id != self.id {
            return Err(Error::Session(format!("word list {id} gave way to list {}", self.id)));
        }
        Ok(&self.words)
    }
}
