//! Training parameters, with word2vec.c / gensim defaults, validated once, and the
//! memory a model will take, checked before anything is allocated.

use crate::error::{Error, Result};
use crate::params::spec;

/// The most memory a model may take by [`TrainConfig::model_bytes`]'s estimate: 1.5 GiB.
/// A wasm32 instance has 4 GiB of memory in all, which must also hold the text, the
/// tokenizer's tables, and room for growing vectors (a `Vec` that grows copies itself).
/// [`Trainer::new`] refuses a larger model; [`Trainer::with_memory_limit`] takes another
/// limit (the native command line has more room).
///
/// [`Trainer::new`]: super::Trainer::new
/// [`Trainer::with_memory_limit`]: super::Trainer::with_memory_limit
pub const MAX_MODEL_BYTES: u64 = 3 << 29;

/// Bytes per vocabulary word besides its vectors, roughly: its string and its id-table entry
/// (one `Words` table, shared by the vocabulary and the query vectors), its count, keep
/// probability and noise-table entry.
const BYTES_PER_WORD: u64 = 128;

/// Bytes of each word's vectors per dimension: four `f32` copies (the trainer's input and
/// output matrices, and the query snapshot's raw and unit-normalised vectors).
const BYTES_PER_WORD_DIM: u64 = 4 * 4;

/// Bytes per token of the corpus: its `u32` id.
const BYTES_PER_TOKEN: u64 = 4;

/// The most threads [`TrainConfig::validate`] accepts.
pub const MAX_THREADS: usize = match spec::THREADS.max {
    Some(max) => max as usize,
    None => usize::MAX,
};

/// Parameters of word2vec with negative sampling: skip-gram (the default) or CBOW.
/// Defaults follow word2vec.c and gensim; [`TrainConfig::cbow_default`] gives CBOW's.
/// The defaults and ranges are those of the parameters' table, [`crate::params::spec`].
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
    /// Seed of every random choice: with `threads == 1`, the same text, parameters and seed
    /// give the same vectors.
    pub seed: u64,
    /// Threads that train at once, lock-free (Hogwild), each on its own range of sentences
    /// (1..=256; default 1). With more than one, runs are not bit-reproducible: threads race
    /// on shared vectors.
    pub threads: usize,
    /// Continuous bag of words instead of skip-gram: the mean of a window's input vectors
    /// predicts its centre word (word2vec.c's `-cbow 1`, gensim's `cbow_mean=1`; default false).
    /// Its usual learning rate is 0.05: see [`TrainConfig::cbow_default`].
    pub cbow: bool,
    /// Skip-gram: one draw of noise words per window, shared by all its context words,
    /// instead of one draw per (context, centre) pair (default false: word2vec.c's and
    /// gensim's sampling). The idea of Ji et al. 2016 (pWord2Vec), applied pair by pair:
    /// each output row of a window's noise words stays in cache across its pairs, so
    /// training takes about 0.85x the time, at the same top-10 agreement with gensim's
    /// neighbours. CBOW already draws once a window: no change there.
    pub shared_noise: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            dim: spec::DIM.default as usize,
            window: spec::WINDOW.default as usize,
            negative: spec::NEGATIVE.default as usize,
            sample: spec::SAMPLE.default,
            alpha: spec::DEFAULT_ALPHA.skipgram as f32,
            min_alpha: spec::MIN_ALPHA.default as f32,
            epochs: spec::EPOCHS.default as u32,
            ns_exponent: spec::NS_EXPONENT.default,
            seed: spec::SEED.default as u64,
            threads: spec::THREADS.default as usize,
            cbow: false,
            shared_noise: false,
        }
    }
}

impl TrainConfig {
    /// The initial learning rate word2vec.c and gensim use for CBOW.
    pub const CBOW_ALPHA: f32 = spec::DEFAULT_ALPHA.cbow as f32;

    /// The defaults for CBOW: [`TrainConfig::default`] with `cbow` set and the learning rate
    /// at [`TrainConfig::CBOW_ALPHA`] (word2vec.c's rule: 0.05 for CBOW, 0.025 for
    /// skip-gram, unless the user gives one).
    pub fn cbow_default() -> TrainConfig {
        TrainConfig { cbow: true, alpha: TrainConfig::CBOW_ALPHA, ..TrainConfig::default() }
    }

    /// The default learning rate for the model kind asked for: 0.05 for CBOW, else 0.025.
    pub fn default_alpha(cbow: bool) -> f32 {
        if cbow { TrainConfig::CBOW_ALPHA } else { TrainConfig::default().alpha }
    }

