//! `Chart`, the page's drawing handle: the PCA scatter of the vectors and the loss chart,
//! drawn on a canvas with plotters (axes, ticks, the loss lines) and the canvas context
//! (the scatter's dots, lines, arrows and labels).
//!
//! The geometry (data→pixel mapping, hit testing, label placement) is in `layout`, free of
//! the canvas; this module only turns its answers into strokes.
//!
//! The canvas's backing store is its CSS size × devicePixelRatio, so the drawing is sharp
//! on HiDPI screens; every size below is given in CSS pixels and scaled by that ratio.
//! plotters measures text through `window().document()`, so a `Chart` lives on the page's
//! main thread, never in a worker.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use serde::Deserialize;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::layout::{
    DataRange, LabelGeometry, LabelRequest, Px, Rect, Viewport, arrow_head, fit_axis, fit_range, label_order,
    nearest, place_labels, shorten, truncate_label,
};

/// Labels longer than this many characters end in an ellipsis.
const MAX_LABEL_CHARS: usize = 24;
/// The space around the data, as a fraction of its span on each side.
const DATA_MARGIN: f64 = 0.05;

// Sizes in CSS pixels.
const MARGIN: f64 = 14.0;
const X_LABEL_AREA: f64 = 42.0;
const Y_LABEL_AREA: f64 = 58.0;
const TICK_FONT: f64 = 11.0;
const TITLE_FONT: f64 = 12.0;
const LABEL_FONT: f64 = 12.0;
const LABEL_GAP: f64 = 2.0;
const LABEL_HALO: f64 = 3.0;
const DOT: f64 = 2.5;
const EMPHASISED_DOT: f64 = 4.0;
const SELECTED_DOT: f64 = 5.0;
const HOVER_RING: f64 = 7.5;
const LINE: f64 = 1.25;
const ARROW: f64 = 2.0;
const ARROW_HEAD: f64 = 9.0;

const FONT_FAMILY: &str = "sans-serif";

// A light background, muted points, one accent for the selection, its neighbours, the
// hovered and highlighted points, and a second one for analogy arrows.
const BACKGROUND: RGBColor = RGBColor(0xff, 0xff, 0xff);
const AXIS: RGBColor = RGBColor(0x6b, 0x72, 0x80);
const GRID: RGBColor = RGBColor(0xee, 0xef, 0xf1);
const TEXT: RGBColor = RGBColor(0x37, 0x41, 0x51);
const POINT: RGBColor = RGBColor(0x94, 0xa3, 0xb8);
const LABELLED_POINT: RGBColor = RGBColor(0x47, 0x55, 0x69);
const ACCENT: RGBColor = RGBColor(0xd9, 0x48, 0x0f);
const ARROW_COLOUR: RGBColor = RGBColor(0x5f, 0x3d, 0xc4);
const LOSS_SAMPLES: RGBColor = RGBColor(0x94, 0xa3, 0xb8);

/// A CSS colour string for the canvas context.
fn css(colour: RGBColor, alpha: f64) -> String {
    let RGBColor(r, g, b) = colour;
    format!("rgba({r},{g},{b},{alpha})")
}

/// Turns a plotters or canvas failure into the error the page sees.
fn drawing_error(error: impl std::fmt::Display) -> JsError {
    JsError::new(&format!("could not draw the chart: {error}"))
}

/// The scatter's options, as the page passes them (see `Chart::draw_scatter`).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct ScatterOptions {
    x_label: String,
    y_label: String,
    label_count: u32,
    hovered: Option<u32>,
    selected: Option<u32>,
    neighbours: Vec<u32>,
    arrows: Vec<[u32; 2]>,
    highlighted: Vec<u32>,
    fixed_range: Option<[f64; 4]>,
}

