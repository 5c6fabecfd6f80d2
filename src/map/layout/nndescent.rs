//! Approximate k nearest neighbours by cosine, for maps of more words than exact search
//! affords: NN-descent (Dong, Charikar & Li 2011, "Efficient k-nearest neighbor graph
//! construction for generic similarity measures") started from a forest of random-projection
//! trees, as PyNNDescent (the search behind umap-learn) does.
//!
//! - **Trees**: each splits the words by a random hyperplane through the origin, normal to
//!   the difference of two of them (an angular split), until a leaf holds at most
//!   `max(k, 24)` words; every pair in a leaf is offered to both words' neighbours.
//! - **Descent**: a neighbour of a neighbour is likely a neighbour. Each round, every word's
//!   candidates are up to [`MAX_CANDIDATES`] of its neighbours and of the words that hold it
//!   as a neighbour, drawn at random, split into those new since the last round and the old
//!   ones; every pair of candidates of a word with at least one new is offered to both ends.
//!   The rounds stop when a round changes fewer than `DELTA · n · k` neighbours.
//!
//! Why not a crate: HNSW crates (`hnsw_rs`, `instant-distance`) build with rayon and answer
//! queries, not the graph of every word; their graphs depend on the threads' interleaving.
//! The descent here runs in a fixed order with one seeded generator, so a set of vectors gives
//! one graph on every build, native and wasm32, however its work is sliced: only the joins'
//! distances are shared among rayon's threads, and their offers are made in the serial order
//! ([`NnDescent::join_offers`]), so the graph is the same on any number of threads.
//!
//! Exact search ([`super::knn::KnnBuilder`]) takes `n² d / 2` multiply-adds, 20 s natively
//! at 50,000 words; the descent about `1.5 n c² d` a round for `c` candidates, and a few
//! rounds. The rows are sorted by `(distance, index)` as the exact graph's are; which
//! neighbours they hold may differ from it (the recall is measured in the tests and by
//! `examples/knn_recall.rs`).

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::Knn;
use crate::linalg;

mod heaps;
use heaps::{Candidates, Heaps};

/// Maps of up to this many words take exact neighbours; larger ones NN-descent's.
pub const EXACT_MAX_WORDS: usize = 20_000;

/// The candidates of a word in a round, new and old each. PyNNDescent takes `min(60, k)`;
/// 24 bounds a round to about 860 pairs a word (60 would be 5,400 for t-SNE's 90
/// neighbours), and kept the recall at 0.994 for 90 neighbours of KJV vectors.
const MAX_CANDIDATES: usize = 24;
/// A round that changes fewer than this share of the `n k` neighbours is the last
/// (PyNNDescent's 0.001 ran one round more for the same recall on KJV vectors).
const DELTA: f64 = 0.004;
/// Rows joined together, their distances shared among rayon's threads: a block of 256 rows
/// of t-SNE's 90 neighbours offers about 220,000 pairs (a few MB of offers kept).
const JOIN_BLOCK: usize = 256;
/// Rows a thread takes at a time within a block.
const JOIN_ROWS_A_TASK: usize = 8;
/// Rounds at most.
const MAX_ROUNDS: usize = 12;
/// The smallest leaf a tree splits no further.
const MIN_LEAF: usize = 24;
/// The seed of the trees and of the draws: the graph depends on the vectors and `k` only.
const SEED: u64 = 0x6e6e_6465_7363;
/// Work units (see [`super::knn::KnnBuilder::step`]) of offering one pair to two words.
const OFFER_WORK: u64 = 32;
/// Work units, per neighbour, of drawing a word's candidates and of marking them old
/// (measured natively at 50,000 words: slices of 500,000 units took 51 and 15 ms at 4 and 1).
const CANDIDATE_WORK: u64 = 40;
const MARK_WORK: u64 = 15;

impl Knn {
    /// The `k` nearest neighbours of each of the `unit.len() / dim` unit vectors by cosine
    /// distance, approximately: NN-descent's graph, as maps of over [`EXACT_MAX_WORDS`] words
    /// use. Rows are sorted as [`Knn::cosine`]'s.
    ///
    /// **Unchecked precondition:** as [`Knn::cosine`]'s.
    pub fn cosine_approximate(unit: &[f32], dim: usize, k: usize) -> Knn {
        let mut search = NnDescent::new(unit.len() / dim, dim, k);
        while !search.step(unit, u64::MAX) {}
        search.finish()
    }
}

