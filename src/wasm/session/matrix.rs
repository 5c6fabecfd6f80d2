//! The matrix itself: a band of rows × dimensions of the vectors queried, for the page's
//! Matrix card, which draws it as a heatmap.

use js_sys::Float32Array;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{Opened, Session, Source, js_error, no_text, set};
use crate::wasm::dto::MatrixBandDto;

/// The most values one band holds (16 MB of `f32`): the page asks for a few thousand; a
/// request beyond this is a mistake, refused rather than allowed to exhaust memory.
const MAX_BAND_VALUES: usize = 1 << 22;

#[wasm_bindgen]
impl Session {
    /// A band of the matrix of the vectors queried (those opened, or those trained so far):
    /// `rows` rows from `first_row` (0-based, in the vocabulary's order, most frequent first)
    /// and `cols` columns from `first_col`, cut at the matrix's edges (`MatrixBandDto`, with
    /// `values`, a `Float32Array` of the band row by row). A band that starts beyond an edge
    /// is empty there. A text's trainer also gives the same cells of its output matrix
    /// (`outputValues`; `output` says why there are none). Fails before there are vectors,
    /// and for a band of more than `MAX_BAND_VALUES` values.
    pub fn matrix_band(
        &mut self,
        first_row: usize,
        rows: usize,
        first_col: usize,
        cols: usize,
    ) -> Result<JsValue, JsError> {
        let emb = self.embeddings()?;
        let (total_rows, dim) = (emb.len(), emb.dim());
        let first_row = first_row.min(total_rows);
        let rows = rows.min(total_rows - first_row);
        let first_col = first_col.min(dim);
        let cols = cols.min(dim - first_col);
        if rows.saturating_mul(cols) > MAX_BAND_VALUES {
            return Err(JsError::new(&format!(
                "a band of {rows} rows × {cols} columns is more than the {MAX_BAND_VALUES} values the Matrix card draws"
            )));
        }
        let mut values = Vec::with_capacity(rows * cols);
        for row in first_row..first_row + rows {
            let vector = emb.vector(row);
            values.extend_from_slice(&vector[first_col..first_col + cols]);
        }
        // The input band is the snapshot queries read; the output rows are read from the
        // trainer itself, which has not moved since the snapshot (both on this thread).
        let (output, output_values) = match self.core.source() {
            Source::Opened(Opened { model: Some(_), .. }) => ("model", None),
            Source::Opened(_) => ("opened", None),
            Source::Text(run) => {
                let trainer = &run.training.as_ref().ok_or_else(no_text)?.trainer;
                let rows_out = trainer.output_rows();
                let mut band = Vec::with_capacity(rows * cols);
                for row in first_row..first_row + rows {
                    band.extend_from_slice(&rows_out[row * dim + first_col..row * dim + first_col + cols]);
                }
                ("trained", Some(band))
            }
        };
        let (min, max) = match values.first() {
            Some(&first) => values.iter().fold((first, first), |(lo, hi), &v| (lo.min(v), hi.max(v))),
            None => (0.0, 0.0),
        };
        let band = MatrixBandDto {
            first_row,
            rows,
            first_col,
            cols,
            total_rows,
            dim,
            words: (first_row..first_row + rows).map(|row| emb.word(row).to_string()).collect(),
            min,
            max,
            output,
        };
        let out = band
            .serialize(&serde_wasm_bindgen::Serializer::new())
            .map_err(|e| JsError::new(&e.to_string()))?;
        set(&out, "values", &Float32Array::from(values.as_slice()))?;
        if let Some(output_values) = output_values {
            set(&out, "outputValues", &Float32Array::from(output_values.as_slice()))?;
        }
        Ok(out)
    }

    /// The row of `word` in the matrix (0-based, the vocabulary's order), for the Matrix
    /// card's search. Fails for a word the vectors lack, with the spellings they hold.
    pub fn matrix_row(&mut self, word: &str) -> Result<usize, JsError> {
        self.embeddings()?.try_index_of(word).map_err(js_error)
    }
}
