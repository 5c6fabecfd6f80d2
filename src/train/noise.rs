//! The noise distribution of negative sampling, as an alias table (Walker 1977, Vose 1991).
//!
//! word2vec.c draws noise words from a table of 1e8 entries (400 MB); an alias table
//! needs two `u32` per vocabulary type and draws in O(1) from one 64-bit random number.
//! A column's threshold and alias sit side by side in one array, so a draw touches one
//! cache line, not two (a draw is a cache miss on a large vocabulary; `draw_noise` was
//! a tenth of the skip-gram step's time in a profile on the King James Bible).

use rand::Rng;

/// Each type's weight in the noise distribution: its count raised to `exponent` (0.75 in
/// word2vec), which lifts rare words against frequent ones.
fn unigram_weights(counts: &[u64], exponent: f64) -> Vec<f64> {
    counts.iter().map(|&c| (c as f64).powf(exponent)).collect()
}

/// The probability of each type as a noise word, the distribution [`AliasTable::unigram`]
/// draws from: `count^exponent / Σ count^exponent`.
///
/// **Unchecked precondition:** some count is positive.
pub fn unigram_probabilities(counts: &[u64], exponent: f64) -> Vec<f64> {
    let weights = unigram_weights(counts, exponent);
    let total: f64 = weights.iter().sum();
    weights.into_iter().map(|w| w / total).collect()
}

/// Draws type ids with probability proportional to given weights.
///
/// **Architecture Invariant:** `columns` has one entry per type; every alias is a valid id.
#[derive(Debug, Clone)]
pub struct AliasTable {
    /// Per column: keep the drawn column when the low 32 random bits are below the first
    /// number, else take the second, its alias.
    columns: Vec<[u32; 2]>,
}

impl AliasTable {
    /// The noise distribution of SGNS: `count^exponent`, normalised
    /// ([`unigram_probabilities`]).
    pub fn unigram(counts: &[u64], exponent: f64) -> AliasTable {
        AliasTable::new(&unigram_weights(counts, exponent))
    }

    /// **Unchecked precondition:** `weights` is non-empty, finite, non-negative, with a positive sum.
    pub fn new(weights: &[f64]) -> AliasTable {
        let n = weights.len();
        let total: f64 = weights.iter().sum();
        // Scaled so the average column holds probability 1.
        let mut scaled: Vec<f64> = weights.iter().map(|w| w * n as f64 / total).collect();
        let mut threshold = vec![u32::MAX; n];
        let mut alias: Vec<u32> = (0..n as u32).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| scaled[i] < 1.0);
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            threshold[s] = (scaled[s] * 4_294_967_296.0) as u32;
            alias[s] = l as u32;
            scaled[l] -= 1.0 - scaled[s];
            if scaled[l] < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        // What is left holds probability 1 up to rounding: it keeps its own column.
        AliasTable { columns: threshold.into_iter().zip(alias).map(|(t, a)| [t, a]).collect() }
    }

    /// Number of types.
    pub fn len(&self) -> usize {
        self.columns.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }

    /// One draw.
    #[inline]
    pub fn sample(&self, rng: &mut impl Rng) -> u32 {
        let r = rng.next_u64();
        // The high half picks a column without division (Lemire), the low half flips its coin.
        let column = (((r >> 32) * self.columns.len() as u64) >> 32) as usize;
        let [threshold, alias] = self.columns[column];
        // A coin flip a branch predictor cannot learn: as a branch it was mispredicted about
        // half the time, the hottest instruction of a thread's loop outside `output_step`.
        std::hint::select_unpredictable((r as u32) < threshold, column as u32, alias)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    fn frequencies(table: &AliasTable, draws: usize) -> Vec<f64> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut hits = vec![0usize; table.len()];
        for _ in 0..draws {
            hits[table.sample(&mut rng) as usize] += 1;
        }
        hits.iter().map(|&h| h as f64 / draws as f64).collect()
    }

    #[test]
    fn draws_follow_the_weights() {
        let counts = [1000u64, 300, 100, 10, 1, 0];
        let table = AliasTable::unigram(&counts, 0.75);
        let weights: Vec<f64> = counts.iter().map(|&c| (c as f64).powf(0.75)).collect();
        let total: f64 = weights.iter().sum();
        let draws = 200_000;
        for (got, w) in frequencies(&table, draws).iter().zip(&weights) {
            let p = w / total;
            // Four binomial standard deviations.
            let tolerance = 4.0 * (p * (1.0 - p) / draws as f64).sqrt() + 1e-9;
            assert!((got - p).abs() <= tolerance, "expected {p:.5}, got {got:.5}");
        }
    }

    #[test]
    fn exponent_zero_is_uniform_and_one_is_the_unigram() {
        let counts = [8u64, 4, 2, 2];
        let uniform = frequencies(&AliasTable::unigram(&counts, 0.0), 100_000);
        uniform.iter().for_each(|f| assert!((f - 0.25).abs() < 0.01, "{uniform:?}"));
        let unigram = frequencies(&AliasTable::unigram(&counts, 1.0), 100_000);
        for (f, p) in unigram.iter().zip([0.5, 0.25, 0.125, 0.125]) {
            assert!((f - p).abs() < 0.01, "{unigram:?}");
        }
    }

    #[test]
    fn unigram_probabilities_are_what_the_table_draws() {
        let counts = [500u64, 120, 30, 7, 1];
        let probabilities = unigram_probabilities(&counts, 0.75);
        let total: f64 = counts.iter().map(|&c| (c as f64).powf(0.75)).sum();
        for (p, &c) in probabilities.iter().zip(&counts) {
            assert!((p - (c as f64).powf(0.75) / total).abs() < 1e-15);
        }
        assert!((probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let draws = 200_000;
        let drawn = frequencies(&AliasTable::unigram(&counts, 0.75), draws);
        for (got, p) in drawn.iter().zip(&probabilities) {
            let tolerance = 4.0 * (p * (1.0 - p) / draws as f64).sqrt() + 1e-9;
            assert!((got - p).abs() <= tolerance, "expected {p:.5}, got {got:.5}");
        }
    }

    #[test]
    fn a_single_type_is_always_drawn() {
        assert_eq!(frequencies(&AliasTable::unigram(&[5], 0.75), 100), vec![1.0]);
    }
}
