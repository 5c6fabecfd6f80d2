//! What the trainer's sampling does to the words of its text, for the page to show: a
//! word's count, the probability that subsampling keeps one of its tokens (Mikolov et al.
//! 2013, word2vec.c's formula, [`crate::text::Vocab::keep_probabilities`]), its
//! probability as a noise word ([`super::noise::unigram_probabilities`]), and the words
//! found in its windows; over the vocabulary, the same numbers against the frequency rank
//! (Zipf's law, on log axes).
//!
//! Every probability is read from the trainer's own definitions, never worked out a
//! second way, so what the page says is what training does.

use std::collections::HashMap;

use super::noise::unigram_probabilities;
use super::trainer::{MAX_SEGMENT, Trainer};
use crate::text::Corpus;

/// One word of the vocabulary as sampling sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct WordSampling {
    /// The word's id: its rank by count, 0 the most frequent.
    pub id: u32,
    /// Its tokens in the text, and their share of all tokens.
    pub count: u64,
    pub frequency: f64,
    /// The probability that subsampling keeps one of its tokens.
    pub keep: f64,
    /// The probability that a noise draw is this word.
    pub noise: f64,
    /// The words most often within the window of its tokens ([`window_partners`]), most
    /// frequent first.
    pub partners: Vec<Partner>,
}

/// A word found in the windows of another, and how often.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partner {
    pub id: u32,
    pub count: u64,
}

/// The vocabulary's words at ranks spread evenly on a log scale, with their frequency,
/// keep and noise probabilities: a Zipf chart's points, a few hundred whatever the
/// vocabulary.
#[derive(Debug, Clone, PartialEq)]
pub struct ZipfCurve {
    /// 0-based ranks, increasing; the first and the last rank are always there.
    pub ranks: Vec<u32>,
    pub counts: Vec<u64>,
    pub frequency: Vec<f64>,
    pub keep: Vec<f64>,
    pub noise: Vec<f64>,
}

/// `id`'s sampling: its count and share, keep and noise probabilities, and its
/// `max_partners` most frequent window partners.
///
/// **Unchecked precondition:** `id` is in the trainer's vocabulary.
pub fn word_sampling(trainer: &Trainer, id: u32, max_partners: usize) -> WordSampling {
    let vocab = trainer.corpus().vocab();
    let counts = vocab.counts();
    let total: u64 = counts.iter().sum();
    let mut partners = window_partners(trainer.corpus(), id, trainer.config().window);
    partners.truncate(max_partners);
    WordSampling {
        id,
        count: counts[id as usize],
        frequency: counts[id as usize] as f64 / total as f64,
        keep: trainer.keep_probability(id),
        noise: unigram_probabilities(counts, trainer.config().ns_exponent)[id as usize],
        partners,
    }
}

/// The Zipf chart of the trainer's vocabulary: at most `max_points` ranks (at least 2),
/// spread evenly on a log scale from the first to the last.
pub fn zipf_curve(trainer: &Trainer, max_points: usize) -> ZipfCurve {
    let counts = trainer.corpus().vocab().counts();
    let total: u64 = counts.iter().sum();
    let noise = unigram_probabilities(counts, trainer.config().ns_exponent);
    let ranks = log_spaced(counts.len(), max_points.max(2));
    ZipfCurve {
        counts: ranks.iter().map(|&r| counts[r as usize]).collect(),
        frequency: ranks.iter().map(|&r| counts[r as usize] as f64 / total as f64).collect(),
        keep: ranks.iter().map(|&r| trainer.keep_probability(r)).collect(),
        noise: ranks.iter().map(|&r| noise[r as usize]).collect(),
        ranks,
    }
}

