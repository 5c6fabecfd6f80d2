//! safetensors, Hugging Face's tensor file: its JSON header, and the index of a model
//! sharded over several files.
//!
//! A file is an 8-byte little-endian header length `n`, `n` bytes of JSON
//! (`{name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {…}}`), then the
//! data, each tensor's bytes at `begin..end` from the data's start.
//!
//! The header is checked by the rules of the `safetensors` crate's `Metadata::validate`
//! (tensors sorted by their offsets cover the data from 0 without gaps or overlaps, and each
//! takes exactly its shape times its dtype's size), and its dtypes are the crate's
//! `safetensors::Dtype`. The crate's own `Metadata` is not used to hold the header: it keeps
//! offsets and shapes as `usize`, which is 32 bits in wasm32, so a shard past 4 GB (Llama 3's
//! are 5 GB) would not even parse in the page. The checks are therefore the crate's, redone
//! here in `u64`.

use serde::Deserialize;
use serde::de::{IntoDeserializer, MapAccess, Visitor};

use super::{Dtype, ElementType, HeaderRead, ModelFormat, ModelHeader, TensorInfo, is_token_embedding_name};
use crate::error::{Error, Result, thousands};

/// The largest header read, as the `safetensors` crate allows.
pub const MAX_HEADER_BYTES: u64 = 100_000_000;

/// Bytes of the header length that opens the file.
const N_LEN: u64 = 8;

/// Reads the header of a safetensors file from `prefix`, its first bytes; `file_len` is the
/// whole file's length, against which the tensors' extents are checked.
pub fn read_header(prefix: &[u8], file_len: u64) -> Result<HeaderRead> {
    if file_len < N_LEN {
        return Err(Error::Model(format!(
            "the file has {file_len} bytes, fewer than the 8 that open a safetensors file: it is cut short or not \
             a safetensors file"
        )));
    }
    let Some(head) = prefix.get(..N_LEN as usize) else {
        return Ok(HeaderRead::NeedMore(N_LEN));
    };
    let n = u64::from_le_bytes(head.try_into().expect("8 bytes"));
    if n > MAX_HEADER_BYTES {
        return Err(Error::Model(format!(
            "the safetensors header says it takes {} bytes, more than the {} safetensors allows: the file is \
             damaged or not a safetensors file",
            thousands(n),
            thousands(MAX_HEADER_BYTES)
        )));
    }
    let header_end = N_LEN + n;
    if header_end > file_len {
        return Err(Error::Model(format!(
            "the safetensors header says it takes {} bytes, but the file has only {} after the header's \
             length: the file is cut short; download it again",
            thousands(n),
            thousands(file_len - N_LEN)
        )));
    }
    let Some(json) = prefix.get(N_LEN as usize..header_end as usize) else {
        return Ok(HeaderRead::NeedMore(header_end));
    };
    let raw = parse(json)?;
    let tensors = check(raw.tensors, header_end, file_len)?;
    Ok(HeaderRead::Done(ModelHeader {
        format: ModelFormat::Safetensors,
        tensors,
        tokens: None,
        metadata: raw.metadata,
    }))
}

/// The header's JSON, as written.
struct RawHeader {
    /// `__metadata__`, in the header's order.
    metadata: Vec<(String, String)>,
    /// The tensors, in the header's order.
    tensors: Vec<(String, RawTensor)>,
}

/// One tensor's entry, as the `safetensors` crate's `TensorInfo` but in `u64` (unknown
/// fields ignored, as the crate does).
#[derive(Deserialize)]
struct RawTensor {
    dtype: String,
    shape: Vec<u64>,
    data_offsets: (u64, u64),
}

