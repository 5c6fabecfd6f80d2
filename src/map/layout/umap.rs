//! UMAP (McInnes, Healy & Melville 2018, "UMAP: Uniform Manifold Approximation and Projection
//! for Dimension Reduction", arXiv:1802.03426), following umap-learn 0.5 where the paper
//! leaves room.
//!
//! - **Graph**: each word's `n_neighbours − 1` nearest others by cosine distance
//!   ([`Knn::cosine`]; umap-learn counts the word itself among its `n_neighbours`). Per word,
//!   ρ is the distance to its nearest neighbour and σ is bisected so that
//!   `Σ_j exp(−max(0, d_j − ρ) / σ) = log₂(n_neighbours)` (smooth k-NN distances), floored at
//!   1e-3 times the mean distance; a membership is `exp(−max(0, d − ρ) / σ)`. The fuzzy union
//!   `w = a + b − ab` of the two directions makes the graph symmetric.
//! - **Layout**: stochastic gradient descent on the cross-entropy between the graph and
//!   `1 / (1 + a d^2b)` in the plane, with `a`, `b` fitted to `min_dist` and a spread of 1 by
//!   least squares (Levenberg–Marquardt, as scipy's `curve_fit`). Each directed edge is
//!   sampled in proportion to its weight (every `w_max / w` epochs; edges under `w_max /
//!   epochs` are dropped), moves both its ends, and brings 5 negative samples that push its
//!   head away; gradients are clipped at 4; the learning rate falls linearly from 1 (by default) to 0.
//! - **Start**: PCA of the raw vectors scaled to [0, 10] on each axis (umap-learn's default is
//!   a spectral layout; PCA keeps the start cheap and exact, see `scripts/bench-projection.sh`
//!   for what it costs in neighbourhoods), plus noise of 1e-4 from the seed so identical
//!   vectors part; random points in [0, 10] when PCA cannot spread them; or a **warm start**
//!   from given coordinates, used as they are.
//!
//! The edges are visited in one fixed order and one generator draws the negative samples,
//! so a seed gives the same layout on every build (umap-learn's parallel epochs do not).

use rand::distr::{Distribution, Uniform};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use super::graph::{GraphBuilder, RowWeights, Sparse};
use super::{Knn, Layout, LayoutProgress, Start, check_initial, check_words};
use crate::error::{Error, Result};
use crate::vectors::Embeddings;

/// The spread of the embedded points that `a` and `b` are fitted to, umap-learn's default.
const SPREAD: f64 = 1.0;
const NEGATIVE_SAMPLES: f32 = 5.0;
/// Gradients are clipped to ±4 per coordinate.
const CLIP: f32 = 4.0;
/// Bisection of σ: this many halvings at most, or until the sum is this close to its target.
const MAX_BISECTIONS: usize = 64;
const SUM_TOLERANCE: f64 = 1e-5;
/// σ is at least this share of the mean distance.
const MIN_SIGMA_SCALE: f64 = 1e-3;
/// Layouts of more words than this take 200 epochs by default, others 500 (umap-learn's rule).
pub const LARGE: usize = 10_000;

/// UMAP's parameters; `Default` gives umap-learn's.
#[derive(Debug, Clone, PartialEq)]
pub struct UmapParams {
    /// The size of the neighbourhood each word's fuzzy set covers, the word itself included.
    /// At least 2.
    pub n_neighbours: usize,
    /// How close points may come on the map, between 0 and 1 (the spread).
    pub min_dist: f32,
    /// Epochs of SGD; `None` is 500 for up to 10,000 words, else 200. At least 1.
    pub epochs: Option<usize>,
    /// The SGD step at the first epoch; it falls linearly to 0 at the last.
    pub learning_rate: f32,
    /// Seeds the negative samples and the start's noise.
    pub seed: u64,
}

impl Default for UmapParams {
    fn default() -> Self {
        UmapParams { n_neighbours: 15, min_dist: 0.1, epochs: None, learning_rate: 1.0, seed: 1 }
    }
}

