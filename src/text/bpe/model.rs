//! A learned BPE model: the alphabet and the merges in rank order. Encoding applies the
//! merges to each chunk by rank with a heap (lowest rank first, leftmost first among
//! equals), which splits a text exactly as learning split the training text; repeated
//! chunks are encoded once per call and then reused.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::{BpeMode, FNV_OFFSET, PairMap, fnv1a, for_each_chunk, is_line_break, pack, spans_words};

/// No token: a character outside the alphabet, or the end of a list.
const NONE: u32 = u32::MAX;

/// One merge: `left` and `right` joined into a new token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Merge<'a> {
    pub left: &'a str,
    pub right: &'a str,
    /// The merge's place in learning order, from 0; encoding applies merges in this order.
    pub rank: usize,
    /// Weighted occurrences of the pair in the training text when it was merged.
    pub pair_count: u64,
}

/// Where a token came from, for the explorer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Provenance<'a> {
    /// The token's id in the model (characters first, by code point).
    pub id: u32,
    /// The merge that first made the token; `None` for a character of the alphabet.
    pub merge: Option<Merge<'a>>,
    /// Occurrences of the token in the training text as the finished model splits it
    /// (later merges absorb some of what a merge made, so this can be 0).
    pub count: u64,
    /// Whether the token joins words: it holds whitespace other than at its edges.
    pub spans_words: bool,
}

/// The alphabet and merges learned by [`super::BpeLearner`].
#[derive(Debug, Clone, PartialEq)]
pub struct BpeModel {
    mode: BpeMode,
    alphabet_size: usize,
    tokens: Vec<String>,
    merges: Vec<(u32, u32)>,
    /// The token each merge makes (usually `alphabet_size + rank`, not when a string repeats).
    merge_ids: Vec<u32>,
    pair_counts: Vec<u64>,
    counts: Vec<u64>,
    /// The rank of the merge that first made each token; `NONE` for characters.
    made_by: Vec<u32>,
    ids: HashMap<String, u32>,
    ascii_ids: Vec<u32>,
    char_ids: HashMap<char, u32>,
    /// The first rank of each pair of token ids.
    ranks: PairMap<u32>,
    hash: u64,
}

impl BpeModel {
    /// Assembles a model; the learner guarantees the preconditions: **`tokens` starts with
    /// the alphabet's characters in order, each merge's ids are below the token it makes.**
    pub(super) fn new(
        mode: BpeMode,
        alphabet: Vec<char>,
        tokens: Vec<String>,
        merges: Vec<(u32, u32)>,
        merge_ids: Vec<u32>,
        pair_counts: Vec<u64>,
        counts: Vec<u64>,
    ) -> BpeModel {
        let mut ascii_ids = vec![NONE; 128];
        let mut char_ids = HashMap::new();
        for (id, &c) in alphabet.iter().enumerate() {
            match ascii_ids.get_mut(c as usize) {
                Some(slot) => *slot = id as u32,
                None => {
                    char_ids.insert(c, id as u32);
                }
            }
        }
        let mut made_by = vec![NONE; tokens.len()];
        let mut ranks = PairMap::default();
        for (rank, (&(left, right), &id)) in merges.iter().zip(&merge_ids).enumerate() {
            ranks.entry(pack(left, right)).or_insert(rank as u32);
            if made_by[id as usize] == NONE {
                made_by[id as usize] = rank as u32;
            }
        }

        let mut hash = fnv1a(FNV_OFFSET, mode.name().as_bytes());
        for c in &alphabet {
            hash = fnv1a(hash, c.encode_utf8(&mut [0; 4]).as_bytes());
            hash = fnv1a(hash, &[0]);
        }
        for &(left, right) in &merges {
            hash = fnv1a(hash, &left.to_le_bytes());
            hash = fnv1a(hash, &right.to_le_bytes());
        }
        let ids = tokens.iter().enumerate().map(|(id, t)| (t.clone(), id as u32)).collect();
        BpeModel {
            mode,
            alphabet_size: alphabet.len(),
            tokens,
            merges,
            merge_ids,
            pair_counts,
            counts,
            made_by,
            ids,
            ascii_ids,
            char_ids,
            ranks,
            hash,
        }
    }

    /// Where merges may reach.
    pub fn mode(&self) -> BpeMode {
        self.mode
    }

    /// Distinct tokens: characters and merged strings.
    pub fn vocab_size(&self) -> usize {
        self.tokens.len()
    }

    /// Distinct characters of the training text; ids `0..alphabet_size()`.
    pub fn alphabet_size(&self) -> usize {
        self.alphabet_size
    }

    /// Number of merges.
    pub fn n_merges(&self) -> usize {
        self.merges.len()
    }

