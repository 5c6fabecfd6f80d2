//! Exact k nearest neighbours, shared by t-SNE and UMAP: cosine distance between word
//! vectors, and Euclidean distance between points of a map (for neighbourhood preservation).
//!
//! The cosine graph takes every dot product of unit vectors once: a block of 128 columns is
//! transposed into a panel, and a 4 × 8 tile of dot products is accumulated in registers
//! over the dimension, so LLVM turns the tile into SIMD (AVX natively, `simd128` in wasm).
//! Each product feeds the heaps of both its rows, and a row's worst kept distance turns most
//! candidates away before its heap is read; the products of a batch of tiles are taken on
//! rayon's threads and offered in turn. Measured natively (x86-64, one thread, d = 100,
//! vectors of the King James Bible): UMAP's graph of 14 neighbours in 0.15 s for 5,000 words
//! and 1.5 s for 20,000; t-SNE's 90 neighbours with its affinities in 0.45 s and 3.6 s. Exact
//! search stays affordable to 20,000 words; larger maps take NN-descent's approximate graph
//! ([`super::nndescent`]).
//!
//! **Architecture Invariant:** a row's neighbours are the `k` smallest `(distance, index)`
//! pairs in lexicographic order, sorted ascending, the row itself excluded; ties go to the
//! lower index, so the graph does not depend on the order candidates are seen in.

use rayon::prelude::*;

/// Columns per panel in the blocked dot products.
const PANEL: usize = 128;
/// Rows per register tile.
const TILE_ROWS: usize = 4;
/// Columns per register tile (one AVX register of `f32`, two `simd128` ones).
const TILE_COLS: usize = 8;
/// Tiles of rows a step takes together, their products shared among rayon's threads.
const TILES_A_BATCH: usize = 64;
/// Tiles a thread takes at a time.
const TILES_A_TASK: usize = 4;

/// A k-nearest-neighbour graph over `n` points: for each, `k` neighbours sorted by distance.
#[derive(Debug, Clone, PartialEq)]
pub struct Knn {
    n: usize,
    k: usize,
    indices: Vec<u32>,
    distances: Vec<f32>,
}

impl Knn {
    /// The `k` nearest neighbours of each of the `unit.len() / dim` unit vectors by cosine
    /// distance `1 − u·v` (a zero vector is at distance 1 from every other).
    ///
    /// **Unchecked precondition:** `dim > 0`, `unit.len()` is a multiple of `dim`, there are
    /// at most `u32::MAX` rows, and `k < ` the number of rows (checked only in debug builds).
    pub fn cosine(unit: &[f32], dim: usize, k: usize) -> Knn {
        let mut builder = KnnBuilder::new(unit.len() / dim, dim, k);
        while !builder.step(unit, u64::MAX) {}
        builder.finish()
    }

    /// The `k` nearest neighbours of each 2-D point of `coords` (flat `x, y` pairs) by
    /// Euclidean distance, by brute force: O(n²), for measuring maps, not for building them.
    ///
    /// **Unchecked precondition:** `k < coords.len() / 2`.
    pub fn euclidean_2d(coords: &[f32], k: usize) -> Knn {
        let n = coords.len() / 2;
        debug_assert!(k < n.max(1));
        let mut heaps = Heaps::new(n, k);
        let (xs, ys): (Vec<f32>, Vec<f32>) = coords.chunks_exact(2).map(|p| (p[0], p[1])).unzip();
        let mut d2 = vec![0.0f32; n];
        for i in 0..n {
            let (x, y) = (xs[i], ys[i]);
            for ((d, &xj), &yj) in d2.iter_mut().zip(&xs).zip(&ys) {
                *d = (x - xj) * (x - xj) + (y - yj) * (y - yj);
            }
            for (j, &d) in d2.iter().enumerate() {
                if j != i {
                    heaps.offer(i, j as u32, d);
                }
            }
        }
        let mut knn = heaps.into_knn();
        knn.distances.iter_mut().for_each(|d| *d = d.sqrt());
        knn
    }

