//! Iterative 2-D maps of the most frequent words that keep neighbourhoods: t-SNE and UMAP.
//!
//! PCA shows the main directions of the space but loses neighbourhoods; these layouts keep
//! them. Both are objects shaped like openTSNE's and umap-js's `initializeFit`/`step`: built
//! from the vectors (the affinities are computed once, from a cosine k-NN graph, [`Knn`]:
//! exact up to 20,000 words, NN-descent's beyond, see `nndescent.rs`), then advanced a slice at a time with [`Layout::step`], so a worker can run them
//! in slices of ~50 ms and draw [`Layout::coords`] in between. A **warm start** builds one
//! from new vectors and the previous layout's coordinates, so a map drawn while the vectors
//! train continues from where it was instead of starting over.
//!
//! Why not a crate: `bhtsne` needs rayon (and `getrandom` through `rand` on wasm32) and runs
//! to completion with no way to step or warm-start; `umap-rs` is built on rayon and ndarray;
//! Apple's embedding-atlas runs umappp, C++ compiled with Emscripten, not Rust. None steps
//! deterministically in a single-threaded wasm32 build, so both layouts are written here.
//!
//! **Architecture Invariant:** a layout depends only on the vectors, the word count, the
//! parameters, the seed and the initial coordinates, never on how its steps are sliced nor on
//! the threads rayon gives t-SNE's iterations (each point's sums are its own); one
//! generator (Xoshiro256++, as the trainer) supplies all randomness, so native and wasm32
//! builds draw the same numbers.

mod graph;
mod knn;
mod nndescent;
mod quadtree;
mod tsne;
mod umap;

pub use knn::Knn;
pub(crate) use tsne::conditional_row;
pub use tsne::{EARLY_ITERATIONS, Tsne, TsneParams};
pub use umap::{LARGE as UMAP_LARGE, Umap, UmapParams};

use std::borrow::Cow;

use graph::GraphBuilder;

use super::{Pca, PcaBuilder};
use crate::error::{Error, Result};
use crate::vectors::Embeddings;

/// How far a layout has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutProgress {
    /// Iterations (t-SNE) or epochs (UMAP) done.
    pub iteration: usize,
    /// Iterations or epochs in all.
    pub iterations: usize,
}

impl LayoutProgress {
    /// Whether every iteration is done.
    pub fn is_done(&self) -> bool {
        self.iteration >= self.iterations
    }

    /// The share done, in [0, 1].
    pub fn fraction(&self) -> f64 {
        if self.iterations == 0 { 1.0 } else { self.iteration as f64 / self.iterations as f64 }
    }
}

/// A 2-D layout that is advanced in steps: what a worker holds while a map settles. `Send`,
/// so a worker can step it on a pool of threads (t-SNE splits its iterations among them).
pub trait Layout: Send {
    /// Runs at most `max_iterations` more iterations (none once done) and says where it stands.
    fn step(&mut self, max_iterations: usize) -> LayoutProgress;
    /// Does about `max_points` points' worth of work (an iteration moves every point once),
    /// so a caller can slice a long iteration. The default rounds up to whole iterations; a
    /// layout whose iteration can stop halfway (t-SNE) does less than one when asked.
    fn step_points(&mut self, max_points: usize) -> LayoutProgress {
        let n = (self.coords().len() / 2).max(1);
        self.step(max_points.div_ceil(n).max(1))
    }
    /// Where it stands, without stepping.
    fn progress(&self) -> LayoutProgress;
    /// The coordinates: `x, y` for each word, most frequent first.
    fn coords(&self) -> &[f32];
}

/// Which layout to build, with its parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum LayoutParams {
    Tsne(TsneParams),
    Umap(UmapParams),
}

/// Iterations of a t-SNE warm start.
const WARM_TSNE_ITERATIONS: usize = 250;
/// Epochs and learning rate of a UMAP warm start (see [`Umap::with_initial`]).
const WARM_UMAP_EPOCHS: usize = 100;
const WARM_UMAP_LEARNING_RATE: f32 = 0.1;

