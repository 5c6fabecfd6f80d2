//! A Hugging Face `tokenizer.json` read into [`Tokens`]: its model's vocabulary (BPE,
//! WordPiece, WordLevel or Unigram), the added tokens over it, the merges' ranks, and the
//! scheme its pre-tokenizer, decoder and normalizer name. The vocabulary and the merges are
//! read straight into their tables, never through `serde_json::Value`.

use serde::Deserialize;
use serde::de::{Error as _, MapAccess, SeqAccess, Unexpected, Visitor};
use serde_json::Value;

use super::{Entry, Scheme, TokenKind, Tokens, base_kind, guess_scheme};
use crate::error::{Error, Result};

/// The parts of a `tokenizer.json` embedscope reads, the large ones (the vocabulary and
/// the merges) read straight into their tables rather than through `serde_json::Value`,
/// which takes several times the file's size for a vocabulary of 128,000 tokens.
#[derive(Deserialize)]
struct TokenizerJson {
    model: Option<ModelJson>,
    added_tokens: Option<Vec<Value>>,
    #[serde(default)]
    pre_tokenizer: Option<Value>,
    #[serde(default)]
    decoder: Option<Value>,
    #[serde(default)]
    normalizer: Option<Value>,
}

/// A `tokenizer.json`'s model (other fields ignored).
#[derive(Deserialize)]
struct ModelJson {
    #[serde(rename = "type")]
    kind: Option<String>,
    vocab: Option<VocabJson>,
    merges: Option<Vec<MergeJson>>,
    unk_token: Option<String>,
    unk_id: Option<u64>,
    continuing_subword_prefix: Option<String>,
    byte_fallback: Option<bool>,
}

/// A model's vocabulary: `{token: id}` (BPE, WordPiece, WordLevel) or Unigram's
/// `[[piece, score], …]` by id; each id or piece checked where it is used.
enum VocabJson {
    Ids(Vec<(String, Value)>),
    Pieces(Vec<Value>),
}

impl<'de> Deserialize<'de> for VocabJson {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct VocabVisitor;
        impl<'de> Visitor<'de> for VocabVisitor {
            type Value = VocabJson;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a vocab: an object of ids or a list of pieces")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<VocabJson, A::Error> {
                let mut ids = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    ids.push(entry);
                }
                Ok(VocabJson::Ids(ids))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<VocabJson, A::Error> {
                let mut pieces = Vec::new();
                while let Some(piece) = seq.next_element()? {
                    pieces.push(piece);
                }
                Ok(VocabJson::Pieces(pieces))
            }
        }
        deserializer.deserialize_any(VocabVisitor)
    }
}

/// A merge, `"a b"` or `["a", "b"]`: the two parts joined, and where the second starts.
struct MergeJson(String, usize);