impl UmapParams {
    /// Names the first parameter out of its range.
    pub fn validate(&self) -> Result<()> {
        if self.n_neighbours < 2 {
            return Err(Error::InvalidParameter {
                name: "n_neighbours",
                value: self.n_neighbours.to_string(),
                expected: "at least 2".into(),
            });
        }
        if !(self.min_dist >= 0.0 && f64::from(self.min_dist) <= SPREAD) {
            return Err(Error::InvalidParameter {
                name: "min_dist",
                value: self.min_dist.to_string(),
                expected: format!("between 0 and {SPREAD}"),
            });
        }
        if !(self.learning_rate.is_finite() && self.learning_rate > 0.0) {
            return Err(Error::InvalidParameter {
                name: "learning_rate",
                value: self.learning_rate.to_string(),
                expected: "a positive number".into(),
            });
        }
        if self.epochs == Some(0) {
            return Err(Error::InvalidParameter {
                name: "epochs",
                value: "0".into(),
                expected: "at least 1".into(),
            });
        }
        Ok(())
    }

    /// The epochs a layout of `n_words` words runs.
    pub fn epochs_for(&self, n_words: usize) -> usize {
        self.epochs.unwrap_or(if n_words <= LARGE { 500 } else { 200 })
    }
}

/// A UMAP layout of the most frequent words, advanced by [`Layout::step`].
pub struct Umap {
    params: UmapParams,
    a: f32,
    b: f32,
    epochs: usize,
    epoch: usize,
    /// The next edge of the epoch under way (0 between epochs): an epoch of 20,000 words
    /// takes longer than a worker's slice, so it can stop between edges.
    next_edge: usize,
    /// The directed edges (both directions of each), sorted by head then tail.
    heads: Vec<u32>,
    tails: Vec<u32>,
    epochs_per_sample: Vec<f32>,
    next_sample: Vec<f32>,
    epochs_per_negative: Vec<f32>,
    next_negative: Vec<f32>,
    coords: Vec<f32>,
    rng: Xoshiro256PlusPlus,
    vertex: Uniform<usize>,
    pow: PowTable,
}

impl Umap {
    /// A layout of the `n_words` most frequent words of `emb`, starting from their PCA.
    ///
    /// Fails with [`Error::InvalidParameter`] on a parameter out of range, or when `n_words`
    /// exceeds the vocabulary or is under `n_neighbours` (the message says how many words
    /// are needed).
    pub fn new(emb: &Embeddings, n_words: usize, params: UmapParams) -> Result<Umap> {
        Umap::build(emb, n_words, None, params)
    }

    /// A warm start: like [`Umap::new`], but from `initial` (`x, y` for each word, e.g. the
    /// coordinates of a layout of earlier vectors). Give it a lower `learning_rate` than a
    /// fresh start's 1, which anneals the map afresh: at 0.1, 100 epochs keep a settled map
    /// within a tenth of its spread while they refine it (umap-learn refines with a quarter
    /// of its rate when it places new points into a map).
    ///
    /// Also fails when `initial` does not hold `2 × n_words` finite numbers.
    pub fn with_initial(
        emb: &Embeddings,
        n_words: usize,
        initial: &[f32],
        params: UmapParams,
    ) -> Result<Umap> {
        check_initial(initial, n_words)?;
        Umap::build(emb, n_words, Some(initial), params)
    }

    fn build(emb: &Embeddings, n_words: usize, initial: Option<&[f32]>, params: UmapParams) -> Result<Umap> {
        let graph = Umap::graph(emb, n_words, &params)?;
        Umap::from_graph(graph.finish(&emb.unit_rows(n_words)), Start::of(emb, n_words, initial), params)
    }

