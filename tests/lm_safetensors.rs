//! safetensors headers and `tokenizer.json` against the files Python's `safetensors` and
//! `tokenizers` write (tests/lm/write_safetensors.py): the embedding's rows equal numpy's,
//! to the bit, for F32, F16 and BF16, a single file and a sharded one; the tokens read as
//! Python's decoder reads them; the refusals say what is wrong.
//!
//! Run with the reference files written first:
//!
//! ```text
//! .tools/venv/bin/python tests/lm/write_safetensors.py /tmp/stfix
//! EMBEDSCOPE_LM_FIXTURES=/tmp/stfix cargo test --release --test lm_safetensors -- --ignored
//! ```

use std::collections::HashSet;
use std::path::PathBuf;

use embedscope::lm::safetensors::{ShardIndex, read_header};
use embedscope::lm::{Dtype, ElementType, HeaderRead, ModelHeader, TokenKind, Tokens, pick_embedding};
use serde_json::Value;

fn fixtures() -> PathBuf {
    let dir = std::env::var_os("EMBEDSCOPE_LM_FIXTURES").unwrap_or_else(|| {
        panic!(
            "EMBEDSCOPE_LM_FIXTURES is not set: write the reference files with \
             `.tools/venv/bin/python tests/lm/write_safetensors.py /tmp/stfix` and run with \
             EMBEDSCOPE_LM_FIXTURES=/tmp/stfix"
        )
    });
    PathBuf::from(dir)
}

fn manifest() -> Value {
    let path = fixtures().join("manifest.json");
    let text = std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    serde_json::from_slice(&text).unwrap()
}

fn read(path: &str) -> Vec<u8> {
    let path = fixtures().join(path);
    std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// The header read as the page reads it: a first slice, then as many bytes as it asks for.
fn header_of(file: &[u8]) -> embedscope::Result<ModelHeader> {
    let mut have = 16.min(file.len());
    for _ in 0..4 {
        match read_header(&file[..have], file.len() as u64)? {
            HeaderRead::Done(header) => return Ok(header),
            HeaderRead::NeedMore(need) => {
                assert!(need as usize > have && need as usize <= file.len(), "{need} after {have}");
                have = need as usize;
            }
        }
    }
    panic!("the header was not read in 4 rounds");
}

/// A tensor's bytes as `f32`s, by `half` for the half-precision types.
fn to_f32(bytes: &[u8], dtype: &Dtype) -> Vec<f32> {
    match dtype {
        Dtype::Known(ElementType::F32) => {
            bytes.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect()
        }
        Dtype::Known(ElementType::F16) => {
            bytes.chunks_exact(2).map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32()).collect()
        }
        Dtype::Known(ElementType::BF16) => {
            bytes.chunks_exact(2).map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32()).collect()
        }
        other => panic!("{other:?}"),
    }
}

/// The embedding of `file` equals the rows numpy wrote to `expected`, bit for bit.
fn check_embedding(file: &[u8], entry: &Value) {
    let header = header_of(file).unwrap();
    let tensor = pick_embedding(&header, None).unwrap();
    assert_eq!(tensor.name, entry["tensor"].as_str().unwrap());
    assert_eq!(tensor.dtype.name(), entry["dtype"].as_str().unwrap());
    let (rows, cols) = (entry["rows"].as_u64().unwrap() as usize, entry["cols"].as_u64().unwrap() as usize);
    assert_eq!(tensor.matrix(), Some((rows, cols)));
    let bytes = &file[tensor.offset as usize..(tensor.offset + tensor.len) as usize];
    let got = to_f32(bytes, &tensor.dtype);
    let expected: Vec<f32> = read(entry["expected"].as_str().unwrap())
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(got.len(), rows * cols);
    assert_eq!(got.len(), expected.len());
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(g.to_bits(), e.to_bits(), "row {} column {}: {g} != {e}", i / cols, i % cols);
    }
}

#[test]
#[ignore = "needs the files of tests/lm/write_safetensors.py in EMBEDSCOPE_LM_FIXTURES"]
fn embedding_rows_equal_numpys() {
    let manifest = manifest();
    let files = manifest["files"].as_array().unwrap();
    assert_eq!(files.len(), 4);
    for entry in files {
        let file = read(entry["path"].as_str().unwrap());
        check_embedding(&file, entry);
    }
    let gpt2 = header_of(&read("gpt2/f32.safetensors")).unwrap();
    assert_eq!(gpt2.metadata, [("format".to_string(), "np".to_string())]);
    assert_eq!(gpt2.tensors.len(), 3);
}

#[test]
#[ignore = "needs the files of tests/lm/write_safetensors.py in EMBEDSCOPE_LM_FIXTURES"]
fn a_sharded_model_finds_its_embedding_in_the_second_shard() {
    let manifest = manifest();
    let sharded = &manifest["sharded"];
    let index = ShardIndex::read(&read(sharded["index"].as_str().unwrap())).unwrap();
    let (tensor, shard) = index.embedding_shard(None).unwrap();
    assert_eq!(tensor, sharded["tensor"].as_str().unwrap());
    assert_eq!(format!("sharded/{shard}"), sharded["shard"].as_str().unwrap());
    assert_eq!(index.shards().len(), 2);
    check_embedding(&read(sharded["shard"].as_str().unwrap()), sharded);
    // The first shard holds only the output matrix of the same shape: never taken for it.
    let first = header_of(&read(&format!("sharded/{}", index.shards()[0]))).unwrap();
    assert!(pick_embedding(&first, None).unwrap_err().to_string().contains("choose one of its 2-D tensors"));
}