/// The cosine distance of unit vectors `a` and `b`.
#[inline]
fn distance(unit: &[f32], dim: usize, a: u32, b: u32) -> f32 {
    let (a, b) = (a as usize, b as usize);
    1.0 - linalg::dot(&unit[a * dim..(a + 1) * dim], &unit[b * dim..(b + 1) * dim])
}

/// Where the search stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Splitting the words of tree `tree` (the nodes left on the stack).
    Trees {
        tree: usize,
    },
    /// Words with fewer than `k` neighbours after the trees get others, from `row` on.
    Fill {
        row: usize,
    },
    /// Drawing the round's candidates, from `row` on.
    Candidates {
        row: usize,
    },
    /// Marking the drawn new neighbours old, from `row` on.
    Mark {
        row: usize,
    },
    /// Joining each word's candidates, from `row` on.
    Join {
        row: usize,
    },
    /// Sorting each word's neighbours, from `row` on.
    Sort {
        row: usize,
    },
    Done,
}

/// The approximate k-NN graph of `n` unit vectors built a slice at a time, as
/// [`super::knn::KnnBuilder`] builds the exact one: the same graph however the work is sliced.
pub struct NnDescent {
    n: usize,
    dim: usize,
    k: usize,
    trees: usize,
    leaf: usize,
    heaps: Heaps,
    rng: Xoshiro256PlusPlus,
    stage: Stage,
    /// A tree's words, each node a range of them, and the ranges left to split.
    order: Vec<u32>,
    stack: Vec<(usize, usize)>,
    normal: Vec<f32>,
    sides: Vec<u32>,
    new: Candidates,
    old: Candidates,
    round: usize,
    /// Neighbours changed in the round under way.
    changes: u64,
}

impl NnDescent {
    /// Starts the graph of `k` nearest neighbours of `n` unit vectors of `dim` numbers.
    ///
    /// **Unchecked precondition:** `dim > 0`, `n ≤ u32::MAX`, `k < n`.
    pub fn new(n: usize, dim: usize, k: usize) -> NnDescent {
        debug_assert!(dim > 0 && k < n.max(1));
        // PyNNDescent's forest: 5 + n^¼ / 2 trees. Fewer for t-SNE's larger leaves took twice
        // as long in all: more rounds of descent (28,959 KJV words, 90 neighbours).
        let leaf = k.max(MIN_LEAF);
        let trees = (5 + ((n as f64).powf(0.25) / 2.0).round() as usize).min(64);
        let mut search = NnDescent {
            n,
            dim,
            k,
            trees,
            leaf,
            heaps: Heaps::new(n, k),
            rng: Xoshiro256PlusPlus::seed_from_u64(SEED),
            stage: Stage::Trees { tree: 0 },
            order: Vec::new(),
            stack: Vec::new(),
            normal: vec![0.0; dim],
            sides: Vec::new(),
            new: Candidates::new(n),
            old: Candidates::new(n),
            round: 0,
            changes: 0,
        };
        search.start_tree();
        search
    }

    /// Which part of the work it is in, a number that changes when a unit's cost may.
    pub fn stage(&self) -> u64 {
        match self.stage {
            Stage::Trees { .. } => 0,
            Stage::Fill { .. } => 1,
            Stage::Candidates { .. } => 2,
            Stage::Mark { .. } => 3,
            Stage::Join { .. } => 4,
            Stage::Sort { .. } => 5,
            Stage::Done => 6,
        }
    }

    fn start_tree(&mut self) {
        self.order.clear();
        self.order.extend(0..self.n as u32);
        self.stack.clear();
        self.stack.push((0, self.n));
    }

    fn distance(&self, unit: &[f32], a: u32, b: u32) -> f32 {
        distance(unit, self.dim, a, b)
    }