    /// Checks `params` and the word count, and starts the fuzzy graph of the `n_words` most
    /// frequent words, for [`Umap::from_graph`].
    pub(super) fn graph(
        emb: &Embeddings,
        n_words: usize,
        params: &UmapParams,
    ) -> Result<GraphBuilder<UmapWeights>> {
        params.validate()?;
        let k = params.n_neighbours;
        check_words(emb, n_words, k, &format!("{k} neighbours"))?;
        let rule = UmapWeights { n_neighbours: k, all_mean: 0.0 };
        Ok(GraphBuilder::new(rule, n_words, emb.dim(), k - 1))
    }

    /// The layout over `graph`, the fuzzy graph of the most frequent words, from `start`
    /// (initial coordinates checked by the caller).
    pub(super) fn from_graph(graph: Sparse, start: Start, params: UmapParams) -> Result<Umap> {
        let n = graph.row_starts.len() - 1;
        let epochs = params.epochs_for(n);

        let max_weight = graph.values.iter().copied().fold(0.0f32, f32::max);
        let (mut kept_heads, mut kept_tails, mut epochs_per_sample) = (Vec::new(), Vec::new(), Vec::new());
        for h in 0..n {
            let edges = graph.row_starts[h]..graph.row_starts[h + 1];
            for (&t, &w) in graph.columns[edges.clone()].iter().zip(&graph.values[edges]) {
                // Edges too weak to be sampled once in the run are dropped, as umap-learn does.
                if w >= max_weight / epochs as f32 && w > 0.0 {
                    kept_heads.push(h as u32);
                    kept_tails.push(t);
                    epochs_per_sample.push(max_weight / w);
                }
            }
        }
        let epochs_per_negative: Vec<f32> = epochs_per_sample.iter().map(|e| e / NEGATIVE_SAMPLES).collect();

        let mut rng = Xoshiro256PlusPlus::seed_from_u64(params.seed);
        let coords = match start {
            Start::Warm(coords) => coords.to_vec(),
            Start::Pca(pca) => initial_coords(pca, n, &mut rng),
        };
        let (a, b) = fit_ab(f64::from(params.min_dist), SPREAD);
        Ok(Umap {
            a: a as f32,
            b: b as f32,
            pow: PowTable::new(b as f32),
            epochs,
            epoch: 0,
            next_edge: 0,
            heads: kept_heads,
            tails: kept_tails,
            next_sample: epochs_per_sample.clone(),
            epochs_per_sample,
            next_negative: epochs_per_negative.clone(),
            epochs_per_negative,
            coords,
            rng,
            vertex: Uniform::new(0, n).map_err(|_| Error::InvalidParameter {
                name: "words",
                value: n.to_string(),
                expected: "at least 1".into(),
            })?,
            params,
        })
    }

    /// The parameters it was built with.
    pub fn params(&self) -> &UmapParams {
        &self.params
    }

    /// The fitted curve `1 / (1 + a d^2b)`: `(a, b)`.
    pub fn curve(&self) -> (f32, f32) {
        (self.a, self.b)
    }

    /// One epoch of SGD over the edges due in it (or the rest of the one under way).
    fn epoch(&mut self) {
        while !self.advance(usize::MAX) {}
    }

