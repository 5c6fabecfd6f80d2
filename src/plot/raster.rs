//! The map's opaque layer drawn into a pixel buffer, not through the canvas's path calls:
//! the background, the grid, the axes and their ticks, the dots and, when nothing is drawn
//! between them, the labels' backdrops.
//!
//! Without a GPU (Chromium here, or a browser that falls back to software), filling a path
//! of 10,000 small circles costs the canvas about 35 ms; writing the same discs into an
//! RGBA buffer and handing it over as one image costs a few. The buffer covers the whole
//! canvas and is opaque from the start (it begins as the background), so it is put on the
//! canvas as it is (`putImageData`, no blending and no second canvas), in place of clearing
//! the canvas; and blending a mark over an opaque pixel needs no division.
//!
//! Each mark is antialiased by coverage: a disc's coverage falls from 1 to 0 over the pixel
//! around its rim, a rectangle's is the share of each pixel it covers (so a rectangle on
//! whole pixels is crisp).

use super::geometry::{Px, Rect};
use super::scene::Paint;

mod dots;
use dots::{SUBPIXEL_BITS, SUBPIXELS, Stamps};

/// An opaque RGBA image (alpha always 255, as `ImageData` holds it), `width × height`
/// pixels.
#[derive(Default)]
pub struct Raster {
    width: usize,
    height: usize,
    /// r, g, b, a bytes per pixel, row by row.
    bytes: Vec<u8>,
    /// The discs' stamps made so far, by radius and opacity: a map has a few of each, and
    /// making a stamp set anew on every redraw cost as much as drawing a thousand discs.
    stamps: Vec<Stamps>,
    /// `dots`' optical depth per pixel, in 1/`DEPTH_UNIT`ths; all zero between calls.
    depth: Vec<u16>,
    /// `dots`' count of centres by pixel of one band of rows, and the eighth of a pixel of
    /// the first; all zero between calls.
    bins: Vec<u32>,
    /// `dots`' centres as (row, column, eighths) keys, in the order given and then by band,
    /// and where each band's keys start: kept to reuse their memory.
    keys: Vec<u64>,
    sorted: Vec<u64>,
    band_starts: Vec<u32>,
}

impl Raster {
    pub fn new() -> Raster {
        Raster::default()
    }

    /// Fills `width × height` pixels with `background`, opaque whatever its alpha (reusing
    /// the memory).
    pub fn reset(&mut self, width: usize, height: usize, background: Paint) {
        let (r, g, b) = background.rgb;
        self.resize(width, height);
        self.bytes.reserve(4 * width * height);
        // Whole pixels at a time: `extend` of one repeated array compiles to a tight loop.
        self.bytes.extend(std::iter::repeat_n([r, g, b, 255], width * height).flatten());
    }

    /// Takes `pixels`, an image of `width × height` as [`Raster::rgba`] gave it, as its own
    /// (reusing the memory).
    ///
    /// **Unchecked precondition:** `pixels.len() == 4 * width * height`.
    pub fn load(&mut self, width: usize, height: usize, pixels: &[u8]) {
        self.resize(width, height);
        self.bytes.extend_from_slice(pixels);
    }

