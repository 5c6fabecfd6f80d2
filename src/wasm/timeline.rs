//! The training timeline across the boundary: the page's frames into a [`Timeline`] for a
//! bundle, a bundle's timeline back to the page, and a word's neighbours through the epochs.
//!
//! The page's shape (`TimelineData` in www/protocol.js) is `{wordLists: string[][], frames:
//! [{words, epoch, epochs, tokensDone, tokensTotal, mapSpec, axisLabels}], coords}`: every
//! frame's coordinates one after another in one `Float32Array` (2 per word of its list), so
//! 250 frames of 10,000 words cross as one buffer, not five million numbers one by one.

use js_sys::{Array, Float32Array, JSON, Object, Reflect};
use serde::{Deserialize, Serialize};
use tsify::Tsify;
use wasm_bindgen::prelude::*;

use crate::Embeddings;
use crate::io::json;
use crate::map::{NeighbourHistory, Timeline, TimelineFrame};

/// A frame's fields other than its map spec and coordinates, as the page sends and receives them.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FrameDto {
    /// Index into `wordLists`.
    words: usize,
    epoch: u32,
    epochs: u32,
    tokens_done: u64,
    tokens_total: u64,
    axis_labels: [String; 2],
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TimelineDto {
    word_lists: Vec<Vec<String>>,
    frames: Vec<FrameDto>,
}

fn get(value: &JsValue, key: &str) -> Result<JsValue, JsError> {
    Reflect::get(value, &key.into()).map_err(|_| JsError::new(&format!("the timeline lacks `{key}`")))
}

/// The page's timeline (see the module documentation) over the words of `emb`, with
/// `neighbours` (the session's per-epoch neighbours) added; None for a timeline of no
/// frames. Fails on a word the vectors lack or coordinates that do not add up.
pub fn from_js(
    value: &JsValue,
    emb: &Embeddings,
    neighbours: Option<&NeighbourHistory>,
) -> Result<Option<Timeline>, JsError> {
    if value.is_null() || value.is_undefined() {
        return Ok(neighbours.map(|h| Timeline { neighbours: Some(h.clone()), ..Timeline::default() }));
    }
    let dto: TimelineDto = serde_wasm_bindgen::from_value(value.clone())
        .map_err(|e| JsError::new(&format!("bad timeline: {e}")))?;
    // Each frame's coordinates are copied out of the page's buffer once, straight into the frame.
    let coords = get(value, "coords")?
        .dyn_into::<Float32Array>()
        .map_err(|_| JsError::new("the timeline's `coords` must be a Float32Array"))?;
    let n_coords = coords.length() as usize;
    let word_lists = (dto.word_lists.iter())
        .map(|list| {
            list.iter()
                .map(|word| emb.try_index_of(word).map(|i| i as u32))
                .collect::<crate::Result<Vec<u32>>>()
                .map_err(|e| JsError::new(&format!("the timeline names a word the vectors lack: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let js_frames = Array::from(&get(value, "frames")?);
    let mut frames = Vec::with_capacity(dto.frames.len());
    let mut offset = 0;
    for (i, meta) in dto.frames.into_iter().enumerate() {
        let n = 2 * word_lists.get(meta.words).map_or(0, Vec::len);
        let end = offset + n;
        if end > n_coords {
            return Err(JsError::new(&format!("the timeline's coordinates end before frame {}", i + 1)));
        }
        let spec_json = JSON::stringify(&get(&js_frames.get(i as u32), "mapSpec")?)
            .map_err(|_| JsError::new("a timeline frame's map spec is not JSON"))?;
        let spec = json::parse(&String::from(spec_json))
            .map_err(|e| JsError::new(&format!("a timeline frame's map spec: {}", e.message)))?;
        frames.push(TimelineFrame {
            epoch: meta.epoch,
            epochs: meta.epochs,
            tokens_done: meta.tokens_done,
            tokens_total: meta.tokens_total,
            map_spec: spec,
            axis_labels: meta.axis_labels,
            word_list: meta.words,
            coords: coords.subarray(offset as u32, end as u32).to_vec(),
        });
        offset = end;
    }
    if frames.is_empty() && neighbours.is_none() {
        return Ok(None);
    }
    Ok(Some(Timeline { word_lists, frames, neighbours: neighbours.cloned() }))
}

/// A bundle's timeline for the page, in the shape `from_js` takes; null without frames.
pub fn to_js(timeline: &Timeline, emb: &Embeddings) -> Result<JsValue, JsError> {
    if timeline.frames.is_empty() {
        return Ok(JsValue::NULL);
    }
    let out = JsValue::from(Object::new());
    let lists: Vec<Vec<&str>> = timeline
        .word_lists
        .iter()
        .map(|list| list.iter().map(|&id| emb.word(id as usize)).collect())
        .collect();
    set(&out, "wordLists", &super::session::to_js(&lists)?)?;
    let frames = Array::new();
    let mut coords = Vec::new();
    for f in &timeline.frames {
        let meta = FrameDto {
            words: f.word_list,
            epoch: f.epoch,
            epochs: f.epochs,
            tokens_done: f.tokens_done,
            tokens_total: f.tokens_total,
            axis_labels: f.axis_labels.clone(),
        };
        let frame = super::session::to_js(&meta)?;
        let spec = JSON::parse(&json::to_json(&f.map_spec))
            .map_err(|_| JsError::new("a timeline map spec is not JSON"))?;
        set(&frame, "mapSpec", &spec)?;
        frames.push(&frame);
        coords.extend_from_slice(&f.coords);
    }
    set(&out, "frames", &frames)?;
    set(&out, "coords", &Float32Array::from(coords.as_slice()))?;
    Ok(out)
}

/// One epoch's neighbours of a word, as the page shows them.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
struct EpochDto {
    epoch: u32,
    tokens_done: u64,
    neighbours: Vec<super::dto::NeighbourDto>,
}

/// `NeighbourHistory` in www/protocol.js: `word`'s neighbours at each epoch kept.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
struct HistoryDto {
    word: String,
    n_words: usize,
    epochs: Vec<EpochDto>,
}

/// `word`'s nearest neighbours at the end of each epoch `history` holds, at most `k` of them;
/// fails, saying which words it keeps, for a word outside them.
pub fn word_history(
    history: &NeighbourHistory,
    emb: &Embeddings,
    word: &str,
    k: usize,
) -> Result<JsValue, JsError> {
    let word_idx = emb.try_index_of(word).map_err(super::session::js_error)?;
    let rows = history.of_word(word_idx).ok_or_else(|| {
        JsError::new(&format!(
            "neighbours through time are kept for the {} most frequent words, and '{word}' is word {}",
            history.n_words(),
            word_idx + 1
        ))
    })?;
    let epochs = rows
        .into_iter()
        .map(|(epoch, tokens_done, pairs)| EpochDto {
            epoch,
            tokens_done,
            neighbours: (pairs.into_iter().take(k))
                .map(|(id, score)| super::dto::NeighbourDto {
                    word: emb.word(id as usize).to_string(),
                    score,
                    rank: id as usize,
                })
                .collect(),
        })
        .collect();
    super::session::to_js(&HistoryDto { word: word.to_string(), n_words: history.n_words(), epochs })
}

fn set(target: &JsValue, key: &str, value: &JsValue) -> Result<(), JsError> {
    Reflect::set(target, &key.into(), value)
        .map(|_| ())
        .map_err(|_| JsError::new("cannot build the timeline object"))
}
