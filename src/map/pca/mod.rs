//! Principal component analysis of word vectors, for 2-D and 3-D pictures of a vocabulary.
//!
//! `Pca::fit` centres the raw vectors of the most frequent words and finds the leading
//! eigenvectors of their sample covariance, in `f64`, one of three ways by the shape of the
//! `n × d` data (`Method`):
//!
//! * **Covariance** (`d ≤ EXACT_MAX`, 320): the `d × d` covariance, decomposed exactly by
//!   Householder reduction to a tridiagonal matrix, then the implicit QL algorithm with
//!   Wilkinson shifts (the EISPACK routines `tred2` and `tql2`, as in JAMA). Both are O(d³):
//!   about 30 ms at d = 300 natively, 1.1 s at d = 1000 and 9 s at d = 2000, plus the
//!   covariance's n d² / 2 multiply-adds, which is why the larger dimensions go another way.
//! * **Gram** (`d > EXACT_MAX`, `n ≤ EXACT_MAX`): the `n × n` Gram matrix of the centred
//!   rows, decomposed exactly by the same routines; its eigenvector `u` gives the component
//!   `Xᵀu / ‖Xᵀu‖` with the same eigenvalue (the page's 300 words at any dimension). Where the
//!   rows span fewer than the components asked for, the rest are unit axes made orthogonal
//!   to them (their variance is 0, as the covariance's null space is).
//! * **Krylov** (`n` and `d` both above `EXACT_MAX`): block Lanczos with full
//!   reorthogonalisation and thick restarts (Golub & Underwood 1977; Musco & Musco 2015's
//!   block Krylov iteration; Wu & Simon 2000 for the restart), applied to the data directly:
//!   each product with the covariance is `Xᵀ(X V) / (n − 1)`, 4 n d multiply-adds for a
//!   block `V` of `k + 2` vectors, and never forms a `d × d` matrix. The start block is
//!   seeded, the basis grows a block a product, and a Rayleigh–Ritz step after each product
//!   stops when every wanted Ritz pair's residual `‖A y − θ y‖` is within `KRYLOV_TOLERANCE`
//!   of the largest eigenvalue, or after `MAX_KRYLOV_PRODUCTS`. The residual bounds the
//!   eigenvalue's error by its square over the gap to the next one, so a flat spectrum (the
//!   untrained vectors: random numbers) gives good variances and whatever directions within a
//!   cluster of nearly equal eigenvalues, which the exact method's directions are too: the
//!   smallest change of the vectors moves them. `nalgebra`'s `SymmetricEigen` decomposes the
//!   whole matrix (the O(d³) this avoids); `faer` (0.23) has a partial eigendecomposition
//!   (Krylov–Schur over a linear operator), but it is a large dependency for about 150 lines
//!   here, and this one reuses `tred2`/`tql2` for its small projected problem.
//!
//! The data products run in `f32` (the vectors are `f32`), with sums carried in `f64` every
//! 64 rows; the rest is `f64`. `PcaBuilder` adds the covariance a slice of rows at a time
//! for the first method; the others do their work in `finish`.
//!
//! **Architecture Invariant:** components are orthonormal, sorted by eigenvalue descending,
//! and each has its largest-magnitude entry positive (the first such entry on a tie), so
//! the same vectors always give the same picture, not a mirror image of it. Every method is
//! deterministic (the Krylov start block is seeded).
//!
//! The dense eigendecomposition is in `eigen.rs`, the block Krylov iteration in `krylov.rs`.

use crate::error::{Error, Result};
use crate::linalg;
use crate::vectors::Embeddings;

mod eigen;
mod krylov;

use eigen::symmetric_eigen;
use krylov::{krylov_eigen, krylov_total_variance};

/// The largest dimension whose `d × d` covariance is decomposed exactly, and the most rows
/// whose `n × n` Gram matrix is: an exact decomposition costs about 10 m³ flops (30 ms
/// natively at m = 300, the common word2vec dimension and the page's default word count).
pub const EXACT_MAX: usize = 320;

/// How a fit finds its eigenvectors (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The `d × d` covariance, decomposed exactly.
    Covariance,
    /// The `n × n` Gram matrix of the centred rows, decomposed exactly.
    Gram,
    /// Block Lanczos on the data, to `KRYLOV_TOLERANCE`.
    Krylov,
}

impl Method {
    /// The method for `n` rows of `dim` floats.
    pub fn choose(n: usize, dim: usize) -> Method {
        if dim <= EXACT_MAX {
            Method::Covariance
        } else if n <= EXACT_MAX {
            Method::Gram
        } else {
            Method::Krylov
        }
    }
}

