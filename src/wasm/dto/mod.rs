//! The shapes that cross the wasm boundary, mirrored by the `@typedef`s of `www/protocol.js`.
//! Serialisable types live here, at the edge, never in the core.
//!
//! One file per topic, as the session's rooms: `training`, `files`, `queries`, `maps`,
//! `evaluation`.

mod evaluation;
mod files;
mod maps;
mod queries;
mod training;

pub use evaluation::{EvalProgressDto, analogy_report_dto, similarity_report_dto};
pub use files::{TextInfo, VectorsInfo};
pub use maps::{AxesDto, LayoutFrameDto, LayoutProgressDto, ProjectionDto, ViewDto};
pub use queries::{AnalogyDto, MergeDto, NeighbourDto, TokenInfoDto};
pub use training::{BpeProgressDto, CorpusStats, Params, ProgressDto};
