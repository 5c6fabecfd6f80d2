use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};

use super::*;
use crate::fuzz::{mutate_bytes, random_bytes};
use crate::lm::ElementType;

// Builders of GGUF bytes, written from the layout in the module doc.

fn string(out: &mut Vec<u8>, text: &str) {
    out.extend((text.len() as u64).to_le_bytes());
    out.extend(text.as_bytes());
}

fn kv(key: &str, vtype: u32, value: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    string(&mut out, key);
    out.extend(vtype.to_le_bytes());
    out.extend(value);
    out
}

fn kv_str(key: &str, value: &str) -> Vec<u8> {
    let mut v = Vec::new();
    string(&mut v, value);
    kv(key, STRING, &v)
}

fn kv_u32(key: &str, value: u32) -> Vec<u8> {
    kv(key, U32, &value.to_le_bytes())
}

/// An array value: element type, count, elements.
fn array(elem: u32, n: u64, elements: &[u8]) -> Vec<u8> {
    let mut v = elem.to_le_bytes().to_vec();
    v.extend(n.to_le_bytes());
    v.extend(elements);
    v
}

fn kv_strings(key: &str, values: &[&str]) -> Vec<u8> {
    let mut elements = Vec::new();
    for v in values {
        string(&mut elements, v);
    }
    kv(key, ARRAY, &array(STRING, values.len() as u64, &elements))
}

fn kv_i32s(key: &str, values: &[i32]) -> Vec<u8> {
    let elements: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    kv(key, ARRAY, &array(I32, values.len() as u64, &elements))
}

fn info(name: &str, ne: &[u64], type_id: u32, offset: u64) -> Vec<u8> {
    let mut out = Vec::new();
    string(&mut out, name);
    out.extend((ne.len() as u32).to_le_bytes());
    for n in ne {
        out.extend(n.to_le_bytes());
    }
    out.extend(type_id.to_le_bytes());
    out.extend(offset.to_le_bytes());
    out
}

/// A version-3 file: the header, zeros to `alignment`, then `data_len` bytes of data.
fn file(kvs: &[Vec<u8>], infos: &[Vec<u8>], alignment: usize, data_len: usize) -> Vec<u8> {
    let mut out = b"GGUF".to_vec();
    out.extend(3u32.to_le_bytes());
    out.extend((infos.len() as u64).to_le_bytes());
    out.extend((kvs.len() as u64).to_le_bytes());
    for part in kvs.iter().chain(infos) {
        out.extend(part);
    }
    out.resize(out.len().div_ceil(alignment) * alignment, 0);
    out.resize(out.len() + data_len, 0x55);
    out
}

fn done(bytes: &[u8]) -> RawHeader {
    match read_raw(bytes, bytes.len() as u64) {
        Ok(Raw::Done(raw)) => raw,
        other => panic!("{other:?}"),
    }
}

fn error(bytes: &[u8], file_len: u64) -> String {
    match read_raw(bytes, file_len) {
        Err(Error::Model(message)) => message,
        other => panic!("expected an error, got {other:?}"),
    }
}

/// A tokenizer in the metadata, as llama.cpp's gpt2 files hold it.
fn tokenizer_kvs() -> Vec<Vec<u8>> {
    vec![
        kv_str("tokenizer.ggml.model", "gpt2"),
        kv_strings("tokenizer.ggml.tokens", &["a", "b", "ab", "Ġab", "<|end|>"]),
        kv_i32s("tokenizer.ggml.token_type", &[1, 1, 1, 1, 3]),
        kv_strings("tokenizer.ggml.merges", &["a b", "Ġ ab"]),
    ]
}

/// A file with metadata, a tokenizer and two tensors, the second 64-aligned after the first.
fn model_file() -> Vec<u8> {
    let mut kvs = vec![
        kv_str("general.architecture", "llama"),
        kv_u32("general.alignment", 64),
        kv_str("general.name", "Tiny"),
        kv(
            "tokenizer.ggml.scores",
            ARRAY,
            &array(F32, 5, &[1f32, 2., 3., 4., 5.].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()),
        ),
    ];
    kvs.extend(tokenizer_kvs());
    // Q4_K: 3 rows of one block (144 bytes); Q8_0: 3 rows of 8 blocks (34 bytes).
    let infos = [info("token_embd.weight", &[256, 3], 12, 0), info("output.weight", &[256, 3], 8, 448)];
    file(&kvs, &infos, 64, 448 + 816)
}