    /// Takes the size, with no pixels yet and a depth buffer to match.
    fn resize(&mut self, width: usize, height: usize) {
        self.width = width;
        self.height = height;
        self.bytes.clear();
        if self.depth.len() != width * height {
            self.depth = vec![0; width * height];
        }
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// `clip`'s edges (left, top, right, bottom) limited to the image.
    fn bounds(&self, clip: &Rect) -> (f32, f32, f32, f32) {
        let (w, h) = (self.width as f32, self.height as f32);
        (
            (clip.left as f32).clamp(0.0, w),
            (clip.top as f32).clamp(0.0, h),
            (clip.right as f32).clamp(0.0, w),
            (clip.bottom as f32).clamp(0.0, h),
        )
    }

    /// Draws discs of `radius` and `paint` at `centres` (pixels, y down), each over what is
    /// there; only their parts inside `clip` are drawn.
    ///
    /// All discs of a call share a radius, so their coverage is worked out once, for centres
    /// at each eighth of a pixel (`Stamps`); a disc then costs a table lookup and an
    /// integer blend per pixel, not a square root. A centre is off by at most a sixteenth of
    /// a pixel, which no eye sees.
    pub fn discs(&mut self, centres: &[Px], radius: f64, paint: Paint, clip: &Rect) {
        self.stamp(centres, (radius, None), paint, clip);
    }

    /// Draws many discs of one `radius` and `paint` at `centres`, as `discs` would (to within
    /// a byte a channel), at a fraction of its cost: the map's dots, up to millions of them.
    ///
    /// Translucent discs of one colour laid over each other leave a pixel at `1 − Π(1 − aᵢ)`
    /// of that colour, whatever their order (aᵢ: the opacity times disc i's coverage of the
    /// pixel). So each disc adds its optical depth `−ln(1 − aᵢ)` to a per-pixel sum (a table
    /// lookup and a saturating 16-bit add per pixel, where `discs` blends all four channels),
    /// and the sum becomes one blend per pixel at the end. An opaque colour counts as
    /// 1 − 1/1024 opaque: a pixel it covers whole still comes out as its colour.
    ///
    /// The sums cost a pass over the clip whatever the number of dots (about 3 ms for a
    /// full-screen map natively, where `discs` lays 1,000 dots in 0.3 ms), so dots sparser
    /// than one in [`SPARSE_PIXELS`] pixels of the clip are laid by `discs`.
    pub fn dots(&mut self, centres: &[Px], radius: f64, paint: Paint, clip: &Rect) {
        self.dots_among(centres, radius, paint, clip, centres.len());
    }

    /// `dots` for a part of a drawing of `crowd` dots in all, laid a colour at a time (a map
    /// whose search dims most of its words): the dots are counted by cells of 2 × 2 pixels
    /// when the whole drawing is crowded, not only when this part is. Whether dots pile up is
    /// the drawing's: 250,000 dots split in two colours of 125,000 would otherwise each be
    /// counted by pixel, at four times the stamps (natively 20.7 ms for the pair against
    /// 6.2 ms for the 250,000 in one colour).
    pub fn dots_among(&mut self, centres: &[Px], radius: f64, paint: Paint, clip: &Rect, crowd: usize) {
        let (left, top, right, bottom) = self.bounds(clip);
        let pixels = (f64::from((right - left).max(0.0)) * f64::from((bottom - top).max(0.0))) as usize;
        if centres.len().saturating_mul(SPARSE_PIXELS) < pixels {
            self.discs(centres, radius, paint, clip);
        } else {
            self.summed_dots_among(centres, radius, paint, clip, crowd.max(centres.len()));
        }
    }

    /// Strokes a circle of `radius` about `centre` with a line `width` wide, as the canvas
    /// strokes an arc: the ring from `radius - width / 2` to `radius + width / 2`. Only its
    /// part inside `clip` is drawn.
    pub fn ring(&mut self, centre: Px, radius: f64, width: f64, paint: Paint, clip: &Rect) {
        let half = width.max(0.0) / 2.0;
        self.stamp(&[centre], (radius + half, Some(radius - half)), paint, clip);
    }

    /// Lays the stamp of `shape` (an outer radius, and an inner one for a ring) in `paint`
    /// at each of `centres`, clipped.
    fn stamp(&mut self, centres: &[Px], shape: (f64, Option<f64>), paint: Paint, clip: &Rect) {
        let key = (shape.0.to_bits(), shape.1.map(f64::to_bits), paint.alpha.to_bits());
        let found = self.stamps.iter().position(|s| s.key == key);
        let index = found.unwrap_or_else(|| {
            // A few sizes and opacities at most; a change of scale or palette makes more.
            if self.stamps.len() >= 16 {
                self.stamps.clear();
            }
            self.stamps.push(Stamps::new(shape.0, shape.1, paint.alpha));
            self.stamps.len() - 1
        });
        let stamps = &self.stamps[index];
        let side = stamps.side as i64;
        let (left, top, right, bottom) = self.bounds(clip);
        let (left, top, right, bottom) = (left.ceil() as i64, top.ceil() as i64, right as i64, bottom as i64);
        // Far outside any drawing, so a centre beyond it is skipped without overflow.
        let far = 1e9;
        for &(cx, cy) in centres {
            if !(cx.abs() < far && cy.abs() < far) {
                continue;
            }
            // The centre in eighths of a pixel; the stamp's top-left pixel, and the centre's
            // eighth of a pixel within its own pixel (integer steps: a float remainder per
            // disc cost more than the disc).
            let (sx, sy) = ((cx * SUBPIXELS as f64).round() as i64, (cy * SUBPIXELS as f64).round() as i64);
            let (fx, fy) = ((sx & (SUBPIXELS - 1)) as usize, (sy & (SUBPIXELS - 1)) as usize);
            let (x, y) = ((sx >> SUBPIXEL_BITS) - stamps.reach, (sy >> SUBPIXEL_BITS) - stamps.reach);
            if x <= left - side || y <= top - side || x >= right || y >= bottom {
                continue;
            }
            let stamp = stamps.get(fx, fy);
            let (i0, i1) = ((left - x).max(0), (right - x).min(side));
            for j in (top - y).max(0)..(bottom - y).min(side) {
                let row_start = 4 * ((y + j) as usize * self.width + (x + i0) as usize);
                let row = &mut self.bytes[row_start..row_start + 4 * (i1 - i0) as usize];
                let coverage = &stamp[(j * side + i0) as usize..(j * side + i1) as usize];
                for (pixel, &a) in row.chunks_exact_mut(4).zip(coverage) {
                    blend(pixel, paint.rgb, u32::from(a));
                }
            }
        }
    }

    /// Fills `rects` with `paint`, each over what is there; only their parts inside `clip`
    /// are drawn. A pixel the rectangle covers in part is blended by the part it covers.
    pub fn rects(&mut self, rects: &[Rect], paint: Paint, clip: &Rect) {
        let alpha = paint.alpha.clamp(0.0, 1.0) as f32;
        let (left, top, right, bottom) = self.bounds(clip);
        // In 1/256ths, the share of pixel i (from i to i + 1) lying between lo and hi.
        let share = |i: usize, lo: f32, hi: f32| (hi.min(i as f32 + 1.0) - lo.max(i as f32)).max(0.0);
        let in_256ths = |a: f32| (a * 256.0 + 0.5) as u32;
        for r in rects {
            let (l, t) = ((r.left as f32).max(left), (r.top as f32).max(top));
            let (rt, b) = ((r.right as f32).min(right), (r.bottom as f32).min(bottom));
            if !(l < rt && t < b) {
                continue;
            }
            let (x0, x1) = (l.floor() as usize, rt.ceil() as usize);
            let (y0, y1) = (t.floor() as usize, b.ceil() as usize);
            let (first, last) = (share(x0, l, rt), share(x1 - 1, l, rt));
            for y in y0..y1 {
                let row_alpha = alpha * share(y, t, b);
                let row = &mut self.bytes[4 * (y * self.width + x0)..4 * (y * self.width + x1)];
                // The columns between the first and the last are covered whole.
                let (head, tail) = row.split_at_mut(4);
                blend(head, paint.rgb, in_256ths(row_alpha * first));
                if let Some(split) = tail.len().checked_sub(4) {
                    let (middle, end) = tail.split_at_mut(split);
                    blend_run(middle, paint.rgb, in_256ths(row_alpha));
                    blend(end, paint.rgb, in_256ths(row_alpha * last));
                }
            }
        }
    }

    /// Lays `mask` on the image in `paint`, its origin on the pixel nearest `at`; only its
    /// part inside `clip` is drawn. Text is drawn so (see `glyphs`): a shift of at most half
    /// a pixel, and no sub-pixel resampling, which would blur the glyphs.
    pub fn mask(&mut self, mask: &Mask, at: Px, paint: Paint, clip: &Rect) {
        if !(at.0.abs() < 1e9 && at.1.abs() < 1e9) {
            return;
        }
        let (left, top, right, bottom) = self.bounds(clip);
        let (left, top, right, bottom) = (left.ceil() as i64, top.ceil() as i64, right as i64, bottom as i64);
        let (x, y) = (at.0.round() as i64 - mask.origin.0, at.1.round() as i64 - mask.origin.1);
        let (w, h) = (mask.width as i64, mask.height as i64);
        let (i0, i1) = ((left - x).max(0), (right - x).min(w));
        let (j0, j1) = ((top - y).max(0), (bottom - y).min(h));
        if i0 >= i1 {
            return;
        }
        let opacity = (paint.alpha.clamp(0.0, 1.0) * 256.0).round() as u32;
        for j in j0..j1 {
            let row_start = 4 * ((y + j) as usize * self.width + (x + i0) as usize);
            let row = &mut self.bytes[row_start..row_start + 4 * (i1 - i0) as usize];
            let coverage = &mask.coverage[(j * w + i0) as usize..(j * w + i1) as usize];
            for (pixel, &a) in row.chunks_exact_mut(4).zip(coverage) {
                blend(pixel, paint.rgb, (u32::from(a) * opacity + 128) >> 8);
            }
        }
    }

    /// The image as RGBA bytes, row by row, as `ImageData` wants.
    pub fn rgba(&self) -> &[u8] {
        &self.bytes
    }

    /// The same bytes to draw into (the density layer, `plot::density`); alpha stays 255.
    pub fn rgba_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }
}