/// A fitted PCA: the mean and the leading principal axes of a set of word vectors.
#[derive(Debug, Clone, PartialEq)]
pub struct Pca {
    dim: usize,
    n_components: usize,
    mean: Vec<f32>,
    /// `n_components` rows of `dim` floats, row-major.
    components: Vec<f32>,
    /// The variance along each kept component (the covariance eigenvalues).
    explained_variance: Vec<f32>,
    /// The trace of the covariance: the variance summed over all `dim` axes.
    total_variance: f32,
}

impl Pca {
    /// Fits `n_components` principal axes to the raw vectors of the `n_words` most frequent
    /// words (all words when `None`; a number above the vocabulary size means all words).
    ///
    /// Fails with [`Error::InvalidParameter`] when `n_components` is 0 or exceeds the
    /// dimension, or when fewer than 2 words would be used.
    pub fn fit(emb: &Embeddings, n_words: Option<usize>, n_components: usize) -> Result<Pca> {
        let n = n_words.map_or(emb.len(), |n| n.min(emb.len()));
        Pca::fit_rows(&emb.raw_rows(n), emb.dim(), n_components).map_err(|err| match err {
            // Say what limits the number: the vocabulary.
            Error::InvalidParameter { name: "n_words", value, .. } => Error::InvalidParameter {
                name: "n_words",
                value,
                expected: format!("at least 2 words (the vocabulary has {})", emb.len()),
            },
            err => err,
        })
    }

    /// Fits `n_components` principal axes to `rows`, vectors of `dim` floats one after the
    /// other: any set of words (an isolated subset, vectors with a direction projected out).
    ///
    /// Fails with [`Error::InvalidParameter`] when `n_components` is 0 or exceeds `dim`, or
    /// when `rows` holds fewer than 2 vectors.
    ///
    /// **Unchecked precondition:** `dim > 0` and `rows.len()` is a multiple of `dim`.
    pub fn fit_rows(rows: &[f32], dim: usize, n_components: usize) -> Result<Pca> {
        Ok(PcaBuilder::new(rows, dim, n_components)?.finish(rows))
    }

    /// The dimension of the input vectors.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The number of components kept.
    pub fn n_components(&self) -> usize {
        self.n_components
    }

    /// The mean vector that was subtracted before projecting.
    pub fn mean(&self) -> &[f32] {
        &self.mean
    }

    /// The principal axes: `n_components()` unit rows of `dim()` floats, row-major,
    /// largest variance first.
    pub fn components(&self) -> &[f32] {
        &self.components
    }

    /// The variance along each kept component (the covariance's eigenvalues, with the
    /// sample normalisation `1 / (n − 1)`).
    pub fn explained_variance(&self) -> &[f32] {
        &self.explained_variance
    }

    /// Each kept component's share of the total variance; they sum to 1 when all `dim()`
    /// components are kept, and are all 0 when the vectors do not vary at all.
    pub fn explained_variance_ratio(&self) -> Vec<f32> {
        self.explained_variance
            .iter()
            .map(|&v| if self.total_variance > 0.0 { v / self.total_variance } else { 0.0 })
            .collect()
    }

    /// The coordinates of `v` on the principal axes: `(v − mean) · component` for each.
    ///
    /// **Unchecked precondition:** `v.len() == self.dim()` (checked only in debug builds).
    pub fn project(&self, v: &[f32]) -> Vec<f32> {
        debug_assert_eq!(v.len(), self.dim);
        let centred: Vec<f32> = v.iter().zip(&self.mean).map(|(x, m)| x - m).collect();
        self.components.chunks_exact(self.dim).map(|axis| linalg::dot(&centred, axis)).collect()
    }

    /// Projects the raw vectors of the `n_words` most frequent words (all when fewer) into
    /// one flat row-major buffer of `n × n_components()` floats, ready to plot.
    ///
    /// **Unchecked precondition:** `emb.dim() == self.dim()` (checked only in debug builds).
    pub fn project_words(&self, emb: &Embeddings, n_words: usize) -> Vec<f32> {
        debug_assert_eq!(emb.dim(), self.dim);
        let n = n_words.min(emb.len());
        let mut out = Vec::with_capacity(n * self.n_components);
        for word_idx in 0..n {
            out.extend(self.project(&emb.vector(word_idx)));
        }
        out
    }
}

