//! Painting a scene: the leading shapes into the raster (texts as `glyphs` masks), the rest
//! with the canvas context.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::plot::density;
use crate::plot::geometry::{Px, Rect};
use crate::plot::scene::{self, Align, Baseline, Paint, Shape};
use crate::wasm::glyphs::{self, TextContext};

use super::{Chart, drawing_error, font, js_error, rgb};

/// Layers kept at once: the map's own (every point in its colour) and a search's (every
/// point dimmed), so that clearing a search and searching again both start from one.
const UNDERLAYS: usize = 2;

/// The raster as a map left it after its leading shapes up to its first layer of many dots,
/// with those shapes. A search lays every point dimmed first (`plot::scene::scatter_shapes`),
/// so on a still camera every search, and every hover, begins with the same layer: the next
/// redraw starts from these pixels instead of laying 250,000 dots again (about 10 ms in wasm).
pub(super) struct Underlay {
    shapes: Vec<Shape>,
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

/// Where the first layer of many dots among `shapes` ends (the index after it), if the
/// raster draws every shape up to it (it comes before `drawn`).
fn layer_end(shapes: &[Shape], drawn: usize) -> Option<usize> {
    shapes[1..drawn]
        .iter()
        .position(|shape| matches!(shape, Shape::Dots { centres, .. } if centres.len() >= scene::LAYER_DOTS))
        .map(|at| at + 2)
}

/// How many of `shapes` the raster draws: all up to the first it does not (see `rastered`).
fn raster_end(shapes: &[Shape]) -> usize {
    1 + shapes[1..].iter().position(|shape| !rastered(shape)).unwrap_or(shapes.len() - 1)
}

/// Whether the raster draws `shape` (the canvas context draws the rest).
fn rastered(shape: &Shape) -> bool {
    use Shape::*;
    matches!(
        shape,
        Clip(_)
            | Unclip
            | Dots { .. }
            | Disc { .. }
            | Ring { .. }
            | Rects { .. }
            | Text { .. }
            | Label { .. }
            | Density { .. }
    )
}

impl Chart {
    /// A plotters drawing area over the whole canvas, cleared to the background.
    pub(super) fn root(&self) -> Result<DrawingArea<CanvasBackend, Shift>, JsError> {
        self.labels_aligned.set(false);
        let backend = CanvasBackend::with_canvas_object(self.canvas.clone())
            .ok_or_else(|| JsError::new("the canvas has no 2D context"))?;
        let root = backend.into_drawing_area();
        root.fill(&rgb(self.palette.background)).map_err(drawing_error)?;
        Ok(root)
    }

    /// Puts the raster on the canvas as its pixels (see `plot::raster`).
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

    /// Paints the map's shapes: the leading ones the raster can draw (all but lines and
    /// polygons: so everything, unless neighbour lines, trails or arrows are shown) into it
    /// and onto the canvas as one image, then the rest with the canvas context. The raster's
    /// texts are masks (`glyphs`), the missing ones made first.
    ///
    /// When the shapes begin as a recent map's did, up to its first layer of many dots, the
    /// raster starts from the pixels that map left there ([`Underlay`]); `keep` (false while
    /// the camera moves, when no two redraws begin alike) says whether to keep this map's.
    pub(super) fn paint(&mut self, shapes: &[Shape], keep: bool) -> Result<(), JsError> {
        let (width, height) = (self.canvas.width() as usize, self.canvas.height() as usize);
        self.labels_aligned.set(false);
        let Some(Shape::Background(background)) = shapes.first() else {
            return Err(JsError::new("the map's shapes must begin with its background"));
        };
        let drawn = raster_end(shapes);
        let keys: Vec<Option<(glyphs::Text, glyphs::Style)>> =
            shapes[1..drawn].iter().map(|shape| self.text_key(shape)).collect();
        let made = self.masks.make(keys.iter().flatten(), &self.labels, &self.inks, font);
        self.inks.clear();
        made.map_err(js_error)?;
        let layer = layer_end(shapes, drawn);
        let start = match layer.filter(|&end| self.load_underlay(&shapes[..end], (width, height))) {
            Some(end) => end,
            None => {
                self.raster.reset(width, height, *background);
                1
            }
        };
        self.from_under = start > 1;
        let clip = self.lay(shapes, start..drawn, &keys, layer.filter(|_| keep), (width, height));
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
        // Aligned as labels are, for the next draw's measuring: an unclip restores the state
        // saved before this draw aligned it. The canvas's style is worked out by now, so
        // this costs little here, unlike before the next draw's measuring.
        ctx.set_text_align("left");
        ctx.set_text_baseline("middle");
        self.labels_aligned.set(true);
        Ok(())
    }

