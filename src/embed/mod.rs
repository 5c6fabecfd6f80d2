//! Using learned vectors: the `Embeddings` store, queries, PCA and file formats.

mod vectors;

pub use vectors::Embeddings;