/// The smallest useful file, byte by byte: no metadata, one F16 tensor 'a' of ne [8, 2].
/// Its header takes 4 + 4 + 8 + 8 + (8 + 1) + 4 + 2 × 8 + 4 + 8 = 65 bytes, so the data
/// starts at 96; the tensor takes 16 values × 2 bytes.
#[test]
fn a_header_worked_by_hand() {
    #[rustfmt::skip]
    let mut bytes = vec![
        b'G', b'G', b'U', b'F', 3, 0, 0, 0,
        1, 0, 0, 0, 0, 0, 0, 0, // one tensor
        0, 0, 0, 0, 0, 0, 0, 0, // no metadata
        1, 0, 0, 0, 0, 0, 0, 0, b'a',
        2, 0, 0, 0, // two dimensions
        8, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
        1, 0, 0, 0, // F16
        0, 0, 0, 0, 0, 0, 0, 0, // offset 0
    ];
    assert_eq!(bytes.len(), 65);
    bytes.resize(128, 0);
    let raw = done(&bytes);
    assert_eq!(raw.version, 3);
    let expected = TensorInfo {
        name: "a".into(),
        dtype: Dtype::Known(ElementType::F16),
        shape: vec![2, 8],
        offset: 96,
        len: 32,
    };
    assert_eq!(raw.tensors, [expected]);
    assert!(raw.metadata.is_empty() && raw.tokens.is_none());
    // Version 2 has the same layout.
    bytes[4] = 2;
    assert_eq!(done(&bytes).tensors.len(), 1);
}

#[test]
fn metadata_tokenizer_and_tensors() {
    let bytes = model_file();
    let raw = done(&bytes);
    let text = |k: &str, v: &str| (k.to_string(), v.to_string());
    assert_eq!(
        raw.metadata,
        [
            text("general.architecture", "llama"),
            text("general.alignment", "64"),
            text("general.name", "Tiny"),
            text("tokenizer.ggml.model", "gpt2")
        ]
    );
    assert_eq!(raw.tokenizer_model.as_deref(), Some("gpt2"));
    assert_eq!(raw.tokens, Some(["a", "b", "ab", "Ġab", "<|end|>"].map(String::from).to_vec()));
    assert_eq!(raw.token_types, Some(vec![1, 1, 1, 1, 3]));
    assert_eq!(raw.merges, Some(vec!["a b".to_string(), "Ġ ab".to_string()]));
    let data_start = (bytes.len() - 448 - 816) as u64;
    assert_eq!(data_start % 64, 0);
    let [embd, output] = &raw.tensors[..] else { panic!("{:?}", raw.tensors) };
    assert_eq!((embd.name.as_str(), &embd.dtype), ("token_embd.weight", &Dtype::Known(ElementType::Q4K)));
    assert_eq!((embd.shape.as_slice(), embd.offset, embd.len), (&[3, 256][..], data_start, 3 * 144));
    assert_eq!((output.dtype.name(), output.offset, output.len), ("Q8_0", data_start + 448, 3 * 8 * 34));
}

#[test]
fn every_value_type_is_read_or_passed_over() {
    let f32s: Vec<u8> = [0.5f32, -1.0].iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut strings = Vec::new();
    string(&mut strings, "x");
    string(&mut strings, "");
    let nested = array(ARRAY, 2, &[array(U8, 3, &[1, 2, 3]), array(STRING, 1, &strings[..9])].concat());
    let kvs = [
        kv("u8", U8, &[7]),
        kv("i8", I8, &[0xFF]),
        kv("u16", U16, &[1, 2]),
        kv("i16", I16, &[1, 2]),
        kv("u32", U32, &[1, 2, 3, 4]),
        kv("i32", I32, &[1, 2, 3, 4]),
        kv("f32", F32, &[1, 2, 3, 4]),
        kv("bool", BOOL, &[1]),
        kv_str("string", "text"),
        kv("u64", U64, &[9; 8]),
        kv("i64", I64, &[9; 8]),
        kv("f64", F64, &[9; 8]),
        kv("floats", ARRAY, &array(F32, 2, &f32s)),
        kv("strings", ARRAY, &array(STRING, 2, &strings)),
        kv("nested", ARRAY, &nested),
        kv("empty", ARRAY, &array(U64, 0, &[])),
        // Shown keys, of the types files give them and others.
        kv_u32("general.quantization_version", 2),
        kv("general.version", F64, &1.5f64.to_le_bytes()),
        kv("general.finetune", BOOL, &[1]),
        kv("general.author", I8, &[0xFE]),
        kv("general.license", ARRAY, &array(STRING, 2, &strings)),
        kv_str("general.name", &"é".repeat(300)),
        kv("tokenizer.ggml.token_type", ARRAY, &array(U8, 3, &[1, 3, 6])),
    ];
    let raw = done(&file(&kvs, &[info("t", &[4], 0, 0)], 32, 16));
    let shown: Vec<(&str, &str)> = raw.metadata.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let name = "é".repeat(MAX_SHOWN_CHARS);
    assert_eq!(
        shown,
        [
            ("general.quantization_version", "2"),
            ("general.version", "1.5"),
            ("general.finetune", "true"),
            ("general.author", "-2"),
            ("general.name", name.as_str())
        ]
    );
    assert_eq!(raw.token_types, Some(vec![1, 3, 6]));
    assert_eq!(raw.tensors[0].len, 16);
}