    /// Lays into the raster, without putting it on the canvas, the leading shapes of a map
    /// up to its first layer of many dots, and keeps that layer for a later redraw that
    /// begins with the same shapes; nothing when it is kept already or `shapes` have no such
    /// layer. Returns whether the layer is kept now.
    pub(super) fn keep_layer(&mut self, shapes: &[Shape]) -> bool {
        let (width, height) = (self.canvas.width() as usize, self.canvas.height() as usize);
        let Some(Shape::Background(background)) = shapes.first() else { return false };
        let drawn = raster_end(shapes);
        let Some(end) = layer_end(shapes, drawn) else { return false };
        let lead = &shapes[..end];
        if self.kept(lead, (width, height)).is_some() {
            return true;
        }
        // Texts before the layer would need their masks made: a map has none there.
        if lead.iter().any(|shape| matches!(shape, Shape::Text { .. } | Shape::Label { .. })) {
            return false;
        }
        self.raster.reset(width, height, *background);
        self.lay(lead, 1..end, &vec![None; end - 1], Some(end), (width, height));
        true
    }

    /// Where among the kept layers is the one `lead` drew on a raster of `size`.
    fn kept(&self, lead: &[Shape], size: (usize, usize)) -> Option<usize> {
        self.under.iter().position(|u| (u.width, u.height) == size && u.shapes == lead)
    }

    /// Loads into the raster the kept layer that `lead` (a map's shapes up to its first layer
    /// of many dots) drew on a raster of `size`, if one is kept; it becomes the most recent.
    fn load_underlay(&mut self, lead: &[Shape], (width, height): (usize, usize)) -> bool {
        let Some(at) = self.kept(lead, (width, height)) else { return false };
        self.under[..=at].rotate_right(1);
        self.raster.load(width, height, &self.under[0].pixels);
        true
    }

    /// Lays `shapes[range]` into the raster (each a shape it draws, `keys[i - 1]` the mask key
    /// of shape `i`), the clip set by the shapes before the range in force; after the shape
    /// that ends at `keep_at`, keeps the raster as the most recent underlay (the least recent
    /// of `UNDERLAYS` gives way). Returns the clip in force at the end.
    fn lay(
        &mut self,
        shapes: &[Shape],
        range: std::ops::Range<usize>,
        keys: &[Option<(glyphs::Text, glyphs::Style)>],
        keep_at: Option<usize>,
        (width, height): (usize, usize),
    ) -> Option<Rect> {
        let whole = Rect { left: 0.0, top: 0.0, right: width as f64, bottom: height as f64 };
        let mut clip: Option<Rect> = None;
        for shape in &shapes[1..range.start] {
            match shape {
                Shape::Clip(area) => clip = Some(*area),
                Shape::Unclip => clip = None,
                _ => {}
            }
        }
        for (i, shape) in shapes.iter().enumerate().take(range.end).skip(range.start) {
            let within = clip.unwrap_or(whole);
            match shape {
                Shape::Clip(area) => clip = Some(*area),
                Shape::Unclip => clip = None,
                Shape::Dots { centres, radius, fill, crowd } => {
                    self.raster.dots_among(centres, *radius, *fill, &within, *crowd)
                }
                Shape::Rects { rects, fill } => self.raster.rects(rects, *fill, &within),
                // Filled, then stroked, as the canvas draws it.
                Shape::Disc { centre, radius, fill, outline, width } => {
                    self.raster.discs(&[*centre], *radius, *fill, &within);
                    self.raster.ring(*centre, *radius, *width, *outline, &within);
                }
                Shape::Ring { centre, radius, stroke, width } => {
                    self.raster.ring(*centre, *radius, *width, *stroke, &within)
                }
                Shape::Density { field, place, bands, line, width: line_width } => {
                    let segments: Vec<(Px, Px)> = (field.contours.iter().flatten())
                        .map(|[a, b]| (place.to_pixel(*a), place.to_pixel(*b)))
                        .collect();
                    let pixels = self.raster.rgba_mut();
                    density::paint_field(pixels, width, field, *place, bands, &within);
                    density::stroke_segments(pixels, width, &segments, *line_width, *line, &within);
                }
                Shape::Text { at, fill, .. } | Shape::Label { at, fill, .. } => {
                    let mask = keys[i - 1].as_ref().and_then(|key| self.masks.get(key));
                    if let Some(mask) = mask {
                        self.raster.mask(mask, *at, *fill, &within);
                    }
                }
                _ => unreachable!("only shapes the raster draws are laid"),
            }
            if keep_at == Some(i + 1) {
                let mut pixels =
                    if self.under.len() >= UNDERLAYS { self.under.pop().map(|u| u.pixels) } else { None }
                        .unwrap_or_default();
                pixels.clear();
                pixels.extend_from_slice(self.raster.rgba());
                self.under.insert(0, Underlay { shapes: shapes[..=i].to_vec(), width, height, pixels });
            }
        }
        clip
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
            Shape::Background(_) | Shape::Dots { .. } | Shape::Density { .. } => {
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