impl ScatterOptions {
    /// The option names as JS spells them. serde-wasm-bindgen reads only the fields it knows
    /// (so `deny_unknown_fields` has no effect); `from_js` checks the names itself, so that a
    /// misspelt option fails instead of being ignored.
    const NAMES: [&str; 9] = [
        "xLabel",
        "yLabel",
        "labelCount",
        "hovered",
        "selected",
        "neighbours",
        "arrows",
        "highlighted",
        "fixedRange",
    ];

    /// Reads the options from JS (`undefined` or `null` means all defaults) and checks every
    /// point index is below `n_points`.
    fn from_js(value: JsValue, n_points: usize) -> Result<Self, JsError> {
        let options: ScatterOptions = if value.is_undefined() || value.is_null() {
            ScatterOptions::default()
        } else {
            if value.is_object() {
                let names = js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>());
                if let Some(name) =
                    names.iter().filter_map(|n| n.as_string()).find(|n| !Self::NAMES.contains(&n.as_str()))
                {
                    return Err(JsError::new(&format!(
                        "unknown scatter option `{name}`, expected one of {}",
                        Self::NAMES.join(", ")
                    )));
                }
            }
            serde_wasm_bindgen::from_value(value)
                .map_err(|e| JsError::new(&format!("invalid scatter options: {e}")))?
        };
        let indices = (options.hovered.iter().chain(&options.selected))
            .chain(&options.neighbours)
            .chain(options.arrows.iter().flatten())
            .chain(&options.highlighted);
        if let Some(bad) = indices.copied().find(|&i| i as usize >= n_points) {
            return Err(JsError::new(&format!(
                "point index {bad} in the scatter options is out of range for {n_points} points"
            )));
        }
        if let Some([x0, x1, y0, y1]) = options.fixed_range {
            let valid = |lo: f64, hi: f64| lo.is_finite() && hi.is_finite() && lo < hi;
            if !valid(x0, x1) || !valid(y0, y1) {
                return Err(JsError::new(&format!(
                    "fixedRange must be [xmin, xmax, ymin, ymax] with finite min < max, got {:?}",
                    [x0, x1, y0, y1]
                )));
            }
        }
        Ok(options)
    }

    /// Indices of the points that are always labelled, most important first.
    fn must_label(&self) -> Vec<usize> {
        let arrow_ends = self.arrows.iter().flatten();
        (self.selected.iter().chain(&self.hovered))
            .chain(arrow_ends)
            .chain(&self.neighbours)
            .chain(&self.highlighted)
            .map(|&i| i as usize)
            .collect()
    }
}

/// How a point and its label stand out, from plain to strongest.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Emphasis {
    Plain,
    Labelled,
    Marked,
    Arrow,
    Strong,
}

/// A chart drawn on one canvas; keeps the last scatter's pixel positions for `hit`.
#[wasm_bindgen]
pub struct Chart {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
    /// Backing-store pixels per CSS pixel, from the last `resize`.
    scale: f64,
    /// The last scatter's points in backing-store pixels; NaN for points outside the plot.
    points: Vec<Px>,
    /// The `scale` the last scatter was drawn with.
    points_scale: f64,
}

#[wasm_bindgen]
impl Chart {
    /// Takes the canvas; sizes its backing store to its CSS size × devicePixelRatio so
    /// drawing is sharp on HiDPI.
    ///
    /// **Unchecked precondition:** the canvas's size comes from CSS (e.g. `width: 100%;
    /// height: 480px`). A canvas sized only by its `width`/`height` attributes would grow
    /// with each `resize`, since those are what this sets.
    #[wasm_bindgen(constructor)]
    pub fn new(canvas: HtmlCanvasElement) -> Result<Chart, JsError> {
        let no_context = || JsError::new("the canvas has no 2D context (is it used for WebGL?)");
        let context = canvas
            .get_context("2d")
            .map_err(|_| no_context())?
            .ok_or_else(no_context)?
            .dyn_into::<CanvasRenderingContext2d>()
            .map_err(|_| no_context())?;
        let mut chart = Chart { canvas, context, scale: 1.0, points: Vec::new(), points_scale: 1.0 };
        chart.resize();
        Ok(chart)
    }

