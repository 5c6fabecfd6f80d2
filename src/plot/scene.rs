//! The scatter's marks as a list of shapes.
//!
//! `Chart` decides where points and labels go (with `geometry`), then turns the decision
//! into [`Shape`]s here, once; the canvas paints the shapes and the SVG export
//! ([`write_svg`](super::svg::write_svg)) writes the same shapes, so the two pictures cannot
//! drift apart.
//!
//! Lengths are in the drawing's pixels (backing-store pixels on the canvas, CSS pixels in
//! SVG): [`scatter_shapes`] takes the scale.

use std::rc::Rc;

use super::density::{DensityField, GridPlacement};
use super::frame::{Frame, frame_shapes};
use super::geometry::{Px, Rect, arrow_head, shorten};
pub use super::palette::{DIMMED, PLAIN, Paint, Palette};

pub const FONT_FAMILY: &str = "sans-serif";

// Sizes in CSS pixels.
pub const TICK_FONT: f64 = 11.0;
pub const TITLE_FONT: f64 = 12.0;
/// A tick mark's length; its value stands twice that from the axis.
pub const TICK: f64 = 4.0;
pub const LABEL_FONT: f64 = 12.0;
/// The size of a cluster's name.
pub const CLUSTER_FONT: f64 = 13.0;
pub const LABEL_GAP: f64 = 2.0;
/// The backdrop reaches this far beyond a label's text on each side.
const LABEL_BACKDROP: f64 = 1.5;
const DOT: f64 = 2.5;
/// The smallest radius of a plain dot, however crowded (see `dot_radius`).
const MIN_DOT: f64 = 1.0;
pub const EMPHASISED_DOT: f64 = 4.0;
const SELECTED_DOT: f64 = 5.0;
const HOVER_RING: f64 = 7.5;
pub const LINE: f64 = 1.25;
pub const ARROW: f64 = 2.0;
const ARROW_HEAD: f64 = 9.0;
pub const TRAIL: f64 = 2.0;
/// The longest a move's arrow is drawn: a short mark beside its word, not a line across the map.
pub const MOVE_MAX: f64 = 56.0;
/// Moves shorter than this are not drawn: an arrow needs room for its head.
const MOVE_MIN: f64 = 1.5;
const MOVE_WIDTH: f64 = 2.0;
const MOVE_HEAD: f64 = 8.0;
/// Steps of opacity a trail fades through, oldest faintest: a trail costs this many paths at
/// most, not one per segment.
pub const TRAIL_SHADES: usize = 6;

/// Visible points from which a map lays each colour's plain dots, then its labelled ones
/// over them, whatever is labelled or marked (see `scatter_shapes`): the chart keeps a layer
/// of this many dots from one redraw to the next (`wasm::chart::paint`'s underlay), since
/// laying fewer again costs less than the copies.
pub const LAYER_DOTS: usize = 20_000;

/// How a point and its label stand out, from plain to strongest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Emphasis {
    Plain,
    Labelled,
    Marked,
    Arrow,
    Strong,
}

impl Emphasis {
    /// The CSS font weight of a label with this emphasis.
    pub fn font_weight(self) -> u16 {
        if self >= Emphasis::Arrow { 600 } else { 400 }
    }
}

/// Where a text's anchor lies along it: at its middle or its end (labels, drawn from their
/// start, are `Shape::Label`s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Middle,
    End,
}

/// Where a text's anchor lies across it: at its top, middle or bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Baseline {
    Top,
    Middle,
    Bottom,
}

/// One mark of the scatter.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// The whole drawing filled with an opaque colour: the first shape, under everything.
    Background(Paint),
    /// Later shapes, up to `Unclip`, are clipped to the rectangle.
    Clip(Rect),
    Unclip,
    /// Filled circles of one radius and colour, part of a drawing of `crowd` dots in all
    /// (a map lays its dots a colour at a time: whether they pile up is the map's, see
    /// `Raster::dots_among`).
    Dots {
        centres: Vec<Px>,
        radius: f64,
        fill: Paint,
        crowd: usize,
    },
    /// A filled circle with an outline.
    Disc {
        centre: Px,
        radius: f64,
        fill: Paint,
        outline: Paint,
        width: f64,
    },
    /// An unfilled circle.
    Ring {
        centre: Px,
        radius: f64,
        stroke: Paint,
        width: f64,
    },
    /// Straight segments with round caps.
    Segments {
        segments: Vec<(Px, Px)>,
        stroke: Paint,
        width: f64,
    },
    /// A filled polygon.
    Polygon {
        corners: Vec<Px>,
        fill: Paint,
    },
    /// Filled rectangles of one colour: the grid's and axes' lines and ticks (on whole
    /// pixels, so they are crisp), and the translucent boxes of the background behind the
    /// labels, so text reads over dots and lines. (An outline of each glyph, the usual halo,
    /// cost the canvas's software raster three times the text itself: 1.3 ms of a 4 ms
    /// budget at a few hundred labels.)
    Rects {
        rects: Vec<Rect>,
        fill: Paint,
    },
    /// A line of text of the frame (a tick's value, an axis title) anchored at `at`; an
    /// `upright` one reads from bottom to top, turned a quarter about its anchor.
    Text {
        at: Px,
        text: String,
        align: Align,
        baseline: Baseline,
        upright: bool,
        size: f64,
        fill: Paint,
    },
    /// Where the points crowd (`plot::density`): the field laid on the drawing by `place`,
    /// each band between one contour level and the next shaded by `bands` (one a level, the
    /// densest last), and the contour lines stroked `width` wide in `line`.
    Density {
        field: Rc<DensityField>,
        place: GridPlacement,
        bands: Vec<Paint>,
        line: Paint,
        width: f64,
    },
    /// Text whose left end and vertical middle are at `at`; `point` is the point it names
    /// (the canvas keeps that word as a JS string), or [`NO_POINT`] for a caption.
    Label {
        point: usize,
        at: Px,
        text: String,
        weight: u16,
        size: f64,
        fill: Paint,
    },
}

