//! The chunked BPE learner: incremental pair counts, a priority queue with lazy deletion,
//! and per-pair occurrence lists, so a merge costs time in proportion to the places it
//! changes, never a recount of the text.
//!
//! **Invariant:** for every pair `(a, b)` in `pairs`, `count` is the weighted number of
//! positions `i` with `symbols[i] == a` and `symbols[next[i]] == b`, and `occurrences`
//! holds every such `i` (and possibly stale positions, skipped when met). A stale position
//! never becomes valid again: a symbol only ever grows by absorbing its right neighbour,
//! so neither it nor its right neighbour can return to an earlier string.

use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap, HashSet};

use super::{BpeConfig, BpeMode, BpeModel, PairMap, for_each_chunk, pack, unpack};
use crate::error::{Error, Result};

/// No position, or a symbol merged into its left neighbour.
const NONE: u32 = u32::MAX;

/// Pairs seen fewer times than this are never merged.
const MIN_PAIR_COUNT: u64 = 2;

/// Where learning stands, returned by every [`BpeLearner::step`].
#[derive(Debug, Clone, PartialEq)]
pub struct BpeProgress {
    /// Merges learned so far.
    pub merges_done: usize,
    /// Distinct tokens so far: the alphabet plus the tokens merges made. Grows by one per
    /// merge, except when a merge makes a string an earlier merge made already.
    pub vocab_size: usize,
    /// The vocabulary size asked for.
    pub target_vocab_size: usize,
    /// Distinct characters of the text, the tokens learning starts from.
    pub alphabet_size: usize,
    /// Weighted occurrences of the pair merged last (0 before the first merge); it falls
    /// as learning proceeds.
    pub last_pair_count: u64,
    /// Whether learning is finished: the target is reached, or no pair occurs twice.
    pub done: bool,
}

impl BpeProgress {
    /// The fraction of the way to the target vocabulary, from 0 to 1 (1 when done).
    pub fn fraction(&self) -> f64 {
        if self.done || self.target_vocab_size <= self.alphabet_size {
            return 1.0;
        }
        (self.vocab_size - self.alphabet_size) as f64 / (self.target_vocab_size - self.alphabet_size) as f64
    }
}

/// Learns BPE merges from a text, a chunk of merges at a time.
pub struct BpeLearner {
    mode: BpeMode,
    target_vocab_size: usize,
    alphabet: Vec<char>,
    /// Every token's string by id: the alphabet, then one per new string made by a merge.
    tokens: Vec<String>,
    token_ids: HashMap<String, u32>,
    /// Per merge, in rank order: the pair, the token it made, the pair's count then.
    merges: Vec<(u32, u32)>,
    merge_ids: Vec<u32>,
    pair_counts: Vec<u64>,

    /// The distinct chunks, laid end to end as linked lists of token ids (one position
    /// per character). `symbols[i] == NONE` once position `i` is merged into its left.
    symbols: Vec<u32>,
    prev: Vec<u32>,
    next: Vec<u32>,
    /// First position of each distinct chunk, and how often the chunk occurs in the text.
    chunk_starts: Vec<u32>,
    chunk_weights: Vec<u64>,

    pairs: PairMap<PairStats>,
    queue: BinaryHeap<Candidate>,
    /// Pairs whose count changed during the current merge, to requeue.
    touched: Vec<u64>,
    exhausted: bool,
}

struct PairStats {
    count: u64,
    /// Where the pair first appeared: the tie-break between equal counts.
    first: u32,
    occurrences: Vec<u32>,
}

/// A queue entry; the greatest is the most frequent pair, then the earliest, then the
/// smallest ids. Entries whose count or first position no longer match are stale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Candidate {
    count: u64,
    first: Reverse<u32>,
    pair: Reverse<u64>,
}