impl<'de> Deserialize<'de> for RawHeader {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct HeaderVisitor;
        impl<'de> Visitor<'de> for HeaderVisitor {
            type Value = RawHeader;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of tensors")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<RawHeader, A::Error> {
                let mut header = RawHeader { metadata: Vec::new(), tensors: Vec::new() };
                while let Some(key) = map.next_key::<String>()? {
                    if key == "__metadata__" {
                        // Text to text, as the crate reads it (`Option<HashMap<String, String>>`).
                        let entries: Option<serde_json::Map<String, serde_json::Value>> = map.next_value()?;
                        for (name, value) in entries.unwrap_or_default() {
                            let serde_json::Value::String(text) = value else {
                                return Err(serde::de::Error::custom(format!(
                                    "__metadata__ holds a value that is not text under '{name}'"
                                )));
                            };
                            header.metadata.push((name, text));
                        }
                    } else {
                        header.tensors.push((key, map.next_value()?));
                    }
                }
                Ok(header)
            }
        }
        deserializer.deserialize_map(HeaderVisitor)
    }
}

/// The header's JSON read, or why it cannot be.
fn parse(json: &[u8]) -> Result<RawHeader> {
    let text = std::str::from_utf8(json).map_err(|err| {
        Error::Model(format!(
            "the safetensors header is not UTF-8 text ({err}): the file is damaged or not a safetensors file"
        ))
    })?;
    serde_json::from_str(text).map_err(|err| {
        Error::Model(match err.classify() {
            serde_json::error::Category::Data => {
                format!("the safetensors header does not list tensors as safetensors writes them: {err}")
            }
            _ => {
                format!("the safetensors header is not valid JSON ({err}): the file is damaged or cut short")
            }
        })
    })
}

/// The tensors of a parsed header, checked as the `safetensors` crate checks them, with
/// their offsets made absolute (`header_end` is where the data starts) and their extents
/// checked against the file's length.
fn check(raw: Vec<(String, RawTensor)>, header_end: u64, file_len: u64) -> Result<Vec<TensorInfo>> {
    let mut names = std::collections::HashSet::with_capacity(raw.len());
    if let Some((name, _)) = raw.iter().find(|(name, _)| !names.insert(name.as_str())) {
        return Err(Error::Model(format!(
            "the safetensors header lists the tensor '{name}' twice: the file is damaged"
        )));
    }
    let mut tensors = Vec::with_capacity(raw.len());
    for (name, t) in &raw {
        let dtype = dtype_of(name, &t.dtype)?;
        let shape_text = || t.shape.iter().map(u64::to_string).collect::<Vec<_>>().join(" × ");
        let bits = dtype.1 as u64;
        let size = t
            .shape
            .iter()
            .try_fold(1u64, |acc, &d| acc.checked_mul(d))
            .and_then(|values| values.checked_mul(bits))
            .ok_or_else(|| {
                Error::Model(format!(
                    "the safetensors header gives the tensor '{name}' the shape [{}], too large to be stored: \
                     the header lies; the file is damaged",
                    shape_text()
                ))
            })?;
        if size % 8 != 0 {
            return Err(Error::Model(format!(
                "the safetensors header gives the tensor '{name}' of {} the shape [{}], which does not fill whole \
                 bytes",
                t.dtype,
                shape_text()
            )));
        }
        let (begin, end) = t.data_offsets;
        if end < begin || end - begin != size / 8 {
            return Err(Error::Model(format!(
                "the safetensors header lies: the tensor '{name}', [{}] of {}, takes {} bytes, but its offsets \
                 {begin}..{end} give it {}; the file is damaged",
                shape_text(),
                t.dtype,
                thousands(size / 8),
                if end < begin { "a negative length".to_string() } else { thousands(end - begin) }
            )));
        }
        tensors.push(TensorInfo {
            name: name.clone(),
            dtype: dtype.0,
            shape: t.shape.clone(),
            offset: header_end.saturating_add(begin),
            len: end - begin,
        });
    }
    // The data, tensor after tensor in the order of their offsets, covers 0..end without a
    // gap or an overlap.
    let mut by_offset: Vec<usize> = (0..raw.len()).collect();
    by_offset.sort_by_key(|&i| raw[i].1.data_offsets);
    let mut start = 0;
    for &i in &by_offset {
        let (name, t) = &raw[i];
        let (begin, end) = t.data_offsets;
        if begin != start {
            return Err(Error::Model(format!(
                "the safetensors header lies: the tensor '{name}' starts at byte {} of the data, where the \
                 tensors before it end at {}; the file is damaged",
                thousands(begin),
                thousands(start)
            )));
        }
        start = end;
    }
    for &i in &by_offset {
        let tensor = &tensors[i];
        let end = tensor.offset.saturating_add(tensor.len);
        if end > file_len {
            return Err(Error::Model(format!(
                "the file is cut short: the tensor '{}' ends at byte {} but the file has {} bytes; download it \
                 again",
                tensor.name,
                thousands(end),
                thousands(file_len)
            )));
        }
    }
    Ok(tensors)
}

