//! safetensors, Hugging Face's tensor file: its JSON header, and the index of a model
//! sharded over several files.

use super::HeaderRead;
use crate::error::Result;

/// The largest header read, as the `safetensors` crate allows.
pub const MAX_HEADER_BYTES: u64 = 100_000_000;

/// Reads the header of a safetensors file from `prefix`, its first bytes; `file_len` is the
/// whole file's length, against which the tensors' extents are checked.
pub fn read_header(prefix: &[u8], file_len: u64) -> Result<HeaderRead> {
    let _ = (prefix, file_len);
    todo!("safetensors header")
}

/// `model.safetensors.index.json`: which shard holds each tensor.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardIndex {
    /// (tensor name, shard file name), in the index's order.
    pub weight_map: Vec<(String, String)>,
}

impl ShardIndex {
    /// Reads the index file's JSON.
    pub fn read(json: &[u8]) -> Result<ShardIndex> {
        let _ = json;
        todo!("index")
    }
}