    /// Carries the epoch under way (or a new one) on over at most `max_edges` edges; true
    /// when that ended the epoch. Edges are visited in order and draw from the one
    /// generator in order, so the coordinates do not depend on the slicing.
    fn advance(&mut self, max_edges: usize) -> bool {
        let n = self.epoch as f32;
        // umap-learn lowers the rate after each epoch, so its first two run at the full rate.
        let alpha =
            self.params.learning_rate * (1.0 - self.epoch.saturating_sub(1) as f32 / self.epochs as f32);
        let (a, b) = (self.a, self.b);
        let end = self.next_edge.saturating_add(max_edges.max(1)).min(self.heads.len());
        for e in self.next_edge..end {
            if self.next_sample[e] > n {
                continue;
            }
            let (j, k) = (self.heads[e] as usize, self.tails[e] as usize);
            let (dx, dy) =
                (self.coords[2 * j] - self.coords[2 * k], self.coords[2 * j + 1] - self.coords[2 * k + 1]);
            let d2 = dx * dx + dy * dy;
            if d2 > 0.0 {
                // d^2(b−1) is d^2b / d², which saves a second pow.
                let d2b = self.pow.pow(d2);
                let coefficient = -2.0 * a * b * (d2b / d2) / (a * d2b + 1.0);
                let (gx, gy) = ((coefficient * dx).clamp(-CLIP, CLIP), (coefficient * dy).clamp(-CLIP, CLIP));
                self.coords[2 * j] += gx * alpha;
                self.coords[2 * j + 1] += gy * alpha;
                self.coords[2 * k] -= gx * alpha;
                self.coords[2 * k + 1] -= gy * alpha;
            }
            self.next_sample[e] += self.epochs_per_sample[e];

            let n_negative = ((n - self.next_negative[e]) / self.epochs_per_negative[e]).max(0.0) as usize;
            for _ in 0..n_negative {
                let other = self.vertex.sample(&mut self.rng);
                if other == j {
                    continue;
                }
                let (dx, dy) = (
                    self.coords[2 * j] - self.coords[2 * other],
                    self.coords[2 * j + 1] - self.coords[2 * other + 1],
                );
                let d2 = dx * dx + dy * dy;
                if d2 > 0.0 {
                    let coefficient = 2.0 * b / ((0.001 + d2) * (a * self.pow.pow(d2) + 1.0));
                    self.coords[2 * j] += (coefficient * dx).clamp(-CLIP, CLIP) * alpha;
                    self.coords[2 * j + 1] += (coefficient * dy).clamp(-CLIP, CLIP) * alpha;
                }
            }
            self.next_negative[e] += n_negative as f32 * self.epochs_per_negative[e];
        }
        if end < self.heads.len() {
            self.next_edge = end;
            return false;
        }
        self.next_edge = 0;
        self.epoch += 1;
        true
    }
}

impl Layout for Umap {
    fn step(&mut self, max_iterations: usize) -> LayoutProgress {
        for _ in 0..max_iterations {
            if self.epoch >= self.epochs {
                break;
            }
            self.epoch();
        }
        self.progress()
    }

    fn step_points(&mut self, max_points: usize) -> LayoutProgress {
        // A point's share of an epoch is its share of the edges.
        let n = (self.coords.len() / 2).max(1);
        let mut left = (max_points as u128 * self.heads.len() as u128).div_ceil(n as u128).max(1);
        while left > 0 && self.epoch < self.epochs {
            let from = self.next_edge;
            let slice = left.min(usize::MAX as u128) as usize;
            let ended = self.advance(slice);
            let done = if ended { self.heads.len() - from } else { self.next_edge - from };
            left = left.saturating_sub(done.max(1) as u128);
            if !ended {
                break;
            }
        }
        self.progress()
    }

    fn progress(&self) -> LayoutProgress {
        LayoutProgress { iteration: self.epoch, iterations: self.epochs }
    }

    fn coords(&self) -> &[f32] {
        &self.coords
    }
}

/// Intervals of the mantissa table.
const MANTISSA_STEPS: usize = 1024;

/// `x^b` for a fixed `b` from two tables: `x = m · 2^e` with `m` in [1, 2), so
/// `x^b = (2^b)^e · m^b`, the first looked up by `e`, the second interpolated linearly between
/// 1,025 values of `m`, to a relative error under 1e-6 (the error of linear interpolation,
/// `h² b (b − 1) / 8` with `h = 1/1024`). `f32::powf` took 43 % of a layout's time natively;
/// the tables take a third off the whole layout. (A polynomial `2^(b log₂ x)` was slower than
/// `powf`, its long chain of dependent operations waiting on each other.)
struct PowTable {
    /// `2^(b (e − 127))` for each biased exponent `e`, saturating to 0 and `f32::MAX`.
    by_exponent: Vec<f32>,
    /// `m^b` for `m = 1 + i / 1024`, `i` in 0..=1024.
    by_mantissa: Vec<f32>,
    b: f32,
}

