//! A tensor's bytes to `f32`s: F32, F16 and BF16 as stored, and ggml's quantized blocks
//! dequantized exactly as ggml does.

use super::ElementType;

/// How many values one block of `t` holds, and how many bytes it takes.
pub fn block_size(t: ElementType) -> (usize, usize) {
    match t {
        ElementType::F32 => (1, 4),
        ElementType::F16 | ElementType::BF16 => (1, 2),
        _ => todo!("block sizes of the quantized types"),
    }
}

/// Decodes whole blocks of `t` from `bytes` into `out`. **Unchecked precondition:**
/// `bytes.len()` is a whole number of blocks and `out.len()` is their values.
pub fn dequantize(t: ElementType, bytes: &[u8], out: &mut [f32]) {
    let _ = (t, bytes, out);
    todo!("dequantize")
}
