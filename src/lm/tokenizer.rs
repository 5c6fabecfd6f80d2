//! The vocabulary of a language model: `tokenizer.json` or a GGUF file's metadata, each
//! token's raw form, the form a person reads, and its kind.

use crate::error::Result;

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

/// A model's tokens by id.
#[derive(Debug, Clone, PartialEq)]
pub struct Tokens {
    raw: Vec<String>,
    kinds: Vec<TokenKind>,
}

impl Tokens {
    /// The vocabulary of a Hugging Face `tokenizer.json`.
    pub fn from_tokenizer_json(bytes: &[u8]) -> Result<Tokens> {
        let _ = bytes;
        todo!("tokenizer.json")
    }

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
        let _ = (model, tokens, types, merges);
        todo!("GGUF tokenizer")
    }

    /// Rows named by their token id, for a matrix without a tokenizer.
    pub fn by_id(rows: usize) -> Tokens {
        Tokens { raw: (0..rows).map(|id| id.to_string()).collect(), kinds: vec![TokenKind::Normal; rows] }
    }

    /// These tokens as the names of a matrix's `rows`: fails, saying why, when the tokenizer
    /// cannot be this matrix's (more tokens than rows); rows past the tokens (the padding
    /// models add to round their vocabulary up) become `Unused`.
    pub fn fit_rows(self, rows: usize) -> Result<Tokens> {
        let _ = rows;
        todo!("fit_rows")
    }

    /// Token `id` as its file writes it (`Ġking`, `▁king`, `<0x0A>`). **Unchecked
    /// precondition:** `id < len()`.
    pub fn raw(&self, id: usize) -> &str {
        &self.raw[id]
    }

    /// Every token as a person reads it, by id, no two alike: byte-level BPE's `Ġ` a space
    /// and `Ċ` a line end, SentencePiece's `▁` a space, `<0x0A>` the byte it names.
    pub fn display_forms(&self) -> Vec<String> {
        todo!("display forms")
    }

    /// The ids in the order the map and the word lists take them, most frequent first as
    /// far as the tokenizer tells (a BPE token by the rank of the merge that made it, else
    /// by id), special and unused tokens last.
    pub fn order(&self) -> Vec<u32> {
        todo!("order")
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
