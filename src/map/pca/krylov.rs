//! The leading eigenpairs of a covariance without forming it: block Lanczos with full
//! reorthogonalisation and thick restarts (Golub & Underwood 1977; Musco & Musco 2015; Wu &
//! Simon 2000), each product with the covariance two passes over the data.
//!
//! The start block is seeded, so a fit is deterministic.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

use super::{dot64, extend_basis, symmetric_eigen};
use crate::linalg;

/// Vectors in a Krylov block beyond the components asked for: a little room speeds the
/// convergence of the last wanted one.
const KRYLOV_EXTRA: usize = 2;

/// Blocks in the Krylov basis before it restarts from its best Ritz vectors: a basis of at
/// most 12 (k + 2) vectors, 96 at the map's 6 components.
const KRYLOV_BLOCKS: usize = 12;

/// The most products with the covariance one fit spends (each is a pass over the data).
const MAX_KRYLOV_PRODUCTS: usize = 40;

/// A Ritz pair is converged when its residual is within this share of the largest Ritz value.
const KRYLOV_TOLERANCE: f64 = 1e-5;

/// The seed of the Krylov start block.
const KRYLOV_SEED: u64 = 0x5eed_0f9c;

/// `Σ ‖x − mean‖²` over the rows of `rows`.
pub(super) fn krylov_total_variance(rows: &[f32], mean: &[f64]) -> f64 {
    rows.chunks_exact(mean.len())
        .map(|row| row.iter().zip(mean).map(|(&x, m)| (f64::from(x) - m).powi(2)).sum::<f64>())
        .sum()
}

/// `C v` for each row `v` of `vectors` (rows of `dim`), `C` the sample covariance of `rows`
/// about `mean`: `Σ_i ((x_i − mean) · v) (x_i − mean) / (n − 1)`, two products with the data
/// and no `d × d` matrix. The products run in `f32` (`linalg`'s vectorised `dot` and
/// `axpy`), their sums go to `f64` every `FLUSH_ROWS` rows.
fn covariance_times(rows: &[f32], mean: &[f32], vectors: &[f64], scale: f64) -> Vec<f64> {
    const FLUSH_ROWS: usize = 64;
    let dim = mean.len();
    let singles: Vec<f32> = vectors.iter().map(|&x| x as f32).collect();
    let mut out = vec![0.0f64; vectors.len()];
    let mut partial = vec![0.0f32; vectors.len()];
    let mut centred = vec![0.0f32; dim];
    let flush = |partial: &mut [f32], out: &mut [f64]| {
        out.iter_mut().zip(partial.iter_mut()).for_each(|(o, p)| {
            *o += f64::from(*p);
            *p = 0.0;
        });
    };
    for (i, row) in rows.chunks_exact(dim).enumerate() {
        centred.iter_mut().zip(row).zip(mean).for_each(|((c, &x), &m)| *c = x - m);
        for (v, sum) in singles.chunks_exact(dim).zip(partial.chunks_exact_mut(dim)) {
            linalg::axpy(linalg::dot(&centred, v), &centred, sum);
        }
        if (i + 1) % FLUSH_ROWS == 0 {
            flush(&mut partial, &mut out);
        }
    }
    flush(&mut partial, &mut out);
    out.iter_mut().for_each(|x| *x *= scale);
    out
}