impl LayoutParams {
    /// The parameters for a warm start from a settled map of earlier vectors: t-SNE for 250
    /// iterations (and, from given coordinates, without early exaggeration), UMAP for 100
    /// epochs at learning rate 0.1, so the map moves on from where it was rather than
    /// annealing afresh.
    pub fn warm(&self) -> LayoutParams {
        match self {
            LayoutParams::Tsne(p) => {
                LayoutParams::Tsne(TsneParams { iterations: WARM_TSNE_ITERATIONS, ..p.clone() })
            }
            LayoutParams::Umap(p) => LayoutParams::Umap(UmapParams {
                epochs: Some(WARM_UMAP_EPOCHS),
                learning_rate: WARM_UMAP_LEARNING_RATE,
                ..p.clone()
            }),
        }
    }
}

/// What a layout being built, then run, is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayoutPhase {
    /// Finding each word's nearest neighbours by cosine.
    Neighbours,
    /// Weighing the neighbour graph (t-SNE's affinities, UMAP's memberships).
    Affinities,
    /// The PCA the points start from (a cold start only): the covariance of the vectors.
    Start,
    /// Moving the points: [`LayoutBuilder::finish`] gives the layout.
    Layout,
}

/// The graph of a layout being built.
enum Graph {
    Tsne(GraphBuilder<tsne::TsneWeights>, TsneParams),
    Umap(GraphBuilder<umap::UmapWeights>, UmapParams),
}

/// A t-SNE or UMAP layout built a slice at a time, so a worker can answer its messages in
/// between: [`step`](Self::step) with a work budget until the phase is
/// [`LayoutPhase::Layout`], then [`finish`](Self::finish). The layout is the one
/// [`Tsne::new`] or [`Umap::new`] (or `with_initial`) builds in one go, to the bit, however
/// the work is sliced.
pub struct LayoutBuilder {
    n_words: usize,
    initial: Option<Vec<f32>>,
    graph: Graph,
    built: bool,
    /// The PCA start of a cold start, and whether its covariance is complete; `None` for a
    /// warm start, or when PCA cannot be fitted (one dimension): then the start is random.
    pca: Option<(PcaBuilder, bool)>,
    /// The words' rows, when they are converted (half precision) rather than borrowed.
    rows: MapRows,
}

/// The unit and raw vectors of a map's words, which a [`LayoutBuilder`] reads at every step:
/// borrowed from `f32` embeddings each time, converted once from half-precision ones and
/// kept here (each `None` until asked for, or for `f32` embeddings).
#[derive(Default)]
struct MapRows {
    unit: Option<Vec<f32>>,
    raw: Option<Vec<f32>>,
}

impl MapRows {
    /// The unit vectors of the `n` most frequent words of `emb`.
    fn unit<'a>(&'a mut self, emb: &'a Embeddings, n: usize) -> &'a [f32] {
        MapRows::kept(&mut self.unit, || emb.unit_rows(n))
    }

    /// The raw vectors of the `n` most frequent words of `emb`.
    fn raw<'a>(&'a mut self, emb: &'a Embeddings, n: usize) -> &'a [f32] {
        MapRows::kept(&mut self.raw, || emb.raw_rows(n))
    }

    /// The rows `slot` holds; else `rows()`, borrowed, or kept in `slot` when converted.
    fn kept<'a>(slot: &'a mut Option<Vec<f32>>, rows: impl FnOnce() -> Cow<'a, [f32]>) -> &'a [f32] {
        if slot.is_none() {
            match rows() {
                Cow::Borrowed(rows) => return rows,
                Cow::Owned(rows) => *slot = Some(rows),
            }
        }
        slot.as_deref().expect("kept above")
    }
}

impl LayoutBuilder {
    /// Starts a layout of the `n_words` most frequent words of `emb`, from their PCA or, a
    /// warm start, from `initial` (`x, y` for each word). Fails as [`Tsne::new`],
    /// [`Umap::new`] and their `with_initial` do, on bad parameters, too few or too many
    /// words, or bad initial coordinates; then nothing is built.
    pub fn new(
        emb: &Embeddings,
        n_words: usize,
        params: LayoutParams,
        initial: Option<&[f32]>,
    ) -> Result<LayoutBuilder> {
        let graph = match params {
            LayoutParams::Tsne(p) => Graph::Tsne(Tsne::graph(emb, n_words, &p)?, p),
            LayoutParams::Umap(p) => Graph::Umap(Umap::graph(emb, n_words, &p)?, p),
        };
        if let Some(coords) = initial {
            check_initial(coords, n_words)?;
        }
        let mut rows = MapRows::default();
        let pca = match initial {
            Some(_) => None,
            None => PcaBuilder::new(rows.raw(emb, n_words), emb.dim(), 2).ok().map(|b| (b, false)),
        };
        Ok(LayoutBuilder { n_words, initial: initial.map(<[f32]>::to_vec), graph, built: false, pca, rows })
    }

