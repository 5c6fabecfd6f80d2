//! The geometry behind the plots, kept free of the canvas so it can be tested natively:
//! fitting a data range, mapping data to pixels, finding the point under the mouse,
//! shortening labels, arrow heads, and greedy label placement.
//!
//! All pixel quantities here are backing-store pixels (CSS pixels × devicePixelRatio),
//! with y growing downwards, as on the canvas.

/// A point in pixels.
pub type Px = (f64, f64);

/// An axis-aligned rectangle in pixels: `left <= right`, `top <= bottom`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

impl Rect {
    /// Whether the two rectangles share more than an edge.
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.left < other.right
            && other.left < self.right
            && self.top < other.bottom
            && other.top < self.bottom
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        Rect {
            left: self.left.min(other.left),
            top: self.top.min(other.top),
            right: self.right.max(other.right),
            bottom: self.bottom.max(other.bottom),
        }
    }

    /// Whether `self` lies entirely inside `outer`.
    pub fn is_inside(&self, outer: &Rect) -> bool {
        self.left >= outer.left
            && self.right <= outer.right
            && self.top >= outer.top
            && self.bottom <= outer.bottom
    }
}

/// A data range `[min, max]` on each axis, with `min < max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DataRange {
    pub x: (f64, f64),
    pub y: (f64, f64),
}

/// The range `[min, max]` of `values` widened by `margin` (a fraction of the span) on each
/// side. An empty or single-valued input gets a span of 1 around its value (or 0..1), so the
/// result is always a usable axis. **Unchecked precondition:** the values are finite.
pub fn fit_axis(values: impl IntoIterator<Item = f64>, margin: f64) -> (f64, f64) {
    let (min, max) =
        values.into_iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if min > max {
        return (0.0, 1.0);
    }
    let span = max - min;
    if span <= f64::EPSILON * min.abs().max(max.abs()).max(1.0) {
        return (min - 0.5, max + 0.5);
    }
    (min - margin * span, max + margin * span)
}

/// An axis whose points spread less than this fraction of the other axis's spread is flat:
/// its differences are rounding (the second component of two words is float noise, about
/// 1e-8) or too small to see beside the other axis, and stretching them over the plot drew
/// two words in opposite corners over ticks that all read "0".
pub const FLAT: f64 = 1e-4;

/// The data range of flat `[x0, y0, x1, y1, …]` coordinates widened by `margin` on each side.
/// A flat axis (see [`FLAT`]) gets the other axis's span, centred on its points, so the
/// points lie on a line through the middle of the plot at the same scale as the other axis.
/// The page's camera (`www/map/camera.js`, `fit`) follows the same rule: both are tested on
/// the cases of `tests/shared/flat-axis.json`.
pub fn fit_range(coords: &[f32], margin: f64) -> DataRange {
    let bounds = |values: &mut dyn Iterator<Item = f64>| {
        values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)))
    };
    let mut x = bounds(&mut coords.iter().step_by(2).map(|&v| f64::from(v)));
    let mut y = bounds(&mut coords.iter().skip(1).step_by(2).map(|&v| f64::from(v)));
    let span = |(lo, hi): (f64, f64)| hi - lo;
    let centred = |(lo, hi): (f64, f64), to: f64| {
        let mid = lo / 2.0 + hi / 2.0;
        (mid - to / 2.0, mid + to / 2.0)
    };
    // No points: both spans are −∞ and neither comparison holds.
    if span(y) < FLAT * span(x) {
        y = centred(y, span(x));
    } else if span(x) < FLAT * span(y) {
        x = centred(x, span(y));
    }
    let fit = |(lo, hi): (f64, f64)| fit_axis([lo, hi].into_iter().filter(|_| lo <= hi), margin);
    DataRange { x: fit(x), y: fit(y) }
}

/// Maps data coordinates into a pixel rectangle, y upwards in data and downwards on screen.
///
/// The rectangle is plotters' plotting area: plotters maps `x_min` to `left` and `x_max` to
/// `right - 1` (and `y_min` to `bottom - 1`), so the points sit exactly on its tick marks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub data: DataRange,
    pub area: Rect,
}

impl Viewport {
    /// The pixel position of the data point `(x, y)`.
    pub fn to_pixel(self, x: f64, y: f64) -> Px {
        let (x0, x1) = self.data.x;
        let (y0, y1) = self.data.y;
        let width = self.area.right - 1.0 - self.area.left;
        let height = self.area.bottom - 1.0 - self.area.top;
        (
            self.area.left + (x - x0) / (x1 - x0) * width,
            self.area.bottom - 1.0 - (y - y0) / (y1 - y0) * height,
        )
    }
}

