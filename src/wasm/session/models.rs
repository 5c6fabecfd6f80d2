//! A language model's embedding matrix read from its file a slice at a time: the header
//! first (grown until it is whole), then only the matrix's bytes.

use wasm_bindgen::prelude::*;

use super::files::{info_js, js_error_in};
use super::{Opened, Session, js_error, set, to_js};
use crate::error::Error;
use crate::io::open;
use crate::lm::{self, MatrixPlan, MatrixReader, ModelFormat, ModelHeader, Tokens};
use crate::wasm::dto::{MatrixRangeDto, ModelInfoDto, TensorDto, VectorsInfo};

/// A model file being read: its header once whole, then the reader of its matrix.
pub(super) struct ModelLoading {
    name: String,
    file_len: u64,
    format: ModelFormat,
    header: Option<ModelHeader>,
    reader: Option<MatrixReader>,
}

#[wasm_bindgen]
impl Session {
    /// Starts reading the model file `name` of `file_len` bytes whose first bytes are
    /// `head`; `model_header` then takes its header.
    pub fn model_open(&mut self, head: &[u8], name: &str, file_len: f64) -> Result<(), JsError> {
        let format = ModelFormat::sniff(head).ok_or_else(|| {
            JsError::new(&format!("{name}: not a safetensors or GGUF file (its first bytes are neither)"))
        })?;
        self.model = Some(ModelLoading {
            name: name.into(),
            file_len: file_len as u64,
            format,
            header: None,
            reader: None,
        });
        Ok(())
    }

    /// Reads the header from `prefix`, the file's first bytes: 0 when it is read, else how
    /// many bytes from the start of the file it needs.
    pub fn model_header(&mut self, prefix: &[u8]) -> Result<f64, JsError> {
        let loading = self.model.as_mut().ok_or_else(not_reading)?;
        let (format, file_len) = (loading.format, loading.file_len);
        let read = match lm::read_header(format, prefix, file_len) {
            Ok(lm::HeaderRead::Done(header)) => {
                loading.header = Some(header);
                return Ok(0.0);
            }
            Ok(lm::HeaderRead::NeedMore(n)) if n > prefix.len() as u64 && n <= file_len => {
                return Ok(n as f64);
            }
            Ok(lm::HeaderRead::NeedMore(_)) => Error::Model(format!(
                "the {} header runs past the end of the file: the file is cut short",
                format.name()
            )),
            Err(err) => err,
        };
        Err(self.model_failed(read))
    }

    /// The 2-D tensors of the model whose header was read (`TensorDto[]`), to choose from
    /// when none has a name models give their token embeddings.
    pub fn model_tensors(&self) -> Result<JsValue, JsError> {
        let header = self.model.as_ref().and_then(|m| m.header.as_ref()).ok_or_else(not_reading)?;
        let tensors: Vec<TensorDto> = header
            .tensors
            .iter()
            .filter_map(|t| {
                t.matrix().map(|(rows, cols)| TensorDto {
                    name: t.name.clone(),
                    rows: rows as f64,
                    cols: cols as f64,
                    dtype: t.dtype.name().to_string(),
                })
            })
            .collect();
        to_js(&tensors)
    }

    /// Whether the model's header names no token-embedding tensor, so the person chooses one.
    pub fn model_needs_choice(&self) -> bool {
        self.model.as_ref().and_then(|m| m.header.as_ref()).is_some_and(|h| h.token_embedding().is_none())
    }

