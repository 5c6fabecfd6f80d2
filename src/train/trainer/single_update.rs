//! The step mode's single updates: [`Trainer::step_update`] performs the next update alone
//! (skip-gram's next pair, CBOW's next window), exactly as [`Trainer::step`] would have,
//! and reports what it read and moved ([`UpdateReport`]). A later step finishes the window
//! and segment begun here first, so on one thread the vectors are those of an uninterrupted
//! run.

use super::{Trainer, alpha_at, sigmoid};
use crate::error::{Error, Result};
use crate::train::sgns::PairLoss;
use crate::train::worker::Model;

/// A window that [`Trainer::step_update`] has opened and not finished: its kept tokens
/// `from..to` around kept token `centre`, the next context to train (skip-gram's next pair;
/// CBOW trains the window at once), the epoch's tokens walked once the centre is done, and the
/// learning rate drawn at the centre.
#[derive(Debug, Clone, Copy)]
pub(super) struct OpenWindow {
    centre: usize,
    from: usize,
    to: usize,
    next_context: usize,
    walked: u64,
    alpha: f32,
}

impl OpenWindow {
    /// The next context of the window, if any is left (the centre is not one).
    fn context(&self) -> Option<usize> {
        (self.next_context..self.to).find(|&c| c != self.centre)
    }
}

/// What one update did ([`Trainer::step_update`]): its input words, the centre word they
/// predict and the noise words, their scores before and after, and the rows it moved. A
/// skip-gram update is one (context, centre) pair; a CBOW update is a whole window, every
/// context word an input. Positions are token offsets in the corpus; words are vocabulary
/// ids.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateReport {
    /// Whether the update is CBOW's (a window) rather than skip-gram's (a pair).
    pub cbow: bool,
    /// The epoch (from 1) and the learning rate of the update.
    pub epoch: u32,
    pub alpha: f32,
    /// The segment being trained (a sentence, or [`MAX_SEGMENT`] tokens of a longer one):
    /// its first token and its length.
    pub segment_start: usize,
    pub segment_len: usize,
    /// The segment's tokens that subsampling kept, the ones windows are formed from.
    pub kept: Vec<usize>,
    /// The centre token and the first and last kept token of its window.
    pub centre_at: usize,
    pub window: (usize, usize),
    /// The context tokens of the update, in order: skip-gram's one (word2vec's skip-gram
    /// predicts the centre from each context word in turn), or every kept token of CBOW's
    /// window but the centre.
    pub contexts_at: Vec<usize>,
    /// The words of `contexts_at`: their input rows moved (a word twice in a CBOW window
    /// moved twice).
    pub input_words: Vec<u32>,
    /// The centre word, then the noise words drawn: their output rows moved.
    pub output_words: Vec<u32>,
    /// σ(h·v) of the hidden vector (skip-gram: the input row; CBOW: the mean of the input
    /// rows) with each output row, before and after the update.
    pub scores_before: Vec<f64>,
    pub scores_after: Vec<f64>,
    /// Each output word's term of the update's loss (`-log σ(h·v)` for the centre word,
    /// `-log σ(-h·v)` for a noise word), as training counted it.
    pub loss_terms: Vec<f64>,
    /// The update's loss, in its two terms.
    pub loss: PairLoss,
}

impl Trainer {
    /// Performs the next update alone (skip-gram: the next pair of the window; CBOW: the
    /// next window), exactly as [`Trainer::step`] would have (the same random draws in the
    /// same order), and reports it; `None` once every epoch is done. Updates run on the
    /// first thread's generator and buffers whatever `threads` is: a later [`Trainer::step`]
    /// finishes the window and segment begun here first, so on one thread the vectors are
    /// those of an uninterrupted run.
    ///
    /// Fails with [`Error::Diverged`] as [`Trainer::step`] does.
    pub fn step_update(&mut self) -> Result<Option<UpdateReport>> {
        if let Some(err) = &self.failed {
            return Err(err.clone());
        }
        let started = (self.clock)();
        let report = self.next_update();
        if let Err(err) = &report {
            self.failed = Some(err.clone());
        }
        self.seconds += ((self.clock)() - started).max(0.0);
        report
    }

