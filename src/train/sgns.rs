//! One stochastic gradient step of Skip-Gram with Negative Sampling (Mikolov et al. 2013).
//!
//! For an observed pair (input word `w`, predicted word `c`) and noise words `n_1..n_k`,
//! the negative log-likelihood is
//!
//! ```text
//! L = -log σ(u_w · v_c) - Σ_i log σ(-u_w · v_{n_i})
//! ```
//!
//! where `u` are the input vectors (the embeddings) and `v` the output vectors. With
//! `x = u · v` and label `y` (1 for the observed word, 0 for noise), `d(log σ(±x))/dx = y - σ(x)`,
//! so each output vector moves by `α (y - σ(x)) u` and the input vector by
//! `α Σ (y - σ(x)) v`, applied after all outputs are updated, as in word2vec.c.

use crate::linalg::{axpy, dot, scatter_update};

/// σ(x) is tabulated on [-MAX_X, MAX_X]; beyond it the gradient is taken as 0 or ±1.
const MAX_X: f32 = 6.0;
/// Bins of the table: σ is off by at most 0.0008 from the exact value.
const TABLE_BINS: usize = 4096;

/// Tabulated logistic function and its negative log, the numbers every SGNS step needs.
#[derive(Debug, Clone)]
pub struct Logistic {
    sigmoid: Vec<f32>,
    neg_log_sigmoid: Vec<f32>,
}

impl Default for Logistic {
    fn default() -> Self {
        let x = |i: usize| (i as f64 / TABLE_BINS as f64 * 2.0 - 1.0) * MAX_X as f64;
        let sigmoid = (0..=TABLE_BINS).map(|i| 1.0 / (1.0 + (-x(i)).exp())).collect::<Vec<f64>>();
        Logistic {
            neg_log_sigmoid: sigmoid.iter().map(|s| -s.ln() as f32).collect(),
            sigmoid: sigmoid.into_iter().map(|s| s as f32).collect(),
        }
    }
}

impl Logistic {
    /// The loss `-log σ(±x)` and the gradient `y - σ(x)` of the log-likelihood for one
    /// (input, output) dot product `x`, with `y = 1` when `label` is true.
    #[inline]
    pub fn log_logistic_loss(&self, x: f32, label: bool) -> (f32, f32) {
        let y = if label { 1.0 } else { 0.0 };
        // For the noise label, -log σ(-x) is the table read at the mirrored bin.
        if x >= MAX_X {
            (if label { 0.0 } else { x }, y - 1.0)
        } else if x <= -MAX_X {
            (if label { -x } else { 0.0 }, y)
        } else {
            let bin = ((x + MAX_X) * (TABLE_BINS as f32 / (2.0 * MAX_X)) + 0.5) as usize;
            let loss_bin = if label { bin } else { TABLE_BINS - bin };
            (self.neg_log_sigmoid[loss_bin], y - self.sigmoid[bin])
        }
    }
}

/// Updates `input` (the vector of the input word) and the rows of `outputs` (the output
/// matrix, `dim` floats a row) for the observed word `target` and the given noise words,
/// at learning rate `alpha`. Returns the pair's loss, or `None` as soon as a dot product
/// is NaN or infinite, leaving the vectors partly updated.
///
/// **Unchecked preconditions:** `input.len() == scratch.len() == dim`; every id is a row of `outputs`.
#[inline]
pub fn sgns_update(
    logistic: &Logistic,
    input: &mut [f32],
    outputs: &mut [f32],
    target: u32,
    noise: &[u32],
    alpha: f32,
    scratch: &mut [f32],
) -> Option<f32> {
    let dim = input.len();
    scratch.fill(0.0);
    let mut loss = 0.0;
    for (word, label) in std::iter::once((target, true)).chain(noise.iter().map(|&n| (n, false))) {
        let output = &mut outputs[word as usize * dim..(word as usize + 1) * dim];
        let x = dot(input, output);
        if !x.is_finite() {
            return None;
        }
        let (pair_loss, gradient) = logistic.log_logistic_loss(x, label);
        loss += pair_loss;
        scatter_update(alpha * gradient, input, output, scratch);
    }
    axpy(1.0, scratch, input);
    Some(loss)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sigmoid(x: f64) -> f64 {
        1.0 / (1.0 + (-x).exp())
    }

    #[test]
    fn table_matches_the_exact_function() {
        let logistic = Logistic::default();
        for i in -800..=800 {
            let x = i as f32 / 100.0;
            for label in [true, false] {
                let (loss, grad) = logistic.log_logistic_loss(x, label);
                let y = if label { 1.0 } else { 0.0 };
                let exact_loss = -sigmoid(if label { x } else { -x } as f64).ln();
                let exact_grad = y - sigmoid(x as f64);
                // Within the table the error is below a bin's slope; outside, the tails are tiny.
                assert!(
                    (loss as f64 - exact_loss).abs() < 3e-3,
                    "loss at {x} {label}: {loss} vs {exact_loss}"
                );
                assert!(
                    (grad as f64 - exact_grad).abs() < 3e-3,
                    "grad at {x} {label}: {grad} vs {exact_grad}"
                );
            }
        }
    }

    #[test]
    fn one_step_matches_a_hand_computation() {
        // Input u = (1, 0); observed word 0 with v0 = (0.5, 0.5); noise word 1 with v1 = (-1, 2).
        let logistic = Logistic::default();
        let mut input = vec![1.0, 0.0];
        let mut outputs = vec![0.5, 0.5, -1.0, 2.0];
        let mut scratch = vec![0.0; 2];
        let alpha = 0.1;
        let loss = sgns_update(&logistic, &mut input, &mut outputs, 0, &[1], alpha, &mut scratch).unwrap();

        // x0 = u·v0 = 0.5, x1 = u·v1 = -1.
        let (s0, s1) = (sigmoid(0.5), sigmoid(-1.0));
        let expected_loss = -s0.ln() - (1.0 - s1).ln();
        let a = alpha as f64;
        let (g0, g1) = (a * (1.0 - s0), a * (0.0 - s1));
        // Outputs move along the old input; the input moves along the old outputs.
        let expected_outputs = [0.5 + g0, 0.5, -1.0 + g1, 2.0];
        let expected_input = [1.0 + g0 * 0.5 - g1, 0.0 + g0 * 0.5 + g1 * 2.0];

        let close = |a: f32, b: f64| (a as f64 - b).abs() < 1e-3;
        assert!(close(loss, expected_loss), "{loss} vs {expected_loss}");
        for (got, want) in outputs.iter().zip(expected_outputs) {
            assert!(close(*got, want), "outputs {outputs:?} vs {expected_outputs:?}");
        }
        for (got, want) in input.iter().zip(expected_input) {
            assert!(close(*got, want), "input {input:?} vs {expected_input:?}");
        }
    }

    #[test]
    fn a_non_finite_dot_product_stops_the_step() {
        let logistic = Logistic::default();
        let mut input = vec![f32::NAN, 0.0];
        let mut outputs = vec![0.5, 0.5];
        let mut scratch = vec![0.0; 2];
        assert_eq!(sgns_update(&logistic, &mut input, &mut outputs, 0, &[], 0.1, &mut scratch), None);
    }
}
