//! `Chart`, the page's drawing handle: the map of the vectors and the loss chart, drawn on
//! a canvas. The loss chart is plotters' (axes, ticks, lines). The map is a list of
//! `scene` shapes (its frame, dots, lines, arrows and labels): the leading ones (background,
//! grid, axes, dots) go through the pixel buffer of `raster`, the rest through the canvas
//! context, and the SVG export writes the same list.
//!
//! The geometry (data→pixel mapping, hit testing, label placement) is in `layout`, free of
//! the canvas; this module only turns its answers into strokes.
//!
//! The canvas's backing store is its CSS size × devicePixelRatio, so the drawing is sharp
//! on HiDPI screens; every size below is given in CSS pixels and scaled by that ratio.
//! plotters measures text through `window().document()`, so a `Chart` lives on the page's
//! main thread, never in a worker.

use js_sys::JsString;
use plotters::coord::Shift;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use serde::Deserialize;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::glyphs::{self, Masks, TextContext};
use super::layout::{
    DataRange, LabelGeometry, LabelRequest, Px, Rect, Viewport, fit_axis, fit_range, label_order, nearest,
    place_labels, truncate_label,
};
use super::raster::Raster;
use super::scene::{self, Align, Baseline, Emphasis, Frame, Paint, Palette, ScatterMarks, Shape};

/// Labels one draw may measure: measuring is a call into the canvas, and the first draw of
/// 10,000 new words would take most of 100 ms measuring them all. A label not yet measured
/// is left out of that draw, and the page draws again at the next display frame.
const MEASURES_PER_DRAW: usize = 200;
/// Labels longer than this many characters end in an ellipsis.
const MAX_LABEL_CHARS: usize = 24;
/// The space around the data, as a fraction of its span on each side.
const DATA_MARGIN: f64 = 0.05;

// Sizes in CSS pixels (the scatter's marks have theirs in `scene`).
const MARGIN: f64 = 14.0;
const X_LABEL_AREA: f64 = 42.0;
const Y_LABEL_AREA: f64 = 58.0;
/// How many ticks plotters may choose on each axis of the map, at most.
const X_TICKS: usize = 8;
const Y_TICKS: usize = 7;

/// A scene colour as plotters wants it (opaque; plotters draws only the loss chart).
fn rgb(paint: Paint) -> RGBColor {
    let (r, g, b) = paint.rgb;
    RGBColor(r, g, b)
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
    preferred: Vec<u32>,
    fixed_range: Option<[f64; 4]>,
    trails: Vec<Vec<f64>>,
    caption: Option<String>,
}

