//! A language model's embedding matrix: the token-embedding tensor of a safetensors or GGUF
//! file, read as a slice, with the tokenizer that names its rows.
//!
//! # Brief overview
//!
//! - A file's **header** ([`ModelHeader`]) lists its tensors with their element type, shape
//!   and where their bytes lie in the file; a GGUF header also carries the tokenizer.
//!   [`safetensors::read_header`] and [`gguf::read_header`] read it from the file's first
//!   bytes, and say how many more they need ([`HeaderRead::NeedMore`]), so a 5 GB file is
//!   never read whole.
//! - [`TensorInfo::is_token_embedding`] and [`pick_embedding`] choose the token-embedding
//!   tensor by the names models give it, never an output matrix of the same shape.
//! - [`quant`] turns a tensor's bytes (F32, F16, BF16, ggml's quantized blocks) into `f32`s.
//! - [`Tokens`] (tokenizer.rs) is the vocabulary: each token's raw form, the form a person
//!   reads, and its kind (special tokens are kept off the map).

pub mod gguf;
pub mod matrix;
pub mod quant;
pub mod safetensors;
pub mod tokenizer;

pub use matrix::{Keep, MatrixPlan, MatrixReader, ModelInfo, read_file_header, read_matrix};
pub use tokenizer::{TokenKind, Tokens};

use crate::error::{Error, Result};

/// The two file formats of language models that embedscope reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelFormat {
    /// Hugging Face's safetensors: an 8-byte little-endian header length, a JSON header,
    /// then the data.
    Safetensors,
    /// llama.cpp's GGUF: metadata (the tokenizer among it), tensor infos, aligned data.
    Gguf,
}

impl ModelFormat {
    /// The format's name as a person knows it.
    pub fn name(self) -> &'static str {
        match self {
            ModelFormat::Safetensors => "safetensors",
            ModelFormat::Gguf => "GGUF",
        }
    }

    /// The format of a file, from its first bytes: GGUF by its magic, safetensors by a
    /// plausible header length followed by `{`.
    pub fn sniff(head: &[u8]) -> Option<ModelFormat> {
        if head.starts_with(b"GGUF") {
            return Some(ModelFormat::Gguf);
        }
        if head.len() >= 9 && head[8] == b'{' {
            let n = u64::from_le_bytes(head[..8].try_into().expect("8 bytes"));
            if (2..=safetensors::MAX_HEADER_BYTES).contains(&n) {
                return Some(ModelFormat::Safetensors);
            }
        }
        None
    }
}

/// The element types a token-embedding tensor may hold that embedscope reads: safetensors'
/// F32, F16 and BF16, and ggml's types of the same names and its quantized blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementType {
    F32,
    F16,
    BF16,
    Q8_0,
    Q4_0,
    Q4_1,
    Q5_0,
    Q5_1,
    Q2K,
    Q3K,
    Q4K,
    Q5K,
    Q6K,
}

/// A tensor's element type as its file names it: one embedscope reads, or another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dtype {
    Known(ElementType),
    /// A type embedscope does not read (I8, F64, IQ2_XXS, …), by the name its format gives it.
    Other(String),
}

impl Dtype {
    /// The type's name as the file's format writes it (`BF16`, `Q4_K`, …).
    pub fn name(&self) -> &str {
        match self {
            Dtype::Known(t) => t.name(),
            Dtype::Other(name) => name,
        }
    }
}

impl ElementType {
    /// The name ggml and safetensors give the type.
    pub fn name(self) -> &'static str {
        match self {
            ElementType::F32 => "F32",
            ElementType::F16 => "F16",
            ElementType::BF16 => "BF16",
            ElementType::Q8_0 => "Q8_0",
            ElementType::Q4_0 => "Q4_0",
            ElementType::Q4_1 => "Q4_1",
            ElementType::Q5_0 => "Q5_0",
            ElementType::Q5_1 => "Q5_1",
            ElementType::Q2K => "Q2_K",
            ElementType::Q3K => "Q3_K",
            ElementType::Q4K => "Q4_K",
            ElementType::Q5K => "Q5_K",
            ElementType::Q6K => "Q6_K",
        }
    }

    /// How many values one block holds, and how many bytes it takes (1 value for the
    /// unquantized types).
    pub fn block(self) -> (usize, usize) {
        quant::block_size(self)
    }

    /// Bytes of a row of `cols` values. **Unchecked precondition:** `cols` is a multiple of
    /// the block's values (a tensor whose rows are not is refused when its header is read).
    pub fn row_bytes(self, cols: usize) -> usize {
        let (values, bytes) = self.block();
        cols / values * bytes
    }
}

/// One tensor of a model file.
#[derive(Debug, Clone, PartialEq)]
pub struct TensorInfo {
    pub name: String,
    pub dtype: Dtype,
    /// The shape, outermost first as safetensors and numpy write it: a token-embedding
    /// matrix is `[vocabulary, dimension]` (GGUF's `ne` is reversed into this order).
    pub shape: Vec<u64>,
    /// Where the tensor's bytes start, from the start of the file.
    pub offset: u64,
    /// How many bytes the tensor takes.
    pub len: u64,
}

