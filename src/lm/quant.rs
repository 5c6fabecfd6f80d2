//! A tensor's bytes to `f32`s: F32, F16 and BF16 as stored, and ggml's quantized blocks
//! dequantized exactly as ggml does.
//!
//! Each quantized type stores its values in blocks of 32 (the legacy types `Q4_0` to
//! `Q8_0`) or 256 (the K-quants, `QK_K`): a half-precision scale (and, for some, a minimum)
//! and the values' low bits. The block layouts and the arithmetic follow ggml's
//! `dequantize_row_*` in `ggml-quants.c` line for line, in the same order of operations
//! (`d * sc` first, then the value; no fused multiply-add), so every `f32` has the bits
//! ggml and llama.cpp's Python `gguf.quants.dequantize` give it.
//!
//! The loops run over fixed-size blocks (`as_chunks`), so the compiler knows every index is
//! in bounds and no value allocates: a 128,256 × 4,096 matrix dequantizes in well under a
//! second, natively and in wasm (`dequantize_speed` in tests/lm_gguf.rs).

use super::ElementType;
use crate::vectors::f16_to_f32;

/// Values in a K-quant's super-block (ggml's `QK_K`).
const QK_K: usize = 256;

/// How many values one block of `t` holds, and how many bytes it takes.
pub fn block_size(t: ElementType) -> (usize, usize) {
    match t {
        ElementType::F32 => (1, 4),
        ElementType::F16 | ElementType::BF16 => (1, 2),
        // d (f16), 32 × i8.
        ElementType::Q8_0 => (32, 2 + 32),
        // d (f16), 32 × 4 bits.
        ElementType::Q4_0 => (32, 2 + 16),
        // d, m (f16), 32 × 4 bits.
        ElementType::Q4_1 => (32, 2 + 2 + 16),
        // d (f16), the 32 fifth bits, 32 × 4 bits.
        ElementType::Q5_0 => (32, 2 + 4 + 16),
        // d, m (f16), the 32 fifth bits, 32 × 4 bits.
        ElementType::Q5_1 => (32, 2 + 2 + 4 + 16),
        // 16 scales and mins (4 bits each), 256 × 2 bits, d, dmin.
        ElementType::Q2K => (QK_K, QK_K / 16 + QK_K / 4 + 2 + 2),
        // The 256 third bits, 256 × 2 bits, 16 scales (6 bits), d.
        ElementType::Q3K => (QK_K, QK_K / 8 + QK_K / 4 + 12 + 2),
        // d, dmin, 8 scales and mins (6 bits), 256 × 4 bits.
        ElementType::Q4K => (QK_K, 2 + 2 + 12 + QK_K / 2),
        // d, dmin, 8 scales and mins (6 bits), the 256 fifth bits, 256 × 4 bits.
        ElementType::Q5K => (QK_K, 2 + 2 + 12 + QK_K / 8 + QK_K / 2),
        // 256 low 4 bits, 256 high 2 bits, 16 scales (i8), d.
        ElementType::Q6K => (QK_K, QK_K / 2 + QK_K / 4 + QK_K / 16 + 2),
    }
}

