//! embedscope: learn word embeddings with Skip-Gram with Negative Sampling and look at them.
//!
//! # Brief overview
//!
//! Data flows one way, from text to pictures, through rooms named by their concept:
//!
//! 1. **Text to tokens** ([`text`]): a file's bytes are decoded (or refused as not text); a
//!    tokenizer splits the text into sentences of tokens; a vocabulary counts them, cuts the
//!    rare ones and reports what it cut.
//! 2. **Training** ([`train`]): a chunked SGNS trainer (Mikolov et al. 2013) that advances
//!    by at most N tokens per call, so a Web Worker or a CLI can report, pause and cancel.
//! 3. **Vectors** ([`vectors`]): the [`Embeddings`] store and its queries (neighbours,
//!    similarity, analogies).
//! 4. **Benchmarks** ([`eval`]): analogy questions and word-pair similarity, scored as
//!    gensim scores them.
//! 5. **The map** ([`map`]): PCA and word axes, k-means colours, t-SNE and UMAP layouts that
//!    step and warm-start, and the training timeline.
//! 6. **Files** ([`io`]): vector files (word2vec text and binary, GloVe, Projector TSV, read
//!    by one push parser), the bundle (one JSON file that holds a whole run and re-opens
//!    exactly) and the strict JSON it is written in.
//! 7. **Language models** ([`lm`]): the token-embedding matrix of a safetensors or GGUF
//!    file, read as a slice, with the tokenizer that names its rows.
//! 8. **Drawing** ([`plot`]): the map's geometry (data to pixels, hit testing, label
//!    placement), its marks as a list of shapes, their pixels and their SVG: plain Rust,
//!    which the wasm `Chart` paints on a canvas.
//!
//! [`params`] says once how a run was asked for (the tokenizer by name, the bundle's
//! parameter names); [`planted`] writes the built-in sample corpus (planted structure and its analogies).
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

pub mod eval;
pub mod io;
pub mod lm;
pub mod map;
pub mod params;
pub mod planted;
pub mod plot;
pub mod session;
pub mod text;
pub mod train;
pub mod vectors;

pub use error::{Error, MessagePart, Result, UnknownWord, unknown_words_message};
pub use fingerprint::fingerprint;
pub use vectors::Embeddings;

#[cfg(target_arch = "wasm32")]
mod wasm;
/// The worker's handle, public so the wasm tests (`tests/wasm_session.rs`) can drive it.
#[cfg(target_arch = "wasm32")]
pub use wasm::Session;
