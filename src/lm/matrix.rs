//! Reading a token-embedding matrix: which bytes of the file to read ([`MatrixPlan`]), the
//! rows they make as they arrive in slices ([`MatrixReader`]), and what the matrix is
//! ([`ModelInfo`]).

use std::io::{Read, Seek, SeekFrom};

use super::tokenizer::Scheme;
use super::{
    Dtype, ElementType, HeaderRead, ModelFormat, ModelHeader, TensorInfo, TokenKind, Tokens, pick_embedding,
    quant,
};
use crate::error::{Error, Result, bytes, thousands};
use crate::vectors::{Embeddings, Half};

/// The largest matrix kept in `f32`, raw and unit-normalised (8 bytes a value): above it the
/// rows are kept in half precision (2 bytes a value) and computed in `f32` as they are read.
/// GPT-2's 50,257 × 768 stays in `f32` (0.3 GB); Llama 3's 128,256 × 4,096 (4.2 GB in
/// `f32`, more than a tab's 4 GB of wasm memory) is kept in half precision (1 GB).
pub const F32_LIMIT_BYTES: u64 = 1 << 30;

/// The largest matrix opened at all, in the bytes it is kept in: a wasm tab has 4 GB, and
/// the map and queries need room beside the matrix.
pub const MAX_MATRIX_BYTES: u64 = 2_500_000_000;

/// How the rows are kept in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    F32,
    Half(Half),
}

impl Keep {
    /// The name a person reads.
    pub fn name(self) -> &'static str {
        match self {
            Keep::F32 => "f32",
            Keep::Half(half) => half.name(),
        }
    }

    /// Bytes a value takes kept so.
    fn value_bytes(self) -> u64 {
        match self {
            Keep::F32 => 8,
            Keep::Half(_) => 2,
        }
    }
}

/// What a model's embedding matrix is, as the info panel and `embedscope info` show it.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelInfo {
    /// The file's name (the shard's, for a sharded model).
    pub file: String,
    pub format: ModelFormat,
    pub tensor: String,
    /// The element type in the file (`BF16`, `Q4_K`, …).
    pub dtype: &'static str,
    /// Rows (the vocabulary) and columns (the dimension).
    pub rows: usize,
    pub cols: usize,
    /// The matrix's bytes in the file, and the file's.
    pub tensor_bytes: u64,
    pub file_bytes: u64,
    /// The parameters of every tensor of the file, when the file holds them all.
    pub file_parameters: u64,
    /// Where the tokens' names come from, and how they are written (`byte-level BPE
    /// (tokenizer.json)`), or `None` when the rows are named by id.
    pub tokenizer: Option<String>,
    /// How many rows are special, control or unused tokens, kept last and off the map.
    pub special: usize,
    /// How the rows are kept in memory, and the bytes they take there.
    pub kept: Keep,
    pub memory_bytes: u64,
    /// A few metadata entries from the file.
    pub metadata: Vec<(String, String)>,
}

impl ModelInfo {
    /// The matrix's parameters.
    pub fn parameters(&self) -> u64 {
        (self.rows * self.cols) as u64
    }

    /// What `embedscope info` prints, a (label, value) a line.
    pub fn lines(&self) -> Vec<(&'static str, String)> {
        let mut lines = vec![
            ("file", format!("{} ({}, {})", self.file, self.format.name(), bytes(self.file_bytes))),
            ("tensor", self.tensor.clone()),
            ("shape", format!("{} tokens × {} dimensions", thousands(self.rows as u64), self.cols)),
            ("parameters", self.share()),
            ("dtype", format!("{} ({} in the file)", self.dtype, bytes(self.tensor_bytes))),
            ("in memory", format!("{} ({})", self.kept.name(), bytes(self.memory_bytes))),
            (
                "tokens",
                match &self.tokenizer {
                    Some(t) => format!("{t}; {} special, control or unused kept off the map", self.special),
                    None => "named by their ids (no tokenizer)".to_string(),
                },
            ),
        ];
        for (key, value) in &self.metadata {
            lines.push(("metadata", format!("{key} = {value}")));
        }
        lines
    }