/// Decodes whole blocks of `t` from `bytes` into `out`. **Unchecked precondition:**
/// `bytes.len()` is a whole number of blocks and `out.len()` is their values (where they
/// are not, only the blocks both hold whole are decoded).
pub fn dequantize(t: ElementType, bytes: &[u8], out: &mut [f32]) {
    match t {
        ElementType::F32 => blocks::<4, 1>(bytes, out, |b, y| y[0] = f32::from_le_bytes(*b)),
        ElementType::F16 => blocks::<2, 1>(bytes, out, |b, y| y[0] = f16_to_f32(u16::from_le_bytes(*b))),
        ElementType::BF16 => {
            blocks::<2, 1>(bytes, out, |b, y| y[0] = f32::from_bits(u32::from(u16::from_le_bytes(*b)) << 16))
        }
        ElementType::Q8_0 => blocks::<34, 32>(bytes, out, q8_0),
        ElementType::Q4_0 => blocks::<18, 32>(bytes, out, q4_0),
        ElementType::Q4_1 => blocks::<20, 32>(bytes, out, q4_1),
        ElementType::Q5_0 => blocks::<22, 32>(bytes, out, q5_0),
        ElementType::Q5_1 => blocks::<24, 32>(bytes, out, q5_1),
        ElementType::Q2K => blocks::<84, QK_K>(bytes, out, q2_k),
        ElementType::Q3K => blocks::<110, QK_K>(bytes, out, q3_k),
        ElementType::Q4K => blocks::<144, QK_K>(bytes, out, q4_k),
        ElementType::Q5K => blocks::<176, QK_K>(bytes, out, q5_k),
        ElementType::Q6K => blocks::<210, QK_K>(bytes, out, q6_k),
    }
}

/// Runs `decode` over the blocks of `B` bytes in `bytes` and of `V` values in `out`.
#[inline(always)]
fn blocks<const B: usize, const V: usize>(
    bytes: &[u8],
    out: &mut [f32],
    decode: impl Fn(&[u8; B], &mut [f32; V]),
) {
    let (blocks, _) = bytes.as_chunks::<B>();
    let (values, _) = out.as_chunks_mut::<V>();
    for (block, y) in blocks.iter().zip(values) {
        decode(block, y);
    }
}

/// The half-precision float at `at` (ggml's `GGML_FP16_TO_FP32`, exact).
#[inline(always)]
fn half(b: &[u8], at: usize) -> f32 {
    f16_to_f32(u16::from_le_bytes([b[at], b[at + 1]]))
}

/// ggml's `block_q8_0`: `y = q * d`.
#[inline(always)]
fn q8_0(b: &[u8; 34], y: &mut [f32; 32]) {
    let d = half(b, 0);
    for (y, &q) in y.iter_mut().zip(&b[2..]) {
        *y = f32::from(q as i8) * d;
    }
}

/// ggml's `block_q4_0`: byte `j` holds value `j` in its low half and `j + 16` in its high
/// half; `y = (q - 8) * d`.
#[inline(always)]
fn q4_0(b: &[u8; 18], y: &mut [f32; 32]) {
    let d = half(b, 0);
    let (lo, hi) = y.split_at_mut(16);
    for ((&q, lo), hi) in b[2..].iter().zip(lo).zip(hi) {
        *lo = (i32::from(q & 0x0F) - 8) as f32 * d;
        *hi = (i32::from(q >> 4) - 8) as f32 * d;
    }
}

/// ggml's `block_q4_1`: as [`q4_0`] with a minimum, `y = q * d + m`.
#[inline(always)]
fn q4_1(b: &[u8; 20], y: &mut [f32; 32]) {
    let (d, m) = (half(b, 0), half(b, 2));
    let (lo, hi) = y.split_at_mut(16);
    for ((&q, lo), hi) in b[4..].iter().zip(lo).zip(hi) {
        *lo = f32::from(q & 0x0F) * d + m;
        *hi = f32::from(q >> 4) * d + m;
    }
}

/// ggml's `block_q5_0`: as [`q4_0`] with each value's fifth bit in a little-endian `u32`
/// (bit `j` for value `j`); `y = (q - 16) * d`.
#[inline(always)]
fn q5_0(b: &[u8; 22], y: &mut [f32; 32]) {
    let d = half(b, 0);
    let qh = u32::from_le_bytes([b[2], b[3], b[4], b[5]]);
    let (lo, hi) = y.split_at_mut(16);
    for (j, ((&q, lo), hi)) in b[6..].iter().zip(lo).zip(hi).enumerate() {
        let h0 = ((qh >> j) << 4) & 0x10;
        let h1 = (qh >> (j + 12)) & 0x10;
        *lo = ((u32::from(q & 0x0F) | h0) as i32 - 16) as f32 * d;
        *hi = ((u32::from(q >> 4) | h1) as i32 - 16) as f32 * d;
    }
}

