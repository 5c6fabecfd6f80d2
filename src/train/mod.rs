//! Training: Skip-Gram with Negative Sampling (Mikolov et al. 2013), a chunk at a time.
//!
//! `config` holds the parameters, `sampler` the noise distribution, `sgns` one gradient
//! step, and `trainer` the driver that walks the corpus and owns the learning-rate schedule.

mod config;
mod sampler;
mod sgns;
mod trainer;

pub use config::{MAX_MODEL_BYTES, TrainConfig};
pub use sampler::AliasTable;
pub use sgns::{Logistic, Scratch, sgns_update};
pub use trainer::{Clock, MAX_SEGMENT, Progress, Trainer};
