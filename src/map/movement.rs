//! How rows that training moved show on the map: each moved word's shift, from where its row
//! before the move would sit to where its row after it sits, drawn as a short arrow.
//!
//! On a linear map (principal components, word axes) both rows go through the frame's own
//! projection ([`Projection::place_vector`]), so the shift is exact.
//!
//! A t-SNE or UMAP map has no projection: both rows are placed the same way, as openTSNE's
//! `prepare_partial(initialization="weighted")` places a new point, at the mean of the map
//! positions of its nearest words weighted by Gaussian affinities of a small perplexity
//! ([`ESTIMATE_PERPLEXITY`], on the cosine distance the layouts use). The neighbours and
//! the Gaussian's width are chosen once, from the row after the move, and both rows are
//! weighed against them: the difference of the two places is then the move's alone, not a
//! jump from one set of neighbours to another. It is an estimate of where a layout would put
//! the word, and the page says so.

use super::Projection;
use super::layout::conditional_row;
use crate::linalg;

/// The perplexity of the affinities that place a row among its neighbours (openTSNE's
/// default for new points).
pub const ESTIMATE_PERPLEXITY: f64 = 5.0;

/// The nearest words a row is placed among: three times the perplexity, as t-SNE's graph.
pub const ESTIMATE_NEIGHBOURS: usize = 15;

/// The share of the map's extent the median shift is drawn at, before rounding the factor
/// down to 1, 2 or 5 times a power of ten.
const MEDIAN_SHARE: f64 = 0.06;

/// The shift of a row moved from `before` to `after` on a linear map: `after` placed by
/// `frame` minus `before` placed by it.
///
/// **Unchecked precondition:** both rows have the dimension of the vectors `frame` was fitted on.
pub fn projected_shift(frame: &Projection, before: &[f32], after: &[f32]) -> [f64; 2] {
    let (b, a) = (frame.place_vector(before), frame.place_vector(after));
    [f64::from(a[0]) - f64::from(b[0]), f64::from(a[1]) - f64::from(b[1])]
}

/// Rows placed on a map that has no projection, among the words it laid out.
pub struct NeighbourPlacement<'a> {
    /// The laid-out words' unit vectors, row after row, and their dimension.
    unit_rows: &'a [f32],
    dim: usize,
    /// Their map positions, `[x0, y0, x1, y1, …]`.
    coords: &'a [f32],
}

impl<'a> NeighbourPlacement<'a> {
    /// **Unchecked precondition:** `dim > 0` and `unit_rows` holds `coords.len() / 2` rows of `dim`.
    pub fn new(unit_rows: &'a [f32], dim: usize, coords: &'a [f32]) -> NeighbourPlacement<'a> {
        NeighbourPlacement { unit_rows, dim, coords }
    }

    /// The shift on the map of a row moved from `before` to `after`: both placed among the
    /// nearest words of `after` (leaving out the laid-out word `skip`, the moved word itself),
    /// with the width its affinities have there. `[0, 0]` when no other word is laid out.
    pub fn shift(&self, before: &[f32], after: &[f32], skip: Option<usize>) -> [f64; 2] {
        let (before, after) = (unit(before), unit(after));
        let neighbours = self.nearest(&after, skip);
        if neighbours.is_empty() {
            return [0.0, 0.0];
        }
        let squared = |row: &[f32]| -> Vec<f64> {
            neighbours.iter().map(|&j| f64::from(self.distance(row, j)).powi(2)).collect()
        };
        let after_squared = squared(&after);
        let mut weights = vec![0.0; neighbours.len()];
        let beta = conditional_row(&after_squared, ESTIMATE_PERPLEXITY.ln(), &mut weights);
        // Both rows weighed by the same rule, at that width.
        gaussian_weights(&after_squared, beta, &mut weights);
        let place_after = self.mean(&neighbours, &weights);
        gaussian_weights(&squared(&before), beta, &mut weights);
        let place_before = self.mean(&neighbours, &weights);
        [place_after[0] - place_before[0], place_after[1] - place_before[1]]
    }

    /// The laid-out words nearest to the unit vector `row` by cosine, `skip` left out, at
    /// most [`ESTIMATE_NEIGHBOURS`], nearest first (ties to the more frequent word).
    fn nearest(&self, row: &[f32], skip: Option<usize>) -> Vec<usize> {
        let mut scored: Vec<(f32, usize)> = (0..self.coords.len() / 2)
            .filter(|&j| Some(j) != skip)
            .map(|j| (self.distance(row, j), j))
            .collect();
        let k = ESTIMATE_NEIGHBOURS.min(scored.len());
        let by_distance = |a: &(f32, usize), b: &(f32, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if k < scored.len() {
            scored.select_nth_unstable_by(k, by_distance);
            scored.truncate(k);
        }
        scored.sort_unstable_by(by_distance);
        scored.into_iter().map(|(_, j)| j).collect()
    }

    /// The cosine distance `1 − u·v` of the unit vector `row` to laid-out word `j`.
    fn distance(&self, row: &[f32], j: usize) -> f32 {
        1.0 - linalg::dot(row, &self.unit_rows[j * self.dim..(j + 1) * self.dim])
    }

    /// The map positions of `neighbours` averaged with `weights` (summing to 1).
    fn mean(&self, neighbours: &[usize], weights: &[f64]) -> [f64; 2] {
        let mut place = [0.0; 2];
        for (&j, &w) in neighbours.iter().zip(weights) {
            place[0] += w * f64::from(self.coords[2 * j]);
            place[1] += w * f64::from(self.coords[2 * j + 1]);
        }
        place
    }
}

