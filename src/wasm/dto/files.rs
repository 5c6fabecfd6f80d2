//! Files: how a text file was read ([`TextInfo`]) and what a vectors file held
//! ([`VectorsInfo`]).

use serde::Serialize;
use tsify::Tsify;

use crate::Embeddings;
use crate::lm::ModelInfo;
use crate::session::TextRead;
use crate::text::count_holding_whitespace;

/// How a text file was read (the session's [`TextRead`]): its size and encoding, a note for the page when it was not
/// plain UTF-8 (UTF-16, Latin-1, characters replaced) or when only its text was kept, and
/// `markup`, what `Markup::describe` says when the text is XML or HTML.
#[derive(Debug, Clone, Default, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TextInfo {
    pub bytes: usize,
    pub encoding: &'static str,
    pub replaced: usize,
    pub note: Option<String>,
    pub markup: Option<String>,
}

impl From<&TextRead> for TextInfo {
    fn from(read: &TextRead) -> TextInfo {
        let TextRead { bytes, encoding, replaced, note, markup } = read.clone();
        TextInfo { bytes, encoding, replaced, note, markup }
    }
}

/// What a vectors file held.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct VectorsInfo {
    /// e.g. "word2vec text", "GloVe", "embedscope bundle".
    pub format: &'static str,
    pub words: usize,
    pub dim: usize,
    pub bytes: f64,
    /// Whether the file gave word counts (a bundle does).
    pub counts: bool,
    /// The run fingerprint a bundle holds.
    pub fingerprint: Option<String>,
    /// How many words hold whitespace (see `text::count_holding_whitespace`).
    pub tokens_with_whitespace: usize,
    /// What the person should know of how the file was read (words not in UTF-8), or null.
    pub note: Option<String>,
}

impl VectorsInfo {
    pub fn new(
        format: &'static str,
        emb: &Embeddings,
        bytes: f64,
        counts: bool,
        fingerprint: Option<String>,
    ) -> VectorsInfo {
        VectorsInfo {
            format,
            words: emb.len(),
            dim: emb.dim(),
            bytes,
            counts,
            fingerprint,
            tokens_with_whitespace: count_holding_whitespace(emb.words()),
            note: None,
        }
    }
}

/// What a language model's embedding matrix is (`lm::ModelInfo`), for the page's Matrix card.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct ModelInfoDto {
    pub file: String,
    /// "safetensors" or "GGUF".
    pub format: &'static str,
    pub tensor: String,
    pub dtype: &'static str,
    pub rows: usize,
    pub cols: usize,
    pub parameters: f64,
    /// The matrix's parameters and their share of the file's, as a sentence's end.
    pub share: String,
    pub tensor_bytes: f64,
    pub file_bytes: f64,
    /// Where the tokens' names come from, or null when rows are named by id.
    pub tokenizer: Option<String>,
    /// Special, control and unused tokens: the last rows, kept off the map.
    pub special: usize,
    /// "f32", "f16" or "bf16": how the rows are kept in memory, and the bytes they take.
    pub kept: &'static str,
    pub memory_bytes: f64,
    pub metadata: Vec<(String, String)>,
}

impl ModelInfoDto {
    pub fn new(info: &ModelInfo) -> ModelInfoDto {
        ModelInfoDto {
            file: info.file.clone(),
            format: info.format.name(),
            tensor: info.tensor.clone(),
            dtype: info.dtype,
            rows: info.rows,
            cols: info.cols,
            parameters: info.parameters() as f64,
            share: info.share(),
            tensor_bytes: info.tensor_bytes as f64,
            file_bytes: info.file_bytes as f64,
            tokenizer: info.tokenizer.clone(),
            special: info.special,
            kept: info.kept.name(),
            memory_bytes: info.memory_bytes as f64,
            metadata: info.metadata.clone(),
        }
    }
}

/// A 2-D tensor of a model file, offered when none has a name models give their token
/// embeddings.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TensorDto {
    pub name: String,
    pub rows: f64,
    pub cols: f64,
    pub dtype: String,
}

/// Where the matrix lies in the model file: the bytes the worker reads, a slice at a time.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct MatrixRangeDto {
    pub offset: f64,
    pub length: f64,
    pub info: ModelInfoDto,
}

/// A column of a Parquet table that may hold the words or the vectors, to choose from.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TableColumnDto {
    pub name: String,
    /// `string`, `list<float>` or `list<double>`.
    pub kind: String,
}

/// The candidate columns of a Parquet table whose words and vectors are not settled by
/// itself (several string or list-of-float columns, none named as Spark names them).
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TableColumnsDto {
    pub words: Vec<TableColumnDto>,
    pub vectors: Vec<TableColumnDto>,
}