    /// Re-reads the CSS size and devicePixelRatio (call on resize); the next draw uses them.
    /// A canvas that is not laid out (`display: none`) keeps its current backing store.
    pub fn resize(&mut self) {
        let ratio = web_sys::window()
            .map(|window| window.device_pixel_ratio())
            .filter(|ratio| ratio.is_finite() && *ratio > 0.0)
            .unwrap_or(1.0);
        let rect = self.canvas.get_bounding_client_rect();
        if rect.width() <= 0.0 || rect.height() <= 0.0 {
            return;
        }
        let width = (rect.width() * ratio).round().max(1.0) as u32;
        let height = (rect.height() * ratio).round().max(1.0) as u32;
        // Setting either size clears the canvas, so only do it on a change.
        if self.canvas.width() != width || self.canvas.height() != height {
            self.canvas.set_width(width);
            self.canvas.set_height(height);
        }
        self.scale = ratio;
    }

    /// Draws the PCA scatter. `coords` is flat `[x0, y0, x1, y1, ...]` for n points;
    /// `labels` has n entries (point i is the i-th most frequent word first; later points
    /// may be extra words such as neighbours added to the plot). `options` is
    /// `{ xLabel, yLabel, labelCount, hovered, selected, neighbours, arrows, highlighted,
    /// fixedRange }`, each optional:
    ///
    /// - the first `labelCount` points are labelled in frequency order, skipping a label
    ///   that would overlap one already placed;
    /// - `hovered`, `selected` (index or null) are always labelled and drawn emphasised;
    /// - `neighbours` (indices) get a line from `selected` and their labels shown;
    /// - `arrows` (`[from, to]` pairs) are drawn as arrows with both ends labelled;
    /// - `highlighted` (indices) are drawn emphasised and labelled;
    /// - `fixedRange` (`[xmin, xmax, ymin, ymax]` or null) keeps the axes stable; without
    ///   it the range is fitted to the points with a small margin.
    ///
    /// Fails on a coordinate count that is not twice the label count, a coordinate that is
    /// not finite, an index out of range or an unknown option name.
    pub fn draw_scatter(
        &mut self,
        coords: &[f32],
        labels: Vec<String>,
        options: JsValue,
    ) -> Result<(), JsError> {
        let n_points = labels.len();
        if coords.len() != 2 * n_points {
            return Err(JsError::new(&format!(
                "the scatter needs 2 coordinates per label: got {} coordinates for {n_points} labels",
                coords.len()
            )));
        }
        if let Some(i) = coords.iter().position(|v| !v.is_finite()) {
            return Err(JsError::new(&format!(
                "coordinate {} of point {} (\"{}\") is not a finite number",
                i % 2,
                i / 2,
                labels[i / 2]
            )));
        }
        let options = ScatterOptions::from_js(options, n_points)?;
        let range = match options.fixed_range {
            Some([x0, x1, y0, y1]) => DataRange { x: (x0, x1), y: (y0, y1) },
            None => fit_range(coords, DATA_MARGIN),
        };

        let root = self.root()?;
        let mut chart = self.cartesian(&root, range)?;
        let area = self.draw_mesh(&mut chart, &options.x_label, &options.y_label, None)?;
        let viewport = Viewport { data: range, area };
        let positions: Vec<Px> =
            coords.chunks_exact(2).map(|xy| viewport.to_pixel(f64::from(xy[0]), f64::from(xy[1]))).collect();
        // Points outside a fixed range are clipped from the drawing and cannot be hit.
        let inside = |p: &Px| p.0 >= area.left && p.0 < area.right && p.1 >= area.top && p.1 < area.bottom;
        self.points = positions.iter().map(|p| if inside(p) { *p } else { (f64::NAN, f64::NAN) }).collect();
        self.points_scale = self.scale;

        let emphasis = emphasis_of(n_points, &options);
        let texts: Vec<String> = labels.iter().map(|l| truncate_label(l, MAX_LABEL_CHARS)).collect();
        let placed = self.place_scatter_labels(&options, &texts, &emphasis, area)?;
        let mut emphasis = emphasis;
        for (point, _) in &placed {
            emphasis[*point] = emphasis[*point].max(Emphasis::Labelled);
        }

        let ctx = &self.context;
        ctx.save();
        ctx.begin_path();
        ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
        ctx.clip();
        self.draw_dots(&positions, &emphasis)?;
        self.draw_links(&positions, &options)?;
        self.draw_marks(&positions, &emphasis, &options)?;
        ctx.restore();
        self.draw_labels(&placed, &texts, &emphasis)
    }

