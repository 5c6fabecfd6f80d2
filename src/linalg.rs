//! The hot loops of the crate over plain `f32` slices: `dot` and `axpy`, and the two halves
//! of an SGNS step over rows of a matrix, `dot_rows` and `update_rows`.
//!
//! They walk eight floats at a time as `wide::f32x8`, which is one AVX register natively and
//! two `simd128` vectors in the browser: the same loops over `[f32; 8]` accumulators, left to
//! LLVM's vectoriser, come out two floats at a time (LLVM splits the eight accumulators into
//! four pairs), on x86-64 and in wasm alike. The sums run in the same order either way, so
//! the vectors are the same to the bit.
//!
//! Fused multiply-adds are not used: they round once where a multiply and an add round
//! twice, and wasm has none, so with them the sums would differ between CPUs and the browser.
//! The loops wait on memory (the rows' cache misses) more than on arithmetic, so more
//! accumulators or prefetching the next pair's rows do not make them faster.
//!
//! **Unchecked precondition:** both slices have the same length (checked only in debug builds).

use wide::f32x8;

/// The dot product `x · y`.
#[inline]
pub fn dot(x: &[f32], y: &[f32]) -> f32 {
    debug_assert_eq!(x.len(), y.len());
    let n = x.len().min(y.len());
    let ((xs, x_tail), (ys, y_tail)) = (x[..n].as_chunks::<8>(), y[..n].as_chunks::<8>());
    let mut acc = f32x8::ZERO;
    for (a, b) in xs.iter().zip(ys) {
        acc += f32x8::from(*a) * f32x8::from(*b);
    }
    let tail: f32 = x_tail.iter().zip(y_tail).map(|(a, b)| a * b).sum();
    // Pairwise reduction keeps the sum order fixed, so results are reproducible.
    let acc = acc.to_array();
    let s = [acc[0] + acc[4], acc[1] + acc[5], acc[2] + acc[6], acc[3] + acc[7]];
    (s[0] + s[2]) + (s[1] + s[3]) + tail
}

/// `y += a · x`.
#[inline]
pub fn axpy(a: f32, x: &[f32], y: &mut [f32]) {
    debug_assert_eq!(x.len(), y.len());
    let n = x.len().min(y.len());
    let ((ys, y_tail), (xs, x_tail)) = (y[..n].as_chunks_mut::<8>(), x[..n].as_chunks::<8>());
    let av = f32x8::splat(a);
    for (yc, xc) in ys.iter_mut().zip(xs) {
        *yc = (f32x8::from(*yc) + av * f32x8::from(*xc)).to_array();
    }
    for (yv, xv) in y_tail.iter_mut().zip(x_tail) {
        *yv += a * xv;
    }
}

/// Rows of `dim` floats by id: one matrix, or a training thread's replica of the first rows
/// in front of the shared matrix (`crate::train`'s `Replicated`). The two halves of an
/// SGNS step are generic over it, so the one-matrix case compiles to the slice indexing it
/// always was.
pub trait Rows {
    /// Row `id`. Panics when `id` is not a row.
    fn row(&self, id: usize, dim: usize) -> &[f32];
    /// Row `id`, to write. Panics when `id` is not a row.
    fn row_mut(&mut self, id: usize, dim: usize) -> &mut [f32];
    /// Rows `ids` are about to be read for an update (a replica takes its copies afresh).
    #[inline]
    fn fetch(&mut self, _ids: &[u32]) {}
    /// Row `id` has had one more update (a replica merges a row after a few).
    #[inline]
    fn updated(&mut self, _id: usize) {}
}

impl Rows for [f32] {
    #[inline]
    fn row(&self, id: usize, dim: usize) -> &[f32] {
        &self[id * dim..(id + 1) * dim]
    }

    #[inline]
    fn row_mut(&mut self, id: usize, dim: usize) -> &mut [f32] {
        &mut self[id * dim..(id + 1) * dim]
    }
}

impl Rows for Vec<f32> {
    #[inline]
    fn row(&self, id: usize, dim: usize) -> &[f32] {
        self.as_slice().row(id, dim)
    }

    #[inline]
    fn row_mut(&mut self, id: usize, dim: usize) -> &mut [f32] {
        self.as_mut_slice().row_mut(id, dim)
    }
}

/// The dot products of `x` with rows `ids` of `matrix` (`x.len()` floats a row), into `out`.
///
/// **Unchecked precondition:** `out.len() == ids.len()`. Panics when an id is not a row.
#[inline]
pub fn dot_rows<R: Rows + ?Sized>(x: &[f32], matrix: &R, ids: &[u32], out: &mut [f32]) {
    debug_assert_eq!(out.len(), ids.len());
    let dim = x.len();
    for (&id, out) in ids.iter().zip(out) {
        *out = dot(x, matrix.row(id as usize, dim));
    }
}