/// Up to `points` distinct ranks of `0..n`, evenly spread over `log(rank + 1)`, with the
/// first and the last.
fn log_spaced(n: usize, points: usize) -> Vec<u32> {
    if n == 0 {
        return Vec::new();
    }
    let top = (n as f64).ln();
    let mut ranks: Vec<u32> = (0..points)
        .map(|k| ((top * k as f64 / (points - 1) as f64).exp().round() as usize).clamp(1, n) as u32 - 1)
        .collect();
    ranks.dedup();
    ranks
}

/// How often each word stands within `window` tokens of a token of `id`, in the same
/// segment (a sentence, cut every [`MAX_SEGMENT`] tokens as the trainer cuts it), before
/// subsampling: the pairs the trainer can form with `id` at its widest window. Most
/// frequent first, ties by id. A word next to itself ("very very") counts as a partner, as
/// the trainer pairs it.
///
/// One pass over the corpus, so it is asked for one word at a time.
pub fn window_partners(corpus: &Corpus, id: u32, window: usize) -> Vec<Partner> {
    let ids = corpus.ids();
    let mut found: HashMap<u32, u64> = HashMap::new();
    let mut start = 0;
    for &end in corpus.sentence_ends() {
        for segment_start in (start..end).step_by(MAX_SEGMENT) {
            let segment_end = (segment_start + MAX_SEGMENT).min(end);
            for at in segment_start..segment_end {
                if ids[at] != id {
                    continue;
                }
                let from = at.saturating_sub(window).max(segment_start);
                let to = (at + window + 1).min(segment_end);
                for other in (from..to).filter(|&other| other != at) {
                    *found.entry(ids[other]).or_default() += 1;
                }
            }
        }
        start = end;
    }
    let mut partners: Vec<Partner> = found.into_iter().map(|(id, count)| Partner { id, count }).collect();
    partners.sort_unstable_by(|a, b| b.count.cmp(&a.count).then(a.id.cmp(&b.id)));
    partners
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{VocabConfig, WhitespaceTokenizer};
    use crate::train::TrainConfig;

    fn corpus(text: &str) -> Corpus {
        Corpus::build(text, &WhitespaceTokenizer, &VocabConfig { min_count: 1, max_vocab: None }).unwrap()
    }

    fn trainer(text: &str, config: TrainConfig) -> Trainer {
        Trainer::new(corpus(text), config, || 0.0).unwrap()
    }

    /// A text of a few hundred tokens with a skewed vocabulary.
    fn zipf_text() -> String {
        let mut text = String::new();
        for line in 0..60 {
            for (w, word) in
                ["the", "of", "king", "queen", "sky", "blue", "coffee", "rare"].iter().enumerate()
            {
                if line % (w + 1) == 0 {
                    text.push_str(word);
                    text.push(' ');
                }
            }
            text.push_str("the of the\n");
        }
        text
    }

    #[test]
    fn keep_and_noise_are_the_trainers_definitions() {
        for (sample, exponent) in [(1e-3, 0.75), (1e-2, 0.5), (0.0, 0.75), (1e-1, 1.0)] {
            let config = TrainConfig { dim: 8, sample, ns_exponent: exponent, ..TrainConfig::default() };
            let trainer = trainer(&zipf_text(), config);
            let vocab = trainer.corpus().vocab();
            let keep = vocab.keep_probabilities(sample);
            let noise = unigram_probabilities(vocab.counts(), exponent);
            let total: u64 = vocab.counts().iter().sum();
            for id in 0..vocab.len() as u32 {
                let s = word_sampling(&trainer, id, 5);
                assert_eq!(s.count, vocab.counts()[id as usize]);
                assert_eq!(s.frequency, s.count as f64 / total as f64);
                // The trainer's coin has 32 bits.
                assert!(
                    (s.keep - keep[id as usize]).abs() <= 1.0 / 4_294_967_296.0,
                    "{} {}",
                    s.keep,
                    keep[id as usize]
                );
                assert_eq!(s.noise, noise[id as usize]);
                let weight = |c: u64| (c as f64).powf(exponent);
                let weights: f64 = vocab.counts().iter().map(|&c| weight(c)).sum();
                assert!((s.noise - weight(s.count) / weights).abs() < 1e-15);
            }
            // Subsampling keeps frequent words less often, and never drops a rare one below a rarer one.
            let first = word_sampling(&trainer, 0, 0);
            let last = word_sampling(&trainer, vocab.len() as u32 - 1, 0);
            assert!(first.keep <= last.keep);
            if sample == 0.0 {
                assert_eq!(first.keep, 1.0);
            }
        }
    }

    #[test]
    fn partners_are_counted_within_the_window_and_the_sentence() {
        // Vocabulary by count: a (5), b (3), c (2), d (1), e (1).
        let text = "a b c a\nd a b\na e a b c";
        let c = corpus(text);
        let id = |w: &str| c.vocab().id(w).unwrap();
        let named = |partners: Vec<Partner>| -> Vec<(String, u64)> {
            partners.into_iter().map(|p| (c.vocab().words()[p.id as usize].clone(), p.count)).collect()
        };
        // Window 1: "a b c a" gives a–b, a–c; "d a b" a–d, a–b; "a e a b c" a–e, a–e, a–b.
        assert_eq!(
            named(window_partners(&c, id("a"), 1)),
            [("b".to_string(), 3), ("e".to_string(), 2), ("c".to_string(), 1), ("d".to_string(), 1)]
        );
        // Window 2 reaches a second "a" two tokens away: it is a's own partner, as in training.
        let wide = named(window_partners(&c, id("a"), 2));
        assert_eq!(wide[0], ("b".to_string(), 4));
        assert!(wide.contains(&("a".to_string(), 2)), "{wide:?}");
        // A window never crosses a sentence's end: "c" ends the first line, "d" starts the second.
        assert!(!named(window_partners(&c, id("c"), 3)).iter().any(|(w, _)| w == "d"));
    }

    #[test]
    fn partners_stop_at_the_trainers_segments() {
        // One sentence of MAX_SEGMENT "x" then "y": the trainer cuts it between them.
        let text = format!("{}y z\n", "x ".repeat(MAX_SEGMENT));
        let c = corpus(&text);
        let y = c.vocab().id("y").unwrap();
        let partners = window_partners(&c, y, 5);
        assert_eq!(partners, vec![Partner { id: c.vocab().id("z").unwrap(), count: 1 }]);
    }

    #[test]
    fn the_zipf_curve_spreads_its_ranks_on_a_log_scale() {
        assert_eq!(log_spaced(1, 10), vec![0]);
        assert_eq!(log_spaced(5, 2), vec![0, 4]);
        let ranks = log_spaced(100_000, 300);
        assert_eq!((ranks[0], *ranks.last().unwrap()), (0, 99_999));
        assert!(ranks.windows(2).all(|w| w[0] < w[1]));
        assert!(ranks.len() > 200 && ranks.len() <= 300, "{}", ranks.len());
        // Evenly spread in log(rank + 1): half the 300 points lie above the square root of
        // the ranks (below it, the first ones fall on the same whole rank and are one point).
        let above = ranks.iter().filter(|&&r| ((r + 1) as f64) >= (100_000f64).sqrt()).count();
        assert!(above.abs_diff(150) <= 2, "{above}");

        let trainer = trainer(&zipf_text(), TrainConfig { dim: 8, ..TrainConfig::default() });
        let curve = zipf_curve(&trainer, 4);
        assert_eq!(curve.ranks.first(), Some(&0));
        assert_eq!(curve.ranks.last(), Some(&(trainer.corpus().vocab().len() as u32 - 1)));
        for (i, &rank) in curve.ranks.iter().enumerate() {
            let word = word_sampling(&trainer, rank, 0);
            assert_eq!(
                (curve.counts[i], curve.frequency[i], curve.keep[i], curve.noise[i]),
                (word.count, word.frequency, word.keep, word.noise)
            );
        }
    }
}