    /// The pairs the joins of `rows` offer, in the order a serial join offers them, with
    /// their distances, computed on rayon's threads; those neither end could take (farther
    /// than both rows' worst kept neighbour now) are left out.
    ///
    /// Leaving them out changes nothing: a row's worst kept distance only falls as offers
    /// enter, so a pair turned away at the block's start would be turned away when offered.
    /// Offering the rest in the serial order then gives the serial graph to the bit, on any
    /// number of threads and for any block.
    fn join_offers(&self, unit: &[f32], rows: std::ops::Range<usize>) -> Vec<(u32, u32, f32)> {
        let dim = self.dim;
        let (heaps, new, old) = (&self.heaps, &self.new, &self.old);
        let wanted = |p: u32, q: u32, out: &mut Vec<(u32, u32, f32)>| {
            let d = distance(unit, dim, p, q);
            if d <= heaps.worst[p as usize] || d <= heaps.worst[q as usize] {
                out.push((p, q, d));
            }
        };
        rows.into_par_iter()
            .with_min_len(JOIN_ROWS_A_TASK)
            .flat_map_iter(|row| {
                let (new, old) = (new.of(row), old.of(row));
                let mut out = Vec::new();
                for (a, &p) in new.iter().enumerate() {
                    for &q in &new[a + 1..] {
                        wanted(p, q, &mut out);
                    }
                    for &q in old {
                        if q != p {
                            wanted(p, q, &mut out);
                        }
                    }
                }
                out
            })
            .collect()
    }

    /// Offers the pair `a`, `b` to both; counts the neighbours it changed.
    fn offer_pair(&mut self, unit: &[f32], a: u32, b: u32) {
        let d = self.distance(unit, a, b);
        let changed =
            u64::from(self.heaps.offer(a as usize, b, d)) + u64::from(self.heaps.offer(b as usize, a, d));
        self.changes += changed;
    }

    /// Does about `max_work` units more (a multiply-add of a distance is one; at least one
    /// node, row or word's join), and says whether the graph is complete.
    ///
    /// **Unchecked precondition:** `unit` holds the same `n × dim` unit vectors at every call.
    pub fn step(&mut self, unit: &[f32], max_work: u64) -> bool {
        let (n, dim) = (self.n, self.dim);
        debug_assert_eq!(unit.len(), n * dim);
        let pair_work = dim as u64 + OFFER_WORK;
        let mut work = 0u64;
        loop {
            if self.stage == Stage::Done {
                return true;
            }
            if work >= max_work {
                return false;
            }
            work += match self.stage {
                Stage::Trees { tree } => self.tree_step(unit, tree, pair_work),
                Stage::Fill { row } => self.fill_row(unit, row, pair_work),
                Stage::Candidates { row } => self.candidates_row(row),
                Stage::Mark { row } => self.mark_row(row),
                Stage::Join { row } => self.join_block(unit, row, work, max_work, pair_work),
                Stage::Sort { row } => self.sort_row(row),
                Stage::Done => 0,
            };
        }
    }

    /// One piece of a tree's split: a leaf's pairs offered, or a range split in two; the
    /// next tree, or the fill, once the tree is done. Returns the work done.
    #[inline]
    fn tree_step(&mut self, unit: &[f32], tree: usize, pair_work: u64) -> u64 {
        let Some((lo, hi)) = self.stack.pop() else {
            self.stage = if tree + 1 < self.trees {
                self.start_tree();
                Stage::Trees { tree: tree + 1 }
            } else {
                self.order = Vec::new();
                self.sides = Vec::new();
                Stage::Fill { row: 0 }
            };
            return 0;
        };
        let len = hi - lo;
        if len <= self.leaf {
            for a in lo..hi {
                for b in a + 1..hi {
                    self.offer_pair(unit, self.order[a], self.order[b]);
                }
            }
            (len * len / 2) as u64 * pair_work + 1
        } else {
            let mid = self.split(unit, lo, hi);
            self.stack.push((mid, hi));
            self.stack.push((lo, mid));
            (len * self.dim) as u64
        }
    }

    /// Fills `row`'s neighbours to `k` when the trees' leaves left it short. Returns the work
    /// done.
    #[inline]
    fn fill_row(&mut self, unit: &[f32], row: usize, pair_work: u64) -> u64 {
        let (n, k) = (self.n, self.k);
        let mut work = 0;
        // A word in small leaves only: others from a random place on.
        if (self.heaps.len[row] as usize) < k {
            let from = self.rng.random_range(0..n);
            for t in 0..n {
                if self.heaps.len[row] as usize >= k {
                    break;
                }
                let j = ((from + t) % n) as u32;
                if j as usize != row {
                    let d = self.distance(unit, row as u32, j);
                    self.heaps.offer(row, j, d);
                    work += pair_work;
                }
            }
        }
        work += k as u64;
        self.stage = if row + 1 < n { Stage::Fill { row: row + 1 } } else { self.start_round() };
        work
    }

