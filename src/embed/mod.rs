//! Using learned vectors: the `Embeddings` store, queries, benchmarks, PCA and file formats (word2vec,
//! GloVe, Projector TSV, and the bundle that holds a whole run).

mod align;
mod bundle;
mod eval;
mod io;
mod layout;
mod pca;
mod query;
mod vectors;

pub use align::{IDENTITY, Transform2, apply_2d, procrustes_2d};
pub use bundle::{BUNDLE_VERSION, Bundle, BundleRef, read_bundle, write_bundle};
pub use eval::{
    AnalogyEvaluator, AnalogyOptions, AnalogyQuestion, AnalogyReport, AnalogySet, AnsweredQuestion,
    EvalProgress, NO_SECTION, PairDisagreement, SectionScore, SimilarityOptions, SimilarityPair,
    SimilarityReport, SimilaritySet, evaluate_analogies, evaluate_similarity,
};
pub use io::{
    VectorFormat, VectorsParser, escape_token, read_projector_tsv, read_vectors, read_word2vec_binary,
    read_word2vec_text, unescape_token, write_glove, write_projector_metadata, write_projector_tsv,
    write_projector_vectors, write_word2vec_binary, write_word2vec_text,
};
pub use layout::{Knn, Layout, LayoutProgress, Tsne, TsneParams, Umap, UmapParams, neighbour_preservation};
pub use pca::Pca;
pub use query::{AnalogyMethod, Neighbour};
pub use vectors::Embeddings;