/// A coverage image, `width × height` pixels row by row, each in 1/256ths (0 nothing, 256
/// covered whole), laid with its `origin` pixel on an anchor: a line of text as the canvas
/// drew it.
#[derive(Debug)]
pub struct Mask {
    pub width: usize,
    pub height: usize,
    pub origin: (i64, i64),
    pub coverage: Vec<u16>,
}

/// `colour` at opacity `a` (in 1/256ths, 0 to 256) over an opaque pixel, source-over.
#[inline]
fn blend(pixel: &mut [u8], colour: (u8, u8, u8), a: u32) {
    // The pixel as one little-endian word: red and blue in one half of it, green and alpha
    // in the other, so two multiplications blend all four channels (each product fits in
    // its 16 bits). Alpha stays 255: 255 · a + 255 · (256 − a) = 255 · 256.
    const LOW: u32 = 0x00ff_00ff;
    let (r, g, b) = colour;
    let source = u32::from_le_bytes([r, g, b, 255]);
    let below = u32::from_le_bytes([pixel[0], pixel[1], pixel[2], pixel[3]]);
    let keep = 256 - a;
    let rb = ((source & LOW) * a + (below & LOW) * keep + 0x0080_0080) >> 8 & LOW;
    let ga = (((source >> 8) & LOW) * a + ((below >> 8) & LOW) * keep + 0x0080_0080) & !LOW;
    pixel.copy_from_slice(&(rb | ga).to_le_bytes());
}