    /// Plans reading the matrix: the tensor `tensor` (or the token embeddings), its rows
    /// named by `tokenizer` (the bytes of a `tokenizer.json` named `tokenizer_name`), else
    /// by the file's own tokenizer, else by id. Returns `MatrixRangeDto`: the bytes to read
    /// and what the matrix is.
    pub fn model_begin(
        &mut self,
        tensor: Option<String>,
        tokenizer: Option<Vec<u8>>,
        tokenizer_name: Option<String>,
    ) -> Result<JsValue, JsError> {
        let loading = self.model.as_mut().ok_or_else(not_reading)?;
        let header = loading.header.as_ref().ok_or_else(not_reading)?;
        let tokens = match tokenizer {
            Some(bytes) => {
                let name = tokenizer_name.unwrap_or_else(|| "tokenizer.json".into());
                match Tokens::from_tokenizer_json(&bytes) {
                    Ok(tokens) => Some((tokens, name)),
                    Err(err) => {
                        self.model = None;
                        return Err(js_error_in(&name, err));
                    }
                }
            }
            None => None,
        };
        let plan = MatrixPlan::new(
            &loading.name,
            loading.file_len,
            header,
            tensor.as_deref(),
            tokens.as_ref().map(|(t, name)| (t.clone(), name.as_str())),
        );
        let plan = plan.map_err(|err| self.model_failed(err))?;
        let (offset, length) = plan.range();
        let range = MatrixRangeDto {
            offset: offset as f64,
            length: length as f64,
            info: ModelInfoDto::new(plan.info()),
        };
        let loading = self.model.as_mut().expect("checked above");
        loading.reader = Some(plan.reader());
        to_js(&range)
    }

    /// Takes the next slice of the matrix's bytes; returns the rows read so far.
    pub fn model_push(&mut self, bytes: &[u8]) -> Result<usize, JsError> {
        let reader = self.model.as_mut().and_then(|m| m.reader.as_mut()).ok_or_else(not_reading)?;
        reader.push(bytes).map_err(|err| self.model_failed(err))
    }

    /// Forgets a model file being read.
    pub fn model_cancel(&mut self) {
        self.model = None;
    }

    /// Finishes reading the matrix and makes its rows the vectors queried, replacing any
    /// text and training: `VectorsInfo` with `model`, what the matrix is.
    pub fn model_finish(&mut self) -> Result<JsValue, JsError> {
        let loading = self.model.take().ok_or_else(not_reading)?;
        let reader = loading.reader.ok_or_else(not_reading)?;
        let (embeddings, info) = reader.finish().map_err(|e| js_error_in(&loading.name, e))?;
        let vectors = VectorsInfo::new(info.format.name(), &embeddings, loading.file_len as f64, false, None);
        let out = info_js(&vectors, &embeddings)?;
        set(&out, "model", &to_js(&ModelInfoDto::new(&info))?)?;
        self.open(Opened { model: Some(info), ..Opened::vectors(embeddings) });
        Ok(out)
    }

    /// Which shard of a sharded safetensors model holds its token embeddings (or the tensor
    /// `tensor`), from its `model.safetensors.index.json`: `{ tensor, file }`; fails when that
    /// shard is not among the files `given` with the index.
    pub fn model_shard(
        &self,
        index: &[u8],
        name: &str,
        tensor: Option<String>,
        given: Vec<String>,
    ) -> Result<JsValue, JsError> {
        let index = lm::safetensors::ShardIndex::read(index).map_err(|e| js_error_in(name, e))?;
        let (tensor, file) = index.embedding_shard(tensor.as_deref()).map_err(|e| js_error_in(name, e))?;
        if !given.iter().any(|g| g == file) {
            return Err(JsError::new(&open::shard_missing(name, tensor, file).0));
        }
        let out = JsValue::from(js_sys::Object::new());
        set(&out, "tensor", &JsValue::from_str(tensor))?;
        set(&out, "file", &JsValue::from_str(file))?;
        Ok(out)
    }
}

impl Session {
    /// `err`, naming the model file being read, which is forgotten.
    fn model_failed(&mut self, err: Error) -> JsError {
        let name = self.model.take().map(|m| m.name).unwrap_or_default();
        js_error(match err {
            Error::UnknownWords(_) => err,
            other => Error::Model(format!("{name}: {other}")),
        })
    }
}

fn not_reading() -> JsError {
    JsError::new("no model file is being read")
}
