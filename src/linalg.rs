//! The two hot loops of the crate, `dot` and `axpy`, over plain `f32` slices.
//!
//! They walk `chunks_exact(8)` with eight independent accumulators so LLVM turns them
//! into SIMD (SSE on x86-64, `simd128` in the browser); an indexed loop with one
//! accumulator did not vectorise and was measured 5x slower.
//!
//! **Unchecked precondition:** both slices have the same length (checked only in debug builds).

/// The dot product `x · y`.
#[inline]
pub fn dot(x: &[f32], y: &[f32]) -> f32 {
    debug_assert_eq!(x.len(), y.len());
    let mut acc = [0.0f32; 8];
    let xs = x.chunks_exact(8);
    let ys = y.chunks_exact(8);
    let tail: f32 = xs.remainder().iter().zip(ys.remainder()).map(|(a, b)| a * b).sum();
    for (a, b) in xs.zip(ys) {
        for i in 0..8 {
            acc[i] += a[i] * b[i];
        }
    }
    // Pairwise reduction keeps the sum order fixed, so results are reproducible.
    let s = [acc[0] + acc[4], acc[1] + acc[5], acc[2] + acc[6], acc[3] + acc[7]];
    (s[0] + s[2]) + (s[1] + s[3]) + tail
}

/// `y += a · x`.
#[inline]
pub fn axpy(a: f32, x: &[f32], y: &mut [f32]) {
    debug_assert_eq!(x.len(), y.len());
    let mut ys = y.chunks_exact_mut(8);
    let mut xs = x.chunks_exact(8);
    for (yc, xc) in (&mut ys).zip(&mut xs) {
        for i in 0..8 {
            yc[i] += a * xc[i];
        }
    }
    for (yv, xv) in ys.into_remainder().iter_mut().zip(xs.remainder()) {
        *yv += a * xv;
    }
}

/// The SGNS pair update in one pass over `output`: `grad += g · output`, then
/// `output += g · input`, each reading the old `output`. Fusing the two saves a pass over
/// memory per pair (measured on the King James Bible benchmark).
///
/// **Unchecked precondition:** the three slices have the same length.
#[inline]
pub fn scatter_update(g: f32, input: &[f32], output: &mut [f32], grad: &mut [f32]) {
    debug_assert!(input.len() == output.len() && output.len() == grad.len());
    let mut outs = output.chunks_exact_mut(8);
    let mut grads = grad.chunks_exact_mut(8);
    let mut ins = input.chunks_exact(8);
    for ((o, d), x) in (&mut outs).zip(&mut grads).zip(&mut ins) {
        for i in 0..8 {
            d[i] += g * o[i];
            o[i] += g * x[i];
        }
    }
    let tail = outs.into_remainder().iter_mut().zip(grads.into_remainder()).zip(ins.remainder());
    for ((o, d), x) in tail {
        *d += g * *o;
        *o += g * x;
    }
}

/// Scales `x` to unit Euclidean length; a zero vector stays zero.
pub fn normalize(x: &mut [f32]) {
    let norm = dot(x, x).sqrt();
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

    #[test]
    fn scatter_update_reads_the_old_output() {
        for n in [0, 3, 8, 13] {
            let input: Vec<f32> = (0..n).map(|i| i as f32).collect();
            let mut output: Vec<f32> = (0..n).map(|i| 1.0 - i as f32).collect();
            let mut grad = vec![0.5; n];
            let old = output.clone();
            scatter_update(2.0, &input, &mut output, &mut grad);
            for i in 0..n {
                assert_eq!(grad[i], 0.5 + 2.0 * old[i]);
                assert_eq!(output[i], old[i] + 2.0 * input[i]);
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
