//! The map as a scene: its frame (where plotters would put it), the checked scatter, and
//! the label widths measured with the canvas, placed by `geometry` and turned into shapes.

use std::rc::Rc;

use js_sys::JsString;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::types::RangedCoordf64;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::CanvasRenderingContext2d;

use crate::plot::density::{DensityField, DensityGrid, GridPlacement};
use crate::plot::frame::Frame;
use crate::plot::geometry::{
    DataRange, LabelGeometry, LabelRequest, Px, Rect, Viewport, fit_range, label_order, place_labels,
    tick_labels,
};
use crate::plot::labels::{CELL, PER_CELL, label_candidates};
use crate::plot::scene::{self, Emphasis, NameMark, Palette, ScatterMarks, Shape};
use crate::wasm::glyphs::{Ink, Inks, TextContext};

use super::options::{ScatterOptions, emphasis_of};
use super::{DATA_MARGIN, MARGIN, X_LABEL_AREA, X_TICKS, Y_LABEL_AREA, Y_TICKS, font, js_error, px};

/// The map's frame on a drawing of `size` pixels showing `range`: the plotting area where
/// plotters' `ChartBuilder` puts it with the loss chart's margin and label areas (so the two
/// charts line up), and the ticks plotters would choose, at most `X_TICKS` and `Y_TICKS`.
/// plotters lays it out; the scene draws it, a few shapes that cost far less per redraw than
/// plotters' mesh, and that the SVG export writes as they are.
fn map_frame(size: (f64, f64), range: DataRange, s: f64, x_title: &str, y_title: &str) -> Frame {
    let (width, height) = size;
    let margin = f64::from(px(MARGIN * s));
    let (left, bottom) =
        (margin + f64::from(px(Y_LABEL_AREA * s)), height - margin - f64::from(px(X_LABEL_AREA * s)));
    // A drawing too small for its margins still gets an area (of a pixel or two) to map to.
    let area =
        Rect { left, top: margin, right: (width - margin).max(left + 2.0), bottom: bottom.max(margin + 2.0) };
    let viewport = Viewport { data: range, area };
    let ticks = |(lo, hi): (f64, f64), most: usize| {
        let values: Vec<f64> = RangedCoordf64::from(lo..hi).key_points(most);
        let labels = tick_labels(&values);
        values.into_iter().zip(labels)
    };
    let x_ticks = ticks(range.x, X_TICKS).map(|(x, label)| (viewport.to_pixel(x, range.y.0).0, label));
    let y_ticks = ticks(range.y, Y_TICKS).map(|(y, label)| (viewport.to_pixel(range.x.0, y).1, label));
    Frame {
        outer: Rect { left: margin, top: margin, right: width - margin, bottom: height - margin },
        area,
        x_ticks: x_ticks.collect(),
        y_ticks: y_ticks.collect(),
        x_title: x_title.to_string(),
        y_title: y_title.to_string(),
    }
}

/// A scatter as the page asked for it, checked: drawn on the canvas or written as SVG.
pub(super) struct Scatter<'a> {
    coords: &'a [f32],
    labels: &'a [JsString],
    /// One per point ([`scene::PLAIN`] when the page gave none).
    styles: Vec<u8>,
    options: ScatterOptions,
}

/// What drawing a scatter decided: each point's position (NaN outside the plotting area, so
/// it cannot be hit), the plotting area and range, and the marks to paint.
pub(super) struct Drawn {
    pub(super) points: Vec<Px>,
    pub(super) labelled: Vec<u32>,
    /// The boxes of the labels and then of the cluster names, in drawing pixels.
    pub(super) boxes: Vec<Rect>,
    /// The cluster names drawn.
    pub(super) names: Vec<String>,
    pub(super) area: Rect,
    pub(super) range: DataRange,
    /// The moves drawn: each point's index and its arrow's start and tip, in drawing pixels.
    pub(super) moves: Vec<(u32, Px, Px)>,
    pub(super) shapes: Vec<Shape>,
}

