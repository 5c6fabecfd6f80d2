//! GGUF, llama.cpp's model file: its header (metadata, the tokenizer among it, and the
//! tensor infos), read from the file's first bytes.
//!
//! The layout (little-endian; versions 2 and 3, which differ from 1 in 64-bit counts):
//!
//! ```text
//! "GGUF"  version: u32  n_tensors: u64  n_kv: u64
//! n_kv × (key: string, value type: u32, value)
//! n_tensors × (name: string, n_dims: u32, ne: n_dims × u64, ggml type: u32, offset: u64)
//! padding to `general.alignment` (32 unless the metadata says), then the tensors' data
//! ```
//!
//! A string is a `u64` length and UTF-8 bytes; an array is its elements' type (`u32`), a
//! `u64` count and the elements. `ne` lists the dimensions innermost first, so the reader
//! reverses it: `token_embd.weight` is `[vocabulary, dimension]`. A tensor's offset counts
//! from the start of the data.
//!
//! **Invariants:** a prefix too short is never an error but [`HeaderRead::NeedMore`] with a
//! length past the prefix and within the file, so a caller that reads what it is asked for
//! ends; a count (tensors, entries, an array's elements, a string's bytes) that the rest
//! of the file cannot hold is an error before anything is allocated, and a vector grows
//! only with what the prefix holds.
//!
//! The reader is written here rather than taken from a crate: the crates on crates.io
//! (`gguf-rs`, `gguf-rs-lib`, `gguf`; candle's `gguf_file` inside the whole of
//! `candle-core`) read from a `Read + Seek` or a memory map, not from a prefix that may end
//! anywhere, and return their own errors; this one is ~300 lines, reads push-style from
//! `File.slice` in the page, and keeps only what embedscope shows.

use super::{Dtype, HeaderRead, ModelFormat, ModelHeader, TensorInfo, Tokens};
use crate::error::{Error, Result};

mod ggml_types;
use ggml_types::element_type;
pub use ggml_types::ggml_type;

/// The largest header read (a Llama-3 header, 128k tokens and 280k merges, is about 10 MB).
pub const MAX_HEADER_BYTES: u64 = 512 << 20;

/// The least a [`HeaderRead::NeedMore`] asks for, so a caller starting small reads the
/// header in a few rounds.
const MIN_READ: u64 = 1 << 20;

/// ggml's `GGML_MAX_DIMS`.
const MAX_DIMS: u32 = 4;

/// How deep arrays of arrays may nest (the metadata llama.cpp writes never nests).
const MAX_NESTING: u32 = 8;

/// The fewest bytes a tensor info takes: an empty name, no dimension, type, offset.
const MIN_TENSOR_INFO: u64 = 8 + 4 + 4 + 8;

/// The fewest bytes a metadata entry takes: an empty key, its type, a one-byte value.
const MIN_ENTRY: u64 = 8 + 4 + 1;

/// The metadata shown beside the tensors (with `general.alignment` when the file sets it).
const SHOWN: &[&str] = &[
    "general.architecture",
    "general.name",
    "general.basename",
    "general.finetune",
    "general.size_label",
    "general.organization",
    "general.author",
    "general.version",
    "general.license",
    "general.quantized_by",
    "general.quantization_version",
    "tokenizer.ggml.model",
    "tokenizer.ggml.pre",
];

/// The longest metadata text kept, in characters.
const MAX_SHOWN_CHARS: usize = 200;

/// Reads the header of a GGUF file from `prefix`, its first bytes; `file_len` is the whole
/// file's length, against which the tensors' extents are checked.
pub fn read_header(prefix: &[u8], file_len: u64) -> Result<HeaderRead> {
    let raw = match read_raw(prefix, file_len)? {
        Raw::Done(raw) => raw,
        Raw::NeedMore(n) => return Ok(HeaderRead::NeedMore(n)),
    };
    let tokens = match raw.tokens {
        Some(tokens) => {
            Some(Tokens::from_gguf(raw.tokenizer_model.as_deref(), tokens, raw.token_types, raw.merges)?)
        }
        None => None,
    };
    Ok(HeaderRead::Done(ModelHeader {
        format: ModelFormat::Gguf,
        tensors: raw.tensors,
        tokens,
        metadata: raw.metadata,
    }))
}