    /// Checks every field, naming the first bad one and its valid range.
    pub fn validate(&self) -> Result<()> {
        spec::DIM.check_whole("dim", self.dim as u64, "")?;
        spec::WINDOW.check_whole("window", self.window as u64, "")?;
        spec::NEGATIVE.check_whole("negative", self.negative as u64, "")?;
        spec::EPOCHS.check_whole("epochs", self.epochs as u64, "")?;
        spec::THREADS.check_whole("threads", self.threads as u64, "")?;
        spec::SAMPLE.check("sample", self.sample, " (0 disables subsampling)")?;
        let alpha = self.alpha as f64;
        spec::ALPHA.check("alpha", alpha, "")?;
        // The final rate is also at most the initial one, which the table cannot say.
        let min_alpha = self.min_alpha as f64;
        if !(spec::MIN_ALPHA.contains(min_alpha) && min_alpha <= alpha) {
            return Err(Error::InvalidParameter {
                name: "min_alpha",
                value: min_alpha.to_string(),
                expected: format!("a number from {} to alpha", spec::MIN_ALPHA.min),
            });
        }
        spec::NS_EXPONENT.check("ns_exponent", self.ns_exponent, "")?;
        Ok(())
    }

    /// Estimated memory of a model of `vocab_size` words over a corpus of `n_tokens` tokens
    /// at this `dim`: four `f32` copies of every vector (the trainer's input and output
    /// matrices, and the raw and unit-normalised vectors the app copies out for queries),
    /// about 128 bytes per word for its string and tables, 4 bytes per token, and on several
    /// threads each thread's copy of the frequent words' output rows (at most
    /// 16 MiB a thread, `REPLICA_BYTES` in `train::replica`). The text itself is not counted.
    pub fn model_bytes(&self, vocab_size: usize, n_tokens: usize) -> u64 {
        let per_word = BYTES_PER_WORD_DIM * self.dim as u64 + BYTES_PER_WORD;
        let tokens = (n_tokens as u64).saturating_mul(BYTES_PER_TOKEN);
        (vocab_size as u64)
            .saturating_mul(per_word)
            .saturating_add(tokens)
            .saturating_add(self.replica_bytes(vocab_size))
    }

    /// Bytes of every thread's copy of the frequent output rows (none on one thread).
    fn replica_bytes(&self, vocab_size: usize) -> u64 {
        if self.threads <= 1 {
            return 0;
        }
        let rows = super::replica::replicated_rows(vocab_size, self.dim) as u64;
        let per_row = 2 * 4 * self.dim as u64 + 2;
        (self.threads as u64).saturating_mul(rows * per_row)
    }

    /// Checks that [`TrainConfig::model_bytes`] stays within `limit_bytes`; the arithmetic
    /// only, so it can run before anything is allocated.
    ///
    /// Fails with [`Error::TooLarge`], which says how many words fit at this `dim` and
    /// which `dim` fits this vocabulary.
    pub fn check_model_size(&self, vocab_size: usize, n_tokens: usize, limit_bytes: u64) -> Result<()> {
        let estimate_bytes = self.model_bytes(vocab_size, n_tokens);
        if estimate_bytes <= limit_bytes {
            return Ok(());
        }
        let fixed =
            (n_tokens as u64).saturating_mul(BYTES_PER_TOKEN).saturating_add(self.replica_bytes(vocab_size));
        let room = limit_bytes.saturating_sub(fixed);
        let max_words = room / (BYTES_PER_WORD_DIM * self.dim as u64 + BYTES_PER_WORD);
        let per_word = room / vocab_size.max(1) as u64;
        let max_dim = (per_word.saturating_sub(BYTES_PER_WORD) / BYTES_PER_WORD_DIM).min(MAX_DIM);
        Err(Error::TooLarge {
            vocab_size,
            dim: self.dim,
            estimate_bytes,
            limit_bytes,
            max_words: usize::try_from(max_words).unwrap_or(usize::MAX),
            max_dim: max_dim as usize,
        })
    }
}

