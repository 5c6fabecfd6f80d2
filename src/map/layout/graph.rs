//! The weighted neighbour graph a layout is built from, computed a slice at a time: the
//! exact cosine k-NN graph ([`KnnBuilder`]), then each word's weights on its neighbours
//! (t-SNE's conditional probabilities, UMAP's memberships), then the symmetric graph in
//! compressed rows, an edge found from both ends combined by the layout's rule.
//!
//! Built in one go (a blocking ~0.7 s in wasm at 5,000 words for t-SNE), it would keep a
//! worker from reading its messages; [`GraphBuilder::step`] takes a work budget instead,
//! which the worker sizes to about 50 ms.
//!
//! **Invariant:** the graph does not depend on how the work is sliced nor on the threads:
//! each stage visits rows in the same order, a row's weights depend on that row alone (so
//! rayon weighs rows on its threads), and combining the two directions of an edge is
//! symmetric to the bit (`a + b`, `1 − (1 − a)(1 − b)`), so the order they meet in does not
//! matter.

use rayon::prelude::*;

use super::Knn;
use super::knn::KnnBuilder;
use super::nndescent::{EXACT_MAX_WORDS, NnDescent};

/// The search for each word's neighbours: exact up to [`EXACT_MAX_WORDS`] words, else
/// NN-descent's.
enum Search {
    Exact(Box<KnnBuilder>),
    Approximate(Box<NnDescent>),
}

impl Search {
    fn new(n: usize, dim: usize, k: usize) -> Search {
        if n <= EXACT_MAX_WORDS {
            Search::Exact(Box::new(KnnBuilder::new(n, dim, k)))
        } else {
            Search::Approximate(Box::new(NnDescent::new(n, dim, k)))
        }
    }

    fn step(&mut self, unit: &[f32], max_work: u64) -> bool {
        match self {
            Search::Exact(builder) => builder.step(unit, max_work),
            Search::Approximate(search) => search.step(unit, max_work),
        }
    }

    /// 0 and 1 the exact graph's products and sorting; 10 on NN-descent's stages.
    fn stage(&self) -> u64 {
        match self {
            Search::Exact(builder) => u64::from(builder.sorting()),
            Search::Approximate(search) => 10 + search.stage(),
        }
    }

    fn finish(self) -> Knn {
        match self {
            Search::Exact(builder) => builder.finish(),
            Search::Approximate(search) => search.finish(),
        }
    }
}

/// A layout's rule for the weights of a word's neighbours and for an edge found both ways.
pub(super) trait RowWeights: Sync {
    /// Called once the k-NN graph is complete, before any row.
    fn prepare(&mut self, _knn: &Knn) {}
    /// The weights of row `i`'s neighbours (in the graph's order) into `out`, from row `i`
    /// alone, so rows may be weighed on any thread.
    fn row(&self, knn: &Knn, i: usize, out: &mut [f32]);
    /// The weight of an edge both of whose ends hold the other among their neighbours.
    /// Must give the same bits for `(a, b)` and `(b, a)`.
    fn combine(a: f32, b: f32) -> f32;
    /// The work of one row in [`KnnBuilder::step`]'s units (a multiply-add of the dot
    /// products): a guide for sizing slices, measured natively.
    fn work_per_row(&self, k: usize) -> u64;
}

/// A symmetric sparse matrix in compressed rows: row `i` holds
/// `columns[row_starts[i]..row_starts[i + 1]]`, ascending, with `values` alongside.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Sparse {
    pub row_starts: Vec<usize>,
    pub columns: Vec<u32>,
    pub values: Vec<f32>,
}

/// Rows a thread weighs at a time.
const WEIGHT_ROWS_A_TASK: usize = 16;

/// Work units of putting one entry of a symmetric row in place (gathering, sorting, merging).
const ENTRY_WORK: u64 = 150;

enum Stage {
    Neighbours(Search),
    Weights {
        knn: Knn,
        weights: Vec<f32>,
        rows: usize,
    },
    Symmetric {
        knn: Knn,
        weights: Vec<f32>,
        /// For each row `j`, the entries `s × k + r` of `weights` whose neighbour is `j`
        /// (`reverse[reverse_starts[j]..reverse_starts[j + 1]]`, ascending).
        reverse_starts: Vec<usize>,
        reverse: Vec<usize>,
        out: Sparse,
        scratch: Vec<(u32, f32)>,
    },
    Done(Sparse),
}

/// The graph of the `n` words of `unit` (`n × dim` unit vectors), built by [`step`](Self::step).
pub(super) struct GraphBuilder<W> {
    rule: W,
    n: usize,
    dim: usize,
    k: usize,
    stage: Stage,
}

impl<W: RowWeights> GraphBuilder<W> {
    /// **Unchecked precondition:** `dim > 0`, `k < n ≤ u32::MAX`.
    pub fn new(rule: W, n: usize, dim: usize, k: usize) -> GraphBuilder<W> {
        GraphBuilder { rule, n, dim, k, stage: Stage::Neighbours(Search::new(n, dim, k)) }
    }

    /// Whether it is still finding the neighbours (else weighing the graph's edges).
    pub fn finding_neighbours(&self) -> bool {
        matches!(self.stage, Stage::Neighbours(_))
    }

