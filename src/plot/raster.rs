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
}

impl Raster {
    pub fn new() -> Raster {
        Raster { width: 0, height: 0, bytes: Vec::new(), stamps: Vec::new() }
    }

    /// Fills `width × height` pixels with `background`, opaque whatever its alpha (reusing
    /// the memory).
    pub fn reset(&mut self, width: usize, height: usize, background: Paint) {
        self.width = width;
        self.height = height;
        let (r, g, b) = background.rgb;
        self.bytes.clear();
        self.bytes.reserve(4 * width * height);
        // Whole pixels at a time: `extend` of one repeated array compiles to a tight loop.
        self.bytes.extend(std::iter::repeat_n([r, g, b, 255], width * height).flatten());
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

/// Steps of a pixel a disc's centre is placed at: 2^`SUBPIXEL_BITS`.
const SUBPIXEL_BITS: u32 = 3;
const SUBPIXELS: i64 = 1 << SUBPIXEL_BITS;

/// A disc's (or a ring's) coverage times its opacity, in 1/256ths, for a centre at each
/// eighth of a pixel across and down: `SUBPIXELS²` square stamps of `side` pixels. Each
/// pixel's coverage falls from 1 to 0 over the pixel around a rim.
struct Stamps {
    /// The outer radius, the inner one of a ring, and the opacity they were made for, as bits.
    key: (u64, Option<u64>, u64),
    side: usize,
    /// How many whole pixels the stamp reaches left of (and above) the centre's pixel.
    reach: i64,
    coverage: Vec<u16>,
}

impl Stamps {
    /// A disc's stamps, or with an `inner` radius a ring's: the disc's coverage less that of
    /// the disc inside it.
    fn new(radius: f64, inner: Option<f64>, alpha: f64) -> Stamps {
        let rim = radius.max(0.0) + 0.5;
        // A ring whose line is wider than its diameter has no hole, as the canvas's stroke.
        let inner_rim = inner.filter(|&r| r > 0.0).map_or(f64::NEG_INFINITY, |r| r + 0.5);
        let reach = rim.ceil();
        let side = 2 * reach as usize + 1;
        let opacity = alpha.clamp(0.0, 1.0);
        let n = SUBPIXELS as usize;
        let step = 1.0 / SUBPIXELS as f64;
        let mut coverage = Vec::with_capacity(n * n * side * side);
        for fy in 0..n {
            for fx in 0..n {
                // The centre within the stamp, from its top-left corner.
                let (cx, cy) = (reach + fx as f64 * step, reach + fy as f64 * step);
                for j in 0..side {
                    for i in 0..side {
                        let (dx, dy) = (i as f64 + 0.5 - cx, j as f64 + 0.5 - cy);
                        let d = dx.hypot(dy);
                        let covered = (rim - d).clamp(0.0, 1.0) - (inner_rim - d).clamp(0.0, 1.0);
                        coverage.push((opacity * covered * 256.0 + 0.5) as u16);
                    }
                }
            }
        }
        Stamps {
            key: (radius.to_bits(), inner.map(f64::to_bits), alpha.to_bits()),
            side,
            reach: reach as i64,
            coverage,
        }
    }

    /// The stamp for a centre `fx` and `fy` eighths of a pixel right of and below a pixel's
    /// top-left corner.
    fn get(&self, fx: usize, fy: usize) -> &[u16] {
        let size = self.side * self.side;
        let k = fy * SUBPIXELS as usize + fx;
        &self.coverage[k * size..(k + 1) * size]
    }
}

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
}
