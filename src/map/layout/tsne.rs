//! t-SNE with the Barnes–Hut approximation (van der Maaten 2014, "Accelerating t-SNE using
//! tree-based algorithms", JMLR 15), with openTSNE's choices (Poličar et al. 2024) where the
//! paper leaves room.
//!
//! - **Affinities**: for each word, its `k = 3 × perplexity` nearest neighbours by cosine
//!   distance ([`Knn::cosine`]); a Gaussian over the *squared* distances, its precision found
//!   by bisection so the row's perplexity is the one asked for (as openTSNE); then
//!   `p_ij = (p_j|i + p_i|j) / 2N`, a sparse symmetric matrix summing to 1.
//! - **Gradient**: `∂C/∂y_i = 4 (α Σ_j p_ij q_ij Z (y_i − y_j) − Σ_j q_ij² Z (y_i − y_j))`
//!   with `q_ij Z = 1 / (1 + |y_i − y_j|²)`; the attractive sum runs over the sparse `p`, the
//!   repulsive one over a quadtree ([`QuadTree`], θ = 0.5: a cell whose side is under half
//!   its distance acts as one mass).
//! - **Optimisation**: gradient descent with momentum and per-coordinate gains (the
//!   delta-bar-delta rule: +0.2 when the gradient's sign differs from the update's, else
//!   ×0.8 + 0.01), each point's step cut to a length of 5 (openTSNE's `max_step_norm`). Early exaggeration α = 12 with momentum 0.5 for the first 250 iterations, then
//!   α = 1 and momentum 0.8; the gains and momentum restart between the phases, as
//!   openTSNE's two optimisation calls do. The learning rate "auto" is `max(N / α / 4, 50)` in
//!   each phase, openTSNE's `N / α` (its gradient leaves out the factor 4).
//! - **Start**: PCA of the raw vectors, scaled so the first axis has standard deviation 1e-4
//!   (openTSNE's default); random points of the same spread when PCA cannot spread them
//!   (one-dimensional or identical vectors); or a **warm start** from given coordinates,
//!   used as they are and without early exaggeration, since they already hold the clusters
//!   the exaggeration exists to form.
//!
//! One iteration costs O(N log N) for the tree plus O(N k) for the attraction: about 5 ms
//! for 5,000 words natively, 40 ms for 20,000 (one thread). Both parts are split among
//! rayon's threads where there are any, to the same result.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::graph::{GraphBuilder, RowWeights, Sparse};
use super::quadtree::QuadTree;
use super::{Knn, Layout, LayoutProgress, Start, check_initial, check_words, std_of_x};
use crate::error::{Error, Result};
use crate::vectors::Embeddings;

/// Barnes–Hut accuracy: a cell is summarised when its side is under θ times its distance.
const THETA: f32 = 0.5;
/// The fewest points a thread takes of an iteration's repulsion (a few hundred microseconds).
const PARALLEL_POINTS: usize = 512;
/// Iterations of early exaggeration at the start (all of them when fewer are asked for).
pub const EARLY_ITERATIONS: usize = 250;
const EARLY_MOMENTUM: f32 = 0.5;
const MOMENTUM: f32 = 0.8;
const MIN_GAIN: f32 = 0.01;
/// The longest step a point takes in one iteration (openTSNE's `max_step_norm`).
const MAX_STEP: f32 = 5.0;
/// openTSNE's spread of a PCA or random start.
const INITIAL_STD: f64 = 1e-4;
/// Bisection for a row's precision: this many halvings at most, or until the entropy is this
/// close to log(perplexity).
const MAX_BISECTIONS: usize = 200;
const ENTROPY_TOLERANCE: f64 = 1e-5;

/// t-SNE's parameters; `Default` gives openTSNE's.
#[derive(Debug, Clone, PartialEq)]
pub struct TsneParams {
    /// The effective number of neighbours each word keeps; `3 × perplexity` neighbours enter
    /// the affinities, so it needs more than that many words. At least 1.
    pub perplexity: f32,
    /// The gradient step; `None` is "auto", `max(N / exaggeration / 4, 50)` in each phase.
    /// On scikit-learn's scale: openTSNE leaves the factor 4 out of its gradient, so its
    /// rates are 4 times these.
    pub learning_rate: Option<f32>,
    /// Iterations in all, the first 250 of them with early exaggeration.
    pub iterations: usize,
    /// The factor on the attractive forces during the first 250 iterations. At least 1.
    pub early_exaggeration: f32,
    /// Seeds the random start, used when PCA cannot spread the words.
    pub seed: u64,
}

