//! embedscope: learn word embeddings with Skip-Gram with Negative Sampling and look at them.
//!
//! # Brief overview
//!
//! Data flows one way through three concepts:
//!
//! 1. **Text to tokens** (`text`): a file's bytes are decoded (or refused as not text); a
//!    tokenizer splits the text into sentences of tokens; a vocabulary counts them, cuts the
//!    rare ones and reports what it cut.
//! 2. **Training** (`train`): a chunked SGNS trainer (Mikolov et al. 2013) that advances
//!    by at most N tokens per call, so a Web Worker or a CLI can report, pause and cancel.
//! 3. **Using the vectors** (`embed`): neighbours, analogies, analogy and similarity
//!    benchmarks, PCA and the t-SNE and UMAP maps that step and warm-start, vector files
//!    (word2vec text and binary, GloVe, Projector TSV, read by one push parser), and the
//!    bundle, one JSON file that holds a whole run and re-opens exactly.
//!
//! `json` is serde_json as the core's files need it: strict (no key twice, nesting capped),
//! errors in a person's words at a line and column, floats in their shortest form;
//! `params` says once how a run was asked for (the tokenizer by name, the bundle's parameter names).
//!
//! No input makes the core panic: bad files and values come back as an [`Error`] whose
//! message says what to do, and seeded fuzz tests (random and mutated inputs, next to each
//! reader) hold it to that.
//!
//! The core is plain Rust and never touches the web: only the `wasm` module (compiled for
//! `wasm32` alone) imports `wasm_bindgen` and friends.

mod error;
mod fingerprint;
#[cfg(test)]
mod fuzz;
mod linalg;

pub mod sample;
pub mod text;
pub mod train;

pub mod embed;
pub mod json;
pub mod params;

pub use embed::Embeddings;
pub use error::{Error, Result};
pub use fingerprint::fingerprint;

#[cfg(target_arch = "wasm32")]
mod wasm;
// The plot geometry and marks are plain Rust; compiling them natively under test lets
// `cargo test` run their unit tests, which the wasm32-only `wasm` module would otherwise
// keep from running.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod wasm {
    mod layout;
    mod raster;
    // Its colours and sizes for the frame are used only by the wasm `plot`.
    #[allow(dead_code)]
    mod scene;
}
/// The worker's handle, public so the wasm tests (`tests/wasm_session.rs`) can drive it.
#[cfg(target_arch = "wasm32")]
pub use wasm::Session;