    /// The index of the point nearest to (x, y), in CSS pixels relative to the canvas's
    /// top-left corner (a mouse event's offsetX/offsetY), within `radius` CSS pixels, in the
    /// last drawn scatter; else `undefined`. Ties go to the more frequent word.
    pub fn hit(&self, x: f64, y: f64, radius: f64) -> Option<u32> {
        let s = self.points_scale;
        nearest(&self.points, (x * s, y * s), radius * s).map(|i| i as u32)
    }

    /// Where point `index` of the last scatter was drawn, as `[x, y]` in CSS pixels relative
    /// to the canvas's top-left corner (for placing a tooltip); `undefined` if it was not
    /// drawn (out of range, or outside a fixed range).
    pub fn point_position(&self, index: u32) -> Option<Vec<f64>> {
        let &(x, y) = self.points.get(index as usize)?;
        (!x.is_nan()).then(|| vec![x / self.points_scale, y / self.points_scale])
    }

    /// Draws the loss chart: `epoch_losses` (mean loss of each finished epoch, at x = 1, 2,
    /// ...) and `within_epoch` (flat `[x, loss, x, loss, ...]` samples where x is a
    /// fractional epoch, e.g. 1.25), with axes "epoch" and "loss"; fits the y range to the
    /// data; the x range is `0..=epochs`. Fails on an odd `within_epoch` length or a value
    /// that is not finite.
    pub fn draw_loss(
        &mut self,
        epochs: u32,
        epoch_losses: &[f64],
        within_epoch: &[f64],
    ) -> Result<(), JsError> {
        if !within_epoch.len().is_multiple_of(2) {
            return Err(JsError::new(&format!(
                "within_epoch must be [x, loss, ...] pairs, got an odd length {}",
                within_epoch.len()
            )));
        }
        if epoch_losses.iter().chain(within_epoch).any(|v| !v.is_finite()) {
            return Err(JsError::new("the loss data contains a value that is not finite"));
        }
        let samples: Vec<(f64, f64)> = within_epoch.chunks_exact(2).map(|s| (s[0], s[1])).collect();
        let epoch_points: Vec<(f64, f64)> =
            epoch_losses.iter().enumerate().map(|(i, &loss)| ((i + 1) as f64, loss)).collect();
        let losses = epoch_losses.iter().copied().chain(samples.iter().map(|s| s.1));
        let range = DataRange { x: (0.0, f64::from(epochs.max(1))), y: fit_axis(losses, 0.08) };

        let root = self.root()?;
        let mut chart = self.cartesian(&root, range)?;
        self.draw_mesh(&mut chart, "epoch", "loss", Some(epochs.max(1)))?;
        let s = self.scale;
        let thin = ShapeStyle::from(&LOSS_SAMPLES).stroke_width(px(LINE * s));
        chart.draw_series(LineSeries::new(samples, thin)).map_err(drawing_error)?;
        let bold = ShapeStyle::from(&ACCENT).stroke_width(px(ARROW * s));
        chart.draw_series(LineSeries::new(epoch_points.clone(), bold)).map_err(drawing_error)?;
        let dot = px(EMPHASISED_DOT * s);
        let dots = epoch_points.into_iter().map(|p| Circle::new(p, dot, ACCENT.filled()));
        chart.draw_series(dots).map_err(drawing_error)?;
        root.present().map_err(drawing_error)
    }
}