/// What a GGUF header holds, before the tokenizer is built from it.
#[derive(Debug, Clone, Default, PartialEq)]
struct RawHeader {
    version: u32,
    metadata: Vec<(String, String)>,
    tokenizer_model: Option<String>,
    tokens: Option<Vec<String>>,
    token_types: Option<Vec<i32>>,
    merges: Option<Vec<String>>,
    tensors: Vec<TensorInfo>,
}

/// [`read_raw`]'s answer.
#[derive(Debug, Clone, PartialEq)]
enum Raw {
    Done(RawHeader),
    NeedMore(u64),
}

/// Reads the header's metadata and tensor infos, leaving the tokenizer's parts as read.
fn read_raw(prefix: &[u8], file_len: u64) -> Result<Raw> {
    let file_len = file_len.max(prefix.len() as u64);
    let mut reader = Reader { bytes: prefix, pos: 0, file_len };
    match parse(&mut reader) {
        Ok(raw) => Ok(Raw::Done(raw)),
        Err(Stop::Bad(message)) => Err(Error::Model(message)),
        Err(Stop::Short(need)) => {
            if need > file_len {
                return Err(Error::Model(format!(
                    "the GGUF file is cut short: its header needs at least {need} bytes but the file has \
                     {file_len}; download the model again"
                )));
            }
            if need > MAX_HEADER_BYTES {
                return Err(Error::Model(format!(
                    "the GGUF file's header is larger than {} MB, more than any model's; the file is damaged",
                    MAX_HEADER_BYTES >> 20
                )));
            }
            let grown = need.max(2 * prefix.len() as u64).max(MIN_READ);
            Ok(Raw::NeedMore(grown.min(file_len).min(MAX_HEADER_BYTES)))
        }
    }
}

/// Why reading stopped before the header's end.
enum Stop {
    /// The prefix ends here: at least this many bytes from the file's start are needed.
    Short(u64),
    /// The header is malformed or not read: the message for [`Error::Model`].
    Bad(String),
}

type Step<T> = std::result::Result<T, Stop>;

fn bad<T>(message: String) -> Step<T> {
    Err(Stop::Bad(message))
}

/// A cursor over the prefix, which knows how long the whole file is.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    file_len: u64,
}