impl ScatterOptions {
    /// The option names as JS spells them. serde-wasm-bindgen reads only the fields it knows
    /// (so `deny_unknown_fields` has no effect); `from_js` checks the names itself, so that a
    /// misspelt option fails instead of being ignored.
    const NAMES: [&str; 12] = [
        "xLabel",
        "yLabel",
        "labelCount",
        "hovered",
        "selected",
        "neighbours",
        "arrows",
        "highlighted",
        "preferred",
        "fixedRange",
        "trails",
        "caption",
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
            .chain(&options.highlighted)
            .chain(&options.preferred);
        if let Some(bad) = indices.copied().find(|&i| i as usize >= n_points) {
            return Err(JsError::new(&format!(
                "point index {bad} in the scatter options is out of range for {n_points} points"
            )));
        }
        if let Some(bad) =
            options.trails.iter().position(|t| t.len() % 2 != 0 || t.iter().any(|v| !v.is_finite()))
        {
            return Err(JsError::new(&format!("trail {bad} must be [x0, y0, x1, y1, …] of finite numbers")));
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

    /// Indices of the points labelled before the frequent ones, most important first:
    /// those always labelled, then the `preferred` ones where their labels fit.
    fn first_labels(&self) -> Vec<usize> {
        let mut first = self.must_label();
        first.extend(self.preferred.iter().map(|&i| i as usize));
        first
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

/// A chart drawn on one canvas; keeps the last scatter's pixel positions for `hit`.
#[wasm_bindgen]
pub struct Chart {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
    /// Backing-store pixels per CSS pixel, from the last `resize`.
    scale: f64,
    palette: Palette,
    /// The map's words as labels (shortened), set once per frame by `set_words` rather than
    /// passed on every redraw: an animated map of 10,000 words redraws 60 times a second.
    /// They are kept as the JS strings the page gave (a long one shortened): the canvas
    /// takes JS strings, and turning 10,000 words into Rust strings and back, or hundreds on
    /// every redraw, cost tens of milliseconds. Rust reads the text of a label it places.
    labels: Vec<JsString>,
    /// `widths[w][i]`: the measured width of label i in weight w (regular, bold) at
    /// `widths_scale`; NaN until measured. Measuring is the dearest part of placing labels.
    widths: [Vec<f64>; 2],
    widths_scale: f64,
    /// The last scatter's points in backing-store pixels; NaN for points outside the plot.
    points: Vec<Px>,
    /// The `scale` the last scatter was drawn with.
    points_scale: f64,
    /// The last scatter's plotting area, in backing-store pixels, and its data range.
    area: Rect,
    range: DataRange,
    /// The points the last map labelled.
    labelled: Vec<u32>,
    /// Whether the last map left labels unmeasured (see `MEASURES_PER_DRAW`).
    labels_deferred: bool,
    /// The map's background, grid, axes and dots are drawn into this buffer, which then
    /// becomes the canvas's pixels.
    raster: Raster,
    /// The map's texts as the raster lays them (see `glyphs`).
    masks: Masks,
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
        let mut chart = Chart {
            canvas,
            context,
            scale: 1.0,
            palette: Palette::LIGHT,
            labels: Vec::new(),
            widths: [Vec::new(), Vec::new()],
            widths_scale: 0.0,
            points: Vec::new(),
            points_scale: 1.0,
            area: Rect { left: 0.0, top: 0.0, right: 0.0, bottom: 0.0 },
            range: DataRange { x: (0.0, 1.0), y: (0.0, 1.0) },
            labelled: Vec::new(),
            labels_deferred: false,
            raster: Raster::new(),
            masks: Masks::new(),
        };
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

    /// The colours to draw with, as the page reads them from its stylesheet:
    /// `{ background, axis, grid, text, point, labelledPoint, accent, arrow, dimmed, trail, classes }`,
    /// each `[r, g, b, alpha]` with channels 0–255 and alpha 0–1 (`classes` a list of them).
    /// Fails on a missing or malformed colour; the next draw uses them.
    pub fn set_palette(&mut self, palette: JsValue) -> Result<(), JsError> {
        let dto: PaletteDto = serde_wasm_bindgen::from_value(palette)
            .map_err(|e| JsError::new(&format!("invalid palette: {e}")))?;
        self.palette = dto.into_palette()?;
        Ok(())
    }

    /// The words of the points `draw_map` draws next, point i the i-th. Call it when the
    /// words change (a new frame of other words), not on every redraw.
    pub fn set_words(&mut self, words: js_sys::Array) -> Result<(), JsError> {
        let labels: Vec<JsString> = (words.iter())
            .enumerate()
            .map(|(i, word)| {
                let word: JsString = word
                    .dyn_into()
                    .map_err(|_| JsError::new(&format!("word {i} of the map is not a string")))?;
                // UTF-16 units are at least as many as characters: only a long one can need cutting.
                if word.length() as usize <= MAX_LABEL_CHARS {
                    return Ok(word);
                }
                let text = String::from(&word);
                Ok(JsString::from(truncate_label(&text, MAX_LABEL_CHARS).as_str()))
            })
            .collect::<Result<_, JsError>>()?;
        self.widths = [vec![f64::NAN; labels.len()], vec![f64::NAN; labels.len()]];
        self.labels = labels;
        self.masks.clear();
        Ok(())
    }

    /// Draws the map of the words given to `set_words`. `coords` is flat `[x0, y0, x1, y1,
    /// ...]` for them (point i is the i-th most frequent word first; later points may be
    /// extra words such as neighbours added to the plot). `styles` gives each point's colour
    /// (255 plain, 254 dimmed, else a class of the palette's `classes`), or is empty for all
    /// plain. `options` is `{ xLabel, yLabel, labelCount, hovered, selected, neighbours,
    /// arrows, highlighted, preferred, fixedRange }`, each optional:
    ///
    /// - the first `labelCount` points are labelled in frequency order, skipping a label
    ///   that would overlap one already placed (a dimmed point gets none);
    /// - `hovered`, `selected` (index or null) are always labelled and drawn emphasised;
    /// - `neighbours` (indices) get a line from `selected` and their labels shown;
    /// - `arrows` (`[from, to]` pairs) are drawn as arrows with both ends labelled;
    /// - `highlighted` (indices) are drawn emphasised and labelled;
    /// - `preferred` (indices) are labelled before the frequent ones, where they fit;
    /// - `fixedRange` (`[xmin, xmax, ymin, ymax]` or null) is the data range shown (the
    ///   page's camera); without it the range is fitted to the points with a small margin;
    /// - `trails` (arrays of data coordinates `[x0, y0, x1, y1, …]`, oldest first) are drawn
    ///   as lines in the palette's trail colour, fading with age, under the other marks;
    /// - `caption` (a string or null) is written in the plotting area's top-left corner, over
    ///   everything (the moment a replay shows, so a recorded video says it too).
    ///
    /// Fails on a coordinate count that is not twice the word count, a style count that is
    /// neither 0 nor the word count, a coordinate that is not finite, an index out of range
    /// or an unknown option name.
    pub fn draw_map(&mut self, coords: &[f32], styles: &[u8], options: JsValue) -> Result<(), JsError> {
        let scene = Scatter::new(coords, &self.labels, styles, options)?;
        if self.widths_scale != self.scale {
            self.widths = [vec![f64::NAN; self.labels.len()], vec![f64::NAN; self.labels.len()]];
            self.widths_scale = self.scale;
            self.masks.clear();
        }
        let size = (f64::from(self.canvas.width()), f64::from(self.canvas.height()));
        let mut measure = Measure::new(&self.context, &mut self.widths, &self.labels, MEASURES_PER_DRAW);
        let drawn = scene.draw(size, self.scale, &self.palette, &mut measure, Texts::Kept)?;
        self.labels_deferred = measure.deferred;
        self.points = drawn.points;
        self.points_scale = self.scale;
        self.area = drawn.area;
        self.range = drawn.range;
        self.labelled = drawn.labelled;
        self.paint(&drawn.shapes)
    }

    /// `set_words(labels)` then `draw_map(coords, [], options)`: a scatter drawn once.
    pub fn draw_scatter(
        &mut self,
        coords: &[f32],
        labels: Vec<String>,
        options: JsValue,
    ) -> Result<(), JsError> {
        self.set_words(labels.iter().map(|label| JsValue::from_str(label)).collect())?;
        self.draw_map(coords, &[], options)
    }

    /// The same map as `draw_map` draws, as an SVG document of `width` × `height` CSS
    /// pixels (labels are SVG text, escaped). Does not touch the canvas.
    pub fn map_svg(
        &self,
        coords: &[f32],
        styles: &[u8],
        options: JsValue,
        width: u32,
        height: u32,
    ) -> Result<String, JsError> {
        let scene = Scatter::new(coords, &self.labels, styles, options)?;
        let (width, height) = (width.max(1), height.max(1));
        let mut widths = [vec![f64::NAN; self.labels.len()], vec![f64::NAN; self.labels.len()]];
        let mut measure = Measure::new(&self.context, &mut widths, &self.labels, usize::MAX);
        let size = (f64::from(width), f64::from(height));
        let drawn = scene.draw(size, 1.0, &self.palette, &mut measure, Texts::Copied)?;
        let mut svg = format!(
            r#"<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">"#
        );
        scene::write_svg(&mut svg, &drawn.shapes);
        svg.push_str("</svg>\n");
        Ok(svg)
    }

    /// How many words the last map labelled (more as the person zooms in).
    pub fn labels_placed(&self) -> u32 {
        self.labelled.len() as u32
    }

    /// The indices of the points the last map labelled, most important first.
    pub fn labelled_points(&self) -> Vec<u32> {
        self.labelled.clone()
    }

    /// Whether the last map left labels for the next draw, having measured its share:
    /// the page then draws again.
    pub fn labels_deferred(&self) -> bool {
        self.labels_deferred
    }

    /// The last map's plotting area as `[left, top, right, bottom]` in CSS pixels relative
    /// to the canvas's top-left corner, and its data range as `[xmin, xmax, ymin, ymax]`:
    /// what the page's camera needs to turn the pointer's position into data coordinates.
    pub fn plot_frame(&self) -> Vec<f64> {
        let s = self.points_scale;
        let (a, r) = (self.area, self.range);
        vec![a.left / s, a.top / s, a.right / s, a.bottom / s, r.x.0, r.x.1, r.y.0, r.y.1]
    }

    /// Indices of the last map's points drawn inside the rectangle between the corners
    /// (x0, y0) and (x1, y1), in CSS pixels relative to the canvas (a selection by region).
    pub fn points_in_rect(&self, x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<u32> {
        let s = self.points_scale;
        let (left, right) = (x0.min(x1) * s, x0.max(x1) * s);
        let (top, bottom) = (y0.min(y1) * s, y0.max(y1) * s);
        (self.points.iter().enumerate())
            .filter(|(_, (x, y))| (left..=right).contains(x) && (top..=bottom).contains(y))
            .map(|(i, _)| i as u32)
            .collect()
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
    /// data; the x range is `0..=epochs`. `marker`, when given, is the moment the map shows
    /// (a fractional epoch, as the timeline replays it), drawn as a vertical line in the trail
    /// colour with `marker_label` beside it. Fails on an odd `within_epoch` length or a value
    /// that is not finite.
    pub fn draw_loss(
        &mut self,
        epochs: u32,
        epoch_losses: &[f64],
        within_epoch: &[f64],
        marker: Option<f64>,
        marker_label: Option<String>,
    ) -> Result<(), JsError> {
        if !within_epoch.len().is_multiple_of(2) {
            return Err(JsError::new(&format!(
                "within_epoch must be [x, loss, ...] pairs, got an odd length {}",
                within_epoch.len()
            )));
        }
        if epoch_losses.iter().chain(within_epoch).chain(&marker).any(|v| !v.is_finite()) {
            return Err(JsError::new("the loss data contains a value that is not finite"));
        }
        let samples: Vec<(f64, f64)> = within_epoch.chunks_exact(2).map(|s| (s[0], s[1])).collect();
        let epoch_points: Vec<(f64, f64)> =
            epoch_losses.iter().enumerate().map(|(i, &loss)| ((i + 1) as f64, loss)).collect();
        let losses = epoch_losses.iter().copied().chain(samples.iter().map(|s| s.1));
        let range = DataRange { x: (0.0, f64::from(epochs.max(1))), y: fit_axis(losses, 0.08) };

        let root = self.root()?;
        let s = self.scale;
        let mut chart = cartesian(&root, range, s)?;
        let area = draw_mesh(&mut chart, s, &self.palette, "epoch", "loss", Some(epochs.max(1)))?;
        let thin = ShapeStyle::from(&rgb(self.palette.point)).stroke_width(px(scene::LINE * s));
        chart.draw_series(LineSeries::new(samples, thin)).map_err(drawing_error)?;
        let accent = rgb(self.palette.accent);
        let bold = ShapeStyle::from(&accent).stroke_width(px(scene::ARROW * s));
        // A dot per epoch while the dots stand apart; with hundreds of epochs they would
        // overlap into a thick line and cost a circle each on every redraw.
        let dot = px(scene::EMPHASISED_DOT * s);
        let spacing = (area.right - area.left) / f64::from(epochs.max(1));
        let dotted = spacing >= 4.0 * f64::from(dot);
        chart.draw_series(LineSeries::new(epoch_points.iter().copied(), bold)).map_err(drawing_error)?;
        if dotted {
            let dots = epoch_points.into_iter().map(|p| Circle::new(p, dot, accent.filled()));
            chart.draw_series(dots).map_err(drawing_error)?;
        }
        if let Some(at) = marker {
            let x = at.clamp(range.x.0, range.x.1);
            let colour = rgb(self.palette.trail);
            let line = ShapeStyle::from(&colour).stroke_width(px(scene::TRAIL * s));
            chart
                .draw_series(LineSeries::new([(x, range.y.0), (x, range.y.1)], line))
                .map_err(drawing_error)?;
            if let Some(label) = marker_label {
                // Beside the line, on the side with room for it (its width guessed from its
                // length, as plotters measures text only when drawing it).
                let font = (scene::FONT_FAMILY, scene::TICK_FONT * s).into_font().color(&colour);
                let gap = 4.0 * s;
                let (px_x, px_y) = chart.backend_coord(&(x, range.y.1));
                let (area_left, _) = chart.backend_coord(&(range.x.0, range.y.1));
                let (area_right, _) = chart.backend_coord(&(range.x.1, range.y.1));
                let width = 0.6 * scene::TICK_FONT * s * label.chars().count() as f64;
                let (x, left, right) = (f64::from(px_x), f64::from(area_left), f64::from(area_right));
                // Right of the line, else left of it, else as far right as it fits.
                let (anchor, at_x) = if x + gap + width <= right {
                    (HPos::Left, x + gap)
                } else if x - gap - width >= left {
                    (HPos::Right, x - gap)
                } else {
                    (HPos::Left, (right - width).max(left))
                };
                let style = font.pos(Pos::new(anchor, VPos::Top));
                let at = (at_x as i32, px_y + gap as i32);
                root.draw(&Text::new(label, at, style)).map_err(drawing_error)?;
            }
        }
        root.present().map_err(drawing_error)
    }
}

/// A plotters chart with f64 axes (the loss chart, on the canvas).
type Cartesian<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A length in whole drawing pixels, at least 1, as plotters wants them.
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

/// A plotters chart over `range`, with room for the ticks and axis titles; `s` is the
/// drawing's pixels per CSS pixel.
fn cartesian<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    range: DataRange,
    s: f64,
) -> Result<Cartesian<'a, DB>, JsError> {
    ChartBuilder::on(root)
        .margin(px(MARGIN * s))
        .x_label_area_size(px(X_LABEL_AREA * s))
        .y_label_area_size(px(Y_LABEL_AREA * s))
        .build_cartesian_2d(range.x.0..range.x.1, range.y.0..range.y.1)
        .map_err(drawing_error)
}

/// Draws the frame, grid, ticks and axis titles; returns the plotting area in drawing
/// pixels. `integer_x` asks for whole-number x ticks up to that value.
fn draw_mesh<DB: DrawingBackend>(
    chart: &mut Cartesian<'_, DB>,
    s: f64,
    palette: &Palette,
    x_title: &str,
    y_title: &str,
    integer_x: Option<u32>,
) -> Result<Rect, JsError> {
    let text = rgb(palette.text);
    let tick_style = (scene::FONT_FAMILY, scene::TICK_FONT * s).into_font().color(&text);
    let title_style = (scene::FONT_FAMILY, scene::TITLE_FONT * s).into_font().color(&text);
    let integer_ticks = |v: &f64| {
        if v.fract().abs() < 1e-9 { format!("{v:.0}") } else { String::new() }
    };
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(x_title)
        .y_desc(y_title)
        .label_style(tick_style)
        .axis_desc_style(title_style)
        .axis_style(ShapeStyle::from(&rgb(palette.axis)).stroke_width(px(s)))
        .bold_line_style(ShapeStyle::from(&rgb(palette.grid)).stroke_width(px(s)))
        .light_line_style(TRANSPARENT)
        .set_all_tick_mark_size(px(scene::TICK * s))
        .x_label_formatter(&|v| tick_label(*v))
        .y_label_formatter(&|v| tick_label(*v))
        .x_labels(X_TICKS)
        .y_labels(Y_TICKS);
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
    let ticks = |(lo, hi): (f64, f64), most: usize| RangedCoordf64::from(lo..hi).key_points(most);
    let x_ticks =
        ticks(range.x, X_TICKS).into_iter().map(|x| (viewport.to_pixel(x, range.y.0).0, tick_label(x)));
    let y_ticks =
        ticks(range.y, Y_TICKS).into_iter().map(|y| (viewport.to_pixel(range.x.0, y).1, tick_label(y)));
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
struct Scatter<'a> {
    coords: &'a [f32],
    labels: &'a [JsString],
    /// One per point ([`scene::PLAIN`] when the page gave none).
    styles: Vec<u8>,
    options: ScatterOptions,
}

/// What drawing a scatter decided: each point's position (NaN outside the plotting area, so
/// it cannot be hit), the plotting area and range, and the marks to paint.
struct Drawn {
    points: Vec<Px>,
    labelled: Vec<u32>,
    area: Rect,
    range: DataRange,
    shapes: Vec<Shape>,
}

/// Label widths, measured with the canvas once per label and weight and then remembered.
struct Measure<'a> {
    context: &'a CanvasRenderingContext2d,
    widths: &'a mut [Vec<f64>; 2],
    labels: &'a [JsString],
    /// The font the context was last set to here: setting one parses the CSS font string,
    /// which costs more than measuring.
    font: Option<String>,
    /// Labels this draw may still measure; past it a label waits for the next draw.
    budget: usize,
    /// Whether a label went unmeasured for want of budget.
    deferred: bool,
}

impl<'a> Measure<'a> {
    fn new(
        context: &'a CanvasRenderingContext2d,
        widths: &'a mut [Vec<f64>; 2],
        labels: &'a [JsString],
        budget: usize,
    ) -> Measure<'a> {
        Measure { context, widths, labels, font: None, budget, deferred: false }
    }

    /// A label's width, or infinity (no room anywhere) when this draw has measured its
    /// share; a label that must be shown is always measured.
    fn width(&mut self, point: usize, weight: u16, size: f64, must: bool) -> Result<f64, JsError> {
        let cached = &mut self.widths[usize::from(weight >= 600)][point];
        if cached.is_nan() {
            if self.budget == 0 && !must {
                self.deferred = true;
                return Ok(f64::INFINITY);
            }
            self.budget = self.budget.saturating_sub(1);
            let wanted = font(weight, size);
            if self.font.as_ref() != Some(&wanted) {
                self.context.set_font(&wanted);
                self.font = Some(wanted);
            }
            let text_ctx: &TextContext = self.context.unchecked_ref();
            let metrics = text_ctx.measure_js_text(&self.labels[point]).map_err(js_error)?;
            *cached = metrics.width();
        }
        Ok(*cached)
    }
}

/// Whether a drawing copies the labels' text into its shapes (the SVG writes them) or leaves
/// them empty, the canvas painting each from the JS string `set_words` kept: copying a JS
/// string into Rust costs a call across the boundary, for each label of every redraw.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Texts {
    Kept,
    Copied,
}

impl<'a> Scatter<'a> {
    fn new(
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

    /// Lays out the frame and the marks on a drawing of `size` (width, height) pixels, at
    /// `s` drawing pixels per CSS pixel.
    fn draw(
        &self,
        size: (f64, f64),
        s: f64,
        palette: &Palette,
        measure: &mut Measure<'_>,
        texts_wanted: Texts,
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
        let order = label_order(self.labels.len(), options.label_count as usize, &options.first_labels());
        let mut must_label = vec![false; points.len()];
        options.must_label().into_iter().for_each(|i| must_label[i] = true);
        let mut requests = Vec::with_capacity(order.len());
        for (point, _) in order {
            let must = must_label[point];
            if points[point].0.is_nan() || (!must && self.styles[point] == scene::DIMMED) {
                continue;
            }
            requests.push(LabelRequest { point, must });
        }
        let geometry = LabelGeometry {
            height: scene::LABEL_FONT * s,
            gap: scene::LABEL_GAP * s,
            dot_radius: scene::EMPHASISED_DOT * s,
        };
        let width = |point: usize| {
            measure.width(point, emphasis[point].font_weight(), scene::LABEL_FONT * s, must_label[point])
        };
        let boxes = place_labels(&points, &requests, width, &geometry, &area)?;
        let placed: Vec<(usize, Rect)> =
            requests.iter().zip(boxes).filter_map(|(r, b)| Some((r.point, b?))).collect();
        for (point, _) in &placed {
            emphasis[*point] = emphasis[*point].max(Emphasis::Labelled);
        }
        let mut texts = vec![String::new(); self.labels.len()];
        if texts_wanted == Texts::Copied {
            for &(point, _) in &placed {
                texts[point] = String::from(&self.labels[point]);
            }
        }
        let as_usize = |i: &u32| *i as usize;
        let neighbours: Vec<usize> = options.neighbours.iter().map(as_usize).collect();
        let arrows: Vec<[usize; 2]> =
            options.arrows.iter().map(|[a, b]| [*a as usize, *b as usize]).collect();
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
            trails: &trails,
            caption: options.caption.as_deref(),
            labels: &placed,
            texts: &texts,
            styles: &self.styles,
            palette,
        };
        let shapes = scene::scatter_shapes(&marks, s);
        let labelled = placed.iter().map(|&(point, _)| point as u32).collect();
        Ok(Drawn { points, labelled, area, range, shapes })
    }
}

/// The palette as the page sends it (see `Chart::set_palette`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PaletteDto {
    background: [f64; 4],
    axis: [f64; 4],
    grid: [f64; 4],
    text: [f64; 4],
    point: [f64; 4],
    labelled_point: [f64; 4],
    accent: [f64; 4],
    arrow: [f64; 4],
    dimmed: [f64; 4],
    trail: [f64; 4],
    classes: Vec<[f64; 4]>,
}

