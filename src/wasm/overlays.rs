//! What the map lays over its points, worked out in plain Rust (`plot::density`,
//! `plot::labels`) for the page: the density grid, which the worker estimates off the main
//! thread, and where each cluster's name goes.

use wasm_bindgen::prelude::*;

use crate::plot::density::estimate;
use crate::plot::labels::{NAME_WORDS, cluster_places};

/// The Gaussian kernel density estimate of the points `coords` (`[x0, y0, x1, y1, …]`) at
/// the nodes of a `columns × rows` grid spanning `[x0, x1] × [y0, y1]`, with a kernel
/// `bandwidth` grid cells wide: `columns × rows` values, row by row from the bottom, for
/// `Chart::set_density`. Fails on a grid beyond 2 to 1,024 a side, an empty range or a
/// bandwidth out of range.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn density_grid(
    coords: &[f32],
    columns: usize,
    rows: usize,
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    bandwidth: f64,
) -> Result<Vec<f32>, JsError> {
    let grid = estimate(coords, columns, rows, (x0, x1), (y0, y1), bandwidth)?;
    Ok(grid.values)
}

/// Where each cluster's name goes on the map of `coords` whose points are in `clusters`
/// (one a point; extra points are ignored): for each cluster with points, in cluster order,
/// 4 + `NAME_WORDS` numbers: the cluster, `x`, `y` (its densest spot, data coordinates), its
/// point count, then its most frequent points' indices (−1 where it has fewer).
#[wasm_bindgen]
pub fn cluster_name_places(coords: &[f32], clusters: &[u16]) -> Vec<f64> {
    let mut out = Vec::new();
    for place in cluster_places(coords, clusters) {
        out.extend([
            f64::from(place.cluster),
            f64::from(place.at.0),
            f64::from(place.at.1),
            place.count as f64,
        ]);
        out.extend((0..NAME_WORDS).map(|i| place.members.get(i).map_or(-1.0, |&m| f64::from(m))));
    }
    out
}
