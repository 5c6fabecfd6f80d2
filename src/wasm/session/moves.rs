//! The step mode's moves on the map: the input rows the last single updates moved, each
//! word's shift from its row before them to its row now, on the map shown (`map::movement`).

use std::collections::HashMap;

use wasm_bindgen::prelude::*;

use super::{Session, to_js};
use crate::map::{NeighbourPlacement, arrow_scale, projected_shift};
use crate::wasm::dto::StepMovesDto;

#[wasm_bindgen]
impl Session {
    /// The input rows the last `step_updates` moved, on the map shown, `method` "pca" (the
    /// last `project` frame: principal components or word axes) or "tsne" / "umap" (the
    /// layout): for each moved word the map shows, its shift from where its row was before
    /// the updates to where it is now, exact through the frame's projection, estimated among
    /// its neighbours on a layout. The shifts come scaled by one round factor that makes them
    /// visible (`StepMovesDto`). Fails when training went on since, or there is no map.
    pub fn step_moves(&mut self, method: &str) -> Result<JsValue, JsError> {
        let after = self.embeddings()?;
        let moved = self.training().and_then(|t| t.moved.as_ref()).ok_or_else(|| {
            JsError::new("no single updates since training last ran: the step mode's moves are gone")
        })?;
        let dim = after.dim();
        let rows = moved.words.iter().map(|&w| w as usize).zip(moved.before.chunks_exact(dim));
        let mut shown = Vec::new();
        let (shifts, extent): (Vec<[f64; 2]>, f64) = match method {
            "pca" => {
                let frame = self.core.frame.as_ref().ok_or_else(|| JsError::new("no map frame yet"))?;
                let at: HashMap<usize, usize> =
                    frame.word_indices().iter().enumerate().map(|(i, &w)| (w, i)).collect();
                let shifts = rows
                    .filter(|(word, _)| at.contains_key(word))
                    .map(|(word, before)| {
                        shown.push(word);
                        projected_shift(frame, before, &after.vector(word))
                    })
                    .collect();
                (shifts, extent(frame.coords()))
            }
            "tsne" | "umap" => {
                let run =
                    self.core.layout.as_ref().ok_or_else(|| JsError::new("no t-SNE or UMAP map yet"))?;
                let coords = run.coords().ok_or_else(|| JsError::new("the map has no coordinates yet"))?;
                let n_words = coords.len() / 2;
                let unit_rows = after.unit_rows(n_words.min(after.len()));
                let placement = NeighbourPlacement::new(&unit_rows, dim, coords);
                let shifts = rows
                    .filter(|(word, _)| *word < n_words)
                    .map(|(word, before)| {
                        shown.push(word);
                        placement.shift(before, &after.vector(word), Some(word))
                    })
                    .collect();
                (shifts, extent(coords))
            }
            other => return Err(JsError::new(&format!("no map method '{other}': 'pca', 'tsne' or 'umap'"))),
        };
        let scale = arrow_scale(&shifts, extent);
        to_js(&StepMovesDto {
            updates: moved.updates,
            off_map: moved.words.len() - shown.len(),
            words: shown.iter().map(|&w| after.word(w).to_string()).collect(),
            shifts: shifts.iter().flat_map(|[x, y]| [x * scale, y * scale]).collect(),
            scale,
            estimated: method != "pca",
        })
    }
}

/// The larger side of the box around `coords` (`[x0, y0, x1, y1, …]`).
fn extent(coords: &[f32]) -> f64 {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for xy in coords.chunks_exact(2) {
        for axis in 0..2 {
            lo[axis] = lo[axis].min(f64::from(xy[axis]));
            hi[axis] = hi[axis].max(f64::from(xy[axis]));
        }
    }
    (hi[0] - lo[0]).max(hi[1] - lo[1])
}
