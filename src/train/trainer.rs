//! The chunked training driver: walks the corpus epoch by epoch, owns the learning-rate
//! schedule, the random state and the loss bookkeeping, and advances by at most N tokens
//! per [`Trainer::step`], so a caller can report, pause, resume and cancel between calls.
//!
//! Sampling follows word2vec.c and gensim: frequent tokens are subsampled out of each
//! sentence before windows are formed; each centre token draws a window radius uniformly
//! from `1..=window`. Skip-gram: each (context, centre) pair updates the context's input
//! vector against the centre's output vector and `negative` noise words drawn from
//! counts^0.75. CBOW: the mean of the window's input vectors is scored against the centre
//! and the noise words, and its gradient is added to every context word's input vector
//! (word2vec.c's `-cbow 1`, gensim's `cbow_mean=1`). Sentences longer than [`MAX_SEGMENT`]
//! tokens are cut into segments, as gensim does.
//!
//! With `threads > 1` each step's tokens are cut, at segment boundaries, into pieces of
//! about 10,000 tokens (at least 8 a thread), and `threads` jobs on rayon's global pool
//! (however many threads it has) take the pieces in turn and train them at once with
//! Hogwild updates ([`super::hogwild`]), each job with its own random generator derived from
//! the seed. Taking pieces in turn, as gensim's job queue does, keeps a thread that the
//! system leaves waiting from holding up the others at the step's end. The learning rate
//! follows the tokens all threads have walked (read at each segment's start), and each thread's loss is summed in `f64`,
//! its two terms apart ([`LossTerms`]). A step
//! then ends at a segment boundary: at most `max_tokens` tokens, or one segment when the
//! first segment is longer.
//!
//! **Where the time goes.** On one thread about 85 % of the time is in `output_step` (a
//! pair's 1 + k dot products and row updates), waiting on the rows of the output matrix to
//! arrive more than on arithmetic. Drawing one set of noise words a window
//! ([`TrainConfig::shared_noise`]) keeps those rows in cache across the window's pairs; it is
//! an option, and the default draws once a pair, as word2vec.c and gensim do.
//!
//! **Architecture Invariant:** with `threads == 1`, given the corpus, the configuration and
//! the seed, the sequence of updates is fixed, whatever the chunk sizes, so the vectors are
//! bit-identical (one random generator, Xoshiro256++, the same on native and wasm32 builds).
//! With `threads > 1` the vectors depend on how the threads interleave; every token of every
//! epoch is still trained exactly once, and the learning-rate schedule and the loss cover
//! the same tokens.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use rand::Rng;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use super::config::{MAX_MODEL_BYTES, TrainConfig};
use super::hogwild::Hogwild;
use super::noise::AliasTable;
use super::replica::{MERGE_AFTER, MERGE_AFTER_CBOW, Replica, replicated_rows};
use super::sgns::{Logistic, PairLoss};
use super::worker::{Model, Worker};
use crate::error::{Error, Result};
use crate::text::Corpus;
use crate::vectors::Embeddings;

mod context;
mod single_update;
use context::check_context;
use single_update::OpenWindow;
pub use single_update::UpdateReport;

/// Longest run of tokens trained as one sentence (gensim's `MAX_WORDS_IN_BATCH`).
pub const MAX_SEGMENT: usize = 10_000;

/// About how many tokens one thread takes at a time when several train (gensim's jobs are
/// 10,000 words too).
const PIECE_TOKENS: usize = 10_000;

/// The fewest pieces each thread's share of a step is cut into.
const PIECES_PER_THREAD: usize = 8;

/// A monotonic clock in seconds. Native code passes one built on `std::time::Instant`;
/// the browser passes `performance.now() / 1000`. The core never reads time itself,
/// because `std::time::Instant` panics on wasm32.
pub type Clock = fn() -> f64;

/// Where training stands, returned by every [`Trainer::step`].
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The epoch in progress (or just finished), from 1 to `epochs`.
    pub epoch: u32,
    /// Number of epochs.
    pub epochs: u32,
    /// Tokens of this epoch walked so far (subsampled ones included, as word2vec counts).
    pub epoch_tokens_done: u64,
    /// Tokens of one epoch.
    pub epoch_tokens: u64,
    /// Tokens walked over all epochs so far.
    pub tokens_done: u64,
    /// Tokens of all epochs.
    pub tokens_total: u64,
    /// The learning rate now.
    pub alpha: f32,
    /// Mean loss per training pair (per centre word for CBOW) so far in this epoch (0
    /// before the first one): `loss_terms.total()`.
    pub loss: f64,
    /// The two terms of `loss`.
    pub loss_terms: LossTerms,
    /// Tokens walked per second of time spent inside `step`.
    pub tokens_per_sec: f64,
    /// Whether every epoch is finished.
    pub done: bool,
}

/// A loss in the two terms of negative sampling ([`PairLoss`]): `positive` from the
/// observed pairs of the text, `negative` from the noise words. Sums in `f64` while an epoch
/// runs, means per pair (per centre word for CBOW) once reported.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LossTerms {
    pub positive: f64,
    pub negative: f64,
}

impl LossTerms {
    /// The whole loss, the sum of the two terms.
    pub fn total(self) -> f64 {
        self.positive + self.negative
    }

    pub(super) fn add(&mut self, loss: PairLoss) {
        self.positive += f64::from(loss.positive);
        self.negative += f64::from(loss.negative);
    }

