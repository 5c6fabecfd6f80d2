//! ggml's tensor types, as a GGUF header names them: each one's name and block size, and
//! which of them embedscope decodes.

use crate::lm::ElementType;

/// ggml's tensor types: id, name, and block (values, bytes), as `ggml.h` and gguf-py's
/// `GGML_QUANT_SIZES` give them. The interleaved types ggml has retired (31–33, 36–38) keep
/// their names, so the message for an old file names what it holds.
#[rustfmt::skip]
const GGML_TYPES: &[(u32, &str, u64, u64)] = &[
    (0, "F32", 1, 4), (1, "F16", 1, 2), (2, "Q4_0", 32, 18), (3, "Q4_1", 32, 20),
    (6, "Q5_0", 32, 22), (7, "Q5_1", 32, 24), (8, "Q8_0", 32, 34), (9, "Q8_1", 32, 40),
    (10, "Q2_K", 256, 84), (11, "Q3_K", 256, 110), (12, "Q4_K", 256, 144), (13, "Q5_K", 256, 176),
    (14, "Q6_K", 256, 210), (15, "Q8_K", 256, 292), (16, "IQ2_XXS", 256, 66), (17, "IQ2_XS", 256, 74),
    (18, "IQ3_XXS", 256, 98), (19, "IQ1_S", 256, 50), (20, "IQ4_NL", 32, 18), (21, "IQ3_S", 256, 110),
    (22, "IQ2_S", 256, 82), (23, "IQ4_XS", 256, 136), (24, "I8", 1, 1), (25, "I16", 1, 2),
    (26, "I32", 1, 4), (27, "I64", 1, 8), (28, "F64", 1, 8), (29, "IQ1_M", 256, 56),
    (30, "BF16", 1, 2), (31, "Q4_0_4_4", 32, 18), (32, "Q4_0_4_8", 32, 18), (33, "Q4_0_8_8", 32, 18),
    (34, "TQ1_0", 256, 54), (35, "TQ2_0", 256, 66), (36, "IQ4_NL_4_4", 32, 18), (37, "IQ4_NL_4_8", 32, 18),
    (38, "IQ4_NL_8_8", 32, 18), (39, "MXFP4", 32, 17), (40, "NVFP4", 64, 36), (41, "Q1_0", 128, 18),
];

/// ggml's type `id`: its name and block (values, bytes), if ggml has such a type.
pub fn ggml_type(id: u32) -> Option<(&'static str, u64, u64)> {
    GGML_TYPES.iter().find(|t| t.0 == id).map(|&(_, name, values, bytes)| (name, values, bytes))
}

/// The element type embedscope reads that ggml's type `id` is.
pub(super) fn element_type(id: u32) -> Option<ElementType> {
    Some(match id {
        0 => ElementType::F32,
        1 => ElementType::F16,
        30 => ElementType::BF16,
        8 => ElementType::Q8_0,
        2 => ElementType::Q4_0,
        3 => ElementType::Q4_1,
        6 => ElementType::Q5_0,
        7 => ElementType::Q5_1,
        10 => ElementType::Q2K,
        11 => ElementType::Q3K,
        12 => ElementType::Q4K,
        13 => ElementType::Q5K,
        14 => ElementType::Q6K,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lm::quant;

    /// ggml's block sizes for the types embedscope reads are those quant.rs decodes.
    #[test]
    fn ggml_types_agree_with_the_decoder() {
        let mut known = 0;
        for &(id, name, values, bytes) in GGML_TYPES {
            if let Some(t) = element_type(id) {
                assert_eq!((t.name(), quant::block_size(t)), (name, (values as usize, bytes as usize)));
                known += 1;
            }
        }
        assert_eq!(known, 13);
    }
}