/// The largest `dim` accepted.
const MAX_DIM: u64 = match spec::DIM.max {
    Some(max) => max as u64,
    None => u64::MAX,
};

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
            (TrainConfig { threads: 0, ..d }, "threads"),
            (TrainConfig { threads: 257, ..d }, "threads"),
        ];
        for (config, name) in cases {
            match config.validate() {
                Err(Error::InvalidParameter { name: got, .. }) => assert_eq!(got, name),
                other => panic!("{name}: expected an error, got {other:?}"),
            }
        }
        let message = TrainConfig { window: 0, ..d }.validate().unwrap_err().to_string();
        assert_eq!(message, "invalid window = 0: expected an integer from 1 to 100");
        let message = TrainConfig { threads: 0, ..d }.validate().unwrap_err().to_string();
        assert_eq!(message, "invalid threads = 0: expected an integer from 1 to 256");
        assert_eq!(TrainConfig { threads: 256, ..d }.validate(), Ok(()));
    }

    #[test]
    fn cbow_defaults_differ_only_in_kind_and_learning_rate() {
        let cbow = TrainConfig::cbow_default();
        assert_eq!(cbow.validate(), Ok(()));
        assert_eq!((cbow.cbow, cbow.alpha), (true, 0.05));
        assert_eq!(TrainConfig { cbow: false, alpha: 0.025, ..cbow }, TrainConfig::default());
        assert_eq!((TrainConfig::default_alpha(true), TrainConfig::default_alpha(false)), (0.05, 0.025));
    }

    #[test]
    fn model_size_is_estimated_and_checked_without_allocating() {
        let config = TrainConfig { dim: 300, ..TrainConfig::default() };
        // 1,000 words × (16 × 300 + 128) bytes + 10,000 tokens × 4 bytes.
        assert_eq!(config.model_bytes(1_000, 10_000), 4_968_000);
        assert_eq!(config.check_model_size(1_000, 10_000, 4_968_000), Ok(()));

        // Ten million words at dim 300 (a 49 GB model) are refused by arithmetic alone.
        let (vocab_size, n_tokens) = (10_000_000, 100_000_000);
        let err = config.check_model_size(vocab_size, n_tokens, MAX_MODEL_BYTES).unwrap_err();
        // Room for words: 1.5 GiB less 400 MB of tokens = 1,210,612,736 bytes; 4,928 bytes
        // per word at dim 300 and 121 bytes per word at dim 0.
        let expected = Error::TooLarge {
            vocab_size,
            dim: 300,
            estimate_bytes: 49_680_000_000,
            limit_bytes: MAX_MODEL_BYTES,
            max_words: 245_660,
            max_dim: 0,
        };
        assert_eq!(err, expected);
        assert_eq!(
            err.to_string(),
            "the model is too large: 10,000,000 words at dim 300 need about 46.3 GiB (the vectors, their \
             copies for queries and the text's tokens), over the limit of 1.5 GiB; raise min_count or set \
             max_vocab to keep at most 245,660 words at dim 300"
        );
        let err = config.check_model_size(400_000, 0, MAX_MODEL_BYTES).unwrap_err();
        let Error::TooLarge { max_words, max_dim, .. } = err else { panic!("{err:?}") };
        assert_eq!((max_words, max_dim), (326_828, 243));
        assert!(err.to_string().ends_with("at most 326,828 words at dim 300, or lower dim to 243"), "{err}");
        // The numbers given are the largest that fit.
        let at_dim = |dim| TrainConfig { dim, ..config };
        assert_eq!(config.check_model_size(max_words, 0, MAX_MODEL_BYTES), Ok(()));
        assert!(config.check_model_size(max_words + 1, 0, MAX_MODEL_BYTES).is_err());
        assert_eq!(at_dim(max_dim).check_model_size(400_000, 0, MAX_MODEL_BYTES), Ok(()));
        assert!(at_dim(max_dim + 1).check_model_size(400_000, 0, MAX_MODEL_BYTES).is_err());
        // A text whose tokens alone exceed the limit.
        let err = config.check_model_size(5, 500_000_000, MAX_MODEL_BYTES).unwrap_err();
        assert!(err.to_string().ends_with("the text is too long: use a shorter text"), "{err}");
        assert!(config.model_bytes(usize::MAX, usize::MAX) == u64::MAX);

        // On several threads each thread's copy of the frequent output rows counts too, and
        // the numbers given still fit.
        let threaded = TrainConfig { threads: 4, ..config };
        assert_eq!(threaded.model_bytes(1_000, 10_000), 4_968_000 + 4 * 1_000 * (8 * 300 + 2));
        let rows = super::super::replica::replicated_rows(400_000, 300) as u64;
        assert_eq!(
            threaded.model_bytes(400_000, 0) - config.model_bytes(400_000, 0),
            4 * rows * (8 * 300 + 2)
        );
        let err = threaded.check_model_size(400_000, 0, MAX_MODEL_BYTES).unwrap_err();
        let Error::TooLarge { max_words, max_dim, .. } = err else { panic!("{err:?}") };
        assert!(max_words < 326_828 && max_dim < 243, "{err}");
        assert_eq!(threaded.check_model_size(max_words, 0, MAX_MODEL_BYTES), Ok(()));
        let at_dim = TrainConfig { dim: max_dim, ..threaded };
        assert_eq!(at_dim.check_model_size(400_000, 0, MAX_MODEL_BYTES), Ok(()));
    }
}
