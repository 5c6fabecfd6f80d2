//! Files: how a text file was read ([`TextInfo`]) and what a vectors file held
//! ([`VectorsInfo`]).

use serde::Serialize;
use tsify::Tsify;

use crate::Embeddings;
use crate::text::{Decoded, Markup, count_holding_whitespace};

/// How a text file was read: its size and encoding, a note for the page when it was not
/// plain UTF-8 (UTF-16, Latin-1, characters replaced) or when only its text was kept, and
/// `markup`, what `Markup::describe` says when the text is XML or HTML.
#[derive(Debug, Clone, Default, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TextInfo {
    pub bytes: usize,
    pub encoding: &'static str,
    pub replaced: usize,
    pub note: Option<String>,
    pub markup: Option<String>,
}

impl TextInfo {
    pub fn new(decoded: &Decoded) -> TextInfo {
        TextInfo {
            bytes: decoded.text.len(),
            encoding: decoded.encoding.name(),
            replaced: decoded.replaced,
            note: decoded.note(),
            markup: Markup::detect(&decoded.text).map(|markup| markup.describe()),
        }
    }

    /// A text the app wrote itself, in UTF-8.
    pub fn plain(bytes: usize) -> TextInfo {
        TextInfo { bytes, encoding: "UTF-8", replaced: 0, note: None, markup: None }
    }

    /// This text with only the text of its markup kept: `kept` bytes of `markup`.
    pub fn stripped(&self, markup: &Markup, kept: usize) -> TextInfo {
        let what =
            format!("only the text of its {} is kept ({} of {} bytes)", markup.kind.name(), kept, self.bytes);
        let note = match &self.note {
            Some(note) => format!("{note}; {what}"),
            None => what,
        };
        TextInfo { bytes: kept, note: Some(note), markup: None, ..self.clone() }
    }
}

/// What a vectors file held.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct VectorsInfo {
    /// e.g. "word2vec text", "GloVe", "embedscope bundle".
    pub format: &'static str,
    pub words: usize,
    pub dim: usize,
    pub bytes: f64,
    /// Whether the file gave word counts (a bundle does).
    pub counts: bool,
    /// The run fingerprint a bundle holds.
    pub fingerprint: Option<String>,
    /// How many words hold whitespace (see `text::count_holding_whitespace`).
    pub tokens_with_whitespace: usize,
}

impl VectorsInfo {
    pub fn new(
        format: &'static str,
        emb: &Embeddings,
        bytes: f64,
        counts: bool,
        fingerprint: Option<String>,
    ) -> VectorsInfo {
        VectorsInfo {
            format,
            words: emb.len(),
            dim: emb.dim(),
            bytes,
            counts,
            fingerprint,
            tokens_with_whitespace: count_holding_whitespace(emb.words()),
        }
    }
}