    /// The graph of rows sorted as [`Knn::cosine`]'s are (`k` per point, ascending by
    /// distance), e.g. by NN-descent.
    pub(super) fn from_sorted(n: usize, k: usize, indices: Vec<u32>, distances: Vec<f32>) -> Knn {
        debug_assert!(indices.len() == n * k && distances.len() == n * k);
        Knn { n, k, indices, distances }
    }

    /// The number of points.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The number of neighbours of each point.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The neighbours of point `i`, nearest first. **Unchecked precondition:** `i < n()`.
    pub fn neighbours(&self, i: usize) -> &[u32] {
        &self.indices[i * self.k..(i + 1) * self.k]
    }

    /// The distances to the neighbours of point `i`, ascending. **Unchecked precondition:** `i < n()`.
    pub fn distances(&self, i: usize) -> &[f32] {
        &self.distances[i * self.k..(i + 1) * self.k]
    }
}

/// [`Knn::cosine`] a slice at a time, so a worker can build a large graph between messages:
/// the panels of columns a few rows of tiles at a time, then the rows' heaps sorted a few rows
/// at a time. The products are taken, and offered to the heaps, in the same order however the
/// work is sliced, so the graph is the same to the bit.
pub struct KnnBuilder {
    n: usize,
    dim: usize,
    heaps: Heaps,
    panel: Vec<f32>,
    zero_row: Vec<f32>,
    /// The panel being multiplied (its first column), and the next tile of rows in it.
    col_start: usize,
    row_start: usize,
    /// Rows whose heaps are sorted, once every panel is done.
    rows_sorted: usize,
}

/// Work units (about the time of a multiply-add of the dot products, measured natively at
/// 5,000 × 100; a guide for sizing slices only) of offering one product to the two heaps.
const OFFER_WORK: usize = 64;
/// Work units of sorting one row's heap, per neighbour.
const SORT_WORK_PER_NEIGHBOUR: u64 = 256;

impl KnnBuilder {
    /// Starts the graph of `k` nearest neighbours of `n` unit vectors of `dim` numbers.
    ///
    /// **Unchecked precondition:** as [`Knn::cosine`]'s: `dim > 0`, `n ≤ u32::MAX`, `k < n`.
    pub fn new(n: usize, dim: usize, k: usize) -> KnnBuilder {
        debug_assert!(dim > 0 && k < n.max(1));
        KnnBuilder {
            n,
            dim,
            heaps: Heaps::new(n, k),
            panel: vec![0.0; dim * PANEL],
            zero_row: vec![0.0; dim],
            col_start: 0,
            row_start: 0,
            rows_sorted: 0,
        }
    }

    /// Whether every product is taken and the rows' heaps are being sorted (work of another
    /// cost per unit).
    pub fn sorting(&self) -> bool {
        self.col_start >= self.n
    }

