//! GGUF, llama.cpp's model file: its header (metadata, the tokenizer among it, and the
//! tensor infos), read from the file's first bytes.

use super::HeaderRead;
use crate::error::Result;

/// Reads the header of a GGUF file from `prefix`, its first bytes; `file_len` is the whole
/// file's length, against which the tensors' extents are checked.
pub fn read_header(prefix: &[u8], file_len: u64) -> Result<HeaderRead> {
    let _ = (prefix, file_len);
    todo!("GGUF header")
}