    /// The matrix's parameters and their share of the file's.
    pub fn share(&self) -> String {
        let parameters = self.parameters();
        if self.file_parameters > parameters {
            format!(
                "{} ({:.1} % of the {} in the file)",
                thousands(parameters),
                100.0 * parameters as f64 / self.file_parameters as f64,
                thousands(self.file_parameters)
            )
        } else {
            format!("{} (the whole file)", thousands(parameters))
        }
    }
}

/// Which bytes of a model file make its token-embedding matrix, and how its rows are named
/// and ordered.
#[derive(Debug, Clone)]
pub struct MatrixPlan {
    info: ModelInfo,
    tensor: TensorInfo,
    element: ElementType,
    tokens: Option<Tokens>,
}

impl MatrixPlan {
    /// The plan for the file `file` of `file_bytes` bytes with this `header`: the tensor
    /// `chosen`, or the token embeddings found by their name; its rows named by `tokenizer`
    /// (a `tokenizer.json` found beside the file), else by the tokenizer in the header, else
    /// by their ids. Fails when no tensor fits, its type is not read, the tokenizer cannot
    /// be this matrix's, or the matrix is too large to keep.
    pub fn new(
        file: &str,
        file_bytes: u64,
        header: &ModelHeader,
        chosen: Option<&str>,
        tokenizer: Option<(Tokens, &str)>,
    ) -> Result<MatrixPlan> {
        let tensor = pick_embedding(header, chosen)?.clone();
        let Dtype::Known(element) = tensor.dtype else { unreachable!("pick_embedding refuses other types") };
        let (rows, cols) = tensor.matrix().expect("pick_embedding keeps 2-D tensors");
        if rows < 2 || cols == 0 {
            return Err(Error::Model(format!(
                "the tensor '{}' is {rows} × {cols}: an embedding matrix needs at least 2 rows and 1 column",
                tensor.name
            )));
        }
        let (named, source) = match tokenizer {
            Some((tokens, source)) => (Some(tokens), Some(source.to_string())),
            None => (
                header.tokens.clone(),
                header.tokens.as_ref().map(|_| format!("{} metadata", header.format.name())),
            ),
        };
        let tokens = named.map(|tokens| tokens.fit_rows(rows)).transpose()?;
        let kept = keep_for(element, rows as u64 * cols as u64);
        let memory_bytes = rows as u64 * cols as u64 * kept.value_bytes();
        if memory_bytes > MAX_MATRIX_BYTES {
            return Err(Error::Model(format!(
                "the matrix '{}' is {} × {}: kept in {}, it would take {}, more than the {} a tab can hold beside the map",
                tensor.name,
                thousands(rows as u64),
                cols,
                kept.name(),
                bytes(memory_bytes),
                bytes(MAX_MATRIX_BYTES)
            )));
        }
        let special = tokens.as_ref().map_or(0, |t| {
            (0..t.len()).filter(|&id| matches!(t.kind(id), TokenKind::Special | TokenKind::Unused)).count()
        });
        let info = ModelInfo {
            file: file.to_string(),
            format: header.format,
            tensor: tensor.name.clone(),
            dtype: element.name(),
            rows,
            cols,
            tensor_bytes: tensor.len,
            file_bytes,
            file_parameters: header.tensors.iter().map(TensorInfo::parameters).sum(),
            tokenizer: tokens
                .as_ref()
                .map(|t| format!("{} ({})", t.scheme().name(), source.unwrap_or_default())),
            special,
            kept,
            memory_bytes,
            metadata: header.metadata.clone(),
        };
        Ok(MatrixPlan { info, tensor, element, tokens })
    }

    /// The bytes to read: where they start in the file, and how many.
    pub fn range(&self) -> (u64, u64) {
        (self.tensor.offset, self.tensor.len)
    }

    /// What the matrix is.
    pub fn info(&self) -> &ModelInfo {
        &self.info
    }

    /// A reader of the bytes [`MatrixPlan::range`] names.
    pub fn reader(self) -> MatrixReader {
        MatrixReader::new(self)
    }
}

/// How a matrix of `values` of `element` is kept: as it is stored when it is half precision
/// and too large for `f32`; in `f16` when another type is too large; else in `f32`.
fn keep_for(element: ElementType, values: u64) -> Keep {
    if values * Keep::F32.value_bytes() <= F32_LIMIT_BYTES {
        return Keep::F32;
    }
    match element {
        ElementType::BF16 => Keep::Half(Half::BF16),
        _ => Keep::Half(Half::F16),
    }
}

