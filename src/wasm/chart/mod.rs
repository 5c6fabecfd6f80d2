//! `Chart`, the page's drawing handle: the map of the vectors and the loss chart, drawn on
//! a canvas. The loss chart is plotters' (axes, ticks, lines). The map is a list of
//! [`crate::plot::scene`] shapes (its frame, dots, lines, arrows and labels): the leading ones
//! (background, grid, axes, dots) go through the pixel buffer of [`crate::plot::raster`],
//! the rest through the canvas context, and the SVG export writes the same list.
//!
//! The geometry (data→pixel mapping, hit testing, label placement) is in
//! [`crate::plot::geometry`], free of the canvas; this module only turns its answers into
//! strokes.
//!
//! The canvas's backing store is its CSS size × devicePixelRatio, so the drawing is sharp
//! on HiDPI screens; every size below is given in CSS pixels and scaled by that ratio.
//! plotters measures text through `window().document()`, so a `Chart` lives on the page's
//! main thread, never in a worker.
//!
//! The rooms: this file holds the `Chart` and its page-facing calls for the map; `options`
//! the scatter's options and palette as the page sends them; `scatter` the map's frame, its
//! checked scene and label measuring; `paint` the raster and canvas painting of a scene;
//! `loss` the loss chart (plotters).

use std::rc::Rc;

use js_sys::JsString;
use plotters::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::glyphs::{Inks, Masks};
use crate::plot::density::{DensityField, DensityGrid};
use crate::plot::geometry::{DataRange, Px, Rect, nearest, truncate_label};
use crate::plot::raster::Raster;
use crate::plot::scene::{self, Paint, Palette};

mod loss;
mod options;
mod paint;
mod scatter;

use options::PaletteDto;
use scatter::{Measure, Scatter, Texts};

/// Labels one draw may measure: measuring is a call into the canvas, and the first draw of
/// 10,000 new words would take most of 100 ms measuring them all. A label not yet measured
/// is left out of that draw, and the page draws again at the next display frame. Each label
/// measured also has its text drawn once for its mask (`glyphs`): a search over 250,000 words
/// redrew in 18 to 26 ms with 200 a draw and in 15 to 21 ms with 100 (`node
/// scripts/bench-map.mjs --whole`), its further matches labelled a frame later.
const MEASURES_PER_DRAW: usize = 100;
/// Labels longer than this many characters end in an ellipsis.
const MAX_LABEL_CHARS: usize = 24;
/// The space around the data, as a fraction of its span on each side.
const DATA_MARGIN: f64 = 0.05;

// Sizes in CSS pixels (the scatter's marks have theirs in `plot::scene`).
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

/// A length in whole drawing pixels, at least 1, as plotters wants them.
fn px(length: f64) -> u32 {
    length.round().max(1.0) as u32
}