/// A cluster's name as drawn: its box holds a swatch of the cluster's colour (its `style`,
/// as a point's) and then the text.
#[derive(Clone, Debug, PartialEq)]
pub struct NameMark {
    pub text: String,
    pub rect: Rect,
    pub style: u8,
}

/// The room a cluster name's swatch takes before its text, in CSS pixels.
pub const NAME_SWATCH: f64 = 2.0 * EMPHASISED_DOT + 3.0;

/// The `point` of a label that names no point (the caption): its `text` is painted.
pub const NO_POINT: usize = usize::MAX;

/// What the scatter shows, decided by `Chart` before anything is drawn.
pub struct ScatterMarks<'a> {
    pub frame: &'a Frame,
    /// Each point's position; NaN for a point outside the plotting area.
    pub positions: &'a [Px],
    pub emphasis: &'a [Emphasis],
    pub selected: Option<usize>,
    pub hovered: Option<usize>,
    pub neighbours: &'a [usize],
    pub arrows: &'a [[usize; 2]],
    /// Moves (the step mode's rows moved), each `(start, tip)` from [`move_arrow`].
    pub moves: &'a [(Px, Px)],
    /// Paths of positions, oldest first, drawn as lines that fade with age.
    pub trails: &'a [Vec<Px>],
    /// A line in the plotting area's top-left corner (the moment a replay shows), over all.
    pub caption: Option<&'a str>,
    /// `(point, box)` of each placed label, most important first.
    pub labels: &'a [(usize, Rect)],
    /// The text of each of `labels`, in the same order (empty where the canvas paints the
    /// word it keeps).
    pub texts: &'a [String],
    /// Each point's style: [`PLAIN`], [`DIMMED`] or a class of `palette.classes`.
    pub styles: &'a [u8],
    pub palette: &'a Palette,
    /// The density layer over the plain dots, when it is on.
    pub density: Option<(Rc<DensityField>, GridPlacement)>,
    /// Cluster names, placed before the words' labels; drawn bolder.
    pub names: &'a [NameMark],
}

/// The radius of the plain dots when `visible` dots lie in `area`, at `s` drawing pixels per
/// CSS pixel: `DOT` while their discs would cover at most the area (a few tens of thousands
/// on a map of a usual size), smaller as they crowd, so that together they cover it about
/// once, and never under `MIN_DOT`. Crowded dots of full size read as one blot; smaller ones
/// keep the shape of the crowd, and cost the raster less. Labelled dots keep `DOT`.
pub fn dot_radius(visible: usize, area: &Rect, s: f64) -> f64 {
    let covered = (area.right - area.left) * (area.bottom - area.top);
    let fitting = (covered / (std::f64::consts::PI * visible.max(1) as f64)).sqrt();
    fitting.clamp(MIN_DOT * s, DOT * s)
}

/// The opacity factor of segment `j` (0 = oldest) of a trail of `n` segments: one of
/// `TRAIL_SHADES` steps from faint to nearly opaque.
pub fn trail_shade(j: usize, n: usize) -> usize {
    ((j + 1) * TRAIL_SHADES).div_ceil(n.max(1)) - 1
}

/// The arrow of a move drawn at `s` drawing pixels per CSS pixel, from `tail` (where the
/// word's row was, its move scaled) to its `point`, as `(start, tip)`: cut to [`MOVE_MAX`]
/// from the point, none when either end is not drawn or it is shorter than [`MOVE_MIN`].
pub fn move_arrow(tail: Px, point: Px, s: f64) -> Option<(Px, Px)> {
    if [tail.0, tail.1, point.0, point.1].iter().any(|v| !v.is_finite()) {
        return None;
    }
    let (dx, dy) = (point.0 - tail.0, point.1 - tail.1);
    let length = dx.hypot(dy);
    if length < MOVE_MIN * s {
        return None;
    }
    let keep = (MOVE_MAX * s / length).min(1.0);
    Some(((point.0 - dx * keep, point.1 - dy * keep), point))
}