/// A plotters chart with f64 axes on a canvas.
type Cartesian<'a> = ChartContext<'a, CanvasBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A length in whole backing-store pixels, at least 1, as plotters wants them.
fn px(length: f64) -> u32 {
    length.round().max(1.0) as u32
}

/// Each point's emphasis from the options (before labelling).
fn emphasis_of(n_points: usize, options: &ScatterOptions) -> Vec<Emphasis> {
    let mut emphasis = vec![Emphasis::Plain; n_points];
    let mut raise = |i: u32, level: Emphasis| {
        let e = &mut emphasis[i as usize];
        *e = (*e).max(level);
    };
    options.neighbours.iter().chain(&options.highlighted).for_each(|&i| raise(i, Emphasis::Marked));
    options.arrows.iter().flatten().for_each(|&i| raise(i, Emphasis::Arrow));
    options.selected.iter().chain(&options.hovered).for_each(|&i| raise(i, Emphasis::Strong));
    emphasis
}

impl Chart {
    /// A plotters drawing area over the whole canvas, cleared to the background.
    fn root(&self) -> Result<DrawingArea<CanvasBackend, Shift>, JsError> {
        let backend = CanvasBackend::with_canvas_object(self.canvas.clone())
            .ok_or_else(|| JsError::new("the canvas has no 2D context"))?;
        let root = backend.into_drawing_area();
        root.fill(&BACKGROUND).map_err(drawing_error)?;
        Ok(root)
    }