/// `exp(−β d²)` for each squared distance, normalised to sum to 1 (shifted by the smallest,
/// which changes no weight and keeps `exp` from underflowing).
fn gaussian_weights(squared: &[f64], beta: f64, weights: &mut [f64]) {
    let nearest = squared.iter().copied().fold(f64::INFINITY, f64::min);
    for (w, &d) in weights.iter_mut().zip(squared) {
        *w = (-beta * (d - nearest)).exp();
    }
    let sum: f64 = weights.iter().sum();
    weights.iter_mut().for_each(|w| *w /= sum);
}

fn unit(row: &[f32]) -> Vec<f32> {
    let mut unit = row.to_vec();
    linalg::normalize(&mut unit);
    unit
}

/// The factor the shifts are drawn at on a map `extent` wide (its larger side, in data
/// units): the median shift drawn at [`MEDIAN_SHARE`] of it, the factor rounded down to 1, 2
/// or 5 times a power of ten so a person can read it, and never below 1 (a move is never
/// drawn shorter than it is). 1 when nothing moved.
pub fn arrow_scale(shifts: &[[f64; 2]], extent: f64) -> f64 {
    let mut lengths: Vec<f64> =
        shifts.iter().map(|[x, y]| x.hypot(*y)).filter(|l| l.is_finite() && *l > 0.0).collect();
    if lengths.is_empty() || !(extent.is_finite() && extent > 0.0) {
        return 1.0;
    }
    lengths.sort_unstable_by(f64::total_cmp);
    let median = lengths[lengths.len() / 2];
    let wanted = MEDIAN_SHARE * extent / median;
    if wanted <= 1.0 {
        return 1.0;
    }
    let power = 10f64.powf(wanted.log10().floor());
    let step = [5.0, 2.0, 1.0].into_iter().find(|m| m * power <= wanted).unwrap_or(1.0);
    step * power
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::MapSpec;
    use crate::vectors::Embeddings;

    /// Six words in three dimensions, spread so PCA has two clear components.
    fn embeddings() -> Embeddings {
        let rows = [
            [3.0, 0.1, 0.0],
            [-2.5, 0.3, 0.2],
            [0.4, 2.0, -0.1],
            [0.2, -1.8, 0.3],
            [1.5, 1.1, 0.05],
            [-1.2, -0.9, -0.2],
        ];
        let words = (0..rows.len()).map(|i| format!("w{i}")).collect();
        Embeddings::new(words, 3, rows.concat()).unwrap()
    }

    #[test]
    fn a_linear_map_places_a_row_where_its_frame_puts_it_and_shifts_linearly() {
        let emb = embeddings();
        let frame = Projection::fit(&emb, &MapSpec::components(6, 0, 1), None).unwrap();
        for i in 0..emb.len() {
            assert_eq!(frame.place_vector(&emb.vector(i)), frame.place(&emb, i), "word {i}");
        }
        // A shift of a row is the frame's linear map of the move: twice the move, twice the shift.
        let before = emb.vector(4).to_vec();
        let moved =
            |by: f32| -> Vec<f32> { before.iter().zip([0.3, -0.2, 0.1]).map(|(v, d)| v + by * d).collect() };
        let once = projected_shift(&frame, &before, &moved(1.0));
        let twice = projected_shift(&frame, &before, &moved(2.0));
        assert!(once[0].hypot(once[1]) > 0.01, "{once:?}");
        for axis in 0..2 {
            assert!((twice[axis] - 2.0 * once[axis]).abs() < 1e-5, "{once:?} {twice:?}");
        }
        assert_eq!(projected_shift(&frame, &before, &before), [0.0, 0.0]);
    }

    #[test]
    fn a_word_axis_map_shifts_a_row_along_its_direction() {
        let emb = embeddings();
        let spec =
            MapSpec { x: crate::map::Axis::Words("w1".into(), "w0".into()), ..MapSpec::components(6, 0, 1) };
        let frame = Projection::fit(&emb, &spec, None).unwrap();
        for i in 0..emb.len() {
            let (p, q) = (frame.place_vector(&emb.vector(i)), frame.place(&emb, i));
            assert!((p[0] - q[0]).abs() < 1e-6 && (p[1] - q[1]).abs() < 1e-6, "word {i}: {p:?} {q:?}");
        }
        // Moving w5 toward w0's row moves it toward w0's end of the axis.
        let (before, toward) = (emb.vector(5).to_vec(), emb.vector(0).to_vec());
        let after: Vec<f32> = before.iter().zip(&toward).map(|(b, t)| b + 0.2 * (t - b)).collect();
        assert!(projected_shift(&frame, &before, &after)[0] > 0.0);
    }

    /// Unit rows on a circle in the plane of the first two dimensions, laid out at their
    /// angle on a line: a map that keeps their order.
    fn circle(n: usize) -> (Vec<f32>, Vec<f32>) {
        let mut rows = Vec::new();
        let mut coords = Vec::new();
        for i in 0..n {
            let angle = i as f32 * 0.2;
            rows.extend([angle.cos(), angle.sin(), 0.0]);
            coords.extend([i as f32, 0.5 * i as f32]);
        }
        (rows, coords)
    }

    #[test]
    fn the_neighbour_estimate_moves_toward_a_row_it_is_moved_toward() {
        let (rows, coords) = circle(24);
        let map = NeighbourPlacement::new(&rows, 3, &coords);
        let row = |i: usize| rows[3 * i..3 * i + 3].to_vec();
        // Word 10 moved a little toward word 14, then toward word 6: its place moves up the
        // line, then down it, and more for a larger move.
        let toward = |target: usize, by: f32| -> Vec<f32> {
            row(10).iter().zip(row(target)).map(|(b, t)| b + by * (t - b)).collect()
        };
        let up = map.shift(&row(10), &toward(14, 0.05), Some(10));
        let down = map.shift(&row(10), &toward(6, 0.05), Some(10));
        let further = map.shift(&row(10), &toward(14, 0.1), Some(10));
        assert!(up[0] > 0.0 && up[1] > 0.0, "{up:?}");
        assert!(down[0] < 0.0 && down[1] < 0.0, "{down:?}");
        assert!(further[0] > up[0], "{up:?} {further:?}");
        // Unmoved, it does not move; the scale of a row does not move it either (cosine).
        assert_eq!(map.shift(&row(10), &row(10), Some(10)), [0.0, 0.0]);
        let doubled: Vec<f32> = row(10).iter().map(|v| 2.0 * v).collect();
        assert_eq!(map.shift(&row(10), &doubled, Some(10)), [0.0, 0.0]);
    }

    #[test]
    fn the_neighbour_estimate_leaves_the_word_out_and_needs_another() {
        let (rows, coords) = circle(2);
        let map = NeighbourPlacement::new(&rows, 3, &coords);
        let before = rows[0..3].to_vec();
        let after = [0.9, 0.3, 0.0];
        // Word 0 alone among the others: its only neighbour is word 1, placed wherever it moves.
        assert_eq!(map.shift(&before, &after, Some(0)), [0.0, 0.0]);
        let alone = NeighbourPlacement::new(&rows[0..3], 3, &coords[0..2]);
        assert_eq!(alone.shift(&before, &after, Some(0)), [0.0, 0.0]);
    }

    #[test]
    fn the_arrow_scale_is_a_round_factor_drawing_the_median_shift_at_a_share_of_the_map() {
        let check = |shifts: &[[f64; 2]], extent: f64, expected: f64| {
            assert_eq!(arrow_scale(shifts, extent), expected, "{shifts:?} on {extent}");
        };
        // Median 0.001 on a map 10 wide: 0.6 / 0.001 = 600, rounded down to 500.
        check(&[[0.001, 0.0], [0.0, 0.0005], [0.003, 0.004]], 10.0, 500.0);
        check(&[[0.0001, 0.0]], 10.0, 5000.0);
        check(&[[0.0004, 0.0]], 1.0, 100.0);
        check(&[[0.0, 0.0004], [0.0, 0.0003], [0.0002, 0.0]], 1.0, 200.0);
        // Moves as large as the map, or none, are drawn as they are.
        check(&[[5.0, 0.0]], 10.0, 1.0);
        check(&[[0.0, 0.0]], 10.0, 1.0);
        check(&[], 10.0, 1.0);
    }
}