/// The SGNS update of rows `ids` of `matrix` against `x`, in one pass over the rows:
/// `grad = Σ_r g_r · row_r` (overwritten), then `row_r += g_r · x`, every product reading the
/// rows as they were before, except that a row listed twice sees its first update, as in
/// word2vec.c's sequential loop. Fusing the passes saves a pass over memory per row
/// (measured on the King James Bible benchmark). The loop goes row by row, each row's
/// eight-float chunks inside, so a [`Rows`] other than a plain matrix looks each row up
/// once; going eight floats of the whole gradient at a time across the rows is no faster
/// on one thread and gives the same sums in the same order.
///
/// **Unchecked precondition:** `grad.len() == x.len()`, `coefs.len() == ids.len()`. Panics
/// when an id is not a row.
#[inline]
pub fn update_rows<R: Rows + ?Sized>(
    x: &[f32],
    matrix: &mut R,
    ids: &[u32],
    coefs: &[f32],
    grad: &mut [f32],
) {
    debug_assert!(grad.len() == x.len() && coefs.len() == ids.len());
    let dim = x.len();
    grad.fill(0.0);
    let (xs, x_tail) = x.as_chunks::<8>();
    for (&id, &g) in ids.iter().zip(coefs) {
        let row = matrix.row_mut(id as usize, dim);
        let ((rows, row_tail), (grads, grad_tail)) = (row.as_chunks_mut::<8>(), grad.as_chunks_mut::<8>());
        let gv = f32x8::splat(g);
        for ((rc, gc), xc) in rows.iter_mut().zip(grads.iter_mut()).zip(xs) {
            let r = f32x8::from(*rc);
            *gc = (f32x8::from(*gc) + gv * r).to_array();
            *rc = (r + gv * f32x8::from(*xc)).to_array();
        }
        for ((o, d), &xv) in row_tail.iter_mut().zip(grad_tail.iter_mut()).zip(x_tail) {
            *d += g * *o;
            *o += g * xv;
        }
    }
}

/// Scales `x` to unit Euclidean length; a zero vector stays zero.
pub fn normalize(x: &mut [f32]) {
    divide_by_norm(x, norm(x));
}

/// The Euclidean length of `x`.
#[inline]
pub fn norm(x: &[f32]) -> f32 {
    dot(x, x).sqrt()
}

/// Divides `x` by its length `norm` (from [`norm`]), unless it is 0: the second half of
/// [`normalize`], for rows whose norms are kept.
#[inline]
pub fn divide_by_norm(x: &mut [f32], norm: f32) {
    if norm > 0.0 {
        x.iter_mut().for_each(|v| *v /= norm);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_and_axpy_match_plain_loops_for_every_tail_length() {
        for n in 0..40 {
            let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5 - 3.0).collect();
            let y: Vec<f32> = (0..n).map(|i| 1.0 + (i % 5) as f32).collect();
            let plain: f32 = x.iter().zip(&y).map(|(a, b)| a * b).sum();
            assert!((dot(&x, &y) - plain).abs() <= 1e-4 * (1.0 + plain.abs()), "n = {n}");

            let mut z = y.clone();
            axpy(2.0, &x, &mut z);
            for i in 0..n {
                assert_eq!(z[i], y[i] + 2.0 * x[i]);
            }
        }
    }

    /// `matrix` rows of `dim` floats, each different, for the row kernels' tests.
    fn rows(n_rows: usize, dim: usize) -> Vec<f32> {
        (0..n_rows * dim).map(|i| ((i * 7) % 11) as f32 * 0.25 - 1.0).collect()
    }

    #[test]
    fn dot_rows_matches_dot_for_any_number_of_rows_and_dim() {
        for dim in [1, 7, 8, 13, 100] {
            let matrix = rows(6, dim);
            let x: Vec<f32> = (0..dim).map(|i| 0.5 - i as f32 * 0.125).collect();
            for n in 0..=9 {
                let ids: Vec<u32> = (0..n).map(|i| (i * 5 % 6) as u32).collect();
                let mut out = vec![f32::NAN; n];
                dot_rows(&x, &matrix, &ids, &mut out);
                for (&id, got) in ids.iter().zip(&out) {
                    let row = &matrix[id as usize * dim..(id as usize + 1) * dim];
                    let want: f32 = x.iter().zip(row).map(|(a, b)| a * b).sum();
                    assert!(
                        (got - want).abs() <= 1e-5 * (1.0 + want.abs()),
                        "dim {dim}, n {n}: {got} vs {want}"
                    );
                }
            }
        }
    }

    #[test]
    fn update_rows_reads_the_old_rows_and_a_repeated_row_its_update() {
        for dim in [0, 3, 8, 13] {
            let x: Vec<f32> = (0..dim).map(|i| i as f32).collect();
            let old = rows(3, dim);
            let (ids, coefs) = ([2u32, 0, 2], [2.0f32, -1.0, 0.5]);
            let mut matrix = old.clone();
            let mut grad = vec![f32::NAN; dim];
            update_rows(&x, &mut matrix, &ids, &coefs, &mut grad);
            for i in 0..dim {
                let (r0, r2) = (old[i], old[2 * dim + i]);
                // Row 2 moves twice; its second product reads it after the first move.
                let r2_once = r2 + 2.0 * x[i];
                assert_eq!(grad[i], 2.0 * r2 - r0 + 0.5 * r2_once, "dim {dim}");
                assert_eq!(matrix[i], r0 - x[i]);
                assert_eq!(matrix[2 * dim + i], r2_once + 0.5 * x[i]);
                assert_eq!(matrix[dim + i], old[dim + i]);
            }
        }
    }

    #[test]
    fn normalize_gives_unit_length_and_leaves_zero_alone() {
        let mut v = vec![3.0, 4.0];
        normalize(&mut v);
        assert_eq!(v, vec![0.6, 0.8]);
        let mut z = vec![0.0; 3];
        normalize(&mut z);
        assert_eq!(z, vec![0.0; 3]);
    }
}
