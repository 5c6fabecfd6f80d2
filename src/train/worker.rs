//! One training thread's walk over its tokens: subsampling a segment, drawing each centre's
//! window, the noise words of negative sampling, and the SGNS or CBOW update of each pair
//! (word2vec.c's and gensim's sampling; see `trainer.rs` for the schedule that drives it).

use std::sync::atomic::{AtomicU64, Ordering};

use rand::Rng;
use rand::rngs::Xoshiro256PlusPlus;

use super::config::TrainConfig;
use super::hogwild::unshared_vec;
use super::noise::AliasTable;
use super::replica::Replicated;
use super::sgns::{Logistic, PairLoss, Scratch, output_step, sgns_update};
use super::trainer::{LossTerms, MAX_SEGMENT};
use crate::linalg::Rows;
use crate::text::Corpus;

/// What one thread of training owns: its random generator, its buffers and its share of
/// the epoch's loss. Aligned to two cache lines, and its buffers padded, so that threads
/// writing their own workers never write the same cache line (false sharing).
#[repr(align(128))]
pub(super) struct Worker {
    pub(super) rng: Xoshiro256PlusPlus,
    pub(super) scratch: Scratch,
    /// The observed word, then its noise words.
    pub(super) words: Vec<u32>,
    /// CBOW: the mean of a window's input vectors.
    pub(super) hidden: Vec<f32>,
    /// The current segment's kept (not subsampled) tokens and their offsets in it.
    pub(super) kept: Vec<u32>,
    pub(super) kept_offsets: Vec<u32>,
    /// Loss summed over this epoch's pairs (predictions, for CBOW) trained by this worker.
    pub(super) loss: LossTerms,
    pub(super) pairs: u64,
    /// Where this worker's range diverged, in tokens of the epoch.
    pub(super) diverged_at: Option<u64>,
}

/// What a worker trains with: the shared tables and the two matrices, the output matrix
/// whole (one thread) or seen through the worker's copy of its first rows (several).
pub(super) struct Model<'a, O: Rows + ?Sized> {
    pub(super) config: &'a TrainConfig,
    pub(super) logistic: &'a Logistic,
    pub(super) noise: &'a AliasTable,
    pub(super) input: &'a mut [f32],
    pub(super) output: &'a mut O,
}

impl Worker {
    pub(super) fn new(rng: Xoshiro256PlusPlus, config: &TrainConfig) -> Worker {
        Worker {
            rng,
            scratch: Scratch::new(config.dim, config.negative),
            words: unshared_vec(config.negative + 1, 0),
            hidden: unshared_vec(if config.cbow { config.dim } else { 0 }, 0.0),
            kept: unshared_vec(0, 0),
            kept_offsets: unshared_vec(0, 0),
            loss: LossTerms::default(),
            pairs: 0,
            diverged_at: None,
        }
    }

    /// Keeps each token of `ids` with its probability in `keep`.
    pub(super) fn subsample(&mut self, ids: &[u32], keep: &[u64]) {
        self.kept.clear();
        self.kept_offsets.clear();
        for (offset, &id) in ids.iter().enumerate() {
            if (self.rng.next_u32() as u64) < keep[id as usize] {
                self.kept.push(id);
                self.kept_offsets.push(offset as u32);
            }
        }
    }

    /// Trains the window around kept token `centre` at learning rate `alpha`. Returns
    /// `None` when a dot product is not finite.
    #[inline]
    pub(super) fn train_centre<O: Rows + ?Sized>(
        &mut self,
        model: &mut Model<O>,
        centre: usize,
        alpha: f32,
    ) -> Option<()> {
        let (from, to) = self.open_window(model, centre);
        if model.config.cbow {
            if to - from < 2 {
                return Some(());
            }
            return self.train_window(model, centre, (from, to), alpha);
        }
        for context in (from..to).filter(|&c| c != centre) {
            self.train_pair(model, centre, context, alpha)?;
        }
        Some(())
    }

    /// Draws the window of kept token `centre`: its radius and, for skip-gram with shared
    /// noise, the window's noise words (when it has a pair). Returns the window's kept
    /// tokens `from..to`, the centre included.
    #[inline]
    pub(super) fn open_window<O: Rows + ?Sized>(
        &mut self,
        model: &Model<O>,
        centre: usize,
    ) -> (usize, usize) {
        let config = model.config;
        let reach = config.window - (self.rng.next_u32() as usize % config.window);
        let from = centre.saturating_sub(reach);
        let to = (centre + reach + 1).min(self.kept.len());
        // With shared noise, one draw serves every pair of the window (when it has one).
        if !config.cbow && config.shared_noise && to - from > 1 {
            self.draw_noise(model.noise, self.kept[centre], config.negative);
        }
        (from, to)
    }