    /// Adds `row`'s neighbours, new and old, to the round's candidate lists. Returns the work
    /// done.
    #[inline]
    fn candidates_row(&mut self, row: usize) -> u64 {
        let (n, k) = (self.n, self.k);
        for e in row * k..(row + 1) * k {
            let j = self.heaps.indices[e];
            let priority: f32 = self.rng.random();
            let list = if self.heaps.fresh[e] { &mut self.new } else { &mut self.old };
            list.push(row, j, priority);
            list.push(j as usize, row as u32, priority);
        }
        self.stage = if row + 1 < n { Stage::Candidates { row: row + 1 } } else { Stage::Mark { row: 0 } };
        CANDIDATE_WORK * k as u64
    }

    /// Marks `row`'s neighbours taken as new candidates as no longer new. Returns the work
    /// done.
    #[inline]
    fn mark_row(&mut self, row: usize) -> u64 {
        let (n, k) = (self.n, self.k);
        for e in row * k..(row + 1) * k {
            if self.heaps.fresh[e] && self.new.of(row).contains(&self.heaps.indices[e]) {
                self.heaps.fresh[e] = false;
            }
        }
        self.stage = if row + 1 < n { Stage::Mark { row: row + 1 } } else { Stage::Join { row: 0 } };
        MARK_WORK * k as u64
    }

    /// Joins a block of rows from `row`, as many as `max_work` less the `work` done affords;
    /// then the next block, round or the sort. Returns the work done.
    #[inline]
    fn join_block(&mut self, unit: &[f32], row: usize, work: u64, max_work: u64, pair_work: u64) -> u64 {
        let (n, k) = (self.n, self.k);
        // A block of rows, as many as the budget left affords (at least one, at
        // most JOIN_BLOCK): their distances on rayon's threads, then offered here
        // in the serial order.
        let mut end = row;
        let mut block_work = 0u64;
        while end < n && end - row < JOIN_BLOCK && (end == row || work + block_work < max_work) {
            let (new_len, old_len) = (self.new.of(end).len(), self.old.of(end).len());
            block_work += (new_len * (new_len / 2 + old_len)) as u64 * pair_work + 1;
            end += 1;
        }
        let offers = self.join_offers(unit, row..end);
        for (p, q, d) in offers {
            let changed =
                u64::from(self.heaps.offer(p as usize, q, d)) + u64::from(self.heaps.offer(q as usize, p, d));
            self.changes += changed;
        }
        self.stage = if end < n {
            Stage::Join { row: end }
        } else {
            self.round += 1;
            let settled = (self.changes as f64) <= DELTA * (n * k) as f64;
            if settled || self.round >= MAX_ROUNDS {
                self.new = Candidates::new(0);
                self.old = Candidates::new(0);
                Stage::Sort { row: 0 }
            } else {
                self.start_round()
            }
        };
        block_work
    }

    /// Sorts `row`'s neighbours by distance, nearest first. Returns the work done.
    #[inline]
    fn sort_row(&mut self, row: usize) -> u64 {
        let (n, k) = (self.n, self.k);
        let range = row * k..(row + 1) * k;
        let mut pairs: Vec<(f32, u32)> = self.heaps.distances[range.clone()]
            .iter()
            .copied()
            .zip(self.heaps.indices[range.clone()].iter().copied())
            .collect();
        pairs.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (slot, (d, i)) in range.zip(pairs) {
            self.heaps.distances[slot] = d;
            self.heaps.indices[slot] = i;
        }
        self.stage = if row + 1 < n { Stage::Sort { row: row + 1 } } else { Stage::Done };
        8 * k as u64
    }

    /// A round's start: its candidate lists emptied.
    fn start_round(&mut self) -> Stage {
        self.changes = 0;
        self.new.len.fill(0);
        self.old.len.fill(0);
        Stage::Candidates { row: 0 }
    }

