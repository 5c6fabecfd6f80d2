//! The vocabulary of a language model: `tokenizer.json` or a GGUF file's metadata, each
//! token's raw form, the form a person reads, and its kind.
//!
//! Tokenizers write their tokens in one of a few schemes ([`Scheme`]): byte-level BPE
//! (GPT-2, Llama 3, Qwen) spells every byte as a printable character (`Ġ` the space, `Ċ` the
//! line end: GPT-2's `bytes_to_unicode`); SentencePiece (Llama 2, Mistral, Gemma, T5) writes
//! the space as `▁` and bytes as `<0x0A>`; WordPiece (BERT) marks a word's continuation with
//! `##`. The form a person reads undoes the scheme, and where two tokens would read alike the
//! later keeps its raw form, so a token is found by either.

use std::collections::{HashMap, HashSet};

use crate::error::{Error, Result, thousands};
use crate::text::TOKEN_WHITESPACE;

mod json;

/// What a token is, for the map and for the person reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// Text.
    Normal,
    /// One byte (`<0x0A>`, or a byte-level BPE's base token).
    Byte,
    /// A special or control token (`<|endoftext|>`, `<s>`, `[CLS]`): kept off the map.
    Special,
    /// A token no text produces (unused, padding rows): kept off the map.
    Unused,
}

/// How a tokenizer writes its tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// Byte-level BPE: each byte a printable character (GPT-2's `bytes_to_unicode`).
    ByteLevel,
    /// SentencePiece: the space as `▁`, bytes as `<0xNN>`.
    SentencePiece,
    /// WordPiece: a word's continuation as `##ing`.
    WordPiece,
    /// Tokens as they are written (a word-level vocabulary, or rows named by id).
    Plain,
}

impl Scheme {
    /// The scheme's name as a person knows it.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::ByteLevel => "byte-level BPE",
            Scheme::SentencePiece => "SentencePiece",
            Scheme::WordPiece => "WordPiece",
            Scheme::Plain => "plain",
        }
    }
}

/// The merge rank of a token no merge produces (a base token).
const BASE: u32 = u32::MAX;

/// Rows past the tokens that [`Tokens::fit_rows`] always accepts as padding: models round
/// their vocabulary up to a multiple of 64 (or 128), and small ones by a large share.
const PADDING_ROWS: usize = 64;

/// A model's tokens by id.
#[derive(Debug, Clone, PartialEq)]
pub struct Tokens {
    raw: Vec<String>,
    kinds: Vec<TokenKind>,
    /// Tokens shown as written: added tokens (`added_tokens`, GGUF's control and
    /// user-defined tokens) and the names of rows no token has; their text is not in the
    /// scheme's spelling.
    verbatim: Vec<bool>,
    /// For BPE, the rank of the first merge that produces each token ([`BASE`] for none).
    merge_rank: Option<Vec<u32>>,
    scheme: Scheme,
    /// Where the tokens come from, for messages: `tokenizer.json`, `the GGUF file's tokenizer`.
    source: &'static str,
}

/// A token read from a file, before the ids are laid out.
struct Entry {
    id: u64,
    raw: String,
    kind: TokenKind,
    verbatim: bool,
}

impl Tokens {
    /// The vocabulary a GGUF file's metadata holds: `tokenizer.ggml.model` (`gpt2` for
    /// byte-level BPE, `llama` for SentencePiece, `bert`, …), `tokenizer.ggml.tokens`,
    /// `tokenizer.ggml.token_type` (llama.cpp's numbers: 1 normal, 2 unknown, 3 control,
    /// 4 user-defined, 5 unused, 6 byte) and `tokenizer.ggml.merges` (`"a b"`).
    pub fn from_gguf(
        model: Option<&str>,
        tokens: Vec<String>,
        types: Option<Vec<i32>>,
        merges: Option<Vec<String>>,
    ) -> Result<Tokens> {
        const SOURCE: &str = "the GGUF file's tokenizer";
        if let Some(types) = &types
            && types.len() != tokens.len()
        {
            return Err(Error::Model(format!(
                "the GGUF file's tokenizer.ggml.token_type has {} entries but tokenizer.ggml.tokens {}: the file \
                 is damaged",
                thousands(types.len() as u64),
                thousands(tokens.len() as u64)
            )));
        }
        let scheme = match model {
            Some("gpt2") => Scheme::ByteLevel,
            Some("llama" | "t5") => Scheme::SentencePiece,
            Some("bert") => Scheme::WordPiece,
            _ => guess_scheme(tokens.iter().map(String::as_str)),
        };
        let entries: Vec<Entry> = tokens
            .into_iter()
            .enumerate()
            .map(|(id, raw)| {
                let (kind, verbatim) = match types.as_ref().map(|types| types[id]) {
                    Some(2) => (TokenKind::Special, false),
                    Some(3) => (TokenKind::Special, true),
                    Some(4) => (TokenKind::Normal, true),
                    Some(5) => (TokenKind::Unused, false),
                    Some(6) => (TokenKind::Byte, false),
                    Some(1) => (base_kind(scheme, &raw), false),
                    // Undefined (0) or a type llama.cpp does not name: as its text tells.
                    _ => (base_kind(scheme, &raw), false),
                };
                Entry { id: id as u64, raw, kind, verbatim }
            })
            .collect();
        let base_len = entries.len();
        let pairs = merges.as_ref().map(|merges| merges.iter().filter_map(|merge| merge.split_once(' ')));
        Tokens::lay_out(entries, base_len, pairs, scheme, SOURCE)
    }