/// The shapes of the scatter in painting order: muted dots, the density layer, trails,
/// neighbour lines, analogy arrows, moves, emphasised dots, the hover ring, then the labels
/// (the most important last, on top). `scale` is the drawing's pixels per CSS pixel.
pub fn scatter_shapes(marks: &ScatterMarks<'_>, scale: f64) -> Vec<Shape> {
    let s = scale;
    let (mut shapes, frame_texts) = frame_shapes(marks.frame, marks.palette, s);
    shapes.push(Shape::Clip(marks.frame.area));
    push_dots(&mut shapes, marks, s);
    push_density(&mut shapes, marks, s);
    push_trails(&mut shapes, marks, s);
    push_lines(&mut shapes, marks, s);
    push_discs(&mut shapes, marks, s);
    shapes.push(Shape::Unclip);
    push_labels(&mut shapes, marks, s, frame_texts);
    shapes
}

/// The plain and labelled dots, one shape per colour, so painting costs one path per colour
/// however many points there are.
fn push_dots(shapes: &mut Vec<Shape>, marks: &ScatterMarks<'_>, s: f64) {
    let palette = marks.palette;
    // Dimmed points first, under everything; then plain and labelled dots.
    // Each (style, plain or labelled) finds its group through a table, not a search of the
    // groups: a few operations a point, at 250,000 points a redraw.
    const NONE: u16 = u16::MAX;
    let mut group_of = [[NONE; 2]; 256];
    let mut groups: Vec<((u8, Emphasis), Vec<Px>)> = Vec::new();
    // Every point drawn counts, the emphasised too, so that the dots' size does not change
    // with what is selected, hovered or found.
    let visible = marks.positions.iter().filter(|p| !p.0.is_nan()).count();
    // A large map lays every point in its colour's plain dots, those labelled or emphasised
    // too (their own dot or disc goes over it): that layer then stays the same as labels come
    // and go and words are hovered, and the chart keeps it from one redraw to the next.
    let layered = visible >= LAYER_DOTS;
    for ((p, &e), &style) in marks.positions.iter().zip(marks.emphasis).zip(marks.styles) {
        if p.0.is_nan() || (e > Emphasis::Labelled && !layered) {
            continue;
        }
        let mut join = |e: Emphasis| {
            let slot = &mut group_of[usize::from(style)][usize::from(e == Emphasis::Labelled)];
            if *slot == NONE {
                *slot = groups.len() as u16;
                groups.push(((style, e), Vec::new()));
            }
            // The dimmed plain dots are every visible point, laid below (after the sort).
            if (style, e) != (DIMMED, Emphasis::Plain) {
                groups[usize::from(*slot)].1.push(*p);
            }
        };
        if layered || e == Emphasis::Plain {
            join(Emphasis::Plain);
        }
        if e == Emphasis::Labelled {
            join(Emphasis::Labelled);
        }
    }
    // A stable sort: dimmed first, then plain before labelled, classes in the order met.
    groups.sort_by_key(|((style, e), _)| (*style != DIMMED, *e));
    // When a search dims points, every point is laid dimmed first, the others over their own
    // dimmed dot (which a plain dot, or an emphasised one's disc, hides all but a few levels
    // of): the layer is then the same for every search and every hover on a still camera,
    // and the chart keeps its pixels from one redraw to the next (`wasm::chart::paint`'s
    // underlay), where the dimmed points alone changed.
    if let Some(((DIMMED, Emphasis::Plain), dimmed)) = groups.first_mut() {
        dimmed.reserve_exact(visible);
        dimmed.extend(marks.positions.iter().filter(|p| !p.0.is_nan()));
    }
    let plain_radius = dot_radius(visible, &marks.frame.area, s);
    for ((style, e), centres) in groups {
        let (fill, radius) = match e {
            Emphasis::Plain => (palette.style(style, palette.point).alpha_times(0.75), plain_radius),
            _ => (palette.style(style, palette.labelled_point).alpha_times(0.95), DOT * s),
        };
        shapes.push(Shape::Dots { centres, radius, fill, crowd: visible });
    }
}

/// The density layer over the dots: a quarter of a million dots pile up into one grey
/// shape, and only shading laid over them, with its lines, shows where they crowd.
fn push_density(shapes: &mut Vec<Shape>, marks: &ScatterMarks<'_>, s: f64) {
    let palette = marks.palette;
    if let Some((field, place)) = &marks.density {
        // Each band a little darker than the one around it; the lines a touch stronger.
        let bands = (1..=field.levels.len()).map(|k| palette.trail.alpha(0.07 * k as f64)).collect();
        shapes.push(Shape::Density {
            field: Rc::clone(field),
            place: *place,
            bands,
            line: palette.trail.alpha_times(0.55),
            width: s,
        });
    }
}