    fn next_update(&mut self) -> Result<Option<UpdateReport>> {
        let Some(mut window) = self.open_next_window() else { return Ok(None) };
        let segment = self.segment.expect("an open window lies in a segment");
        let contexts: Vec<usize> = match self.config.cbow {
            true => (window.from..window.to).filter(|&c| c != window.centre).collect(),
            false => vec![window.context().expect("an open window has a context left")],
        };
        self.update_window(&mut window)?;
        let dim = self.config.dim;
        let worker = &self.workers[0];
        let input_words: Vec<u32> = contexts.iter().map(|&c| worker.kept[c]).collect();
        let output_words = worker.words.clone();
        // The update scored every output word before moving any row (`output_step`).
        let before = worker.scratch.dots().to_vec();
        // The hidden vector as the moved input rows now make it: their mean, as training
        // takes it (one row for skip-gram).
        let mut hidden = vec![0.0; dim];
        for &word in &input_words {
            crate::linalg::axpy(1.0, &self.input[word as usize * dim..][..dim], &mut hidden);
        }
        let scale = 1.0 / input_words.len() as f32;
        hidden.iter_mut().for_each(|h| *h *= scale);
        let after: Vec<f32> = output_words
            .iter()
            .map(|&w| crate::linalg::dot(&hidden, &self.output[w as usize * dim..][..dim]))
            .collect();
        let loss_terms = before
            .iter()
            .enumerate()
            .map(|(i, &x)| f64::from(self.logistic.log_logistic_loss(x, i == 0).0))
            .collect();
        let at = |kept: usize| segment.start + worker.kept_offsets[kept] as usize;
        let report = UpdateReport {
            cbow: self.config.cbow,
            epoch: self.epoch + 1,
            alpha: window.alpha,
            segment_start: segment.start,
            segment_len: segment.len,
            kept: (0..worker.kept.len()).map(at).collect(),
            centre_at: at(window.centre),
            window: (at(window.from), at(window.to - 1)),
            contexts_at: contexts.iter().map(|&c| at(c)).collect(),
            input_words,
            scores_before: before.iter().map(|&x| sigmoid(f64::from(x))).collect(),
            scores_after: after.iter().map(|&x| sigmoid(f64::from(x))).collect(),
            output_words,
            loss_terms,
            loss: worker.scratch.loss(),
        };
        self.window = Some(window);
        if window.context().is_none() {
            self.close_window();
        }
        Ok(Some(report))
    }

    /// Makes the open window's next update as `advance` would: skip-gram's next pair, or
    /// CBOW's whole window; `window` then holds the contexts left (none after CBOW's).
    fn update_window(&mut self, window: &mut OpenWindow) -> Result<()> {
        let context = window.context().expect("an open window has a context left");
        let mut model = Model {
            config: &self.config,
            logistic: &self.logistic,
            noise: &self.noise,
            input: &mut self.input,
            output: self.output.as_mut_slice(),
        };
        let worker = &mut self.workers[0];
        let trained = match self.config.cbow {
            true => worker.train_window(&mut model, window.centre, (window.from, window.to), window.alpha),
            false => worker.train_pair(&mut model, window.centre, context, window.alpha).map(|_| ()),
        };
        if trained.is_none() {
            let tokens_done = self.epoch as u64 * self.corpus.n_tokens() as u64 + window.walked;
            return Err(Error::Diverged { epoch: self.epoch + 1, tokens_done });
        }
        window.next_context = if self.config.cbow { window.to } else { context + 1 };
        Ok(())
    }

    /// The open window, or the next one with a pair in it, opened as `advance` would open
    /// it; `None` when training is done.
    fn open_next_window(&mut self) -> Option<OpenWindow> {
        let epoch_tokens = self.corpus.n_tokens() as u64;
        loop {
            if let Some(window) = self.window {
                return Some(window);
            }
            if self.epoch_done == epoch_tokens && !self.is_done() {
                self.finish_epoch();
            }
            if self.is_done() {
                return None;
            }
            let segment = match self.segment {
                Some(segment) => segment,
                None => self.load_segment(),
            };
            self.segment = Some(segment);
            let centre = segment.next;
            if centre == self.workers[0].kept.len() {
                // Nothing kept is left: the rest of the segment is walked.
                self.epoch_done = (segment.start + segment.len) as u64;
                self.segment = None;
                continue;
            }
            let walked = segment.start as u64 + self.workers[0].kept_offsets[centre] as u64 + 1;
            let tokens_done = self.epoch as u64 * epoch_tokens + walked - 1;
            let alpha = alpha_at(&self.config, epoch_tokens, tokens_done);
            let model = Model {
                config: &self.config,
                logistic: &self.logistic,
                noise: &self.noise,
                input: &mut self.input,
                output: self.output.as_mut_slice(),
            };
            let (from, to) = self.workers[0].open_window(&model, centre);
            self.window = Some(OpenWindow { centre, from, to, next_context: from, walked, alpha });
            if to - from < 2 {
                self.close_window();
            }
        }
    }

    /// Ends the open window's centre as `advance` does after training it.
    fn close_window(&mut self) {
        let (Some(window), Some(mut segment)) = (self.window.take(), self.segment) else { return };
        segment.next = window.centre + 1;
        self.epoch_done = window.walked;
        let end = (segment.start + segment.len) as u64;
        if segment.next == self.workers[0].kept.len() {
            self.epoch_done = end;
        }
        self.segment = if self.epoch_done == end { None } else { Some(segment) };
    }

