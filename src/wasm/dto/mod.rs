//! The shapes that cross the wasm boundary. Serialisable types live here, at the edge, never
//! in the core.
//!
//! Each derives `Tsify`, which writes its TypeScript declaration into the wasm glue's `.d.ts`
//! (www/pkg/embedscope.d.ts); the `@typedef`s of www/protocol.js import those, so `tsc` fails
//! when the page reads a field a DTO lacks. `#[tsify(missing_as_null)]` marks the DTOs
//! serialised with `serialize_missing_as_null` (a `None` is null there, undefined elsewhere);
//! `#[tsify(type = ...)]` narrows a `&'static str` to the words it can hold.
//!
//! One file per topic, as the session's rooms: `training`, `files`, `queries`, `maps`,
//! `matrix`, `sampling`, `evaluation`.

mod evaluation;
mod files;
mod maps;
mod matrix;
mod queries;
mod sampling;
mod training;

pub use evaluation::{EvalProgressDto, analogy_report_dto, similarity_report_dto};
pub use files::{
    MatrixRangeDto, ModelInfoDto, OpenOptionsDto, OpenPlanDto, TableColumnDto, TableColumnsDto, TensorDto,
    TextInfo, VectorsInfo, file_head_from_js, file_head_to_js, format_id,
};
pub use maps::{AxesDto, LayoutFrameDto, LayoutProgressDto, MapSpecDto, ProjectionDto, StepMovesDto};
pub use matrix::MatrixBandDto;
pub use queries::{
    AnalogyDto, MergeDto, MessagePartDto, NeighbourDto, RankedWordDto, TokenInfoDto, VocabMatchesDto,
};
pub use sampling::{PartnerDto, WordSamplingDto, ZipfDto};
pub use training::{BpeProgressDto, CorpusStats, ProgressDto, StepUpdatesDto, UpdateDto};