/// The trails, in `TRAIL_SHADES` paths, oldest segments faintest.
fn push_trails(shapes: &mut Vec<Shape>, marks: &ScatterMarks<'_>, s: f64) {
    let palette = marks.palette;
    for shade in 0..TRAIL_SHADES {
        let segments: Vec<(Px, Px)> = (marks.trails.iter())
            .flat_map(|trail| {
                let n = trail.len().saturating_sub(1);
                trail
                    .windows(2)
                    .enumerate()
                    .filter(move |(j, _)| trail_shade(*j, n) == shade)
                    .map(|(_, w)| (w[0], w[1]))
            })
            .collect();
        if !segments.is_empty() {
            let alpha = 0.1 + 0.8 * (shade + 1) as f64 / TRAIL_SHADES as f64;
            shapes.push(Shape::Segments {
                segments,
                stroke: palette.trail.alpha_times(alpha),
                width: TRAIL * s,
            });
        }
    }
}

/// The lines between points: to the selected word's neighbours, the analogy arrows and the
/// moves.
fn push_lines(shapes: &mut Vec<Shape>, marks: &ScatterMarks<'_>, s: f64) {
    let at = |i: usize| marks.positions[i];
    let palette = marks.palette;
    let rim = EMPHASISED_DOT * s + s;
    // Lines to the selected word's neighbours; none without neighbours, so that a selection
    // alone leaves the whole map to the raster (see `plot::paint`).
    if let Some(selected) = marks.selected.filter(|_| !marks.neighbours.is_empty()) {
        let segments = marks
            .neighbours
            .iter()
            .map(|&n| shorten(at(selected), at(n), SELECTED_DOT * s + s, rim))
            .collect();
        shapes.push(Shape::Segments { segments, stroke: palette.accent.alpha_times(0.55), width: LINE * s });
    }
    for &[from, to] in marks.arrows {
        let (start, tip) = shorten(at(from), at(to), rim, rim);
        // The shaft stops inside the head, so its round cap does not blunt the tip.
        let (_, shaft_end) = shorten(start, tip, 0.0, ARROW_HEAD * 0.5 * s);
        let colour = palette.arrow.alpha_times(0.85);
        shapes.push(Shape::Segments { segments: vec![(start, shaft_end)], stroke: colour, width: ARROW * s });
        let corners = arrow_head(start, tip, ARROW_HEAD * s, ARROW_HEAD * 0.7 * s).to_vec();
        shapes.push(Shape::Polygon { corners, fill: colour });
    }
    // Moves, thinner than the analogy arrows and in the trails' colour (both say where words
    // went), their heads at the dot's rim; the labels' backdrops go over them.
    if !marks.moves.is_empty() {
        let colour = palette.trail.alpha_times(0.9);
        let mut shafts = Vec::new();
        let mut heads = Vec::new();
        for &(start, point) in marks.moves {
            let (start, tip) = shorten(start, point, 0.0, DOT * s);
            let length = (tip.0 - start.0).hypot(tip.1 - start.1);
            let head = (MOVE_HEAD * s).min(0.6 * length);
            let (_, shaft_end) = shorten(start, tip, 0.0, head * 0.5);
            shafts.push((start, shaft_end));
            let corners = arrow_head(start, tip, head, head * 0.8).to_vec();
            heads.push(Shape::Polygon { corners, fill: colour });
        }
        // The shafts in one path, then the heads over their ends.
        shapes.push(Shape::Segments { segments: shafts, stroke: colour, width: MOVE_WIDTH * s });
        shapes.extend(heads);
    }
}

/// A filled circle outlined in the background's colour, `s` wide.
fn disc(centre: Px, radius: f64, fill: Paint, palette: &Palette, s: f64) -> Shape {
    Shape::Disc { centre, radius, fill, outline: palette.background, width: s }
}

/// The emphasised points' discs, the selected one's, and the hovered one's with its ring.
fn push_discs(shapes: &mut Vec<Shape>, marks: &ScatterMarks<'_>, s: f64) {
    let at = |i: usize| marks.positions[i];
    let palette = marks.palette;
    let disc = |centre: Px, radius: f64, fill: Paint| disc(centre, radius, fill, palette, s);
    for (i, e) in marks.emphasis.iter().enumerate() {
        match e {
            Emphasis::Marked => {
                shapes.push(disc(at(i), EMPHASISED_DOT * s, palette.accent.alpha_times(0.85)))
            }
            Emphasis::Arrow => shapes.push(disc(at(i), EMPHASISED_DOT * s, palette.arrow)),
            _ => {}
        }
    }
    if let Some(selected) = marks.selected {
        shapes.push(disc(at(selected), SELECTED_DOT * s, palette.accent));
    }
    if let Some(hovered) = marks.hovered {
        if Some(hovered) != marks.selected {
            shapes.push(disc(at(hovered), EMPHASISED_DOT * s, palette.accent));
        }
        let ring = HOVER_RING * s;
        shapes.push(Shape::Ring {
            centre: at(hovered),
            radius: ring,
            stroke: palette.accent.alpha_times(0.9),
            width: 1.5 * s,
        });
    }
}