impl Default for TsneParams {
    fn default() -> Self {
        TsneParams {
            perplexity: 30.0,
            learning_rate: None,
            iterations: 750,
            early_exaggeration: 12.0,
            seed: 1,
        }
    }
}

impl TsneParams {
    /// Names the first parameter out of its range.
    pub fn validate(&self) -> Result<()> {
        let invalid = |name: &'static str, value: String, expected: &str| {
            Err(Error::InvalidParameter { name, value, expected: expected.into() })
        };
        if !(self.perplexity.is_finite() && self.perplexity >= 1.0) {
            return invalid("perplexity", self.perplexity.to_string(), "a number of at least 1");
        }
        if let Some(rate) = self.learning_rate
            && !(rate.is_finite() && rate > 0.0)
        {
            return invalid("learning_rate", rate.to_string(), "a positive number");
        }
        if self.iterations == 0 {
            return invalid("iterations", "0".into(), "at least 1");
        }
        if !(self.early_exaggeration.is_finite() && self.early_exaggeration >= 1.0) {
            return invalid(
                "early_exaggeration",
                self.early_exaggeration.to_string(),
                "a number of at least 1",
            );
        }
        Ok(())
    }

    /// The number of neighbours in the affinities, `⌊3 × perplexity⌋`.
    pub fn n_neighbours(&self) -> usize {
        (3.0 * self.perplexity) as usize
    }
}

/// A t-SNE layout of the most frequent words, advanced by [`Layout::step`].
pub struct Tsne {
    params: TsneParams,
    n: usize,
    /// The symmetric affinities in compressed rows: row `i` holds
    /// `columns[row_starts[i]..row_starts[i + 1]]` with `p` alongside.
    row_starts: Vec<usize>,
    columns: Vec<u32>,
    p: Vec<f32>,
    coords: Vec<f32>,
    update: Vec<f32>,
    gains: Vec<f32>,
    repulsion: Vec<f32>,
    /// The repulsive sums of the points of a slice, in the tree's order.
    sums: Vec<(f32, f32, f32)>,
    tree: QuadTree,
    iteration: usize,
    /// Iterations with early exaggeration: 250, or none after a warm start.
    early_iterations: usize,
    /// An iteration under way: the repulsion of the points in the tree's order before
    /// `next` is computed, and `z` sums their terms. At 20,000 words one iteration takes
    /// over 100 ms in wasm, so the worker stops halfway through one.
    partial: Option<Partial>,
}

/// See `Tsne::partial`.
#[derive(Clone, Copy, Debug)]
struct Partial {
    next: usize,
    z: f64,
}

impl Tsne {
    /// A layout of the `n_words` most frequent words of `emb`, starting from their PCA.
    ///
    /// Fails with [`Error::InvalidParameter`] on a parameter out of range, or when `n_words`
    /// exceeds the vocabulary or is not more than `3 × perplexity` (the message says how many
    /// words the perplexity needs).
    pub fn new(emb: &Embeddings, n_words: usize, params: TsneParams) -> Result<Tsne> {
        Tsne::build(emb, n_words, None, params)
    }

    /// A warm start: like [`Tsne::new`], but from `initial` (`x, y` for each word, e.g. the
    /// coordinates of a layout of earlier vectors) and without early exaggeration.
    ///
    /// Also fails when `initial` does not hold `2 × n_words` finite numbers.
    pub fn with_initial(
        emb: &Embeddings,
        n_words: usize,
        initial: &[f32],
        params: TsneParams,
    ) -> Result<Tsne> {
        check_initial(initial, n_words)?;
        Tsne::build(emb, n_words, Some(initial), params)
    }

    fn build(emb: &Embeddings, n_words: usize, initial: Option<&[f32]>, params: TsneParams) -> Result<Tsne> {
        let graph = Tsne::graph(emb, n_words, &params)?;
        Ok(Tsne::from_graph(graph.finish(&emb.unit_rows(n_words)), Start::of(emb, n_words, initial), params))
    }