/// What Python's decoder gives, as embedscope shows it: control characters other than a
/// token's whitespace escaped; `None` where Python's text holds U+FFFD (bytes that are not
/// whole characters).
fn shown(python: &str) -> Option<String> {
    if python.contains('\u{FFFD}') {
        return None;
    }
    let mut text = String::new();
    for c in python.chars() {
        match c {
            ' ' | '\n' | '\t' | '\r' => text.push(c),
            c if c.is_control() && c.is_ascii() => text.push_str(&format!("\\x{:02X}", c as u32)),
            c if c.is_control() => text.push_str(&format!("\\u{{{:X}}}", c as u32)),
            c => text.push(c),
        }
    }
    Some(text)
}

/// `form` without its `\xNN` escapes, to compare with Python's text without its U+FFFD.
fn without_escapes(form: &str) -> String {
    let mut out = String::new();
    let mut rest = form;
    while let Some(at) = rest.find("\\x") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let hex = tail.get(..2).filter(|h| h.chars().all(|c| c.is_ascii_hexdigit()));
        rest = if hex.is_some() { &tail[2..] } else { tail };
    }
    out.push_str(rest);
    out
}

#[test]
#[ignore = "needs the files of tests/lm/write_safetensors.py in EMBEDSCOPE_LM_FIXTURES"]
fn tokens_read_as_pythons_tokenizers_reads_them() {
    let manifest = manifest();
    for (path, reference) in manifest["tokenizers"].as_object().unwrap() {
        let tokens = Tokens::from_tokenizer_json(&read(path)).unwrap();
        let n = reference["tokens"].as_u64().unwrap() as usize;
        assert_eq!(tokens.len(), n, "{path}");
        assert_eq!(tokens.scheme().name(), reference["scheme"].as_str().unwrap(), "{path}");
        let special: HashSet<usize> =
            reference["special"].as_array().unwrap().iter().map(|id| id.as_u64().unwrap() as usize).collect();
        assert!(!special.is_empty());
        let forms = tokens.display_forms();
        // A token that reads as it is written keeps its form; of others that read alike,
        // the earlier; the later keeps its raw form.
        let wanted: Vec<Option<String>> =
            (0..n).map(|id| shown(reference["decoded"][id].as_str().unwrap())).collect();
        let raw = |id: usize| reference["raw"][id].as_str().unwrap();
        let mut taken: HashSet<String> = (0..n)
            .filter(|&id| wanted[id].as_deref() == Some(raw(id)))
            .map(|id| raw(id).to_string())
            .collect();
        let (mut compared, mut escaped) = (0, 0);
        for id in 0..n {
            let raw = raw(id);
            let python = reference["decoded"][id].as_str().unwrap();
            assert_eq!(tokens.raw(id), raw, "{path} id {id}");
            assert_eq!(
                tokens.kind(id) == TokenKind::Special,
                special.contains(&id),
                "{path} id {id} '{raw}'"
            );
            let form = &forms[id];
            match &wanted[id] {
                Some(expected) if expected == raw => assert_eq!(form, raw),
                Some(expected) if taken.insert(expected.clone()) => {
                    assert_eq!(form, expected, "{path} id {id} '{raw}'");
                    compared += 1;
                }
                Some(_) => assert_eq!(form, raw, "{path} id {id}"),
                None => {
                    assert!(form == raw || form.contains("\\x"), "{path} id {id} '{raw}': {form:?}");
                    assert!(!form.contains('\u{FFFD}'));
                    if form != raw {
                        assert_eq!(without_escapes(form), python.replace('\u{FFFD}', ""), "{path} id {id}");
                    }
                    escaped += 1;
                }
            }
        }
        assert!(compared > n / 2 && escaped > 0, "{path}: {compared} compared, {escaped} escaped");
        let order: Vec<u64> =
            reference["order"].as_array().unwrap().iter().map(|id| id.as_u64().unwrap()).collect();
        assert_eq!(tokens.order().iter().map(|&id| u64::from(id)).collect::<Vec<_>>(), order, "{path}");
    }
    // GPT-2's matrix pads its rows past the tokenizer.
    let gpt2 = Tokens::from_tokenizer_json(&read("gpt2/tokenizer.json")).unwrap();
    let n = gpt2.len();
    let rows = manifest["files"][0]["rows"].as_u64().unwrap() as usize;
    let fitted = gpt2.fit_rows(rows).unwrap();
    assert_eq!((fitted.raw(n), fitted.kind(n)), (format!("<row {n}>").as_str(), TokenKind::Unused));
    assert_eq!(*fitted.order().last().unwrap() as usize, rows - 1);
}

#[test]
#[ignore = "needs the files of tests/lm/write_safetensors.py in EMBEDSCOPE_LM_FIXTURES"]
fn refusals_say_what_is_wrong() {
    let manifest = manifest();
    for refusal in manifest["refusals"].as_array().unwrap() {
        let path = refusal["path"].as_str().unwrap();
        let expected = refusal["message"].as_str().unwrap();
        let file = read(path);
        let err = match header_of(&file) {
            Ok(header) => pick_embedding(&header, None).map(|_| ()).unwrap_err(),
            Err(err) => err,
        };
        assert!(err.to_string().contains(expected), "{path}: {err}");
    }
    for mismatch in manifest["mismatch"].as_array().unwrap() {
        let tokens = Tokens::from_tokenizer_json(&read(mismatch["tokenizer"].as_str().unwrap())).unwrap();
        let err = tokens.fit_rows(mismatch["rows"].as_u64().unwrap() as usize).unwrap_err();
        assert!(err.to_string().contains(mismatch["message"].as_str().unwrap()), "{err}");
    }
}