    fn sum(terms: impl Iterator<Item = LossTerms>) -> LossTerms {
        terms.fold(LossTerms::default(), |a, b| LossTerms {
            positive: a.positive + b.positive,
            negative: a.negative + b.negative,
        })
    }
}

/// Trains word2vec vectors over a corpus, a chunk at a time.
pub struct Trainer {
    corpus: Corpus,
    config: TrainConfig,
    clock: Clock,
    logistic: Logistic,
    noise: AliasTable,
    /// Keep probability of each type under subsampling, scaled to 2^32.
    keep: Vec<u64>,
    input: Vec<f32>,
    output: Vec<f32>,
    /// One per thread; the first holds the generator that initialised the vectors.
    workers: Vec<Worker>,
    /// Several threads: each thread's copy of the frequent words' output rows
    /// ([`super::replica`]); none on one thread.
    replicas: Vec<Replica>,

    /// 0-based epoch in progress.
    epoch: u32,
    /// Tokens of the epoch walked so far.
    epoch_done: u64,
    /// Index of the sentence that holds the current position (one thread only).
    sentence: usize,
    /// The current segment, when loaded (one thread only): its start in the corpus, its
    /// length, and the next kept token to train; its kept tokens are the first worker's.
    segment: Option<Segment>,
    /// The window [`Trainer::step_update`] left half done (one thread only).
    window: Option<OpenWindow>,

    /// Each finished epoch's mean loss, and its two terms.
    epoch_losses: Vec<f64>,
    epoch_loss_terms: Vec<LossTerms>,
    seconds: f64,
    failed: Option<Error>,
    /// Test hook: the thread that panics at its next threaded step
    /// ([`Trainer::panic_in_thread_for_test`]).
    panic_thread: Option<usize>,
}

#[derive(Debug, Clone, Copy)]
struct Segment {
    start: usize,
    len: usize,
    next: usize,
}

impl Trainer {
    /// Prepares training: validates the configuration, checks that the model fits in
    /// [`MAX_MODEL_BYTES`] and initialises the vectors (inputs uniform in ±0.5/dim, outputs
    /// zero, as word2vec.c).
    ///
    /// Fails with [`Error::InvalidParameter`] naming a bad parameter, and with
    /// [`Error::TooLarge`], before allocating the vectors, when the vocabulary is too large
    /// for the dimension.
    pub fn new(corpus: Corpus, config: TrainConfig, clock: Clock) -> Result<Trainer> {
        Trainer::with_memory_limit(corpus, config, clock, MAX_MODEL_BYTES)
    }

    /// Like [`Trainer::new`] with another limit than [`MAX_MODEL_BYTES`] on the estimated
    /// memory of the model ([`TrainConfig::model_bytes`]).
    pub fn with_memory_limit(
        corpus: Corpus,
        config: TrainConfig,
        clock: Clock,
        limit_bytes: u64,
    ) -> Result<Trainer> {
        config.validate()?;
        config.check_model_size(corpus.vocab().len(), corpus.n_tokens(), limit_bytes)?;
        check_context(&corpus, config.sample)?;
        Ok(Trainer::new_unchecked(corpus, config, clock))
    }

    /// Like [`Trainer::new`] without validation, so tests can break training on purpose.
    pub(crate) fn new_unchecked(corpus: Corpus, config: TrainConfig, clock: Clock) -> Trainer {
        let n_words = corpus.vocab().len();
        let dim = config.dim;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
        let input = (0..n_words * dim).map(|_| (unit_float(&mut rng) - 0.5) / dim as f32).collect();
        let keep = corpus
            .vocab()
            .keep_probabilities(config.sample)
            .into_iter()
            .map(|p| (p * 4_294_967_296.0) as u64)
            .collect();
        // The first thread goes on with the generator that drew the vectors, so one thread
        // draws from one generator from start to end; the others get streams of their own
        // from the seed.
        let mut workers = vec![Worker::new(rng, &config)];
        for i in 1..config.threads.max(1) as u64 {
            let seed = config.seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            workers.push(Worker::new(Xoshiro256PlusPlus::seed_from_u64(seed), &config));
        }
        let replicas = match config.threads {
            1 => Vec::new(),
            threads => {
                let merge_after = if config.cbow { MERGE_AFTER_CBOW } else { MERGE_AFTER };
                (0..threads).map(|_| Replica::new(replicated_rows(n_words, dim), dim, merge_after)).collect()
            }
        };
        Trainer {
            noise: AliasTable::unigram(corpus.vocab().counts(), config.ns_exponent),
            keep,
            corpus,
            config,
            clock,
            logistic: Logistic::default(),
            input,
            output: vec![0.0; n_words * dim],
            workers,
            replicas,
            epoch: 0,
            epoch_done: 0,
            sentence: 0,
            segment: None,
            window: None,
            epoch_losses: Vec::new(),
            epoch_loss_terms: Vec::new(),
            seconds: 0.0,
            failed: None,
            panic_thread: None,
        }
    }

    /// Makes training thread `thread` panic at the start of the next step on several
    /// threads, once. Nothing in the app calls it: the tests do, to check that a panic in a
    /// training thread ends the run with its message instead of leaving it waiting for ever
    /// (natively rayon hands the panic to the caller; the browser's pool, `src/wasm/pool.rs`,
    /// ends the worker with it).
    #[doc(hidden)]
    pub fn panic_in_thread_for_test(&mut self, thread: usize) {
        self.panic_thread = Some(thread);
    }

