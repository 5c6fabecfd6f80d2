//! The matrix: a band of the embedding matrix's rows and columns, for the page's Matrix card.

use serde::Serialize;
use tsify::Tsify;

/// A band of the matrix of the vectors queried: rows `firstRow..firstRow + rows` (the
/// vocabulary's order, most frequent first) and columns `firstCol..firstCol + cols`, cut at
/// the matrix's edges, with the words of those rows. The values travel beside it as a
/// `Float32Array` (`values`, row-major, `rows × cols`), which the worker can transfer, and,
/// when `output` is "trained", the same cells of the output (context) matrix beside them
/// (`outputValues`).
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct MatrixBandDto {
    pub first_row: usize,
    pub rows: usize,
    pub first_col: usize,
    pub cols: usize,
    /// The whole matrix: its rows (the vocabulary) and columns (the dimension).
    pub total_rows: usize,
    pub dim: usize,
    /// The words of the band's rows, in order.
    pub words: Vec<String>,
    /// The band's smallest and largest value (both 0 for an empty band).
    pub min: f32,
    pub max: f32,
    /// Whether the output matrix is there: "trained" (a text's trainer holds it, and
    /// `outputValues` its band), "opened" (a vectors file holds the input matrix only) or
    /// "model" (a language model's token embeddings; its output matrix is not read).
    #[tsify(type = "\"trained\" | \"opened\" | \"model\"")]
    pub output: &'static str,
}