impl<'a> Reader<'a> {
    /// The next `n` bytes, or [`Stop::Short`] with the length they need.
    fn take(&mut self, n: u64) -> Step<&'a [u8]> {
        let end = (self.pos as u64).saturating_add(n);
        if end > self.bytes.len() as u64 {
            return Err(Stop::Short(end));
        }
        let start = self.pos;
        self.pos = end as usize;
        Ok(&self.bytes[start..self.pos])
    }

    fn array<const N: usize>(&mut self) -> Step<[u8; N]> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N as u64)?);
        Ok(out)
    }

    fn u32(&mut self) -> Step<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Step<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A count of items that take at least `min_bytes` each, which the rest of the file
    /// must be able to hold; `what` names it for the message.
    fn count(&mut self, min_bytes: u64, what: impl FnOnce() -> String) -> Step<u64> {
        let n = self.u64()?;
        let left = self.file_len.saturating_sub(self.pos as u64);
        if n.saturating_mul(min_bytes) > left {
            return bad(format!(
                "the GGUF file is cut short or damaged: {} says {n}, more than the {left} bytes left in the file can \
                 hold; download the model again",
                what()
            ));
        }
        Ok(n)
    }

    /// Room for `n` items of at least `min_bytes` each, as many as the prefix can hold.
    fn capacity(&self, n: u64, min_bytes: u64) -> usize {
        let present = (self.bytes.len() - self.pos) as u64 / min_bytes.max(1);
        n.min(present) as usize
    }

    /// A string; bytes that are not UTF-8 become U+FFFD.
    fn string(&mut self, what: impl FnOnce() -> String) -> Step<String> {
        let len = self.count(1, || format!("the length of {}", what()))?;
        Ok(String::from_utf8_lossy(self.take(len)?).into_owned())
    }

    /// A value of type `vtype`, passed over; `key` names it for the message.
    fn skip(&mut self, vtype: u32, key: &str, depth: u32) -> Step<()> {
        match vtype {
            STRING => {
                let len = self.count(1, || format!("the length of a string in '{key}'"))?;
                self.take(len)?;
            }
            ARRAY => {
                if depth >= MAX_NESTING {
                    return bad(format!(
                        "the GGUF file's header is damaged: the metadata entry '{key}' nests arrays more than \
                         {MAX_NESTING} deep"
                    ));
                }
                let elem = self.u32()?;
                let min = min_value_bytes(elem, key)?;
                let n = self.count(min, || format!("the length of the array '{key}'"))?;
                match fixed_value_bytes(elem) {
                    // The count was checked against the file, so this cannot overflow.
                    Some(size) => {
                        self.take(n * size)?;
                    }
                    None => {
                        for _ in 0..n {
                            self.skip(elem, key, depth + 1)?;
                        }
                    }
                }
            }
            _ => {
                let size = min_value_bytes(vtype, key)?;
                self.take(size)?;
            }
        }
        Ok(())
    }

    /// A scalar value as text, or `None` for an array (passed over).
    fn scalar_text(&mut self, vtype: u32, key: &str) -> Step<Option<String>> {
        if vtype == ARRAY {
            self.skip(vtype, key, 0)?;
            return Ok(None);
        }
        if vtype == STRING {
            let text = self.string(|| format!("the metadata entry '{key}'"))?;
            return Ok(Some(text.chars().take(MAX_SHOWN_CHARS).collect()));
        }
        let text = match vtype {
            F32 => f32::from_le_bytes(self.array()?).to_string(),
            F64 => f64::from_le_bytes(self.array()?).to_string(),
            BOOL => (self.array::<1>()?[0] != 0).to_string(),
            _ => self.integer(vtype, key)?.to_string(),
        };
        Ok(Some(text))
    }

    /// An integer value of any of GGUF's integer types.
    fn integer(&mut self, vtype: u32, key: &str) -> Step<i128> {
        let bytes = self.take(min_value_bytes(vtype, key)?)?;
        integer_from(vtype, bytes).map_or_else(|| bad(not_a(key, vtype, "an integer")), Ok)
    }

    /// An array of strings (the tokens, the merges).
    fn strings(&mut self, vtype: u32, key: &str) -> Step<Vec<String>> {
        let elem = if vtype == ARRAY { self.u32()? } else { u32::MAX };
        if elem != STRING {
            return bad(not_a(key, if vtype == ARRAY { elem } else { vtype }, "an array of strings"));
        }
        let n = self.count(8, || format!("the length of the array '{key}'"))?;
        let mut out = Vec::with_capacity(self.capacity(n, 8));
        for _ in 0..n {
            out.push(self.string(|| format!("a string in '{key}'"))?);
        }
        Ok(out)
    }

    /// An array of integers that fit an `i32` (the token types).
    fn integers(&mut self, vtype: u32, key: &str) -> Step<Vec<i32>> {
        let elem = if vtype == ARRAY { self.u32()? } else { u32::MAX };
        let Some(size) = fixed_value_bytes(elem).filter(|_| integer_from(elem, &[0; 8]).is_some()) else {
            return bad(not_a(key, if vtype == ARRAY { elem } else { vtype }, "an array of integers"));
        };
        let n = self.count(size, || format!("the length of the array '{key}'"))?;
        let bytes = self.take(n * size)?;
        let mut out = Vec::with_capacity(n as usize);
        for value in bytes.chunks_exact(size as usize) {
            let v = integer_from(elem, value).and_then(|v| i32::try_from(v).ok());
            let Some(v) = v else {
                return bad(format!("the GGUF file's header is damaged: '{key}' holds a value out of range"));
            };
            out.push(v);
        }
        Ok(out)
    }
}

// GGUF's value types.
const U8: u32 = 0;
const I8: u32 = 1;
const U16: u32 = 2;
const I16: u32 = 3;
const U32: u32 = 4;
const I32: u32 = 5;
const F32: u32 = 6;
const BOOL: u32 = 7;
const STRING: u32 = 8;
const ARRAY: u32 = 9;
const U64: u32 = 10;
const I64: u32 = 11;
const F64: u32 = 12;

/// The bytes a value of a fixed-size type takes (`None` for strings, arrays and unknown types).
fn fixed_value_bytes(vtype: u32) -> Option<u64> {
    match vtype {
        U8 | I8 | BOOL => Some(1),
        U16 | I16 => Some(2),
        U32 | I32 | F32 => Some(4),
        U64 | I64 | F64 => Some(8),
        _ => None,
    }
}

