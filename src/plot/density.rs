//! Where the points crowd: a kernel density estimate on a grid over the view, its contour
//! levels and lines, and the shading between them, so 250,000 points read as regions rather
//! than a grey blot.
//!
//! - [`estimate`]: a Gaussian kernel density estimate at the nodes of a grid. Each point's
//!   weight is shared among the four nodes around it (linear binning), then the grid is
//!   blurred by a Gaussian in two passes, one an axis: O(points + nodes × kernel) instead of
//!   O(points × nodes), the usual way of Wand (1994) and of KernSmooth, seaborn and
//!   ggplot2's `density_2d`. The kernel is round on screen: its width is given in grid
//!   cells, which the page makes square in pixels.
//! - [`DensityField`]: the grid with its contour levels, each the density above which a
//!   share of the points lies (the highest density regions of Hyndman (1996): the innermost
//!   line holds the densest fifth of the points, whatever the map's scale), and each level's
//!   contour lines by marching squares.
//! - [`paint_field`], [`stroke_segments`]: the shading and the lines written into an RGBA
//!   buffer (the map's raster); [`level_cells`]: each level's region as polygons, for SVG.
//!
//! Grid coordinates: node `(i, j)` is column `i` from the grid's left edge and row `j` from
//! its bottom (data y grows upwards); values are row by row from the bottom.
//!
//! Written here rather than taken from a crate: the crates that estimate densities
//! (`kernel_density`, `kdtree`-based ones) sum over points at each query, and the contour
//! crates (`contour`, `isoline`) bring geo types for what is forty lines of marching squares.

use crate::error::Error;

use super::geometry::{Px, Rect};
use super::scene::Paint;

/// The most columns or rows a density grid may have; the page's copy (`www/map/density.js`)
/// is checked against it (`tests/shared_constants.rs`).
pub const MAX_GRID: usize = 1024;

/// A grid of density values over a data rectangle.
#[derive(Clone, Debug, PartialEq)]
pub struct DensityGrid {
    pub columns: usize,
    pub rows: usize,
    /// The data range the nodes span: node column 0 is at `x.0`, column `columns - 1` at `x.1`.
    pub x: (f64, f64),
    pub y: (f64, f64),
    /// `rows × columns` values, row by row from the bottom: points per unit of data area.
    pub values: Vec<f32>,
}

impl DensityGrid {
    /// Checks a grid of `values` as the page hands it back to be drawn.
    pub fn new(
        columns: usize,
        rows: usize,
        x: (f64, f64),
        y: (f64, f64),
        values: Vec<f32>,
    ) -> Result<Self, Error> {
        check_grid(columns, rows, x, y)?;
        if values.len() != columns * rows || values.iter().any(|v| !v.is_finite()) {
            return Err(invalid(
                "density",
                format!("{} values", values.len()),
                format!("{columns} × {rows} finite values"),
            ));
        }
        Ok(DensityGrid { columns, rows, x, y, values })
    }

    fn at(&self, i: usize, j: usize) -> f32 {
        self.values[j * self.columns + i]
    }
}

fn invalid(name: &'static str, value: String, expected: String) -> Error {
    Error::InvalidParameter { name, value, expected }
}

fn check_grid(columns: usize, rows: usize, x: (f64, f64), y: (f64, f64)) -> Result<(), Error> {
    let size = 2..=MAX_GRID;
    if !size.contains(&columns) || !size.contains(&rows) {
        return Err(invalid(
            "density grid",
            format!("{columns} × {rows}"),
            format!("2 to {MAX_GRID} a side"),
        ));
    }
    let range = |(lo, hi): (f64, f64)| lo.is_finite() && hi.is_finite() && lo < hi;
    if !range(x) || !range(y) {
        return Err(invalid(
            "density range",
            format!("{x:?}, {y:?}"),
            "finite min < max on each axis".into(),
        ));
    }
    Ok(())
}