/// The canvas font of a label: a CSS weight and a size in drawing pixels. Measuring and
/// painting use this one string, so the measured width is the painted one.
fn font(weight: u16, size: f64) -> String {
    format!("{weight} {size}px {}", scene::FONT_FAMILY)
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
    /// The boxes of the last map's labels, then of its cluster names (drawing pixels).
    label_boxes: Vec<Rect>,
    /// The cluster names the last map drew.
    names: Vec<String>,
    /// The moves the last map drew: point, arrow start, arrow tip (drawing pixels).
    moves: Vec<(u32, Px, Px)>,
    /// Whether the last map left labels unmeasured (see `MEASURES_PER_DRAW`).
    labels_deferred: bool,
    /// The map's background, grid, axes and dots are drawn into this buffer, which then
    /// becomes the canvas's pixels.
    raster: Raster,
    /// The raster as the last maps left it after their first layer of many dots, the most
    /// recent first (see `paint`), and whether the last map began from one.
    under: Vec<paint::Underlay>,
    from_under: bool,
    /// The map's texts as the raster lays them (see `glyphs`).
    masks: Masks,
    /// The ink of the labels the last draw measured, for their masks; emptied as it paints.
    inks: Inks,
    /// Whether the context is aligned as a label's mask is drawn (`left`, `middle`), so a
    /// label measured now has the ink its mask needs: as painting a map leaves it, until the
    /// canvas is resized (which resets its state) or plotters draws on it. Kept here rather
    /// than set before measuring, which made the canvas work out its style in the middle of
    /// a redraw.
    labels_aligned: std::cell::Cell<bool>,
    /// The density layer drawn over the plain dots, when the page set one.
    density: Option<Rc<DensityField>>,
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
            label_boxes: Vec::new(),
            names: Vec::new(),
            moves: Vec::new(),
            labels_deferred: false,
            raster: Raster::new(),
            under: Vec::new(),
            from_under: false,
            masks: Masks::new(),
            inks: Inks::new(),
            labels_aligned: std::cell::Cell::new(false),
            density: None,
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
            self.labels_aligned.set(false);
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
    /// arrows, moves, highlighted, preferred, fixedRange, trails, caption, clusterNames, moving }`,
    /// each optional:
    ///
    /// - the first `labelCount` points are labelled in frequency order, skipping a label
    ///   that would overlap one already placed (a dimmed point gets none);
    /// - `hovered`, `selected` (index or null) are always labelled and drawn emphasised;
    /// - `neighbours` (indices) get a line from `selected` and their labels shown;
    /// - `arrows` (`[from, to]` pairs) are drawn as arrows with both ends labelled;
    /// - `moves` (`{point, dx, dy}`) are drawn as short arrows in the trail colour from
    ///   `(dx, dy)` data units before the point to the point (a word's row moved by training,
    ///   its move scaled), each cut to `MOVE_MAX` pixels, under the labels;
    /// - `highlighted` (indices) are drawn emphasised and labelled;
    /// - `preferred` (indices) are labelled before the frequent ones, where they fit;
    /// - `fixedRange` (`[xmin, xmax, ymin, ymax]` or null) is the data range shown (the
    ///   page's camera); without it the range is fitted to the points with a small margin;
    /// - `trails` (arrays of data coordinates `[x0, y0, x1, y1, …]`, oldest first) are drawn
    ///   as lines in the palette's trail colour, fading with age, under the other marks;
    /// - `caption` (a string or null) is written in the plotting area's top-left corner, over
    ///   everything (the moment a replay shows, so a recorded video says it too);
    /// - `clusterNames` (`{text, x, y, style}`, largest cluster first) are written centred on
    ///   their data coordinates, bold, after a swatch of the `style`'s colour, before any
    ///   word's label; a name over one before it is left out;
    /// - `moving` (true while the camera moves) says the map's first layer of dots will not be
    ///   drawn again as it is, so it is not kept for the next redraw (see `paint`).
    ///
    /// The words labelled are as many as fit, the most frequent first (`plot::labels`), and
    /// no label is drawn over another (`plot::geometry::place_labels`). A density layer set
    /// by `set_density` is drawn over the plain dots.
    ///
    /// Fails on a coordinate count that is not twice the word count, a style count that is
    /// neither 0 nor the word count, a coordinate that is not finite, an index out of range
    /// or an unknown option name.
    pub fn draw_map(&mut self, coords: &[f32], styles: &[u8], options: JsValue) -> Result<(), JsError> {
        let scene = Scatter::new(coords, &self.labels, styles, options)?;
        let keep = !scene.moving();
        // Left by a draw that failed after measuring, they could name words since replaced.
        self.inks.clear();
        if self.widths_scale != self.scale {
            self.widths = [vec![f64::NAN; self.labels.len()], vec![f64::NAN; self.labels.len()]];
            self.widths_scale = self.scale;
            self.masks.clear();
        }
        let size = (f64::from(self.canvas.width()), f64::from(self.canvas.height()));
        let aligned = self.labels_aligned.get();
        let mut measure = Measure::new(
            &self.context,
            &mut self.widths,
            (&mut self.inks, aligned),
            &self.labels,
            MEASURES_PER_DRAW,
        );
        let density = self.density.as_ref();
        let drawn = scene.draw(size, self.scale, &self.palette, &mut measure, Texts::Kept, density)?;
        self.labels_deferred = measure.deferred;
        self.points = drawn.points;
        self.points_scale = self.scale;
        self.area = drawn.area;
        self.range = drawn.range;
        self.labelled = drawn.labelled;
        self.label_boxes = drawn.boxes;
        self.names = drawn.names;
        self.moves = drawn.moves;
        self.paint(&drawn.shapes, keep)
    }

    /// Readies the map `draw_map(coords, _, options)` would draw for a search: lays the
    /// layer its redraw begins with (every point dimmed) and keeps it, drawing nothing on the
    /// canvas, so that the first keystroke of a search starts from it as the next ones do.
    /// The page calls it when idle, the camera still. Returns whether the layer is kept
    /// (false for a map with too few points to be worth it).
    pub fn prepare_search(&mut self, coords: &[f32], options: JsValue) -> Result<bool, JsError> {
        let dimmed = vec![scene::DIMMED; self.labels.len()];
        let scene = Scatter::new(coords, &self.labels, &dimmed, options)?.unmarked();
        let size = (f64::from(self.canvas.width()), f64::from(self.canvas.height()));
        // Nothing to label: the layer lies under every label. No inks are kept (their
        // masks are made by the draw that paints them).
        let mut inks = Inks::new();
        let mut measure = Measure::new(&self.context, &mut self.widths, (&mut inks, false), &self.labels, 0);
        let density = self.density.as_ref();
        let drawn = scene.draw(size, self.scale, &self.palette, &mut measure, Texts::Kept, density)?;
        Ok(self.keep_layer(&drawn.shapes))
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
        let mut inks = Inks::new();
        let mut measure =
            Measure::new(&self.context, &mut widths, (&mut inks, false), &self.labels, usize::MAX);
        let size = (f64::from(width), f64::from(height));
        let drawn =
            scene.draw(size, 1.0, &self.palette, &mut measure, Texts::Copied, self.density.as_ref())?;
        let mut svg = format!(
            r#"<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">"#
        );
        crate::plot::svg::write_svg(&mut svg, &drawn.shapes);
        svg.push_str("</svg>\n");
        Ok(svg)
    }

    /// Shades where the points crowd over the dots of the next maps (and their SVG): the
    /// density grid the worker estimated (`density_grid`), `columns × rows` values row by
    /// row from the bottom, its nodes spanning `[x0, x1] × [y0, y1]` in data coordinates.
    /// Its contour levels and lines are worked out here, once. Fails on a grid of the wrong
    /// size or with values that are not finite.
    #[allow(clippy::too_many_arguments)]
    pub fn set_density(
        &mut self,
        values: Vec<f32>,
        columns: usize,
        rows: usize,
        x0: f64,
        x1: f64,
        y0: f64,
        y1: f64,
    ) -> Result<(), JsError> {
        let grid = DensityGrid::new(columns, rows, (x0, x1), (y0, y1), values)?;
        self.density = Some(Rc::new(DensityField::new(grid)));
        Ok(())
    }

    /// Draws the next maps without the density layer.
    pub fn clear_density(&mut self) {
        self.density = None;
    }

    /// The density layer's contour levels (ascending), empty without one. Only the browser
    /// tests read it, as they read `labelled_points`, `label_boxes`, `cluster_names_drawn`,
    /// `moves_drawn`, `drew_from_underlay` and `point_position`: they test the module that
    /// ships, so these few getters ship with it.
    pub fn density_levels(&self) -> Vec<f32> {
        self.density.as_ref().map_or_else(Vec::new, |field| field.levels.clone())
    }

    /// How many words the last map labelled (more as the person zooms in).
    pub fn labels_placed(&self) -> u32 {
        self.labelled.len() as u32
    }

    /// The indices of the points the last map labelled, most important first.
    pub fn labelled_points(&self) -> Vec<u32> {
        self.labelled.clone()
    }

    /// The boxes of the last map's labels (in the order of `labelled_points`), then of its
    /// cluster names, as `[left, top, right, bottom, …]` in CSS pixels: no two overlap
    /// unless the plotting area is full around a label that must be shown.
    pub fn label_boxes(&self) -> Vec<f64> {
        let s = self.points_scale;
        self.label_boxes.iter().flat_map(|b| [b.left / s, b.top / s, b.right / s, b.bottom / s]).collect()
    }

    /// The cluster names the last map drew (it draws them when zoomed out, where they fit).
    pub fn cluster_names_drawn(&self) -> Vec<String> {
        self.names.clone()
    }

    /// The moves the last map drew, `[point, x0, y0, x1, y1, …]` with each arrow's start and
    /// tip in CSS pixels (a move whose point is not drawn, or too short, is left out).
    pub fn moves_drawn(&self) -> Vec<f64> {
        let s = self.points_scale;
        (self.moves.iter())
            .flat_map(|&(point, start, tip)| {
                [f64::from(point), start.0 / s, start.1 / s, tip.0 / s, tip.1 / s]
            })
            .collect()
    }

    /// Whether the last map began from the pixels of the one before it, up to its first layer
    /// of many dots (the dimmed points of a search, or every point), rather than laying them
    /// again: what a search on a still map should do.
    pub fn drew_from_underlay(&self) -> bool {
        self.from_under
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
}