/// A dtype's name as embedscope keeps it, with its size in bits, by the `safetensors` crate's
/// list of dtypes.
fn dtype_of(tensor: &str, name: &str) -> Result<(Dtype, usize)> {
    let de: serde::de::value::StrDeserializer<serde::de::value::Error> = name.into_deserializer();
    let st = safetensors::Dtype::deserialize(de).map_err(|_| {
        Error::Model(format!(
            "the safetensors header gives the tensor '{tensor}' the dtype '{name}', which safetensors does not \
             define: the file is damaged or was written by a newer safetensors"
        ))
    })?;
    let known = match st {
        safetensors::Dtype::F32 => Dtype::Known(ElementType::F32),
        safetensors::Dtype::F16 => Dtype::Known(ElementType::F16),
        safetensors::Dtype::BF16 => Dtype::Known(ElementType::BF16),
        _ => Dtype::Other(name.to_string()),
    };
    Ok((known, st.bitsize()))
}

/// `model.safetensors.index.json`: which shard holds each tensor.
#[derive(Debug, Clone, PartialEq)]
pub struct ShardIndex {
    /// (tensor name, shard file name), in the index's order.
    pub weight_map: Vec<(String, String)>,
}

impl ShardIndex {
    /// Reads the index file's JSON: its `weight_map` (other fields, such as `metadata`, are
    /// ignored). Each shard must be a file name beside the index, never a path.
    pub fn read(json: &[u8]) -> Result<ShardIndex> {
        #[derive(Deserialize)]
        struct Index {
            weight_map: Option<serde_json::Map<String, serde_json::Value>>,
        }
        let index: Index = serde_json::from_slice(json).map_err(|err| {
            Error::Model(format!(
                "model.safetensors.index.json is not the index of a sharded model ({err}): it is damaged or another file"
            ))
        })?;
        let Some(map) = index.weight_map else {
            return Err(Error::Model(
                "model.safetensors.index.json has no weight_map, the list of which shard holds each tensor: it is \
                 damaged or another file"
                    .to_string(),
            ));
        };
        let mut weight_map = Vec::with_capacity(map.len());
        for (tensor, file) in map {
            let serde_json::Value::String(file) = file else {
                return Err(Error::Model(format!(
                    "model.safetensors.index.json gives the tensor '{tensor}' a shard that is not a file name: {file}"
                )));
            };
            if file.is_empty() || file.contains(['/', '\\']) || file == "." || file == ".." {
                return Err(Error::Model(format!(
                    "model.safetensors.index.json puts the tensor '{tensor}' in '{file}', which is not the name of a \
                     file beside the index"
                )));
            }
            weight_map.push((tensor, file));
        }
        Ok(ShardIndex { weight_map })
    }

    /// The shard files, each once, in the order the index first names them.
    pub fn shards(&self) -> Vec<&str> {
        let mut files: Vec<&str> = Vec::new();
        for (_, file) in &self.weight_map {
            if !files.contains(&file.as_str()) {
                files.push(file);
            }
        }
        files
    }