    /// Which stage it is in: 0 the products of the k-NN graph, 1 sorting its rows (10 and
    /// more: NN-descent's stages), 2 the rows' weights, 3 the symmetric rows, 4 done. A
    /// unit's cost differs between them.
    pub fn stage(&self) -> u64 {
        match &self.stage {
            Stage::Neighbours(search) => search.stage(),
            Stage::Weights { .. } => 2,
            Stage::Symmetric { .. } => 3,
            Stage::Done(_) => 4,
        }
    }

    /// Does about `max_work` units more (at least one piece), stopping at the end of a stage,
    /// and says whether the graph is complete.
    ///
    /// **Unchecked precondition:** `unit` holds the same `n × dim` unit vectors at every call.
    pub fn step(&mut self, unit: &[f32], max_work: u64) -> bool {
        let (n, k) = (self.n, self.k);
        match &mut self.stage {
            Stage::Neighbours(builder) => {
                if builder.step(&unit[..n * self.dim], max_work) {
                    let Stage::Neighbours(builder) = std::mem::replace(&mut self.stage, Stage::Done(empty()))
                    else {
                        unreachable!("matched above")
                    };
                    let knn = builder.finish();
                    self.rule.prepare(&knn);
                    self.stage = Stage::Weights { knn, weights: vec![0.0; n * k], rows: 0 };
                }
            }
            Stage::Weights { knn, weights, rows } => {
                // As many rows as the budget affords (at least one), weighed on rayon's threads.
                let row_work = self.rule.work_per_row(k).max(1);
                let start = *rows;
                let afforded = usize::try_from(max_work.div_ceil(row_work)).unwrap_or(usize::MAX).max(1);
                let end = start.saturating_add(afforded).min(n);
                let rule = &self.rule;
                let knn: &Knn = knn;
                weights[start * k..end * k]
                    .par_chunks_mut(k.max(1))
                    .with_min_len(WEIGHT_ROWS_A_TASK)
                    .enumerate()
                    .for_each(|(r, out)| rule.row(knn, start + r, out));
                *rows = end;
                if *rows == n {
                    let Stage::Weights { knn, weights, .. } =
                        std::mem::replace(&mut self.stage, Stage::Done(empty()))
                    else {
                        unreachable!("matched above")
                    };
                    let (reverse_starts, reverse) = reverse_index(&knn);
                    let mut out = empty();
                    out.columns.reserve(2 * n * k);
                    out.values.reserve(2 * n * k);
                    self.stage =
                        Stage::Symmetric { knn, weights, reverse_starts, reverse, out, scratch: Vec::new() };
                }
            }
            Stage::Symmetric { knn, weights, reverse_starts, reverse, out, scratch } => {
                let mut work = 0;
                while out.row_starts.len() <= n && work < max_work {
                    let i = out.row_starts.len() - 1;
                    scratch.clear();
                    scratch.extend(
                        knn.neighbours(i).iter().copied().zip(weights[i * k..(i + 1) * k].iter().copied()),
                    );
                    scratch.extend(
                        reverse[reverse_starts[i]..reverse_starts[i + 1]]
                            .iter()
                            .map(|&e| ((e / k) as u32, weights[e])),
                    );
                    work += ENTRY_WORK * scratch.len().max(1) as u64;
                    // At most two entries share a column, and `combine` is symmetric, so an
                    // unstable sort gives the same row.
                    scratch.sort_unstable_by_key(|&(column, _)| column);
                    let mut last = None;
                    for &(column, value) in scratch.iter() {
                        if last == Some(column) {
                            let v = out.values.last_mut().expect("a previous entry");
                            *v = W::combine(*v, value);
                            continue;
                        }
                        last = Some(column);
                        out.columns.push(column);
                        out.values.push(value);
                    }
                    out.row_starts.push(out.columns.len());
                }
                if out.row_starts.len() > n {
                    let Stage::Symmetric { out, .. } =
                        std::mem::replace(&mut self.stage, Stage::Done(empty()))
                    else {
                        unreachable!("matched above")
                    };
                    self.stage = Stage::Done(out);
                }
            }
            Stage::Done(_) => {}
        }
        matches!(self.stage, Stage::Done(_))
    }

    /// The graph, built to the end here if `step` has not finished it.
    pub fn finish(mut self, unit: &[f32]) -> Sparse {
        while !self.step(unit, u64::MAX) {}
        match self.stage {
            Stage::Done(graph) => graph,
            _ => unreachable!("step says the graph is done"),
        }
    }
}

/// A matrix of no rows, with the first row start in place.
fn empty() -> Sparse {
    Sparse { row_starts: vec![0], columns: Vec::new(), values: Vec::new() }
}

/// For each row `j`, the entries `s × k + r` of the k-NN graph whose neighbour is `j`, in
/// ascending order (a counting sort by neighbour).
fn reverse_index(knn: &Knn) -> (Vec<usize>, Vec<usize>) {
    let (n, k) = (knn.n(), knn.k());
    let mut starts = vec![0usize; n + 1];
    for s in 0..n {
        for &j in knn.neighbours(s) {
            starts[j as usize + 1] += 1;
        }
    }
    for j in 0..n {
        starts[j + 1] += starts[j];
    }
    let mut fill = starts.clone();
    let mut reverse = vec![0usize; n * k];
    for s in 0..n {
        for (r, &j) in knn.neighbours(s).iter().enumerate() {
            reverse[fill[j as usize]] = s * k + r;
            fill[j as usize] += 1;
        }
    }
    (starts, reverse)
}