impl<'de> Deserialize<'de> for MergeJson {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct MergeVisitor;
        impl<'de> Visitor<'de> for MergeVisitor {
            type Value = MergeJson;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a merge, a pair of tokens (\"a b\" or [\"a\", \"b\"])")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> std::result::Result<MergeJson, E> {
                let (a, b) =
                    text.split_once(' ').ok_or_else(|| E::invalid_value(Unexpected::Str(text), &self))?;
                Ok(MergeJson(format!("{a}{b}"), a.len()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<MergeJson, A::Error> {
                let a: String = seq.next_element()?.ok_or_else(|| A::Error::invalid_length(0, &self))?;
                let b: String = seq.next_element()?.ok_or_else(|| A::Error::invalid_length(1, &self))?;
                if seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    return Err(A::Error::invalid_length(3, &self));
                }
                let split = a.len();
                Ok(MergeJson(a + &b, split))
            }
        }
        deserializer.deserialize_any(MergeVisitor)
    }
}

impl Tokens {
    /// The vocabulary of a Hugging Face `tokenizer.json`: `model.vocab` of a BPE, WordPiece,
    /// WordLevel or Unigram model, `added_tokens` over it (as the `tokenizers` library looks
    /// an id up), the merges' ranks, and the scheme from the pre-tokenizer, decoder and
    /// normalizer.
    pub fn from_tokenizer_json(bytes: &[u8]) -> Result<Tokens> {
        const SOURCE: &str = "tokenizer.json";
        let fail = |what: String| Error::Model(format!("tokenizer.json {what}"));
        let json: TokenizerJson = serde_json::from_slice(bytes).map_err(|err| {
            fail(match err.classify() {
                serde_json::error::Category::Data => format!("is not a Hugging Face tokenizer: {err}"),
                _ => format!("is not JSON ({err}): it is damaged or another file"),
            })
        })?;
        let Some(model) = json.model else {
            return Err(fail("has no model: it is not a Hugging Face tokenizer".to_string()));
        };
        let kind = match model.kind.as_deref() {
            Some(kind) => kind,
            // Files written before models were tagged: the kind their fields tell.
            None if model.merges.is_some() => "BPE",
            None if matches!(model.vocab, Some(VocabJson::Pieces(_))) => "Unigram",
            None if model.continuing_subword_prefix.is_some() => "WordPiece",
            None => "WordLevel",
        };
        let mut entries = Vec::new();
        match (kind, model.vocab) {
            ("BPE" | "WordPiece" | "WordLevel", Some(VocabJson::Ids(map))) => {
                entries.reserve_exact(map.len());
                for (token, id) in map {
                    let Some(id) = id.as_u64() else {
                        return Err(fail(format!(
                            "gives the token '{token}' the id {id}, not a whole number"
                        )));
                    };
                    entries.push(Entry { id, raw: token, kind: TokenKind::Normal, verbatim: false });
                }
            }
            ("Unigram", Some(VocabJson::Pieces(pieces))) => {
                entries.reserve_exact(pieces.len());
                for (id, piece) in pieces.into_iter().enumerate() {
                    let Some(token) = piece.get(0).and_then(Value::as_str) else {
                        return Err(fail(format!("has a Unigram piece {piece} that is not [text, score]")));
                    };
                    let raw = token.to_string();
                    entries.push(Entry { id: id as u64, raw, kind: TokenKind::Normal, verbatim: false });
                }
            }
            ("BPE" | "WordPiece" | "WordLevel" | "Unigram", _) => {
                return Err(fail(format!("has a {kind} model without its vocab")));
            }
            (other, _) => {
                return Err(fail(format!("has a model of type '{other}', which embedscope does not read")));
            }
        }
        // The unknown token stands for text the vocabulary lacks: kept off the map.
        let unk = match kind {
            "Unigram" => model.unk_id.and_then(|id| entries.get(id as usize)).map(|e| e.raw.clone()),
            _ => model.unk_token,
        };
        let parts = [&json.pre_tokenizer, &json.decoder, &json.normalizer];
        let scheme = json_scheme(parts, kind, model.byte_fallback == Some(true), &entries);
        for entry in &mut entries {
            entry.kind = if unk.as_deref() == Some(entry.raw.as_str()) {
                TokenKind::Special
            } else {
                base_kind(scheme, &entry.raw)
            };
        }
        let base_len = entries.len();
        for added in json.added_tokens.unwrap_or_default() {
            let (Some(id), Some(content)) =
                (added.get("id").and_then(Value::as_u64), added.get("content").and_then(Value::as_str))
            else {
                return Err(fail(format!(
                    "has an added token without a whole-number id and its content: {added}"
                )));
            };
            let special = added.get("special").and_then(Value::as_bool).unwrap_or(false);
            let kind = if special { TokenKind::Special } else { TokenKind::Normal };
            entries.push(Entry { id, raw: content.to_string(), kind, verbatim: true });
        }
        // With a continuing-subword prefix (`##`), a merge's right part sheds it.
        let prefix = model.continuing_subword_prefix.unwrap_or_default();
        let merges = match kind {
            "BPE" => model.merges.as_ref(),
            _ => None,
        };
        let pairs = merges.map(|merges| {
            merges.iter().map(|MergeJson(joined, split)| {
                let (a, b) = joined.split_at(*split);
                (a, if prefix.is_empty() { b } else { b.strip_prefix(prefix.as_str()).unwrap_or(b) })
            })
        });
        Tokens::lay_out(entries, base_len, pairs, scheme, SOURCE)
    }
}

/// The scheme of a `tokenizer.json`: byte-level where its pre-tokenizer or decoder is
/// `ByteLevel`; SentencePiece where a `Metaspace`, a `▁` replacement, byte fallback or a
/// Unigram model says so; WordPiece for its model; else as its tokens look.
fn json_scheme(parts: [&Option<Value>; 3], kind: &str, byte_fallback: bool, entries: &[Entry]) -> Scheme {
    let [pre_tokenizer, decoder, _] = parts;
    let byte_level = |v: &Value| v.get("type").and_then(Value::as_str) == Some("ByteLevel");
    if [pre_tokenizer, decoder].into_iter().flatten().any(|part| has_type(part, &byte_level)) {
        return Scheme::ByteLevel;
    }
    let sentencepiece = |v: &Value| match v.get("type").and_then(Value::as_str) {
        Some("Metaspace") => true,
        Some("Replace") => {
            v.get("content").and_then(Value::as_str) == Some("▁")
                || v.pointer("/pattern/String").and_then(Value::as_str) == Some("▁")
        }
        _ => false,
    };
    if kind == "Unigram"
        || byte_fallback
        || parts.into_iter().flatten().any(|part| has_type(part, &sentencepiece))
    {
        return Scheme::SentencePiece;
    }
    if kind == "WordPiece" {
        return Scheme::WordPiece;
    }
    guess_scheme(entries.iter().map(|e| e.raw.as_str()))
}

/// Whether `value` or a component of it (a `Sequence`'s `pretokenizers`, `decoders` or
/// `normalizers`) satisfies `test`.
fn has_type(value: &Value, test: &dyn Fn(&Value) -> bool) -> bool {
    if test(value) {
        return true;
    }
    ["pretokenizers", "decoders", "normalizers"]
        .iter()
        .filter_map(|key| value.get(key).and_then(Value::as_array))
        .flatten()
        .any(|part| has_type(part, test))
}
