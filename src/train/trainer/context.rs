//! Whether a corpus gives training anything to learn from, checked before training starts.

use super::MAX_SEGMENT;
use crate::error::{Error, Result};
use crate::text::Corpus;

/// Fails with [`Error::NoContext`] when an epoch is expected to train less than one window
/// with a pair in it: no segment holds two tokens, or subsampling at rate `sample` keeps
/// so few that fewer than one kept token is expected to have a kept neighbour. Training would
/// otherwise end "done" at a loss of 0 with the vectors as they started.
///
/// A kept token has a context exactly when its segment keeps another one (every window
/// reaches at least the next kept token), so the expected count of windows with a pair is
/// the sum over segments of E[kept] - P(exactly one kept), tokens kept independently. The
/// walk stops as soon as the count reaches one, so a text of any length costs a few lines.
pub(super) fn check_context(corpus: &Corpus, sample: f64) -> Result<()> {
    let keep = corpus.vocab().keep_probabilities(sample);
    let (ids, mut start) = (corpus.ids(), 0);
    let (mut windows, mut paired_segment) = (0.0, false);
    for &end in corpus.sentence_ends() {
        for segment in ids[start..end].chunks(MAX_SEGMENT) {
            paired_segment |= segment.len() >= 2;
            // P(no token kept so far), P(exactly one kept so far), E[tokens kept].
            let (mut none, mut one, mut kept) = (1.0, 0.0, 0.0);
            for &id in segment {
                let p = keep[id as usize];
                one = one * (1.0 - p) + none * p;
                none *= 1.0 - p;
                kept += p;
            }
            windows += kept - one;
            if windows >= 1.0 {
                return Ok(());
            }
        }
        start = end;
    }
    let sample = paired_segment.then_some(sample);
    Err(Error::NoContext { sample, windows })
}

#[cfg(test)]
mod tests {
    use super::super::Trainer;
    use super::super::tests::{corpus, no_clock, small_config, text};
    use crate::error::Error;
    use crate::train::TrainConfig;

    #[test]
    fn a_text_without_context_is_refused_before_training_not_trained_at_a_loss_of_0() {
        let config = |sample| TrainConfig { sample, ..small_config() };
        let refusal = |text: &str, sample| Trainer::new(corpus(text), config(sample), no_clock).err();
        // One word a line: no pair, whatever the subsampling.
        let one_a_line = "alpha\nbeta\n".repeat(50);
        for sample in [0.0, 1e-3] {
            let err = refusal(&one_a_line, sample).expect("refused");
            assert!(matches!(err, Error::NoContext { sample: None, .. }), "{err:?}");
            assert!(err.to_string().contains("no line of the text holds two words"), "{err}");
        }
        // Three words, each a third of the text: subsampling keeps about 6 % of each.
        let err = refusal("alpha beta gamma\n", 1e-3).expect("refused");
        let Error::NoContext { sample: Some(sample), windows } = err else { panic!("{err:?}") };
        assert_eq!(sample, 1e-3);
        assert!(windows > 0.0 && windows < 0.05, "{windows}");
        assert!(err.to_string().contains("set sample to 0"), "{err}");
        // Without subsampling they train, and so does a text long enough to subsample.
        assert_eq!(refusal("alpha beta gamma\n", 0.0), None);
        assert_eq!(refusal(&text(), 1e-3), None);
        // A text of 100,000 one-word lines is walked to its end and refused in a moment.
        assert!(refusal(&"alpha\nbeta\n".repeat(50_000), 0.0).is_some());
    }
}