/// The `k` leading eigenpairs of the covariance of `n` rows of `dim` floats about `mean`, by
/// block Lanczos (see the module doc): a basis `Q` grown a block at a time from a seeded
/// random block, `A Q` kept beside it, Rayleigh–Ritz on `Qᵀ A Q` after every product, and a
/// thick restart from the best `b` Ritz vectors (whose products are known: `A Q s`) when the
/// basis is full. Returns `k` Ritz values and their Ritz vectors (orthonormal rows).
pub(super) fn krylov_eigen(
    rows: &[f32],
    mean: &[f64],
    n: usize,
    dim: usize,
    k: usize,
) -> (Vec<f64>, Vec<f64>) {
    let b = (k + KRYLOV_EXTRA).min(dim);
    let max_basis = (b * KRYLOV_BLOCKS).min(dim);
    let scale = 1.0 / (n - 1) as f64;
    let mean32: Vec<f32> = mean.iter().map(|&m| m as f32).collect();

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(KRYLOV_SEED);
    let start: Vec<f64> =
        (0..b * dim).map(|_| f64::from(rng.next_u32()) / f64::from(u32::MAX) - 0.5).collect();
    let mut basis = Vec::with_capacity(max_basis * dim);
    extend_basis(&mut basis, &start, dim);
    // `applied` holds A q for the first `applied.len() / dim` rows q of `basis`; `t` is
    // Qᵀ A Q for them, `max_basis` wide.
    let mut applied: Vec<f64> = Vec::with_capacity(max_basis * dim);
    let mut t = vec![0.0; max_basis * max_basis];
    let mut ritz: (Vec<f64>, Vec<f64>) = (Vec::new(), Vec::new());
    for product in 0..MAX_KRYLOV_PRODUCTS {
        let (m0, m) = (applied.len() / dim, basis.len() / dim);
        applied.extend(covariance_times(rows, &mean32, &basis[m0 * dim..], scale));
        for j in m0..m {
            let aq = &applied[j * dim..(j + 1) * dim];
            for i in 0..=j {
                let x = dot64(&basis[i * dim..(i + 1) * dim], aq);
                t[i * max_basis + j] = x;
                t[j * max_basis + i] = x;
            }
        }
        // Rayleigh–Ritz: the eigenpairs of the m × m projection, largest first.
        let projected: Vec<f64> = (0..m).flat_map(|i| t[i * max_basis..i * max_basis + m].to_vec()).collect();
        let (theta, s) = symmetric_eigen(projected, m);
        let mut order: Vec<usize> = (0..m).collect();
        order.sort_by(|&a, &b| theta[b].total_cmp(&theta[a]));
        let keep = b.min(m);
        let combine = |rows_of: &[f64], j: usize| -> Vec<f64> {
            let mut y = vec![0.0; dim];
            for (i, &w) in s[j * m..(j + 1) * m].iter().enumerate() {
                y.iter_mut().zip(&rows_of[i * dim..(i + 1) * dim]).for_each(|(a, &q)| *a += w * q);
            }
            y
        };
        let mut ys = Vec::with_capacity(keep * dim);
        let mut ays = Vec::with_capacity(keep * dim);
        let mut residuals = Vec::with_capacity(keep * dim);
        let mut converged = true;
        let largest = theta[order[0]].abs().max(f64::MIN_POSITIVE);
        for (rank, &j) in order[..keep].iter().enumerate() {
            let (y, ay) = (combine(&basis, j), combine(&applied, j));
            let r: Vec<f64> = ay.iter().zip(&y).map(|(a, q)| a - theta[j] * q).collect();
            if rank < k && dot64(&r, &r).sqrt() > KRYLOV_TOLERANCE * largest {
                converged = false;
            }
            ys.extend(y);
            ays.extend(ay);
            residuals.extend(r);
        }
        ritz = (order[..k.min(m)].iter().map(|&j| theta[j]).collect(), ys[..k.min(m) * dim].to_vec());
        if converged || product + 1 == MAX_KRYLOV_PRODUCTS {
            break;
        }
        let next: Vec<f64> = if m + b > max_basis {
            // Thick restart: the best Ritz vectors, whose products and projection are known;
            // their residuals point where the Krylov space grows next.
            basis = ys;
            applied = ays;
            t.fill(0.0);
            for (i, &j) in order[..keep].iter().enumerate() {
                t[i * max_basis + i] = theta[j];
            }
            residuals
        } else {
            applied[m0 * dim..].to_vec()
        };
        if extend_basis(&mut basis, &next, dim) == 0 {
            // The basis spans an invariant subspace: its Ritz pairs are exact.
            break;
        }
    }
    ritz
}
