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