impl PowTable {
    fn new(b: f32) -> PowTable {
        let b64 = f64::from(b);
        let by_exponent =
            (0..256).map(|e| (2f64.powf(b64 * (e as f64 - 127.0))).min(f64::from(f32::MAX)) as f32).collect();
        let by_mantissa =
            (0..=MANTISSA_STEPS).map(|i| (1.0 + i as f64 / MANTISSA_STEPS as f64).powf(b64) as f32).collect();
        PowTable { by_exponent, by_mantissa, b }
    }

    /// `x^b`. **Unchecked precondition:** `x` is positive and finite.
    #[inline]
    fn pow(&self, x: f32) -> f32 {
        let bits = x.to_bits();
        let exponent = (bits >> 23) as usize & 0xff;
        if exponent == 0 {
            // Subnormal: no implicit leading 1 in the mantissa.
            return x.powf(self.b);
        }
        let fraction = bits & 0x007f_ffff;
        let at = (fraction >> 13) as usize;
        let t = (fraction & 0x1fff) as f32 * (1.0 / 8_192.0);
        let (low, high) = (self.by_mantissa[at], self.by_mantissa[at + 1]);
        self.by_exponent[exponent] * (low + t * (high - low))
    }
}

/// UMAP's weights: each word's memberships (`n_neighbours` counting the word itself), an
/// edge found from both ends joined by the fuzzy union `a + b − ab`.
pub(super) struct UmapWeights {
    n_neighbours: usize,
    /// The mean distance to a neighbour over the whole graph, which floors σ.
    all_mean: f64,
}

impl RowWeights for UmapWeights {
    fn prepare(&mut self, knn: &Knn) {
        let n = knn.n();
        self.all_mean =
            (0..n).map(|i| knn.distances(i).iter().map(|&d| f64::from(d)).sum::<f64>()).sum::<f64>()
                / (n * self.n_neighbours) as f64;
    }

    fn row(&self, knn: &Knn, i: usize, out: &mut [f32]) {
        let distances: Vec<f64> = knn.distances(i).iter().map(|&d| f64::from(d)).collect();
        let target = (self.n_neighbours as f64).log2();
        let (rho, sigma) = smooth_knn_distance(&distances, target, self.n_neighbours, self.all_mean);
        for (w, &d) in out.iter_mut().zip(&distances) {
            let membership = if d - rho <= 0.0 || sigma == 0.0 { 1.0 } else { (-(d - rho) / sigma).exp() };
            *w = membership as f32;
        }
    }

    fn combine(a: f32, b: f32) -> f32 {
        // Written so 1 stays exactly 1; the product is the same bits either way round.
        1.0 - (1.0 - a) * (1.0 - b)
    }

    fn work_per_row(&self, k: usize) -> u64 {
        WEIGHTS_WORK_PER_NEIGHBOUR * k as u64
    }
}

/// Work units (multiply-adds of the dot products) of a row's bisection, per neighbour.
const WEIGHTS_WORK_PER_NEIGHBOUR: u64 = 1_400;

/// ρ and σ of one word from the distances to its neighbours (itself left out, so at most
/// `n_neighbours − 1` of them): `Σ exp(−max(0, d − ρ) / σ) = target`.
fn smooth_knn_distance(distances: &[f64], target: f64, n_neighbours: usize, all_mean: f64) -> (f64, f64) {
    let rho = distances.iter().copied().find(|&d| d > 0.0).unwrap_or(0.0);
    let (mut low, mut high, mut sigma) = (0.0f64, f64::INFINITY, 1.0f64);
    for _ in 0..MAX_BISECTIONS {
        let sum: f64 =
            distances.iter().map(|&d| if d - rho > 0.0 { (-(d - rho) / sigma).exp() } else { 1.0 }).sum();
        if (sum - target).abs() < SUM_TOLERANCE {
            break;
        }
        if sum > target {
            high = sigma;
            sigma = (low + high) / 2.0;
        } else {
            low = sigma;
            sigma = if high.is_finite() { (low + high) / 2.0 } else { sigma * 2.0 };
        }
    }
    // umap-learn's mean includes the word's zero distance to itself.
    let own_mean = distances.iter().sum::<f64>() / n_neighbours as f64;
    let floor = MIN_SIGMA_SCALE * if rho > 0.0 { own_mean } else { all_mean };
    (rho, sigma.max(floor))
}