/// The Gaussian kernel density estimate of the points `coords` (flat `[x0, y0, …]`) at the
/// nodes of a `columns × rows` grid spanning `x` and `y`, with a kernel `bandwidth` grid
/// cells wide (its standard deviation on each axis): the density at a node is
/// `Σ_p K((node − p) / σ) / (σx σy)`, `K` the standard normal in two dimensions, in points per
/// unit of data area. Points beyond the grid are left out (the page asks for a grid wider
/// than the view, so none near the view is), as are non-finite ones.
///
/// Fails on a grid beyond 2 to [`MAX_GRID`] a side, an empty or non-finite range, or a
/// bandwidth that is not a positive number of cells up to a quarter of the grid.
pub fn estimate(
    coords: &[f32],
    columns: usize,
    rows: usize,
    x: (f64, f64),
    y: (f64, f64),
    bandwidth: f64,
) -> Result<DensityGrid, Error> {
    check_grid(columns, rows, x, y)?;
    if !(bandwidth > 0.0 && bandwidth <= columns.min(rows) as f64 / 4.0) {
        return Err(invalid("density bandwidth", bandwidth.to_string(), "a positive number of cells".into()));
    }
    let (dx, dy) = ((x.1 - x.0) / (columns - 1) as f64, (y.1 - y.0) / (rows - 1) as f64);
    // Linear binning: each point's unit weight shared among its cell's four corners.
    let mut binned = vec![0f64; columns * rows];
    for xy in coords.chunks_exact(2) {
        let (gx, gy) = ((f64::from(xy[0]) - x.0) / dx, (f64::from(xy[1]) - y.0) / dy);
        // NaN fails both comparisons.
        if !(gx >= 0.0 && gy >= 0.0 && gx <= (columns - 1) as f64 && gy <= (rows - 1) as f64) {
            continue;
        }
        let (i, j) = ((gx as usize).min(columns - 2), (gy as usize).min(rows - 2));
        let (fx, fy) = (gx - i as f64, gy - j as f64);
        let at = j * columns + i;
        binned[at] += (1.0 - fx) * (1.0 - fy);
        binned[at + 1] += fx * (1.0 - fy);
        binned[at + columns] += (1.0 - fx) * fy;
        binned[at + columns + 1] += fx * fy;
    }
    // The kernel in cells, to four standard deviations (it then misses 6e-5 of its weight
    // on each axis).
    let reach = (4.0 * bandwidth).ceil() as usize;
    let kernel: Vec<f64> = (0..=reach)
        .map(|d| (-0.5 * (d as f64 / bandwidth).powi(2)).exp() / (bandwidth * (std::f64::consts::TAU).sqrt()))
        .collect();
    let blur = |from: &[f64], to: &mut [f64], n: usize, stride: usize, lines: usize, line_stride: usize| {
        for line in 0..lines {
            let base = line * line_stride;
            for k in 0..n {
                let lo = k.saturating_sub(reach);
                let hi = (k + reach).min(n - 1);
                to[base + k * stride] =
                    (lo..=hi).map(|m| from[base + m * stride] * kernel[m.abs_diff(k)]).sum::<f64>();
            }
        }
    };
    let mut across = vec![0f64; columns * rows];
    blur(&binned, &mut across, columns, 1, rows, columns);
    blur(&across, &mut binned, rows, columns, columns, 1);
    // The kernel above is per cell; per unit of data area it is divided by a cell's area.
    let cell = dx * dy;
    let values = binned.iter().map(|v| (v / cell) as f32).collect();
    Ok(DensityGrid { columns, rows, x, y, values })
}

/// The shares of the points inside each contour line, outermost first.
pub const LEVEL_SHARES: [f64; 5] = [0.9, 0.7, 0.5, 0.3, 0.15];

/// A density grid ready to draw: its contour levels (ascending) and each level's contour
/// segments in grid coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct DensityField {
    pub grid: DensityGrid,
    pub levels: Vec<f32>,
    pub contours: Vec<Vec<[(f32, f32); 2]>>,
}

impl DensityField {
    /// The field of `grid`, at the levels holding [`LEVEL_SHARES`] of its mass (levels that
    /// coincide, on a flat grid, are kept once).
    pub fn new(grid: DensityGrid) -> DensityField {
        let levels = mass_levels(&grid.values, &LEVEL_SHARES);
        let contours = levels.iter().map(|&level| contour_segments(&grid, level)).collect();
        DensityField { grid, levels, contours }
    }
}

