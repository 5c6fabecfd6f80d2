//! The map's texts (labels, ticks' values, axis titles, a replay's caption) as coverage
//! masks the raster lays into its pixels, so a redraw writes no text through the canvas.
//!
//! Without a GPU the canvas lays out and rasterises every `fillText` anew: at a thousand
//! points a redraw placed a few hundred labels and spent about 1 ms of its 4 ms budget on
//! their text (0.8 ms of it in the canvas's flush). A label's pixels do not change from one redraw to the next (only where they go
//! does), so each text is drawn once by the canvas, in white on a transparent scratch
//! canvas, and its alpha kept: later redraws blend that mask in the label's colour. The
//! glyphs are the canvas's own (its font, hinting and antialiasing), laid on whole pixels.
//!
//! Texts missing from the store are drawn together, packed in rows on the scratch canvas,
//! and read back with one `getImageData`.

use std::collections::{HashMap, HashSet};

use js_sys::JsString;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::plot::raster::Mask;

/// What a mask shows: word `i` of the chart's words (kept as a JS string), or a text of
/// its own (a tick's value, a title, the caption).
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Text {
    Word(usize),
    Own(String),
}

/// How a text is drawn about its anchor: the canvas's `textAlign` and `textBaseline`, a CSS
/// font weight, the size in drawing pixels (as bits, so it can be a key), and whether it
/// reads upright (turned a quarter, bottom to top).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Style {
    pub align: &'static str,
    pub baseline: &'static str,
    pub weight: u16,
    pub size: u64,
    pub upright: bool,
}

/// How far a text's glyphs reach about its anchor, in drawing pixels (the canvas's
/// `actualBoundingBox*`): what its mask's box is made from.
#[derive(Clone, Copy)]
pub struct Ink {
    pub left: f64,
    pub right: f64,
    pub ascent: f64,
    pub descent: f64,
}

impl Ink {
    pub fn of(metrics: &web_sys::TextMetrics) -> Ink {
        Ink {
            left: metrics.actual_bounding_box_left(),
            right: metrics.actual_bounding_box_right(),
            ascent: metrics.actual_bounding_box_ascent(),
            descent: metrics.actual_bounding_box_descent(),
        }
    }
}

/// The ink of words measured for their labels' widths and not yet masked, by word, weight
/// and size (as bits), each measured with the canvas aligned `left` and `middle` (as a
/// label's mask is drawn): a label new to the map is measured once, not again for its mask.
pub type Inks = HashMap<(usize, u16, u64), Ink>;

/// Beyond this many bytes of masks the store starts again: a map of 10,000 words zoomed
/// about labels a few hundred at a time, about a kilobyte each.
const STORE_BYTES: usize = 8 << 20;
/// The scratch canvas's width: texts are packed in rows this wide.
const SCRATCH_WIDTH: usize = 2048;

/// A text's place on the scratch canvas: its box's corner `(x, y)`, its width and height,
/// and its anchor within the box.
type Slot = (usize, usize, usize, usize, (usize, usize));

/// How far a text's box reaches from its anchor, `(left, right, up, down)` in whole pixels
/// with a pixel of margin round the glyphs' own box.
fn reach(ink: Ink, upright: bool) -> (usize, usize, usize, usize) {
    let reach = |v: f64| if v.is_finite() { v.max(0.0).ceil() as usize + 1 } else { 1 };
    let (l, r) = (reach(ink.left), reach(ink.right));
    let (a, d) = (reach(ink.ascent), reach(ink.descent));
    // Turned a quarter anticlockwise, the text's ascent lies left of its anchor and its end
    // above it.
    if upright { (a, d, r, l) } else { (l, r, a, d) }
}

/// The masks made so far, and the scratch canvas they are drawn on.
pub struct Masks {
    masks: HashMap<(Text, Style), Mask>,
    bytes: usize,
    scratch: Option<(HtmlCanvasElement, CanvasRenderingContext2d)>,
}