/// The fewest bytes a value of `vtype` takes; an unknown type is an error.
fn min_value_bytes(vtype: u32, key: &str) -> Step<u64> {
    match vtype {
        STRING => Ok(8),
        ARRAY => Ok(4 + 8),
        _ => fixed_value_bytes(vtype).map_or_else(
            || {
                bad(format!(
                    "the GGUF file's header is damaged: the metadata entry '{key}' has value type {vtype}, which \
                     GGUF does not define"
                ))
            },
            Ok,
        ),
    }
}

/// The little-endian integer of type `vtype` in `bytes` (`None` when `vtype` is not an
/// integer type). **Unchecked precondition:** `bytes` holds at least the type's size.
fn integer_from(vtype: u32, b: &[u8]) -> Option<i128> {
    Some(match vtype {
        U8 => i128::from(b[0]),
        I8 => i128::from(b[0] as i8),
        U16 => i128::from(u16::from_le_bytes([b[0], b[1]])),
        I16 => i128::from(i16::from_le_bytes([b[0], b[1]])),
        U32 => i128::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        I32 => i128::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        U64 => i128::from(u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])),
        I64 => i128::from(i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])),
        _ => return None,
    })
}

/// GGUF's name of a value type, for messages.
fn value_type_name(vtype: u32) -> String {
    const NAMES: [&str; 13] = [
        "uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "bool", "string", "array",
        "uint64", "int64", "float64",
    ];
    NAMES.get(vtype as usize).map_or_else(|| format!("type {vtype}"), |name| name.to_string())
}

fn not_a(key: &str, vtype: u32, expected: &str) -> String {
    format!(
        "the GGUF file's metadata entry '{key}' holds {} values where llama.cpp writes {expected}; the file is \
         damaged or was written by a tool llama.cpp does not read either",
        value_type_name(vtype)
    )
}

/// The header, from the magic to the last tensor info.
fn parse(r: &mut Reader) -> Step<RawHeader> {
    let version = read_version(r)?;
    let n_tensors = r.count(MIN_TENSOR_INFO, || "its tensor count".to_string())?;
    let n_kv = r.count(MIN_ENTRY, || "its metadata count".to_string())?;
    let mut raw = RawHeader { version, ..RawHeader::default() };
    let alignment = read_metadata(r, n_kv, &mut raw)?;
    let infos = read_tensor_infos(r, n_tensors)?;
    let header_end = r.pos as u64;
    let data_start = header_end.div_ceil(alignment) * alignment;
    place_tensors(infos, data_start, r.file_len, &mut raw)?;
    Ok(raw)
}

/// The magic and the version, refused unless a version this reader knows.
fn read_version(r: &mut Reader) -> Step<u32> {
    let magic = &r.bytes[..r.bytes.len().min(4)];
    if !b"GGUF".starts_with(magic) {
        return bad("this is not a GGUF file: it does not start with the letters GGUF".to_string());
    }
    r.take(4)?;
    let version = r.u32()?;
    if version != 0 && version & 0xFFFF == 0 {
        return bad(
            "this GGUF file is big-endian (made for IBM mainframes); embedscope reads the little-endian files \
             llama.cpp and Ollama share"
                .to_string(),
        );
    }
    match version {
        2 | 3 => {}
        1 => {
            return bad(
                "this GGUF file is version 1 (from August 2023), which embedscope does not read; convert \
                        the model again with a current llama.cpp"
                    .to_string(),
            );
        }
        _ => {
            return bad(format!(
                "this GGUF file says it is version {version}; embedscope reads versions 2 and 3 (the file may be \
                 damaged, or newer than embedscope)"
            ));
        }
    }
    Ok(version)
}

/// The `n_kv` metadata entries into `raw`: the tokenizer's lists and the entries shown; the
/// data's alignment.
fn read_metadata(r: &mut Reader, n_kv: u64, raw: &mut RawHeader) -> Step<u64> {
    let mut alignment = 32;
    for _ in 0..n_kv {
        let key = r.string(|| "a metadata key".to_string())?;
        let vtype = r.u32()?;
        match key.as_str() {
            "general.alignment" => {
                let value = r.integer(vtype, &key)?;
                if !(1..=1 << 30).contains(&value) || value.count_ones() != 1 {
                    return bad(format!(
                        "the GGUF file's header is damaged: its general.alignment is {value}, not a power of two"
                    ));
                }
                alignment = value as u64;
                raw.metadata.push((key, value.to_string()));
            }
            "tokenizer.ggml.tokens" => raw.tokens = Some(r.strings(vtype, &key)?),
            "tokenizer.ggml.merges" => raw.merges = Some(r.strings(vtype, &key)?),
            "tokenizer.ggml.token_type" => raw.token_types = Some(r.integers(vtype, &key)?),
            "tokenizer.ggml.model" if vtype != STRING => return bad(not_a(&key, vtype, "a string")),
            k if SHOWN.contains(&k) => {
                if let Some(text) = r.scalar_text(vtype, &key)? {
                    if key == "tokenizer.ggml.model" {
                        raw.tokenizer_model = Some(text.clone());
                    }
                    raw.metadata.push((key, text));
                }
            }
            _ => r.skip(vtype, &key, 0)?,
        }
    }

    Ok(alignment)
}

