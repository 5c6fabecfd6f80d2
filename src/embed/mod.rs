//! Using learned vectors: the `Embeddings` store, queries, PCA and file formats.

mod align;
mod io;
mod pca;
mod query;
mod vectors;

pub use align::{IDENTITY, Transform2, apply_2d, procrustes_2d};
pub use io::{
    escape_token, read_word2vec_binary, read_word2vec_text, unescape_token, write_projector_tsv,
    write_word2vec_binary, write_word2vec_text,
};
pub use pca::Pca;
pub use query::{AnalogyMethod, Neighbour};
pub use vectors::Embeddings;