/// For each share `q`, the value above which the cells of `values` hold `q` of their sum:
/// the largest `t` with `Σ_{v ≥ t} v ≥ q Σ v`. Ascending, without repeats or zeros.
pub fn mass_levels(values: &[f32], shares: &[f64]) -> Vec<f32> {
    let mut sorted: Vec<f32> = values.iter().copied().filter(|v| *v > 0.0).collect();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let total: f64 = sorted.iter().map(|&v| f64::from(v)).sum();
    let mut levels: Vec<f32> = Vec::new();
    if total <= 0.0 {
        return levels;
    }
    for &q in shares {
        let mut sum = 0.0;
        let level = sorted
            .iter()
            .find(|&&v| {
                sum += f64::from(v);
                sum >= q * total
            })
            .copied()
            .unwrap_or(sorted[sorted.len() - 1]);
        levels.push(level);
    }
    levels.sort_by(f32::total_cmp);
    levels.dedup();
    levels
}

/// The contour line of `grid` at `level` as segments in grid coordinates (marching squares):
/// in each cell, where the line crosses an edge is interpolated linearly between its
/// corners; a saddle cell is split by the value at its centre (the mean of its corners).
pub fn contour_segments(grid: &DensityGrid, level: f32) -> Vec<[(f32, f32); 2]> {
    let mut segments = Vec::new();
    for j in 0..grid.rows - 1 {
        for i in 0..grid.columns - 1 {
            // Corners counter-clockwise from the bottom left: (i, j), (i+1, j), (i+1, j+1), (i, j+1).
            let v = [grid.at(i, j), grid.at(i + 1, j), grid.at(i + 1, j + 1), grid.at(i, j + 1)];
            let case = v.iter().enumerate().fold(0, |c, (k, &value)| c | (usize::from(value >= level) << k));
            if case == 0 || case == 15 {
                continue;
            }
            let (x, y) = (i as f32, j as f32);
            // Where the line crosses edge e, which joins corner e to corner e + 1.
            let cross = |e: usize| {
                let (a, b) = (v[e], v[(e + 1) % 4]);
                let t = if a == b { 0.5 } else { ((level - a) / (b - a)).clamp(0.0, 1.0) };
                match e {
                    0 => (x + t, y),
                    1 => (x + 1.0, y + t),
                    2 => (x + 1.0 - t, y + 1.0),
                    _ => (x, y + 1.0 - t),
                }
            };
            // The edges whose corners fall on either side of the level, in order round the cell.
            let mut crossed = [0; 4];
            let mut n_crossed = 0;
            for e in 0..4 {
                if (case >> e & 1) != (case >> ((e + 1) % 4) & 1) {
                    crossed[n_crossed] = e;
                    n_crossed += 1;
                }
            }
            if n_crossed == 2 {
                segments.push([cross(crossed[0]), cross(crossed[1])]);
            } else {
                // A saddle: corners 0 and 2 on one side, 1 and 3 on the other. When the
                // centre is on corner 0's side, those corners join across it, and the lines
                // cut off corners 1 and 3; else they cut off corners 0 and 2.
                let centre = (v.iter().sum::<f32>() / 4.0 >= level) == (v[0] >= level);
                if centre {
                    segments.push([cross(0), cross(1)]);
                    segments.push([cross(2), cross(3)]);
                } else {
                    segments.push([cross(3), cross(0)]);
                    segments.push([cross(1), cross(2)]);
                }
            }
        }
    }
    segments
}