    /// The tokens by id from `entries` (a later entry of an id over an earlier one, as the
    /// `tokenizers` library's added tokens over the model's), ids no token has named as
    /// unused rows, and each token's merge rank from `merges`, the pairs each merge joins in
    /// rank order (only the first `base_len` entries, the model's own, are made by merges).
    fn lay_out<'m>(
        entries: Vec<Entry>,
        base_len: usize,
        merges: Option<impl Iterator<Item = (&'m str, &'m str)>>,
        scheme: Scheme,
        source: &'static str,
    ) -> Result<Tokens> {
        let Some(max_id) = entries.iter().map(|e| e.id).max() else {
            return Err(Error::Model(format!("{source} holds no tokens")));
        };
        // Ids far past the number of tokens are a damaged file, not a vocabulary with holes;
        // this also bounds the tables below by the entries read.
        let limit = entries.len() as u64 + (entries.len() as u64 / 8).max(PADDING_ROWS as u64);
        if max_id >= limit {
            let far = entries.iter().find(|e| e.id == max_id).expect("the largest id's entry");
            return Err(Error::Model(format!(
                "{source} gives the token '{}' the id {}, far past its {} tokens: it is damaged",
                far.raw,
                thousands(max_id),
                thousands(entries.len() as u64)
            )));
        }
        let n = max_id as usize + 1;
        let merge_rank = merges.map(|merges| {
            let mut model_ids: HashMap<&str, usize> = HashMap::with_capacity(base_len);
            for entry in &entries[..base_len] {
                model_ids.entry(entry.raw.as_str()).or_insert(entry.id as usize);
            }
            let mut rank = vec![BASE; n];
            let mut joined = String::new();
            for (r, (a, b)) in merges.enumerate() {
                joined.clear();
                joined.push_str(a);
                joined.push_str(b);
                if let Some(&id) = model_ids.get(joined.as_str()) {
                    rank[id] = rank[id].min(r.min(BASE as usize - 1) as u32);
                }
            }
            rank
        });
        let mut slots: Vec<Option<Entry>> = (0..n).map(|_| None).collect();
        for entry in entries {
            let id = entry.id as usize;
            // The model's vocabulary keeps the first of two tokens with one id; an added
            // token replaces the model's.
            if slots[id].is_none() || entry.verbatim {
                slots[id] = Some(entry);
            }
        }
        let mut tokens = Tokens {
            raw: Vec::with_capacity(n),
            kinds: Vec::with_capacity(n),
            verbatim: Vec::with_capacity(n),
            merge_rank,
            scheme,
            source,
        };
        for (id, slot) in slots.into_iter().enumerate() {
            let entry = slot.unwrap_or(Entry {
                id: id as u64,
                raw: row_name(id),
                kind: TokenKind::Unused,
                verbatim: true,
            });
            tokens.raw.push(entry.raw);
            tokens.kinds.push(entry.kind);
            tokens.verbatim.push(entry.verbatim);
        }
        Ok(tokens)
    }

    /// Rows named by their token id, for a matrix without a tokenizer.
    pub fn by_id(rows: usize) -> Tokens {
        Tokens {
            raw: (0..rows).map(|id| id.to_string()).collect(),
            kinds: vec![TokenKind::Normal; rows],
            verbatim: vec![true; rows],
            merge_rank: None,
            scheme: Scheme::Plain,
            source: "token ids",
        }
    }

    /// These tokens as the names of a matrix's `rows`: fails, saying why, when the tokenizer
    /// cannot be this matrix's (more tokens than rows, or many fewer); rows past the tokens
    /// (the padding models add to round their vocabulary up) become `Unused`, named
    /// `<row N>`.
    pub fn fit_rows(mut self, rows: usize) -> Result<Tokens> {
        let n = self.len();
        let another = |detail: String| {
            Error::Model(format!(
                "{detail}: it is another model's tokenizer; give the tokenizer of this model"
            ))
        };
        if n > rows {
            // Where only added tokens lie past the rows, the first of them says the most.
            let model_past = (rows..n).any(|id| !self.verbatim[id]);
            let added_past = (rows..n).find(|&id| self.kinds[id] != TokenKind::Unused);
            return Err(another(match added_past {
                Some(id) if !model_past => format!(
                    "{} gives the added token '{}' the id {}, past the matrix's {} rows",
                    self.source,
                    self.raw[id],
                    thousands(id as u64),
                    thousands(rows as u64)
                ),
                _ => format!(
                    "{} has {} tokens but the matrix {} rows",
                    self.source,
                    thousands(n as u64),
                    thousands(rows as u64)
                ),
            }));
        }
        let gap = rows - n;
        if gap > PADDING_ROWS && gap * 20 > rows {
            return Err(another(format!(
                "{} has {} tokens but the matrix {} rows, more than a model pads",
                self.source,
                thousands(n as u64),
                thousands(rows as u64)
            )));
        }
        for id in n..rows {
            self.raw.push(row_name(id));
            self.kinds.push(TokenKind::Unused);
            self.verbatim.push(true);
            if let Some(rank) = &mut self.merge_rank {
                rank.push(BASE);
            }
        }
        Ok(self)
    }

    /// Token `id` as its file writes it (`Ġking`, `▁king`, `<0x0A>`). **Unchecked
    /// precondition:** `id < len()`.
    pub fn raw(&self, id: usize) -> &str {
        &self.raw[id]
    }

    /// Every token as a person reads it, by id, no two alike: byte-level BPE's `Ġ` a space
    /// and `Ċ` a line end (bytes that are not whole UTF-8 characters as `\xE2`), SentencePiece's
    /// `▁` a space, `<0x0A>` the byte it names when that is ASCII. Control characters other
    /// than the whitespace a token may hold are written as escapes (`\x07`).
    ///
    /// Where two tokens would read alike, a token that reads as it is written keeps the form
    /// (SentencePiece's `,` over the byte token `<0x2C>`), and otherwise the earlier does;
    /// the other keeps its raw form (or, were that taken too, the raw form and a number).
    pub fn display_forms(&self) -> Vec<String> {
        let wanted: Vec<String> = (0..self.len())
            .map(|id| {
                let raw = &self.raw[id];
                let readable = match self.kinds[id] {
                    TokenKind::Special | TokenKind::Unused => None,
                    _ if self.verbatim[id] => None,
                    _ => readable(self.scheme, raw),
                };
                readable.unwrap_or_else(|| raw.clone())
            })
            .collect();
        let mut taken: HashSet<&str> = HashSet::with_capacity(self.len());
        let mut forms: Vec<Option<String>> = vec![None; self.len()];
        for (id, form) in wanted.iter().enumerate() {
            if *form == self.raw[id] && taken.insert(form) {
                forms[id] = Some(form.clone());
            }
        }
        let mut numbered = Vec::new();
        for (id, form) in wanted.iter().enumerate() {
            if forms[id].is_some() {
                continue;
            }
            let raw = &self.raw[id];
            if taken.insert(form) {
                forms[id] = Some(form.clone());
            } else if taken.insert(raw) {
                forms[id] = Some(raw.clone());
            } else {
                numbered.push(id);
            }
        }
        let mut numbered_taken: HashSet<String> = HashSet::new();
        for id in numbered {
            let raw = &self.raw[id];
            let form = (2..)
                .map(|n| format!("{raw} ({n})"))
                .find(|form| !taken.contains(form.as_str()) && !numbered_taken.contains(form))
                .expect("a free number");
            numbered_taken.insert(form.clone());
            forms[id] = Some(form);
        }
        forms.into_iter().map(|form| form.expect("every id has a form")).collect()
    }

    /// The ids in the order the map and the word lists take them, most frequent first as
    /// far as the tokenizer tells (a BPE token by the rank of the merge that made it, after
    /// the base tokens no merge makes; else by id); then the bytes that are no text of their
    /// own (a byte-level BPE's base tokens for bytes from 0x80, which read as `\xE2`, and
    /// for control characters, and SentencePiece's byte-fallback tokens, which stand in for
    /// characters the vocabulary lacks); special and unused tokens last.
    pub fn order(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = (0..self.len() as u32).collect();
        ids.sort_by_key(|&id| {
            let group = match self.kinds[id as usize] {
                TokenKind::Special | TokenKind::Unused => 2,
                TokenKind::Byte if self.is_partial_byte(id as usize) => 1,
                _ => 0,
            };
            let rank = self.merge_rank.as_ref().map_or(0, |rank| match rank[id as usize] {
                BASE => 0,
                r => u64::from(r) + 1,
            });
            (group, rank, id)
        });
        ids
    }

    /// Whether byte token `id` is no text of its own: under SentencePiece a byte-fallback
    /// token, under byte-level BPE a byte that begins or continues a multi-byte character,
    /// or a control character other than whitespace (`\x07`, which texts hardly hold).
    fn is_partial_byte(&self, id: usize) -> bool {
        match self.scheme {
            Scheme::SentencePiece => byte_token(&self.raw[id]).is_some(),
            Scheme::ByteLevel => byte_level_byte(&self.raw[id]).is_some_and(|b| {
                b >= 0x80 || (b.is_ascii_control() && !TOKEN_WHITESPACE.contains(&char::from(b)))
            }),
            Scheme::WordPiece | Scheme::Plain => false,
        }
    }

    /// How the tokens are written.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// How many tokens.
    pub fn len(&self) -> usize {
        self.raw.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// Token `id`'s kind. **Unchecked precondition:** `id < len()`.
    pub fn kind(&self, id: usize) -> TokenKind {
        self.kinds[id]
    }
}

