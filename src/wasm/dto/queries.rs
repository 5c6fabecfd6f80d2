//! Queries: neighbours and analogies, and where a token came from.

use serde::Serialize;
use tsify::Tsify;

use crate::error::{MessagePart, UnknownWord, unknown_words_message};
use crate::text::Provenance;
use crate::vectors::Neighbour;

/// One answer of a neighbour or analogy query; `rank` is the word's frequency rank (0 = most frequent).
#[derive(Debug, Serialize, Tsify)]
pub struct NeighbourDto {
    pub word: String,
    pub score: f32,
    pub rank: usize,
}

impl From<Neighbour> for NeighbourDto {
    fn from(n: Neighbour) -> Self {
        NeighbourDto { word: n.word, score: n.similarity, rank: n.word_idx }
    }
}

/// Vocabulary words holding a search's text: how many there are, and the most frequent of
/// them with their frequency ranks.
#[derive(Debug, Serialize, Tsify)]
pub struct VocabMatchesDto {
    pub count: usize,
    pub words: Vec<RankedWordDto>,
}

/// A word and its frequency rank (0 = most frequent).
#[derive(Debug, Serialize, Tsify)]
pub struct RankedWordDto {
    pub word: String,
    pub rank: usize,
}

/// A piece of the message of an unknown-words error (`MessagePart` in the core), which the
/// error carries as `parts` beside its `message`: `text`, or with `replaces` a spelling the
/// vocabulary holds for that unknown word, which the page shows as a button that uses it.
#[derive(Debug, Serialize, Tsify)]
#[tsify(missing_as_null)]
pub struct MessagePartDto {
    pub text: String,
    pub replaces: Option<String>,
}

impl MessagePartDto {
    /// The message of `words`, in parts; texts side by side are joined.
    pub fn of_unknown(words: &[UnknownWord]) -> Vec<MessagePartDto> {
        let mut parts: Vec<MessagePartDto> = Vec::new();
        unknown_words_message(words, &mut |part| match (part, parts.last_mut()) {
            (MessagePart::Text(text), Some(MessagePartDto { text: last, replaces: None })) => {
                last.push_str(text)
            }
            (MessagePart::Text(text), _) => {
                parts.push(MessagePartDto { text: text.to_string(), replaces: None })
            }
            (MessagePart::Suggestion { word, replaces }, _) => {
                parts.push(MessagePartDto { text: word.to_string(), replaces: Some(replaces.to_string()) })
            }
        });
        parts
    }
}

/// Both analogy methods' answers.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AnalogyDto {
    pub cos_add: Vec<NeighbourDto>,
    pub cos_mul: Vec<NeighbourDto>,
}

/// Where a token came from: its count and rank in the vocabulary, and for a BPE token the
/// merge that made it and whether it spans a word boundary.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct TokenInfoDto {
    pub token: String,
    pub rank: usize,
    pub count: u64,
    pub merge: Option<MergeDto>,
    pub spans_words: bool,
    pub concordance: Vec<String>,
}

#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct MergeDto {
    pub left: String,
    pub right: String,
    pub rank: usize,
    pub pair_count: u64,
}

impl MergeDto {
    pub fn of(provenance: &Provenance) -> Option<MergeDto> {
        provenance.merge.as_ref().map(|m| MergeDto {
            left: m.left.to_string(),
            right: m.right.to_string(),
            rank: m.rank,
            pair_count: m.pair_count,
        })
    }
}