impl BpeLearner {
    /// Prepares learning: cuts the text into chunks, finds the alphabet and counts every
    /// pair of adjacent characters.
    ///
    /// Fails with [`Error::EmptyCorpus`] when the text is empty or only whitespace, and
    /// with [`Error::InvalidParameter`] when `vocab_size` is out of range, including below
    /// the number of distinct characters of the text.
    pub fn new(text: &str, config: &BpeConfig) -> Result<BpeLearner> {
        config.validate()?;
        if text.trim().is_empty() {
            return Err(Error::EmptyCorpus);
        }
        if text.len() >= NONE as usize {
            return Err(Error::InvalidParameter {
                name: "text",
                value: format!("{} bytes", text.len()),
                expected: "less than 4 GiB".into(),
            });
        }

        let mut chunk_ids: HashMap<&str, u32> = HashMap::new();
        let mut chunks: Vec<&str> = Vec::new();
        let mut chunk_weights: Vec<u64> = Vec::new();
        for_each_chunk(text, config.mode, |chunk| match chunk_ids.entry(chunk) {
            Entry::Occupied(id) => chunk_weights[*id.get() as usize] += 1,
            Entry::Vacant(slot) => {
                slot.insert(chunks.len() as u32);
                chunks.push(chunk);
                chunk_weights.push(1);
            }
        });

        let mut alphabet: Vec<char> =
            chunks.iter().flat_map(|c| c.chars()).collect::<HashSet<char>>().into_iter().collect();
        alphabet.sort_unstable();
        if config.vocab_size < alphabet.len() {
            return Err(Error::InvalidParameter {
                name: "vocab_size",
                value: config.vocab_size.to_string(),
                expected: format!(
                    "at least {}, the number of distinct characters in the text (each is a token)",
                    alphabet.len()
                ),
            });
        }
        let char_ids: HashMap<char, u32> = alphabet.iter().enumerate().map(|(i, &c)| (c, i as u32)).collect();

        let n_positions: usize = chunks.iter().map(|c| c.chars().count()).sum();
        let mut symbols = Vec::with_capacity(n_positions);
        let mut prev = Vec::with_capacity(n_positions);
        let mut next = Vec::with_capacity(n_positions);
        let mut chunk_starts = Vec::with_capacity(chunks.len());
        for chunk in &chunks {
            let start = symbols.len() as u32;
            chunk_starts.push(start);
            symbols.extend(chunk.chars().map(|c| char_ids[&c]));
            let end = symbols.len() as u32;
            prev.extend((start..end).map(|i| if i == start { NONE } else { i - 1 }));
            next.extend((start..end).map(|i| if i + 1 == end { NONE } else { i + 1 }));
        }

        let mut pairs: PairMap<PairStats> = PairMap::default();
        for (chunk, &weight) in chunk_weights.iter().enumerate() {
            let start = chunk_starts[chunk] as usize;
            let end = chunk_starts.get(chunk + 1).map_or(symbols.len(), |&s| s as usize);
            for i in start..end.saturating_sub(1) {
                let stats = pairs.entry(pack(symbols[i], symbols[i + 1])).or_insert_with(|| PairStats {
                    count: 0,
                    first: i as u32,
                    occurrences: Vec::new(),
                });
                stats.count += weight;
                stats.occurrences.push(i as u32);
            }
        }
        let queue = pairs
            .iter()
            .map(|(&key, s)| Candidate { count: s.count, first: Reverse(s.first), pair: Reverse(key) })
            .collect();

        let tokens: Vec<String> = alphabet.iter().map(|c| c.to_string()).collect();
        let token_ids = tokens.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
        Ok(BpeLearner {
            mode: config.mode,
            target_vocab_size: config.vocab_size,
            alphabet,
            tokens,
            token_ids,
            merges: Vec::new(),
            merge_ids: Vec::new(),
            pair_counts: Vec::new(),
            symbols,
            prev,
            next,
            chunk_starts,
            chunk_weights,
            pairs,
            queue,
            touched: Vec::new(),
            exhausted: false,
        })
    }

    /// Whether learning is finished: the vocabulary reached its target size, or no pair
    /// occurs twice any more.
    pub fn is_done(&self) -> bool {
        self.exhausted || self.tokens.len() >= self.target_vocab_size
    }

    /// Learns at most `max_merges` more merges and says where learning stands. Once done,
    /// it does nothing. The merges learned do not depend on how learning is chunked.
    pub fn step(&mut self, max_merges: usize) -> BpeProgress {
        let mut merged = 0;
        while merged < max_merges && !self.is_done() {
            match self.best_pair() {
                Some(key) => {
                    self.merge(key);
                    merged += 1;
                }
                None => self.exhausted = true,
            }
        }
        self.progress()
    }

    /// Where learning stands, without learning.
    pub fn progress(&self) -> BpeProgress {
        BpeProgress {
            merges_done: self.merges.len(),
            vocab_size: self.tokens.len(),
            target_vocab_size: self.target_vocab_size,
            alphabet_size: self.alphabet.len(),
            last_pair_count: self.pair_counts.last().copied().unwrap_or(0),
            done: self.is_done(),
        }
    }