#[test]
fn types_embedscope_does_not_read_are_named() {
    let infos = [
        info("q8_1", &[64, 2], 9, 0),     // 2 × 2 blocks of 36 bytes
        info("iq2", &[256], 16, 160),     // one block of 66 bytes
        info("i8", &[5], 24, 256),        // 5 bytes
        info("future", &[7, 7], 99, 288), // up to the file's end
        info("retired", &[32], 31, 264),  // Q4_0_4_4, one block of 18 bytes
    ];
    let bytes = file(&[], &infos, 32, 400);
    let raw = done(&bytes);
    let got: Vec<(&str, u64)> = raw.tensors.iter().map(|t| (t.dtype.name(), t.len)).collect();
    assert_eq!(
        got,
        [("Q8_1", 160), ("IQ2_XXS", 66), ("I8", 5), ("ggml type 99", 400 - 288), ("Q4_0_4_4", 18)]
    );
    assert!(raw.tensors.iter().all(|t| matches!(t.dtype, Dtype::Other(_))));
}

/// Bytes `b` with `patch` written at `at`.
fn patched(mut b: Vec<u8>, at: usize, patch: &[u8]) -> Vec<u8> {
    b[at..at + patch.len()].copy_from_slice(patch);
    b
}

#[test]
fn refusals_say_what_is_wrong() {
    let one = |kvs: &[Vec<u8>], infos: &[Vec<u8>]| file(kvs, infos, 32, 64);
    let tensor = [info("token_embd.weight", &[16], 0, 0)];
    let model = model_file();
    let lying_array = {
        let mut v = kv("tokenizer.ggml.tokens", ARRAY, &array(STRING, 1 << 40, &[]));
        v.extend([0; 16]);
        v
    };
    let mut deep = kv("deep", ARRAY, &[]);
    for _ in 0..12 {
        deep.extend(array(ARRAY, 1, &[]));
    }
    deep.extend(array(U8, 0, &[]));
    let cases: Vec<(Vec<u8>, u64, &str)> = vec![
        (b"PK\x03\x04 a zip file".to_vec(), 100, "not a GGUF file"),
        (patched(one(&[], &tensor), 4, &[1, 0, 0, 0]), 0, "version 1"),
        (patched(one(&[], &tensor), 4, &[0, 0, 0, 3]), 0, "big-endian"),
        (patched(one(&[], &tensor), 4, &[4, 0, 0, 0]), 0, "version 4"),
        (patched(one(&[], &tensor), 8, &[0xFF; 8]), 0, "its tensor count says 18446744073709551615"),
        (patched(one(&[], &tensor), 16, &[0, 0, 0, 1, 0, 0, 0, 0]), 0, "its metadata count says 16777216"),
        (
            one(&[lying_array], &tensor),
            0,
            "the length of the array 'tokenizer.ggml.tokens' says 1099511627776",
        ),
        (one(&[kv("k", STRING, &[0xFF; 8])], &tensor), 0, "the length of a string in 'k' says"),
        (one(&[deep], &tensor), 0, "'deep' nests arrays more than 8 deep"),
        (one(&[kv("odd", 13, &[0; 8])], &tensor), 0, "'odd' has value type 13"),
        (
            one(&[kv_str("tokenizer.ggml.tokens", "a")], &tensor),
            0,
            "holds string values where llama.cpp writes an array of strings",
        ),
        (
            one(&[kv("tokenizer.ggml.token_type", ARRAY, &array(F32, 1, &[0; 4]))], &tensor),
            0,
            "holds float32 values",
        ),
        (
            one(
                &[kv(
                    "tokenizer.ggml.token_type",
                    ARRAY,
                    &array(I64, 1, &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]),
                )],
                &tensor,
            ),
            0,
            "out of range",
        ),
        (
            one(&[kv_u32("tokenizer.ggml.model", 2)], &tensor),
            0,
            "'tokenizer.ggml.model' holds uint32 values where llama.cpp writes a string",
        ),
        (one(&[kv_u32("general.alignment", 24)], &tensor), 0, "general.alignment is 24, not a power of two"),
        (
            one(&[kv_str("general.alignment", "32")], &tensor),
            0,
            "'general.alignment' holds string values where llama.cpp writes an integer",
        ),
        (
            one(&[], &[info("token_embd.weight", &[100, 4], 12, 0)]),
            0,
            "'token_embd.weight' has rows of 100 values, which Q4_K stores in blocks of 256",
        ),
        (one(&[], &[info("t", &[1, 1, 1, 1, 1], 0, 0)]), 0, "'t' has 5 dimensions"),
        (one(&[], &[info("t", &[1 << 40, 1 << 40], 0, 0)]), 0, "too many values"),
        (one(&[], &[info("t", &[1 << 61], 28, 0)]), 0, "more bytes than any file holds"),
        (
            one(&[], &[info("token_embd.weight", &[32, 3], 0, 0)]),
            0,
            "cut short: the tensor 'token_embd.weight' (384 bytes) ends at byte 480, but the file has 160 bytes",
        ),
        (model[..model.len() - 1].to_vec(), 0, "cut short: the tensor 'output.weight' (816 bytes)"),
        (
            model[..200].to_vec(),
            200,
            "cut short or damaged: the length of the array 'tokenizer.ggml.scores' says 5",
        ),
        (model[..12].to_vec(), 12, "cut short: its header needs at least 16 bytes but the file has 12"),
    ];
    for (bytes, file_len, expected) in cases {
        let message = error(&bytes, file_len.max(bytes.len() as u64));
        assert!(message.contains(expected), "{message:?} lacks {expected:?}");
    }
}