/// A PCA fitted a slice of rows at a time, so a worker can answer its messages while the
/// covariance of 20,000 words accumulates (about 10^8 multiply-adds at d = 100, the one
/// part of a fit that grows with the words): [`new`](Self::new) (the mean, one pass),
/// [`step`](Self::step) until it says every row is in, then [`finish`](Self::finish) (the
/// decomposition). Rows enter in blocks of four from the first, however the steps are
/// sliced, so the result is [`Pca::fit_rows`]'s to the bit. Above `EXACT_MAX` dimensions
/// (the Gram and Krylov methods) there is no covariance to accumulate: `step` says at once
/// that every row is in, and `finish` does the work.
#[derive(Debug, Clone)]
pub struct PcaBuilder {
    dim: usize,
    n_components: usize,
    n: usize,
    method: Method,
    mean: Vec<f64>,
    /// The upper triangle of the sum of outer products of the centred rows so far (empty
    /// unless the method is `Covariance`).
    cov: Vec<f64>,
    /// Four centred rows, zero-padded past the last.
    block: Vec<f64>,
    /// The first row not yet accumulated (a multiple of 4 until the end).
    next_row: usize,
}

impl PcaBuilder {
    /// Checks the arguments as [`Pca::fit_rows`] does and computes the mean of `rows`.
    ///
    /// **Unchecked precondition:** `dim > 0` and `rows.len()` is a multiple of `dim`.
    pub fn new(rows: &[f32], dim: usize, n_components: usize) -> Result<PcaBuilder> {
        PcaBuilder::with_method(rows, dim, n_components, None)
    }

    /// `new` with the method chosen by the caller (the tests compare them) or by the shape
    /// of the data.
    fn with_method(
        rows: &[f32],
        dim: usize,
        n_components: usize,
        method: Option<Method>,
    ) -> Result<PcaBuilder> {
        debug_assert!(dim > 0 && rows.len().is_multiple_of(dim));
        if n_components == 0 || n_components > dim {
            return Err(Error::InvalidParameter {
                name: "n_components",
                value: n_components.to_string(),
                expected: format!("between 1 and the dimension {dim}"),
            });
        }
        let n = rows.len() / dim;
        if n < 2 {
            return Err(Error::InvalidParameter {
                name: "n_words",
                value: n.to_string(),
                expected: "at least 2 vectors".into(),
            });
        }
        let mut mean = vec![0.0f64; dim];
        for row in rows.chunks_exact(dim) {
            mean.iter_mut().zip(row).for_each(|(m, &x)| *m += f64::from(x));
        }
        mean.iter_mut().for_each(|m| *m /= n as f64);
        let method = method.unwrap_or_else(|| Method::choose(n, dim));
        let covariance = method == Method::Covariance;
        Ok(PcaBuilder {
            dim,
            n_components,
            n,
            method,
            mean,
            cov: if covariance { vec![0.0; dim * dim] } else { Vec::new() },
            block: if covariance { vec![0.0; 4 * dim] } else { Vec::new() },
            next_row: if covariance { 0 } else { n },
        })
    }

    /// How this fit finds its eigenvectors.
    pub fn method(&self) -> Method {
        self.method
    }

    /// Multiply-adds per row of the covariance: the upper triangle, `d (d + 1) / 2` (1 for
    /// the methods without one, whose `step` does nothing).
    pub fn work_per_row(&self) -> u64 {
        match self.method {
            Method::Covariance => (self.dim * (self.dim + 1) / 2) as u64,
            Method::Gram | Method::Krylov => 1,
        }
    }

    /// Adds at least `max_rows` more rows (rounded up to a block of four; at least one
    /// block) to the covariance; true once every row is in.
    ///
    /// **Unchecked precondition:** `rows` is the slice given to `new`, at every call.
    pub fn step(&mut self, rows: &[f32], max_rows: usize) -> bool {
        if self.next_row >= self.n {
            return true;
        }
        let dim = self.dim;
        let blocks = max_rows.div_ceil(4).max(1);
        let from = self.next_row * dim;
        // Only the upper triangle is accumulated. Four rows share each pass over the
        // matrix, which quarters its memory traffic; zero rows pad the last block.
        for rows4 in rows[from..].chunks(4 * dim).take(blocks) {
            self.block.fill(0.0);
            for (centred, row) in self.block.chunks_exact_mut(dim).zip(rows4.chunks_exact(dim)) {
                centred.iter_mut().zip(row).zip(&self.mean).for_each(|((c, &x), m)| *c = f64::from(x) - m);
            }
            let (r0, rest) = self.block.split_at(dim);
            let (r1, rest) = rest.split_at(dim);
            let (r2, r3) = rest.split_at(dim);
            for i in 0..dim {
                let (a0, a1, a2, a3) = (r0[i], r1[i], r2[i], r3[i]);
                let out = &mut self.cov[i * dim + i..(i + 1) * dim];
                let columns = r0[i..].iter().zip(&r1[i..]).zip(&r2[i..]).zip(&r3[i..]);
                for (s, (((b0, b1), b2), b3)) in out.iter_mut().zip(columns) {
                    *s += a0 * b0 + a1 * b1 + a2 * b2 + a3 * b3;
                }
            }
            self.next_row = (self.next_row + 4).min(self.n);
        }
        self.next_row >= self.n
    }