    /// Splits the words `order[lo..hi]` by a random hyperplane into `order[lo..mid]` and
    /// `order[mid..hi]`, both non-empty, and returns `mid`.
    fn split(&mut self, unit: &[f32], lo: usize, hi: usize) -> usize {
        let dim = self.dim;
        let len = hi - lo;
        let a = self.order[lo + self.rng.random_range(0..len)] as usize;
        let mut b = self.order[lo + self.rng.random_range(0..len - 1)] as usize;
        if b == a {
            b = self.order[hi - 1] as usize;
        }
        for (t, x) in self.normal.iter_mut().enumerate() {
            *x = unit[a * dim + t] - unit[b * dim + t];
        }
        // Left words in order, then right ones: a stable partition.
        self.sides.clear();
        let mut left = lo;
        for at in lo..hi {
            let w = self.order[at];
            let side = linalg::dot(&unit[w as usize * dim..(w as usize + 1) * dim], &self.normal);
            let goes_left = if side == 0.0 { self.rng.random::<bool>() } else { side > 0.0 };
            if goes_left {
                self.order[left] = w;
                left += 1;
            } else {
                self.sides.push(w);
            }
        }
        self.order[left..hi].copy_from_slice(&self.sides);
        if left == lo || left == hi {
            // Identical or degenerate vectors: halve the node as it stands.
            lo + len / 2
        } else {
            left
        }
    }

    /// The graph. **Unchecked precondition:** `step` has said it is complete.
    pub fn finish(self) -> Knn {
        debug_assert!(self.stage == Stage::Done);
        Knn::from_sorted(self.n, self.k, self.heaps.indices, self.heaps.distances)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::layout::tests::gaussian_clusters;

    /// The share of the exact graph's neighbours that `approximate` holds.
    fn recall(exact: &Knn, approximate: &Knn) -> f64 {
        let found: usize = (0..exact.n())
            .map(|i| exact.neighbours(i).iter().filter(|j| approximate.neighbours(i).contains(j)).count())
            .sum();
        found as f64 / (exact.n() * exact.k()) as f64
    }

    fn build(unit: &[f32], dim: usize, k: usize, budget: u64) -> Knn {
        let mut search = NnDescent::new(unit.len() / dim, dim, k);
        while !search.step(unit, budget) {}
        search.finish()
    }

    #[test]
    fn finds_nearly_every_exact_neighbour() {
        // 3,000 words in 60 clusters of 30 dimensions, overlapping enough that a word's
        // neighbours are not just its cluster's nearest; k as UMAP's (14) and t-SNE's (45 at
        // perplexity 15).
        let emb = gaussian_clusters(60, 50, 30, 1.0, 11);
        let unit = emb.unit_rows(3000);
        for (k, floor) in [(14, 0.95), (45, 0.95)] {
            let exact = Knn::cosine(&unit, 30, k);
            let approximate = build(&unit, 30, k, u64::MAX);
            let r = recall(&exact, &approximate);
            assert!(r >= floor, "k = {k}: recall {r:.4}");
            for i in 0..3000 {
                let d = approximate.distances(i);
                assert!(d.windows(2).all(|w| w[0] <= w[1]), "row {i} sorted");
                assert!(!approximate.neighbours(i).contains(&(i as u32)), "row {i} holds itself");
                let mut ids = approximate.neighbours(i).to_vec();
                ids.sort_unstable();
                ids.dedup();
                assert_eq!(ids.len(), k, "row {i} holds a word twice");
            }
        }
    }

    #[test]
    fn the_same_graph_however_sliced() {
        let emb = gaussian_clusters(20, 60, 16, 1.0, 12);
        let unit = emb.unit_rows(1200);
        let whole = build(&unit, 16, 10, u64::MAX);
        for budget in [1, 997, 50_000] {
            assert_eq!(build(&unit, 16, 10, budget), whole, "budget {budget}");
        }
    }

    #[test]
    fn the_same_graph_on_one_thread_and_on_several() {
        let emb = gaussian_clusters(30, 100, 16, 1.0, 15);
        let unit = emb.unit_rows(3000);
        let run = |threads: usize, budget: u64| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            pool.install(|| build(&unit, 16, 20, budget))
        };
        let one = run(1, u64::MAX);
        assert_eq!(run(3, u64::MAX), one);
        assert_eq!(run(2, 20_000), one);
    }

    #[test]
    fn identical_vectors_and_tiny_sets_give_full_rows() {
        let unit = [0.6f32, 0.8].repeat(200);
        let knn = build(&unit, 2, 30, 1000);
        for i in 0..200 {
            assert!(knn.distances(i).iter().all(|&d| d.abs() < 1e-6));
            assert!(!knn.neighbours(i).contains(&(i as u32)));
        }
        let emb = gaussian_clusters(2, 3, 4, 1.0, 13);
        let unit = emb.unit_rows(6);
        assert_eq!(build(&unit, 4, 5, 7), Knn::cosine(&unit, 4, 5));
    }
}