impl Masks {
    pub fn new() -> Masks {
        Masks { masks: HashMap::new(), bytes: 0, scratch: None }
    }

    /// Forgets every mask (the words changed, or the scale).
    pub fn clear(&mut self) {
        self.masks.clear();
        self.bytes = 0;
    }

    pub fn get(&self, key: &(Text, Style)) -> Option<&Mask> {
        self.masks.get(key)
    }

    /// Makes the masks of `wanted` the store lacks, drawing them all on the scratch canvas
    /// and reading it back once. `words` are the chart's words, for `Text::Word`; a word
    /// whose ink `inks` holds (in its label's style) is not measured again.
    pub fn make<'k>(
        &mut self,
        wanted: impl Iterator<Item = &'k (Text, Style)> + Clone,
        words: &[JsString],
        inks: &Inks,
        font: impl Fn(u16, f64) -> String,
    ) -> Result<(), JsValue> {
        if !wanted.clone().any(|key| !self.masks.contains_key(key)) {
            return Ok(());
        }
        // Full, the store starts again before this batch, which then holds every text of
        // this redraw.
        if self.bytes > STORE_BYTES {
            self.clear();
        }
        let mut seen = HashSet::new();
        let mut missing: Vec<&(Text, Style)> =
            wanted.filter(|key| !self.masks.contains_key(key) && seen.insert(*key)).collect();
        // Grouped by style, so the font is set once per style.
        missing
            .sort_by_key(|(_, style)| (style.weight, style.size, style.align, style.baseline, style.upright));
        let context = self.scratch()?;
        let text_ctx: &TextContext = context.unchecked_ref();
        // Each text as the JS string the canvas takes, made once for measuring and drawing.
        let js_texts: Vec<JsString> = (missing.iter())
            .map(|(text, _)| match text {
                Text::Word(i) => words.get(*i).cloned().unwrap_or_else(|| JsString::from("")),
                Text::Own(text) => JsString::from(text.as_str()),
            })
            .collect();
        let set_style = |style: &Style| {
            context.set_font(&font(style.weight, f64::from_bits(style.size)));
            context.set_text_align(style.align);
            context.set_text_baseline(style.baseline);
        };

        // Each text's box about its anchor (a pixel of margin round the glyphs' own box),
        // packed left to right in rows.
        let mut slots: Vec<Slot> = Vec::with_capacity(missing.len());
        let (mut x, mut y, mut row_height) = (0usize, 0usize, 0usize);
        let mut last_style = None;
        for (&(text, style), js_text) in missing.iter().zip(&js_texts) {
            let known = match text {
                Text::Word(i)
                    if (style.align, style.baseline, style.upright) == ("left", "middle", false) =>
                {
                    inks.get(&(*i, style.weight, style.size)).copied()
                }
                _ => None,
            };
            let ink = match known {
                Some(ink) => ink,
                None => {
                    if last_style != Some(*style) {
                        set_style(style);
                        last_style = Some(*style);
                    }
                    Ink::of(&text_ctx.measure_js_text(js_text)?)
                }
            };
            let (left, right, up, down) = reach(ink, style.upright);
            let (width, height) = ((left + right).min(SCRATCH_WIDTH), up + down);
            if x + width > SCRATCH_WIDTH {
                (x, y, row_height) = (0, y + row_height, 0);
            }
            slots.push((x, y, width, height, (left, up)));
            x += width;
            row_height = row_height.max(height);
        }
        let used = (slots.iter().map(|s| s.0 + s.2).max().unwrap_or(1), y + row_height);

        self.clear_scratch(used);
        context.set_fill_style_str("#fff");
        last_style = None;
        for ((&(_, style), js_text), &(x, y, _, _, (ox, oy))) in missing.iter().zip(&js_texts).zip(&slots) {
            if last_style != Some(*style) {
                set_style(style);
                last_style = Some(*style);
            }
            let (ax, ay) = ((x + ox) as f64, (y + oy) as f64);
            if style.upright {
                context.save();
                context.translate(ax, ay)?;
                context.rotate(-std::f64::consts::FRAC_PI_2)?;
                text_ctx.fill_js_text(js_text, 0.0, 0.0)?;
                context.restore();
            } else {
                text_ctx.fill_js_text(js_text, ax, ay)?;
            }
        }
        let image = context.get_image_data(0.0, 0.0, used.0 as f64, used.1 as f64)?;
        self.keep(&missing, &slots, &image.data(), used.0);
        Ok(())
    }

    /// Clears the scratch canvas's first `used` pixels (width, height); a canvas too small
    /// for the batch grows, which clears it and resets its state.
    fn clear_scratch(&self, used: (usize, usize)) {
        let (canvas, context) = self.scratch.as_ref().expect("made by `scratch`");
        if (canvas.width() as usize) < used.0 || (canvas.height() as usize) < used.1 {
            canvas.set_width(canvas.width().max(used.0 as u32));
            canvas.set_height(canvas.height().max(used.1 as u32));
        } else {
            context.clear_rect(0.0, 0.0, used.0 as f64, used.1 as f64);
        }
    }

    /// Keeps the mask of each of `missing` from its slot of `rgba`, the scratch canvas's
    /// pixels read back, `stride` pixels a row.
    fn keep(&mut self, missing: &[&(Text, Style)], slots: &[Slot], rgba: &[u8], stride: usize) {
        for (&(text, style), &(x, y, width, height, origin)) in missing.iter().zip(slots) {
            let mut coverage = Vec::with_capacity(width * height);
            for j in y..y + height {
                let row = &rgba[4 * (j * stride + x)..4 * (j * stride + x + width)];
                coverage.extend(row.chunks_exact(4).map(|p| coverage_of(p[3])));
            }
            self.bytes += 2 * coverage.len();
            let mask = Mask { width, height, origin: (origin.0 as i64, origin.1 as i64), coverage };
            self.masks.insert((text.clone(), *style), mask);
        }
    }

    /// The scratch canvas's context, made on first use.
    fn scratch(&mut self) -> Result<CanvasRenderingContext2d, JsValue> {
        if let Some((_, context)) = &self.scratch {
            return Ok(context.clone());
        }
        let document =
            web_sys::window().and_then(|w| w.document()).ok_or("the map's texts need a document")?;
        let canvas: HtmlCanvasElement = document.create_element("canvas")?.dyn_into()?;
        canvas.set_width(SCRATCH_WIDTH as u32);
        canvas.set_height(64);
        // Read back after every batch: asked for so, the canvas keeps its pixels in memory.
        let options = js_sys::Object::new();
        js_sys::Reflect::set(&options, &"willReadFrequently".into(), &true.into())?;
        let context: CanvasRenderingContext2d = canvas
            .get_context_with_context_options("2d", &options)?
            .ok_or("the map's texts need a 2D canvas")?
            .dyn_into()?;
        self.scratch = Some((canvas, context.clone()));
        Ok(context)
    }
}

/// A mask's coverage (1/256ths) of an image's alpha byte (0–255).
fn coverage_of(alpha: u8) -> u16 {
    ((u32::from(alpha) * 257 + 128) >> 8) as u16
}

#[wasm_bindgen]
extern "C" {
    /// The canvas context again, for the two calls below: web-sys's fillText and measureText
    /// take a `&str`, which is copied into a new JS string on each call; these take the JS
    /// string the chart keeps.
    #[wasm_bindgen(js_name = CanvasRenderingContext2D)]
    pub type TextContext;
    #[wasm_bindgen(method, js_name = fillText, catch)]
    pub fn fill_js_text(this: &TextContext, text: &js_sys::JsString, x: f64, y: f64) -> Result<(), JsValue>;
    #[wasm_bindgen(method, js_name = measureText, catch)]
    pub fn measure_js_text(
        this: &TextContext,
        text: &js_sys::JsString,
    ) -> Result<web_sys::TextMetrics, JsValue>;
}