/// The page's loop: read a prefix, and read again as long as the header asks for more.
fn read_growing(bytes: &[u8], first: usize) -> (Result<Raw>, usize) {
    let mut have = first.min(bytes.len());
    for round in 1..=40 {
        match read_raw(&bytes[..have], bytes.len() as u64) {
            Ok(Raw::NeedMore(n)) => {
                assert!(
                    n as usize > have && n <= bytes.len() as u64,
                    "asked for {n} with {have} of {}",
                    bytes.len()
                );
                have = n as usize;
            }
            other => return (other, round),
        }
    }
    panic!("40 rounds and still reading");
}

#[test]
fn a_short_prefix_asks_for_more_until_the_header_is_read() {
    // 200,000 tokens (3.4 MB) and 1M scores (4 MB) make the header 7.4 MB.
    let tokens: Vec<String> = (0..200_000).map(|i| format!("tok{i:06}")).collect();
    let token_refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let scores = kv("tokenizer.ggml.scores", ARRAY, &array(F32, 1 << 20, &vec![0; 4 << 20]));
    let scores_len = scores.len();
    let kvs = [scores, kv_strings("tokenizer.ggml.tokens", &token_refs)];
    let bytes = file(&kvs, &[info("token_embd.weight", &[32, 2], 0, 0)], 32, 256);
    // The scores' end is known as soon as their count is read.
    let at_scores = 24 + scores_len - (4 << 20) + 10;
    assert_eq!(read_raw(&bytes[..at_scores], 1 << 30), Ok(Raw::NeedMore((24 + scores_len) as u64)));
    for first in [0, 3, 100, 1 << 20] {
        let (raw, rounds) = read_growing(&bytes, first);
        let Ok(Raw::Done(raw)) = raw else { panic!("{raw:?}") };
        assert_eq!(raw.tokens.map(|t| t.len()), Some(200_000));
        assert!(rounds <= 5, "{rounds} rounds from {first}");
    }
    // Tiny prefixes ask for a megabyte, or the whole of a smaller file.
    assert_eq!(read_raw(b"GG", 1 << 30), Ok(Raw::NeedMore(MIN_READ)));
    assert_eq!(read_raw(b"", 70), Ok(Raw::NeedMore(70)));
}