impl PaletteDto {
    fn into_palette(self) -> Result<Palette, JsError> {
        let paint = |[r, g, b, a]: [f64; 4]| -> Result<Paint, JsError> {
            let channel = |v: f64| (0.0..=255.0).contains(&v).then(|| v.round() as u8);
            match (channel(r), channel(g), channel(b)) {
                (Some(r), Some(g), Some(b)) if (0.0..=1.0).contains(&a) => Ok(Paint::new(r, g, b, a)),
                _ => Err(JsError::new(&format!(
                    "a palette colour must be [r, g, b, alpha] with channels 0–255 and alpha 0–1, got {:?}",
                    [r, g, b, a]
                ))),
            }
        };
        Ok(Palette {
            background: paint(self.background)?,
            axis: paint(self.axis)?,
            grid: paint(self.grid)?,
            text: paint(self.text)?,
            point: paint(self.point)?,
            labelled_point: paint(self.labelled_point)?,
            accent: paint(self.accent)?,
            arrow: paint(self.arrow)?,
            dimmed: paint(self.dimmed)?,
            trail: paint(self.trail)?,
            classes: self.classes.into_iter().map(paint).collect::<Result<_, _>>()?,
        })
    }
}

/// The canvas font of a label: a CSS weight and a size in drawing pixels. Measuring and
/// painting use this one string, so the measured width is the painted one.
fn font(weight: u16, size: f64) -> String {
    format!("{weight} {size}px {}", scene::FONT_FAMILY)
}