    /// The merge of rank `rank`, if there are that many.
    pub fn merge(&self, rank: usize) -> Option<Merge<'_>> {
        let &(left, right) = self.merges.get(rank)?;
        Some(Merge {
            left: &self.tokens[left as usize],
            right: &self.tokens[right as usize],
            rank,
            pair_count: self.pair_counts[rank],
        })
    }

    /// The token with id `id`.
    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).map(String::as_str)
    }

    /// The id of `token`, if it is in the vocabulary.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// Where `token` came from; `None` when it is not in the vocabulary.
    pub fn provenance(&self, token: &str) -> Option<Provenance<'_>> {
        let id = self.id(token)?;
        let rank = self.made_by[id as usize];
        Some(Provenance {
            id,
            merge: if rank == NONE { None } else { self.merge(rank as usize) },
            count: self.counts[id as usize],
            spans_words: spans_words(token),
        })
    }

    /// FNV-1a 64 over the mode, the alphabet and every merge.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// `bpe(mode=…,vocab_size=…,merges=…,hash=…)`: identifies the model in a run fingerprint.
    pub fn describe(&self) -> String {
        format!(
            "bpe(mode={},vocab_size={},merges={},hash={:016x})",
            self.mode.name(),
            self.vocab_size(),
            self.n_merges(),
            self.hash
        )
    }

    /// Splits `text` into tokens, each a non-empty slice of `text`: learned tokens, and
    /// one-character tokens for characters unseen in training.
    pub fn encode<'t>(&self, text: &'t str) -> Vec<&'t str> {
        let mut tokens = Vec::new();
        self.for_each_token(text, |token, _| tokens.push(token));
        tokens
    }

    /// Joins tokens back into text: `decode(&encode(text)) == text` for every text.
    pub fn decode<S: AsRef<str>>(&self, tokens: &[S]) -> String {
        tokens.iter().map(AsRef::as_ref).collect()
    }

    /// Calls `f(token, ends_line)` on each token of `text` in order; `ends_line` is set on
    /// the last token of a chunk that ends with a line break.
    pub(super) fn for_each_token<'t>(&self, text: &'t str, mut f: impl FnMut(&'t str, bool)) {
        let mut encoder = Encoder::default();
        // Token lengths in bytes, and per distinct chunk where its lengths start and end.
        let mut lengths: Vec<u32> = Vec::new();
        let mut cache: HashMap<&'t str, (usize, usize)> = HashMap::new();
        for_each_chunk(text, self.mode, |chunk| {
            let (start, end) = *cache.entry(chunk).or_insert_with(|| {
                let start = lengths.len();
                encoder.encode(self, chunk, &mut lengths);
                (start, lengths.len())
            });
            let ends_line = chunk.ends_with(is_line_break);
            let mut offset = 0;
            for (k, &len) in lengths[start..end].iter().enumerate() {
                let len = len as usize;
                f(&chunk[offset..offset + len], ends_line && k + 1 == end - start);
                offset += len;
            }
        });
    }

    fn char_id(&self, c: char) -> u32 {
        match self.ascii_ids.get(c as usize) {
            Some(&id) => id,
            None => self.char_ids.get(&c).copied().unwrap_or(NONE),
        }
    }

    fn rank(&self, left: u32, right: u32) -> Option<u32> {
        if left == NONE || right == NONE {
            return None;
        }
        self.ranks.get(&pack(left, right)).copied()
    }
}

/// Scratch space for encoding one chunk at a time: a linked list of symbols and a heap of
/// candidate merges `(rank, position)`, stale entries skipped when popped.
#[derive(Default)]
struct Encoder {
    ids: Vec<u32>,
    lens: Vec<u32>,
    prev: Vec<u32>,
    next: Vec<u32>,
    heap: BinaryHeap<Reverse<(u32, u32)>>,
}

impl Encoder {
    /// Appends the byte lengths of the tokens of `chunk` to `out`.
    fn encode(&mut self, model: &BpeModel, chunk: &str, out: &mut Vec<u32>) {
        self.ids.clear();
        self.lens.clear();
        for c in chunk.chars() {
            self.ids.push(model.char_id(c));
            self.lens.push(c.len_utf8() as u32);
        }
        let n = self.ids.len() as u32;
        self.prev.clear();
        self.prev.extend((0..n).map(|i| if i == 0 { NONE } else { i - 1 }));
        self.next.clear();
        self.next.extend((0..n).map(|i| if i + 1 == n { NONE } else { i + 1 }));
        self.heap.clear();
        for i in 1..n as usize {
            if let Some(rank) = model.rank(self.ids[i - 1], self.ids[i]) {
                self.heap.push(Reverse((rank, i as u32 - 1)));
            }
        }

        while let Some(Reverse((rank, i))) = self.heap.pop() {
            let (i, j) = (i as usize, self.next[i as usize]);
            let (left, right) = model.merges[rank as usize];
            if self.lens[i] == 0 || j == NONE || self.ids[i] != left || self.ids[j as usize] != right {
                continue;
            }
            let j = j as usize;
            self.ids[i] = model.merge_ids[rank as usize];
            self.lens[i] += self.lens[j];
            self.lens[j] = 0;
            let after = self.next[j];
            self.next[i] = after;
            if after != NONE {
                self.prev[after as usize] = i as u32;
                if let Some(rank) = model.rank(self.ids[i], self.ids[after as usize]) {
                    self.heap.push(Reverse((rank, i as u32)));
                }
            }
            let before = self.prev[i];
            if before != NONE
                && let Some(rank) = model.rank(self.ids[before as usize], self.ids[i])
            {
                self.heap.push(Reverse((rank, before)));
            }
        }
        out.extend(self.lens.iter().copied().filter(|&len| len > 0));
    }
}
