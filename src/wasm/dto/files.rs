//! Files: how a text file was read ([`TextInfo`]), what a vectors file held
//! ([`VectorsInfo`]), and what dropped files are and how to open them ([`OpenPlanDto`], from
//! their heads, [`file_head_to_js`] and [`file_head_from_js`]).

use js_sys::{Array, Reflect, Uint8Array};
use serde::{Deserialize, Serialize};
use tsify::Tsify;
use wasm_bindgen::{JsCast, JsError, JsValue};

use crate::Embeddings;
use crate::io::open::{Companion, FileHead, OpenOptions, OpenPlan};
use crate::io::{Compression, VectorFormat};
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

/// What the files dropped together are and how to open them (`io::open::OpenPlan`): the
/// numbers index the files as given.
#[derive(Debug, Serialize, Tsify)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[tsify(missing_as_null)]
pub enum OpenPlanDto {
    /// A text to train on.
    Text {
        file: usize,
    },
    /// Vectors in `format` (the id `load_begin` takes), a Projector `vectors.tsv` with its
    /// words from another `file` or a zip's `entry` beside it.
    Vectors {
        file: usize,
        format: &'static str,
        metadata: Option<CompanionDto>,
    },
    Bundle {
        file: usize,
    },
    #[serde(rename = "fasttext")]
    FastText {
        file: usize,
    },
    /// A language model's matrix in one of `files`, or in the shard its `index` names.
    Model {
        files: Vec<usize>,
        index: Option<usize>,
        tokenizer: Option<usize>,
    },
    /// A Parquet table: its part files in order, and a Spark model's metadata file.
    Table {
        parts: Vec<usize>,
        spark: Option<usize>,
    },
    /// A zip of several files: the person chooses one of `entries`.
    #[serde(rename = "chooseEntry")]
    ChooseEntry {
        file: usize,
        entries: Vec<String>,
    },
}

/// Where a Projector `vectors.tsv` finds its words: another file given, or a zip's entry.
#[derive(Debug, Serialize, Tsify)]
#[tsify(missing_as_null)]
pub struct CompanionDto {
    pub file: Option<usize>,
    pub entry: Option<String>,
}

impl OpenPlanDto {
    pub fn new(plan: OpenPlan) -> OpenPlanDto {
        match plan {
            OpenPlan::Text { file } => OpenPlanDto::Text { file },
            OpenPlan::Vectors { file, format, metadata } => {
                let metadata = metadata.map(|companion| match companion {
                    Companion::File(file) => CompanionDto { file: Some(file), entry: None },
                    Companion::Entry(entry) => CompanionDto { file: None, entry: Some(entry) },
                });
                OpenPlanDto::Vectors { file, format: format_id(format), metadata }
            }
            OpenPlan::Bundle { file } => OpenPlanDto::Bundle { file },
            OpenPlan::FastText { file } => OpenPlanDto::FastText { file },
            OpenPlan::Model { files, index, tokenizer } => OpenPlanDto::Model { files, index, tokenizer },
            OpenPlan::Table { parts, spark } => OpenPlanDto::Table { parts, spark },
            OpenPlan::ChooseEntry { file, entries } => OpenPlanDto::ChooseEntry { file, entries },
        }
    }
}

/// The id of a vectors format between the worker and the session.
pub fn format_id(format: VectorFormat) -> &'static str {
    match format {
        VectorFormat::Word2VecText => "word2vec-text",
        VectorFormat::Word2VecBinary => "word2vec-binary",
        VectorFormat::Glove => "glove",
        VectorFormat::ProjectorTsv => "projector-tsv",
    }
}

/// Which options came with the files (`io::open::OpenOptions`).
#[derive(Debug, Default, Deserialize, Tsify)]
#[serde(rename_all = "camelCase", default)]
pub struct OpenOptionsDto {
    pub metadata: bool,
    pub tokenizer: bool,
    pub tensor: bool,
    pub columns: bool,
    pub max_words: bool,
    pub vectors_only: bool,
}

impl From<OpenOptionsDto> for OpenOptions {
    fn from(o: OpenOptionsDto) -> OpenOptions {
        OpenOptions {
            metadata: o.metadata,
            tokenizer: o.tokenizer,
            tensor: o.tensor,
            columns: o.columns,
            max_words: o.max_words,
            vectors_only: o.vectors_only,
        }
    }
}

/// A file's head for the worker (`FileHeadDto` in www/protocol.js): `{ name, compression,
/// entries, entry, innerName, head }`, `head` a `Uint8Array`, which serde would make an array
/// of numbers.
pub fn file_head_to_js(file: &FileHead) -> Result<JsValue, JsError> {
    let out = JsValue::from(js_sys::Object::new());
    let entries: Array = file.entries.iter().map(|e| JsValue::from_str(e)).collect();
    let fields = [
        ("name", JsValue::from_str(&file.name)),
        ("compression", file.compression.map_or(JsValue::NULL, |c| JsValue::from_str(c.name()))),
        ("entries", entries.into()),
        ("entry", file.entry.as_deref().map_or(JsValue::NULL, JsValue::from_str)),
        ("innerName", JsValue::from_str(&file.inner_name)),
        ("head", Uint8Array::from(&file.head[..]).into()),
    ];
    for (key, value) in fields {
        Reflect::set(&out, &key.into(), &value).map_err(|_| JsError::new("cannot build a file's head"))?;
    }
    Ok(out)
}

/// A file's head as [`file_head_to_js`] gives it.
pub fn file_head_from_js(value: &JsValue) -> Result<FileHead, JsError> {
    let field = |key: &str| Reflect::get(value, &key.into()).map_err(|_| JsError::new("not a file's head"));
    let text = |key: &str| -> Result<Option<String>, JsError> { Ok(field(key)?.as_string()) };
    let name = text("name")?.ok_or_else(|| JsError::new("a file's head has no name"))?;
    let compression = match text("compression")? {
        Some(name) => Some(
            Compression::from_name(&name)
                .ok_or_else(|| JsError::new(&format!("unknown compression '{name}'")))?,
        ),
        None => None,
    };
    let entries = field("entries")?;
    let entries = if entries.is_array() {
        Array::from(&entries).iter().filter_map(|e| e.as_string()).collect()
    } else {
        Vec::new()
    };
    let head = field("head")?
        .dyn_into::<Uint8Array>()
        .map_err(|_| JsError::new("a file's head is no Uint8Array"))?;
    Ok(FileHead {
        inner_name: text("innerName")?.unwrap_or_else(|| name.clone()),
        name,
        compression,
        entries,
        entry: text("entry")?,
        head: head.to_vec(),
    })
}