/// The rows of a matrix from its bytes, pushed in slices of any size.
#[derive(Debug)]
pub struct MatrixReader {
    plan: MatrixPlan,
    /// Where each row goes: `destination[id]` is its index in the embeddings (the tokens'
    /// order: most frequent first, special tokens last).
    destination: Vec<u32>,
    row_bytes: usize,
    /// The bytes of a row begun in one slice and ended in the next.
    pending: Vec<u8>,
    rows_read: usize,
    f32s: Vec<f32>,
    halves: Vec<u16>,
    /// One row in `f32`, when rows are converted to half precision.
    scratch: Vec<f32>,
}

impl MatrixReader {
    fn new(plan: MatrixPlan) -> MatrixReader {
        let (rows, cols) = (plan.info.rows, plan.info.cols);
        let mut destination = vec![0u32; rows];
        match &plan.tokens {
            Some(tokens) => {
                for (index, &id) in tokens.order().iter().enumerate() {
                    destination[id as usize] = index as u32;
                }
            }
            None => destination.iter_mut().enumerate().for_each(|(id, d)| *d = id as u32),
        }
        let values = rows * cols;
        let (f32s, halves) = match plan.info.kept {
            Keep::F32 => (vec![0.0; values], Vec::new()),
            Keep::Half(_) => (Vec::new(), vec![0; values]),
        };
        MatrixReader {
            row_bytes: plan.element.row_bytes(cols),
            scratch: vec![0.0; cols],
            plan,
            destination,
            pending: Vec::new(),
            rows_read: 0,
            f32s,
            halves,
        }
    }

    /// Takes the next bytes of the tensor; returns the rows read so far. Bytes past the
    /// tensor's end are an error.
    pub fn push(&mut self, mut bytes: &[u8]) -> Result<usize> {
        let rows = self.plan.info.rows;
        if !self.pending.is_empty() {
            let wanted = self.row_bytes - self.pending.len();
            let take = wanted.min(bytes.len());
            self.pending.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.pending.len() == self.row_bytes {
                let row = std::mem::take(&mut self.pending);
                self.put_row(&row)?;
            }
        }
        let whole = bytes.len() / self.row_bytes;
        if self.rows_read + whole > rows
            || (self.rows_read + whole == rows && !bytes.len().is_multiple_of(self.row_bytes))
        {
            return Err(Error::Model(format!(
                "more bytes than the tensor '{}' holds were given",
                self.plan.info.tensor
            )));
        }
        for row in bytes.chunks_exact(self.row_bytes) {
            self.put_row(row)?;
        }
        self.pending.extend_from_slice(&bytes[whole * self.row_bytes..]);
        Ok(self.rows_read)
    }

    /// Rows read so far, and the matrix's rows.
    pub fn progress(&self) -> (usize, usize) {
        (self.rows_read, self.plan.info.rows)
    }

    fn put_row(&mut self, row: &[u8]) -> Result<()> {
        let cols = self.plan.info.cols;
        let at = self.destination[self.rows_read] as usize * cols;
        match (self.plan.info.kept, self.plan.element) {
            (Keep::F32, element) => quant::dequantize(element, row, &mut self.f32s[at..at + cols]),
            (Keep::Half(Half::F16), ElementType::F16) | (Keep::Half(Half::BF16), ElementType::BF16) => {
                for (value, bytes) in self.halves[at..at + cols].iter_mut().zip(row.chunks_exact(2)) {
                    *value = u16::from_le_bytes([bytes[0], bytes[1]]);
                }
            }
            (Keep::Half(half), element) => {
                quant::dequantize(element, row, &mut self.scratch);
                for (value, &x) in self.halves[at..at + cols].iter_mut().zip(&self.scratch) {
                    *value = match half {
                        Half::F16 => half::f16::from_f32(x).to_bits(),
                        Half::BF16 => half::bf16::from_f32(x).to_bits(),
                    };
                }
            }
        }
        self.rows_read += 1;
        Ok(())
    }