/// A tensor as its info describes it, before its bytes are placed in the file.
struct TensorHead {
    name: String,
    shape: Vec<u64>,
    type_id: u32,
    offset: u64,
    elements: u64,
    row: u64,
}

/// The `n_tensors` tensor infos.
fn read_tensor_infos(r: &mut Reader, n_tensors: u64) -> Step<Vec<TensorHead>> {
    let mut infos = Vec::with_capacity(r.capacity(n_tensors, MIN_TENSOR_INFO));
    for _ in 0..n_tensors {
        let name = r.string(|| "a tensor's name".to_string())?;
        let n_dims = r.u32()?;
        if n_dims > MAX_DIMS {
            return bad(format!(
                "the GGUF file's header is damaged: the tensor '{name}' has {n_dims} dimensions, more than \
                 GGUF's {MAX_DIMS}"
            ));
        }
        let mut ne = Vec::with_capacity(n_dims as usize);
        for _ in 0..n_dims {
            ne.push(r.u64()?);
        }
        let type_id = r.u32()?;
        let offset = r.u64()?;
        let elements =
            ne.iter().try_fold(1u64, |product, &n| product.checked_mul(n).filter(|&p| p < 1 << 62));
        let Some(elements) = elements else {
            return bad(format!(
                "the GGUF file's header is damaged: the tensor '{name}' has dimensions {ne:?}, too many values for \
                 any file"
            ));
        };
        let row = ne.first().copied().unwrap_or(1);
        ne.reverse();
        infos.push(TensorHead { name, shape: ne, type_id, offset, elements, row });
    }
    Ok(infos)
}

/// Each tensor's type, bytes and place in a file of `file_len` bytes whose data starts at
/// `data_start`, into `raw`; refused when a tensor's bytes do not fit its type or the file.
fn place_tensors(infos: Vec<TensorHead>, data_start: u64, file_len: u64, raw: &mut RawHeader) -> Step<()> {
    // A type ggml does not name has no known size: it is given the room up to the next
    // tensor's start, or the file's end.
    let mut starts: Vec<u64> = infos.iter().map(|t| t.offset).collect();
    starts.sort_unstable();
    for info in infos {
        let (dtype, len) = match ggml_type(info.type_id) {
            Some((name, values, bytes)) => {
                if info.row % values != 0 {
                    return bad(format!(
                        "the GGUF file's header is damaged: the tensor '{}' has rows of {} values, which {name} \
                         stores in blocks of {values}",
                        info.name, info.row
                    ));
                }
                let dtype =
                    element_type(info.type_id).map_or_else(|| Dtype::Other(name.to_string()), Dtype::Known);
                let Some(len) = (info.elements / values).checked_mul(bytes) else {
                    return bad(format!(
                        "the GGUF file's header is damaged: the tensor '{}' would take more bytes than any file holds",
                        info.name
                    ));
                };
                (dtype, len)
            }
            None => {
                let next = starts.iter().find(|&&s| s > info.offset).map(|&s| data_start.saturating_add(s));
                let end = next.unwrap_or(file_len);
                (
                    Dtype::Other(format!("ggml type {}", info.type_id)),
                    end.saturating_sub(data_start.saturating_add(info.offset)),
                )
            }
        };
        let start = data_start.saturating_add(info.offset);
        let end = start.saturating_add(len);
        if end > file_len {
            return bad(format!(
                "the GGUF file is cut short: the tensor '{}' ({} bytes) ends at byte {end}, but the file has {file_len} \
                 bytes; download the model again",
                info.name, len
            ));
        }
        raw.tensors.push(TensorInfo { name: info.name, dtype, shape: info.shape, offset: start, len });
    }
    Ok(())
}

#[cfg(test)]
mod tests;