/// ggml's `block_q5_1`: as [`q5_0`] with a minimum, `y = q * d + m`.
#[inline(always)]
fn q5_1(b: &[u8; 24], y: &mut [f32; 32]) {
    let (d, m) = (half(b, 0), half(b, 2));
    let qh = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
    let (lo, hi) = y.split_at_mut(16);
    for (j, ((&q, lo), hi)) in b[8..].iter().zip(lo).zip(hi).enumerate() {
        let h0 = ((qh >> j) << 4) & 0x10;
        let h1 = (qh >> (j + 12)) & 0x10;
        *lo = (u32::from(q & 0x0F) | h0) as f32 * d + m;
        *hi = (u32::from(q >> 4) | h1) as f32 * d + m;
    }
}

/// ggml's `block_q2_K`: 16 groups of 16 values, each with a 4-bit scale and a 4-bit
/// minimum; byte `l` of a 32-byte run holds 2 bits of 4 values, 32 apart.
/// `y = (d * scale) * q - dmin * min`.
#[inline(always)]
fn q2_k(b: &[u8; 84], y: &mut [f32; QK_K]) {
    let (scales, rest) = b.split_at(16);
    let (qs, rest) = rest.split_at(64);
    let (d, dmin) = (half(rest, 0), half(rest, 2));
    for (half_idx, (q, y)) in qs.chunks_exact(32).zip(y.chunks_exact_mut(128)).enumerate() {
        for (j, y) in y.chunks_exact_mut(32).enumerate() {
            let shift = 2 * j;
            for (h, (q, y)) in q.chunks_exact(16).zip(y.chunks_exact_mut(16)).enumerate() {
                let sc = scales[8 * half_idx + 2 * j + h];
                let dl = d * f32::from(sc & 0x0F);
                let ml = dmin * f32::from(sc >> 4);
                for (y, &q) in y.iter_mut().zip(q) {
                    *y = dl * f32::from((q >> shift) & 3) - ml;
                }
            }
        }
    }
}

/// ggml's `block_q3_K`: as [`q2_k`]'s layout for the low 2 bits, the third bit in `hmask`
/// (set means no offset, clear means −4), and 16 signed 6-bit scales packed in 12 bytes.
/// `y = (d * (scale - 32)) * q`.
#[inline(always)]
fn q3_k(b: &[u8; 110], y: &mut [f32; QK_K]) {
    let (hmask, rest) = b.split_at(32);
    let (qs, rest) = rest.split_at(64);
    let (packed, rest) = rest.split_at(12);
    let d = half(rest, 0);
    // Scale s: its low 4 bits in byte s (s < 8) or the high half of byte s - 8; its high 2
    // bits in byte 8 + s % 4 at bit 2 * (s / 4).
    let mut scales = [0i32; 16];
    for (s, scale) in scales.iter_mut().enumerate() {
        let low = if s < 8 { packed[s] & 0x0F } else { packed[s - 8] >> 4 };
        let high = (packed[8 + s % 4] >> (2 * (s / 4))) & 3;
        *scale = i32::from(low | (high << 4)) - 32;
    }
    for (half_idx, (q, y)) in qs.chunks_exact(32).zip(y.chunks_exact_mut(128)).enumerate() {
        for (j, y) in y.chunks_exact_mut(32).enumerate() {
            let shift = 2 * j;
            let bit = 1u8 << (4 * half_idx + j);
            for (h, ((q, hm), y)) in
                q.chunks_exact(16).zip(hmask.chunks_exact(16)).zip(y.chunks_exact_mut(16)).enumerate()
            {
                let dl = d * scales[8 * half_idx + 2 * j + h] as f32;
                for ((y, &q), &hm) in y.iter_mut().zip(q).zip(hm) {
                    let offset = if hm & bit != 0 { 0 } else { 4 };
                    *y = dl * (i32::from((q >> shift) & 3) - offset) as f32;
                }
            }
        }
    }
}