/// The values of an axis's ticks as written: as few decimals as tell every tick apart and
/// write each to within a thousandth of their spacing (a t-SNE map starts a ten-thousandth
/// wide, where four fixed decimals wrote every tick as "0"); beyond 12 decimals, or for
/// values of a million and more, in scientific notation. `values` ascend.
pub fn tick_labels(values: &[f64]) -> Vec<String> {
    let step =
        values.windows(2).map(|w| (w[1] - w[0]).abs()).filter(|d| *d > 0.0).fold(f64::INFINITY, f64::min);
    let largest = values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    // A lone tick is written to within a thousandth of its own size.
    let step = if step.is_finite() { step } else { largest.max(f64::MIN_POSITIVE) };
    let fixed = |decimals: usize| -> Vec<String> {
        values
            .iter()
            .map(|v| {
                let text = format!("{v:.decimals$}");
                let text =
                    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.') } else { &text };
                if text == "-0" { "0".to_string() } else { text.to_string() }
            })
            .collect()
    };
    let faithful = |labels: &[String]| {
        labels.windows(2).all(|w| w[0] != w[1])
            && labels
                .iter()
                .zip(values)
                .all(|(l, v)| l.parse::<f64>().is_ok_and(|x| (x - v).abs() <= step * 1e-3))
    };
    if largest < 1e6 {
        for decimals in 0..=12 {
            let labels = fixed(decimals);
            if faithful(&labels) {
                return labels;
            }
        }
    }
    values.iter().map(|v| if *v == 0.0 { "0".to_string() } else { format!("{v:e}") }).collect()
}

/// The index of the point nearest to `at` no farther than `radius`; the lower index wins a
/// tie, so the more frequent word is picked among coinciding points.
pub fn nearest(points: &[Px], at: Px, radius: f64) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, &(x, y)) in points.iter().enumerate() {
        let d2 = (x - at.0).powi(2) + (y - at.1).powi(2);
        if d2 <= radius * radius && best.is_none_or(|(_, b)| d2 < b) {
            best = Some((i, d2));
        }
    }
    best.map(|(i, _)| i)
}