/// The region of `grid` at or above `level` as polygons in grid coordinates: each cell's
/// part at or above the level (its corners there, and where its edges cross the level), a
/// run of whole cells in a row as one rectangle. Filled together (one SVG path), they make
/// the region without seams.
pub fn level_cells(grid: &DensityGrid, level: f32) -> Vec<Vec<(f32, f32)>> {
    let mut polygons = Vec::new();
    for j in 0..grid.rows - 1 {
        let mut run: Option<usize> = None;
        for i in 0..grid.columns {
            let whole = i < grid.columns - 1
                && [grid.at(i, j), grid.at(i + 1, j), grid.at(i + 1, j + 1), grid.at(i, j + 1)]
                    .iter()
                    .all(|&v| v >= level);
            if whole {
                run.get_or_insert(i);
                continue;
            }
            if let Some(start) = run.take() {
                let (x0, x1, y0, y1) = (start as f32, i as f32, j as f32, j as f32 + 1.0);
                polygons.push(vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1)]);
            }
            if i == grid.columns - 1 {
                continue;
            }
            let corners = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)];
            let mut polygon = Vec::new();
            for k in 0..4 {
                let (a, b) = (corners[k], corners[(k + 1) % 4]);
                let (va, vb) = (grid.at(a.0, a.1), grid.at(b.0, b.1));
                let point = |(c, r): (usize, usize)| (c as f32, r as f32);
                if va >= level {
                    polygon.push(point(a));
                }
                if (va >= level) != (vb >= level) {
                    let t = (level - va) / (vb - va);
                    let (pa, pb) = (point(a), point(b));
                    polygon.push((pa.0 + t * (pb.0 - pa.0), pa.1 + t * (pb.1 - pa.1)));
                }
            }
            if polygon.len() >= 3 {
                polygons.push(polygon);
            }
        }
    }
    polygons
}

/// Where a density grid lies on the drawing: node `(i, j)` at
/// `(origin.0 + i × step.0, origin.1 + j × step.1)` pixels (`step.1` is negative: rows go up).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridPlacement {
    pub origin: Px,
    pub step: (f64, f64),
}

impl GridPlacement {
    /// The pixel position of grid coordinates `(gx, gy)`.
    pub fn to_pixel(self, (gx, gy): (f32, f32)) -> Px {
        (self.origin.0 + f64::from(gx) * self.step.0, self.origin.1 + f64::from(gy) * self.step.1)
    }
}

/// Blends `colour` over an opaque pixel with opacity `a` in 0–256.
fn blend(pixel: &mut [u8], (r, g, b): (u8, u8, u8), a: u32) {
    let mix = |under: u8, over: u8| ((u32::from(under) * (256 - a) + u32::from(over) * a) >> 8) as u8;
    pixel[0] = mix(pixel[0], r);
    pixel[1] = mix(pixel[1], g);
    pixel[2] = mix(pixel[2], b);
}

/// Shades `field` into the opaque RGBA image `bytes` (`width` pixels a row) inside `clip`:
/// each pixel takes the band of its density (interpolated bilinearly between the nodes),
/// the region between one level and the next, and is blended with `bands[band]`, the
/// region below the lowest level left as it is. `bands` has a paint a level.
///
/// It runs on every redraw while the layer is on, so where each pixel column falls in the
/// grid is worked out once a call, not once a pixel.
pub fn paint_field(
    bytes: &mut [u8],
    width: usize,
    field: &DensityField,
    place: GridPlacement,
    bands: &[Paint],
    clip: &Rect,
) {
    let grid = &field.grid;
    if width == 0 || field.levels.is_empty() || bands.is_empty() {
        return;
    }
    let height = bytes.len() / 4 / width;
    let (left, right, top, bottom) = clip_pixels(clip, width, height);
    let alphas: Vec<u32> = bands.iter().map(|p| (p.alpha.clamp(0.0, 1.0) * 256.0) as u32).collect();
    let (max_i, max_j) = ((grid.columns - 1) as f64, (grid.rows - 1) as f64);
    // Each pixel column's cell and its share of the way across it; None off the grid.
    let columns: Vec<Option<(usize, f32)>> = (left..right)
        .map(|px| {
            let gx = (px as f64 + 0.5 - place.origin.0) / place.step.0;
            (gx >= 0.0 && gx <= max_i).then(|| {
                let i = (gx as usize).min(grid.columns - 2);
                (i, (gx - i as f64) as f32)
            })
        })
        .collect();
    let last = field.levels.len().min(bands.len());
    let levels = &field.levels[..last];
    for py in top..bottom {
        let gy = (py as f64 + 0.5 - place.origin.1) / place.step.1;
        if !(gy >= 0.0 && gy <= max_j) {
            continue;
        }
        let j = (gy as usize).min(grid.rows - 2);
        let fy = (gy - j as f64) as f32;
        let below = &grid.values[j * grid.columns..(j + 1) * grid.columns];
        let above = &grid.values[(j + 1) * grid.columns..(j + 2) * grid.columns];
        let row = &mut bytes[4 * (py * width + left)..4 * (py * width + right)];
        for (pixel, column) in row.chunks_exact_mut(4).zip(&columns) {
            let Some((i, fx)) = *column else { continue };
            let low = below[i] + (below[i + 1] - below[i]) * fx;
            let high = above[i] + (above[i + 1] - above[i]) * fx;
            let value = low + (high - low) * fy;
            if value < levels[0] {
                continue;
            }
            let band = levels.iter().take_while(|&&level| value >= level).count();
            blend(pixel, bands[band - 1].rgb, alphas[band - 1]);
        }
    }
}