impl TensorInfo {
    /// The matrix's rows and columns when the tensor is 2-D.
    pub fn matrix(&self) -> Option<(usize, usize)> {
        match self.shape[..] {
            [rows, cols] => Some((usize::try_from(rows).ok()?, usize::try_from(cols).ok()?)),
            _ => None,
        }
    }

    /// Whether the name is one models give their token-embedding matrix (GPT-2's `wte`,
    /// Llama's `embed_tokens`, BERT's `word_embeddings`, GGUF's `token_embd`, …).
    pub fn is_token_embedding(&self) -> bool {
        is_token_embedding_name(&self.name)
    }

    /// How many numbers the tensor holds.
    pub fn parameters(&self) -> u64 {
        self.shape.iter().product()
    }
}

/// Whether `name` is one models give their token-embedding matrix: it is, or ends with
/// `.` and, one of [`EMBEDDING_NAMES`]. A sharded model's index is searched by the same rule.
pub fn is_token_embedding_name(name: &str) -> bool {
    EMBEDDING_NAMES.iter().any(|n| name == *n || name.strip_suffix(n).is_some_and(|head| head.ends_with('.')))
}

/// The last parts of the names models give the token-embedding matrix.
const EMBEDDING_NAMES: &[&str] = &[
    "token_embd.weight",
    "wte.weight",
    "embed_tokens.weight",
    "word_embeddings.weight",
    "tok_embeddings.weight",
    "embed_in.weight",
    "embeddings.weight",
    "shared.weight",
    "wte.embedding",
    "embedding.weight",
];

/// What a model file's header says: its tensors, and what else embedscope shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelHeader {
    pub format: ModelFormat,
    /// Every tensor, in the header's order.
    pub tensors: Vec<TensorInfo>,
    /// The tokenizer a GGUF file carries in its metadata.
    pub tokens: Option<Tokens>,
    /// A few metadata entries worth showing (a GGUF's `general.architecture`,
    /// `general.name`; a safetensors header's `__metadata__`), as text.
    pub metadata: Vec<(String, String)>,
}

impl ModelHeader {
    /// The 2-D tensor named as models name their token embeddings, if one is.
    pub fn token_embedding(&self) -> Option<&TensorInfo> {
        self.tensors.iter().find(|t| t.matrix().is_some() && t.is_token_embedding())
    }
}

/// A header read from the first bytes of a file, or how many bytes from the start of the
/// file reading it needs.
#[derive(Debug, Clone, PartialEq)]
pub enum HeaderRead {
    Done(ModelHeader),
    /// Read again with at least this many bytes from the start of the file.
    NeedMore(u64),
}

/// Reads the header of a file in `format` from `prefix`, its first bytes; `file_len` is the
/// whole file's length.
pub fn read_header(format: ModelFormat, prefix: &[u8], file_len: u64) -> Result<HeaderRead> {
    match format {
        ModelFormat::Safetensors => safetensors::read_header(prefix, file_len),
        ModelFormat::Gguf => gguf::read_header(prefix, file_len),
    }
}

/// The tensor that holds the token embeddings: the one whose name models give it, or the
/// one named `chosen`. Fails with the file's 2-D tensors listed when no name fits.
pub fn pick_embedding<'h>(header: &'h ModelHeader, chosen: Option<&str>) -> Result<&'h TensorInfo> {
    let two_d = || header.tensors.iter().filter(|t| t.matrix().is_some());
    let found = match chosen {
        Some(name) => header.tensors.iter().find(|t| t.name == name),
        None => header.token_embedding(),
    };
    let Some(tensor) = found else {
        let listed: Vec<String> = two_d()
            .take(20)
            .map(|t| {
                format!("{} [{}]", t.name, t.shape.iter().map(u64::to_string).collect::<Vec<_>>().join(" × "))
            })
            .collect();
        let what = match chosen {
            Some(name) => format!("the file holds no tensor named '{name}'"),
            None => "no tensor has a name models give their token embeddings".to_string(),
        };
        return Err(Error::Model(if listed.is_empty() {
            format!("{what}, and it holds no 2-D tensor: this is not a model with an embedding matrix")
        } else {
            format!("{what}; choose one of its 2-D tensors: {}", listed.join(", "))
        }));
    };
    if tensor.matrix().is_none() {
        return Err(Error::Model(format!(
            "the tensor '{}' has {} dimensions; an embedding matrix has 2 (tokens × dimension)",
            tensor.name,
            tensor.shape.len()
        )));
    }
    if let Dtype::Other(name) = &tensor.dtype {
        return Err(Error::Model(format!(
            "the tensor '{}' holds {name} values, which embedscope does not read; it reads F32, F16, BF16, \
             Q8_0, Q4_0, Q4_1, Q5_0, Q5_1 and Q2_K to Q6_K",
            tensor.name
        )));
    }
    Ok(tensor)
}