    /// The corpus being trained on.
    pub fn corpus(&self) -> &Corpus {
        &self.corpus
    }

    /// The configuration.
    pub fn config(&self) -> &TrainConfig {
        &self.config
    }

    /// Mean loss per pair of each finished epoch.
    pub fn epoch_losses(&self) -> &[f64] {
        &self.epoch_losses
    }

    /// The two terms of each of [`Trainer::epoch_losses`].
    pub fn epoch_loss_terms(&self) -> &[LossTerms] {
        &self.epoch_loss_terms
    }

    /// Whether every epoch is finished.
    pub fn is_done(&self) -> bool {
        self.epoch >= self.config.epochs
    }

    /// The output (context) vectors as they stand, row by row in the vocabulary's order:
    /// what a word is scored against as a context or a noise word.
    pub fn output_rows(&self) -> &[f32] {
        &self.output
    }

    /// The probability that subsampling keeps a token of type `id`, as the trainer draws it:
    /// [`crate::text::Vocab::keep_probabilities`] at the resolution of its 32-bit coin.
    ///
    /// **Unchecked precondition:** `id` is in the vocabulary.
    pub fn keep_probability(&self, id: u32) -> f64 {
        (self.keep[id as usize] as f64 / 4_294_967_296.0).min(1.0)
    }

    /// A copy of the input vectors as it stands, with the vocabulary's words.
    pub fn to_embeddings(&self) -> Result<Embeddings> {
        Embeddings::with_words(self.corpus.vocab().table().clone(), self.config.dim, self.input.clone())
    }

    /// Trains on at most `max_tokens` more tokens, stopping early at the end of an epoch,
    /// and says where training stands. After the last epoch it does nothing. With
    /// `threads > 1` a step ends at a segment boundary, so it trains at least one segment
    /// (a sentence, or [`MAX_SEGMENT`] tokens of a longer one) even when that is more.
    ///
    /// Fails with [`Error::Diverged`] when a NaN or infinity appears; every later call
    /// fails the same way.
    pub fn step(&mut self, max_tokens: u64) -> Result<Progress> {
        if let Some(err) = &self.failed {
            return Err(err.clone());
        }
        let started = (self.clock)();
        let epoch_tokens = self.corpus.n_tokens() as u64;
        if let Err(err) = self.finish_window() {
            self.failed = Some(err.clone());
            return Err(err);
        }
        if self.epoch_done == epoch_tokens && !self.is_done() {
            self.finish_epoch();
        }
        if !self.is_done() {
            let budget_end = self.epoch_done.saturating_add(max_tokens).min(epoch_tokens);
            let trained = if self.config.threads > 1 {
                // A segment begun by `step_update` ends on the first thread, as it began.
                let mut trained = Ok(());
                while self.segment.is_some() && self.epoch_done < budget_end && trained.is_ok() {
                    trained = self.advance(budget_end);
                }
                if trained.is_ok() && self.epoch_done < budget_end {
                    trained = self.advance_threads(budget_end);
                }
                trained
            } else {
                let mut trained = Ok(());
                while self.epoch_done < budget_end && trained.is_ok() {
                    trained = self.advance(budget_end);
                }
                trained
            };
            if let Err(err) = trained {
                self.failed = Some(err.clone());
                return Err(err);
            }
            if self.epoch_done == epoch_tokens && self.epoch + 1 == self.config.epochs {
                self.finish_epoch();
            }
        }
        self.seconds += ((self.clock)() - started).max(0.0);
        Ok(self.progress())
    }

    /// Where training stands, without training.
    pub fn progress(&self) -> Progress {
        let epoch_tokens = self.corpus.n_tokens() as u64;
        let done = self.is_done();
        let tokens_done = if done {
            epoch_tokens * self.config.epochs as u64
        } else {
            self.epoch as u64 * epoch_tokens + self.epoch_done
        };
        let loss_terms = match done {
            true => self.epoch_loss_terms.last().copied().unwrap_or_default(),
            false => self.epoch_mean_loss(),
        };
        Progress {
            epoch: (self.epoch + 1).min(self.config.epochs),
            epochs: self.config.epochs,
            epoch_tokens_done: if done { epoch_tokens } else { self.epoch_done },
            epoch_tokens,
            tokens_done,
            tokens_total: epoch_tokens * self.config.epochs as u64,
            alpha: alpha_at(&self.config, epoch_tokens, tokens_done),
            loss: loss_terms.total(),
            loss_terms,
            tokens_per_sec: if self.seconds > 0.0 { tokens_done as f64 / self.seconds } else { 0.0 },
            done,
        }
    }

    /// The mean loss of this epoch's pairs so far, over every thread (0 before any).
    fn epoch_mean_loss(&self) -> LossTerms {
        let pairs: u64 = self.workers.iter().map(|w| w.pairs).sum();
        if pairs == 0 {
            return LossTerms::default();
        }
        let sums = LossTerms::sum(self.workers.iter().map(|w| w.loss));
        LossTerms { positive: sums.positive / pairs as f64, negative: sums.negative / pairs as f64 }
    }

    fn finish_epoch(&mut self) {
        let mean = self.epoch_mean_loss();
        self.epoch_losses.push(mean.total());
        self.epoch_loss_terms.push(mean);
        self.epoch += 1;
        self.epoch_done = 0;
        self.sentence = 0;
        for worker in &mut self.workers {
            worker.loss = LossTerms::default();
            worker.pairs = 0;
        }
    }

