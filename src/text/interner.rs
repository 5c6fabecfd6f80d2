//! `Words`: the one table between words and their ids, each word stored once.
//!
//! A `Vec<String>` for id → word beside a `HashMap<String, _>` for word → id would hold
//! every word twice. Here the `Vec` holds the words and a `hashbrown::HashTable` (the table under
//! std's `HashMap` and under `indexmap`) holds only ids, hashing the word in the `Vec` when it
//! looks one up. Not `indexmap::IndexSet`, which stores each word once too: its slice type is
//! not a `&[String]`, and every reader of the words (writers, the page, the map) takes one.
//!
//! A vocabulary and the embeddings trained on it share one `Arc<Words>`, so taking a
//! snapshot of the vectors copies no word and hashes nothing.

use std::fmt;
use std::hash::BuildHasher;

use hashbrown::hash_table::Entry;
use hashbrown::{DefaultHashBuilder, HashTable};

/// Distinct words, each with the id of its position.
#[derive(Clone, Default)]
pub struct Words {
    words: Vec<String>,
    ids: HashTable<u32>,
    hasher: DefaultHashBuilder,
}

impl Words {
    /// The table of `words` in their order; fails with the first word that repeats.
    pub fn from_vec(words: Vec<String>) -> Result<Words, String> {
        let mut table = Words { ids: HashTable::with_capacity(words.len()), ..Words::default() };
        table.words.reserve_exact(words.len());
        for word in words {
            table.add(word).map_err(|(_, word)| word)?;
        }
        Ok(table)
    }

    /// The id of `word`, adding it at the end when it is new.
    pub fn intern(&mut self, word: &str) -> u32 {
        self.add(word).unwrap_or_else(|(id, _)| id)
    }

    /// Adds `word` when it is new and gives its id; a word already there comes back with
    /// the id it has.
    fn add<W: AsRef<str> + Into<String>>(&mut self, word: W) -> Result<u32, (u32, W)> {
        let hash = self.hasher.hash_one(word.as_ref());
        let Words { words, ids, hasher } = self;
        let entry = ids.entry(
            hash,
            |&id| words[id as usize] == word.as_ref(),
            |&id| hasher.hash_one(words[id as usize].as_str()),
        );
        match entry {
            Entry::Occupied(found) => Err((*found.get(), word)),
            Entry::Vacant(slot) => {
                let id = words.len() as u32;
                slot.insert(id);
                words.push(word.into());
                Ok(id)
            }
        }
    }

    /// The id of `word`, if it is in the table.
    pub fn id(&self, word: &str) -> Option<u32> {
        let hash = self.hasher.hash_one(word);
        self.ids.find(hash, |&id| self.words[id as usize] == word).copied()
    }

    /// The words in id order.
    pub fn as_slice(&self) -> &[String] {
        &self.words
    }

    /// The words, for a caller that takes them over.
    pub fn into_vec(self) -> Vec<String> {
        self.words
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

impl PartialEq for Words {
    fn eq(&self, other: &Words) -> bool {
        self.words == other.words
    }
}

impl fmt::Debug for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.words).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_order_and_repeats_are_named() {
        let words = Words::from_vec(vec!["the".into(), "of".into(), "from the dead".into()]).unwrap();
        assert_eq!(words.as_slice(), ["the", "of", "from the dead"]);
        assert_eq!((words.id("the"), words.id("from the dead"), words.id("dead")), (Some(0), Some(2), None));
        assert_eq!(Words::from_vec(vec!["a".into(), "b".into(), "a".into()]), Err("a".to_string()));
        assert!(Words::from_vec(Vec::new()).unwrap().is_empty());
    }

    #[test]
    fn interning_adds_new_words_only_and_survives_growth() {
        let mut words = Words::default();
        let ids: Vec<u32> = (0..10_000).map(|i| words.intern(&format!("w{}", i % 3_000))).collect();
        assert_eq!(words.len(), 3_000);
        assert!(ids.iter().enumerate().all(|(i, &id)| id as usize == i % 3_000));
        assert!((0..3_000).all(|i| words.id(&format!("w{i}")) == Some(i)));
        assert_eq!(words.into_vec()[2_999], "w2999");
    }
}