    /// Skip-gram: trains the pair of kept tokens `centre` and `context` of a window opened
    /// by [`Worker::open_window`], drawing its noise words unless the window shares them.
    /// Returns the pair's loss, or `None` when a dot product is not finite. Inlined into the
    /// training loop, where a call per pair costs about 1 % of the instructions.
    #[inline(always)]
    pub(super) fn train_pair<O: Rows + ?Sized>(
        &mut self,
        model: &mut Model<O>,
        centre: usize,
        context: usize,
        alpha: f32,
    ) -> Option<PairLoss> {
        let config = model.config;
        if !config.shared_noise {
            self.draw_noise(model.noise, self.kept[centre], config.negative);
        }
        let (dim, word) = (config.dim, self.kept[context] as usize);
        let input = &mut model.input[word * dim..(word + 1) * dim];
        let loss = sgns_update(model.logistic, input, model.output, &self.words, alpha, &mut self.scratch)?;
        self.loss.add(loss);
        self.pairs += 1;
        Some(loss)
    }

    /// CBOW: trains the window `from..to` of kept token `centre`, opened by
    /// [`Worker::open_window`] with a context in it: the mean of the context words' input
    /// vectors (left in `hidden`) predicts the centre against noise words, and the whole
    /// gradient of the mean goes to every context word's input vector, as word2vec.c does.
    /// Returns `None` when a dot product is not finite; the loss is in `scratch`. Inlined
    /// into the training loop, like [`Worker::train_pair`].
    #[inline(always)]
    pub(super) fn train_window<O: Rows + ?Sized>(
        &mut self,
        model: &mut Model<O>,
        centre: usize,
        (from, to): (usize, usize),
        alpha: f32,
    ) -> Option<()> {
        let config = model.config;
        let dim = config.dim;
        self.hidden.fill(0.0);
        for context in (from..to).filter(|&c| c != centre) {
            let word = self.kept[context] as usize;
            crate::linalg::axpy(1.0, &model.input[word * dim..(word + 1) * dim], &mut self.hidden);
        }
        let scale = 1.0 / (to - from - 1) as f32;
        self.hidden.iter_mut().for_each(|h| *h *= scale);
        self.draw_noise(model.noise, self.kept[centre], config.negative);
        output_step(model.logistic, &self.hidden, model.output, &self.words, alpha, &mut self.scratch)?;
        for context in (from..to).filter(|&c| c != centre) {
            let word = self.kept[context] as usize;
            crate::linalg::axpy(1.0, self.scratch.grad(), &mut model.input[word * dim..(word + 1) * dim]);
        }
        self.loss.add(self.scratch.loss());
        self.pairs += 1;
        Some(())
    }

    /// Fills `words` with `target` and `negative` noise draws, leaving out draws of `target`.
    #[inline]
    pub(super) fn draw_noise(&mut self, noise: &AliasTable, target: u32, negative: usize) {
        self.words.clear();
        self.words.push(target);
        for _ in 0..negative {
            let word = noise.sample(&mut self.rng);
            if word != target {
                self.words.push(word);
            }
        }
    }

    /// Trains the whole segments of `range` (token positions of the epoch, starting and
    /// ending at segment boundaries), adding the tokens walked to `walked`; the learning
    /// rate at each segment comes from `alpha_after(walked so far)`. Records where a
    /// divergence happened and stops there.
    pub(super) fn train_range(
        &mut self,
        model: &mut Model<Replicated>,
        corpus: &Corpus,
        keep: &[u64],
        range: (usize, usize),
        walked: &AtomicU64,
        alpha_after: impl Fn(u64) -> f32,
    ) {
        let ends = corpus.sentence_ends();
        let (mut start, end) = range;
        let mut sentence = ends.partition_point(|&e| e <= start);
        while start < end {
            while ends[sentence] <= start {
                sentence += 1;
            }
            let len = (ends[sentence] - start).min(MAX_SEGMENT);
            let alpha = alpha_after(walked.fetch_add(len as u64, Ordering::Relaxed));
            self.subsample(&corpus.ids()[start..start + len], keep);
            for centre in 0..self.kept.len() {
                if self.train_centre(model, centre, alpha).is_none() {
                    self.diverged_at = Some((start + self.kept_offsets[centre] as usize + 1) as u64);
                    return;
                }
            }
            start += len;
        }
    }
}