/// The name of a matrix row no token has.
fn row_name(id: usize) -> String {
    format!("<row {id}>")
}

/// The scheme of a vocabulary whose file does not name it, from its tokens: SentencePiece
/// where many hold `▁`, byte-level where many hold `Ġ`, else plain.
fn guess_scheme<'t>(tokens: impl Iterator<Item = &'t str>) -> Scheme {
    let (mut n, mut metaspace, mut g) = (0usize, 0usize, 0usize);
    for token in tokens {
        n += 1;
        metaspace += usize::from(token.contains('▁'));
        g += usize::from(token.starts_with('Ġ'));
    }
    if metaspace * 20 > n {
        Scheme::SentencePiece
    } else if g * 20 > n {
        Scheme::ByteLevel
    } else {
        Scheme::Plain
    }
}

/// The kind of a model's own token by its text: a byte where it spells one byte.
fn base_kind(scheme: Scheme, raw: &str) -> TokenKind {
    let byte = match scheme {
        Scheme::ByteLevel => byte_level_byte(raw).is_some(),
        Scheme::SentencePiece => byte_token(raw).is_some(),
        _ => false,
    };
    if byte { TokenKind::Byte } else { TokenKind::Normal }
}

/// The byte a byte-level BPE token of one character spells, if it is one.
fn byte_level_byte(raw: &str) -> Option<u8> {
    let mut chars = raw.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => byte_of_char(c),
        _ => None,
    }
}