/// `colour` at opacity `a` (in 1/256ths) over each pixel of `row`, as `blend` does, with the
/// colour's share worked out once: the bulk of a rectangle.
fn blend_run(row: &mut [u8], colour: (u8, u8, u8), a: u32) {
    const LOW: u32 = 0x00ff_00ff;
    let (r, g, b) = colour;
    let source = u32::from_le_bytes([r, g, b, 255]);
    let (rb_source, ga_source) = ((source & LOW) * a + 0x0080_0080, ((source >> 8) & LOW) * a + 0x0080_0080);
    let keep = 256 - a;
    for pixel in row.chunks_exact_mut(4) {
        let below = u32::from_le_bytes([pixel[0], pixel[1], pixel[2], pixel[3]]);
        let rb = (rb_source + (below & LOW) * keep) >> 8 & LOW;
        let ga = (ga_source + ((below >> 8) & LOW) * keep) & !LOW;
        pixel.copy_from_slice(&(rb | ga).to_le_bytes());
    }
}

/// Dots sparser than one in this many pixels of the clip are laid one by one (`discs`):
/// natively, 10,000 dots over a 1,760 × 1,080 clip took 3.8 ms that way and 5.1 ms summed,
/// 100,000 took 77 ms and 9.5 ms.
const SPARSE_PIXELS: usize = 100;
#[cfg(test)]
mod tests {
    use super::*;

    const RED: Paint = Paint::new(255, 0, 0, 1.0);
    const WHITE: Paint = Paint::new(255, 255, 255, 1.0);
    const ALL: Rect = Rect { left: 0.0, top: 0.0, right: 1e9, bottom: 1e9 };

    fn pixel(raster: &Raster, x: usize, y: usize) -> [u8; 4] {
        let (width, _) = raster.size();
        raster.rgba()[4 * (y * width + x)..][..4].try_into().unwrap()
    }

    /// How much of the red a pixel took, 0 to 1, over white (green falls as red is laid on).
    fn redness(raster: &Raster, x: usize, y: usize) -> f64 {
        1.0 - f64::from(pixel(raster, x, y)[1]) / 255.0
    }

    #[test]
    fn reset_fills_opaque_with_the_background() {
        let mut raster = Raster::new();
        raster.reset(3, 2, Paint::new(10, 20, 30, 0.5));
        assert_eq!(raster.size(), (3, 2));
        assert!(raster.rgba().chunks_exact(4).all(|p| p == [10, 20, 30, 255]));
        raster.reset(1, 1, WHITE);
        assert_eq!(raster.rgba(), [255, 255, 255, 255]);
    }

    #[test]
    fn a_disc_covers_its_area_and_is_its_colour_inside() {
        let mut raster = Raster::new();
        raster.reset(40, 40, WHITE);
        raster.discs(&[(20.0, 20.0)], 6.0, RED, &ALL);
        let covered: f64 =
            (0..40).flat_map(|y| (0..40).map(move |x| (x, y))).map(|(x, y)| redness(&raster, x, y)).sum();
        let area = std::f64::consts::PI * 36.0;
        assert!((covered - area).abs() < 0.03 * area, "coverage {covered} vs area {area}");
        assert_eq!(pixel(&raster, 20, 20), [255, 0, 0, 255], "the centre is the colour");
        assert_eq!(pixel(&raster, 20, 30), [255, 255, 255, 255], "outside the rim nothing");
        assert!(raster.rgba().chunks_exact(4).all(|p| p[3] == 255), "always opaque");
    }

    #[test]
    fn translucent_discs_blend_over_what_is_there() {
        let mut raster = Raster::new();
        raster.reset(10, 10, WHITE);
        let half = Paint::new(0, 0, 255, 0.5);
        raster.discs(&[(5.0, 5.0)], 3.0, half, &ALL);
        assert_eq!(pixel(&raster, 5, 5), [128, 128, 255, 255]);
        raster.discs(&[(5.0, 5.0)], 3.0, half, &ALL);
        // Two halves over white: a quarter of the white is left, give or take a byte's rounding.
        assert!((63..=65).contains(&pixel(&raster, 5, 5)[0]), "{:?}", pixel(&raster, 5, 5));
        raster.discs(&[(5.0, 5.0)], 3.0, RED, &ALL);
        assert_eq!(pixel(&raster, 5, 5), [255, 0, 0, 255], "an opaque disc covers");
    }

    #[test]
    fn discs_of_each_radius_and_opacity_get_their_own_coverage() {
        // One raster draws discs of several sizes and opacities in turn (keeping the stamps it
        // made); each must come out as it does on a fresh raster.
        let kinds = [(3.0, 1.0), (1.5, 1.0), (3.0, 0.5), (3.0, 1.0)];
        let mut kept = Raster::new();
        for (i, &(radius, alpha)) in kinds.iter().enumerate() {
            kept.reset(12, 12, WHITE);
            kept.discs(&[(6.3, 5.8)], radius, RED.alpha(alpha), &ALL);
            let mut fresh = Raster::new();
            fresh.reset(12, 12, WHITE);
            fresh.discs(&[(6.3, 5.8)], radius, RED.alpha(alpha), &ALL);
            assert_eq!(kept.rgba(), fresh.rgba(), "disc {i}: radius {radius}, alpha {alpha}");
        }
        let redness_at = |radius: f64| {
            let mut raster = Raster::new();
            raster.reset(12, 12, WHITE);
            raster.discs(&[(6.0, 6.0)], radius, RED, &ALL);
            redness(&raster, 6, 3)
        };
        assert!(redness_at(3.0) > 0.9 && redness_at(1.5) == 0.0);
    }

