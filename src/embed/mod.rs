//! Using learned vectors: the `Embeddings` store, queries, benchmarks, maps (PCA, word axes,
//! k-means colours, t-SNE and UMAP) and file formats (word2vec,
//! GloVe, Projector TSV, and the bundle that holds a whole run).

mod align;
mod bundle;
mod eval;
mod io;
mod kmeans;
mod layout;
mod pca;
mod projection;
mod query;
mod timeline;
mod vectors;

pub use align::{IDENTITY, Transform2, align_signs, apply_2d, procrustes_2d};
pub use bundle::{BUNDLE_VERSION, Bundle, BundleRef, read_bundle, write_bundle};
pub use eval::{
    AnalogyEvaluator, AnalogyOptions, AnalogyQuestion, AnalogyReport, AnalogySet, AnsweredQuestion,
    EvalProgress, GENSIM_RESTRICT, NO_SECTION, PairDisagreement, SectionScore, SimilarityOptions,
    SimilarityPair, SimilarityReport, SimilaritySet, evaluate_analogies, evaluate_similarity,
};
pub use io::{
    VectorFormat, VectorsParser, escape_token, read_projector_tsv, read_vectors, read_word2vec_binary,
    read_word2vec_text, unescape_token, write_glove, write_projector_metadata, write_projector_tsv,
    write_projector_vectors, write_word2vec_binary, write_word2vec_text,
};
pub use kmeans::{KMeans, MAX_CLUSTERS};
pub use layout::{
    EARLY_ITERATIONS, Knn, Layout, LayoutBuilder, LayoutParams, LayoutPhase, LayoutProgress, Tsne,
    TsneParams, UMAP_LARGE, Umap, UmapParams, neighbour_preservation,
};
pub use pca::{Pca, PcaBuilder};
pub use projection::{Axis, KMEANS_WORK_PER_FRAME, MAX_COMPONENTS, Projection, ViewSpec, frame_clusters};
pub use query::{AnalogyMethod, Neighbour};
pub use timeline::{
    EPOCH_RECORDS, EpochNeighbours, NEIGHBOUR_K, NEIGHBOUR_WORDS, NeighbourHistory, Timeline, TimelineFrame,
};
pub use vectors::Embeddings;