/// The byte a SentencePiece byte token (`<0x0A>`) names.
fn byte_token(raw: &str) -> Option<u8> {
    let hex = raw.strip_prefix("<0x")?.strip_suffix('>')?;
    if hex.len() != 2 {
        return None;
    }
    u8::from_str_radix(hex, 16).ok()
}

/// The byte a byte-level BPE character spells, by GPT-2's `bytes_to_unicode`: the printable
/// bytes `!`..`~`, `¡`..`¬` and `®`..`ÿ` stand for themselves, and the other 68, in order,
/// are U+0100 onwards.
fn byte_of_char(c: char) -> Option<u8> {
    let code = c as u32;
    if code < 0x100 {
        return is_printable_byte(code as u8).then_some(code as u8);
    }
    UNPRINTABLE_BYTES.get(code as usize - 0x100).copied()
}

/// Whether byte-level BPE writes byte `b` as the character of the same number.
const fn is_printable_byte(b: u8) -> bool {
    matches!(b, 0x21..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF)
}

/// The 68 bytes byte-level BPE writes as U+0100 onwards, in order.
const UNPRINTABLE_BYTES: [u8; 68] = {
    let mut table = [0u8; 68];
    let (mut b, mut n) = (0usize, 0usize);
    while b < 256 {
        if !is_printable_byte(b as u8) {
            table[n] = b as u8;
            n += 1;
        }
        b += 1;
    }
    table
};

/// Token `raw` as a person reads it under `scheme`, or `None` where it stays as written (a
/// byte-level token with a character outside the byte table, as the `tokenizers` library's
/// decoder keeps it).
fn readable(scheme: Scheme, raw: &str) -> Option<String> {
    match scheme {
        Scheme::ByteLevel => {
            let bytes: Option<Vec<u8>> = raw.chars().map(byte_of_char).collect();
            Some(escaped(&bytes?))
        }
        Scheme::SentencePiece => match byte_token(raw) {
            Some(byte) if byte.is_ascii() => Some(escaped(&[byte])),
            Some(_) => None,
            None => Some(escaped(raw.replace('▁', " ").as_bytes())),
        },
        Scheme::WordPiece | Scheme::Plain => None,
    }
}