    /// The token-embedding tensor and the shard that holds it: the tensor named `chosen`, or
    /// the first whose name models give their token embeddings (the rule of
    /// [`super::pick_embedding`]). Fails with some of the index's tensors listed.
    pub fn embedding_shard(&self, chosen: Option<&str>) -> Result<(&str, &str)> {
        let found = match chosen {
            Some(name) => self.weight_map.iter().find(|(tensor, _)| tensor == name),
            None => self.weight_map.iter().find(|(tensor, _)| is_token_embedding_name(tensor)),
        };
        if let Some((tensor, file)) = found {
            return Ok((tensor, file));
        }
        let what = match chosen {
            Some(name) => format!("model.safetensors.index.json lists no tensor named '{name}'"),
            None => "no tensor in model.safetensors.index.json has a name models give their token embeddings"
                .to_string(),
        };
        if self.weight_map.is_empty() {
            return Err(Error::Model(format!("{what}: its weight_map is empty")));
        }
        let listed: Vec<&str> = self.weight_map.iter().take(20).map(|(tensor, _)| tensor.as_str()).collect();
        let more = if self.weight_map.len() > listed.len() {
            format!(" and {} more", thousands((self.weight_map.len() - listed.len()) as u64))
        } else {
            String::new()
        };
        Err(Error::Model(format!("{what}; choose one of its tensors: {}{more}", listed.join(", "))))
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    use super::*;

    /// A file of `header` and `data_len` bytes of data (each byte its index, mod 251).
    fn file(header: &str, data_len: usize) -> Vec<u8> {
        let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
        bytes.extend(header.as_bytes());
        bytes.extend((0..data_len).map(|i| (i % 251) as u8));
        bytes
    }

    fn done(bytes: &[u8]) -> ModelHeader {
        match read_header(bytes, bytes.len() as u64) {
            Ok(HeaderRead::Done(header)) => header,
            other => panic!("{other:?}"),
        }
    }

    fn message(bytes: &[u8], file_len: u64) -> String {
        match read_header(bytes, file_len) {
            Err(Error::Model(message)) => message,
            other => panic!("{other:?}"),
        }
    }

    const GPT2: &str = concat!(
        r#"{"__metadata__":{"format":"pt","b":"2"},"#,
        r#""lm_head.weight":{"dtype":"BF16","shape":[3,2],"data_offsets":[24,36]},"#,
        r#""transformer.wte.weight":{"dtype":"F32","shape":[3,2],"data_offsets":[0,24]},"#,
        r#""h.0.ln.bias":{"dtype":"F16","shape":[2],"data_offsets":[36,40],"extra":1}}"#
    );

    #[test]
    fn reads_tensors_with_absolute_offsets_dtypes_and_metadata() {
        let bytes = file(GPT2, 40);
        let header = done(&bytes);
        let start = 8 + GPT2.len() as u64;
        assert_eq!(header.format, ModelFormat::Safetensors);
        assert_eq!(header.metadata, vec![("format".into(), "pt".into()), ("b".into(), "2".into())]);
        let expected = [
            ("lm_head.weight", ElementType::BF16, vec![3, 2], 24, 12),
            ("transformer.wte.weight", ElementType::F32, vec![3, 2], 0, 24),
            ("h.0.ln.bias", ElementType::F16, vec![2], 36, 4),
        ];
        assert_eq!(header.tensors.len(), 3);
        for (t, (name, dtype, shape, begin, len)) in header.tensors.iter().zip(expected) {
            assert_eq!(
                t,
                &TensorInfo {
                    name: name.into(),
                    dtype: Dtype::Known(dtype),
                    shape,
                    offset: start + begin,
                    len
                }
            );
        }
        assert_eq!(super::super::pick_embedding(&header, None).unwrap().name, "transformer.wte.weight");
        // A file longer than its data (trailing bytes) is still read.
        assert_eq!(read_header(&bytes, bytes.len() as u64 + 10), Ok(HeaderRead::Done(header)));
    }

    #[test]
    fn asks_for_the_bytes_it_lacks() {
        let bytes = file(GPT2, 40);
        let len = bytes.len() as u64;
        let whole = 8 + GPT2.len() as u64;
        for cut in [0, 1, 7] {
            assert_eq!(read_header(&bytes[..cut], len), Ok(HeaderRead::NeedMore(8)));
        }
        for cut in [8, 9, whole as usize - 1] {
            assert_eq!(read_header(&bytes[..cut], len), Ok(HeaderRead::NeedMore(whole)));
        }
        assert!(matches!(read_header(&bytes[..whole as usize], len), Ok(HeaderRead::Done(_))));
    }

    #[test]
    fn other_dtypes_are_kept_by_name() {
        for (name, bytes_each) in [("I8", 1), ("F64", 8), ("F8_E4M3", 1), ("U16", 2), ("I64", 8)] {
            let header = format!(
                r#"{{"embed_tokens.weight":{{"dtype":"{name}","shape":[2,3],"data_offsets":[0,{}]}}}}"#,
                6 * bytes_each
            );
            let read = done(&file(&header, 6 * bytes_each));
            assert_eq!(read.tensors[0].dtype, Dtype::Other(name.to_string()));
            let err = super::super::pick_embedding(&read, None).unwrap_err().to_string();
            assert!(err.contains(&format!("holds {name} values")), "{err}");
        }
        // The crate's sub-byte type: two values a byte.
        let read = done(&file(r#"{"x":{"dtype":"F4","shape":[4],"data_offsets":[0,2]}}"#, 2));
        assert_eq!(read.tensors[0].dtype, Dtype::Other("F4".into()));
    }

    #[test]
    fn refusals_say_what_is_wrong() {
        let cases: &[(&str, usize, &str)] = &[
            (
                r#"{"x":{"dtype":"Q4","shape":[2],"data_offsets":[0,2]}}"#,
                2,
                "the dtype 'Q4', which safetensors does not define",
            ),
            (
                r#"{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}"#,
                4,
                "'x', [2] of F32, takes 8 bytes, but its offsets 0..4 give it 4",
            ),
            (r#"{"x":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}}"#, 4, "a negative length"),
            (
                concat!(
                    r#"{"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"#,
                    r#""y":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}}"#
                ),
                12,
                "'y' starts at byte 8 of the data, where the tensors before it end at 4",
            ),
            (
                concat!(
                    r#"{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"#,
                    r#""y":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}"#
                ),
                8,
                "'y' starts at byte 4",
            ),
            (r#"{"x":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}"#, 8, "'x' starts at byte 4"),
            (
                r#"{"x":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8]}}"#,
                8,
                "too large to be stored",
            ),
            (r#"{"x":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}}"#, 2, "does not fill whole bytes"),
            (
                concat!(
                    r#"{"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"#,
                    r#""x":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}"#
                ),
                8,
                "lists the tensor 'x' twice",
            ),
            (
                r#"{"x":{"dtype":"F32","shape":[1]}}"#,
                0,
                "does not list tensors as safetensors writes them: missing field `data_offsets`",
            ),
            (r#"{"__metadata__":{"a":1}}"#, 0, "not text under 'a'"),
            (r#"[1,2]"#, 0, "does not list tensors"),
            (r#"{"x":{"dtype":"F32","#, 0, "not valid JSON"),
        ];
        for &(header, data_len, expected) in cases {
            let bytes = file(header, data_len);
            let got = message(&bytes, bytes.len() as u64);
            assert!(got.contains(expected), "{header}: {got}");
        }
        let mut not_utf8 = file(r#"{"x":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}}"#, 0);
        not_utf8[10] = 0xFF;
        assert!(message(&not_utf8, not_utf8.len() as u64).contains("not UTF-8"));
    }

    #[test]
    fn a_file_cut_short_or_too_large_a_header_is_refused() {
        let bytes = file(GPT2, 40);
        let got = message(&bytes, bytes.len() as u64 - 1);
        let end = bytes.len();
        assert_eq!(
            got,
            format!(
                "the file is cut short: the tensor 'h.0.ln.bias' ends at byte {end} but the file has {} bytes; \
                 download it again",
                end - 1
            )
        );
        let got = message(&bytes, 8 + GPT2.len() as u64 - 1);
        assert!(got.contains("the file is cut short"), "{got}");
        assert!(message(&bytes[..3], 3).contains("fewer than the 8"));
        let mut huge = (MAX_HEADER_BYTES + 1).to_le_bytes().to_vec();
        huge.push(b'{');
        assert!(message(&huge, u64::MAX).contains("more than the 100,000,000 safetensors allows"));
        assert!(message(&u64::MAX.to_le_bytes(), u64::MAX).contains("more than"));
    }

    /// A shard past 4 GB: offsets are kept in `u64`, so the header reads in wasm32 too.
    #[test]
    fn offsets_past_four_gigabytes() {
        let header = concat!(
            r#"{"model.norm.weight":{"dtype":"BF16","shape":[4],"data_offsets":[0,8]},"#,
            r#""model.embed_tokens.weight":{"dtype":"BF16","shape":[1073741824,4],"data_offsets":[8,8589934600]}}"#
        );
        let bytes = file(header, 0);
        let file_len = bytes.len() as u64 + 8_589_934_600;
        let Ok(HeaderRead::Done(read)) = read_header(&bytes, file_len) else { panic!() };
        let embedding = &read.tensors[1];
        assert_eq!((embedding.offset, embedding.len), (8 + header.len() as u64 + 8, 8_589_934_592));
        assert_eq!(embedding.matrix(), Some((1 << 30, 4)));
        assert!(message(&bytes, file_len - 1).contains("'model.embed_tokens.weight' ends at byte"));
    }

    /// Files the `safetensors` crate writes, read back: the same tensors at the same places
    /// as the crate's own reader finds them.
    #[test]
    fn reads_what_the_safetensors_crate_writes() {
        use safetensors::tensor::TensorView;
        let data: Vec<u8> = (0..=255).collect();
        let tensors = [
            ("model.embed_tokens.weight", safetensors::Dtype::BF16, vec![4, 8]),
            ("model.norm.weight", safetensors::Dtype::F32, vec![8]),
            ("lm_head.weight", safetensors::Dtype::F16, vec![4, 8]),
            ("scale", safetensors::Dtype::I8, vec![3]),
            ("empty", safetensors::Dtype::F32, vec![0, 8]),
        ];
        let views: Vec<(&str, TensorView)> = tensors
            .iter()
            .map(|(name, dtype, shape)| {
                let len = shape.iter().product::<usize>() * dtype.bitsize() / 8;
                (*name, TensorView::new(*dtype, shape.clone(), &data[..len]).unwrap())
            })
            .collect();
        let bytes = safetensors::serialize(views, None).unwrap();
        let ours = done(&bytes);
        let (n, theirs) = safetensors::SafeTensors::read_metadata(&bytes).unwrap();
        assert_eq!(ours.tensors.len(), tensors.len());
        for t in &ours.tensors {
            let info = theirs.info(&t.name).unwrap();
            assert_eq!(t.dtype.name(), info.dtype.to_string());
            assert_eq!(t.shape, info.shape.iter().map(|&d| d as u64).collect::<Vec<_>>());
            assert_eq!(t.offset, (8 + n + info.data_offsets.0) as u64);
            assert_eq!(t.len, (info.data_offsets.1 - info.data_offsets.0) as u64);
        }
    }

    /// Random and mutated headers: never a panic, every refusal a message, and where the
    /// `safetensors` crate's reader accepts a whole file, the same tensors.
    #[test]
    fn random_and_mutated_headers_never_panic_and_agree_with_the_crate() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2707);
        let interesting: &[&[u8]] = &[
            b"{",
            b"}",
            b"\"",
            b",",
            b":",
            b"[",
            b"]",
            b"0",
            b"9",
            b"18446744073709551615",
            b"\"F32\"",
            b"\"BF16\"",
            b"\"I8\"",
            b"\"data_offsets\"",
            b"\"shape\"",
            b"\"__metadata__\"",
            b"-1",
            b"1e3",
            b"null",
        ];
        let (mut read, mut agreed) = (0, 0);
        for _ in 0..4_000 {
            let json: Vec<u8> = if rng.random_range(0..6) == 0 {
                let len = rng.random_range(0..80);
                crate::fuzz::random_bytes(&mut rng, len, br#"{}[]":,0123456789 "#)
            } else {
                crate::fuzz::mutate_bytes(&mut rng, GPT2.as_bytes(), interesting)
            };
            let mut bytes = (json.len() as u64).to_le_bytes().to_vec();
            if rng.random_range(0..10) == 0 {
                bytes = rng.random::<u64>().to_le_bytes().to_vec();
            }
            bytes.extend(&json);
            bytes.extend((0..40).map(|i| i as u8));
            let file_len = match rng.random_range(0..4) {
                0 => rng.random_range(0..bytes.len() as u64 + 8),
                _ => bytes.len() as u64,
            };
            // A slice of the start, as the page reads it first.
            let cut = rng.random_range(0..=bytes.len());
            if let Ok(HeaderRead::NeedMore(need)) = read_header(&bytes[..cut], file_len) {
                assert!(need > cut as u64 && need <= file_len);
            }
            let ours = read_header(&bytes, file_len);
            if let Err(err) = &ours {
                assert!(!err.to_string().is_empty());
            }
            if let Ok(HeaderRead::Done(header)) = &ours {
                read += 1;
                for t in &header.tensors {
                    assert!(t.offset + t.len <= file_len);
                }
            }
            if file_len == bytes.len() as u64
                && let Ok((_, theirs)) = safetensors::SafeTensors::read_metadata(&bytes)
            {
                agreed += 1;
                match ours {
                    Ok(HeaderRead::Done(header)) => {
                        assert_eq!(header.tensors.len(), theirs.tensors().len());
                        for t in &header.tensors {
                            let info = theirs.info(&t.name).unwrap();
                            assert_eq!(t.len, (info.data_offsets.1 - info.data_offsets.0) as u64);
                        }
                    }
                    Err(Error::Model(m)) if m.contains("twice") => {}
                    other => panic!("the crate reads {:?}, we {other:?}", String::from_utf8_lossy(&json)),
                }
            }
        }
        assert!(read > 60 && agreed > 60, "{read} {agreed}");
    }

    #[test]
    fn reads_a_shard_index() {
        let json = br#"{"metadata":{"total_size":123},"weight_map":{
            "lm_head.weight":"model-00001-of-00002.safetensors",
            "model.layers.0.mlp.weight":"model-00001-of-00002.safetensors",
            "model.embed_tokens.weight":"model-00002-of-00002.safetensors"},"other":[1]}"#;
        let index = ShardIndex::read(json).unwrap();
        assert_eq!(index.weight_map.len(), 3);
        assert_eq!(index.weight_map[0], ("lm_head.weight".into(), "model-00001-of-00002.safetensors".into()));
        assert_eq!(index.shards(), ["model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"]);
        assert_eq!(
            index.embedding_shard(None).unwrap(),
            ("model.embed_tokens.weight", "model-00002-of-00002.safetensors")
        );
        assert_eq!(
            index.embedding_shard(Some("lm_head.weight")).unwrap(),
            ("lm_head.weight", "model-00001-of-00002.safetensors")
        );
        let err = index.embedding_shard(Some("wte")).unwrap_err().to_string();
        assert_eq!(
            err,
            "model.safetensors.index.json lists no tensor named 'wte'; choose one of its tensors: lm_head.weight, \
             model.layers.0.mlp.weight, model.embed_tokens.weight"
        );
        let no_embedding = ShardIndex::read(br#"{"weight_map":{"a.weight":"x.safetensors"}}"#).unwrap();
        assert!(
            no_embedding
                .embedding_shard(None)
                .unwrap_err()
                .to_string()
                .contains("choose one of its tensors: a.weight")
        );
        for (json, expected) in [
            (&br#"{"metadata":{}}"#[..], "has no weight_map"),
            (
                br#"{"weight_map":{"a":"../secret"}}"#,
                "'../secret', which is not the name of a file beside the index",
            ),
            (br#"{"weight_map":{"a":7}}"#, "a shard that is not a file name: 7"),
            (br#"{"weight_map":[]}"#, "is not the index of a sharded model"),
            (br#"{"weight_map":{}}"#, ""),
        ] {
            match ShardIndex::read(json) {
                Ok(index) => assert!(index.embedding_shard(None).unwrap_err().to_string().contains("empty")),
                Err(err) => assert!(err.to_string().contains(expected), "{err}"),
            }
        }
    }

    #[test]
    fn random_and_mutated_shard_indexes_never_panic() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2708);
        let valid = r#"{"metadata":{"total_size":1},"weight_map":{"wte.weight":"a.safetensors","b":"c"}}"#;
        for _ in 0..2_000 {
            let text = crate::fuzz::random_or_mutated(&mut rng, valid, crate::fuzz::JSON_PIECES);
            if let Ok(index) = ShardIndex::read(text.as_bytes()) {
                let _ = index.embedding_shard(None);
                let _ = index.shards();
            }
        }
    }
}