    /// Does about `max_work` units more (a multiply-add of a dot product is one; at least
    /// one tile of rows or one row), and says whether the graph is complete.
    ///
    /// **Unchecked precondition:** `unit` holds the same `n × dim` unit vectors at every call.
    pub fn step(&mut self, unit: &[f32], max_work: u64) -> bool {
        let (n, dim) = (self.n, self.dim);
        debug_assert_eq!(unit.len(), n * dim);
        let mut work = 0u64;
        while self.col_start < n {
            if work >= max_work {
                return false;
            }
            let col_start = self.col_start;
            let cols = PANEL.min(n - col_start);
            if self.row_start == 0 {
                // The panel holds the block's vectors transposed: `dim` rows of PANEL columns.
                self.panel.fill(0.0);
                for c in 0..cols {
                    let v = &unit[(col_start + c) * dim..(col_start + c + 1) * dim];
                    for (t, &x) in v.iter().enumerate() {
                        self.panel[t * PANEL + c] = x;
                    }
                }
            }
            // Only pairs i < j: rows before the block's last column.
            let row_end = col_start + cols - 1;
            if self.row_start < row_end {
                // As many tiles of rows as the budget affords (at least one, at most
                // TILES_A_BATCH), their products on rayon's threads, offered here: the graph
                // does not depend on the order they come in.
                let tile_work = (TILE_ROWS * PANEL * (dim + OFFER_WORK)) as u64;
                let afforded = usize::try_from((max_work - work).div_ceil(tile_work)).unwrap_or(usize::MAX);
                let tiles =
                    afforded.clamp(1, TILES_A_BATCH).min((row_end - self.row_start).div_ceil(TILE_ROWS));
                let offers = self.tile_offers(unit, col_start, cols, tiles);
                for (i, j, distance) in offers {
                    self.heaps.offer(i as usize, j, distance);
                    self.heaps.offer(j as usize, i, distance);
                }
                self.row_start += tiles * TILE_ROWS;
                work += tiles as u64 * tile_work;
            }
            if self.row_start >= row_end {
                self.col_start += PANEL;
                self.row_start = 0;
            }
        }
        let row_work = SORT_WORK_PER_NEIGHBOUR * self.heaps.k.max(1) as u64;
        while self.rows_sorted < n {
            if work >= max_work {
                return false;
            }
            self.heaps.sort_row(self.rows_sorted);
            self.rows_sorted += 1;
            work += row_work;
        }
        true
    }

    /// The products of `tiles` tiles of rows from `row_start` with the panel of columns
    /// `col_start..col_start + cols` (pairs `i < j` only), computed on rayon's threads, as
    /// `(i, j, distance)`; those neither row could keep (farther than both rows' worst kept
    /// distance now, which only falls) are left out.
    fn tile_offers(&self, unit: &[f32], col_start: usize, cols: usize, tiles: usize) -> Vec<(u32, u32, f32)> {
        let (n, dim, row_start) = (self.n, self.dim, self.row_start);
        let (panel, zero_row, worst) = (&self.panel, &self.zero_row, &self.heaps.worst);
        (0..tiles)
            .into_par_iter()
            .with_min_len(TILES_A_TASK)
            .flat_map_iter(|tile| {
                let start = row_start + tile * TILE_ROWS;
                let rows: [&[f32]; TILE_ROWS] = std::array::from_fn(|r| {
                    let i = start + r;
                    if i < n { &unit[i * dim..(i + 1) * dim] } else { zero_row }
                });
                let mut scores = [[0.0f32; PANEL]; TILE_ROWS];
                dot_tile(&rows, panel, dim, &mut scores);
                let mut out = Vec::new();
                for (r, row_scores) in scores.iter().enumerate() {
                    let i = start + r;
                    let first = (i + 1).max(col_start);
                    if i >= n || first >= col_start + cols {
                        continue;
                    }
                    for j in first..col_start + cols {
                        let distance = 1.0 - row_scores[j - col_start];
                        if distance <= worst[i] || distance <= worst[j] {
                            out.push((i as u32, j as u32, distance));
                        }
                    }
                }
                out
            })
            .collect()
    }

    /// The graph. **Unchecked precondition:** `step` has said it is complete.
    pub fn finish(self) -> Knn {
        debug_assert!(self.rows_sorted == self.n);
        let Heaps { n, k, indices, distances, .. } = self.heaps;
        Knn { n, k, indices, distances }
    }
}

/// `scores[r][c] = rows[r] · panel column c` for the whole panel, one 4 × 8 tile at a time
/// with its 32 sums in registers.
fn dot_tile(rows: &[&[f32]; TILE_ROWS], panel: &[f32], dim: usize, scores: &mut [[f32; PANEL]; TILE_ROWS]) {
    for c in (0..PANEL).step_by(TILE_COLS) {
        let mut acc = [[0.0f32; TILE_COLS]; TILE_ROWS];
        for t in 0..dim {
            let p: &[f32; TILE_COLS] = panel[t * PANEL + c..][..TILE_COLS].try_into().expect("8 columns");
            for (acc_row, row) in acc.iter_mut().zip(rows) {
                let a = row[t];
                for l in 0..TILE_COLS {
                    acc_row[l] += a * p[l];
                }
            }
        }
        for (score_row, acc_row) in scores.iter_mut().zip(&acc) {
            score_row[c..c + TILE_COLS].copy_from_slice(acc_row);
        }
    }
}