    /// Checks `params` and the word count, and starts the affinities of the `n_words` most
    /// frequent words, for [`Tsne::from_graph`].
    pub(super) fn graph(
        emb: &Embeddings,
        n_words: usize,
        params: &TsneParams,
    ) -> Result<GraphBuilder<TsneWeights>> {
        params.validate()?;
        let k = params.n_neighbours();
        check_words(emb, n_words, k.saturating_add(1), &format!("perplexity {}", params.perplexity))?;
        let rule = TsneWeights { target: f64::from(params.perplexity).ln(), n: n_words };
        Ok(GraphBuilder::new(rule, n_words, emb.dim(), k))
    }

    /// The layout over `graph`, the affinities of the most frequent words, from `start`
    /// (initial coordinates checked by the caller).
    pub(super) fn from_graph(graph: Sparse, start: Start, params: TsneParams) -> Tsne {
        let n = graph.row_starts.len() - 1;
        let Sparse { row_starts, columns, values: p } = graph;
        let (coords, early_iterations) = match start {
            Start::Warm(coords) => (coords.to_vec(), 0),
            Start::Pca(pca) => (initial_coords(pca, n, params.seed), EARLY_ITERATIONS.min(params.iterations)),
        };
        Tsne {
            params,
            n,
            row_starts,
            columns,
            p,
            coords,
            update: vec![0.0; 2 * n],
            gains: vec![1.0; 2 * n],
            repulsion: vec![0.0; 2 * n],
            sums: Vec::new(),
            tree: QuadTree::new(),
            iteration: 0,
            early_iterations,
            partial: None,
        }
    }

    /// The parameters it was built with.
    pub fn params(&self) -> &TsneParams {
        &self.params
    }

    /// One gradient-descent iteration.
    fn iterate(&mut self) {
        while !self.advance(usize::MAX) {}
    }

    /// Carries the iteration under way (or a new one) on by the repulsion of at most
    /// `max_points` points; true when that ended the iteration. Sliced or not, the sums run
    /// in the same order, so the coordinates are the same to the bit.
    fn advance(&mut self, max_points: usize) -> bool {
        let mut partial = match self.partial.take() {
            Some(partial) => partial,
            None => {
                self.tree.build(&self.coords);
                Partial { next: 0, z: 0.0 }
            }
        };
        let order = self.tree.order();
        let end = partial.next.saturating_add(max_points.max(1)).min(order.len());
        // Each point's sums depend on the tree and its own place only, so rayon may split the
        // points among threads (where there are any): the sums, and Z added up in the tree's
        // order below, are the same to the bit on any number of threads.
        let (tree, coords) = (&self.tree, &self.coords);
        self.sums.clear();
        self.sums.par_extend(order[partial.next..end].par_iter().with_min_len(PARALLEL_POINTS).map(|&i| {
            let i = i as usize;
            tree.repulsion(i, coords[2 * i], coords[2 * i + 1], THETA * THETA)
        }));
        for (&i, &(fx, fy, zi)) in order[partial.next..end].iter().zip(&self.sums) {
            let i = i as usize;
            self.repulsion[2 * i] = fx;
            self.repulsion[2 * i + 1] = fy;
            partial.z += f64::from(zi);
        }
        partial.next = end;
        if end < order.len() {
            self.partial = Some(partial);
            return false;
        }
        self.finish_iteration(partial.z);
        true
    }