/// `bytes` as text: UTF-8 characters as they are, bytes that are not part of one as `\xE2`,
/// control characters other than a token's whitespace as `\x07` or `\u{85}`.
fn escaped(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() && !TOKEN_WHITESPACE.contains(&c) {
                if c.is_ascii() {
                    text.push_str(&format!("\\x{:02X}", c as u32));
                } else {
                    text.push_str(&format!("\\u{{{:X}}}", c as u32));
                }
            } else {
                text.push(c);
            }
        }
        for b in chunk.invalid() {
            text.push_str(&format!("\\x{b:02X}"));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    use super::*;

    fn json(text: &str) -> Tokens {
        Tokens::from_tokenizer_json(text.as_bytes()).unwrap_or_else(|err| panic!("{err}: {text}"))
    }

    fn refusal(text: &str) -> String {
        match Tokens::from_tokenizer_json(text.as_bytes()) {
            Err(Error::Model(message)) => message,
            other => panic!("{other:?}"),
        }
    }

    use TokenKind::{Byte, Normal, Special, Unused};

    /// GPT-2's `bytes_to_unicode` at the bytes worth checking, as its Python writes them.
    #[test]
    fn byte_level_characters_are_gpt2s_table() {
        let table = [
            (0x00, 'Ā'),
            (0x09, 'ĉ'),
            (0x0A, 'Ċ'),
            (0x0D, 'č'),
            (0x20, 'Ġ'),
            (0x21, '!'),
            (0x7E, '~'),
            (0x7F, 'ġ'),
            (0x80, 'Ģ'),
            (0xA0, 'ł'),
            (0xA1, '¡'),
            (0xAC, '¬'),
            (0xAD, 'Ń'),
            (0xAE, '®'),
            (0xE2, 'â'),
            (0xFF, 'ÿ'),
        ];
        for (byte, c) in table {
            assert_eq!(byte_of_char(c), Some(byte), "{c}");
        }
        for c in [' ', '\n', '\u{A0}', '\u{AD}', '\u{144}', '日'] {
            assert_eq!(byte_of_char(c), None, "{c:?}");
        }
        let all: HashSet<u8> = (0..0x200u32).filter_map(char::from_u32).filter_map(byte_of_char).collect();
        assert_eq!(all.len(), 256);
    }

    const BYTE_LEVEL: &str = r#"{
        "version": "1.0",
        "added_tokens": [
            {"id": 0, "content": "<|endoftext|>", "single_word": false, "special": true},
            {"id": 15, "content": "my token", "special": false}
        ],
        "normalizer": null,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false},
        "decoder": {"type": "ByteLevel"},
        "model": {"type": "BPE", "unk_token": null, "vocab": {
            "<|endoftext|>": 0, "!": 1, "Ġ": 2, "Ċ": 3, "h": 4, "e": 5, "he": 6, "Ġhe": 7,
            "â": 8, "âĢ": 9, "âĢľ": 10, "Ã©": 11, "Ā": 12, "ĠĠ": 13, "Ã": 14, "©": 16, "ĉ": 17, "Ģ": 18, "ń": 19
        }, "merges": ["h e", ["Ġ", "he"], "â Ģ", "âĢ ľ", "Ã ©", "Ġ Ġ", "Ġh e"]}
    }"#;

    #[test]
    fn reads_byte_level_bpe() {
        let tokens = json(BYTE_LEVEL);
        assert_eq!(tokens.scheme(), Scheme::ByteLevel);
        assert_eq!(tokens.len(), 20);
        assert_eq!(tokens.raw(7), "Ġhe");
        assert_eq!(tokens.raw(15), "my token");
        let kinds: Vec<TokenKind> = (0..20).map(|id| tokens.kind(id)).collect();
        #[rustfmt::skip]
        assert_eq!(kinds, [Special, Byte, Byte, Byte, Byte, Byte, Normal, Normal, Byte, Normal, Normal, Normal, Byte,
                           Normal, Byte, Normal, Byte, Byte, Byte, Normal]);
        #[rustfmt::skip]
        assert_eq!(tokens.display_forms(), [
            "<|endoftext|>", "!", " ", "\n", "h", "e", "he", " he", "\\xE2", "\\xE2\\x80", "\u{201C}", "é", "\\x00",
            "  ", "\\xC3", "my token", "\\xA9", "\t", "\\x80", "ń",
        ]);
        // Base tokens that are text by id, then the merged ones by the merge that made them
        // ("Ġhe" by its first merge), then the bytes from 0x80 (â, Ã, ©, Ģ) and the control
        // character \x00 (Ā), the special token last.
        assert_eq!(tokens.order(), [1, 2, 3, 4, 5, 15, 17, 19, 6, 7, 9, 10, 11, 13, 8, 12, 14, 16, 18, 0]);
    }

    #[test]
    fn tokens_that_would_read_alike_keep_their_raw_form() {
        let tokens = json(
            r#"{"added_tokens":[{"id":4,"content":" ","special":false}],
                "decoder":{"type":"Metaspace","replacement":"▁"},
                "model":{"type":"BPE","vocab":{"▁":0,"<0x20>":1,"▁a":2,"<0x20>a":3},"merges":[]}}"#,
        );
        assert_eq!(tokens.scheme(), Scheme::SentencePiece);
        // The added " " reads as it is written, so "▁" and "<0x20>" keep their raw forms.
        assert_eq!(tokens.display_forms(), ["▁", "<0x20>", " a", "<0x20>a", " "]);
        let numbered =
            Tokens::from_gguf(None, ["a", "a", "a (2)", "b"].map(String::from).to_vec(), None, None).unwrap();
        assert_eq!(numbered.display_forms(), ["a", "a (3)", "a (2)", "b"]);
    }

    #[test]
    fn reads_sentencepiece_bpe_with_byte_fallback() {
        // Llama 2's layout: a normalizer writing spaces as ▁, a decoder undoing it, bytes.
        let llama = r#"{
            "added_tokens": [
                {"id": 0, "content": "<unk>", "special": true}, {"id": 1, "content": "<s>", "special": true},
                {"id": 2, "content": "</s>", "special": true}],
            "normalizer": {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"},
                {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
            "pre_tokenizer": null,
            "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
                {"type": "ByteFallback"}, {"type": "Fuse"}, {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
            "model": {"type": "BPE", "byte_fallback": true, "unk_token": "<unk>", "vocab": {
                "<unk>": 0, "<s>": 1, "</s>": 2, "<0x0A>": 3, "<0xE2>": 4, "<0x07>": 5, "▁": 6, "▁t": 7, "he": 8,
                "▁the": 9, "t": 10, "h": 11, "e": 12, "▁▁": 13, "<0x0a>": 14},
                "merges": ["▁ t", "h e", "▁t he", "▁ ▁"]}
        }"#;
        let tokens = json(llama);
        assert_eq!(tokens.scheme(), Scheme::SentencePiece);
        #[rustfmt::skip]
        assert_eq!(tokens.display_forms(), [
            "<unk>", "<s>", "</s>", "\n", "<0xE2>", "\\x07", " ", " t", "he", " the", "t", "h", "e", "  ", "<0x0a>",
        ]);
        let kinds: Vec<TokenKind> = (0..15).map(|id| tokens.kind(id)).collect();
        #[rustfmt::skip]
        assert_eq!(kinds, [Special, Special, Special, Byte, Byte, Byte, Normal, Normal, Normal, Normal, Normal, Normal,
                           Normal, Normal, Byte]);
        // The byte-fallback tokens after the text's tokens.
        assert_eq!(tokens.order(), [6, 10, 11, 12, 7, 8, 9, 13, 3, 4, 5, 14, 0, 1, 2]);
        // Metaspace alone says SentencePiece too.
        let metaspace = json(
            r#"{"pre_tokenizer":{"type":"Metaspace"},"model":{"type":"BPE","vocab":{"▁a":0},"merges":[]}}"#,
        );
        assert_eq!(metaspace.scheme(), Scheme::SentencePiece);
    }

    #[test]
    fn reads_unigram_wordpiece_and_word_level() {
        let unigram = json(
            r#"{"added_tokens":[{"id":1,"content":"</s>","special":true}],
                "model":{"type":"Unigram","unk_id":0,"vocab":[["<unk>",0.0],["</s>",0.0],["▁the",-1.5],["s",-2.25],["<0xC3>",0]],"byte_fallback":true}}"#,
        );
        assert_eq!(unigram.scheme(), Scheme::SentencePiece);
        assert_eq!(unigram.display_forms(), ["<unk>", "</s>", " the", "s", "<0xC3>"]);
        assert_eq!(
            (0..5).map(|id| unigram.kind(id)).collect::<Vec<_>>(),
            [Special, Special, Normal, Normal, Byte]
        );
        assert_eq!(unigram.order(), [2, 3, 4, 0, 1]);

        let bert = json(
            r###"{"added_tokens":[{"id":0,"content":"[PAD]","special":true},{"id":2,"content":"[CLS]","special":true}],
                "pre_tokenizer":{"type":"BertPreTokenizer"},"decoder":{"type":"WordPiece","prefix":"##"},
                "model":{"type":"WordPiece","unk_token":"[UNK]","continuing_subword_prefix":"##",
                "vocab":{"[PAD]":0,"[UNK]":1,"[CLS]":2,"the":3,"##s":4,"Ġ":5}}}"###,
        );
        assert_eq!(bert.scheme(), Scheme::WordPiece);
        assert_eq!(bert.display_forms(), ["[PAD]", "[UNK]", "[CLS]", "the", "##s", "Ġ"]);
        assert_eq!(
            (0..6).map(|id| bert.kind(id)).collect::<Vec<_>>(),
            [Special, Special, Special, Normal, Normal, Normal]
        );
        assert_eq!(bert.order(), [3, 4, 5, 0, 1, 2]);

        // No type (an older file), a hole in the ids.
        let words = json(r#"{"model":{"vocab":{"king":0,"queen":2}}}"#);
        assert_eq!(words.scheme(), Scheme::Plain);
        assert_eq!(words.display_forms(), ["king", "<row 1>", "queen"]);
        assert_eq!(words.kind(1), Unused);
        assert_eq!(words.order(), [0, 2, 1]);
    }

    #[test]
    fn bpe_with_a_continuing_subword_prefix_ranks_its_merges() {
        let tokens = json(
            r###"{"model":{"type":"BPE","continuing_subword_prefix":"##","vocab":{"a":0,"##b":1,"ab":2,"##c":3,"##bc":4},
                "merges":[["##b","##c"],["a","##b"]]}}"###,
        );
        assert_eq!(tokens.order(), [0, 1, 3, 4, 2]);
    }

    #[test]
    fn refuses_what_is_not_a_tokenizer() {
        let cases = [
            ("{", "tokenizer.json is not JSON"),
            ("{}", "has no model"),
            ("[]", "is not a Hugging Face tokenizer: invalid length 0"),
            (r#"{"model":5}"#, "is not a Hugging Face tokenizer: invalid type: integer `5`"),
            (r#"{"model":{"type":"Magic","vocab":{}}}"#, "a model of type 'Magic'"),
            (r#"{"model":{"type":"BPE","merges":[]}}"#, "a BPE model without its vocab"),
            (r#"{"model":{"type":"BPE","vocab":{},"merges":[]}}"#, "tokenizer.json holds no tokens"),
            (
                r#"{"model":{"type":"BPE","vocab":{"a":-1},"merges":[]}}"#,
                "gives the token 'a' the id -1, not a whole number",
            ),
            (
                r#"{"model":{"type":"BPE","vocab":{"a":0,"b":4000000000},"merges":[]}}"#,
                "gives the token 'b' the id 4,000,000,000, far past its 2 tokens",
            ),
            (
                r#"{"model":{"type":"BPE","vocab":{"a":0},"merges":["ab"]}}"#,
                "invalid value: string \"ab\", expected a merge, a pair of tokens",
            ),
            (
                r#"{"model":{"type":"BPE","vocab":{"a":0},"merges":[["a"]]}}"#,
                "invalid length 1, expected a merge",
            ),
            (r#"{"model":{"type":"BPE","vocab":{"a":0},"merges":[["a","b","c"]]}}"#, "invalid length 3"),
            (
                r#"{"model":{"type":"Unigram","vocab":[[1,2]]}}"#,
                "a Unigram piece [1,2] that is not [text, score]",
            ),
            (r#"{"added_tokens":[{"content":"x"}],"model":{"vocab":{"a":0}}}"#, "an added token without"),
        ];
        for (text, expected) in cases {
            let got = refusal(text);
            assert!(got.contains(expected), "{text}: {got}");
        }
    }

    #[test]
    fn fits_the_matrix_rows_or_says_why_not() {
        let tokens = json(BYTE_LEVEL);
        let fitted = tokens.clone().fit_rows(24).unwrap();
        assert_eq!(fitted.len(), 24);
        assert_eq!(fitted.raw(23), "<row 23>");
        assert_eq!(fitted.kind(20), Unused);
        assert_eq!(&fitted.display_forms()[..20], &tokens.display_forms()[..]);
        assert_eq!(&fitted.order()[19..], [0, 20, 21, 22, 23]);
        assert_eq!(tokens.clone().fit_rows(20).unwrap(), tokens);

        let gguf = |n: usize| {
            Tokens::from_gguf(None, (0..n).map(|i| format!("t{i}")).collect(), None, None).unwrap()
        };
        assert_eq!(
            gguf(50_257).fit_rows(32_000).unwrap_err().to_string(),
            "the GGUF file's tokenizer has 50,257 tokens but the matrix 32,000 rows: it is another model's \
             tokenizer; give the tokenizer of this model"
        );
        assert_eq!(
            tokens.clone().fit_rows(19).unwrap_err().to_string(),
            "tokenizer.json has 20 tokens but the matrix 19 rows: it is another model's tokenizer; give the \
             tokenizer of this model"
        );
        let added = json(
            r#"{"added_tokens":[{"id":3,"content":"<|x|>","special":true}],"model":{"vocab":{"a":0,"b":1,"c":2}}}"#,
        );
        assert_eq!(
            added.fit_rows(3).unwrap_err().to_string(),
            "tokenizer.json gives the added token '<|x|>' the id 3, past the matrix's 3 rows: it is another model's \
             tokenizer; give the tokenizer of this model"
        );
        // Padding: up to 64 rows always, else up to a twentieth of the rows.
        assert!(gguf(10).fit_rows(74).is_ok());
        assert!(
            gguf(10)
                .fit_rows(75)
                .unwrap_err()
                .to_string()
                .contains("has 10 tokens but the matrix 75 rows, more than a model pads")
        );
        assert!(gguf(3_000).fit_rows(3_150).is_ok());
        assert!(gguf(3_000).fit_rows(3_200).is_err());
        assert!(gguf(50_257).fit_rows(50_304).is_ok());
    }

    #[test]
    fn reads_gguf_vocabularies() {
        let s = |v: &[&str]| v.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let gpt2 = Tokens::from_gguf(
            Some("gpt2"),
            s(&["<|endoftext|>", "h", "e", "he", "Ġ", "Ġhe", "<|im_start|>", "Ġé", "[PAD]"]),
            Some(vec![3, 1, 1, 1, 1, 1, 4, 1, 5]),
            Some(s(&["h e", "Ġ he"])),
        )
        .unwrap();
        assert_eq!(gpt2.scheme(), Scheme::ByteLevel);
        // "é" is byte 0xE9 of the byte table, not a character of its own.
        assert_eq!(
            gpt2.display_forms(),
            ["<|endoftext|>", "h", "e", "he", " ", " he", "<|im_start|>", " \\xE9", "[PAD]"]
        );
        assert_eq!(
            (0..9).map(|id| gpt2.kind(id)).collect::<Vec<_>>(),
            [Special, Byte, Byte, Normal, Byte, Normal, Normal, Normal, Unused]
        );
        assert_eq!(gpt2.order(), [1, 2, 4, 6, 7, 3, 5, 0, 8]);

        let llama = Tokens::from_gguf(
            Some("llama"),
            s(&["<unk>", "<s>", "<0x0A>", "<0xFF>", "▁the", "▁"]),
            Some(vec![2, 3, 6, 6, 1, 1]),
            None,
        )
        .unwrap();
        assert_eq!(llama.scheme(), Scheme::SentencePiece);
        assert_eq!(llama.display_forms(), ["<unk>", "<s>", "\n", "<0xFF>", " the", " "]);
        assert_eq!(
            (0..6).map(|id| llama.kind(id)).collect::<Vec<_>>(),
            [Special, Special, Byte, Byte, Normal, Normal]
        );
        // Byte-fallback tokens after the text's, the specials last.
        assert_eq!(llama.order(), [4, 5, 2, 3, 0, 1]);

        let bert = Tokens::from_gguf(Some("bert"), s(&["[CLS]", "##s"]), None, None).unwrap();
        assert_eq!((bert.scheme(), bert.display_forms()), (Scheme::WordPiece, s(&["[CLS]", "##s"])));
        let guessed = Tokens::from_gguf(Some("rwkv"), s(&["▁a", "b"]), None, None).unwrap();
        assert_eq!(guessed.scheme(), Scheme::SentencePiece);

        let err = Tokens::from_gguf(Some("llama"), s(&["a", "b"]), Some(vec![1]), None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the GGUF file's tokenizer.ggml.token_type has 1 entries but tokenizer.ggml.tokens 2: the file is damaged"
        );
        assert_eq!(
            Tokens::from_gguf(None, vec![], None, None).unwrap_err().to_string(),
            "the GGUF file's tokenizer holds no tokens"
        );
    }

    /// Every reading's invariants: forms unique, the order a permutation, padding fitted.
    fn check_invariants(tokens: &Tokens) {
        let forms = tokens.display_forms();
        assert_eq!(forms.len(), tokens.len());
        assert_eq!(forms.iter().collect::<HashSet<_>>().len(), forms.len());
        let mut order = tokens.order();
        order.sort_unstable();
        assert!(order.iter().enumerate().all(|(i, &id)| i == id as usize));
        let fitted = tokens.clone().fit_rows(tokens.len() + 3).unwrap();
        assert_eq!(fitted.display_forms().len(), tokens.len() + 3);
    }

    #[test]
    fn random_and_mutated_tokenizer_json_never_panics() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2709);
        let documents = [
            BYTE_LEVEL,
            r#"{"added_tokens":[{"id":1,"content":"</s>","special":true}],"decoder":{"type":"Metaspace"},
                "model":{"type":"Unigram","unk_id":0,"vocab":[["<unk>",0],["</s>",0],["▁a",-1],["<0x0A>",0]]}}"#,
            r###"{"model":{"type":"WordPiece","unk_token":"[UNK]","vocab":{"[UNK]":0,"a":1,"##b":2}}}"###,
        ];
        let mut read = 0;
        for i in 0..3_000 {
            let text = crate::fuzz::random_or_mutated(&mut rng, documents[i % 3], crate::fuzz::JSON_PIECES);
            match Tokens::from_tokenizer_json(text.as_bytes()) {
                Ok(tokens) => {
                    read += 1;
                    check_invariants(&tokens);
                }
                Err(err) => assert!(!err.to_string().is_empty()),
            }
        }
        assert!(read > 150, "{read}");
    }

    #[test]
    fn random_gguf_vocabularies_never_panic() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2710);
        let models = [Some("gpt2"), Some("llama"), Some("bert"), Some("t5"), Some("other"), None];
        for _ in 0..500 {
            let n = rng.random_range(1..40);
            let tokens: Vec<String> = (0..n)
                .map(|_| match rng.random_range(0..4) {
                    0 => format!("<0x{:02X}>", rng.random::<u8>()),
                    _ => {
                        let len = rng.random_range(0..6);
                        crate::fuzz::random_unicode(&mut rng, len)
                    }
                })
                .collect();
            let types = rng.random_bool(0.5).then(|| (0..n).map(|_| rng.random_range(-1..8)).collect());
            let merges = rng.random_bool(0.5).then(|| {
                (0..rng.random_range(0..20))
                    .map(|_| format!("{} {}", tokens[rng.random_range(0..n)], tokens[rng.random_range(0..n)]))
                    .collect()
            });
            let model = models[rng.random_range(0..models.len())];
            check_invariants(&Tokens::from_gguf(model, tokens, types, merges).unwrap());
        }
    }
}