/// One bounded max-heap per row holding its `k` best candidates, the worst on top.
struct Heaps {
    n: usize,
    k: usize,
    len: Vec<usize>,
    indices: Vec<u32>,
    distances: Vec<f32>,
    /// Each row's worst distance kept (infinity until its heap is full), side by side, so the
    /// many candidates that cannot enter are turned away without reading the heaps: with the
    /// check inlined, this took a third off a 20,000-word graph.
    worst: Vec<f32>,
    /// A row's candidates while it is sorted.
    scratch: Vec<(f32, u32)>,
}

/// Whether candidate `a` ranks after `b`: farther, or as far with a higher index.
#[inline]
fn worse(a: (f32, u32), b: (f32, u32)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 > b.1)
}

impl Heaps {
    fn new(n: usize, k: usize) -> Heaps {
        Heaps {
            n,
            k,
            len: vec![0; n],
            indices: vec![0; n * k],
            distances: vec![0.0; n * k],
            worst: vec![f32::INFINITY; n],
            scratch: Vec::with_capacity(k),
        }
    }

    /// Offers `index` at `distance` to row `row`'s heap.
    #[inline]
    fn offer(&mut self, row: usize, index: u32, distance: f32) {
        // Ties are decided by index in `insert`, so only a farther candidate is turned away here.
        if distance <= self.worst[row] {
            self.insert(row, index, distance);
        }
    }

    /// Puts `index` in row `row`'s heap if it ranks before the worst kept; out of line, so the
    /// check in [`Heaps::offer`] inlines into the loops over candidates.
    #[inline(never)]
    fn insert(&mut self, row: usize, index: u32, distance: f32) {
        let k = self.k;
        if k == 0 {
            return;
        }
        let d = &mut self.distances[row * k..(row + 1) * k];
        let ix = &mut self.indices[row * k..(row + 1) * k];
        let len = &mut self.len[row];
        let candidate = (distance, index);
        if *len < k {
            // Sift up.
            let mut at = *len;
            *len += 1;
            while at > 0 {
                let parent = (at - 1) / 2;
                if !worse(candidate, (d[parent], ix[parent])) {
                    break;
                }
                d[at] = d[parent];
                ix[at] = ix[parent];
                at = parent;
            }
            d[at] = distance;
            ix[at] = index;
            if *len == k {
                self.worst[row] = d[0];
            }
            return;
        }
        if !worse((d[0], ix[0]), candidate) {
            return;
        }
        // Replace the top and sift down.
        let mut at = 0;
        loop {
            let left = 2 * at + 1;
            if left >= k {
                break;
            }
            let right = left + 1;
            let child =
                if right < k && worse((d[right], ix[right]), (d[left], ix[left])) { right } else { left };
            if !worse((d[child], ix[child]), candidate) {
                break;
            }
            d[at] = d[child];
            ix[at] = ix[child];
            at = child;
        }
        d[at] = distance;
        ix[at] = index;
        self.worst[row] = d[0];
    }

    /// Sorts row `row`'s kept candidates by `(distance, index)`, ascending.
    fn sort_row(&mut self, row: usize) {
        let range = row * self.k..(row + 1) * self.k;
        let pairs = &mut self.scratch;
        pairs.clear();
        pairs.extend(
            self.distances[range.clone()].iter().copied().zip(self.indices[range.clone()].iter().copied()),
        );
        pairs.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (slot, &(d, i)) in range.zip(pairs.iter()) {
            self.distances[slot] = d;
            self.indices[slot] = i;
        }
    }