/// ggml's `get_scale_min_k4`: scale and minimum `j` (0..8) of a Q4_K or Q5_K block, 6 bits
/// each packed in 12 bytes.
#[inline(always)]
fn scale_min_k4(j: usize, q: &[u8]) -> (u8, u8) {
    if j < 4 {
        (q[j] & 63, q[j + 4] & 63)
    } else {
        ((q[j + 4] & 0x0F) | ((q[j - 4] >> 6) << 4), (q[j + 4] >> 4) | ((q[j] >> 6) << 4))
    }
}

/// ggml's `block_q4_K`: 8 groups of 32 values, each with a 6-bit scale and minimum; a run of
/// 32 bytes holds two groups (low halves, then high halves).
/// `y = (d * scale) * q - dmin * min`.
#[inline(always)]
fn q4_k(b: &[u8; 144], y: &mut [f32; QK_K]) {
    let (d, dmin) = (half(b, 0), half(b, 2));
    let packed = &b[4..16];
    for (j, (q, y)) in b[16..].chunks_exact(32).zip(y.chunks_exact_mut(64)).enumerate() {
        let (sc1, m1) = scale_min_k4(2 * j, packed);
        let (sc2, m2) = scale_min_k4(2 * j + 1, packed);
        let (d1, m1) = (d * f32::from(sc1), dmin * f32::from(m1));
        let (d2, m2) = (d * f32::from(sc2), dmin * f32::from(m2));
        let (lo, hi) = y.split_at_mut(32);
        for ((&q, lo), hi) in q.iter().zip(lo).zip(hi) {
            *lo = d1 * f32::from(q & 0x0F) - m1;
            *hi = d2 * f32::from(q >> 4) - m2;
        }
    }
}

/// ggml's `block_q5_K`: as [`q4_k`] with each value's fifth bit in `qh` (byte `l`, bit
/// `2j` for group `2j`'s value `l`, bit `2j + 1` for group `2j + 1`'s).
#[inline(always)]
fn q5_k(b: &[u8; 176], y: &mut [f32; QK_K]) {
    let (d, dmin) = (half(b, 0), half(b, 2));
    let packed = &b[4..16];
    let qh = &b[16..48];
    for (j, (ql, y)) in b[48..].chunks_exact(32).zip(y.chunks_exact_mut(64)).enumerate() {
        let (sc1, m1) = scale_min_k4(2 * j, packed);
        let (sc2, m2) = scale_min_k4(2 * j + 1, packed);
        let (d1, m1) = (d * f32::from(sc1), dmin * f32::from(m1));
        let (d2, m2) = (d * f32::from(sc2), dmin * f32::from(m2));
        let (u1, u2) = (1u8 << (2 * j), 2u8 << (2 * j));
        let (lo, hi) = y.split_at_mut(32);
        for (((&q, &h), lo), hi) in ql.iter().zip(qh).zip(lo).zip(hi) {
            let h1 = if h & u1 != 0 { 16 } else { 0 };
            let h2 = if h & u2 != 0 { 16 } else { 0 };
            *lo = d1 * f32::from((q & 0x0F) + h1) - m1;
            *hi = d2 * f32::from((q >> 4) + h2) - m2;
        }
    }
}