    /// One thread: trains the current segment (loading one if needed) until it ends or the
    /// epoch reaches `budget_end` tokens.
    fn advance(&mut self, budget_end: u64) -> Result<()> {
        let mut segment = match self.segment {
            Some(segment) => segment,
            None => self.load_segment(),
        };
        let epoch_tokens = self.corpus.n_tokens() as u64;
        let epoch_base = self.epoch as u64 * epoch_tokens;
        let worker = &mut self.workers[0];
        let mut model = Model {
            config: &self.config,
            logistic: &self.logistic,
            noise: &self.noise,
            input: &mut self.input,
            output: self.output.as_mut_slice(),
        };
        while segment.next < worker.kept.len() {
            let centre = segment.next;
            let walked = segment.start as u64 + worker.kept_offsets[centre] as u64 + 1;
            if walked > budget_end {
                // Every token before the budget's end is trained or subsampled away.
                self.epoch_done = budget_end;
                break;
            }
            let alpha = alpha_at(model.config, epoch_tokens, epoch_base + walked - 1);
            if worker.train_centre(&mut model, centre, alpha).is_none() {
                return Err(Error::Diverged { epoch: self.epoch + 1, tokens_done: epoch_base + walked });
            }
            segment.next += 1;
            self.epoch_done = walked;
        }
        let end = (segment.start + segment.len) as u64;
        if segment.next == worker.kept.len() {
            // Subsampled tokens after the last kept one are walked too, within the budget.
            self.epoch_done = end.min(budget_end);
        }
        self.segment = if self.epoch_done == end { None } else { Some(segment) };
        Ok(())
    }

    /// One thread: cuts the next segment at the current position and subsamples it.
    fn load_segment(&mut self) -> Segment {
        let start = self.epoch_done as usize;
        let ends = self.corpus.sentence_ends();
        while ends[self.sentence] <= start {
            self.sentence += 1;
        }
        let len = (ends[self.sentence] - start).min(MAX_SEGMENT);
        self.workers[0].subsample(&self.corpus.ids()[start..start + len], &self.keep);
        Segment { start, len, next: 0 }
    }

    /// Several threads: trains the segments from the current position up to the last
    /// segment boundary at or before `budget_end` (or the first one after the position),
    /// cut into one range per thread.
    fn advance_threads(&mut self, budget_end: u64) -> Result<()> {
        let start = self.epoch_done as usize;
        let mut end = self.boundary_before(budget_end as usize);
        if end <= start {
            end = self.boundary_after(start + 1);
        }
        // Pieces of about PIECE_TOKENS, and at least PIECES_PER_THREAD a thread, that the
        // threads take in turn: a thread the system leaves waiting then holds up one piece,
        // not a half, and the threads that finish first wait at the step's end for a small
        // piece (the page's steps of 50 ms are a few pieces of PIECE_TOKENS a thread).
        let threads = self.workers.len();
        let n_pieces = ((end - start) / PIECE_TOKENS).max(threads * PIECES_PER_THREAD);
        let mut cuts = vec![start];
        for i in 1..n_pieces {
            let cut = self.boundary_after(start + (end - start) * i / n_pieces);
            cuts.push(cut.clamp(*cuts.last().unwrap(), end));
        }
        cuts.push(end);

        let epoch_tokens = self.corpus.n_tokens() as u64;
        let step_base = self.epoch as u64 * epoch_tokens + start as u64;
        let walked = AtomicU64::new(0);
        let next_piece = AtomicUsize::new(0);
        let (config, corpus, keep, cuts) = (&self.config, &self.corpus, &self.keep[..], &cuts[..]);
        let (logistic, noise) = (&self.logistic, &self.noise);
        let input = Hogwild::new(&mut self.input);
        let output = Hogwild::new(&mut self.output);
        let panic_thread = self.panic_thread.take();
        rayon::scope(|scope| {
            for (i, (worker, replica)) in self.workers.iter_mut().zip(&mut self.replicas).enumerate() {
                let (input, output, walked, next_piece) = (&input, &output, &walked, &next_piece);
                scope.spawn(move |_| {
                    if panic_thread == Some(i) {
                        panic!("a deliberate panic in training thread {i}, to test that training ends with a message");
                    }
                    // SAFETY: the threads of this scope race on the matrices, as Hogwild
                    // does; `Hogwild` documents why that is accepted.
                    let (input, output) = unsafe { (input.slice(), output.slice()) };
                    let mut output = replica.over(output);
                    let mut model = Model { config, logistic, noise, input, output: &mut output };
                    let alpha_after = |walked: u64| alpha_at(config, epoch_tokens, step_base + walked);
                    let mut since_merge = 0;
                    while worker.diverged_at.is_none() {
                        let piece = next_piece.fetch_add(1, Ordering::Relaxed);
                        let Some(&[from, to]) = cuts.get(piece..piece + 2) else { break };
                        worker.train_range(&mut model, corpus, keep, (from, to), walked, alpha_after);
                        // Rows updated fewer than MERGE_AFTER times are handed over too.
                        since_merge += to - from;
                        if since_merge >= PIECE_TOKENS {
                            model.output.merge();
                            since_merge = 0;
                        }
                    }
                    // The step ends with every change in the shared matrix.
                    model.output.merge();
                });
            }
        });
        if let Some(at) = self.workers.iter_mut().find_map(|w| w.diverged_at.take()) {
            let tokens_done = self.epoch as u64 * epoch_tokens + at;
            return Err(Error::Diverged { epoch: self.epoch + 1, tokens_done });
        }
        self.epoch_done = end as u64;
        Ok(())
    }