/// `clip` as whole pixel columns `left..right` and rows `top..bottom` of an image.
fn clip_pixels(clip: &Rect, width: usize, height: usize) -> (usize, usize, usize, usize) {
    let edge = |v: f64, n: usize| (v.max(0.0) as usize).min(n);
    let (left, right) = (edge(clip.left.ceil(), width), edge(clip.right, width));
    let (top, bottom) = (edge(clip.top.ceil(), height), edge(clip.bottom, height));
    (left, right.max(left), top, bottom.max(top))
}

/// Strokes `segments` (pixels) `line` pixels wide in `paint` into the opaque RGBA image
/// `bytes` (`width` pixels a row) inside `clip`, antialiased by each pixel's distance from
/// the segment. Where two segments meet, the pixels both cover take the larger coverage,
/// laid once.
pub fn stroke_segments(
    bytes: &mut [u8],
    width: usize,
    segments: &[(Px, Px)],
    line: f64,
    paint: Paint,
    clip: &Rect,
) {
    if width == 0 || segments.is_empty() {
        return;
    }
    let height = bytes.len() / 4 / width;
    let (left, right, top, bottom) = clip_pixels(clip, width, height);
    let half = line / 2.0;
    let alpha = paint.alpha.clamp(0.0, 1.0);
    // The coverage laid so far over the clip, in 1/255ths: a joint is covered once.
    let clip_width = right - left;
    let mut laid = vec![0u8; clip_width * (bottom - top)];
    let reach = half + 1.0;
    for &((x0, y0), (x1, y1)) in segments {
        if !(x0.is_finite() && y0.is_finite() && x1.is_finite() && y1.is_finite()) {
            continue;
        }
        let span = |a: f64, b: f64, lo: usize, hi: usize| {
            let from = ((a.min(b) - reach).floor().max(lo as f64) as usize).min(hi);
            let to = ((a.max(b) + reach).ceil().max(lo as f64) as usize).min(hi);
            from..to
        };
        let (dx, dy) = (x1 - x0, y1 - y0);
        let length2 = dx * dx + dy * dy;
        for py in span(y0, y1, top, bottom) {
            let cy = py as f64 + 0.5;
            for px in span(x0, x1, left, right) {
                let cx = px as f64 + 0.5;
                let t = if length2 > 0.0 {
                    (((cx - x0) * dx + (cy - y0) * dy) / length2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (ex, ey) = (cx - x0 - t * dx, cy - y0 - t * dy);
                let distance = (ex * ex + ey * ey).sqrt();
                let coverage = ((half + 0.5 - distance).clamp(0.0, 1.0) * 255.0) as u8;
                let slot = &mut laid[(py - top) * clip_width + (px - left)];
                if coverage <= *slot {
                    continue;
                }
                let before = f64::from(*slot) / 255.0;
                *slot = coverage;
                // Blending the rise in coverage over what an earlier segment laid gives the
                // pixel the opacity of the larger coverage alone.
                let a = alpha * (f64::from(coverage) / 255.0 - before) / (1.0 - alpha * before);
                let at = 4 * (py * width + px);
                blend(&mut bytes[at..at + 4], paint.rgb, (a * 256.0) as u32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The estimate at a node by the direct sum over the points, in f64.
    fn direct(coords: &[f32], at: (f64, f64), sx: f64, sy: f64) -> f64 {
        coords
            .chunks_exact(2)
            .map(|p| {
                let (u, v) = ((at.0 - f64::from(p[0])) / sx, (at.1 - f64::from(p[1])) / sy);
                (-0.5 * (u * u + v * v)).exp() / (std::f64::consts::TAU * sx * sy)
            })
            .sum()
    }

    /// A seeded generator of numbers in [0, 1).
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut state = seed;
        move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as f64 / f64::from(1u32 << 31)
        }
    }

    #[test]
    fn the_estimate_is_the_direct_sum_of_kernels() {
        // 2,000 points in two clumps, a grid of 81 × 61 over [-4, 4] × [-3, 3], a kernel of
        // 3 cells (0.3 data units on each axis).
        let mut random = uniform(3);
        let coords: Vec<f32> = (0..2000)
            .flat_map(|i| {
                let (cx, cy) = if i % 3 == 0 { (-1.5, 0.5) } else { (1.0, -0.5) };
                [(cx + 1.2 * (random() - 0.5)) as f32, (cy + 0.8 * (random() - 0.5)) as f32]
            })
            .collect();
        let grid = estimate(&coords, 81, 61, (-4.0, 4.0), (-3.0, 3.0), 3.0).unwrap();
        let peak = grid.values.iter().copied().fold(0.0, f32::max);
        for j in (0..61).step_by(5) {
            for i in (0..81).step_by(4) {
                let at = (-4.0 + 0.1 * i as f64, -3.0 + 0.1 * j as f64);
                let expected = direct(&coords, at, 0.3, 0.3);
                let got = f64::from(grid.values[j * 81 + i]);
                // Linear binning moves each point by under a cell: an error of a few percent
                // of the peak at most with a kernel three cells wide.
                assert!(
                    (got - expected).abs() < 0.02 * f64::from(peak),
                    "node ({i}, {j}): {got} against {expected}"
                );
            }
        }
        // The whole mass: 2,000 points (the grid holds them all, with room for the kernel).
        let mass: f64 = grid.values.iter().map(|&v| f64::from(v) * 0.01).sum();
        assert!((mass - 2000.0).abs() < 2.0, "{mass}");
    }

    #[test]
    fn a_single_point_on_a_node_gives_the_normal_density_and_others_are_left_out() {
        // One point on node (10, 10) of a unit grid; points outside or not finite add nothing.
        let coords = [10.0, 10.0, 50.0, 10.0, f32::NAN, 3.0, 3.0, f32::INFINITY];
        let grid = estimate(&coords, 21, 21, (0.0, 20.0), (0.0, 20.0), 2.0).unwrap();
        let normal = |d2: f64| (-0.5 * d2 / 4.0).exp() / (std::f64::consts::TAU * 4.0);
        for (i, j) in [(10, 10), (11, 10), (12, 13), (0, 0)] {
            let d2 = (i as f64 - 10.0).powi(2) + (j as f64 - 10.0).powi(2);
            let expected = if d2 > 64.0 { 0.0 } else { normal(d2) };
            let got = f64::from(grid.values[j * 21 + i]);
            assert!((got - expected).abs() < 1e-6, "({i}, {j}): {got} against {expected}");
        }
    }

    #[test]
    fn bad_grids_are_refused() {
        let check = |result: Result<DensityGrid, Error>| {
            assert!(matches!(result, Err(Error::InvalidParameter { .. })), "{result:?}");
        };
        check(estimate(&[], 1, 10, (0.0, 1.0), (0.0, 1.0), 1.0));
        check(estimate(&[], 10, MAX_GRID + 1, (0.0, 1.0), (0.0, 1.0), 1.0));
        check(estimate(&[], 10, 10, (1.0, 1.0), (0.0, 1.0), 1.0));
        check(estimate(&[], 10, 10, (0.0, f64::NAN), (0.0, 1.0), 1.0));
        check(estimate(&[], 10, 10, (0.0, 1.0), (0.0, 1.0), 0.0));
        check(estimate(&[], 10, 10, (0.0, 1.0), (0.0, 1.0), f64::NAN));
        check(estimate(&[], 10, 10, (0.0, 1.0), (0.0, 1.0), 3.0));
        check(DensityGrid::new(2, 2, (0.0, 1.0), (0.0, 1.0), vec![0.0; 3]));
        check(DensityGrid::new(2, 2, (0.0, 1.0), (0.0, 1.0), vec![0.0, 1.0, f32::NAN, 0.0]));
        assert!(estimate(&[], 10, 10, (0.0, 1.0), (0.0, 1.0), 2.5).unwrap().values.iter().all(|&v| v == 0.0));
    }

    /// The grid of `f` at integer nodes `0..n` on each axis.
    fn grid_of(n: usize, f: impl Fn(f64, f64) -> f64) -> DensityGrid {
        let values = (0..n)
            .flat_map(|j| (0..n).map(move |i| (i, j)))
            .map(|(i, j)| f(i as f64, j as f64) as f32)
            .collect();
        DensityGrid::new(n, n, (0.0, 1.0), (0.0, 1.0), values).unwrap()
    }

    #[test]
    fn the_contour_of_a_cone_is_a_closed_circle() {
        // f = distance from (10, 10): linear along an edge only approximately, so the
        // crossings lie within a small fraction of a cell of the circle of radius 6.3 (a
        // radius through no node, where a crossing would be a corner).
        let grid = grid_of(21, |x, y| -((x - 10.0).hypot(y - 10.0)));
        let segments = contour_segments(&grid, -6.3);
        assert!(segments.len() > 30, "{}", segments.len());
        for [a, b] in &segments {
            for (x, y) in [a, b] {
                let r = (f64::from(*x) - 10.0).hypot(f64::from(*y) - 10.0);
                assert!((r - 6.3).abs() < 0.1, "({x}, {y}) is {r} from the centre");
            }
        }
        // A closed line: each end is shared by exactly two segments.
        let key = |p: &(f32, f32)| ((p.0 * 1e4).round() as i64, (p.1 * 1e4).round() as i64);
        let mut ends = std::collections::HashMap::new();
        for [a, b] in &segments {
            *ends.entry(key(a)).or_insert(0) += 1;
            *ends.entry(key(b)).or_insert(0) += 1;
        }
        assert!(ends.values().all(|&n| n == 2), "{ends:?}");
    }

    #[test]
    fn a_plane_gives_a_straight_contour_and_saddles_follow_the_centre() {
        // f = x + 2y at level 10: the line x = 10 − 2y, interpolated exactly.
        let grid = grid_of(12, |x, y| x + 2.0 * y);
        for [a, b] in contour_segments(&grid, 10.0) {
            for (x, y) in [a, b] {
                assert!((x + 2.0 * y - 10.0).abs() < 1e-5, "({x}, {y})");
            }
        }
        // One saddle cell: corners (0,0) and (1,1) high, (1,0) and (0,1) low.
        let saddle = |centre_high: bool| {
            let high = if centre_high { 3.0 } else { 1.2 };
            DensityGrid::new(2, 2, (0.0, 1.0), (0.0, 1.0), vec![high, 0.0, 0.0, high]).unwrap()
        };
        // Mean 1.5 ≥ 1: the high corners join across the centre; the lines cut off the low corners.
        let joined = contour_segments(&saddle(true), 1.0);
        let low_corners_cut = |segments: &[[(f32, f32); 2]]| {
            segments.iter().all(|[a, b]| {
                let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
                (mid.0 > 0.5) != (mid.1 > 0.5)
            })
        };
        assert_eq!(joined.len(), 2);
        assert!(low_corners_cut(&joined), "{joined:?}");
        // Mean 0.6 < 1: the low corners join; the lines cut off the high corners.
        let apart = contour_segments(&saddle(false), 1.0);
        assert_eq!(apart.len(), 2);
        assert!(
            !low_corners_cut(&apart)
                && apart.iter().all(|[a, b]| {
                    let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
                    (mid.0 > 0.5) == (mid.1 > 0.5)
                }),
            "{apart:?}"
        );
    }

    #[test]
    fn level_cells_cover_the_region_above_the_level() {
        // f = x + y on 0..10: the region x + y ≥ 9 is a triangle of area 81 / 2 below the
        // far corner (9 × 9 − (9 × 9)/2 … the part of the 9 × 9 square above the diagonal).
        let grid = grid_of(10, |x, y| x + y);
        let area: f64 = level_cells(&grid, 9.0)
            .iter()
            .map(|polygon| {
                // The shoelace formula.
                let n = polygon.len();
                (0..n)
                    .map(|k| {
                        let (a, b) = (polygon[k], polygon[(k + 1) % n]);
                        f64::from(a.0) * f64::from(b.1) - f64::from(b.0) * f64::from(a.1)
                    })
                    .sum::<f64>()
                    / 2.0
            })
            .sum();
        assert!((area - 40.5).abs() < 1e-4, "{area}");
        assert!(level_cells(&grid, 100.0).is_empty());
        // The whole grid above a low level: one rectangle a row.
        let all = level_cells(&grid, -1.0);
        assert_eq!(all.len(), 9);
    }

    #[test]
    fn mass_levels_hold_their_share() {
        // Values 1..=100: the top values summing to at least half of 5,050.
        let values: Vec<f32> = (1..=100).map(|v| v as f32).collect();
        let levels = mass_levels(&values, &[0.5, 0.9]);
        // 100 + 99 + … + 71 = 2,565 ≥ 2,525 (and down to 72 only 2,494): the level is 71.
        // 100 + … + 32 = 4,554 ≥ 4,545: 32.
        assert_eq!(levels, [32.0, 71.0]);
        assert!(mass_levels(&[0.0; 10], &[0.5]).is_empty());
        assert_eq!(mass_levels(&[2.0; 10], &[0.5, 0.9]), [2.0], "a flat grid has one level");
    }

    #[test]
    fn a_field_shades_its_bands_and_strokes_its_lines_inside_the_clip() {
        // A cone peaking at node (5, 5) of an 11 × 11 grid laid on 110 × 110 pixels.
        let grid = grid_of(11, |x, y| 10.0 - (x - 5.0).hypot(y - 5.0));
        let field = DensityField { levels: vec![5.0, 8.0], contours: Vec::new(), grid };
        let (width, height) = (120, 120);
        let mut bytes = vec![255u8; 4 * width * height];
        let place = GridPlacement { origin: (0.0, 110.0), step: (11.0, -11.0) };
        let bands = [Paint::new(0, 0, 0, 0.25), Paint::new(0, 0, 0, 0.5)];
        let clip = Rect { left: 0.0, top: 0.0, right: 100.0, bottom: 120.0 };
        paint_field(&mut bytes, width, &field, place, &bands, &clip);
        let red = |x: usize, y: usize| bytes[4 * (y * width + x)];
        // The peak at pixel (55, 55): the top band; the corners below the lowest level: untouched.
        assert_eq!(red(55, 55), 127);
        assert_eq!(red(55, 55 - 33), 191, "three cells out: 7 lies between the levels");
        assert_eq!(red(2, 2), 255);
        assert_eq!(red(105, 55), 255, "outside the clip");
        assert_eq!(red(115, 115), 255, "outside the grid");

        // A line across, two pixels wide; where two segments join it is laid once.
        let mut bytes = vec![255u8; 4 * width * height];
        let segments = [((10.0, 50.0), (50.0, 50.0)), ((50.0, 50.0), (90.0, 50.0))];
        stroke_segments(&mut bytes, width, &segments, 2.0, Paint::new(0, 0, 0, 1.0), &clip);
        let red = |x: usize, y: usize| bytes[4 * (y * width + x)];
        assert_eq!((red(30, 49), red(30, 50), red(50, 49), red(50, 50)), (0, 0, 0, 0));
        assert_eq!((red(30, 47), red(30, 52)), (255, 255));
        let mut faint = vec![255u8; 4 * width * height];
        stroke_segments(&mut faint, width, &segments, 2.0, Paint::new(0, 0, 0, 0.5), &clip);
        let (joint, along) = (faint[4 * (49 * width + 50)], faint[4 * (49 * width + 30)]);
        assert!(joint.abs_diff(along) <= 1 && along < 200, "a joint is no darker: {joint} against {along}");
    }
}