    /// Does about `max_work` more units of work (a unit is about the time of one multiply-add
    /// of the dot products; at least one piece is done), stopping at the end of a phase, and
    /// says the phase it is in now.
    ///
    /// **Unchecked precondition:** `emb` is the `Embeddings` given to `new`, at every call.
    pub fn step(&mut self, emb: &Embeddings, max_work: u64) -> LayoutPhase {
        if !self.built {
            let unit = self.rows.unit(emb, self.n_words);
            self.built = match &mut self.graph {
                Graph::Tsne(graph, _) => graph.step(unit, max_work),
                Graph::Umap(graph, _) => graph.step(unit, max_work),
            };
            if self.built {
                // The graph is complete: it reads the unit vectors no more.
                self.rows.unit = None;
            }
        } else if let Some((pca, complete @ false)) = &mut self.pca {
            let rows = max_work.div_ceil(pca.work_per_row()).min(usize::MAX as u64) as usize;
            *complete = pca.step(self.rows.raw(emb, self.n_words), rows);
        }
        self.phase()
    }

    /// The phase it is in.
    pub fn phase(&self) -> LayoutPhase {
        let finding = match &self.graph {
            Graph::Tsne(graph, _) => graph.finding_neighbours(),
            Graph::Umap(graph, _) => graph.finding_neighbours(),
        };
        match (self.built, finding) {
            (true, _) if matches!(self.pca, Some((_, false))) => LayoutPhase::Start,
            (true, _) => LayoutPhase::Layout,
            (false, true) => LayoutPhase::Neighbours,
            (false, false) => LayoutPhase::Affinities,
        }
    }

    /// Which stage of its phases it is in, a number that changes whenever the cost of a unit
    /// of [`step`](Self::step)'s work may (the k-NN graph's products and its sorting, the
    /// weights, the symmetric rows, the PCA start), for a [`Pacer`](super::Pacer).
    pub fn stage(&self) -> u64 {
        match &self.graph {
            _ if self.built => 5 + u64::from(self.phase() == LayoutPhase::Layout),
            Graph::Tsne(graph, _) => graph.stage(),
            Graph::Umap(graph, _) => graph.stage(),
        }
    }

    /// The layout, at iteration 0 (what is left of the graph and of the PCA start is done
    /// here, in one go).
    ///
    /// **Unchecked precondition:** as for `step`.
    pub fn finish(mut self, emb: &Embeddings) -> Result<Box<dyn Layout>> {
        let start = match (&self.initial, self.pca) {
            (Some(coords), _) => Start::Warm(coords),
            (None, Some((pca, _))) => {
                Start::Pca(spread_coords(&pca.finish(self.rows.raw(emb, self.n_words)), emb, self.n_words))
            }
            (None, None) => Start::Pca(None),
        };
        // A complete graph reads no vectors.
        let unit = if self.built { &[] } else { self.rows.unit(emb, self.n_words) };
        Ok(match self.graph {
            Graph::Tsne(graph, params) => Box::new(Tsne::from_graph(graph.finish(unit), start, params)),
            Graph::Umap(graph, params) => Box::new(Umap::from_graph(graph.finish(unit), start, params)?),
        })
    }
}

/// Where a layout's points start.
pub(super) enum Start<'a> {
    /// From the coordinates of an earlier layout.
    Warm(&'a [f32]),
    /// From the first two principal coordinates ([`pca_coords`]); `None` when they do not
    /// spread, so the layout starts from random points.
    Pca(Option<Vec<f32>>),
}