impl Chart {
    /// A plotters drawing area over the whole canvas, cleared to the background.
    fn root(&self) -> Result<DrawingArea<CanvasBackend, Shift>, JsError> {
        let backend = CanvasBackend::with_canvas_object(self.canvas.clone())
            .ok_or_else(|| JsError::new("the canvas has no 2D context"))?;
        let root = backend.into_drawing_area();
        root.fill(&rgb(self.palette.background)).map_err(drawing_error)?;
        Ok(root)
    }

    /// Puts the raster on the canvas as its pixels (see `raster`).
    fn put_raster(&self) -> Result<(), JsError> {
        let (width, height) = self.raster.size();
        if width == 0 || height == 0 {
            return Ok(());
        }
        // The image is a view of the buffer in wasm memory: made anew for each redraw, it
        // costs an object, not a copy (putImageData makes the one copy).
        let pixels = wasm_bindgen::Clamped(self.raster.rgba());
        let image = web_sys::ImageData::new_with_u8_clamped_array_and_sh(pixels, width as u32, height as u32)
            .map_err(js_error)?;
        self.context.put_image_data(&image, 0.0, 0.0).map_err(js_error)
    }

    /// Paints the map's shapes: the leading ones the raster can draw (all but a disc with
    /// an outline, a ring, lines and polygons: so everything, unless something is selected,
    /// hovered or an arrow is shown) into it and onto the canvas as one image, then the rest
    /// with the canvas context. The raster's texts are masks (`glyphs`), the missing ones
    /// made first.
    fn paint(&mut self, shapes: &[Shape]) -> Result<(), JsError> {
        let (width, height) = (self.canvas.width() as usize, self.canvas.height() as usize);
        let whole = Rect { left: 0.0, top: 0.0, right: width as f64, bottom: height as f64 };
        let Some(Shape::Background(background)) = shapes.first() else {
            return Err(JsError::new("the map's shapes must begin with its background"));
        };
        self.raster.reset(width, height, *background);
        let rastered = |shape: &Shape| {
            use Shape::*;
            matches!(shape, Clip(_) | Unclip | Dots { .. } | Rects { .. } | Text { .. } | Label { .. })
        };
        let drawn = 1 + shapes[1..].iter().position(|shape| !rastered(shape)).unwrap_or(shapes.len() - 1);
        let keys: Vec<Option<(glyphs::Text, glyphs::Style)>> =
            shapes[1..drawn].iter().map(|shape| self.text_key(shape)).collect();
        let wanted: Vec<(glyphs::Text, glyphs::Style)> = keys.iter().flatten().cloned().collect();
        self.masks.make(&wanted, &self.labels, font).map_err(js_error)?;
        let mut clip: Option<Rect> = None;
        for (shape, key) in shapes[1..drawn].iter().zip(&keys) {
            let within = clip.unwrap_or(whole);
            match shape {
                Shape::Clip(area) => clip = Some(*area),
                Shape::Unclip => clip = None,
                Shape::Dots { centres, radius, fill } => self.raster.discs(centres, *radius, *fill, &within),
                Shape::Rects { rects, fill } => self.raster.rects(rects, *fill, &within),
                Shape::Text { at, fill, .. } | Shape::Label { at, fill, .. } => {
                    let mask = key.as_ref().and_then(|key| self.masks.get(key));
                    if let Some(mask) = mask {
                        self.raster.mask(mask, *at, *fill, &within);
                    }
                }
                _ => unreachable!("only shapes the raster draws come before `drawn`"),
            }
        }
        self.put_raster()?;
        // The canvas goes on inside the clip the raster stopped in.
        if let Some(area) = clip {
            self.paint_one(&Shape::Clip(area))?;
        }
        let mut style: Option<((u16, u64), Paint)> = None;
        let ctx = &self.context;
        ctx.set_line_cap("round");
        ctx.set_line_join("round");
        ctx.set_text_align("left");
        ctx.set_text_baseline("middle");
        for shape in &shapes[drawn..] {
            if let Shape::Label { point, at, text, weight, size, fill } = shape {
                // Hundreds of labels share a font and two colours: set the context's state
                // only when it changes (a font is parsed each time it is set).
                // The font is compared as numbers, so its string is made only when it changes,
                // and the word is drawn from the JS string kept by `set_words`: no string is
                // made or copied per label.
                let ctx = &self.context;
                let wanted = ((*weight, size.to_bits()), *fill);
                if style.is_none_or(|current| current.0 != wanted.0) {
                    ctx.set_font(&font(*weight, *size));
                }
                if style.is_none_or(|current| current.1 != wanted.1) {
                    ctx.set_fill_style_str(&fill.css());
                }
                let text_ctx: &TextContext = ctx.unchecked_ref();
                match self.labels.get(*point) {
                    Some(js_text) => text_ctx.fill_js_text(js_text, at.0, at.1),
                    None => text_ctx.fill_js_text(&text.as_str().into(), at.0, at.1),
                }
                .map_err(js_error)?;
                style = Some(wanted);
                continue;
            }
            style = None;
            self.paint_one(shape)?;
        }
        Ok(())
    }