/// `a` and `b` of `1 / (1 + a x^2b)` fitted by least squares to 1 below `min_dist` and
/// `exp(−(x − min_dist) / spread)` above it, on 300 points of [0, 3 spread]
/// (Levenberg–Marquardt from a = b = 1, as umap-learn's call of scipy's `curve_fit`).
fn fit_ab(min_dist: f64, spread: f64) -> (f64, f64) {
    let xs: Vec<f64> = (0..300).map(|i| 3.0 * spread * i as f64 / 299.0).collect();
    let ys: Vec<f64> =
        xs.iter().map(|&x| if x < min_dist { 1.0 } else { (-(x - min_dist) / spread).exp() }).collect();
    let residuals = |a: f64, b: f64| -> f64 {
        xs.iter().zip(&ys).map(|(&x, &y)| (1.0 / (1.0 + a * x.powf(2.0 * b)) - y).powi(2)).sum()
    };
    let (mut a, mut b, mut lambda) = (1.0f64, 1.0f64, 1e-3f64);
    let mut cost = residuals(a, b);
    for _ in 0..200 {
        // The normal equations J^T J δ = −J^T r, with J the residuals' derivatives in a and b.
        let (mut jaa, mut jab, mut jbb, mut ga, mut gb) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (&x, &y) in xs.iter().zip(&ys) {
            if x == 0.0 {
                continue;
            }
            let u = x.powf(2.0 * b);
            let f = 1.0 / (1.0 + a * u);
            let (da, db) = (-u * f * f, -a * u * 2.0 * x.ln() * f * f);
            let r = f - y;
            jaa += da * da;
            jab += da * db;
            jbb += db * db;
            ga += da * r;
            gb += db * r;
        }
        let (maa, mbb) = (jaa * (1.0 + lambda), jbb * (1.0 + lambda));
        let det = maa * mbb - jab * jab;
        if det.abs() < f64::MIN_POSITIVE {
            break;
        }
        let (step_a, step_b) = ((-ga * mbb + gb * jab) / det, (-gb * maa + ga * jab) / det);
        let (new_a, new_b) = (a + step_a, b + step_b);
        let new_cost = if new_a > 0.0 && new_b > 0.0 { residuals(new_a, new_b) } else { f64::INFINITY };
        if new_cost < cost {
            let converged = (cost - new_cost) <= 1e-15 * cost;
            (a, b, cost, lambda) = (new_a, new_b, new_cost, lambda / 10.0);
            if converged {
                break;
            }
        } else {
            lambda *= 10.0;
            if lambda > 1e12 {
                break;
            }
        }
    }
    (a, b)
}