    /// A plotters chart over `range`, with room for the ticks and axis titles.
    fn cartesian<'a>(
        &self,
        root: &'a DrawingArea<CanvasBackend, Shift>,
        range: DataRange,
    ) -> Result<Cartesian<'a>, JsError> {
        let s = self.scale;
        ChartBuilder::on(root)
            .margin(px(MARGIN * s))
            .x_label_area_size(px(X_LABEL_AREA * s))
            .y_label_area_size(px(Y_LABEL_AREA * s))
            .build_cartesian_2d(range.x.0..range.x.1, range.y.0..range.y.1)
            .map_err(drawing_error)
    }

    /// Draws the frame, grid, ticks and axis titles; returns the plotting area in
    /// backing-store pixels. `integer_x` asks for whole-number x ticks up to that value.
    fn draw_mesh(
        &self,
        chart: &mut Cartesian<'_>,
        x_title: &str,
        y_title: &str,
        integer_x: Option<u32>,
    ) -> Result<Rect, JsError> {
        let s = self.scale;
        let tick_style = (FONT_FAMILY, TICK_FONT * s).into_font().color(&TEXT);
        let title_style = (FONT_FAMILY, TITLE_FONT * s).into_font().color(&TEXT);
        let integer_ticks = |v: &f64| {
            if v.fract().abs() < 1e-9 { format!("{v:.0}") } else { String::new() }
        };
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(x_title)
            .y_desc(y_title)
            .label_style(tick_style)
            .axis_desc_style(title_style)
            .axis_style(ShapeStyle::from(&AXIS).stroke_width(px(s)))
            .bold_line_style(ShapeStyle::from(&GRID).stroke_width(px(s)))
            .light_line_style(TRANSPARENT)
            .set_all_tick_mark_size(px(4.0 * s))
            .x_label_formatter(&|v| tick_label(*v))
            .y_label_formatter(&|v| tick_label(*v))
            .x_labels(8)
            .y_labels(7);
        if let Some(epochs) = integer_x {
            // One tick per epoch while they fit; beyond that plotters picks round numbers.
            mesh.x_labels((epochs as usize + 1).min(6)).x_label_formatter(&integer_ticks);
        }
        mesh.draw().map_err(drawing_error)?;
        let (xs, ys) = chart.plotting_area().get_pixel_range();
        Ok(Rect {
            left: f64::from(xs.start),
            top: f64::from(ys.start),
            right: f64::from(xs.end),
            bottom: f64::from(ys.end),
        })
    }

    /// Sets the context's font for a label of the given emphasis.
    fn set_label_font(&self, emphasis: Emphasis) {
        let weight = if emphasis >= Emphasis::Arrow { "600" } else { "400" };
        let size = LABEL_FONT * self.scale;
        self.context.set_font(&format!("{weight} {size}px {FONT_FAMILY}"));
    }

    /// Lays out the labels: the always-labelled points first, then the most frequent, each
    /// skipped if it would overlap one placed before. Returns `(point, box)` pairs.
    fn place_scatter_labels(
        &self,
        options: &ScatterOptions,
        texts: &[String],
        emphasis: &[Emphasis],
        area: Rect,
    ) -> Result<Vec<(usize, Rect)>, JsError> {
        let order = label_order(texts.len(), options.label_count as usize, &options.must_label());
        let mut requests = Vec::with_capacity(order.len());
        for (point, must) in order {
            if self.points[point].0.is_nan() {
                continue;
            }
            self.set_label_font(emphasis[point]);
            let width = self
                .context
                .measure_text(&texts[point])
                .map_err(|e| drawing_error(format!("{e:?}")))?
                .width();
            requests.push(LabelRequest { point, width, must });
        }
        let s = self.scale;
        let geometry =
            LabelGeometry { height: LABEL_FONT * s, gap: LABEL_GAP * s, dot_radius: EMPHASISED_DOT * s };
        let boxes = place_labels(&self.points, &requests, &geometry, &area);
        Ok(requests.iter().zip(boxes).filter_map(|(r, b)| Some((r.point, b?))).collect())
    }

    /// All dots, muted ones first so labelled ones stay visible on top.
    fn draw_dots(&self, positions: &[Px], emphasis: &[Emphasis]) -> Result<(), JsError> {
        let ctx = &self.context;
        let r = DOT * self.scale;
        for (level, colour, alpha) in
            [(Emphasis::Plain, POINT, 0.7), (Emphasis::Labelled, LABELLED_POINT, 0.9)]
        {
            ctx.set_fill_style_str(&css(colour, alpha));
            ctx.begin_path();
            for (p, _) in positions.iter().zip(emphasis).filter(|(_, e)| **e == level) {
                ctx.move_to(p.0 + r, p.1);
                ctx.arc(p.0, p.1, r, 0.0, std::f64::consts::TAU).map_err(js_error)?;
            }
            ctx.fill();
        }
        Ok(())
    }

    /// Lines from the selected point to its neighbours, then the analogy arrows.
    fn draw_links(&self, positions: &[Px], options: &ScatterOptions) -> Result<(), JsError> {
        let ctx = &self.context;
        let s = self.scale;
        let rim = EMPHASISED_DOT * s + s;
        ctx.set_line_cap("round");
        if let Some(selected) = options.selected {
            ctx.set_stroke_style_str(&css(ACCENT, 0.55));
            ctx.set_line_width(LINE * s);
            ctx.begin_path();
            for &neighbour in &options.neighbours {
                let from = positions[selected as usize];
                let (a, b) = shorten(from, positions[neighbour as usize], SELECTED_DOT * s + s, rim);
                ctx.move_to(a.0, a.1);
                ctx.line_to(b.0, b.1);
            }
            ctx.stroke();
        }
        ctx.set_stroke_style_str(&css(ARROW_COLOUR, 0.85));
        ctx.set_fill_style_str(&css(ARROW_COLOUR, 0.85));
        ctx.set_line_width(ARROW * s);
        for &[from, to] in &options.arrows {
            let (a, tip) = shorten(positions[from as usize], positions[to as usize], rim, rim);
            let head = arrow_head(a, tip, ARROW_HEAD * s, ARROW_HEAD * 0.7 * s);
            // The shaft stops inside the head, so its round cap does not blunt the tip.
            let (_, shaft_end) = shorten(a, tip, 0.0, ARROW_HEAD * 0.5 * s);
            ctx.begin_path();
            ctx.move_to(a.0, a.1);
            ctx.line_to(shaft_end.0, shaft_end.1);
            ctx.stroke();
            ctx.begin_path();
            for (i, corner) in head.iter().enumerate() {
                if i == 0 { ctx.move_to(corner.0, corner.1) } else { ctx.line_to(corner.0, corner.1) }
            }
            ctx.close_path();
            ctx.fill();
        }
        Ok(())
    }

    /// The emphasised dots on top of the lines: marked, arrow ends, selected, hovered ring.
    fn draw_marks(
        &self,
        positions: &[Px],
        emphasis: &[Emphasis],
        options: &ScatterOptions,
    ) -> Result<(), JsError> {
        let ctx = &self.context;
        let s = self.scale;
        let disc = |p: Px, r: f64, fill: &str| -> Result<(), JsError> {
            ctx.begin_path();
            ctx.arc(p.0, p.1, r, 0.0, std::f64::consts::TAU).map_err(js_error)?;
            ctx.set_fill_style_str(fill);
            ctx.fill();
            ctx.set_stroke_style_str(&css(BACKGROUND, 1.0));
            ctx.set_line_width(s);
            ctx.stroke();
            Ok(())
        };
        for (i, e) in emphasis.iter().enumerate() {
            match e {
                Emphasis::Marked => disc(positions[i], EMPHASISED_DOT * s, &css(ACCENT, 0.85))?,
                Emphasis::Arrow => disc(positions[i], EMPHASISED_DOT * s, &css(ARROW_COLOUR, 1.0))?,
                _ => {}
            }
        }
        if let Some(selected) = options.selected {
            disc(positions[selected as usize], SELECTED_DOT * s, &css(ACCENT, 1.0))?;
        }
        if let Some(hovered) = options.hovered {
            let p = positions[hovered as usize];
            if Some(hovered) != options.selected {
                disc(p, EMPHASISED_DOT * s, &css(ACCENT, 1.0))?;
            }
            ctx.begin_path();
            ctx.arc(p.0, p.1, HOVER_RING * s, 0.0, std::f64::consts::TAU).map_err(js_error)?;
            ctx.set_stroke_style_str(&css(ACCENT, 0.9));
            ctx.set_line_width(1.5 * s);
            ctx.stroke();
        }
        Ok(())
    }

    /// The labels, each on a halo of the background so it reads over dots and lines; the
    /// most important is drawn last, on top.
    fn draw_labels(
        &self,
        placed: &[(usize, Rect)],
        texts: &[String],
        emphasis: &[Emphasis],
    ) -> Result<(), JsError> {
        let ctx = &self.context;
        let s = self.scale;
        ctx.set_text_align("left");
        ctx.set_text_baseline("middle");
        ctx.set_line_join("round");
        ctx.set_line_width(LABEL_HALO * s);
        ctx.set_stroke_style_str(&css(BACKGROUND, 0.85));
        for &(point, rect) in placed.iter().rev() {
            let e = emphasis[point];
            let colour = match e {
                Emphasis::Strong | Emphasis::Marked => ACCENT,
                Emphasis::Arrow => ARROW_COLOUR,
                Emphasis::Plain | Emphasis::Labelled => TEXT,
            };
            self.set_label_font(e);
            let (x, y) = (rect.left, (rect.top + rect.bottom) / 2.0);
            ctx.stroke_text(&texts[point], x, y).map_err(js_error)?;
            ctx.set_fill_style_str(&css(colour, 1.0));
            ctx.fill_text(&texts[point], x, y).map_err(js_error)?;
        }
        Ok(())
    }
}

/// A canvas call's exception as the page's error.
fn js_error(error: JsValue) -> JsError {
    drawing_error(format!("{error:?}"))
}

/// A tick value without float noise: up to 4 significant decimals, trailing zeros dropped.
fn tick_label(value: f64) -> String {
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".to_string() } else { text.to_string() }
}