    /// The embeddings, once every row is read, with what the matrix is. Fails when the
    /// bytes ended early or a value is not finite.
    pub fn finish(self) -> Result<(Embeddings, ModelInfo)> {
        let MatrixReader { plan, rows_read, f32s, halves, .. } = self;
        let info = plan.info;
        if rows_read < info.rows {
            return Err(Error::Model(format!(
                "the file ended after {} of the {} rows of '{}': it is cut short",
                thousands(rows_read as u64),
                thousands(info.rows as u64),
                info.tensor
            )));
        }
        let (words, aliases) = match &plan.tokens {
            Some(tokens) => names(tokens),
            None => ((0..info.rows).map(|id| id.to_string()).collect(), Vec::new()),
        };
        let embeddings = match info.kept {
            Keep::F32 => Embeddings::new(words, info.cols, f32s),
            Keep::Half(half) => Embeddings::from_half(words, info.cols, halves, half),
        }
        .map_err(|e| Error::Model(format!("the tensor '{}': {e}", info.tensor)))?;
        let spaced = plan
            .tokens
            .as_ref()
            .is_some_and(|t| matches!(t.scheme(), Scheme::ByteLevel | Scheme::SentencePiece));
        let embeddings = embeddings.with_aliases(aliases);
        Ok((if spaced { embeddings.with_spaced_tokens() } else { embeddings }, info))
    }
}

/// The words of the embeddings, in the tokens' order, and the raw forms that differ from
/// them, as aliases.
fn names(tokens: &Tokens) -> (Vec<String>, Vec<(String, usize)>) {
    let display = tokens.display_forms();
    let order = tokens.order();
    let mut words = Vec::with_capacity(order.len());
    let mut aliases = Vec::new();
    for (index, &id) in order.iter().enumerate() {
        let id = id as usize;
        words.push(display[id].clone());
        if tokens.raw(id) != display[id] {
            aliases.push((tokens.raw(id).to_string(), index));
        }
    }
    (words, aliases)
}

/// Reads the header of the model file `file`, `file_len` bytes long, whose first bytes say
/// it is in `format`: a first megabyte, then as much more as the header says it needs.
pub fn read_file_header<R: Read + Seek>(
    file: &mut R,
    format: ModelFormat,
    file_len: u64,
) -> Result<ModelHeader> {
    let mut wanted = FIRST_READ.min(file_len);
    let mut prefix = Vec::new();
    loop {
        prefix.clear();
        file.seek(SeekFrom::Start(0)).map_err(io_error)?;
        file.by_ref().take(wanted).read_to_end(&mut prefix).map_err(io_error)?;
        match super::read_header(format, &prefix, file_len)? {
            HeaderRead::Done(header) => return Ok(header),
            HeaderRead::NeedMore(n) if n > wanted && n <= file_len => wanted = n,
            HeaderRead::NeedMore(_) => {
                return Err(Error::Model(format!(
                    "the {} header runs past the end of the file ({}): the file is cut short",
                    format.name(),
                    bytes(file_len)
                )));
            }
        }
    }
}

/// How much of a file is read first for its header: a safetensors header is a few kB, a
/// GGUF's with its tokenizer a few MB.
pub const FIRST_READ: u64 = 1 << 20;

/// The rows of the matrix `plan` names, read from `file` in slices of [`SLICE_BYTES`], with
/// `progress(rows read, rows)` after each.
pub fn read_matrix<R: Read + Seek>(
    file: &mut R,
    plan: MatrixPlan,
    mut progress: impl FnMut(usize, usize),
) -> Result<(Embeddings, ModelInfo)> {
    let (offset, len) = plan.range();
    file.seek(SeekFrom::Start(offset)).map_err(io_error)?;
    let mut reader = plan.reader();
    let mut slice = vec![0u8; SLICE_BYTES];
    let mut left = len;
    while left > 0 {
        let n = file.read(&mut slice[..SLICE_BYTES.min(left as usize)]).map_err(io_error)?;
        if n == 0 {
            break;
        }
        reader.push(&slice[..n])?;
        left -= n as u64;
        let (read, rows) = reader.progress();
        progress(read, rows);
    }
    reader.finish()
}

/// The bytes read at a time, natively and in the page.
pub const SLICE_BYTES: usize = 16 << 20;

fn io_error(err: std::io::Error) -> Error {
    Error::Io(format!("cannot read the model file: {err}"))
}