/// Label widths, measured with the canvas once per label and weight and then remembered.
pub(super) struct Measure<'a> {
    context: &'a CanvasRenderingContext2d,
    widths: &'a mut [Vec<f64>; 2],
    /// The ink of each label measured here, for its mask (see `glyphs::Inks`).
    inks: &'a mut Inks,
    labels: &'a [JsString],
    /// The font the context was last set to here: setting one parses the CSS font string,
    /// which costs more than measuring.
    font: Option<String>,
    /// Labels this draw may still measure; past it a label waits for the next draw.
    budget: usize,
    /// Whether the context is aligned as a label's mask is drawn, so a label's ink fits its
    /// mask (see `Chart::labels_aligned`).
    ink_aligned: bool,
    /// Whether a label went unmeasured for want of budget.
    pub(super) deferred: bool,
}

impl<'a> Measure<'a> {
    pub(super) fn new(
        context: &'a CanvasRenderingContext2d,
        widths: &'a mut [Vec<f64>; 2],
        (inks, ink_aligned): (&'a mut Inks, bool),
        labels: &'a [JsString],
        budget: usize,
    ) -> Measure<'a> {
        Measure { context, widths, inks, labels, font: None, budget, ink_aligned, deferred: false }
    }

    /// Sets the context's font unless it is set already.
    fn set_font(&mut self, weight: u16, size: f64) {
        let wanted = font(weight, size);
        if self.font.as_ref() != Some(&wanted) {
            self.context.set_font(&wanted);
            self.font = Some(wanted);
        }
    }

    /// A label's width, or infinity (no room anywhere) when this draw has measured its
    /// share; a label that must be shown is always measured.
    fn width(&mut self, point: usize, weight: u16, size: f64, must: bool) -> Result<f64, JsError> {
        let bold = usize::from(weight >= 600);
        let cached = self.widths[bold][point];
        if !cached.is_nan() {
            return Ok(cached);
        }
        if self.budget == 0 && !must {
            self.deferred = true;
            return Ok(f64::INFINITY);
        }
        self.budget = self.budget.saturating_sub(1);
        self.set_font(weight, size);
        let text_ctx: &TextContext = self.context.unchecked_ref();
        let metrics = text_ctx.measure_js_text(&self.labels[point]).map_err(js_error)?;
        let width = metrics.width();
        self.widths[bold][point] = width;
        if self.ink_aligned {
            self.inks.insert((point, weight, size.to_bits()), Ink::of(&metrics));
        }
        Ok(width)
    }

    /// The width of a text that names no point (a cluster's name), measured each time: a
    /// map has a few.
    fn text(&mut self, text: &str, weight: u16, size: f64) -> f64 {
        self.set_font(weight, size);
        self.context.measure_text(text).map_or(0.0, |m| m.width())
    }
}

/// Whether a drawing copies the labels' text into its shapes (the SVG writes them) or leaves
/// them empty, the canvas painting each from the JS string `set_words` kept: copying a JS
/// string into Rust costs a call across the boundary, for each label of every redraw.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Texts {
    Kept,
    Copied,
}

/// Where `grid`'s nodes fall on the drawing of `viewport`.
fn grid_placement(grid: &DensityGrid, viewport: &Viewport) -> GridPlacement {
    let origin = viewport.to_pixel(grid.x.0, grid.y.0);
    let far = viewport.to_pixel(grid.x.1, grid.y.1);
    let step = ((far.0 - origin.0) / (grid.columns - 1) as f64, (far.1 - origin.1) / (grid.rows - 1) as f64);
    GridPlacement { origin, step }
}

impl<'a> Scatter<'a> {
    /// The cluster names to draw, each as `(text, box)`: centred on its place inside the
    /// plotting area, in the order given (the largest cluster first), a name that would
    /// overlap one placed before left out.
    fn place_names(
        &self,
        viewport: &Viewport,
        area: &Rect,
        s: f64,
        measure: &mut Measure<'_>,
    ) -> Vec<NameMark> {
        let size = scene::CLUSTER_FONT * s;
        let mut placed: Vec<NameMark> = Vec::new();
        for name in &self.options.cluster_names {
            let (x, y) = viewport.to_pixel(name.x, name.y);
            let width = scene::NAME_SWATCH * s + measure.text(&name.text, 700, size);
            let half = size * 0.65;
            let rect =
                Rect { left: x - width / 2.0, top: y - half, right: x + width / 2.0, bottom: y + half };
            if rect.is_inside(area) && !placed.iter().any(|p| p.rect.overlaps(&rect)) {
                placed.push(NameMark { text: name.text.clone(), rect, style: name.style });
            }
        }
        placed
    }

