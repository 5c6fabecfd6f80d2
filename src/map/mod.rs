//! Pictures of the vectors: where the words go on the explorer's map, and how the map changed
//! while it was learned.
//!
//! - [`Pca`] (`pca/`): principal components of word vectors, exactly or by block Krylov
//!   iteration, for the map's axes.
//! - [`Projection`] (`projection.rs`): one frame of the map as a [`MapSpec`] asks for it,
//!   on principal components or on word axes (the direction from one word to another),
//!   aligned to the previous frame by [`procrustes_2d`] (`align.rs`) and coloured by
//!   spherical k-means ([`KMeans`], `kmeans.rs`).
//! - [`layout`]: t-SNE and UMAP, iterative maps that keep neighbourhoods, stepped in slices
//!   and warm-started from the previous frame; [`Pacer`] (`pace.rs`) sizes those slices by
//!   the clock.
//! - [`projected_shift`] and [`NeighbourPlacement`] (`movement.rs`): how far rows that
//!   training moved go on the map, exactly on a projection, estimated on t-SNE and UMAP.
//! - [`Timeline`] (`timeline.rs`): a run's frames and each epoch's nearest neighbours, for
//!   replaying a finished run.
//!
//! **Architecture Invariant:** every picture depends only on the vectors, the words, the
//! parameters and the seed (never on how its work was sliced), so native and wasm32 builds
//! draw the same map.

mod align;
mod kmeans;
pub mod layout;
mod movement;
mod pace;
mod pca;
mod projection;
mod timeline;

pub use align::{IDENTITY, Transform2, align_signs, apply_2d, procrustes_2d};
pub use kmeans::{KMeans, MAX_CLUSTERS};
pub use movement::{
    ESTIMATE_NEIGHBOURS, ESTIMATE_PERPLEXITY, NeighbourPlacement, arrow_scale, projected_shift,
};
pub use pace::{Pacer, Piece, SliceReport};
pub use pca::{Pca, PcaBuilder};
pub use projection::{Axis, KMEANS_WORK_PER_FRAME, MAX_COMPONENTS, MapSpec, Projection, frame_clusters};
pub use timeline::{
    EPOCH_RECORDS, EpochNeighbours, NEIGHBOUR_K, NEIGHBOUR_WORDS, NeighbourHistory, Timeline, TimelineFrame,
};
