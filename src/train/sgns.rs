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
//!
//! The two terms of `L` are kept apart ([`PairLoss`]): the positive one falls as the model
//! scores the observed pair higher, the negative one as it scores the noise words lower.
//!
//! The 1 + k dot products of a pair are computed together, before any output moves
//! ([`dot_rows`]), then every output moves in one pass ([`update_rows`]). word2vec.c
//! interleaves them, which differs only when a noise word is drawn twice for one pair: there
//! its second dot product reads the first update; here both read the vector as it was.

use super::hogwild::unshared_vec;
use crate::linalg::{Rows, axpy, dot_rows, update_rows};

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

/// The loss of one step, in its two terms: `-log σ(u_w · v_c)` for the observed word
/// (`positive`) and `-Σ_i log σ(-u_w · v_{n_i})` for the noise words (`negative`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PairLoss {
    pub positive: f32,
    pub negative: f32,
}

impl PairLoss {
    /// The whole loss of the step.
    pub fn total(self) -> f32 {
        self.positive + self.negative
    }
}

/// The buffers one SGD step needs, allocated once per trainer (or thread).
#[derive(Debug, Clone)]
pub struct Scratch {
    /// The input's gradient, `dim` floats.
    grad: Vec<f32>,
    /// The dot product, then the step `α (y - σ(x))`, of each output word.
    dots: Vec<f32>,
    coefs: Vec<f32>,
    /// The last step's loss. `output_step` leaves it here rather than returning it: returned
    /// by value as an `Option<PairLoss>` from that (not inlined) function, one-thread skip-gram
    /// trained about 5 % slower (AMD EPYC, AVX2), where an `Option<f32>` cost nothing.
    loss: PairLoss,
}

impl Scratch {
    /// Buffers for vectors of `dim` floats and up to `negative` noise words a pair.
    pub fn new(dim: usize, negative: usize) -> Scratch {
        Scratch {
            grad: unshared_vec(dim, 0.0),
            dots: unshared_vec(negative + 1, 0.0),
            coefs: unshared_vec(negative + 1, 0.0),
            loss: PairLoss::default(),
        }
    }

    /// The gradient for the vector scored in the last step.
    pub(crate) fn grad(&self) -> &[f32] {
        &self.grad
    }

    /// The dot products of the last step, taken before it moved any vector: the observed
    /// word's, then each noise word's.
    pub(crate) fn dots(&self) -> &[f32] {
        &self.dots
    }

    /// The loss of the last step.
    pub(crate) fn loss(&self) -> PairLoss {
        self.loss
    }
}

/// Updates `input` (the vector of the input word) and the rows of `outputs` (the output
/// matrix, `dim` floats a row) for `words`, the observed word followed by the noise words,
/// at learning rate `alpha`. Returns the pair's loss, or `None`, before any vector moves,
/// when a dot product is NaN or infinite.
///
/// **Unchecked preconditions:** `input.len() == dim` of `scratch`; `words` is not empty;
/// every id is a row of `outputs`.
#[inline]
pub fn sgns_update<R: Rows + ?Sized>(
    logistic: &Logistic,
    input: &mut [f32],
    outputs: &mut R,
    words: &[u32],
    alpha: f32,
    scratch: &mut Scratch,
) -> Option<PairLoss> {
    output_step(logistic, input, outputs, words, alpha, scratch)?;
    axpy(1.0, &scratch.grad, input);
    Some(scratch.loss)
}

/// The output half of a step, shared by skip-gram and CBOW: scores `hidden` against each of
/// `words` (the observed word first), moves their output vectors, and leaves the gradient
/// for `hidden` in `scratch.grad` and the loss in `scratch.loss`. Returns `None` before any
/// vector moves when a dot product is not finite.
#[inline]
pub(crate) fn output_step<R: Rows + ?Sized>(
    logistic: &Logistic,
    hidden: &[f32],
    outputs: &mut R,
    words: &[u32],
    alpha: f32,
    scratch: &mut Scratch,
) -> Option<()> {
    let Scratch { grad, dots, coefs, loss: last } = scratch;
    dots.resize(words.len(), 0.0);
    outputs.fetch(words);
    dot_rows(hidden, outputs, words, dots);
    coefs.clear();
    // The observed word first, then the noise words: each loop knows its label.
    let (&observed, noise) = dots.split_first()?;
    if !observed.is_finite() {
        return None;
    }
    let (positive, gradient) = logistic.log_logistic_loss(observed, true);
    coefs.push(alpha * gradient);
    let mut negative = 0.0;
    for &x in noise {
        if !x.is_finite() {
            return None;
        }
        let (term, gradient) = logistic.log_logistic_loss(x, false);
        negative += term;
        coefs.push(alpha * gradient);
    }
    *last = PairLoss { positive, negative };
    update_rows(hidden, outputs, words, coefs, grad);
    for &word in words {
        outputs.updated(word as usize);
    }
    Some(())
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
        let mut scratch = Scratch::new(2, 1);
        let alpha = 0.1;
        let loss = sgns_update(&logistic, &mut input, &mut outputs, &[0, 1], alpha, &mut scratch).unwrap();

        // x0 = u·v0 = 0.5, x1 = u·v1 = -1.
        let (s0, s1) = (sigmoid(0.5), sigmoid(-1.0));
        let (expected_positive, expected_negative) = (-s0.ln(), -(1.0 - s1).ln());
        let a = alpha as f64;
        let (g0, g1) = (a * (1.0 - s0), a * (0.0 - s1));
        // Outputs move along the old input; the input moves along the old outputs.
        let expected_outputs = [0.5 + g0, 0.5, -1.0 + g1, 2.0];
        let expected_input = [1.0 + g0 * 0.5 - g1, 0.0 + g0 * 0.5 + g1 * 2.0];

        let close = |a: f32, b: f64| (a as f64 - b).abs() < 1e-3;
        assert!(close(loss.positive, expected_positive), "{loss:?} vs {expected_positive}");
        assert!(close(loss.negative, expected_negative), "{loss:?} vs {expected_negative}");
        assert_eq!(loss.total(), loss.positive + loss.negative);
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
        let mut scratch = Scratch::new(2, 0);
        assert_eq!(sgns_update(&logistic, &mut input, &mut outputs, &[0], 0.1, &mut scratch), None);
        // Nothing moved.
        assert!(input[0].is_nan() && input[1] == 0.0 && outputs == [0.5, 0.5]);
    }
}