    pub(super) fn new(
        coords: &'a [f32],
        labels: &'a [JsString],
        styles: &[u8],
        options: JsValue,
    ) -> Result<Scatter<'a>, JsError> {
        let n_points = labels.len();
        if coords.len() != 2 * n_points {
            return Err(JsError::new(&format!(
                "the scatter needs 2 coordinates per word: got {} coordinates for {n_points} words",
                coords.len()
            )));
        }
        if !styles.is_empty() && styles.len() != n_points {
            return Err(JsError::new(&format!(
                "the scatter needs no styles or one per word: got {} styles for {n_points} words",
                styles.len()
            )));
        }
        if let Some(i) = coords.iter().position(|v| !v.is_finite()) {
            return Err(JsError::new(&format!(
                "coordinate {} of point {} (\"{}\") is not a finite number",
                i % 2,
                i / 2,
                String::from(&labels[i / 2])
            )));
        }
        let options = ScatterOptions::from_js(options, n_points)?;
        let styles = if styles.is_empty() { vec![scene::PLAIN; n_points] } else { styles.to_vec() };
        Ok(Scatter { coords, labels, styles, options })
    }

    /// The same map with nothing marked or labelled: its points, frame and density alone.
    pub(super) fn unmarked(self) -> Scatter<'a> {
        let options = ScatterOptions {
            x_label: self.options.x_label,
            y_label: self.options.y_label,
            fixed_range: self.options.fixed_range,
            ..ScatterOptions::default()
        };
        Scatter { options, ..self }
    }

    /// Whether the page's camera is moving (the `moving` option).
    pub(super) fn moving(&self) -> bool {
        self.options.moving
    }

    /// The labels asked for, in the order they are placed, and whether each point must be
    /// labelled.
    fn label_requests(&self, points: &[Px], area: &Rect, s: f64) -> (Vec<LabelRequest>, Vec<bool>) {
        let options = &self.options;
        // The words asked for first (selected, found, analogy words…), then as many of the
        // most frequent visible ones as a grid of cells offers (`plot::labels`): at 250,000
        // points, offering every one would cost more than drawing them.
        let first = options.first_labels();
        // As a flag a point (the options' indices are checked against the points): looked up
        // for every point a cell offers, where hashing cost more than the lookups' worth.
        let flags = |indices: &[usize]| {
            let mut flags = vec![false; points.len()];
            indices.iter().for_each(|&i| flags[i] = true);
            flags
        };
        let must_label = flags(&options.must_label());
        let first_set = flags(&first);
        let cell = (CELL.0 * scene::LABEL_FONT * s, CELL.1 * scene::LABEL_FONT * s);
        let dimmed = |i: usize| self.styles[i] == scene::DIMMED;
        let frequent = label_candidates(points, options.label_count as usize, area, cell, PER_CELL, |i| {
            first_set[i] || dimmed(i)
        });
        let order = label_order(self.labels.len(), &first, frequent);
        let mut requests = Vec::with_capacity(order.len());
        for (point, _) in order {
            let must = must_label[point];
            if points[point].0.is_nan() || (!must && dimmed(point)) {
                continue;
            }
            requests.push(LabelRequest { point, must });
        }
        (requests, must_label)
    }

    /// The moves' arrows that are drawn, each `(point, start, tip)`.
    fn moves(&self, points: &[Px], viewport: &Viewport, s: f64) -> Vec<(u32, Px, Px)> {
        (self.options.moves.iter())
            .filter_map(|m| {
                let i = m.point as usize;
                let (x, y) = (f64::from(self.coords[2 * i]), f64::from(self.coords[2 * i + 1]));
                let tail = viewport.to_pixel(x - m.dx, y - m.dy);
                scene::move_arrow(tail, points[i], s).map(|(start, tip)| (m.point, start, tip))
            })
            .collect()
    }

    /// Lays out the frame and the marks on a drawing of `size` (width, height) pixels, at
    /// `s` drawing pixels per CSS pixel.
    pub(super) fn draw(
        &self,
        size: (f64, f64),
        s: f64,
        palette: &Palette,
        measure: &mut Measure<'_>,
        texts_wanted: Texts,
        density: Option<&Rc<DensityField>>,
    ) -> Result<Drawn, JsError> {
        let options = &self.options;
        let range = match options.fixed_range {
            Some([x0, x1, y0, y1]) => DataRange { x: (x0, x1), y: (y0, y1) },
            None => fit_range(self.coords, DATA_MARGIN),
        };
        let frame = map_frame(size, range, s, &options.x_label, &options.y_label);
        let area = frame.area;
        let viewport = Viewport { data: range, area };
        // Points outside a fixed range are clipped from the drawing and cannot be hit.
        let inside = |p: &Px| p.0 >= area.left && p.0 < area.right && p.1 >= area.top && p.1 < area.bottom;
        let points: Vec<Px> = (self.coords.chunks_exact(2))
            .map(|xy| viewport.to_pixel(f64::from(xy[0]), f64::from(xy[1])))
            .map(|p| if inside(&p) { p } else { (f64::NAN, f64::NAN) })
            .collect();

        let mut emphasis = emphasis_of(points.len(), options);
        let (requests, must_label) = self.label_requests(&points, &area, s);
        let geometry = LabelGeometry {
            height: scene::LABEL_FONT * s,
            gap: scene::LABEL_GAP * s,
            dot_radius: scene::EMPHASISED_DOT * s,
        };
        let names = self.place_names(&viewport, &area, s, measure);
        let reserved: Vec<Rect> = names.iter().map(|name| name.rect).collect();
        let width = |point: usize| {
            measure.width(point, emphasis[point].font_weight(), scene::LABEL_FONT * s, must_label[point])
        };
        let boxes = place_labels(&points, &requests, width, &geometry, &area, &reserved)?;
        let placed: Vec<(usize, Rect)> =
            requests.iter().zip(boxes).filter_map(|(r, b)| Some((r.point, b?))).collect();
        for (point, _) in &placed {
            emphasis[*point] = emphasis[*point].max(Emphasis::Labelled);
        }
        let texts: Vec<String> = match texts_wanted {
            Texts::Copied => placed.iter().map(|&(point, _)| String::from(&self.labels[point])).collect(),
            Texts::Kept => vec![String::new(); placed.len()],
        };
        let as_usize = |i: &u32| *i as usize;
        let neighbours: Vec<usize> = options.neighbours.iter().map(as_usize).collect();
        let arrows: Vec<[usize; 2]> =
            options.arrows.iter().map(|[a, b]| [*a as usize, *b as usize]).collect();
        let moves = self.moves(&points, &viewport, s);
        let move_marks: Vec<(Px, Px)> = moves.iter().map(|&(_, start, tip)| (start, tip)).collect();
        let trails: Vec<Vec<Px>> = (options.trails.iter())
            .map(|t| t.chunks_exact(2).map(|xy| viewport.to_pixel(xy[0], xy[1])).collect())
            .collect();
        let marks = ScatterMarks {
            frame: &frame,
            positions: &points,
            emphasis: &emphasis,
            selected: options.selected.as_ref().map(as_usize),
            hovered: options.hovered.as_ref().map(as_usize),
            neighbours: &neighbours,
            arrows: &arrows,
            moves: &move_marks,
            trails: &trails,
            caption: options.caption.as_deref(),
            labels: &placed,
            texts: &texts,
            styles: &self.styles,
            palette,
            density: density.map(|field| (Rc::clone(field), grid_placement(&field.grid, &viewport))),
            names: &names,
        };
        let shapes = scene::scatter_shapes(&marks, s);
        let labelled = placed.iter().map(|&(point, _)| point as u32).collect();
        let boxes = placed.iter().map(|&(_, b)| b).chain(names.iter().map(|name| name.rect)).collect();
        let names = names.into_iter().map(|name| name.text).collect();
        Ok(Drawn { points, labelled, boxes, names, area, range, moves, shapes })
    }
}