    /// The PCA of the rows given to `new`; the rows `step` has not added yet are added here.
    ///
    /// **Unchecked precondition:** as for `step`.
    pub fn finish(mut self, rows: &[f32]) -> Pca {
        let (dim, k) = (self.dim, self.n_components);
        let (eigenvalues, eigenvectors, total_variance) = match self.method {
            Method::Covariance => {
                self.step(rows, usize::MAX);
                let mut cov = std::mem::take(&mut self.cov);
                let scale = 1.0 / (self.n - 1) as f64;
                for i in 0..dim {
                    for j in i..dim {
                        let v = cov[i * dim + j] * scale;
                        cov[i * dim + j] = v;
                        cov[j * dim + i] = v;
                    }
                }
                let total_variance: f64 = (0..dim).map(|i| cov[i * dim + i]).sum();
                let (values, vectors) = symmetric_eigen(cov, dim);
                (values, vectors, total_variance)
            }
            Method::Gram => {
                let centred = centred_rows(rows, &self.mean);
                let total_variance = sum_of_squares(&centred) / (self.n - 1) as f64;
                let (values, vectors) = gram_eigen(&centred, self.n, dim, k);
                (values, vectors, total_variance)
            }
            Method::Krylov => {
                let total_variance = krylov_total_variance(rows, &self.mean) / (self.n - 1) as f64;
                let (values, vectors) = krylov_eigen(rows, &self.mean, self.n, dim, k);
                (values, vectors, total_variance)
            }
        };
        let (components, explained_variance) = leading_components(&eigenvalues, &eigenvectors, dim, k);
        Pca {
            dim,
            n_components: k,
            mean: self.mean.into_iter().map(|m| m as f32).collect(),
            components,
            explained_variance,
            total_variance: total_variance as f32,
        }
    }
}

/// The `k` eigenvectors of the largest eigenvalues, each signed so its largest-magnitude
/// entry is positive (the first such entry on a tie), as `f32` rows, with their eigenvalues
/// (a rounding error below 0 clamped to 0). `values` are in any order, `vectors` their rows.
fn leading_components(values: &[f64], vectors: &[f64], dim: usize, k: usize) -> (Vec<f32>, Vec<f32>) {
    let mut order: Vec<usize> = (0..values.len()).collect();
    // A stable sort keeps equal eigenvalues in the decomposition's order.
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    let mut components = Vec::with_capacity(k * dim);
    let mut explained_variance = Vec::with_capacity(k);
    for &j in &order[..k] {
        let axis = &vectors[j * dim..(j + 1) * dim];
        let mut pivot = 0;
        for (i, x) in axis.iter().enumerate() {
            if x.abs() > axis[pivot].abs() {
                pivot = i;
            }
        }
        let sign = if axis[pivot] < 0.0 { -1.0 } else { 1.0 };
        components.extend(axis.iter().map(|&x| (sign * x) as f32));
        // Rounding can leave a zero eigenvalue slightly negative; a variance cannot be.
        explained_variance.push(values[j].max(0.0) as f32);
    }
    (components, explained_variance)
}

/// A dot product of `f64` slices, four sums at a time, so it vectorises.
fn dot64(x: &[f64], y: &[f64]) -> f64 {
    let mut sums = [0.0f64; 4];
    let (xs, ys) = (x.chunks_exact(4), y.chunks_exact(4));
    let tail: f64 = xs.remainder().iter().zip(ys.remainder()).map(|(a, b)| a * b).sum();
    for (a, b) in xs.zip(ys) {
        for lane in 0..4 {
            sums[lane] += a[lane] * b[lane];
        }
    }
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + tail
}

/// The rows of `rows` minus `mean`, in `f64`.
fn centred_rows(rows: &[f32], mean: &[f64]) -> Vec<f64> {
    rows.chunks_exact(mean.len())
        .flat_map(|row| row.iter().zip(mean).map(|(&x, m)| f64::from(x) - m))
        .collect()
}

fn sum_of_squares(x: &[f64]) -> f64 {
    dot64(x, x)
}

/// Makes `v` orthogonal to the unit rows of `basis` (two passes: "twice is enough",
/// Giraud et al. 2005) and returns its norm after, without normalising it.
fn orthogonalise(v: &mut [f64], basis: &[f64]) -> f64 {
    for _ in 0..2 {
        for q in basis.chunks_exact(v.len()) {
            let along = dot64(q, v);
            v.iter_mut().zip(q).for_each(|(x, &y)| *x -= along * y);
        }
    }
    dot64(v, v).sqrt()
}