/// PCA coordinates (random ones when PCA cannot spread the words) scaled to [0, 10] on each
/// axis, plus noise of 1e-4 so identical vectors part.
fn initial_coords(pca: Option<Vec<f32>>, n: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<f32> {
    let mut coords = pca.unwrap_or_else(|| (0..2 * n).map(|_| rng.random::<f32>()).collect());
    for axis in 0..2 {
        let values = coords.iter().skip(axis).step_by(2);
        let (min, max) = values.fold((f32::MAX, f32::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        let scale = if max > min { 10.0 / (max - min) } else { 0.0 };
        for c in coords.iter_mut().skip(axis).step_by(2) {
            *c = (*c - min) * scale;
        }
    }
    for c in &mut coords {
        *c += (rng.random::<f32>() - 0.5) * 2e-4;
    }
    coords
}

#[cfg(test)]
mod tests {
    use super::super::tests::{gaussian_clusters, share_with_own_cluster_around};
    use super::super::{neighbour_preservation, run_to_end, std_of_x};
    use super::*;

    fn small() -> UmapParams {
        UmapParams { n_neighbours: 10, epochs: Some(200), ..UmapParams::default() }
    }

    #[test]
    fn the_curve_fit_gives_umap_learns_a_and_b() {
        // umap-learn's find_ab_params (scipy's curve_fit) for these spreads and distances.
        let cases = [
            (0.1, 1.0, 1.5769, 0.8951),
            (0.0, 1.0, 1.9328, 0.7905),
            (0.5, 1.0, 0.5830, 1.3342),
            (0.99, 1.0, 0.1193, 1.9164),
        ];
        for (min_dist, spread, a, b) in cases {
            let (got_a, got_b) = fit_ab(min_dist, spread);
            assert!((got_a - a).abs() < 2e-3 && (got_b - b).abs() < 2e-3, "{min_dist}: {got_a}, {got_b}");
        }
    }

    #[test]
    fn the_pow_table_is_within_1e_6_of_powf() {
        for b in [0.5f32, 0.7905, 0.8951, 1.0, 1.3342, 1.9164] {
            let table = PowTable::new(b);
            let mut worst = 0.0f64;
            // x from 1e-40 (subnormal) to 1e12 on a log scale: d² on any map.
            for i in 0..20_000 {
                let x = 10f64.powf(-40.0 + 52.0 * i as f64 / 20_000.0) as f32;
                let (ours, exact) = (f64::from(table.pow(x)), f64::from(x).powf(f64::from(b)));
                // Below f32's normal range the result rounds to a subnormal or 0 anyway.
                if exact >= f64::from(f32::MIN_POSITIVE) {
                    worst = worst.max((ours - exact).abs() / exact);
                }
            }
            assert!(worst < 1e-6, "b = {b}: relative error {worst:e}");
            assert_eq!(table.pow(1.0), 1.0);
        }
    }

    #[test]
    fn smooth_knn_distances_reach_their_target() {
        let distances = [0.1, 0.2, 0.25, 0.4, 0.5, 0.7, 0.9];
        let target = 8f64.log2();
        let (rho, sigma) = smooth_knn_distance(&distances, target, 8, 0.5);
        assert_eq!(rho, 0.1);
        let sum: f64 = distances.iter().map(|&d| (-(d - rho).max(0.0) / sigma).exp()).sum();
        assert!((sum - target).abs() < 1e-4, "{sum}");
        // All at distance 0 (duplicates): the sum cannot reach the target, σ stays floored.
        let (rho, sigma) = smooth_knn_distance(&[0.0; 7], target, 8, 0.5);
        assert_eq!(rho, 0.0);
        assert!(sigma.is_finite() && sigma > 0.0);
    }

    #[test]
    fn the_graph_is_symmetric_with_weights_in_the_unit_interval() {
        let emb = gaussian_clusters(3, 20, 5, 10.0, 2);
        let knn = Knn::cosine(&emb.unit_rows(emb.len()), 5, 9);
        let graph = Umap::graph(&emb, 60, &UmapParams { n_neighbours: 10, ..small() })
            .unwrap()
            .finish(&emb.unit_rows(60));
        let edges: std::collections::HashMap<(u32, u32), f32> = (0..60)
            .flat_map(|h| (graph.row_starts[h]..graph.row_starts[h + 1]).map(move |e| (h as u32, e)))
            .map(|(h, e)| ((h, graph.columns[e]), graph.values[e]))
            .collect();
        assert_eq!(edges.len(), graph.columns.len(), "each directed edge once");
        for (&(h, t), &w) in &edges {
            assert_eq!(edges.get(&(t, h)), Some(&w));
            assert!(w > 0.0 && w <= 1.0 && h != t);
        }
        // Every word's nearest neighbour has membership 1 (d = ρ).
        for i in 0..60u32 {
            assert_eq!(edges[&(i, knn.neighbours(i as usize)[0])], 1.0);
        }
    }

    #[test]
    fn the_same_map_on_one_thread_and_on_several() {
        // 1,200 words: the graph's rows weighed in many blocks by rayon's threads.
        let emb = gaussian_clusters(12, 100, 12, 3.0, 16);
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            pool.install(|| {
                let mut umap = Umap::new(&emb, 1200, UmapParams { epochs: Some(30), ..small() }).unwrap();
                run_to_end(&mut umap, 7);
                umap.coords().to_vec()
            })
        };
        let one = run(1);
        assert_eq!(run(3), one);
        assert!(one.iter().all(|c| c.is_finite()));
    }

    #[test]
    fn a_warm_start_from_a_settled_layout_stays_close() {
        let emb = gaussian_clusters(5, 40, 20, 10.0, 6);
        let mut first = Umap::new(&emb, 200, small()).unwrap();
        run_to_end(&mut first, 500);
        let settled = first.coords().to_vec();
        let warm_params = UmapParams { epochs: Some(100), learning_rate: 0.1, ..small() };
        let mut warm = Umap::with_initial(&emb, 200, &settled, warm_params.clone()).unwrap();
        run_to_end(&mut warm, 50);
        let spread = std_of_x(&settled);
        let moved = |coords: &[f32]| {
            let total: f64 = settled
                .chunks_exact(2)
                .zip(coords.chunks_exact(2))
                .map(|(p, q)| f64::from((p[0] - q[0]).hypot(p[1] - q[1])))
                .sum();
            total / 200.0 / spread
        };
        // Measured: a tenth of the spread, while neighbourhoods get better, not worse.
        assert!(moved(warm.coords()) < 0.15, "moved {:.3} of the spread", moved(warm.coords()));
        let before = neighbour_preservation(&emb, &settled, 10).unwrap();
        let after = neighbour_preservation(&emb, warm.coords(), 10).unwrap();
        assert!(after > before - 0.02, "preservation {before:.3} before, {after:.3} after");
        assert_eq!(share_with_own_cluster_around(warm.coords(), 5, 10), 1.0);
        // The full rate anneals afresh and moves the points twice as far.
        let mut hot =
            Umap::with_initial(&emb, 200, &settled, UmapParams { learning_rate: 1.0, ..warm_params })
                .unwrap();
        run_to_end(&mut hot, 50);
        assert!(moved(hot.coords()) > 2.0 * moved(warm.coords()));
    }

    #[test]
    fn bad_input_is_an_error_that_says_what_is_needed() {
        let emb = gaussian_clusters(2, 7, 4, 10.0, 7);
        let too_few = Umap::new(&emb, 14, UmapParams::default()).err().unwrap();
        assert_eq!(too_few.to_string(), "invalid words = 14: expected at least 15 words for 15 neighbours");
        assert!(Umap::new(&emb, 15, small()).is_err(), "more words than the vectors hold");
        let cases = [
            (UmapParams { n_neighbours: 1, ..small() }, "n_neighbours"),
            (UmapParams { min_dist: -0.1, ..small() }, "min_dist"),
            (UmapParams { min_dist: f32::NAN, ..small() }, "min_dist"),
            (UmapParams { min_dist: 1.5, ..small() }, "min_dist"),
            (UmapParams { epochs: Some(0), ..small() }, "epochs"),
            (UmapParams { learning_rate: 0.0, ..small() }, "learning_rate"),
        ];
        for (params, name) in cases {
            match Umap::new(&emb, 14, params) {
                Err(Error::InvalidParameter { name: got, .. }) => assert_eq!(got, name),
                other => panic!("expected an error on {name}, got {:?}", other.map(|u| u.progress())),
            }
        }
        assert!(Umap::with_initial(&emb, 14, &[0.0; 27], small()).is_err());
        assert!(Umap::with_initial(&emb, 14, &[f32::INFINITY; 28], small()).is_err());
    }
}
