//! Iterative 2-D maps of the most frequent words that keep neighbourhoods: t-SNE and UMAP.
//!
//! PCA shows the main directions of the space but loses neighbourhoods; these layouts keep
//! them. Both are objects shaped like openTSNE's and umap-js's `initializeFit`/`step`: built
//! from the vectors (the affinities are computed once, from an exact cosine k-NN graph,
//! [`Knn`]), then advanced a slice at a time with [`Layout::step`], so a worker can run them
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
//! parameters, the seed and the initial coordinates, never on how its steps are sliced; one
//! generator (Xoshiro256++, as the trainer) supplies all randomness, so native and wasm32
//! builds draw the same numbers.

mod knn;
mod quadtree;
mod tsne;
mod umap;

pub use knn::Knn;
pub use tsne::{Tsne, TsneParams};
pub use umap::{Umap, UmapParams};

use super::{Embeddings, Pca};
use crate::error::{Error, Result};

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

/// A 2-D layout that is advanced in steps: what a worker holds while a map settles.
pub trait Layout {
    /// Runs at most `max_iterations` more iterations (none once done) and says where it stands.
    fn step(&mut self, max_iterations: usize) -> LayoutProgress;
    /// Where it stands, without stepping.
    fn progress(&self) -> LayoutProgress;
    /// The coordinates: `x, y` for each word, most frequent first.
    fn coords(&self) -> &[f32];
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
    let in_vectors = Knn::cosine(&emb.unit()[..n * emb.dim()], emb.dim(), k);
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
    let pca = Pca::fit(emb, Some(n_words), 2).ok()?;
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