/// ggml's `block_q6_K`: 16 groups of 16 values with signed 8-bit scales; each half of the
/// block keeps 4 bits of its 128 values in 64 bytes of `ql` and 2 bits in 32 bytes of `qh`.
/// `y = (d * scale) * (q - 32)`.
#[inline(always)]
fn q6_k(b: &[u8; 210], y: &mut [f32; QK_K]) {
    let (ql, rest) = b.split_at(128);
    let (qh, rest) = rest.split_at(64);
    let (scales, rest) = rest.split_at(16);
    let d = half(rest, 0);
    for (n, y) in y.chunks_exact_mut(128).enumerate() {
        let (ql, qh, sc) = (&ql[64 * n..64 * n + 64], &qh[32 * n..32 * n + 32], &scales[8 * n..8 * n + 8]);
        let (y01, y23) = y.split_at_mut(64);
        let (y0, y1) = y01.split_at_mut(32);
        let (y2, y3) = y23.split_at_mut(32);
        for l in 0..32 {
            let is = l / 16;
            let (a, c, h) = (ql[l], ql[l + 32], qh[l]);
            let q1 = ((a & 0x0F) | ((h & 3) << 4)) as i8 - 32;
            let q2 = ((c & 0x0F) | (((h >> 2) & 3) << 4)) as i8 - 32;
            let q3 = ((a >> 4) | (((h >> 4) & 3) << 4)) as i8 - 32;
            let q4 = ((c >> 4) | (((h >> 6) & 3) << 4)) as i8 - 32;
            y0[l] = d * f32::from(sc[is] as i8) * f32::from(q1);
            y1[l] = d * f32::from(sc[is + 2] as i8) * f32::from(q2);
            y2[l] = d * f32::from(sc[is + 4] as i8) * f32::from(q3);
            y3[l] = d * f32::from(sc[is + 6] as i8) * f32::from(q4);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [ElementType; 13] = [
        ElementType::F32,
        ElementType::F16,
        ElementType::BF16,
        ElementType::Q8_0,
        ElementType::Q4_0,
        ElementType::Q4_1,
        ElementType::Q5_0,
        ElementType::Q5_1,
        ElementType::Q2K,
        ElementType::Q3K,
        ElementType::Q4K,
        ElementType::Q5K,
        ElementType::Q6K,
    ];

    fn decode(t: ElementType, bytes: &[u8]) -> Vec<f32> {
        let (values, size) = block_size(t);
        assert_eq!(bytes.len() % size, 0);
        let mut out = vec![f32::NAN; bytes.len() / size * values];
        dequantize(t, bytes, &mut out);
        out
    }

    /// ggml's `GGML_QUANT_SIZES` (llama.cpp's gguf-py constants.py).
    #[test]
    fn block_sizes_are_ggmls() {
        let expected = [(1, 4), (1, 2), (1, 2), (32, 34), (32, 18), (32, 20), (32, 22), (32, 24)];
        let k = [(256, 84), (256, 110), (256, 144), (256, 176), (256, 210)];
        let all: Vec<_> = ALL.iter().map(|&t| block_size(t)).collect();
        assert_eq!(all, [&expected[..], &k[..]].concat());
    }

    #[test]
    fn unquantized_types_keep_their_bits() {
        assert_eq!(decode(ElementType::F32, &(-1.5f32).to_le_bytes()), [-1.5]);
        // f16 0x3C00 is 1.0, 0xC000 is −2.0, 0x0001 the smallest subnormal (2^-24).
        assert_eq!(
            decode(ElementType::F16, &[0x00, 0x3C, 0x00, 0xC0, 0x01, 0x00]),
            [1.0, -2.0, 2f32.powi(-24)]
        );
        // BF16 is the f32's top half: 0x3FC0 is 1.5, 0xC2F7 is −123.5.
        assert_eq!(decode(ElementType::BF16, &[0xC0, 0x3F, 0xF7, 0xC2]), [1.5, -123.5]);
    }

    /// A Q4_0 block worked by hand: d = 0.5 (f16 0x3800); byte j = 0x3A for j < 8 (values
    /// j: 0xA − 8 = 2 → 1.0; values j + 16: 0x3 − 8 = −5 → −2.5) and 0xF0 after (0 − 8 =
    /// −8 → −4.0; 0xF − 8 = 7 → 3.5).
    #[test]
    fn q4_0_block_by_hand() {
        let mut block = vec![0x00, 0x38];
        block.extend([0x3A; 8]);
        block.extend([0xF0; 8]);
        let y = decode(ElementType::Q4_0, &block);
        let mut expected = [1.0; 8].to_vec();
        expected.extend([-4.0; 8]);
        expected.extend([-2.5; 8]);
        expected.extend([3.5; 8]);
        assert_eq!(y, expected);
    }

    /// Q4_1 with d = 2 (0x4000), m = −1 (0xBC00): nibble 3 → 5, nibble 0xC → 23.
    #[test]
    fn q4_1_block_by_hand() {
        let mut block = vec![0x00, 0x40, 0x00, 0xBC];
        block.extend([0xC3; 16]);
        let y = decode(ElementType::Q4_1, &block);
        assert_eq!(y, [[5.0; 16], [23.0; 16]].concat());
    }

    /// Q8_0 with d = 0.25 (0x3400): bytes as i8 times d.
    #[test]
    fn q8_0_block_by_hand() {
        let mut block = vec![0x00, 0x34];
        block.extend((0..32).map(|i| (i as i8 * 4 - 64) as u8));
        let y = decode(ElementType::Q8_0, &block);
        let expected: Vec<f32> = (0..32).map(|i| (i * 4 - 64) as f32 * 0.25).collect();
        assert_eq!(y, expected);
    }

    /// Q5_0 and Q5_1: the fifth bit of value j is bit j of the little-endian `qh`. With
    /// qh = 0x0001_8000 (bits 15 and 16) and every nibble 0, only values 15 and 16 have 16.
    #[test]
    fn q5_blocks_by_hand() {
        let mut block = vec![0x00, 0x3C, 0x00, 0x80, 0x01, 0x00];
        block.extend([0; 16]);
        let y = decode(ElementType::Q5_0, &block);
        let expected: Vec<f32> = (0..32).map(|j| if j == 15 || j == 16 { 0.0 } else { -16.0 }).collect();
        assert_eq!(y, expected);
        // Q5_1: d = 1, m = 0.5 (0x3800).
        let mut block = vec![0x00, 0x3C, 0x00, 0x38, 0x00, 0x80, 0x01, 0x00];
        block.extend([0x21; 16]);
        let y = decode(ElementType::Q5_1, &block);
        let expected: Vec<f32> = (0..32)
            .map(|j| {
                let q = if j < 16 { 1 } else { 2 } + if j == 15 || j == 16 { 16 } else { 0 };
                q as f32 + 0.5
            })
            .collect();
        assert_eq!(y, expected);
    }

    /// Q4_K: d = 1, dmin = 0.5. Scales 0..4 sit in bytes 0..4 (6 bits), mins in 4..8; scale
    /// and min 4..8 take their low 4 bits from bytes 8..12 and their top 2 from bytes 0..8's
    /// top bits. Scale 5 = 0b10_0011 (35): byte 9 low nibble 3, byte 1 top bits 0b10.
    /// Min 5 = 0b01_0010 (18): byte 9 high nibble 2, byte 5 top bits 0b01.
    #[test]
    fn q4_k_scales_by_hand() {
        let mut block = vec![0x00, 0x3C, 0x00, 0x38];
        let mut scales = [0u8; 12];
        scales[0] = 7; // scale 0
        scales[4] = 3; // min 0
        scales[1] = 0b10 << 6;
        scales[5] = 0b01 << 6;
        scales[9] = 0x23;
        block.extend(scales);
        // Byte l of run 2 (groups 4 and 5): low nibble 1, high nibble 2.
        let mut qs = [0u8; 128];
        qs[64..96].fill(0x21);
        qs[0..32].fill(0x05);
        block.extend(qs);
        let y = decode(ElementType::Q4K, &block);
        // Group 0: 7 * 5 - 0.5 * 3; group 1: 0 * 0 - 0; group 4: 0 * 1 - 0; group 5: 35 * 2 - 9.
        assert_eq!(&y[..32], &[33.5; 32]);
        assert_eq!(&y[32..64], &[0.0; 32]);
        assert_eq!(&y[128..160], &[0.0; 32]);
        assert_eq!(&y[160..192], &[61.0; 32]);
    }

    /// Q6_K: value 0 is ql[0]'s low nibble with qh[0]'s bits 0–1 on top, minus 32, times d
    /// and scale 0; value 96 is ql[32]'s high nibble with qh[0]'s bits 6–7, scale 6.
    #[test]
    fn q6_k_by_hand() {
        let mut block = [0u8; 210];
        block[0] = 0x0F; // value 0 low bits 15
        block[32] = 0x90; // value 96 low bits 9
        block[128] = 0b11_00_00_10; // value 0 high bits 2, value 96 high bits 3
        block[192] = 2; // scale 0
        block[198] = (-3i8) as u8; // scale 6
        block[208..].copy_from_slice(&[0x00, 0x38]); // d = 0.5
        let y = decode(ElementType::Q6K, &block);
        assert_eq!(y[0], 0.5 * 2.0 * (15.0 + 32.0 - 32.0));
        assert_eq!(y[96], 0.5 * -3.0 * (9.0 + 48.0 - 32.0));
        assert_eq!(y[1], 0.5 * 2.0 * -32.0);
    }

    /// Q2_K and Q3_K: value 32 * j + l of a 128-value half takes bits 2j of qs byte l.
    #[test]
    fn q2_k_and_q3_k_by_hand() {
        let mut block = [0u8; 84];
        block[2] = 0x31; // group 2 (values 32..48): scale 1, min 3
        block[16] = 0b00_00_11_00; // qs byte 0: value 32 gets 3
        block[80..82].copy_from_slice(&[0x00, 0x40]); // d = 2
        block[82..84].copy_from_slice(&[0x00, 0x3C]); // dmin = 1
        let y = decode(ElementType::Q2K, &block);
        assert_eq!(y[32], 2.0 * 3.0 - 3.0);
        assert_eq!(y[33], -3.0);
        assert_eq!(y[0], 0.0);

        let mut block = [0u8; 110];
        block[32] = 0b00_00_11_00; // qs byte 0: value 32 gets 3
        block[0] = 0b10; // hmask byte 0 bit 1: value 32 has no −4 offset
        // Scale 2 = 33 (33 − 32 = 1): low nibble 1 in byte 2, high bits 0b10 in byte 10.
        block[96 + 2] = 0x01;
        block[96 + 10] = 0b10;
        block[108..110].copy_from_slice(&[0x00, 0x40]); // d = 2
        let y = decode(ElementType::Q3K, &block);
        assert_eq!(y[32], 2.0 * 3.0);
        assert_eq!(y[33], 2.0 * -4.0);
        // Scale 0 is 0 − 32: value 0 is 2 * −32 * (0 − 4).
        assert_eq!(y[0], 256.0);
    }

    /// Q5_K: value l of group 2j + 1 takes its fifth bit from qh[l] bit 2j + 1.
    #[test]
    fn q5_k_by_hand() {
        let mut block = [0u8; 176];
        block[0..2].copy_from_slice(&[0x00, 0x3C]); // d = 1
        block[4 + 3] = 1; // scale 3 = 1 (group 3: values 96..128)
        block[16 + 5] = 0b1000; // qh[5] bit 3: value 96 + 5 gets 16
        block[48 + 32 + 5] = 0x70; // high nibble of run 1 byte 5: 7
        let y = decode(ElementType::Q5K, &block);
        assert_eq!(y[101], 23.0);
        assert_eq!(y[100], 0.0);
    }

    /// Short or ragged input never panics: only whole blocks are decoded.
    #[test]
    fn partial_blocks_are_left_alone() {
        for t in ALL {
            let (values, size) = block_size(t);
            let bytes = vec![0x11; size * 2 + 1];
            let mut out = vec![f32::NAN; values + 3];
            dequantize(t, &bytes, &mut out);
            let decoded = 2.min(out.len() / values) * values;
            assert!(out[..decoded].iter().all(|v| v.is_finite()), "{t:?}");
            assert!(out[decoded..].iter().all(|v| v.is_nan()), "{t:?}");
        }
    }
}
