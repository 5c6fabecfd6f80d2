//! Training: word2vec with negative sampling (Mikolov et al. 2013), skip-gram or CBOW, a
//! chunk at a time, on one thread or several (Hogwild, Recht et al. 2011).
//!
//! `config` holds the parameters, `noise` the noise distribution, `sgns` one gradient
//! step, `hogwild` the one type through which threads share the vectors, and `trainer` the
//! driver that walks the corpus and owns the learning-rate schedule; `sampling` says what
//! subsampling and the noise distribution do to each word, for the page.

mod config;
mod hogwild;
mod noise;
mod replica;
mod sampling;
mod sgns;
mod trainer;
mod worker;

pub use config::{MAX_MODEL_BYTES, MAX_THREADS, TrainConfig};
pub use noise::{AliasTable, unigram_probabilities};
pub use sampling::{Partner, WordSampling, ZipfCurve, window_partners, word_sampling, zipf_curve};
pub use sgns::{Logistic, PairLoss, Scratch, sgns_update};
pub use trainer::{Clock, LossTerms, MAX_SEGMENT, Progress, Trainer, UpdateReport};