    /// The segment boundaries around token position `at` of the epoch: sentence ends, and
    /// every [`MAX_SEGMENT`] tokens from a sentence's start. `boundary_before` gives the last
    /// at or before `at`, `boundary_after` the first at or after it.
    fn boundary_before(&self, at: usize) -> usize {
        let (sentence_start, sentence_end) = self.sentence_around(at);
        if at >= sentence_end {
            return sentence_end;
        }
        sentence_start + (at - sentence_start) / MAX_SEGMENT * MAX_SEGMENT
    }

    fn boundary_after(&self, at: usize) -> usize {
        let (sentence_start, sentence_end) = self.sentence_around(at);
        let segments = (at - sentence_start).div_ceil(MAX_SEGMENT);
        (sentence_start + segments * MAX_SEGMENT).min(sentence_end)
    }

    /// The start and end of the sentence holding position `at` (the last one for the
    /// epoch's end).
    fn sentence_around(&self, at: usize) -> (usize, usize) {
        let ends = self.corpus.sentence_ends();
        let i = ends.partition_point(|&e| e <= at).min(ends.len() - 1);
        let start = if i == 0 { 0 } else { ends[i - 1] };
        (start, ends[i])
    }
}

/// The learning rate after `tokens_done` tokens: linear from `alpha` to `min_alpha` over
/// every epoch's `epoch_tokens`.
fn alpha_at(config: &TrainConfig, epoch_tokens: u64, tokens_done: u64) -> f32 {
    let total = epoch_tokens as f64 * config.epochs as f64;
    let fraction = (tokens_done as f64 / total).min(1.0);
    let (alpha, min_alpha) = (config.alpha as f64, config.min_alpha as f64);
    (alpha - (alpha - min_alpha) * fraction) as f32
}

