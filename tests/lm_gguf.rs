//! GGUF files written by llama.cpp's own `gguf` package (tests/lm/write_gguf.py), read as
//! the page reads them: the header from a prefix that grows while the reader asks for more,
//! the token-embedding tensor picked by its name, its bytes dequantized. Every row must
//! have the bits `gguf.quants.dequantize` gives, and each file embedscope cannot read must
//! say why.
//!
//! ```text
//! .tools/venv/bin/python tests/lm/write_gguf.py /tmp/lmfix
//! EMBEDSCOPE_LM_FIXTURES=/tmp/lmfix cargo test --release --test lm_gguf -- --ignored
//! ```

use std::path::{Path, PathBuf};

use embedscope::lm::{self, Dtype, HeaderRead, ModelHeader, gguf, quant};
use serde_json::Value;

/// The first read, as the page makes it: small, so the growing path is taken.
const FIRST_READ: usize = 4096;

fn fixtures() -> PathBuf {
    let dir = std::env::var_os("EMBEDSCOPE_LM_FIXTURES").unwrap_or_else(|| {
        panic!(
            "EMBEDSCOPE_LM_FIXTURES is not set: run `.tools/venv/bin/python tests/lm/write_gguf.py DIR` and set it \
             to DIR"
        )
    });
    PathBuf::from(dir)
}

fn manifest(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("manifest.json")).expect("manifest.json");
    serde_json::from_str(&text).expect("manifest.json is JSON")
}

/// The header of `bytes`, read from a prefix that grows as the reader asks.
fn read_growing(bytes: &[u8]) -> embedscope::Result<ModelHeader> {
    let mut have = FIRST_READ.min(bytes.len());
    for _ in 0..40 {
        match gguf::read_header(&bytes[..have], bytes.len() as u64)? {
            HeaderRead::Done(header) => return Ok(header),
            HeaderRead::NeedMore(n) => {
                assert!(n as usize > have && n as usize <= bytes.len(), "asked for {n} bytes with {have}");
                have = n as usize;
            }
        }
    }
    panic!("the header was not read in 40 rounds");
}

#[test]
#[ignore = "needs EMBEDSCOPE_LM_FIXTURES from tests/lm/write_gguf.py"]
fn gguf_rows_equal_gguf_py_dequantize() {
    let dir = fixtures();
    let manifest = manifest(&dir);
    let (rows, dim) =
        (manifest["rows"].as_u64().unwrap() as usize, manifest["dim"].as_u64().unwrap() as usize);
    let tokens: Vec<&str> =
        manifest["tokens"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
    let files = manifest["files"].as_array().unwrap();
    assert_eq!(files.len(), 13);
    for entry in files {
        let file = entry["file"].as_str().unwrap();
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let header = read_growing(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        let tensor = lm::pick_embedding(&header, None).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(tensor.name, "token_embd.weight", "{file}");
        assert_eq!(tensor.matrix(), Some((rows, dim)), "{file}");
        let Dtype::Known(t) = tensor.dtype else { panic!("{file}: {:?}", tensor.dtype) };
        assert_eq!(t.name(), entry["type"].as_str().unwrap(), "{file}");
        assert_eq!(tensor.len as usize, rows * t.row_bytes(dim), "{file}");

        let start = tensor.offset as usize;
        let mut values = vec![f32::NAN; rows * dim];
        quant::dequantize(t, &bytes[start..start + tensor.len as usize], &mut values);
        let expected: Vec<f32> = std::fs::read(dir.join(entry["expected"].as_str().unwrap()))
            .unwrap()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(expected.len(), values.len(), "{file}");
        let differing = values.iter().zip(&expected).filter(|(a, b)| a.to_bits() != b.to_bits()).count();
        let first = values.iter().zip(&expected).position(|(a, b)| a.to_bits() != b.to_bits());
        assert_eq!(differing, 0, "{file}: {differing} values differ, the first at {first:?}");

        let names = header.tokens.as_ref().unwrap_or_else(|| panic!("{file}: no tokenizer"));
        assert_eq!(names.len(), tokens.len(), "{file}");
        for id in [0, 220, tokens.len() - 2, tokens.len() - 1] {
            assert_eq!(names.raw(id), tokens[id], "{file}: token {id}");
        }
        let shown = |key: &str| header.metadata.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        assert_eq!(shown("general.architecture"), Some("llama"), "{file}");
        assert_eq!(shown("tokenizer.ggml.model"), Some("gpt2"), "{file}");
    }
}

#[test]
#[ignore = "needs EMBEDSCOPE_LM_FIXTURES from tests/lm/write_gguf.py"]
fn gguf_files_embedscope_cannot_read_say_why() {
    let dir = fixtures();
    let manifest = manifest(&dir);
    for entry in manifest["refusals"].as_array().unwrap() {
        let file = entry["file"].as_str().unwrap();
        let expected = entry["message"].as_str().unwrap();
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let message = match read_growing(&bytes) {
            Ok(header) => {
                lm::pick_embedding(&header, None).map(|t| t.name.clone()).expect_err(file).to_string()
            }
            Err(e) => e.to_string(),
        };
        assert!(message.contains(expected), "{file}: {message:?} lacks {expected:?}");
    }
}

/// ggml's type table in the reader equals gguf-py's (`GGMLQuantizationType`,
/// `GGML_QUANT_SIZES`).
#[test]
#[ignore = "needs EMBEDSCOPE_LM_FIXTURES from tests/lm/write_gguf.py"]
fn ggml_type_names_and_sizes_are_gguf_pys() {
    let manifest = manifest(&fixtures());
    for t in manifest["ggml_types"].as_array().unwrap() {
        let id = t[0].as_u64().unwrap() as u32;
        let expected = (t[1].as_str().unwrap(), t[2].as_u64().unwrap(), t[3].as_u64().unwrap());
        assert_eq!(gguf::ggml_type(id), Some(expected), "ggml type {id}");
    }
}

/// How long dequantizing a Llama-3-8B-sized matrix (128,256 × 4,096) takes natively, for
/// Q4_K and Q8_0 (random blocks with small scales), into memory already touched.
#[test]
#[ignore = "a measurement: cargo test --release --test lm_gguf -- --ignored --nocapture dequantize_speed"]
fn dequantize_speed() {
    const ROWS: usize = 128_256;
    const DIM: usize = 4_096;
    let mut out = vec![0f32; ROWS * DIM];
    // Touched first, so the figure is the decoding and not the system's first page faults.
    out.fill(1.0);
    for t in [lm::ElementType::Q4K, lm::ElementType::Q8_0] {
        let (values, size) = quant::block_size(t);
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut bytes: Vec<u8> = (0..ROWS * DIM / values * size)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        // Small finite f16 scales (0x1400 is about 0.001) at the start of each block.
        for block in bytes.chunks_exact_mut(size) {
            block[..2].copy_from_slice(&[0x00, 0x14]);
            if t == lm::ElementType::Q4K {
                block[2..4].copy_from_slice(&[0x00, 0x14]);
            }
        }
        let started = std::time::Instant::now();
        quant::dequantize(t, &bytes, &mut out);
        let elapsed = started.elapsed();
        let sum: f64 = out.iter().step_by(4099).map(|&v| f64::from(v)).sum();
        println!("{}: {ROWS} × {DIM} in {:.0} ms (checksum {sum:.3})", t.name(), elapsed.as_secs_f64() * 1e3);
        assert!(sum.is_finite());
    }
}