    fn into_knn(mut self) -> Knn {
        for row in 0..self.n {
            self.sort_row(row);
        }
        Knn { n: self.n, k: self.k, indices: self.indices, distances: self.distances }
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::linalg;

    /// The plain O(n² d) answer: every distance, sorted by (distance, index).
    fn brute_force(unit: &[f32], dim: usize, k: usize) -> (Vec<u32>, Vec<f32>) {
        let n = unit.len() / dim;
        let (mut indices, mut distances) = (Vec::new(), Vec::new());
        for i in 0..n {
            let mut all: Vec<(f32, u32)> = (0..n)
                .filter(|&j| j != i)
                .map(|j| {
                    (
                        1.0 - linalg::dot(&unit[i * dim..(i + 1) * dim], &unit[j * dim..(j + 1) * dim]),
                        j as u32,
                    )
                })
                .collect();
            all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            indices.extend(all[..k].iter().map(|p| p.1));
            distances.extend(all[..k].iter().map(|p| p.0));
        }
        (indices, distances)
    }

    fn random_unit(rng: &mut Xoshiro256PlusPlus, n: usize, dim: usize) -> Vec<f32> {
        let mut v: Vec<f32> = (0..n * dim).map(|_| rng.random::<f32>() - 0.5).collect();
        v.chunks_exact_mut(dim).for_each(linalg::normalize);
        v
    }

    #[test]
    fn cosine_matches_brute_force_across_block_edges() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        // Sizes around the panel and tile widths, dimensions around the SIMD width.
        for (n, dim, k) in [(2, 1, 1), (5, 3, 4), (130, 7, 10), (257, 17, 5), (300, 100, 30)] {
            let unit = random_unit(&mut rng, n, dim);
            let knn = Knn::cosine(&unit, dim, k);
            let (indices, distances) = brute_force(&unit, dim, k);
            // Sums taken in another order may differ in the last bits, and so swap near-ties.
            let mismatched = knn.indices.iter().zip(&indices).filter(|(a, b)| a != b).count();
            assert!(mismatched * 100 <= indices.len(), "n = {n}, dim = {dim}: {mismatched} differ");
            for (a, b) in knn.distances.iter().zip(&distances) {
                assert!((a - b).abs() < 1e-5, "n = {n}, dim = {dim}: {a} vs {b}");
            }
            for i in 0..n {
                assert!(!knn.neighbours(i).contains(&(i as u32)), "a point is not its own neighbour");
                assert!(knn.distances(i).windows(2).all(|w| w[0] <= w[1]));
            }
        }
    }

    #[test]
    fn the_same_graph_however_sliced_and_on_any_number_of_threads() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
        let unit = random_unit(&mut rng, 1500, 24);
        let build = |threads: usize, budget: u64| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            pool.install(|| {
                let mut builder = KnnBuilder::new(1500, 24, 12);
                while !builder.step(&unit, budget) {}
                builder.finish()
            })
        };
        let whole = build(1, u64::MAX);
        assert_eq!(build(3, u64::MAX), whole);
        for budget in [1, 50_000, 3_000_000] {
            assert_eq!(build(2, budget), whole, "budget {budget}");
        }
    }

    #[test]
    fn ties_go_to_the_lower_index() {
        // Five copies of one vector and one opposite: each copy's nearest are the other copies.
        let unit = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 1.0, 0.0];
        let knn = Knn::cosine(&unit, 2, 3);
        assert_eq!(knn.neighbours(0), &[1, 2, 4]);
        assert_eq!(knn.neighbours(4), &[0, 1, 2]);
        assert_eq!(knn.neighbours(3), &[0, 1, 2]);
        assert_eq!(knn.distances(3), &[2.0, 2.0, 2.0]);
    }

    #[test]
    fn euclidean_2d_finds_the_nearest_points() {
        let coords = [0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 10.0, 10.0];
        let knn = Knn::euclidean_2d(&coords, 2);
        assert_eq!(knn.neighbours(0), &[1, 2]);
        assert_eq!(knn.distances(0), &[1.0, 2.0]);
        assert_eq!(knn.neighbours(3), &[2, 1]);
    }
}