/// The exact logistic function, for reports (training reads [`Logistic`]'s table).
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A float uniform in [0, 1) from the top 24 bits of a draw.
fn unit_float(rng: &mut impl Rng) -> f32 {
    (rng.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::text::{VocabConfig, WhitespaceTokenizer};

    pub(super) fn no_clock() -> f64 {
        0.0
    }

    pub(super) fn corpus(text: &str) -> Corpus {
        Corpus::build(text, &WhitespaceTokenizer, &VocabConfig { min_count: 1, max_vocab: None }).unwrap()
    }

    pub(super) fn small_config() -> TrainConfig {
        TrainConfig { dim: 16, epochs: 3, ..TrainConfig::default() }
    }

    pub(super) fn text() -> String {
        (0..200).map(|i| format!("a b c d{} e f g h\n", i % 7)).collect()
    }

    pub(super) fn train(chunk: u64) -> (Vec<Progress>, Trainer) {
        let mut trainer = Trainer::new(corpus(&text()), small_config(), no_clock).unwrap();
        let mut seen = Vec::new();
        while !trainer.is_done() {
            seen.push(trainer.step(chunk).unwrap());
        }
        (seen, trainer)
    }

    #[test]
    fn chunk_size_does_not_change_the_vectors() {
        let (_, whole) = train(1_000_000);
        let (_, small) = train(7);
        let (_, one) = train(1);
        let (_, huge) = train(u64::MAX);
        assert_eq!(whole.input, huge.input);
        assert_eq!(whole.input, small.input);
        assert_eq!(whole.input, one.input);
        assert_eq!(whole.epoch_losses(), small.epoch_losses());
    }

    #[test]
    fn cbow_on_one_thread_does_not_depend_on_chunk_sizes_either() {
        let run = |chunk| {
            let config = TrainConfig { cbow: true, ..small_config() };
            let mut trainer = Trainer::new(corpus(&text()), config, no_clock).unwrap();
            while !trainer.is_done() {
                trainer.step(chunk).unwrap();
            }
            trainer
        };
        let (whole, small) = (run(1_000_000), run(7));
        assert_eq!(whole.input, small.input);
        assert_eq!(whole.epoch_losses(), small.epoch_losses());
        // One prediction per centre word: the loss starts near an untrained pair's 6 ln 2.
        let losses = whole.epoch_losses();
        assert!(losses[2] < losses[0] && losses[0] < 4.2, "{losses:?}");
        assert_ne!(whole.input, train(1_000_000).1.input, "CBOW trains other vectors than skip-gram");
    }

    #[test]
    fn shared_noise_stays_reproducible_and_leaves_cbow_alone() {
        let run = |config: TrainConfig, chunk| {
            let mut trainer = Trainer::new(corpus(&text()), config, no_clock).unwrap();
            while !trainer.is_done() {
                trainer.step(chunk).unwrap();
            }
            trainer
        };
        let shared = TrainConfig { shared_noise: true, ..small_config() };
        let (whole, small) = (run(shared, 1_000_000), run(shared, 7));
        assert_eq!(whole.input, small.input, "one thread stays bit-reproducible");
        assert_eq!(whole.epoch_losses(), small.epoch_losses());
        let losses = whole.epoch_losses();
        assert!(losses[2] < losses[0] && losses[0] < 4.2, "{losses:?}");
        // Fewer draws leave the generator elsewhere, so the vectors differ from per-pair draws.
        assert_ne!(whole.input, train(1_000_000).1.input);
        // CBOW draws once a window anyway: the option changes nothing there.
        let cbow = TrainConfig { cbow: true, ..small_config() };
        assert_eq!(
            run(cbow, 1_000_000).input,
            run(TrainConfig { shared_noise: true, ..cbow }, 1_000_000).input
        );
    }

    #[test]
    fn shared_noise_draws_a_windows_noise_words_once() {
        for shared_noise in [false, true] {
            let config = TrainConfig { shared_noise, window: 1, sample: 0.0, ..small_config() };
            let mut trainer = Trainer::new(corpus(&text()), config, no_clock).unwrap();
            let ids = trainer.corpus.ids()[..5].to_vec();
            let Trainer { workers, noise, logistic, input, output, keep, .. } = &mut trainer;
            let worker = &mut workers[0];
            worker.subsample(&ids, keep);
            assert_eq!(worker.kept.len(), 5, "nothing is subsampled away");
            // The centre at 2 draws its radius (1, the only one) and has two context words.
            let mut expected = worker.rng.clone();
            expected.next_u32();
            let draws = if shared_noise { 1 } else { 2 };
            for _ in 0..draws * config.negative {
                noise.sample(&mut expected);
            }
            let mut model = Model { config: &config, logistic, noise, input, output: output.as_mut_slice() };
            worker.train_centre(&mut model, 2, 0.025).unwrap();
            assert_eq!(worker.pairs, 2);
            assert_eq!(worker.rng.next_u64(), expected.next_u64(), "shared noise {shared_noise}");
        }
    }

    /// Trains `text` with `config` in steps of `chunk` tokens on a rayon pool of
    /// `pool_threads`, returning every step's progress and the trainer.
    pub(super) fn train_on_pool(
        text: &str,
        config: TrainConfig,
        chunk: u64,
        pool_threads: usize,
    ) -> (Vec<Progress>, Trainer) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(pool_threads).build().unwrap();
        pool.install(|| {
            let mut trainer = Trainer::new(corpus(text), config, no_clock).unwrap();
            let mut seen = Vec::new();
            while !trainer.is_done() {
                seen.push(trainer.step(chunk).unwrap());
            }
            (seen, trainer)
        })
    }

    #[test]
    fn several_threads_walk_every_token_once_within_the_budget_and_learn() {
        // Sentences of 8 tokens: a step of 333 tokens ends at the last sentence end within it.
        for (threads, pool_threads, cbow) in [(2, 2, false), (3, 1, false), (4, 2, true), (7, 3, false)] {
            let config = TrainConfig { threads, cbow, ..small_config() };
            let (seen, trainer) = train_on_pool(&text(), config, 333, pool_threads);
            let mut previous = 0;
            for p in &seen {
                let walked = p.tokens_done - previous;
                assert!(
                    walked <= 333 && (walked % 8 == 0 || p.epoch_tokens_done == 1600),
                    "{threads}: {p:?}"
                );
                previous = p.tokens_done;
            }
            // 41 sentences a step (328 tokens): five steps an epoch, the fifth ends it.
            assert_eq!(seen.len(), 15, "{threads}");
            assert_eq!(seen[4].epoch_tokens_done, 1600);
            let last = seen.last().unwrap();
            assert!(last.done && last.tokens_done == last.tokens_total);
            assert!((last.alpha - config.min_alpha).abs() < 1e-7);
            // This text is too small to learn much in 3 epochs (one thread's losses go 3.86,
            // 3.78, 3.81); the planted sample's tests check that threads learn.
            let losses = trainer.epoch_losses();
            assert!(losses.len() == 3 && losses.iter().all(|&l| l > 1.0 && l < 4.2), "{threads}: {losses:?}");
            assert!(trainer.to_embeddings().is_ok());
        }
    }

    #[test]
    fn cbow_merges_its_threads_copies_sooner_than_skip_gram() {
        // CBOW moves an output row once a centre word, skip-gram once a pair: merged after
        // as many updates, CBOW's copies would cover about five times as much text.
        for (cbow, merge_after) in [(false, MERGE_AFTER), (true, MERGE_AFTER_CBOW)] {
            let config = TrainConfig { threads: 2, cbow, ..small_config() };
            let trainer = Trainer::new(corpus(&text()), config, no_clock).unwrap();
            assert!(trainer.replicas.iter().all(|r| r.merge_after() == merge_after), "cbow {cbow}");
        }
    }

    #[test]
    fn a_threaded_step_ends_with_every_change_in_the_shared_matrices() {
        // Each thread copies every output row of this small vocabulary, and most rows get
        // fewer than MERGE_AFTER updates in one step: only the merges at the ends of pieces
        // and of the step put them into the shared matrix, where outputs start at zero.
        let config = TrainConfig { threads: 2, ..small_config() };
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        pool.install(|| {
            let mut trainer = Trainer::new(corpus(&text()), config, no_clock).unwrap();
            let n_words = trainer.corpus().vocab().len();
            assert!(trainer.replicas.iter().all(|r| r.rows() == n_words));
            trainer.step(333).unwrap();
            assert!(trainer.replicas.iter().all(|r| !r.has_pending()));
            let moved = trainer.output.chunks(config.dim).filter(|row| row.iter().any(|&v| v != 0.0)).count();
            assert!(moved > n_words / 2, "{moved} of {n_words} output rows moved");
        });
    }

    #[test]
    fn several_threads_train_one_segment_when_the_budget_is_smaller() {
        let long_line: String = (0..25_000).map(|i| format!("w{} ", i % 50)).collect();
        let config = TrainConfig { dim: 8, epochs: 1, threads: 2, ..TrainConfig::default() };
        let (seen, _) = train_on_pool(&long_line, config, 4_000, 2);
        // Segments of 10,000, 10,000 and 5,000 tokens, one a step.
        let walked: Vec<u64> = seen.iter().map(|p| p.epoch_tokens_done).collect();
        assert_eq!(walked, [10_000, 20_000, 25_000]);
        // A budget of 0 trains nothing.
        let mut trainer =
            Trainer::new(corpus(&text()), TrainConfig { threads: 2, ..small_config() }, no_clock).unwrap();
        assert_eq!(trainer.step(0).unwrap().tokens_done, 0);
    }

    #[test]
    fn steps_respect_their_budget_and_stop_at_epoch_ends() {
        let (seen, trainer) = train(333);
        let epoch_tokens = trainer.corpus().n_tokens() as u64;
        assert_eq!(epoch_tokens, 1600);
        let mut previous = 0;
        for p in &seen {
            assert!(p.tokens_done - previous <= 333, "{p:?}");
            assert!(p.epoch_tokens_done <= epoch_tokens);
            previous = p.tokens_done;
        }
        // 1600 = 4 * 333 + 268: five steps per epoch, the last one stops at the epoch's end.
        assert_eq!(seen.len(), 15);
        assert_eq!(seen[4].epoch_tokens_done, epoch_tokens);
        assert_eq!(seen[4].epoch, 1);
        assert_eq!(seen[5].epoch, 2);
        let last = seen.last().unwrap();
        assert!(last.done);
        assert_eq!(last.tokens_done, last.tokens_total);
        assert_eq!(trainer.epoch_losses().len(), 3);
        assert_eq!(last.loss, trainer.epoch_losses()[2]);
        // Stepping after the end changes nothing.
        let mut trainer = trainer;
        assert_eq!(trainer.step(100).unwrap(), *last);
    }

    #[test]
    fn learning_rate_decays_linearly_and_loss_falls() {
        let (seen, trainer) = train(400);
        let c = small_config();
        assert!((seen[0].alpha - (c.alpha - (c.alpha - c.min_alpha) * 400.0 / 4800.0)).abs() < 1e-7);
        assert!((seen.last().unwrap().alpha - c.min_alpha).abs() < 1e-7);
        let losses = trainer.epoch_losses();
        assert!(losses[2] < losses[0], "{losses:?}");
        // The loss of an untrained pair with 5 noise words is 6 ln 2 ≈ 4.16; it must start near it.
        assert!(losses[0] > 1.0 && losses[0] < 4.2, "{losses:?}");
    }

    #[test]
    fn same_seed_same_vectors_other_seed_other_vectors() {
        let run = |seed| {
            let mut t =
                Trainer::new(corpus(&text()), TrainConfig { seed, ..small_config() }, no_clock).unwrap();
            while !t.is_done() {
                t.step(10_000).unwrap();
            }
            t.to_embeddings().unwrap()
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5), run(6));
    }

    #[test]
    fn long_sentences_are_segmented_and_fully_walked() {
        let long_line: String = (0..25_000).map(|i| format!("w{} ", i % 50)).collect();
        let config = TrainConfig { dim: 8, epochs: 1, ..TrainConfig::default() };
        let mut trainer = Trainer::new(corpus(&long_line), config, no_clock).unwrap();
        let mut steps = 0;
        while !trainer.is_done() {
            let p = trainer.step(4_000).unwrap();
            steps += 1;
            assert!(p.epoch_tokens_done <= 25_000);
        }
        assert_eq!(steps, 7);
        assert_eq!(trainer.progress().tokens_done, 25_000);
    }

    #[test]
    fn divergence_is_an_error_that_sticks() {
        for (threads, cbow) in [(1, false), (1, true), (2, false), (3, true)] {
            let config = TrainConfig {
                dim: 16,
                alpha: 10.0,
                min_alpha: 10.0,
                epochs: 50,
                sample: 0.0,
                threads,
                cbow,
                ..TrainConfig::default()
            };
            let mut trainer = Trainer::new(corpus(&text()), config, no_clock).unwrap();
            let err = loop {
                match trainer.step(1_000) {
                    Ok(p) => assert!(!p.done, "a learning rate of 10 should diverge"),
                    Err(err) => break err,
                }
            };
            assert!(matches!(err, Error::Diverged { .. }), "{threads} {cbow}: {err:?}");
            assert_eq!(trainer.step(10), Err(err));
        }
    }

    #[test]
    fn a_model_too_large_is_refused_before_its_vectors_exist() {
        // 30,000 distinct words at dim 4096 would take 1.8 GiB; the check comes first, so
        // the test allocates none of it.
        let text: String = (0..30_000).map(|i| format!("w{i} ")).collect();
        let config = TrainConfig { dim: 4096, ..small_config() };
        let err = Trainer::new(corpus(&text), config, no_clock).err().unwrap();
        assert!(matches!(err, Error::TooLarge { vocab_size: 30_000, dim: 4096, .. }), "{err:?}");
        assert!(err.to_string().contains("at most 24,526 words at dim 4096, or lower dim to 3347"), "{err}");
        // The limit can be lowered and raised.
        let small = corpus(&self::text());
        let needed = small_config().model_bytes(small.vocab().len(), small.n_tokens());
        let refused = Trainer::with_memory_limit(small.clone(), small_config(), no_clock, needed - 1);
        assert!(matches!(refused, Err(Error::TooLarge { .. })));
        assert!(Trainer::with_memory_limit(small, small_config(), no_clock, needed).is_ok());
    }

    #[test]
    fn tokens_per_second_uses_time_inside_step() {
        use std::sync::atomic::{AtomicU64, Ordering};
        static TICKS: AtomicU64 = AtomicU64::new(0);
        // Each clock read advances half a second, so each step takes 0.5 s.
        fn ticking() -> f64 {
            TICKS.fetch_add(1, Ordering::SeqCst) as f64 * 0.5
        }
        let mut trainer = Trainer::new(corpus(&text()), small_config(), ticking).unwrap();
        trainer.step(800).unwrap();
        let p = trainer.step(800).unwrap();
        assert_eq!(p.tokens_per_sec, 1600.0);
    }

    #[test]
    fn random_texts_and_parameters_train_or_fail_with_an_error() {
        use crate::map::Pca;
        use crate::text::{Tokenizer, WordTokenizer};
        use crate::vectors::AnalogyMethod;
        use rand::RngExt;

        let mut rng = Xoshiro256PlusPlus::seed_from_u64(47);
        let mut trained = 0;
        for case in 0..300 {
            let len = rng.random_range(0..400);
            let text = crate::fuzz::random_unicode(&mut rng, len);
            let word = WordTokenizer { lowercase: case % 2 == 0, keep_punctuation: case % 3 == 0 };
            let tokenizer: &dyn Tokenizer = if case % 4 == 0 { &WhitespaceTokenizer } else { &word };
            let vocab = VocabConfig { min_count: rng.random_range(1..3), max_vocab: None };
            let corpus = match Corpus::build(&text, tokenizer, &vocab) {
                Ok(corpus) => corpus,
                Err(err) => {
                    let expected = matches!(
                        err,
                        Error::EmptyCorpus
                            | Error::NoWords { .. }
                            | Error::SingleWord { .. }
                            | Error::EmptyVocabulary { .. }
                    );
                    assert!(expected, "{err:?}");
                    continue;
                }
            };
            let config = TrainConfig {
                dim: rng.random_range(1..20),
                window: rng.random_range(1..10),
                negative: rng.random_range(1..10),
                sample: [0.0, 1e-300, 1e-3, 1.0][rng.random_range(0..4)],
                alpha: [1e-6, 0.025, 1.0, 10.0][rng.random_range(0..4)],
                min_alpha: 0.0,
                epochs: rng.random_range(1..3),
                ns_exponent: [-10.0, 0.0, 0.75, 10.0][rng.random_range(0..4)],
                seed: rng.next_u64(),
                threads: [1, 1, 2, 3][rng.random_range(0..4)],
                cbow: rng.random_range(0..3) == 0,
                shared_noise: rng.random_range(0..2) == 0,
            };
            let mut trainer = match Trainer::new(corpus, config, no_clock) {
                Ok(trainer) => trainer,
                Err(err) => {
                    assert!(matches!(err, Error::NoContext { .. }), "{err:?}");
                    continue;
                }
            };
            let finished = loop {
                match trainer.step(rng.random_range(1..50)) {
                    Ok(progress) if progress.done => break true,
                    Ok(_) => {}
                    Err(err) => {
                        assert!(matches!(err, Error::Diverged { .. }), "{err:?}");
                        break false;
                    }
                }
            };
            if !finished {
                continue;
            }
            trained += 1;
            let emb = trainer.to_embeddings().unwrap();
            let words = emb.words().to_vec();
            let _ = emb.neighbours(&words[0], 3, None).unwrap();
            let _ =
                emb.analogy(&words[0], &words[1], &words[words.len() - 1], 2, AnalogyMethod::CosMul, Some(2));
            if let Ok(pca) = Pca::fit(&emb, None, config.dim.min(2)) {
                assert!(pca.project_words(&emb, emb.len()).iter().all(|x| x.is_finite()));
            }
        }
        assert!(trained > 50, "{trained}");
    }

    #[test]
    fn a_panic_in_a_training_thread_reaches_the_caller_with_its_message() {
        // Natively rayon's scope waits for the other threads' jobs, then hands the panic to
        // the caller, so the CLI prints it and exits non-zero; the browser's pool cannot
        // unwind (panic=abort) and ends the worker instead (src/wasm/pool.rs).
        for pool_threads in [1, 2] {
            let config = TrainConfig { threads: 2, ..small_config() };
            let pool = rayon::ThreadPoolBuilder::new().num_threads(pool_threads).build().unwrap();
            let mut trainer = Trainer::new(corpus(&text()), config, no_clock).unwrap();
            trainer.panic_in_thread_for_test(1);
            let caught = pool.install(|| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| trainer.step(1_000_000)))
            });
            let payload = caught.expect_err("the step panics");
            let message = payload.downcast_ref::<String>().map(String::as_str).unwrap_or("");
            assert!(message.contains("deliberate panic in training thread 1"), "{message:?}");
        }
    }
}