/// The labels over everything: leader lines to those placed far from their point, the
/// backdrops, the frame's texts, the words' labels, the cluster names and the caption.
fn push_labels(shapes: &mut Vec<Shape>, marks: &ScatterMarks<'_>, s: f64, frame_texts: Vec<Shape>) {
    let at = |i: usize| marks.positions[i];
    let palette = marks.palette;
    let disc = |centre: Px, radius: f64, fill: Paint| disc(centre, radius, fill, palette, s);
    // A label that must be shown and found no room beside its point stands farther out
    // (`geometry::place_labels`): a thin line leads to it from its dot.
    let reach = (EMPHASISED_DOT + LABEL_GAP) * s;
    let leaders: Vec<(Px, Px)> = (marks.labels.iter())
        .filter_map(|&(point, r)| {
            let p = at(point);
            let near = (p.0.clamp(r.left, r.right), p.1.clamp(r.top, r.bottom));
            let far = (near.0 - p.0).hypot(near.1 - p.1) > 1.5 * reach;
            far.then(|| shorten(p, near, EMPHASISED_DOT * s, 0.0))
        })
        .collect();
    if !leaders.is_empty() {
        shapes.push(Shape::Segments { segments: leaders, stroke: palette.text.alpha_times(0.5), width: s });
    }

    let pad = LABEL_BACKDROP * s;
    let rects = (marks.labels.iter().map(|(_, r)| r))
        .chain(marks.names.iter().map(|name| &name.rect))
        .map(|r| Rect { left: r.left - pad, top: r.top, right: r.right + pad, bottom: r.bottom })
        .collect();
    shapes.push(Shape::Rects { rects, fill: palette.background.alpha(0.72) });
    // The frame's texts lie outside the plotting area, where only a label that must be shown
    // can reach: it goes over them.
    shapes.extend(frame_texts);
    for (&(point, rect), text) in marks.labels.iter().zip(marks.texts).rev() {
        let e = marks.emphasis[point];
        let fill = match e {
            Emphasis::Strong | Emphasis::Marked => palette.accent,
            Emphasis::Arrow => palette.arrow,
            Emphasis::Plain | Emphasis::Labelled => palette.text,
        };
        shapes.push(Shape::Label {
            point,
            at: (rect.left, (rect.top + rect.bottom) / 2.0),
            text: text.clone(),
            weight: e.font_weight(),
            size: LABEL_FONT * s,
            fill,
        });
    }
    // Cluster names over the words' labels: a swatch of the cluster's colour, then the name
    // in the text colour, bold and a size larger.
    for NameMark { text, rect, style } in marks.names {
        let middle = (rect.top + rect.bottom) / 2.0;
        let fill = palette.style(*style, palette.point);
        shapes.push(disc((rect.left + EMPHASISED_DOT * s, middle), EMPHASISED_DOT * s, fill));
        shapes.push(Shape::Label {
            point: NO_POINT,
            at: (rect.left + NAME_SWATCH * s, middle),
            text: text.clone(),
            weight: 700,
            size: CLUSTER_FONT * s,
            fill: palette.text,
        });
    }
    if let Some(text) = marks.caption {
        let at = (marks.frame.area.left + 8.0 * s, marks.frame.area.top + 10.0 * s);
        // Its width guessed from its length: the shapes are made before anything is measured.
        let width = 0.62 * LABEL_FONT * s * text.chars().count() as f64;
        let half = LABEL_FONT * s * 0.7;
        let rect =
            Rect { left: at.0 - pad, top: at.1 - half, right: at.0 + width + pad, bottom: at.1 + half };
        shapes.push(Shape::Rects { rects: vec![rect], fill: palette.background.alpha(0.85) });
        shapes.push(Shape::Label {
            point: NO_POINT,
            at,
            text: text.to_string(),
            weight: 600,
            size: LABEL_FONT * s,
            fill: palette.trail,
        });
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::plot) const AREA: Rect = Rect { left: 10.0, top: 10.0, right: 200.0, bottom: 100.0 };

    /// A frame around `AREA` in a 220 × 130 drawing, two ticks on each axis.
    pub(in crate::plot) fn frame() -> Frame {
        Frame {
            outer: Rect { left: 2.0, top: 2.0, right: 218.0, bottom: 128.0 },
            area: AREA,
            x_ticks: vec![(10.4, "0".into()), (105.0, "<0.5>".into())],
            y_ticks: vec![(99.0, "-1".into()), (54.5, "1".into())],
            x_title: "PC1".into(),
            y_title: "PC2".into(),
        }
    }

    pub(in crate::plot) fn shapes(
        selected: Option<usize>,
        neighbours: &[usize],
        arrows: &[[usize; 2]],
    ) -> Vec<Shape> {
        shapes_with_trails(selected, neighbours, arrows, &[])
    }

    fn shapes_with_trails(
        selected: Option<usize>,
        neighbours: &[usize],
        arrows: &[[usize; 2]],
        trails: &[Vec<Px>],
    ) -> Vec<Shape> {
        shapes_with_moves(selected, neighbours, arrows, trails, &[])
    }

    fn shapes_with_moves(
        selected: Option<usize>,
        neighbours: &[usize],
        arrows: &[[usize; 2]],
        trails: &[Vec<Px>],
        moves: &[(Px, Px)],
    ) -> Vec<Shape> {
        let positions = [(20.0, 20.0), (50.0, 50.0), (90.0, 30.0), (f64::NAN, f64::NAN)];
        let emphasis = [Emphasis::Strong, Emphasis::Marked, Emphasis::Labelled, Emphasis::Plain];
        let labels = [(0, Rect { left: 27.0, top: 14.0, right: 60.0, bottom: 26.0 })];
        let texts = ["<king>".to_string(), "b".into(), "c".into(), "d".into()];
        let frame = frame();
        let marks = ScatterMarks {
            frame: &frame,
            positions: &positions,
            emphasis: &emphasis,
            selected,
            hovered: None,
            neighbours,
            arrows,
            moves,
            trails,
            caption: Some("epoch 2, <1.2 M> tokens"),
            labels: &labels,
            texts: &texts,
            styles: &[PLAIN; 4],
            palette: &Palette::LIGHT,
            density: None,
            names: &[],
        };
        scatter_shapes(&marks, 1.0)
    }

    #[test]
    fn dots_outside_the_area_are_left_out_and_marks_come_in_painting_order() {
        let list = shapes(Some(0), &[1], &[[1, 2]]);
        let kinds: Vec<&str> = list
            .iter()
            .map(|s| match s {
                Shape::Background(_) => "background",
                Shape::Text { .. } => "text",
                Shape::Clip(_) => "clip",
                Shape::Unclip => "unclip",
                Shape::Dots { .. } => "dots",
                Shape::Disc { .. } => "disc",
                Shape::Ring { .. } => "ring",
                Shape::Segments { .. } => "segments",
                Shape::Polygon { .. } => "polygon",
                Shape::Rects { .. } => "rects",
                Shape::Label { .. } => "label",
                Shape::Density { .. } => "density",
            })
            .collect();
        // Labelled dots (point 2); the plain point 3 is outside the area and drawn nowhere.
        assert_eq!(
            kinds,
            [
                "background",
                "rects",
                "rects",
                "clip",
                "dots",
                "segments",
                "segments",
                "polygon",
                "disc",
                "disc",
                "unclip",
                "rects",
                "text",
                "text",
                "text",
                "text",
                "text",
                "text",
                "label",
                "rects",
                "label"
            ]
        );
        let Shape::Dots { centres, .. } = &list[4] else { unreachable!() };
        assert_eq!(centres, &[(90.0, 30.0)]);
    }

    /// The dot layers of a map of `positions` around `AREA` with nothing marked but the
    /// `hovered` point, in the order they are painted.
    fn dot_layers(
        positions: &[Px],
        emphasis: &[Emphasis],
        styles: &[u8],
        hovered: Option<usize>,
    ) -> Vec<Shape> {
        let texts = vec![String::new(); positions.len()];
        let marks = ScatterMarks {
            frame: &frame(),
            positions,
            emphasis,
            selected: None,
            hovered,
            neighbours: &[],
            arrows: &[],
            moves: &[],
            trails: &[],
            caption: None,
            labels: &[],
            texts: &texts,
            styles,
            palette: &Palette::LIGHT,
            density: None,
            names: &[],
        };
        scatter_shapes(&marks, 1.0).into_iter().filter(|shape| matches!(shape, Shape::Dots { .. })).collect()
    }

    #[test]
    fn a_large_map_lays_every_point_in_its_colour_first_whatever_is_labelled_or_hovered() {
        let n = LAYER_DOTS;
        let positions: Vec<Px> =
            (0..n).map(|i| (10.5 + (i % 190) as f64, 10.5 + (i / 190 % 90) as f64)).collect();
        let styles: Vec<u8> = (0..n).map(|i| if i % 3 == 0 { 1 } else { PLAIN }).collect();
        let dots = |emphasis: &[Emphasis], hovered| dot_layers(&positions, emphasis, &styles, hovered);
        let mut plain = vec![Emphasis::Plain; n];
        let mut labelled = plain.clone();
        for i in [0, 5, 7, 300] {
            labelled[i] = Emphasis::Labelled;
        }
        labelled[9] = Emphasis::Strong;
        let one = dots(&labelled, Some(9));
        plain[12] = Emphasis::Labelled;
        let other = dots(&plain, None);
        // Each colour's plain dots hold every point of it, in order, however the map is labelled.
        let counts: Vec<usize> = (one.iter())
            .map(|shape| match shape {
                Shape::Dots { centres, .. } => centres.len(),
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(counts, [n.div_ceil(3), n - n.div_ceil(3), 2, 2]);
        assert_eq!(one[..2], other[..2]);
        // Then the labelled dots over them.
        let Shape::Dots { centres, .. } = &one[3] else { unreachable!() };
        assert_eq!(centres, &[positions[5], positions[7]]);
        // A map below LAYER_DOTS leaves a labelled point out of the plain dots.
        let Shape::Dots { centres, .. } = &shapes(None, &[], &[])[4] else { unreachable!() };
        assert_eq!(centres, &[(90.0, 30.0)]);
    }

    #[test]
    fn a_search_lays_every_point_dimmed_first_the_same_for_any_search() {
        let positions = [(20.0, 20.0), (50.0, 50.0), (f64::NAN, f64::NAN), (90.0, 30.0), (60.0, 80.0)];
        let emphasis =
            [Emphasis::Plain, Emphasis::Plain, Emphasis::Plain, Emphasis::Labelled, Emphasis::Plain];
        let dots_of =
            |styles: &[u8], emphasis: &[Emphasis], hovered| dot_layers(&positions, emphasis, styles, hovered);
        let dots = |styles: &[u8]| -> Vec<(Vec<Px>, Paint)> {
            (dots_of(styles, &emphasis, None).into_iter())
                .filter_map(|shape| match shape {
                    Shape::Dots { centres, fill, .. } => Some((centres, fill)),
                    _ => None,
                })
                .collect()
        };
        let every = vec![(20.0, 20.0), (50.0, 50.0), (90.0, 30.0), (60.0, 80.0)];
        let dimmed = Palette::LIGHT.dimmed.alpha_times(0.75);
        // Two searches: the first layer is every point drawn, dimmed, whichever matched.
        let one = dots(&[DIMMED, PLAIN, DIMMED, DIMMED, PLAIN]);
        let other = dots(&[PLAIN, DIMMED, PLAIN, DIMMED, DIMMED]);
        assert_eq!(one[0], (every.clone(), dimmed));
        assert_eq!(other[0], one[0]);
        // Then the matches in their colour; a dimmed labelled point keeps its own dot.
        let rest = |layers: &[(Vec<Px>, Paint)]| -> Vec<Px> {
            layers[1..].iter().flat_map(|l| l.0.clone()).collect()
        };
        assert_eq!(rest(&one), [(90.0, 30.0), (50.0, 50.0), (60.0, 80.0)]);
        assert_eq!(rest(&other), [(90.0, 30.0), (20.0, 20.0)]);
        // A found word drawn emphasised and a hovered one (each a disc over the dots) leave
        // the layer as it was, its dots' size too.
        let styles = [DIMMED, PLAIN, DIMMED, DIMMED, PLAIN];
        let marked =
            [Emphasis::Plain, Emphasis::Marked, Emphasis::Plain, Emphasis::Labelled, Emphasis::Strong];
        assert_eq!(dots_of(&styles, &marked, Some(4))[0], dots_of(&styles, &emphasis, None)[0]);
        // No search: no dimmed layer.
        let plain = dots(&[PLAIN; 5]);
        assert!(plain.iter().all(|(_, fill)| *fill != dimmed));
        assert_eq!(plain.iter().map(|l| l.0.len()).sum::<usize>(), every.len());
    }

    #[test]
    fn crowded_dots_shrink_to_cover_the_area_about_once() {
        // 880 × 540 pixels: 24,000 dots of radius 2.5 cover it once (π · 2.5² · 24,000 ≈ 471,000).
        let area = Rect { left: 60.0, top: 14.0, right: 940.0, bottom: 554.0 };
        let check = |visible: usize, s: f64, expected: f64| {
            let radius = dot_radius(visible, &area, s);
            assert!((radius - expected).abs() < 0.01, "{visible} dots at {s}x: {radius}, not {expected}");
        };
        check(0, 1.0, 2.5);
        check(10_000, 1.0, 2.5);
        // 475,200 / (π · 50,000) = 3.025 → radius 1.74.
        check(50_000, 1.0, 1.739);
        check(250_000, 1.0, 1.0);
        check(1_000_000, 1.0, 1.0);
        // At 2x the area has 4 times the pixels and the radii are twice as long.
        let doubled = Rect { left: 120.0, top: 28.0, right: 1880.0, bottom: 1108.0 };
        assert!((dot_radius(50_000, &doubled, 2.0) - 3.478).abs() < 0.01);
        assert_eq!(dot_radius(250_000, &doubled, 2.0), 2.0);
    }

    #[test]
    fn trails_fade_with_age_under_the_selection() {
        let trail: Vec<Px> = (0..13).map(|i| (20.0 + 5.0 * f64::from(i), 60.0)).collect();
        let list = shapes_with_trails(Some(0), &[1], &[], &[trail, vec![(1.0, 1.0)]]);
        let trails: Vec<(usize, f64)> = (list.iter())
            .take_while(|s| !matches!(s, Shape::Disc { .. }))
            .filter_map(|s| match s {
                Shape::Segments { segments, stroke, width } if *width == TRAIL => {
                    Some((segments.len(), stroke.alpha))
                }
                _ => None,
            })
            .collect();
        // 12 segments in 6 shades of 2 each, oldest faintest; a trail of one point has none.
        assert_eq!(trails.iter().map(|t| t.0).collect::<Vec<_>>(), [2; TRAIL_SHADES]);
        assert!(trails.windows(2).all(|w| w[0].1 < w[1].1), "{trails:?}");
        // Under the selection's lines (the last segments before the discs).
        let first_trail =
            list.iter().position(|s| matches!(s, Shape::Segments { width, .. } if *width == TRAIL));
        let selection =
            list.iter().position(|s| matches!(s, Shape::Segments { width, .. } if *width == LINE));
        assert!(first_trail < selection);
        // Every segment of a short trail is drawn, in the strongest shade last.
        assert_eq!((0..3).map(|j| trail_shade(j, 3)).collect::<Vec<_>>(), [1, 3, 5]);
    }

    #[test]
    fn a_move_is_cut_short_from_its_point_and_left_out_when_too_short_or_not_drawn() {
        let point = (100.0, 50.0);
        // 30 pixels to the left: drawn as it is.
        assert_eq!(move_arrow((70.0, 50.0), point, 1.0), Some(((70.0, 50.0), point)));
        // 300 pixels up and to the left: cut to MOVE_MAX from the point, in the same direction.
        let (start, tip) = move_arrow((100.0 - 180.0, 50.0 - 240.0), point, 1.0).unwrap();
        assert_eq!(tip, point);
        let (dx, dy) = (point.0 - start.0, point.1 - start.1);
        assert!((dx.hypot(dy) - MOVE_MAX).abs() < 1e-9, "{start:?}");
        assert!((dy / dx - 240.0 / 180.0).abs() < 1e-9);
        // At twice the pixels per CSS pixel, twice as long.
        let (start, _) = move_arrow((100.0 - 300.0, 50.0), point, 2.0).unwrap();
        assert!((point.0 - start.0 - 2.0 * MOVE_MAX).abs() < 1e-9);
        assert_eq!(move_arrow((99.5, 50.0), point, 1.0), None, "too short for a head");
        assert_eq!(move_arrow((70.0, 50.0), (f64::NAN, f64::NAN), 1.0), None, "a point not drawn");
    }

    #[test]
    fn moves_are_arrows_in_the_trail_colour_over_the_analogy_arrows_and_under_the_labels() {
        let moves = [((50.0, 20.0), (90.0, 30.0)), ((40.0, 60.0), (50.0, 50.0))];
        let list = shapes_with_moves(None, &[], &[[1, 2]], &[], &moves);
        let colour = Palette::LIGHT.trail.alpha_times(0.9);
        let heads: Vec<usize> = (0..list.len())
            .filter(|&i| matches!(&list[i], Shape::Polygon { fill, .. } if *fill == colour))
            .collect();
        assert_eq!(heads.len(), 2);
        let shafts = list
            .iter()
            .position(|s| matches!(s, Shape::Segments { width, stroke, .. } if *width == MOVE_WIDTH && *stroke == colour))
            .expect("the shafts");
        let Shape::Segments { segments, .. } = &list[shafts] else { unreachable!() };
        assert_eq!(segments.len(), 2);
        // Each shaft starts at its tail and stops short of its point (the dot, then the head).
        assert_eq!(segments[0].0, (50.0, 20.0));
        assert!(segments[0].1.0 < 90.0 - DOT && segments[0].1.0 > 70.0, "{:?}", segments[0]);
        // Each head's tip touches its dot's rim.
        let Shape::Polygon { corners, .. } = &list[heads[0]] else { unreachable!() };
        let rim = (corners[0].0 - 90.0).hypot(corners[0].1 - 30.0);
        assert!((rim - DOT).abs() < 1e-9, "{rim}");
        let analogy = list.iter().position(|s| matches!(s, Shape::Polygon { fill, .. } if *fill != colour));
        let first_label = list.iter().position(|s| matches!(s, Shape::Label { .. }));
        assert!(analogy < Some(shafts) && shafts < heads[0] && Some(heads[1]) < first_label);
    }
}