    /// Trains what is left of the window `step_update` opened, so `step` goes on from a
    /// centre boundary.
    pub(super) fn finish_window(&mut self) -> Result<()> {
        while let Some(mut window) = self.window {
            if window.context().is_none() {
                self.close_window();
                break;
            }
            self.update_window(&mut window)?;
            self.window = Some(window);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{corpus, no_clock, small_config, text, train_on_pool};
    use super::*;
    use crate::train::TrainConfig;

    #[test]
    fn single_updates_then_resuming_give_the_vectors_of_an_uninterrupted_run() {
        // Without subsampling, CBOW's windows of this text hold up to ten context words.
        let cases = [(false, false, 1e-3), (false, true, 1e-3), (true, false, 1e-3), (true, false, 0.0)];
        for (cbow, shared_noise, sample) in cases {
            let config = TrainConfig { cbow, shared_noise, sample, ..small_config() };
            let run = |trainer: &mut Trainer| {
                while !trainer.is_done() {
                    trainer.step(10_000).unwrap();
                }
            };
            let mut whole = Trainer::new(corpus(&text()), config, no_clock).unwrap();
            run(&mut whole);

            // Updates one at a time, chunks between them, across the first epoch's end.
            let mut stepped = Trainer::new(corpus(&text()), config, no_clock).unwrap();
            let ids = stepped.corpus().ids().to_vec();
            let (mut reports, mut rising, mut windows_seen) = (0, 0, 0);
            // Updates: a number, or (None) until the second epoch has begun.
            for (chunk, updates) in [(0, Some(37)), (100, Some(1)), (500, Some(5)), (300, None), (7, Some(3))]
            {
                stepped.step(chunk).unwrap();
                let mut left = updates.unwrap_or(usize::MAX);
                while left > 0 && (updates.is_some() || stepped.progress().epoch < 2) {
                    left -= 1;
                    let report = stepped.step_update().unwrap().expect("training is not done");
                    assert_eq!(report.cbow, cbow);
                    assert_eq!(report.output_words[0], ids[report.centre_at]);
                    let inputs: Vec<u32> = report.contexts_at.iter().map(|&at| ids[at]).collect();
                    assert_eq!(report.input_words, inputs);
                    assert!(report.kept.contains(&report.centre_at));
                    // Skip-gram: one context of the window; CBOW: every kept token of the
                    // window but the centre.
                    let window: Vec<usize> = (report.kept.iter().copied())
                        .filter(|&at| {
                            at >= report.window.0 && at <= report.window.1 && at != report.centre_at
                        })
                        .collect();
                    match cbow {
                        true => assert_eq!(report.contexts_at, window),
                        false => {
                            assert!(report.contexts_at.len() == 1 && window.contains(&report.contexts_at[0]))
                        }
                    }
                    windows_seen += usize::from(report.contexts_at.len() > 1);
                    let n = report.output_words.len();
                    assert!(
                        report.scores_before.len() == n
                            && report.scores_after.len() == n
                            && report.loss_terms.len() == n
                    );
                    assert_eq!(report.loss_terms[0] as f32, report.loss.positive);
                    let noise: f64 = report.loss_terms[1..].iter().sum();
                    assert!((noise - f64::from(report.loss.negative)).abs() < 1e-4, "{report:?}");
                    assert!(report.alpha <= config.alpha && report.alpha >= config.min_alpha);
                    reports += 1;
                    rising += usize::from(report.scores_after[0] > report.scores_before[0]);
                }
            }
            // The text's pair scores higher after its update, nearly always.
            assert!(rising * 10 > reports * 9, "{rising} of {reports}");
            assert_eq!(windows_seen > 0, cbow, "{windows_seen} of {reports} with several inputs");
            assert!(stepped.progress().epoch >= 2, "the updates crossed an epoch's end");
            run(&mut stepped);
            assert_eq!(
                whole.input, stepped.input,
                "cbow {cbow}, shared noise {shared_noise}, sample {sample}"
            );
            assert_eq!(whole.output, stepped.output);
            assert_eq!(whole.epoch_losses(), stepped.epoch_losses());

            // Nothing but single updates, to the end.
            let mut single = Trainer::new(corpus(&text()), config, no_clock).unwrap();
            while single.step_update().unwrap().is_some() {}
            assert!(single.is_done() || single.step(1).unwrap().done);
            assert_eq!(whole.input, single.input);
            assert_eq!(single.step_update(), Ok(None));
        }
    }

    #[test]
    fn single_updates_on_several_threads_hand_over_to_them() {
        for cbow in [false, true] {
            let config = TrainConfig { threads: 2, cbow, ..small_config() };
            let (_, threaded) = train_on_pool(&text(), config, 333, 2);
            let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
            pool.install(|| {
                let mut trainer = Trainer::new(corpus(&text()), config, no_clock).unwrap();
                for _ in 0..50 {
                    assert_eq!(trainer.step_update().unwrap().unwrap().cbow, cbow);
                }
                let mut walked = trainer.progress().tokens_done;
                assert!(walked > 0, "cbow {cbow}");
                while !trainer.is_done() {
                    let p = trainer.step(333).unwrap();
                    assert!(p.tokens_done > walked, "cbow {cbow}: {p:?}");
                    walked = p.tokens_done;
                }
                assert_eq!(trainer.progress().tokens_done, threaded.progress().tokens_total);
                assert_eq!(trainer.epoch_losses().len(), 3);
            });
        }
    }
}