#[test]
fn a_header_without_tokens_has_no_tokenizer() {
    let bytes = file(
        &[kv_str("general.architecture", "bert")],
        &[info("token_embd.weight", &[32, 2], 1, 0)],
        32,
        128,
    );
    let Ok(HeaderRead::Done(header)) = read_header(&bytes, bytes.len() as u64) else { panic!() };
    assert_eq!((header.format, header.tokens, header.tensors.len()), (ModelFormat::Gguf, None, 1));
    assert_eq!(header.metadata, [("general.architecture".to_string(), "bert".to_string())]);
}

/// Needs `Tokens::from_gguf` (the tokenizer's own work).
#[test]
fn the_tokenizer_comes_from_the_metadata() {
    let bytes = model_file();
    let Ok(HeaderRead::Done(header)) = read_header(&bytes, bytes.len() as u64) else { panic!() };
    let tokens = header.tokens.expect("tokens");
    assert_eq!(tokens.len(), 5);
    assert_eq!(tokens.raw(3), "Ġab");
    assert_eq!(tokens.kind(4), crate::lm::TokenKind::Special);
    // Mutated tokenizers never panic on their way through Tokens::from_gguf either.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2728);
    for _ in 0..500 {
        let bytes = mutate_bytes(&mut rng, &model_file(), INTERESTING);
        if let Err(e) = read_header(&bytes, bytes.len() as u64) {
            assert!(!e.to_string().is_empty());
        }
    }
}

/// Pieces that make a header lie: huge counts and lengths, value and tensor type codes.
const INTERESTING: &[&[u8]] = &[
    &[0xFF; 8],
    &[0, 0, 0, 0, 0, 0, 0, 0x40],
    &[9, 0, 0, 0],
    &[8, 0, 0, 0],
    &[99, 0, 0, 0],
    &[12, 0, 0, 0],
    &[5, 0, 0, 0],
    b"GGUF\x03\x00\x00\x00",
];

/// Checks `read_raw`'s answer to any input: an error with a message, a request for more
/// that a caller can meet, or tensors within the file.
fn check_answer(prefix: &[u8], file_len: u64) {
    match read_raw(prefix, file_len) {
        Ok(Raw::NeedMore(n)) => assert!(n > prefix.len() as u64 && n <= file_len.max(prefix.len() as u64)),
        Ok(Raw::Done(raw)) => {
            for t in &raw.tensors {
                assert!(t.offset + t.len <= file_len.max(prefix.len() as u64), "{t:?}");
            }
        }
        Err(Error::Model(message)) => assert!(!message.is_empty()),
        Err(other) => panic!("{other:?}"),
    }
}

#[test]
fn random_and_mutated_headers_never_panic() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2727);
    let model = model_file();
    let every_type = file(
        &[
            kv("a", ARRAY, &array(ARRAY, 1, &array(U16, 2, &[1, 2, 3, 4]))),
            kv_u32("general.alignment", 16),
            kv("general.name", F64, &[1; 8]),
        ],
        &[info("token_embd.weight", &[32, 2], 2, 0), info("x", &[3], 99, 64)],
        16,
        100,
    );
    let mut done = 0;
    for i in 0..4_000 {
        let bytes = match rng.random_range(0..4) {
            0 => {
                let len = rng.random_range(0..200);
                let mut b =
                    if rng.random_range(0..2) == 0 { b"GGUF\x03\x00\x00\x00".to_vec() } else { Vec::new() };
                b.extend(random_bytes(&mut rng, len, &[0, 1, 8, 9, 0xFF]));
                b
            }
            1 => mutate_bytes(&mut rng, &every_type, INTERESTING),
            _ => mutate_bytes(&mut rng, &model, INTERESTING),
        };
        let file_len = match rng.random_range(0..4) {
            0 => bytes.len() as u64 + rng.random_range(0..1_000),
            1 => rng.next_u64(),
            _ => bytes.len() as u64,
        };
        let cut = rng.random_range(0..=bytes.len());
        check_answer(&bytes[..cut], file_len);
        check_answer(&bytes, file_len);
        if i % 8 == 0 && matches!(read_growing(&bytes, rng.random_range(0..64)).0, Ok(Raw::Done(_))) {
            done += 1;
        }
    }
    assert!(done > 50, "{done}");
}