    /// The rest of an iteration once every point's repulsion is known: the attractive
    /// forces, the gains and the step.
    fn finish_iteration(&mut self, z: f64) {
        let early = self.iteration < self.early_iterations;
        if self.iteration == self.early_iterations && self.early_iterations > 0 {
            // The normal phase starts afresh, as openTSNE's second optimisation call does.
            self.update.fill(0.0);
            self.gains.fill(1.0);
        }
        let exaggeration = if early { self.params.early_exaggeration } else { 1.0 };
        let momentum = if early { EARLY_MOMENTUM } else { MOMENTUM };
        let learning_rate =
            self.params.learning_rate.unwrap_or_else(|| (self.n as f32 / exaggeration / 4.0).max(50.0));

        let z = z.max(f64::MIN_POSITIVE) as f32;

        // Each point's step reads the coordinates and writes its own gains and update only,
        // so the points may be split among threads with the same result.
        let (coords, row_starts, columns, p, repulsion) =
            (&self.coords, &self.row_starts, &self.columns, &self.p, &self.repulsion);
        self.gains
            .par_chunks_mut(2)
            .zip(self.update.par_chunks_mut(2))
            .enumerate()
            .with_min_len(PARALLEL_POINTS)
            .for_each(|(i, (gains, update))| {
                let (x, y) = (coords[2 * i], coords[2 * i + 1]);
                let (mut ax, mut ay) = (0.0f32, 0.0f32);
                let range = row_starts[i]..row_starts[i + 1];
                for (&j, &p) in columns[range.clone()].iter().zip(&p[range]) {
                    let (dx, dy) = (x - coords[2 * j as usize], y - coords[2 * j as usize + 1]);
                    let pq = p / (1.0 + dx * dx + dy * dy);
                    ax += pq * dx;
                    ay += pq * dy;
                }
                let gradient = [
                    4.0 * (exaggeration * ax - repulsion[2 * i] / z),
                    4.0 * (exaggeration * ay - repulsion[2 * i + 1] / z),
                ];
                for (axis, g) in gradient.into_iter().enumerate() {
                    // openTSNE's rule, where a zero update has a sign of its own.
                    gains[axis] = if sign(g) != sign(update[axis]) {
                        gains[axis] + 0.2
                    } else {
                        gains[axis] * 0.8 + MIN_GAIN
                    };
                    update[axis] = momentum * update[axis] - learning_rate * gains[axis] * g;
                }
                // A step longer than MAX_STEP is cut to it, as openTSNE does.
                let length = update[0].hypot(update[1]);
                if length > MAX_STEP {
                    update[0] = update[0] / length * MAX_STEP;
                    update[1] = update[1] / length * MAX_STEP;
                }
            });
        for (y, u) in self.coords.iter_mut().zip(&self.update) {
            *y += u;
        }
        centre(&mut self.coords);
        self.iteration += 1;
    }
}

impl Layout for Tsne {
    fn step(&mut self, max_iterations: usize) -> LayoutProgress {
        for _ in 0..max_iterations {
            if self.iteration >= self.params.iterations {
                break;
            }
            self.iterate();
        }
        self.progress()
    }

    fn step_points(&mut self, max_points: usize) -> LayoutProgress {
        let mut left = max_points.max(1);
        while left > 0 && self.iteration < self.params.iterations {
            let from = self.partial.map_or(0, |p| p.next);
            let ended = self.advance(left);
            let done = self.partial.map_or(self.n, |p| p.next) - from;
            left = left.saturating_sub(done.max(1));
            if !ended {
                break;
            }
        }
        self.progress()
    }

    fn progress(&self) -> LayoutProgress {
        LayoutProgress { iteration: self.iteration, iterations: self.params.iterations }
    }

    fn coords(&self) -> &[f32] {
        &self.coords
    }
}

/// t-SNE's weights: a row's conditional probabilities over `2N`, so that the symmetric
/// `p_ij = (p_j|i + p_i|j) / 2N` sums to 1.
pub(super) struct TsneWeights {
    /// log(perplexity).
    target: f64,
    n: usize,
}

impl RowWeights for TsneWeights {
    fn row(&self, knn: &Knn, i: usize, out: &mut [f32]) {
        let squared: Vec<f64> = knn.distances(i).iter().map(|&d| f64::from(d) * f64::from(d)).collect();
        let mut conditional = vec![0.0; squared.len()];
        conditional_row(&squared, self.target, &mut conditional);
        for (p, &w) in out.iter_mut().zip(&conditional) {
            *p = (w / (2 * self.n) as f64) as f32;
        }
    }

    fn combine(a: f32, b: f32) -> f32 {
        a + b
    }

    fn work_per_row(&self, k: usize) -> u64 {
        WEIGHTS_WORK_PER_NEIGHBOUR * k as u64
    }
}

/// Work units (multiply-adds of the dot products) of a row's bisection, per neighbour: some
/// 30 to 60 rounds of exponentials, measured natively.
const WEIGHTS_WORK_PER_NEIGHBOUR: u64 = 1_200;