    /// What a text shape's mask is made of, for `glyphs`; `None` for other shapes.
    fn text_key(&self, shape: &Shape) -> Option<(glyphs::Text, glyphs::Style)> {
        match shape {
            Shape::Text { text, align, baseline, upright, size, .. } => {
                let style = glyphs::Style {
                    align: text_align(*align),
                    baseline: text_baseline(*baseline),
                    weight: 400,
                    size: size.to_bits(),
                    upright: *upright,
                };
                Some((glyphs::Text::Own(text.clone()), style))
            }
            Shape::Label { point, text, weight, size, .. } => {
                let text = match self.labels.get(*point) {
                    Some(_) => glyphs::Text::Word(*point),
                    None => glyphs::Text::Own(text.clone()),
                };
                let style = glyphs::Style {
                    align: "left",
                    baseline: "middle",
                    weight: *weight,
                    size: size.to_bits(),
                    upright: false,
                };
                Some((text, style))
            }
            _ => None,
        }
    }

    /// Paints one mark (not dots) with the canvas context.
    fn paint_one(&self, shape: &Shape) -> Result<(), JsError> {
        let ctx = &self.context;
        let circle = |(x, y): Px, r: f64| -> Result<(), JsError> {
            ctx.move_to(x + r, y);
            ctx.arc(x, y, r, 0.0, std::f64::consts::TAU).map_err(js_error)
        };
        match shape {
            Shape::Clip(area) => {
                ctx.save();
                ctx.begin_path();
                ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
                ctx.clip();
            }
            Shape::Unclip => ctx.restore(),
            Shape::Disc { centre, radius, fill, outline, width } => {
                ctx.begin_path();
                circle(*centre, *radius)?;
                ctx.set_fill_style_str(&fill.css());
                ctx.fill();
                ctx.set_stroke_style_str(&outline.css());
                ctx.set_line_width(*width);
                ctx.stroke();
            }
            Shape::Ring { centre, radius, stroke, width } => {
                ctx.begin_path();
                circle(*centre, *radius)?;
                ctx.set_stroke_style_str(&stroke.css());
                ctx.set_line_width(*width);
                ctx.stroke();
            }
            Shape::Segments { segments, stroke, width } => {
                ctx.set_stroke_style_str(&stroke.css());
                ctx.set_line_width(*width);
                ctx.begin_path();
                for (a, b) in segments {
                    ctx.move_to(a.0, a.1);
                    ctx.line_to(b.0, b.1);
                }
                ctx.stroke();
            }
            Shape::Rects { rects, fill } => {
                ctx.begin_path();
                for r in rects {
                    ctx.rect(r.left, r.top, r.right - r.left, r.bottom - r.top);
                }
                ctx.set_fill_style_str(&fill.css());
                ctx.fill();
            }
            Shape::Polygon { corners, fill } => {
                ctx.begin_path();
                for (i, c) in corners.iter().enumerate() {
                    if i == 0 { ctx.move_to(c.0, c.1) } else { ctx.line_to(c.0, c.1) }
                }
                ctx.close_path();
                ctx.set_fill_style_str(&fill.css());
                ctx.fill();
            }
            Shape::Text { at, text, align, baseline, upright, size, fill } => {
                ctx.set_font(&font(400, *size));
                ctx.set_fill_style_str(&fill.css());
                ctx.set_text_align(text_align(*align));
                ctx.set_text_baseline(text_baseline(*baseline));
                if *upright {
                    ctx.save();
                    ctx.translate(at.0, at.1).map_err(js_error)?;
                    ctx.rotate(-std::f64::consts::FRAC_PI_2).map_err(js_error)?;
                    ctx.fill_text(text, 0.0, 0.0).map_err(js_error)?;
                    ctx.restore();
                } else {
                    ctx.fill_text(text, at.0, at.1).map_err(js_error)?;
                }
                // Labels are drawn from their left end and middle.
                ctx.set_text_align("left");
                ctx.set_text_baseline("middle");
            }
            Shape::Background(_) | Shape::Dots { .. } => {
                return Err(JsError::new("the map's background and dots must come before its other marks"));
            }
            Shape::Label { .. } => unreachable!("`paint` paints labels"),
        }
        Ok(())
    }
}

/// A frame text's anchor along it, as the canvas's `textAlign`.
fn text_align(align: Align) -> &'static str {
    match align {
        Align::Middle => "center",
        Align::End => "right",
    }
}

/// A frame text's anchor across it, as the canvas's `textBaseline`.
fn text_baseline(baseline: Baseline) -> &'static str {
    match baseline {
        Baseline::Top => "top",
        Baseline::Middle => "middle",
        Baseline::Bottom => "bottom",
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