    #[test]
    fn discs_are_clipped_and_nonsense_is_skipped() {
        let mut raster = Raster::new();
        raster.reset(8, 6, WHITE);
        let clip = Rect { left: 2.0, top: 1.0, right: 8.0, bottom: 6.0 };
        let centres = [(2.0, 1.0), (8.0, 6.0), (-50.0, 3.0), (f64::NAN, 1.0), (1e300, 1e300)];
        raster.discs(&centres, 2.0, RED, &clip);
        assert!(redness(&raster, 2, 1) > 0.8, "inside the clip");
        assert_eq!(redness(&raster, 1, 1), 0.0, "left of the clip");
        assert_eq!(redness(&raster, 2, 0), 0.0, "above the clip");
        assert!(redness(&raster, 7, 5) > 0.0);
        assert_eq!(redness(&raster, 5, 3), 0.0);
        raster.reset(0, 0, WHITE);
        raster.discs(&[(0.0, 0.0)], 2.0, RED, &ALL);
        assert!(raster.rgba().is_empty());
    }

    /// The largest difference of any channel between two rasters of one size.
    fn largest_difference(a: &Raster, b: &Raster) -> u8 {
        a.rgba().iter().zip(b.rgba()).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0)
    }

    /// Seeded centres spread over `size × size` pixels and a little beyond, no two in one
    /// pixel (where `dots` counts them together).
    fn scattered(n: usize, size: f64, seed: u64) -> Vec<Px> {
        let mut state = seed;
        let mut next = move || {
            // A 64-bit LCG (Knuth's MMIX constants) is plenty for test positions.
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut taken = std::collections::HashSet::new();
        let mut centres = Vec::with_capacity(n);
        while centres.len() < n {
            let centre = (next() * (size + 20.0) - 10.0, next() * (size + 20.0) - 10.0);
            if taken.insert(((centre.0 * 8.0).round() as i64 >> 3, (centre.1 * 8.0).round() as i64 >> 3)) {
                centres.push(centre);
            }
        }
        centres
    }

    #[test]
    fn dots_draw_what_discs_draw_one_over_another() {
        // `discs` blends each disc over the last; `dots` sums their depths: the same picture
        // to within a byte or two a channel (each disc rounds once in `discs`), in opaque and
        // translucent colours, radii of the map's dots at 1x, 1.5x, 2x and one of no set
        // size, overlapping or not, some reaching past the clip.
        let clip = Rect { left: 2.0, top: 3.5, right: 37.0, bottom: 40.0 };
        for (radius, alpha) in [(2.5, 0.75), (5.0, 0.95), (3.75, 0.5), (1.0, 1.0), (2.5, 0.25), (6.7, 0.75)] {
            // 120 dots: sparse enough to be counted by pixel (see the next test for crowds).
            for centres in
                [vec![(10.3, 11.6)], vec![(10.0, 10.0), (12.0, 11.0), (11.0, 13.5)], scattered(120, 40.0, 3)]
            {
                let paint = Paint::new(30, 90, 200, alpha);
                let mut blended = Raster::new();
                blended.reset(40, 40, WHITE);
                blended.discs(&centres, radius, paint, &clip);
                let mut summed = Raster::new();
                summed.reset(40, 40, WHITE);
                summed.summed_dots(&centres, radius, paint, &clip);
                // Overlaps add up rounding: a byte a disc at most, a few where dozens pile up.
                let most = if centres.len() > 3 { 4 } else { 1 };
                let difference = largest_difference(&blended, &summed);
                assert!(
                    difference <= most,
                    "radius {radius}, alpha {alpha}, {} discs: {difference}",
                    centres.len()
                );
            }
        }
    }

    #[test]
    fn crowded_dots_are_counted_by_cells_of_two_pixels_and_a_dot_alone_in_one_stays_put() {
        // 400 dots two pixels apart on a 40 × 40 image: crowded (one in 4 pixels), each
        // alone in its 2 × 2 cell, so each is drawn where it is, as `discs` draws them.
        let mut state = 5u64;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let lattice: Vec<Px> = (0..400)
            .map(|i| (2.0 * (i % 20) as f64 + 0.9 * next(), 2.0 * (i / 20) as f64 + 0.9 * next()))
            .collect();
        let paint = Paint::new(30, 90, 200, 0.75);
        let mut blended = Raster::new();
        blended.reset(40, 40, WHITE);
        blended.discs(&lattice, 2.5, paint, &ALL);
        let mut summed = Raster::new();
        summed.reset(40, 40, WHITE);
        summed.summed_dots(&lattice, 2.5, paint, &ALL);
        assert!(largest_difference(&blended, &summed) <= 4, "{}", largest_difference(&blended, &summed));
        // Two dots in one cell (pixels 11 and 12 share one: the cells of a radius-2.5 dot's
        // centre pixel run from odd to even), crowded by dots off the image, are drawn as two
        // at the first one's place.
        let mut crowded = vec![(11.5, 11.25), (12.5, 12.75)];
        crowded.extend([(-100.0, -100.0); 400]);
        summed.reset(40, 40, WHITE);
        summed.summed_dots(&crowded, 2.5, paint, &ALL);
        blended.reset(40, 40, WHITE);
        blended.discs(&[(11.5, 11.25); 2], 2.5, paint, &ALL);
        assert!(largest_difference(&blended, &summed) <= 2, "{}", largest_difference(&blended, &summed));
    }

    #[test]
    fn a_part_of_a_crowded_drawing_is_counted_by_cells_like_the_whole() {
        // The two dots in one 2 × 2 cell above, alone: not crowded by themselves, each is drawn
        // where it is; as a colour's share of a drawing of 400 dots, at the first one's place.
        let paint = Paint::new(30, 90, 200, 0.75);
        let pair = [(11.5, 11.25), (12.5, 12.75)];
        let drawn = |crowd: usize| {
            let mut raster = Raster::new();
            raster.reset(40, 40, WHITE);
            raster.summed_dots_among(&pair, 2.5, paint, &ALL, crowd);
            raster
        };
        let mut apart = Raster::new();
        apart.reset(40, 40, WHITE);
        apart.discs(&pair, 2.5, paint, &ALL);
        let mut stacked = Raster::new();
        stacked.reset(40, 40, WHITE);
        stacked.discs(&[pair[0]; 2], 2.5, paint, &ALL);
        assert!(largest_difference(&apart, &drawn(2)) <= 2, "alone, each where it is");
        assert!(largest_difference(&stacked, &drawn(400)) <= 2, "in a crowd, at the first one's place");
        assert!(largest_difference(&apart, &stacked) > 20, "the two drawings differ enough to tell");
        // `dots_among` hands the crowd on (two dots over 1,600 pixels are sparse: laid one by
        // one whatever the crowd, so the summed path is reached with a smaller clip).
        let mut part = Raster::new();
        part.reset(40, 40, WHITE);
        let clip = Rect { left: 8.0, top: 8.0, right: 18.0, bottom: 18.0 };
        part.dots_among(&pair, 2.5, paint, &clip, 400);
        let mut whole = Raster::new();
        whole.reset(40, 40, WHITE);
        whole.summed_dots_among(&pair, 2.5, paint, &clip, 400);
        assert_eq!(largest_difference(&part, &whole), 0);
    }

    #[test]
    fn dots_in_one_pixel_count_together_from_the_first_ones_place() {
        // Five dots within one pixel are drawn as five at the first one's eighth of a pixel.
        let paint = Paint::new(200, 40, 40, 0.3);
        let centres = [(10.3, 10.6), (10.45, 10.55), (10.9, 10.9), (10.0, 10.5), (10.3, 10.6)];
        let mut summed = Raster::new();
        summed.reset(20, 20, WHITE);
        summed.summed_dots(&centres, 2.5, paint, &ALL);
        let mut blended = Raster::new();
        blended.reset(20, 20, WHITE);
        blended.discs(&[(10.3, 10.6); 5], 2.5, paint, &ALL);
        assert!(largest_difference(&blended, &summed) <= 3, "{}", largest_difference(&blended, &summed));
    }

    #[test]
    fn dots_are_the_same_in_any_order_and_leave_nothing_behind() {
        // Sparse enough to be counted by pixel, each in its own.
        let centres = scattered(70, 30.0, 9);
        let paint = Paint::new(200, 40, 40, 0.6);
        let clip = Rect { left: 3.0, top: 2.0, right: 28.0, bottom: 29.0 };
        let draw = |raster: &mut Raster, centres: &[Px]| {
            raster.reset(30, 30, WHITE);
            raster.summed_dots(centres, 2.5, paint, &clip);
            raster.rgba().to_vec()
        };
        let mut raster = Raster::new();
        let forwards = draw(&mut raster, &centres);
        let reversed: Vec<Px> = centres.iter().rev().copied().collect();
        // The same raster again: the sums and bins of the last call were cleared as read.
        assert!(draw(&mut raster, &reversed) == forwards, "another order, another picture");
        assert!(raster.depth.iter().all(|&d| d == 0) && raster.bins.iter().all(|&b| b == 0));
        // Nothing outside the clip.
        let white = |x: usize, y: usize| forwards[4 * (y * 30 + x)..][..4] == [255, 255, 255, 255];
        assert!((0..30).all(|y| white(2, y) && white(28, y)));
        assert!((0..30).all(|x| white(x, 1) && white(x, 29)));
    }

    #[test]
    fn a_pile_of_translucent_dots_takes_the_colour_whole_and_stays_opaque() {
        let mut raster = Raster::new();
        raster.reset(20, 20, WHITE);
        // 10,000 dots on one spot: far past what a 16-bit sum of one disc's depth holds at once.
        raster.summed_dots(&vec![(10.0, 10.0); 10_000], 3.0, Paint::new(0, 0, 255, 0.1), &ALL);
        assert_eq!(pixel(&raster, 10, 10), [0, 0, 255, 255]);
        // One dot at opacity 0.1: a tenth of the colour, 255 × 0.9 = 229.5 in red and green.
        raster.reset(20, 20, WHITE);
        raster.summed_dots(&[(10.0, 10.0)], 3.0, Paint::new(0, 0, 255, 0.1), &ALL);
        let [r, g, b, a] = pixel(&raster, 10, 10);
        assert!((229..=230).contains(&r) && r == g && (b, a) == (255, 255), "{:?}", [r, g, b, a]);
        // Nonsense centres and an empty raster are skipped.
        raster.summed_dots(&[(f64::NAN, 1.0), (1e300, 1e300), (-1e300, 5.0)], 3.0, RED, &ALL);
        assert_eq!(pixel(&raster, 0, 0), [255, 255, 255, 255]);
        raster.reset(0, 0, WHITE);
        raster.summed_dots(&[(0.0, 0.0)], 2.0, RED, &ALL);
        assert!(raster.rgba().is_empty());
    }

    #[test]
    #[ignore = "a timing, not a check: cargo test --release --lib plot::raster -- --ignored --nocapture"]
    fn time_dots_and_discs() {
        // Nine clusters over the image, as a map's words often lie.
        let mut state = 1u64;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for n in [10_000, 250_000, 1_000_000] {
            let centres: Vec<Px> = (0..n)
                .map(|i| {
                    let spread = |next: &mut dyn FnMut() -> f64| (0..4).map(|_| next()).sum::<f64>() - 2.0;
                    let (x, y) = (spread(&mut next), spread(&mut next));
                    (
                        120.0 + 300.0 * (i % 3) as f64 + 100.0 * x,
                        100.0 + 200.0 * (i / 3 % 3) as f64 + 70.0 * y,
                    )
                })
                .collect();
            let paint = Paint::new(0x94, 0xa3, 0xb8, 0.75);
            let mut raster = Raster::new();
            // Dots in two colours, half each, as a map whose search dims most of its words
            // lays them: parts of one crowd.
            let dimmed = Paint::new(0xcb, 0xd5, 0xe1, 0.5);
            let (first, second) = centres.split_at(n / 2);
            for name in ["discs", "dots", "dots in two colours"] {
                // The fastest of 7: the machine is shared.
                let fastest = (0..7)
                    .map(|_| {
                        raster.reset(960, 600, WHITE);
                        let started = std::time::Instant::now();
                        match name {
                            "discs" => raster.discs(&centres, 2.5, paint, &ALL),
                            "dots" => raster.summed_dots(&centres, 2.5, paint, &ALL),
                            _ => {
                                raster.dots_among(first, 2.5, dimmed, &ALL, n);
                                raster.dots_among(second, 2.5, paint, &ALL, n);
                            }
                        }
                        started.elapsed().as_secs_f64() * 1000.0
                    })
                    .fold(f64::INFINITY, f64::min);
                println!("{n} {name}: {fastest:.2} ms");
            }
        }
    }

    #[test]
    fn a_ring_covers_its_line_and_leaves_its_hole_and_outside_alone() {
        let mut raster = Raster::new();
        raster.reset(40, 40, WHITE);
        // Radius 10 about (20.5, 20.5), a line 2 wide: from 9 to 11 pixels out.
        raster.ring((20.5, 20.5), 10.0, 2.0, RED, &ALL);
        assert_eq!(redness(&raster, 20, 20), 0.0, "the centre");
        assert_eq!(redness(&raster, 20 + 7, 20), 0.0, "inside the line");
        assert!(redness(&raster, 20 + 10, 20) > 0.99, "on the line");
        assert!(redness(&raster, 20, 20 - 10) > 0.99, "on the line, above");
        assert_eq!(redness(&raster, 20 + 13, 20), 0.0, "outside the line");
        // A disc and its ring laid as a Disc shape is (fill, then outline) leave no gap.
        raster.reset(40, 40, WHITE);
        raster.discs(&[(20.5, 20.5)], 6.0, RED, &ALL);
        raster.ring((20.5, 20.5), 6.0, 2.0, Paint::new(0, 0, 255, 1.0), &ALL);
        assert_eq!(pixel(&raster, 20, 20), [255, 0, 0, 255]);
        assert_eq!(pixel(&raster, 26, 20), [0, 0, 255, 255]);
        // A line wider than the diameter fills the whole disc, as the canvas's stroke does.
        raster.reset(40, 40, WHITE);
        raster.ring((20.5, 20.5), 1.0, 6.0, RED, &ALL);
        assert!(redness(&raster, 20, 20) > 0.99);
        // Clipped like the rest.
        raster.reset(40, 40, WHITE);
        raster.ring((20.5, 20.5), 10.0, 2.0, RED, &Rect { left: 0.0, top: 0.0, right: 20.0, bottom: 40.0 });
        assert_eq!(redness(&raster, 30, 20), 0.0);
        assert!(redness(&raster, 10, 20) > 0.99);
    }

    #[test]
    fn a_mask_is_laid_by_its_origin_on_the_nearest_pixel_and_clipped() {
        let mut raster = Raster::new();
        raster.reset(10, 6, WHITE);
        // A 3 × 2 mask: covered whole, half, nothing; and a row of nothing.
        let mask = Mask { width: 3, height: 2, origin: (1, 0), coverage: vec![256, 128, 0, 0, 0, 0] };
        raster.mask(&mask, (4.4, 2.6), RED, &ALL);
        // Origin (1, 0) on pixel (4, 3): the mask's top-left at (3, 3).
        assert_eq!(pixel(&raster, 3, 3), [255, 0, 0, 255]);
        assert!((redness(&raster, 4, 3) - 0.5).abs() < 0.01, "{}", redness(&raster, 4, 3));
        assert_eq!(redness(&raster, 5, 3), 0.0);
        let touched =
            (0..6).flat_map(|y| (0..10).map(move |x| (x, y))).filter(|&(x, y)| redness(&raster, x, y) > 0.0);
        assert_eq!(touched.count(), 2);
        // Half opacity halves the coverage; a clip cuts it; off the image and NaN do nothing.
        raster.reset(10, 6, WHITE);
        raster.mask(&mask, (1.0, 0.0), RED.alpha(0.5), &ALL);
        assert!((redness(&raster, 0, 0) - 0.5).abs() < 0.01);
        raster.reset(10, 6, WHITE);
        let clip = Rect { left: 1.0, top: 0.0, right: 10.0, bottom: 6.0 };
        for at in [(1.0, 0.0), (-40.0, 2.0), (9.6, 5.6), (f64::NAN, 1.0), (1e300, 0.0)] {
            raster.mask(&mask, at, RED, &clip);
        }
        assert_eq!(redness(&raster, 0, 0), 0.0, "left of the clip");
        assert!((redness(&raster, 1, 0) - 0.5).abs() < 0.01, "the half column inside it");
        assert!(raster.rgba().chunks_exact(4).all(|p| p[3] == 255));
    }

    #[test]
    fn rects_on_whole_pixels_are_crisp_and_others_blend_by_their_share() {
        let mut raster = Raster::new();
        raster.reset(10, 4, WHITE);
        // A line one pixel wide on column 2, and one straddling columns 5 and 6.
        let lines = [
            Rect { left: 2.0, top: 0.0, right: 3.0, bottom: 4.0 },
            Rect { left: 5.5, top: 0.0, right: 6.5, bottom: 4.0 },
        ];
        raster.rects(&lines, RED, &ALL);
        assert_eq!(pixel(&raster, 2, 1), [255, 0, 0, 255]);
        assert_eq!(redness(&raster, 1, 1), 0.0);
        assert_eq!(redness(&raster, 3, 1), 0.0);
        for x in [5, 6] {
            assert!((redness(&raster, x, 1) - 0.5).abs() < 0.01, "column {x}: {}", redness(&raster, x, 1));
        }
        // A translucent rect, clipped to the top two rows and reaching outside the image.
        let clip = Rect { left: 0.0, top: 0.0, right: 10.0, bottom: 2.0 };
        raster.rects(&[Rect { left: 7.0, top: -3.0, right: 30.0, bottom: 30.0 }], RED.alpha(0.5), &clip);
        assert!((redness(&raster, 8, 1) - 0.5).abs() < 0.01);
        assert_eq!(redness(&raster, 8, 2), 0.0, "below the clip");
        assert!(raster.rgba().chunks_exact(4).all(|p| p[3] == 255));
    }

    /// Sparse dots are laid one by one, exactly as `discs` lays them; crowded ones are summed,
    /// exactly as `summed_dots` sums them.
    #[test]
    fn dots_lay_sparse_ones_by_disc_and_crowded_ones_by_sums() {
        let paint = Paint::new(0, 0, 255, 0.3);
        let draw = |centres: &[Px], how: fn(&mut Raster, &[Px], f64, Paint, &Rect)| {
            let mut raster = Raster::new();
            raster.reset(200, 100, Paint::new(255, 255, 255, 1.0));
            how(&mut raster, centres, 2.5, paint, &ALL);
            raster.rgba().to_vec()
        };
        let sparse: Vec<Px> = (0..20).map(|i| (10.0 + 9.3 * f64::from(i), 50.0 + f64::from(i % 3))).collect();
        assert_eq!(draw(&sparse, Raster::dots), draw(&sparse, Raster::discs));
        let crowded: Vec<Px> =
            (0..400).map(|i| (f64::from(i % 40) * 5.0 + 0.3, f64::from(i / 40) * 10.0 + 0.7)).collect();
        assert_eq!(
            draw(&crowded, Raster::dots),
            draw(&crowded, |r, c, radius, p, clip| r.summed_dots(c, radius, p, clip))
        );
        assert_ne!(
            draw(&crowded, Raster::dots),
            draw(&crowded, Raster::discs),
            "the two ways differ by a level here and there"
        );
    }
}