/// The conditional probabilities `p_j|i ∝ exp(−β d_j²)` of one row, summing to 1, with β
/// bisected until the entropy is `target` (the log of the perplexity); returns that β.
pub(crate) fn conditional_row(squared: &[f64], target: f64, weights: &mut [f64]) -> f64 {
    // Shifting by the nearest distance changes no probability and keeps exp from underflowing.
    let nearest = squared.iter().copied().fold(f64::INFINITY, f64::min);
    let (mut beta, mut low, mut high) = (1.0f64, 0.0f64, f64::INFINITY);
    for _ in 0..MAX_BISECTIONS {
        let mut sum = 0.0;
        let mut weighted = 0.0;
        for (w, &d) in weights.iter_mut().zip(squared) {
            *w = (-beta * (d - nearest)).exp();
            sum += *w;
            weighted += *w * (d - nearest);
        }
        // The nearest neighbour has weight 1, so sum >= 1.
        let entropy = sum.ln() + beta * weighted / sum;
        if (entropy - target).abs() < ENTROPY_TOLERANCE {
            break;
        }
        if entropy > target {
            low = beta;
            beta = if high.is_finite() { (beta + high) / 2.0 } else { beta * 2.0 };
        } else {
            high = beta;
            beta = (beta + low) / 2.0;
        }
    }
    let sum: f64 = weights.iter().sum();
    weights.iter_mut().for_each(|w| *w /= sum);
    beta
}

/// PCA coordinates scaled to openTSNE's spread, or random ones of that spread.
fn initial_coords(pca: Option<Vec<f32>>, n: usize, seed: u64) -> Vec<f32> {
    let mut coords = pca.unwrap_or_else(|| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        (0..2 * n).map(|_| rng.random::<f32>() - 0.5).collect()
    });
    let scale = (INITIAL_STD / std_of_x(&coords).max(f64::MIN_POSITIVE)) as f32;
    coords.iter_mut().for_each(|c| *c *= scale);
    coords
}

/// -1, 0 or 1 (`f32::signum` gives 1 for 0).
fn sign(x: f32) -> i8 {
    i8::from(x > 0.0) - i8::from(x < 0.0)
}

/// Moves the points so their mean is at the origin.
fn centre(coords: &mut [f32]) {
    let n = (coords.len() / 2) as f64;
    let (sx, sy) = coords
        .chunks_exact(2)
        .fold((0.0f64, 0.0f64), |(sx, sy), p| (sx + f64::from(p[0]), sy + f64::from(p[1])));
    let (mx, my) = ((sx / n) as f32, (sy / n) as f32);
    for p in coords.chunks_exact_mut(2) {
        p[0] -= mx;
        p[1] -= my;
    }
}

#[cfg(test)]
mod tests {
    use super::super::run_to_end;
    use super::super::tests::{gaussian_clusters, share_with_own_cluster_around};
    use super::*;

    fn small() -> TsneParams {
        TsneParams { perplexity: 10.0, iterations: 500, ..TsneParams::default() }
    }