    /// The model learned so far, finished or not (cancelling gives a smaller model).
    /// Counts every token in the training text as the model splits it.
    pub fn into_model(self) -> BpeModel {
        let mut counts = vec![0u64; self.tokens.len()];
        for (chunk, &weight) in self.chunk_weights.iter().enumerate() {
            let start = self.chunk_starts[chunk] as usize;
            let end = self.chunk_starts.get(chunk + 1).map_or(self.symbols.len(), |&s| s as usize);
            for &symbol in self.symbols[start..end].iter().filter(|&&s| s != NONE) {
                counts[symbol as usize] += weight;
            }
        }
        BpeModel::new(
            self.mode,
            self.alphabet,
            self.tokens,
            self.merges,
            self.merge_ids,
            self.pair_counts,
            counts,
        )
    }

    /// Pops the most frequent live pair, skipping stale entries; `None` when no pair
    /// occurs at least [`MIN_PAIR_COUNT`] times.
    fn best_pair(&mut self) -> Option<u64> {
        while let Some(candidate) = self.queue.pop() {
            let key = candidate.pair.0;
            match self.pairs.get(&key) {
                Some(s) if s.count == candidate.count && s.first == candidate.first.0 => {
                    return (s.count >= MIN_PAIR_COUNT).then_some(key);
                }
                _ => continue,
            }
        }
        None
    }

    /// Merges every occurrence of the pair `key`, left to right, and updates the counts
    /// of the pairs around each.
    fn merge(&mut self, key: u64) {
        let (a, b) = unpack(key);
        let Some(stats) = self.pairs.remove(&key) else { return };
        let merged = format!("{}{}", self.tokens[a as usize], self.tokens[b as usize]);
        let c = match self.token_ids.get(&merged) {
            Some(&id) => id,
            None => {
                let id = self.tokens.len() as u32;
                self.token_ids.insert(merged.clone(), id);
                self.tokens.push(merged);
                id
            }
        };
        self.merges.push((a, b));
        self.merge_ids.push(c);
        self.pair_counts.push(stats.count);

        // Left to right, so runs like "aaa" merge as "aa a", as encoding does.
        let mut occurrences = stats.occurrences;
        occurrences.sort_unstable();
        for i in occurrences {
            let j = self.next[i as usize];
            if self.symbols[i as usize] != a || j == NONE || self.symbols[j as usize] != b {
                continue;
            }
            let weight = self.weight(i);
            let (p, n) = (self.prev[i as usize], self.next[j as usize]);
            if p != NONE {
                let left = self.symbols[p as usize];
                self.remove_pair(pack(left, a), weight);
                self.add_pair(pack(left, c), weight, p);
            }
            if n != NONE {
                let right = self.symbols[n as usize];
                self.remove_pair(pack(b, right), weight);
                self.add_pair(pack(c, right), weight, i);
                self.prev[n as usize] = i;
            }
            self.symbols[i as usize] = c;
            self.symbols[j as usize] = NONE;
            self.next[i as usize] = n;
        }

        self.touched.sort_unstable();
        self.touched.dedup();
        for &key in &self.touched {
            match self.pairs.get(&key) {
                Some(s) if s.count > 0 => {
                    self.queue.push(Candidate { count: s.count, first: Reverse(s.first), pair: Reverse(key) })
                }
                Some(_) => {
                    self.pairs.remove(&key);
                }
                None => {}
            }
        }
        self.touched.clear();
    }

    /// How often the chunk holding position `i` occurs in the text.
    fn weight(&self, i: u32) -> u64 {
        self.chunk_weights[self.chunk_starts.partition_point(|&s| s <= i) - 1]
    }

    fn add_pair(&mut self, key: u64, weight: u64, position: u32) {
        let stats = self.pairs.entry(key).or_insert_with(|| PairStats {
            count: 0,
            first: position,
            occurrences: Vec::new(),
        });
        stats.count += weight;
        stats.occurrences.push(position);
        self.touched.push(key);
    }

    /// Absent only for the pair being merged, met again inside a run like "aaa".
    fn remove_pair(&mut self, key: u64, weight: u64) {
        if let Some(stats) = self.pairs.get_mut(&key) {
            stats.count -= weight;
            self.touched.push(key);
        }
    }
}