/// `label` cut to at most `max_chars` characters, the last being an ellipsis when cut.
pub fn truncate_label(label: &str, max_chars: usize) -> String {
    if label.chars().count() <= max_chars {
        return label.to_string();
    }
    let mut cut: String = label.chars().take(max_chars.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The segment from `from` to `to` with `start` pixels cut off its start and `end` off its
/// end, so a line between two dots touches their rims; a segment too short keeps its ends.
pub fn shorten(from: Px, to: Px, start: f64, end: f64) -> (Px, Px) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = dx.hypot(dy);
    if length <= start + end {
        return (from, to);
    }
    let (ux, uy) = (dx / length, dy / length);
    ((from.0 + ux * start, from.1 + uy * start), (to.0 - ux * end, to.1 - uy * end))
}

/// The three corners of an arrow head with its tip at `tip`, pointing away from `from`,
/// `length` long and `width` wide at its base.
pub fn arrow_head(from: Px, tip: Px, length: f64, width: f64) -> [Px; 3] {
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let norm = dx.hypot(dy).max(f64::MIN_POSITIVE);
    let (ux, uy) = (dx / norm, dy / norm);
    let base = (tip.0 - ux * length, tip.1 - uy * length);
    let (nx, ny) = (-uy * width / 2.0, ux * width / 2.0);
    [tip, (base.0 + nx, base.1 + ny), (base.0 - nx, base.1 - ny)]
}

/// Which points get a label, in the order they are placed: first those asked for first
/// (`first`, in the order given: the ones that must be labelled, then the preferred), then
/// the `frequent` ones (see [`label_candidates`](super::labels::label_candidates)), each
/// once. Each entry is `(point index, asked first)`; indices are below `n_points`.
pub fn label_order(
    n_points: usize,
    first: &[usize],
    frequent: impl IntoIterator<Item = usize>,
) -> Vec<(usize, bool)> {
    let mut taken = std::collections::HashSet::new();
    let forced = first.iter().copied().map(|i| (i, true));
    forced
        .chain(frequent.into_iter().map(|i| (i, false)))
        .filter(|&(i, _)| i < n_points && taken.insert(i))
        .collect()
}

/// Sizes that decide where a label may go around its point, in pixels.
#[derive(Clone, Copy, Debug)]
pub struct LabelGeometry {
    /// The height of a label's box (about the font size).
    pub height: f64,
    /// The gap between a point's rim and its label.
    pub gap: f64,
    /// The radius of a dot, which labels keep clear of.
    pub dot_radius: f64,
}

/// A label to place: the point it names, and whether it must be shown even where it
/// overlaps others (the selected, hovered and highlighted points).
#[derive(Clone, Copy, Debug)]
pub struct LabelRequest {
    pub point: usize,
    pub must: bool,
}

/// The boxes a label for a point at `p` may take, most preferred first: right, left, above,
/// below, then the four diagonal corners.
fn candidates(p: Px, width: f64, g: &LabelGeometry) -> [Rect; 8] {
    let reach = g.dot_radius + g.gap;
    let h = g.height;
    let beside =
        |left: f64, mid: f64| Rect { left, top: mid - h / 2.0, right: left + width, bottom: mid + h / 2.0 };
    let diagonal = g.dot_radius * std::f64::consts::FRAC_1_SQRT_2 + g.gap;
    let (right, left) = (p.0 + reach, p.0 - reach - width);
    let (above, below) = (p.1 - reach - h / 2.0, p.1 + reach + h / 2.0);
    let (up, down) = (p.1 - diagonal - h / 2.0, p.1 + diagonal + h / 2.0);
    [
        beside(right, p.1),
        beside(left, p.1),
        beside(p.0 - width / 2.0, above),
        beside(p.0 - width / 2.0, below),
        beside(p.0 + diagonal, up),
        beside(p.0 + diagonal, down),
        beside(p.0 - diagonal - width, up),
        beside(p.0 - diagonal - width, down),
    ]
}

/// How many rings of farther boxes a label that must be shown tries (see [`displaced`]).
pub const MUST_RINGS: usize = 12;

/// The boxes `ring` label heights farther out than [`candidates`]' for a label that must be
/// shown where every near box is taken (a crowd of selected or found words): beside the
/// point shifted up or down, then above and below, so crowded labels stack into a column
/// beside their points. The scene draws a leader line to a label this far away.
fn displaced(p: Px, width: f64, g: &LabelGeometry, ring: usize) -> [Rect; 6] {
    let reach = g.dot_radius + g.gap;
    let h = g.height;
    let step = ring as f64 * (h + g.gap);
    // Beside the point, the first ring clears the diagonal boxes by a gap.
    let beside = g.dot_radius * std::f64::consts::FRAC_1_SQRT_2 + g.gap + h / 2.0 + step;
    let across = reach + h / 2.0 + step;
    let at =
        |left: f64, mid: f64| Rect { left, top: mid - h / 2.0, right: left + width, bottom: mid + h / 2.0 };
    let (right, left) = (p.0 + reach, p.0 - reach - width);
    [
        at(right, p.1 - beside),
        at(right, p.1 + beside),
        at(left, p.1 - beside),
        at(left, p.1 + beside),
        at(p.0 - width / 2.0, p.1 - across),
        at(p.0 - width / 2.0, p.1 + across),
    ]
}

/// Places labels greedily in the order of `requests`: each takes the first of its candidate
/// boxes that stays inside `bounds` and clears every label placed before it and the dots of
/// their points. A label that finds no such box is skipped, unless it is a `must` label,
/// which then tries boxes farther out ([`displaced`], up to [`MUST_RINGS`] label heights
/// away) and only when all of those are taken too takes its first box inside `bounds` (or
/// its first box) regardless: so no two labels overlap unless the plotting area is full
/// around a label that must be shown. Non-`must` labels never overlap any label.
///
/// Returns, for each request in order, the box its text fills, or `None` when skipped.
/// `width(point)` measures a label's text; it is asked only for labels that might fit.
///
/// Placed boxes are kept in a grid of cells a few labels tall (`Obstacles`), so a box is
/// only checked against the few placed near it: a map of 10,000 words asks for a label for
/// every one of them on each redraw, and an all-pairs check would be 10⁸ comparisons. And
/// a label is measured (the dearest step, a call into the canvas) only when one of its
/// boxes, shrunk to no width, is free: each box grows from that line away from its point,
/// so a label whose thin boxes are all blocked has no room at any width.
///
/// `reserved` boxes (the cluster names) are taken before any label.
pub fn place_labels<E>(
    points: &[Px],
    requests: &[LabelRequest],
    mut width: impl FnMut(usize) -> Result<f64, E>,
    geometry: &LabelGeometry,
    bounds: &Rect,
    reserved: &[Rect],
) -> Result<Vec<Option<Rect>>, E> {
    let r = geometry.dot_radius;
    let dot = |p: Px| Rect { left: p.0 - r, top: p.1 - r, right: p.0 + r, bottom: p.1 + r };
    // Placed label boxes and the dots of the points they name, which later labels avoid.
    let mut obstacles = Obstacles::new(*bounds, 2.0 * geometry.height.max(1.0));
    reserved.iter().for_each(|b| obstacles.insert(*b));
    let mut nearby = Vec::new();
    requests
        .iter()
        .map(|request| {
            let p = points[request.point];
            let clear = |b: &&Rect| b.is_inside(bounds) && !obstacles.overlaps(b) && !dot(p).overlaps(b);
            if !request.must {
                // The thin boxes all lie close to the point: gather what was placed there
                // once, then test the eight against that short list.
                let thin = candidates(p, 0.0, geometry);
                let around = thin.iter().skip(1).fold(thin[0], |u, b| u.union(b));
                obstacles.near(&around, &mut nearby);
                let free = |b: &Rect| {
                    b.is_inside(bounds) && !dot(p).overlaps(b) && !nearby.iter().any(|o| o.overlaps(b))
                };
                if !thin.iter().any(free) {
                    return Ok(None);
                }
            }
            let label_width = width(request.point)?;
            let boxes = candidates(p, label_width, geometry);
            let chosen = boxes.iter().find(clear).copied().or_else(|| {
                request.must.then(|| {
                    // A label that must be shown moves farther out rather than over another.
                    (1..=MUST_RINGS)
                        .flat_map(|ring| displaced(p, label_width, geometry, ring))
                        .find(|b| clear(&b))
                        .unwrap_or_else(|| *boxes.iter().find(|b| b.is_inside(bounds)).unwrap_or(&boxes[0]))
                })
            });
            if let Some(b) = chosen {
                obstacles.insert(b);
                obstacles.insert(dot(p));
            }
            Ok(chosen)
        })
        .collect()
}

/// Rectangles filed in a uniform grid over `bounds` by the cells they touch; a rectangle
/// reaching outside `bounds` is filed in the edge cells, so nothing is ever lost.
struct Obstacles {
    bounds: Rect,
    cell: f64,
    columns: usize,
    rows: usize,
    rects: Vec<Rect>,
    /// Indices into `rects`, one list per cell, row by row.
    cells: Vec<Vec<u32>>,
}

impl Obstacles {
    fn new(bounds: Rect, cell: f64) -> Obstacles {
        // A bounds rectangle of absurd size (or NaN) still gets a grid of sane size.
        let count = |span: f64| ((span / cell).ceil() as usize).clamp(1, 512);
        let columns = count(bounds.right - bounds.left);
        let rows = count(bounds.bottom - bounds.top);
        Obstacles { bounds, cell, columns, rows, rects: Vec::new(), cells: vec![Vec::new(); columns * rows] }
    }

    /// The cells `rect` touches, as column and row ranges.
    fn span(&self, rect: &Rect) -> (std::ops::RangeInclusive<usize>, std::ops::RangeInclusive<usize>) {
        let index =
            |v: f64, origin: f64, n: usize| (((v - origin) / self.cell).floor().max(0.0) as usize).min(n - 1);
        let columns = index(rect.left, self.bounds.left, self.columns)
            ..=index(rect.right, self.bounds.left, self.columns);
        let rows =
            index(rect.top, self.bounds.top, self.rows)..=index(rect.bottom, self.bounds.top, self.rows);
        (columns, rows)
    }

    fn insert(&mut self, rect: Rect) {
        let id = self.rects.len() as u32;
        self.rects.push(rect);
        let (columns, rows) = self.span(&rect);
        for row in rows {
            for column in columns.clone() {
                self.cells[row * self.columns + column].push(id);
            }
        }
    }

    /// Fills `out` with the rectangles filed in the cells `rect` touches (some may not
    /// overlap it, and one may come twice: the caller tests them).
    fn near(&self, rect: &Rect, out: &mut Vec<Rect>) {
        out.clear();
        let (columns, rows) = self.span(rect);
        for row in rows {
            for column in columns.clone() {
                out.extend(self.cells[row * self.columns + column].iter().map(|&id| self.rects[id as usize]));
            }
        }
    }

    fn overlaps(&self, rect: &Rect) -> bool {
        let (columns, rows) = self.span(rect);
        rows.into_iter().any(|row| {
            columns.clone().any(|column| {
                self.cells[row * self.columns + column]
                    .iter()
                    .any(|&id| self.rects[id as usize].overlaps(rect))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GEOMETRY: LabelGeometry = LabelGeometry { height: 10.0, gap: 2.0, dot_radius: 3.0 };
    const BOUNDS: Rect = Rect { left: 0.0, top: 0.0, right: 1000.0, bottom: 1000.0 };

    /// Labels of the given widths, indexed by point, placed in the order of `requests`.
    fn place(points: &[Px], requests: &[(usize, f64, bool)], bounds: &Rect) -> Vec<Option<Rect>> {
        let mut widths = vec![0.0; points.len()];
        requests.iter().for_each(|&(point, width, _)| widths[point] = width);
        let requests: Vec<_> =
            requests.iter().map(|&(point, _, must)| LabelRequest { point, must }).collect();
        place_labels(points, &requests, |p| Ok::<_, ()>(widths[p]), &GEOMETRY, bounds, &[]).unwrap()
    }

    fn request(point: usize, width: f64, must: bool) -> (usize, f64, bool) {
        (point, width, must)
    }

    #[test]
    fn fit_axis_widens_by_the_margin_and_handles_degenerate_input() {
        let check = |values: &[f64], expected: (f64, f64)| {
            assert_eq!(fit_axis(values.iter().copied(), 0.1), expected, "{values:?}");
        };
        check(&[0.0, 10.0, 5.0], (-1.0, 11.0));
        check(&[-2.0, 2.0], (-2.4, 2.4));
        check(&[3.0, 3.0], (2.5, 3.5));
        check(&[], (0.0, 1.0));
    }

    #[test]
    fn fit_range_reads_interleaved_coordinates() {
        let range = fit_range(&[0.0, 100.0, 10.0, 200.0, 5.0, 150.0], 0.0);
        assert_eq!(range, DataRange { x: (0.0, 10.0), y: (100.0, 200.0) });
    }

    #[test]
    fn a_flat_axis_takes_the_other_axis_span_centred_on_its_points() {
        // QA: two isolated words, PC2 float noise: y spanned −4e−9 to 9e−8, and every tick read "0".
        let check = |coords: &[f32], expected: DataRange| {
            let range = fit_range(coords, 0.0);
            let close = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-6;
            assert!(close(range.x, expected.x) && close(range.y, expected.y), "{coords:?}: {range:?}");
        };
        check(&[-1.3, -4e-9, 1.3, 9e-8], DataRange { x: (-1.3, 1.3), y: (-1.3, 1.3) });
        check(&[2.0, 0.0, 2.0, 4.0], DataRange { x: (0.0, 4.0), y: (0.0, 4.0) });
        check(&[2.0, 0.0, 2.0, 0.5, 2.0, 1e-3], DataRange { x: (1.75, 2.25), y: (0.0, 0.5) });
        // A small spread that is not flat keeps its own range.
        check(&[0.0, 0.0, 1.0, 0.01], DataRange { x: (0.0, 1.0), y: (0.0, 0.01) });
        // One point, or points on one spot: a span of 1 on each axis; none: 0 to 1.
        check(&[3.0, 3.0, 3.0, 3.0], DataRange { x: (2.5, 3.5), y: (2.5, 3.5) });
        check(&[], DataRange { x: (0.0, 1.0), y: (0.0, 1.0) });
    }

    #[test]
    fn fits_the_shared_cases_as_the_page_camera_does() {
        // tests/shared/flat-axis.json: inputs and ranges that tests/www/camera.test.js checks
        // the page's camera (`fit` of `bounds`) against too, so the two rules cannot drift.
        let cases: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/shared/flat-axis.json")).unwrap();
        assert_eq!(cases["flat"].as_f64(), Some(FLAT));
        let margin = cases["margin"].as_f64().unwrap();
        let numbers = |v: &serde_json::Value| -> Vec<f64> {
            v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
        };
        for case in cases["cases"].as_array().unwrap() {
            let coords: Vec<f32> = numbers(&case["coords"]).into_iter().map(|x| x as f32).collect();
            let range = fit_range(&coords, margin);
            let got = [range.x.0, range.x.1, range.y.0, range.y.1];
            let expected = numbers(&case["range"]);
            let close = got.iter().zip(&expected).all(|(a, b)| (a - b).abs() <= 1e-12 * b.abs().max(1.0));
            assert!(close, "{}: {got:?}, expected {expected:?}", case["what"]);
        }
    }

    #[test]
    fn viewport_maps_the_range_onto_the_area_like_plotters() {
        let viewport = Viewport {
            data: DataRange { x: (-1.0, 1.0), y: (0.0, 10.0) },
            area: Rect { left: 50.0, top: 20.0, right: 251.0, bottom: 121.0 },
        };
        assert_eq!(viewport.to_pixel(-1.0, 0.0), (50.0, 120.0));
        assert_eq!(viewport.to_pixel(1.0, 10.0), (250.0, 20.0));
        assert_eq!(viewport.to_pixel(0.0, 5.0), (150.0, 70.0));
    }

    #[test]
    fn nearest_finds_the_closest_point_within_the_radius() {
        let points = [(10.0, 10.0), (20.0, 10.0), (20.0, 10.0), (100.0, 100.0)];
        assert_eq!(nearest(&points, (12.0, 11.0), 5.0), Some(0));
        assert_eq!(nearest(&points, (19.0, 10.0), 5.0), Some(1), "the lower index wins a tie");
        assert_eq!(nearest(&points, (100.0, 104.0), 4.0), Some(3), "the radius is inclusive");
        assert_eq!(nearest(&points, (50.0, 50.0), 5.0), None);
        assert_eq!(nearest(&[], (0.0, 0.0), 5.0), None);
    }

    #[test]
    fn truncate_label_counts_characters_not_bytes() {
        assert_eq!(truncate_label("night", 24), "night");
        assert_eq!(truncate_label("abcdefgh", 5), "abcd…");
        assert_eq!(truncate_label("ääääää", 6), "ääääää");
        assert_eq!(truncate_label("äääääää", 6), "äääää…");
    }

    #[test]
    fn shorten_cuts_both_ends_and_leaves_short_segments() {
        assert_eq!(shorten((0.0, 0.0), (10.0, 0.0), 2.0, 3.0), ((2.0, 0.0), (7.0, 0.0)));
        assert_eq!(shorten((0.0, 0.0), (0.0, 4.0), 2.0, 3.0), ((0.0, 0.0), (0.0, 4.0)));
    }

    #[test]
    fn arrow_head_points_along_the_segment() {
        let [tip, a, b] = arrow_head((0.0, 0.0), (10.0, 0.0), 4.0, 2.0);
        assert_eq!(tip, (10.0, 0.0));
        assert_eq!((a.0, b.0), (6.0, 6.0));
        assert_eq!((a.1.abs(), b.1.abs()), (1.0, 1.0));
        assert!(a.1 * b.1 < 0.0, "the base straddles the line");
    }

    #[test]
    fn label_order_puts_must_labels_first_without_repeats() {
        assert_eq!(label_order(10, &[5, 1, 5], 0..3), [(5, true), (1, true), (0, false), (2, false)]);
        assert_eq!(label_order(2, &[], 0..5), [(0, false), (1, false)], "capped at the point count");
        assert_eq!(label_order(3, &[7], 0..0), [], "out-of-range indices are ignored");
    }

    #[test]
    fn labels_go_right_of_their_point_when_free() {
        let placed = place(&[(100.0, 100.0)], &[request(0, 40.0, false)], &BOUNDS);
        let expected = Rect { left: 105.0, top: 95.0, right: 145.0, bottom: 105.0 };
        assert_eq!(placed, [Some(expected)]);
    }

    #[test]
    fn a_crowded_label_moves_to_another_side_or_is_skipped() {
        // Ten points on one spot: the first takes the right, the second the left, and so on
        // until no side is free.
        let points = [(100.0, 100.0); 10];
        let requests: Vec<_> = (0..10).map(|i| request(i, 40.0, false)).collect();
        let placed = place(&points, &requests, &BOUNDS);
        assert_eq!(placed[0].unwrap().left, 105.0);
        assert_eq!(placed[1].unwrap().right, 95.0);
        assert!(placed.iter().filter(|b| b.is_some()).count() < 10, "some must be skipped");
        let boxes: Vec<Rect> = placed.iter().flatten().copied().collect();
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} overlaps {b:?}");
            }
        }
    }

    #[test]
    fn reserved_boxes_are_kept_clear() {
        let points = [(100.0, 100.0)];
        let name = Rect { left: 100.0, top: 90.0, right: 200.0, bottom: 110.0 };
        let asked = [LabelRequest { point: 0, must: false }];
        let placed =
            place_labels(&points, &asked, |_| Ok::<_, ()>(40.0), &GEOMETRY, &BOUNDS, &[name]).unwrap();
        assert_eq!(placed[0].unwrap().right, 95.0, "left of its point, the right taken");
    }

    #[test]
    fn a_label_near_the_right_edge_goes_left() {
        let placed = place(&[(990.0, 500.0)], &[request(0, 40.0, false)], &BOUNDS);
        assert_eq!(placed[0].unwrap().right, 985.0);
    }

    /// Whether any two of the placed boxes overlap.
    fn any_overlap(placed: &[Option<Rect>]) -> bool {
        let boxes: Vec<Rect> = placed.iter().flatten().copied().collect();
        boxes.iter().enumerate().any(|(i, a)| boxes[i + 1..].iter().any(|b| a.overlaps(b)))
    }

    #[test]
    fn must_labels_are_shown_even_when_crowded_and_stack_rather_than_overlap() {
        // Twenty words on one spot (a word and its aliases, an isolated cluster): the eight
        // near boxes take eight, the rest stack farther out, none over another.
        let points = [(500.0, 500.0); 20];
        let requests: Vec<_> = (0..20).map(|i| request(i, 40.0, true)).collect();
        let placed = place(&points, &requests, &BOUNDS);
        assert!(placed.iter().all(Option::is_some));
        assert!(!any_overlap(&placed), "{placed:?}");
        // The last ones stack in a column right of the point, above it.
        let ninth = placed[8].unwrap();
        assert_eq!((ninth.left, ninth.right), (505.0, 545.0));
        assert!(ninth.bottom < 495.0, "{ninth:?}");
        // Frequent labels after them find room around the stack or none; none overlaps.
        let points: Vec<Px> =
            [(500.0, 500.0); 20].into_iter().chain((0..50).map(|i| (480.0 + f64::from(i), 505.0))).collect();
        let requests: Vec<_> = (0..70).map(|i| request(i, 40.0, i < 20)).collect();
        let placed = place(&points, &requests, &BOUNDS);
        assert!(!any_overlap(&placed));
    }

    #[test]
    fn must_labels_overlap_only_when_the_area_is_full() {
        // Bounds just big enough for a handful: the rest must still be shown.
        let bounds = Rect { left: 0.0, top: 0.0, right: 120.0, bottom: 40.0 };
        let points = [(60.0, 20.0); 12];
        let requests: Vec<_> = (0..12).map(|i| request(i, 40.0, true)).collect();
        let placed = place(&points, &requests, &bounds);
        assert!(placed.iter().all(Option::is_some));
        assert!(any_overlap(&placed), "no room left: the last ones overlap");
    }

    #[test]
    fn labels_keep_clear_of_labelled_dots() {
        // The second point sits where the first point's label would go on the right.
        let points = [(100.0, 100.0), (120.0, 100.0)];
        let requests = [request(1, 10.0, false), request(0, 40.0, false)];
        let placed = place(&points, &requests, &BOUNDS);
        assert_eq!(placed[1].unwrap().right, 95.0, "goes left of its point instead");
    }

    /// A seeded generator of numbers in [0, 1).
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut state = seed;
        move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as f64 / f64::from(1u32 << 31)
        }
    }

    /// Places `requests` (point, width, must) and checks the result is what the plain O(n²)
    /// greedy placement, measuring every label, gives; returns how many were placed.
    fn assert_plain_greedy(
        points: &[Px],
        requests: &[(usize, f64, bool)],
        geometry: &LabelGeometry,
        bounds: &Rect,
    ) -> usize {
        let mut widths = vec![0.0; points.len()];
        requests.iter().for_each(|&(point, width, _)| widths[point] = width);
        let asked: Vec<_> = requests.iter().map(|&(point, _, must)| LabelRequest { point, must }).collect();
        let placed = place_labels(points, &asked, |p| Ok::<_, ()>(widths[p]), geometry, bounds, &[]).unwrap();

        let r = geometry.dot_radius;
        let mut obstacles: Vec<Rect> = Vec::new();
        for (&(point, width, must), got) in requests.iter().zip(&placed) {
            let p = points[point];
            let dot = Rect { left: p.0 - r, top: p.1 - r, right: p.0 + r, bottom: p.1 + r };
            let boxes = candidates(p, width, geometry);
            let clear = |b: &&Rect| {
                b.is_inside(bounds) && !obstacles.iter().any(|o| o.overlaps(b)) && !dot.overlaps(b)
            };
            let expected = boxes.iter().find(clear).copied().or_else(|| {
                must.then(|| {
                    let far: Vec<Rect> =
                        (1..=MUST_RINGS).flat_map(|ring| displaced(p, width, geometry, ring)).collect();
                    far.iter()
                        .find(clear)
                        .copied()
                        .unwrap_or_else(|| *boxes.iter().find(|b| b.is_inside(bounds)).unwrap_or(&boxes[0]))
                })
            });
            assert_eq!(*got, expected, "label {point}");
            if let Some(b) = expected {
                obstacles.push(b);
                obstacles.push(dot);
            }
        }
        placed.iter().filter(|b| b.is_some()).count()
    }

    #[test]
    fn the_grids_and_the_thin_box_test_give_what_the_plain_greedy_placement_gives() {
        // Many labels at random spots, some reaching over the bounds' edges.
        let mut random = uniform(7);
        let bounds = Rect { left: 0.0, top: 0.0, right: 400.0, bottom: 300.0 };
        let points: Vec<Px> = (0..800).map(|_| (random() * 440.0 - 20.0, random() * 340.0 - 20.0)).collect();
        let requests: Vec<_> = (0..800).map(|i| request(i, 10.0 + 60.0 * random(), i % 97 == 0)).collect();
        assert!(assert_plain_greedy(&points, &requests, &GEOMETRY, &bounds) > 100, "a fair share is placed");

        // A crowd, as a map of thousands of words is: most have no room. The page's geometry
        // at two pixel ratios, the bounds not at the origin, coordinates anywhere in a pixel.
        for scale in [1.0, 2.0] {
            let mut random = uniform(11);
            let geometry = LabelGeometry { height: 12.0 * scale, gap: 3.0 * scale, dot_radius: 2.5 * scale };
            let bounds =
                Rect { left: 41.5 * scale, top: 12.25 * scale, right: 941.5 * scale, bottom: 572.25 * scale };
            let gaussian = |random: &mut dyn FnMut() -> f64| {
                (-2.0 * (1.0 - random()).ln()).sqrt() * (std::f64::consts::TAU * random()).cos()
            };
            let points: Vec<Px> = (0..3000)
                .map(|_| {
                    (
                        scale * (490.0 + 150.0 * gaussian(&mut random)),
                        scale * (290.0 + 90.0 * gaussian(&mut random)),
                    )
                })
                .collect();
            let requests: Vec<_> =
                (0..3000).map(|i| request(i, scale * (15.0 + 50.0 * random()), i % 500 == 7)).collect();
            let placed = assert_plain_greedy(&points, &requests, &geometry, &bounds);
            assert!((100..1500).contains(&placed), "{placed} of 3,000 placed at scale {scale}");
        }
    }

    #[test]
    fn tick_labels_tell_every_tick_apart_at_any_scale() {
        assert_eq!(tick_labels(&[-1.0, -0.5, 0.0, 0.5, 1.0]), ["-1", "-0.5", "0", "0.5", "1"]);
        assert_eq!(tick_labels(&[0.0, 20.0, 40.0]), ["0", "20", "40"]);
        // A t-SNE map's first iterations: a span of a ten-thousandth.
        assert_eq!(
            tick_labels(&[-0.0001, -0.00005, 0.0, 0.00005, 0.0001]),
            ["-0.0001", "-0.00005", "0", "0.00005", "0.0001"]
        );
        assert_eq!(tick_labels(&[0.25, 0.5, 0.75]), ["0.25", "0.5", "0.75"]);
        assert_eq!(tick_labels(&[1e-14, 2e-14]), ["1e-14", "2e-14"]);
        assert_eq!(tick_labels(&[2e6, 4e6]), ["2e6", "4e6"]);
        assert_eq!(tick_labels(&[3.0]), ["3"]);
        assert_eq!(tick_labels(&[3.7]), ["3.7"]);
        assert_eq!(tick_labels(&[0.0]), ["0"]);
        assert!(tick_labels(&[]).is_empty());
    }
}