    #[test]
    fn rows_have_the_perplexity_asked_for() {
        let squared = [0.01, 0.05, 0.2, 0.3, 0.9, 1.0, 1.5, 2.0, 4.0, 9.0];
        let mut w = vec![0.0; squared.len()];
        for perplexity in [1.5f64, 3.0, 7.0] {
            conditional_row(&squared, perplexity.ln(), &mut w);
            let entropy: f64 = -w.iter().filter(|&&p| p > 0.0).map(|p| p * p.ln()).sum::<f64>();
            assert!((entropy.exp() - perplexity).abs() < 1e-3, "{perplexity}: {}", entropy.exp());
            assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        // Equal distances cannot reach a lower perplexity; the row stays uniform, not NaN.
        conditional_row(&[0.5; 4], 1.5f64.ln(), &mut w[..4]);
        assert!(w[..4].iter().all(|&p| (p - 0.25).abs() < 1e-12), "{w:?}");
    }

    #[test]
    fn affinities_are_symmetric_and_sum_to_one() {
        let emb = gaussian_clusters(3, 20, 5, 10.0, 2);
        let params = TsneParams { perplexity: 3.0, ..small() };
        let Sparse { row_starts, columns, values: p } =
            Tsne::graph(&emb, 60, &params).unwrap().finish(&emb.unit_rows(60));
        let total: f64 = p.iter().map(|&x| f64::from(x)).sum();
        assert!((total - 1.0).abs() < 1e-5, "{total}");
        let at = |i: usize, j: u32| {
            let r = row_starts[i]..row_starts[i + 1];
            columns[r.clone()].iter().position(|&c| c == j).map(|k| p[r.start + k])
        };
        for i in 0..60 {
            for &j in &columns[row_starts[i]..row_starts[i + 1]] {
                assert_eq!(at(i, j), at(j as usize, i as u32), "p is symmetric");
                assert_ne!(j as usize, i);
            }
        }
    }

    #[test]
    fn a_warm_start_from_a_settled_layout_stays_close() {
        let emb = gaussian_clusters(5, 40, 20, 10.0, 6);
        let mut first = Tsne::new(&emb, 200, small()).unwrap();
        run_to_end(&mut first, 500);
        let settled = first.coords().to_vec();
        let mut warm =
            Tsne::with_initial(&emb, 200, &settled, TsneParams { iterations: 200, ..small() }).unwrap();
        run_to_end(&mut warm, 50);
        // t-SNE maps keep expanding slowly, so compare shapes: each map in units of its spread.
        let (a, b) = (std_of_x(&settled) as f32, std_of_x(warm.coords()) as f32);
        let moved: f64 = settled
            .chunks_exact(2)
            .zip(warm.coords().chunks_exact(2))
            .map(|(p, q)| f64::from((p[0] / a - q[0] / b).hypot(p[1] / a - q[1] / b)))
            .sum::<f64>()
            / 200.0;
        // Measured 0.05: a twentieth of the spread.
        assert!(moved < 0.1, "moved {moved:.3} of the spread");
        assert_eq!(share_with_own_cluster_around(warm.coords(), 5, 10), 1.0);
    }

    #[test]
    fn the_same_map_on_one_thread_and_on_several() {
        // 2,400 points: several chunks of the repulsion and of the steps for threads to share.
        let emb = gaussian_clusters(8, 300, 10, 3.0, 14);
        let params = TsneParams { perplexity: 10.0, iterations: 40, ..TsneParams::default() };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            pool.install(|| {
                let mut tsne = Tsne::new(&emb, 2400, params.clone()).unwrap();
                run_to_end(&mut tsne, 7);
                tsne.coords().to_vec()
            })
        };
        let one = run(1);
        assert_eq!(run(3), one);
        assert!(one.iter().all(|c| c.is_finite()));
    }

    #[test]
    fn bad_input_is_an_error_that_says_what_is_needed() {
        let emb = gaussian_clusters(2, 20, 4, 10.0, 7);
        let too_few = Tsne::new(&emb, 40, TsneParams::default()).err().unwrap();
        assert_eq!(too_few.to_string(), "invalid words = 40: expected at least 91 words for perplexity 30");
        assert!(Tsne::new(&emb, 41, small()).is_err(), "more words than the vectors hold");
        // Table: (parameters, the parameter named in the error).
        let cases = [
            (TsneParams { perplexity: 0.5, ..small() }, "perplexity"),
            (TsneParams { perplexity: f32::NAN, ..small() }, "perplexity"),
            (TsneParams { learning_rate: Some(0.0), ..small() }, "learning_rate"),
            (TsneParams { learning_rate: Some(f32::INFINITY), ..small() }, "learning_rate"),
            (TsneParams { iterations: 0, ..small() }, "iterations"),
            (TsneParams { early_exaggeration: 0.5, ..small() }, "early_exaggeration"),
        ];
        for (params, name) in cases {
            match Tsne::new(&emb, 40, params) {
                Err(Error::InvalidParameter { name: got, .. }) => assert_eq!(got, name),
                other => panic!("expected an error on {name}, got {:?}", other.map(|t| t.progress())),
            }
        }
        let short = Tsne::with_initial(&emb, 40, &[0.0; 79], small()).err().unwrap();
        assert!(short.to_string().contains("expected 80 (x, y for each of 40 words)"), "{short}");
        let mut nan = vec![0.0; 80];
        nan[3] = f32::NAN;
        assert!(Tsne::with_initial(&emb, 40, &nan, small()).is_err());
    }
}