/// Appends to `basis` (orthonormal rows of `dim`) what each row of `candidates` adds to its
/// span, normalised; a candidate within rounding of the span adds nothing. Returns how many
/// rows were appended.
fn extend_basis(basis: &mut Vec<f64>, candidates: &[f64], dim: usize) -> usize {
    let mut added = 0;
    for candidate in candidates.chunks_exact(dim) {
        let before = dot64(candidate, candidate).sqrt();
        let mut v = candidate.to_vec();
        let after = orthogonalise(&mut v, basis);
        if before > 0.0 && after > 1e-10 * before {
            v.iter_mut().for_each(|x| *x /= after);
            basis.extend(v);
            added += 1;
        }
    }
    added
}

/// The eigenpairs of the covariance of `n` centred rows of `dim > n` floats through their
/// `n × n` Gram matrix `G = X Xᵀ / (n − 1)`: `G u = λ u` gives `C (Xᵀu) = λ Xᵀu`. Returns `k`
/// eigenvalues and unit eigenvectors (rows of `dim`); where the rows span fewer than `k`
/// directions, the rest are unit axes made orthogonal to them, with eigenvalue 0.
fn gram_eigen(centred: &[f64], n: usize, dim: usize, k: usize) -> (Vec<f64>, Vec<f64>) {
    let scale = 1.0 / (n - 1) as f64;
    let mut gram = vec![0.0; n * n];
    for a in 0..n {
        let row_a = &centred[a * dim..(a + 1) * dim];
        for b in a..n {
            let g = dot64(row_a, &centred[b * dim..(b + 1) * dim]) * scale;
            gram[a * n + b] = g;
            gram[b * n + a] = g;
        }
    }
    let (values, u) = symmetric_eigen(gram, n);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    let largest = values[order[0]].max(0.0);
    let mut vectors = Vec::with_capacity(k * dim);
    let mut eigenvalues = Vec::with_capacity(k);
    for &j in order.iter().take(k) {
        // An eigenvalue within rounding of 0 gives no direction of the data.
        if values[j] <= 1e-9 * largest || largest == 0.0 {
            break;
        }
        let mut v = vec![0.0; dim];
        for (a, &weight) in u[j * n..(j + 1) * n].iter().enumerate() {
            v.iter_mut().zip(&centred[a * dim..(a + 1) * dim]).for_each(|(x, &c)| *x += weight * c);
        }
        // Orthogonal in exact arithmetic already; this only removes rounding.
        if extend_basis(&mut vectors, &v, dim) == 1 {
            eigenvalues.push(values[j]);
        }
    }
    let mut axis = 0;
    while eigenvalues.len() < k {
        let mut e = vec![0.0; dim];
        e[axis] = 1.0;
        axis += 1;
        if extend_basis(&mut vectors, &e, dim) == 1 {
            eigenvalues.push(0.0);
        }
    }
    (eigenvalues, vectors)
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, SeedableRng};

    use super::*;

    fn embeddings(dim: usize, vectors: Vec<f32>) -> Embeddings {
        let words = (0..vectors.len() / dim).map(|i| format!("w{i}")).collect();
        Embeddings::new(words, dim, vectors).expect("valid test embeddings")
    }

    fn uniform(rng: &mut Xoshiro256PlusPlus) -> f64 {
        f64::from(rng.next_u32()) / f64::from(u32::MAX) * 2.0 - 1.0
    }

    fn assert_close(actual: &[f32], expected: &[f32], tolerance: f32) {
        assert_eq!(actual.len(), expected.len());
        for (a, e) in actual.iter().zip(expected) {
            assert!((a - e).abs() < tolerance, "{actual:?} != {expected:?}");
        }
    }

    #[test]
    fn recovers_a_rotated_ellipse() {
        // A square grid stretched 3:1 along x, then rotated by 30°: the variances are 9:1,
        // so the first axis is (cos 30°, sin 30°) and explains 9/10 of the variance.
        let (cos, sin) = (30f64.to_radians().cos(), 30f64.to_radians().sin());
        let mut vectors = Vec::new();
        for i in -10..=10 {
            for j in -10..=10 {
                let (x, y) = (3.0 * f64::from(i), f64::from(j));
                vectors.extend([(cos * x - sin * y + 5.0) as f32, (sin * x + cos * y - 2.0) as f32]);
            }
        }
        let emb = embeddings(2, vectors);
        let pca = Pca::fit(&emb, None, 2).unwrap();
        assert_close(pca.mean(), &[5.0, -2.0], 1e-4);
        assert_close(pca.components(), &[cos as f32, sin as f32, -sin as f32, cos as f32], 1e-5);
        assert_close(&pca.explained_variance_ratio(), &[0.9, 0.1], 1e-5);
        // Before stretching, each axis has sample variance Σ i² / (n − 1) = 21 · 2 · 385 / 440.
        let grid_variance = 21.0 * 2.0 * 385.0 / 440.0;
        assert_close(pca.explained_variance(), &[9.0 * grid_variance, grid_variance], 1e-3);
        // The word at grid point (i, j) = (-10, -10) lies at (3 · -10, -10) on the axes.
        assert_close(&pca.project(&emb.vector(0)), &[-30.0, -10.0], 1e-4);
    }

    #[test]
    fn finds_known_eigenvalues_in_three_dimensions() {
        // Six points ±3 u1, ±2 u2, ±1 u3 around a mean, with u an orthonormal basis whose
        // entries are all distinct in magnitude (so the sign convention is unambiguous).
        // The covariance is (2·9 u1u1ᵀ + 2·4 u2u2ᵀ + 2·1 u3u3ᵀ) / 5.
        let u = [[2.0, 3.0, 6.0], [3.0, -6.0, 2.0], [6.0, 2.0, -3.0]].map(|r: [f32; 3]| r.map(|x| x / 7.0));
        let mean = [10.0, -5.0, 2.0];
        let mut vectors = Vec::new();
        for (axis, length) in u.iter().zip([3.0, 2.0, 1.0]) {
            for sign in [1.0, -1.0] {
                vectors.extend((0..3).map(|i| mean[i] + sign * length * axis[i]));
            }
        }
        let pca = Pca::fit(&embeddings(3, vectors), None, 3).unwrap();
        assert_close(pca.explained_variance(), &[18.0 / 5.0, 8.0 / 5.0, 2.0 / 5.0], 1e-5);
        assert_close(&pca.explained_variance_ratio(), &[18.0 / 28.0, 8.0 / 28.0, 2.0 / 28.0], 1e-6);
        // u2's largest entry is -6/7, so the convention flips it.
        let expected: Vec<f32> = [u[0], u[1].map(|x| -x), u[2]].concat();
        assert_close(pca.components(), &expected, 1e-5);
        assert_close(pca.mean(), &mean, 1e-5);
    }

    #[test]
    fn decomposes_random_symmetric_matrices() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        for n in [1, 2, 3, 10, 41] {
            let mut a = vec![0.0; n * n];
            for i in 0..n {
                for j in i..n {
                    let x = uniform(&mut rng);
                    a[i * n + j] = x;
                    a[j * n + i] = x;
                }
            }
            let (values, vectors) = symmetric_eigen(a.clone(), n);
            for k in 0..n {
                let v = &vectors[k * n..(k + 1) * n];
                for i in 0..n {
                    let av: f64 = (0..n).map(|j| a[i * n + j] * v[j]).sum();
                    assert!((av - values[k] * v[i]).abs() < 1e-10, "n = {n}: A v != λ v");
                }
                for l in 0..n {
                    let w = &vectors[l * n..(l + 1) * n];
                    let vw: f64 = v.iter().zip(w).map(|(x, y)| x * y).sum();
                    let want = if k == l { 1.0 } else { 0.0 };
                    assert!((vw - want).abs() < 1e-10, "n = {n}: eigenvectors not orthonormal");
                }
            }
        }
    }

    #[test]
    fn ratios_sum_to_one_with_all_components_and_less_with_fewer() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let dim = 6;
        let vectors: Vec<f32> = (0..50 * dim).map(|_| uniform(&mut rng) as f32).collect();
        let emb = embeddings(dim, vectors);
        let all: f32 = Pca::fit(&emb, None, dim).unwrap().explained_variance_ratio().iter().sum();
        assert!((all - 1.0).abs() < 1e-5, "{all}");
        let pca = Pca::fit(&emb, Some(30), 2).unwrap();
        let ratios = pca.explained_variance_ratio();
        assert!(ratios[0] >= ratios[1] && ratios[1] > 0.0);
        assert!(ratios.iter().sum::<f32>() < 1.0);
        // Components are unit length and orthogonal.
        let c = pca.components();
        assert!((linalg::dot(&c[..dim], &c[..dim]) - 1.0).abs() < 1e-5);
        assert!(linalg::dot(&c[..dim], &c[dim..]).abs() < 1e-5);
        // project_words is project applied to each of the first n words.
        let flat = pca.project_words(&emb, 4);
        assert_eq!(flat.len(), 4 * 2);
        assert_eq!(flat[6..], pca.project(&emb.vector(3))[..]);
        assert_eq!(pca.project_words(&emb, 1000).len(), 50 * 2);
        // Fitting the most frequent words is fitting their rows.
        assert_eq!(Pca::fit_rows(&emb.raw_rows(30), dim, 2).unwrap(), pca);
    }

    #[test]
    fn constant_vectors_give_zero_ratios_not_nan() {
        let pca = Pca::fit(&embeddings(2, vec![1.0, 2.0, 1.0, 2.0, 1.0, 2.0]), None, 2).unwrap();
        assert_eq!(pca.explained_variance_ratio(), vec![0.0, 0.0]);
        assert_eq!(pca.project(&[1.0, 2.0]), vec![0.0, 0.0]);
    }

    #[test]
    fn rejects_bad_parameters() {
        let emb = embeddings(2, vec![1.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
        // Table: (n_words, n_components, name of the rejected parameter).
        let cases = [
            (None, 0, "n_components"),
            (None, 3, "n_components"),
            (Some(1), 1, "n_words"),
            (Some(0), 2, "n_words"),
        ];
        for (n_words, n_components, name) in cases {
            match Pca::fit(&emb, n_words, n_components) {
                Err(Error::InvalidParameter { name: got, .. }) => assert_eq!(got, name),
                other => panic!("{n_words:?}, {n_components}: expected an error on {name}, got {other:?}"),
            }
        }
        let one_word = embeddings(2, vec![1.0, 2.0]);
        assert!(matches!(Pca::fit(&one_word, None, 1), Err(Error::InvalidParameter { name: "n_words", .. })));
    }

    #[test]
    fn a_fit_built_in_slices_is_the_fit_in_one_go_to_the_bit() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let (n, dim) = (103, 9);
        let rows: Vec<f32> = (0..n * dim).map(|_| uniform(&mut rng) as f32).collect();
        let whole = Pca::fit_rows(&rows, dim, 3).unwrap();
        for slice in [1, 3, 4, 5, 50, 1000] {
            let mut builder = PcaBuilder::new(&rows, dim, 3).unwrap();
            let mut steps = 0;
            while !builder.step(&rows, slice) {
                steps += 1;
            }
            assert_eq!(steps + 1, n.div_ceil(4 * slice.div_ceil(4)), "slice {slice}: blocks of four rows");
            assert_eq!(builder.finish(&rows), whole, "slice {slice}");
        }
        // Finishing early adds the rest.
        let mut builder = PcaBuilder::new(&rows, dim, 3).unwrap();
        builder.step(&rows, 8);
        assert_eq!(builder.finish(&rows), whole);
    }

    /// `n` rows of `dim` floats: `planted` directions with spreads 1, 1/2, 1/3, … (seeded
    /// random unit-free directions), plus uniform noise of `noise`, around a mean of 0.5.
    fn planted(n: usize, dim: usize, planted: usize, noise: f64, seed: u64) -> Vec<f32> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let directions: Vec<f64> = (0..planted * dim).map(|_| uniform(&mut rng)).collect();
        let mut rows = vec![0.0f32; n * dim];
        for row in rows.chunks_exact_mut(dim) {
            let weights: Vec<f64> = (0..planted).map(|j| uniform(&mut rng) / (j + 1) as f64).collect();
            for (i, x) in row.iter_mut().enumerate() {
                let signal: f64 = weights.iter().enumerate().map(|(j, w)| w * directions[j * dim + i]).sum();
                *x = (0.5 + signal + noise * uniform(&mut rng)) as f32;
            }
        }
        rows
    }

    fn fit_by(rows: &[f32], dim: usize, k: usize, method: Method) -> Pca {
        PcaBuilder::with_method(rows, dim, k, Some(method)).unwrap().finish(rows)
    }

    /// The module's invariants: orthonormal components, variances sorted descending, each
    /// component's largest-magnitude entry positive.
    fn assert_invariants(pca: &Pca, label: &str) {
        let (dim, c) = (pca.dim(), pca.components());
        for a in 0..pca.n_components() {
            let axis = &c[a * dim..(a + 1) * dim];
            for b in 0..pca.n_components() {
                let want = if a == b { 1.0 } else { 0.0 };
                let got = linalg::dot(axis, &c[b * dim..(b + 1) * dim]);
                assert!((got - want).abs() < 1e-4, "{label}: components {a}·{b} = {got}");
            }
            let largest = axis.iter().fold(0.0f32, |m, x| if x.abs() > m.abs() { *x } else { m });
            assert!(largest > 0.0, "{label}: component {a} breaks the sign convention");
        }
        let variances = pca.explained_variance();
        assert!(variances.windows(2).all(|w| w[0] >= w[1]), "{label}: {variances:?} not sorted");
    }

    #[test]
    fn the_method_follows_the_shape_of_the_data() {
        // Table: (words, dimensions, method).
        let cases = [
            (10_000, 100, Method::Covariance),
            (4, 320, Method::Covariance),
            (300, 321, Method::Gram),
            (320, 4096, Method::Gram),
            (321, 321, Method::Krylov),
            (10_000, 4096, Method::Krylov),
        ];
        for (n, dim, method) in cases {
            assert_eq!(Method::choose(n, dim), method, "{n} × {dim}");
        }
        // The builder of a fit without a covariance is done at once and holds no d × d matrix.
        let rows = planted(8, 400, 3, 0.1, 1);
        let mut builder = PcaBuilder::new(&rows, 400, 2).unwrap();
        assert_eq!(builder.method(), Method::Gram);
        assert!(builder.step(&rows, 1) && builder.cov.is_empty());
    }

    #[test]
    fn gram_and_krylov_agree_with_the_exact_decomposition() {
        // Table: (words, dimensions, planted directions, noise, components). Planted spreads
        // 1, 1/2, 1/3, … keep the leading eigenvalues apart, so their directions are defined.
        let cases =
            [(30, 50, 8, 0.01, 6), (12, 90, 10, 0.05, 6), (400, 60, 10, 0.02, 6), (250, 120, 20, 0.05, 2)];
        for (seed, (n, dim, directions, noise, k)) in cases.into_iter().enumerate() {
            let rows = planted(n, dim, directions, noise, seed as u64);
            let exact = fit_by(&rows, dim, k, Method::Covariance);
            let methods = if n < dim { [Method::Gram, Method::Krylov] } else { [Method::Krylov; 2] };
            for method in methods {
                let label = format!("{method:?} at {n} × {dim}");
                let pca = fit_by(&rows, dim, k, method);
                assert_invariants(&pca, &label);
                assert_eq!(pca.mean(), exact.mean(), "{label}");
                let relative = |a: &[f32], b: &[f32]| {
                    a.iter().zip(b).map(|(x, y)| (x - y).abs() / y.abs().max(1e-6)).fold(0.0f32, f32::max)
                };
                assert!(relative(pca.explained_variance(), exact.explained_variance()) < 1e-4, "{label}");
                assert!(
                    relative(&pca.explained_variance_ratio(), &exact.explained_variance_ratio()) < 1e-4,
                    "{label}"
                );
                assert_close(pca.components(), exact.components(), 1e-3);
                // The same words land in the same places.
                let word = &rows[3 * dim..4 * dim];
                assert_close(&pca.project(word), &exact.project(word), 1e-3);
            }
        }
    }

    #[test]
    fn krylov_on_flat_spectra_finds_the_variances_and_keeps_the_invariants() {
        // Uniform noise: the untrained vectors. The leading eigenvalues crowd together, so their
        // directions are ill-defined for any method; their variances are not.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let (n, dim) = (500, 120);
        let rows: Vec<f32> = (0..n * dim).map(|_| uniform(&mut rng) as f32).collect();
        let exact = fit_by(&rows, dim, 6, Method::Covariance);
        let pca = fit_by(&rows, dim, 6, Method::Krylov);
        assert_invariants(&pca, "flat");
        for (got, want) in pca.explained_variance().iter().zip(exact.explained_variance()) {
            assert!((got - want).abs() < 1e-3 * want, "{got} != {want}");
        }
        // Deterministic: the same rows give the same picture, to the bit.
        assert_eq!(fit_by(&rows, dim, 6, Method::Krylov), pca);
    }

    #[test]
    fn rank_deficient_data_still_gives_orthonormal_components() {
        // Four words span three directions; the other components have no variance.
        let rows = planted(4, 400, 6, 0.0, 9);
        let pca = Pca::fit_rows(&rows, 400, 6).unwrap();
        assert_invariants(&pca, "four words");
        assert_eq!(pca.explained_variance()[3..], [0.0; 3]);
        let exact = fit_by(&rows, 400, 3, Method::Covariance);
        assert_close(&pca.explained_variance()[..3], exact.explained_variance(), 1e-4);
        // Identical rows: no direction at all, and still a valid fit.
        let same = [0.25f32; 2 * 400];
        let pca = Pca::fit_rows(&same, 400, 2).unwrap();
        assert_invariants(&pca, "identical rows");
        assert_eq!(pca.explained_variance_ratio(), vec![0.0, 0.0]);
        // Krylov on rows spanning two directions: its basis closes on them.
        let rows = planted(400, 330, 2, 0.0, 4);
        let pca = Pca::fit_rows(&rows, 330, 4).unwrap();
        assert_invariants(&pca, "two directions");
        let exact = fit_by(&rows, 330, 2, Method::Covariance);
        assert_close(&pca.explained_variance()[..2], exact.explained_variance(), 1e-4);
        assert!(pca.explained_variance()[2] < 1e-6, "{:?}", pca.explained_variance());
    }
}