impl<'a> Start<'a> {
    /// Warm from `initial`, else from the PCA of the `n_words` most frequent words.
    fn of(emb: &Embeddings, n_words: usize, initial: Option<&'a [f32]>) -> Start<'a> {
        match initial {
            Some(coords) => Start::Warm(coords),
            None => Start::Pca(pca_coords(emb, n_words)),
        }
    }
}

/// The share of each of the `coords.len() / 2` most frequent words' `k` nearest neighbours by
/// cosine in the vectors that are also among its `k` nearest on the map (Euclidean): 1 when
/// the map keeps every neighbourhood, about `k / n` for a random map.
///
/// Fails with [`Error::InvalidParameter`] when `k` is 0, when the map holds `k` words or
/// fewer, or more words than the vectors.
pub fn neighbour_preservation(emb: &Embeddings, coords: &[f32], k: usize) -> Result<f64> {
    let n = coords.len() / 2;
    if n > emb.len() || !coords.len().is_multiple_of(2) {
        return Err(Error::InvalidParameter {
            name: "coords",
            value: format!("{} numbers", coords.len()),
            expected: format!("x, y pairs for at most the {} words of the vectors", emb.len()),
        });
    }
    if k == 0 || k >= n {
        return Err(Error::InvalidParameter {
            name: "k",
            value: k.to_string(),
            expected: format!("between 1 and {} for a map of {n} words", n.saturating_sub(1)),
        });
    }
    let in_vectors = Knn::cosine(&emb.unit_rows(n), emb.dim(), k);
    let on_map = Knn::euclidean_2d(coords, k);
    let kept: usize = (0..n)
        .map(|i| in_vectors.neighbours(i).iter().filter(|j| on_map.neighbours(i).contains(j)).count())
        .sum();
    Ok(kept as f64 / (n * k) as f64)
}

/// Checks the word count of a layout: at least `needed` words, at most the vocabulary.
/// `needed_for` says what needs them, e.g. "perplexity 30".
fn check_words(emb: &Embeddings, n_words: usize, needed: usize, needed_for: &str) -> Result<()> {
    if n_words > emb.len() {
        return Err(Error::InvalidParameter {
            name: "words",
            value: n_words.to_string(),
            expected: format!("at most the {} words of the vectors", emb.len()),
        });
    }
    if n_words < needed {
        return Err(Error::InvalidParameter {
            name: "words",
            value: n_words.to_string(),
            expected: format!("at least {needed} words for {needed_for}"),
        });
    }
    Ok(())
}

/// Checks warm-start coordinates: an `x, y` pair of finite numbers for each of `n_words`.
fn check_initial(initial: &[f32], n_words: usize) -> Result<()> {
    if initial.len() != 2 * n_words {
        return Err(Error::InvalidParameter {
            name: "initial coordinates",
            value: format!("{} numbers", initial.len()),
            expected: format!("{} (x, y for each of {n_words} words)", 2 * n_words),
        });
    }
    if initial.iter().any(|x| !x.is_finite()) {
        return Err(Error::InvalidParameter {
            name: "initial coordinates",
            value: "NaN or infinity".into(),
            expected: "finite numbers".into(),
        });
    }
    Ok(())
}

/// The first two principal coordinates of the raw vectors of the `n_words` most frequent
/// words, flat `x, y`; `None` when they do not spread (vectors of one dimension, or all the
/// same, or so large that they project past `f32`), so the caller starts from random points.
fn pca_coords(emb: &Embeddings, n_words: usize) -> Option<Vec<f32>> {
    spread_coords(&Pca::fit(emb, Some(n_words), 2).ok()?, emb, n_words)
}

/// The words' coordinates on `pca`'s two components, `None` when they do not spread.
fn spread_coords(pca: &Pca, emb: &Embeddings, n_words: usize) -> Option<Vec<f32>> {
    let coords = pca.project_words(emb, n_words);
    let spread = coords.iter().step_by(2).fold(0.0f32, |m, x| m.max(x.abs()));
    // Vectors near f32's limits can project past them.
    (spread > 0.0 && spread.is_finite() && coords.iter().all(|c| c.is_finite())).then_some(coords)
}

/// The standard deviation of the x coordinates (the first principal axis for a PCA start).
fn std_of_x(coords: &[f32]) -> f64 {
    let n = (coords.len() / 2) as f64;
    let mean = coords.iter().step_by(2).map(|&x| f64::from(x)).sum::<f64>() / n;
    (coords.iter().step_by(2).map(|&x| (f64::from(x) - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// Runs `layout` to the end in slices of `slice` iterations.
#[cfg(test)]
fn run_to_end(layout: &mut dyn Layout, slice: usize) {
    while !layout.step(slice).is_done() {}
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, RngExt, SeedableRng};

    use super::*;
    use crate::fuzz::random_finite_f32;

    /// `clusters` Gaussian clusters of `per_cluster` points in `dim` dimensions (spread 1),
    /// their centres' entries normal times `separation`, interleaved so the most frequent
    /// words come from every cluster. Word `i` belongs to cluster `i % clusters`.
    pub(crate) fn gaussian_clusters(
        clusters: usize,
        per_cluster: usize,
        dim: usize,
        separation: f32,
        seed: u64,
    ) -> Embeddings {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut normal = move || {
            // Box–Muller from two uniforms in (0, 1].
            let u: f64 = 1.0 - rng.random::<f64>();
            let v: f64 = rng.random::<f64>();
            ((-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()) as f32
        };
        let centres: Vec<f32> = (0..clusters * dim).map(|_| separation * normal()).collect();
        let mut vectors = Vec::with_capacity(clusters * per_cluster * dim);
        for i in 0..clusters * per_cluster {
            let c = i % clusters;
            vectors.extend((0..dim).map(|t| centres[c * dim + t] + normal()));
        }
        let words = (0..clusters * per_cluster).map(|i| format!("w{i}")).collect();
        Embeddings::new(words, dim, vectors).expect("finite vectors")
    }

    /// The share of points whose `k` nearest on the map all lie in their own cluster.
    pub(crate) fn share_with_own_cluster_around(coords: &[f32], clusters: usize, k: usize) -> f64 {
        let knn = Knn::euclidean_2d(coords, k);
        let n = knn.n();
        let pure = (0..n)
            .filter(|&i| knn.neighbours(i).iter().all(|&j| j as usize % clusters == i % clusters))
            .count();
        pure as f64 / n as f64
    }

    #[test]
    fn preservation_is_one_for_the_identity_and_refuses_bad_k() {
        // Points on a plane embedded in 3-D: the map of their first two coordinates keeps all.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let coords: Vec<f32> = (0..200).map(|_| rng.random::<f32>() * 10.0).collect();
        // Cosine neighbours equal Euclidean ones for points on a circle.
        let angles: Vec<f32> = coords.iter().step_by(2).copied().collect();
        let circle: Vec<f32> = angles.iter().flat_map(|&a| [a.cos(), a.sin()]).collect();
        let words = (0..100).map(|i| format!("w{i}")).collect();
        let emb = Embeddings::new(words, 2, circle.clone()).unwrap();
        assert_eq!(neighbour_preservation(&emb, &circle, 5).unwrap(), 1.0);
        for k in [0, 100] {
            assert!(matches!(
                neighbour_preservation(&emb, &circle, k),
                Err(Error::InvalidParameter { name: "k", .. })
            ));
        }
        assert!(neighbour_preservation(&emb, &[0.0; 202], 5).is_err());
    }

    /// Builds a layout of the `n` most frequent words with the given seed.
    type Build = fn(&Embeddings, usize, u64) -> Box<dyn Layout>;

    /// Both layouts at their defaults but for fewer iterations, for the tests they share; a
    /// perplexity of 10 and 10 neighbours fit sets of a few hundred words.
    const LAYOUTS: [(&str, Build); 2] = [
        ("t-SNE", |emb, n, seed| {
            let params = TsneParams { perplexity: 10.0, iterations: 500, seed, ..TsneParams::default() };
            Box::new(Tsne::new(emb, n, params).unwrap())
        }),
        ("UMAP", |emb, n, seed| {
            let params = UmapParams { n_neighbours: 10, epochs: Some(200), seed, ..UmapParams::default() };
            Box::new(Umap::new(emb, n, params).unwrap())
        }),
    ];

    #[test]
    fn separated_clusters_stay_separate() {
        let emb = gaussian_clusters(5, 60, 20, 10.0, 3);
        for (name, build) in LAYOUTS {
            let mut layout = build(&emb, 300, 1);
            run_to_end(layout.as_mut(), 100);
            assert!(layout.coords().iter().all(|c| c.is_finite()), "{name}");
            assert_eq!(share_with_own_cluster_around(layout.coords(), 5, 10), 1.0, "{name}");
        }
    }

    #[test]
    fn both_keep_neighbourhoods_far_better_than_pca() {
        // Thirty clusters in 50 dimensions, apart in the space but overlapping on any plane.
        // Measured: t-SNE keeps 0.73 of the 10 nearest, UMAP 0.59, PCA 0.30.
        let emb = gaussian_clusters(30, 20, 50, 2.0, 4);
        let n = emb.len();
        let pca = Pca::fit(&emb, None, 2).unwrap().project_words(&emb, n);
        let baseline = neighbour_preservation(&emb, &pca, 10).unwrap();
        for (name, build) in LAYOUTS {
            let mut layout = build(&emb, n, 1);
            run_to_end(layout.as_mut(), 1000);
            let ours = neighbour_preservation(&emb, layout.coords(), 10).unwrap();
            assert!(ours > 1.5 * baseline && ours > baseline + 0.15, "{name} {ours:.3}, PCA {baseline:.3}");
        }
    }

    #[test]
    fn same_seed_same_coordinates_however_sliced() {
        let emb = gaussian_clusters(4, 30, 8, 10.0, 5);
        for (name, build) in LAYOUTS {
            let mut whole = build(&emb, 120, 1);
            run_to_end(whole.as_mut(), 1000);
            let mut sliced = build(&emb, 120, 1);
            run_to_end(sliced.as_mut(), 7);
            assert_eq!(whole.coords(), sliced.coords(), "{name}");
            let done = whole.progress();
            assert!(done.is_done() && done.iteration == done.iterations, "{name}");
            assert_eq!(whole.step(10), done, "{name}: nothing more once done");
        }
    }

    #[test]
    fn stepping_by_points_gives_the_same_map_as_by_iterations() {
        // t-SNE stops halfway through an iteration when asked for fewer points than it has;
        // UMAP rounds up to whole epochs. Either way the map is the one stepped whole.
        let emb = gaussian_clusters(4, 30, 8, 10.0, 5);
        for (name, build) in LAYOUTS {
            let mut whole = build(&emb, 120, 1);
            run_to_end(whole.as_mut(), 1000);
            let mut by_points = build(&emb, 120, 1);
            let mut slices = 0;
            while !by_points.step_points(37).is_done() {
                slices += 1;
            }
            assert_eq!(whole.coords(), by_points.coords(), "{name}");
            assert!(slices > 0, "{name}");
        }
        // 37 points of 120 a slice: the fourth ends the first iteration and goes on into the
        // second with what is left of it, and so on; UMAP's epochs are cut the same way.
        let mut tsne = Tsne::new(&emb, 120, TsneParams { iterations: 10, ..TsneParams::default() }).unwrap();
        let seen: Vec<usize> = (0..8).map(|_| tsne.step_points(37).iteration).collect();
        assert_eq!(seen, [0, 0, 0, 1, 1, 1, 2, 2]);
        let mut umap =
            Umap::new(&emb, 120, UmapParams { epochs: Some(10), ..UmapParams::default() }).unwrap();
        let seen: Vec<usize> = (0..8).map(|_| umap.step_points(37).iteration).collect();
        assert_eq!(seen, [0, 0, 0, 1, 1, 1, 2, 2]);
    }

    #[test]
    fn a_layout_built_in_slices_is_the_one_built_at_once() {
        // 300 words span three panels of the dot products; both layouts, cold and warm.
        let emb = gaussian_clusters(5, 60, 20, 3.0, 8);
        let initial: Vec<f32> = (0..600).map(|i| (i as f32 * 0.37).sin() * 5.0).collect();
        let tsne = TsneParams { perplexity: 10.0, iterations: 60, ..TsneParams::default() };
        let umap = UmapParams { n_neighbours: 10, epochs: Some(60), ..UmapParams::default() };
        let at_once: [Box<dyn Layout>; 4] = [
            Box::new(Tsne::new(&emb, 300, tsne.clone()).unwrap()),
            Box::new(Tsne::with_initial(&emb, 300, &initial, tsne.clone()).unwrap()),
            Box::new(Umap::new(&emb, 300, umap.clone()).unwrap()),
            Box::new(Umap::with_initial(&emb, 300, &initial, umap.clone()).unwrap()),
        ];
        let cases = [
            (LayoutParams::Tsne(tsne.clone()), None),
            (LayoutParams::Tsne(tsne), Some(&initial[..])),
            (LayoutParams::Umap(umap.clone()), None),
            (LayoutParams::Umap(umap), Some(&initial[..])),
        ];
        for ((params, initial), mut expected) in cases.into_iter().zip(at_once) {
            run_to_end(expected.as_mut(), 1000);
            for budget in [1, 5_000, 1_000_000, u64::MAX] {
                let mut builder = LayoutBuilder::new(&emb, 300, params.clone(), initial).unwrap();
                let mut phases = vec![builder.phase()];
                while builder.phase() != LayoutPhase::Layout {
                    let phase = builder.step(&emb, budget);
                    if phases.last() != Some(&phase) {
                        phases.push(phase);
                    }
                }
                let slices = phases.len();
                // A cold start fits its PCA start in slices too.
                let expected_phases: &[LayoutPhase] = match initial {
                    Some(_) => &[LayoutPhase::Neighbours, LayoutPhase::Affinities, LayoutPhase::Layout],
                    None => &[
                        LayoutPhase::Neighbours,
                        LayoutPhase::Affinities,
                        LayoutPhase::Start,
                        LayoutPhase::Layout,
                    ],
                };
                assert_eq!(phases, expected_phases, "{params:?}, budget {budget}");
                let mut layout = builder.finish(&emb).unwrap();
                assert_eq!(layout.progress().iteration, 0);
                run_to_end(layout.as_mut(), 7);
                assert_eq!(
                    layout.coords(),
                    expected.coords(),
                    "{params:?}, budget {budget}, {slices} phases"
                );
            }
        }
    }

    #[test]
    fn a_small_budget_cuts_the_build_into_many_slices_and_bad_input_fails_at_once() {
        let emb = gaussian_clusters(5, 60, 20, 3.0, 8);
        let params = LayoutParams::Tsne(TsneParams { perplexity: 10.0, ..TsneParams::default() });
        let mut builder = LayoutBuilder::new(&emb, 300, params.clone(), None).unwrap();
        let (mut slices, mut start_slices) = (0, 0);
        let mut stages = vec![builder.stage()];
        while builder.phase() != LayoutPhase::Layout {
            start_slices += usize::from(builder.phase() == LayoutPhase::Start);
            builder.step(&emb, 20_000);
            slices += 1;
            if stages.last() != Some(&builder.stage()) {
                stages.push(builder.stage());
            }
        }
        // A pacer starts each of these small (the products, sorting the k-NN rows, the weights,
        // the symmetric rows, the PCA start): a unit costs differently in each.
        assert_eq!(stages, [0, 1, 2, 3, 5, 6]);
        // 300 × 300 / 2 products of 20 numbers, 300 rows of bisection and of assembly; the
        // PCA start's covariance, 210 products a row, in slices of 96 rows.
        assert!(slices > 100, "{slices} slices");
        assert_eq!(start_slices, 4, "the PCA start is sliced too");
        let too_few = LayoutBuilder::new(&emb, 30, params.clone(), None).err().unwrap();
        assert_eq!(too_few.to_string(), "invalid words = 30: expected at least 31 words for perplexity 10");
        assert!(LayoutBuilder::new(&emb, 300, params.clone(), Some(&[0.0; 3])).is_err());
        let umap = LayoutParams::Umap(UmapParams::default());
        assert!(LayoutBuilder::new(&emb, 14, umap.clone(), None).is_err());
        assert!(LayoutBuilder::new(&emb, 301, umap, None).is_err());
        match params.warm() {
            LayoutParams::Tsne(p) => assert_eq!((p.iterations, p.perplexity), (250, 10.0)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn one_dimensional_and_identical_vectors_give_a_map() {
        let words: Vec<String> = (0..40).map(|i| format!("w{i}")).collect();
        let signs: Vec<f32> = (0..40).map(|i| if i % 2 == 0 { 1.0 } else { -2.0 }).collect();
        for (dim, vectors) in [(1, signs), (3, vec![0.5; 40 * 3])] {
            let emb = Embeddings::new(words.clone(), dim, vectors).unwrap();
            for (name, build) in LAYOUTS {
                let mut layout = build(&emb, 40, 1);
                run_to_end(layout.as_mut(), 50);
                assert!(layout.coords().iter().all(|c| c.is_finite()), "{name}, dim {dim}");
                let mut again = build(&emb, 40, 1);
                run_to_end(again.as_mut(), 50);
                assert_eq!(layout.coords(), again.coords(), "{name}, dim {dim}: the seed decides");
            }
        }
    }

    #[test]
    fn random_vectors_and_parameters_give_a_map_or_an_error() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(29);
        for round in 0..1000 {
            let n = rng.random_range(0..40);
            let dim = rng.random_range(1..5);
            let vectors: Vec<f32> = (0..n * dim)
                .map(|_| {
                    if rng.random_bool(0.2) { random_finite_f32(&mut rng) } else { rng.random::<f32>() - 0.5 }
                })
                .collect();
            let words = (0..n).map(|i| format!("w{i}")).collect();
            let emb = Embeddings::new(words, dim, vectors).unwrap();
            let n_words = rng.random_range(0..n + 3);
            let initial: Option<Vec<f32>> = rng.random_bool(0.3).then(|| {
                let len =
                    if rng.random_bool(0.8) { 2 * n_words } else { rng.random_range(0..2 * n_words + 3) };
                (0..len)
                    .map(|_| if rng.random_bool(0.1) { f32::NAN } else { rng.random::<f32>() * 20.0 })
                    .collect()
            });
            // A workable value mostly, else one from the edges of the range and beyond.
            let odd = [0.0, -1.0, 0.3, 1.0, 1e9, f32::MAX, f32::NAN, f32::INFINITY];
            let or_odd = |rng: &mut Xoshiro256PlusPlus, workable: f32| {
                if rng.random_bool(0.15) { odd[rng.random_range(0..odd.len())] } else { workable }
            };
            let mut layout: Result<Box<dyn Layout>> = if rng.random_bool(0.5) {
                let workable = rng.random_range(1.0..6.0);
                let rate = rng.random_range(1.0..500.0);
                let params = TsneParams {
                    perplexity: or_odd(&mut rng, workable),
                    learning_rate: rng.random_bool(0.3).then(|| or_odd(&mut rng, rate)),
                    iterations: rng.random_range(0..30),
                    early_exaggeration: or_odd(&mut rng, 12.0),
                    seed: rng.next_u64(),
                };
                match &initial {
                    Some(coords) => Tsne::with_initial(&emb, n_words, coords, params),
                    None => Tsne::new(&emb, n_words, params),
                }
                .map(|t| Box::new(t) as Box<dyn Layout>)
            } else {
                let workable = rng.random_range(0.0..1.0);
                let params = UmapParams {
                    n_neighbours: [0, 1, 2, 3, 5, 8, usize::MAX][rng.random_range(0..7)],
                    min_dist: or_odd(&mut rng, workable),
                    epochs: rng.random_bool(0.8).then(|| rng.random_range(0..30)),
                    learning_rate: or_odd(&mut rng, 1.0),
                    seed: rng.next_u64(),
                };
                match &initial {
                    Some(coords) => Umap::with_initial(&emb, n_words, coords, params),
                    None => Umap::new(&emb, n_words, params),
                }
                .map(|u| Box::new(u) as Box<dyn Layout>)
            };
            match &mut layout {
                Ok(layout) => {
                    run_to_end(layout.as_mut(), 7);
                    assert_eq!(layout.coords().len(), 2 * n_words, "round {round}");
                }
                Err(err) => assert!(!err.to_string().is_empty(), "round {round}"),
            }
        }
    }

    #[test]
    fn progress_reports_the_share_done() {
        let p = LayoutProgress { iteration: 25, iterations: 100 };
        assert!(!p.is_done());
        assert_eq!(p.fraction(), 0.25);
        assert!(LayoutProgress { iteration: 0, iterations: 0 }.is_done());
    }
}
