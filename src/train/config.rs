//! Training parameters, with word2vec.c / gensim defaults, validated once.

use crate::error::{Error, Result};

/// Parameters of Skip-Gram with Negative Sampling. Defaults follow word2vec.c and gensim.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrainConfig {
    /// Dimension of each vector (1..=4096; default 100).
    pub dim: usize,
    /// Maximal window radius; each centre token uses a radius drawn uniformly from
    /// `1..=window` (1..=100; default 5).
    pub window: usize,
    /// Noise tokens per true pair (1..=100; default 5).
    pub negative: usize,
    /// Subsampling threshold `t`; 0 disables subsampling (0..=1; default 1e-3).
    pub sample: f64,
    /// Initial learning rate, decayed linearly to `min_alpha` over all epochs (0 < alpha <= 10; default 0.025).
    pub alpha: f32,
    /// Final learning rate (0..=alpha; default 0.0001).
    pub min_alpha: f32,
    /// Passes over the corpus (1..=1000; default 5).
    pub epochs: u32,
    /// Exponent applied to counts for the noise distribution (-10..=10; default 0.75).
    pub ns_exponent: f64,
    /// Seed of every random choice: the same text, parameters and seed give the same vectors.
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            dim: 100,
            window: 5,
            negative: 5,
            sample: 1e-3,
            alpha: 0.025,
            min_alpha: 0.0001,
            epochs: 5,
            ns_exponent: 0.75,
            seed: 1,
        }
    }
}

impl TrainConfig {
    /// Checks every field, naming the first bad one and its valid range.
    pub fn validate(&self) -> Result<()> {
        check_int("dim", self.dim as u64, 1, 4096)?;
        check_int("window", self.window as u64, 1, 100)?;
        check_int("negative", self.negative as u64, 1, 100)?;
        check_int("epochs", self.epochs as u64, 1, 1000)?;
        check_real(
            "sample",
            self.sample,
            self.sample >= 0.0 && self.sample <= 1.0,
            "a number from 0 to 1 (0 disables subsampling)",
        )?;
        let alpha = self.alpha as f64;
        check_real("alpha", alpha, alpha > 0.0 && alpha <= 10.0, "a number above 0 and at most 10")?;
        let min_alpha = self.min_alpha as f64;
        check_real(
            "min_alpha",
            min_alpha,
            min_alpha >= 0.0 && min_alpha <= alpha,
            "a number from 0 to alpha",
        )?;
        check_real(
            "ns_exponent",
            self.ns_exponent,
            self.ns_exponent.abs() <= 10.0,
            "a number from -10 to 10",
        )?;
        Ok(())
    }
}

fn check_int(name: &'static str, value: u64, min: u64, max: u64) -> Result<()> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            name,
            value: value.to_string(),
            expected: format!("an integer from {min} to {max}"),
        })
    }
}

/// `ok` is false for NaN too, since every comparison with NaN is false.
fn check_real(name: &'static str, value: f64, ok: bool, expected: &str) -> Result<()> {
    if ok && value.is_finite() {
        Ok(())
    } else {
        Err(Error::InvalidParameter { name, value: value.to_string(), expected: expected.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_each_bad_value_is_named() {
        assert_eq!(TrainConfig::default().validate(), Ok(()));
        let d = TrainConfig::default();
        let cases: Vec<(TrainConfig, &str)> = vec![
            (TrainConfig { dim: 0, ..d }, "dim"),
            (TrainConfig { dim: 100_000, ..d }, "dim"),
            (TrainConfig { window: 0, ..d }, "window"),
            (TrainConfig { negative: 0, ..d }, "negative"),
            (TrainConfig { epochs: 0, ..d }, "epochs"),
            (TrainConfig { sample: -1.0, ..d }, "sample"),
            (TrainConfig { alpha: -0.1, ..d }, "alpha"),
            (TrainConfig { alpha: f32::NAN, ..d }, "alpha"),
            (TrainConfig { alpha: f32::INFINITY, ..d }, "alpha"),
            (TrainConfig { min_alpha: 0.5, ..d }, "min_alpha"),
            (TrainConfig { ns_exponent: f64::NAN, ..d }, "ns_exponent"),
        ];
        for (config, name) in cases {
            match config.validate() {
                Err(Error::InvalidParameter { name: got, .. }) => assert_eq!(got, name),
                other => panic!("{name}: expected an error, got {other:?}"),
            }
        }
        let message = TrainConfig { window: 0, ..d }.validate().unwrap_err().to_string();
        assert_eq!(message, "invalid window = 0: expected an integer from 1 to 100");
    }
}
