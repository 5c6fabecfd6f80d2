//! The map's dots drawn into a pixel buffer, not through the canvas's path calls.
//!
//! Without a GPU (Chromium here, or a browser that falls back to software), filling a path
//! of 10,000 small circles costs the canvas about 35 ms; writing the same discs into an
//! RGBA buffer and handing it over as one image costs a few. So `Chart` rasterises the dots
//! here, in order, and draws the buffer over the frame with one `drawImage`.
//!
//! Each disc is antialiased by coverage (a pixel's coverage falls from 1 to 0 over the
//! pixel around the rim) and blended source-over. Like `layout`, this file uses only `std`, so `cargo
//! test` compiles it natively for its unit tests.

use super::layout::Px;
use super::scene::Paint;

/// An RGBA image (straight alpha, as `ImageData` holds it), `width × height` pixels,
/// transparent where nothing is drawn.
pub struct DotBuffer {
    width: usize,
    height: usize,
    /// r, g, b, a bytes per pixel, row by row.
    bytes: Vec<u8>,
}

impl DotBuffer {
    pub fn new() -> DotBuffer {
        DotBuffer { width: 0, height: 0, bytes: Vec::new() }
    }

    /// Clears to transparent at `width × height` (reusing the memory).
    pub fn reset(&mut self, width: usize, height: usize) {
        self.width = width;
        self.height = height;
        self.bytes.clear();
        self.bytes.resize(4 * width * height, 0);
    }

    /// Width and height in pixels.
    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// Draws discs of `radius` and `paint` at `centres` (pixels relative to the buffer's
    /// top-left corner, y down), each over what is there. Parts outside are clipped.
    ///
    /// Blending is source-over in straight alpha, so only the pixels a disc touches cost
    /// anything and the buffer goes to `ImageData` as it is, with no pass over all of it.
    pub fn discs(&mut self, centres: &[Px], radius: f64, paint: Paint) {
        let (r, g, b) = paint.rgb;
        let colour = [f32::from(r), f32::from(g), f32::from(b)];
        let rgb = [r, g, b];
        let alpha = paint.alpha.clamp(0.0, 1.0) as f32;
        let reach = (radius + 0.5) as f32;
        let (w, h) = (self.width as f32, self.height as f32);
        for &(cx, cy) in centres {
            let (cx, cy) = (cx as f32, cy as f32);
            if !(cx.is_finite() && cy.is_finite())
                || cx + reach < 0.0
                || cy + reach < 0.0
                || cx - reach > w
                || cy - reach > h
            {
                continue;
            }
            let x0 = (cx - reach).floor().max(0.0) as usize;
            let x1 = ((cx + reach).ceil().min(w) as usize).max(x0);
            let y0 = (cy - reach).floor().max(0.0) as usize;
            let y1 = ((cy + reach).ceil().min(h) as usize).max(y0);
            for y in y0..y1 {
                let dy = y as f32 + 0.5 - cy;
                let row = &mut self.bytes[4 * (y * self.width + x0)..4 * (y * self.width + x1)];
                for (pixel, x) in row.chunks_exact_mut(4).zip(x0..x1) {
                    let dx = x as f32 + 0.5 - cx;
                    let coverage = (reach - (dx * dx + dy * dy).sqrt()).clamp(0.0, 1.0);
                    if coverage <= 0.0 {
                        continue;
                    }
                    let sa = alpha * coverage;
                    if pixel[3] == 0 {
                        // Nothing below: the common case away from the crowd.
                        pixel[..3].copy_from_slice(&rgb);
                        pixel[3] = (sa * 255.0 + 0.5) as u8;
                        continue;
                    }
                    let below = f32::from(pixel[3]) * (1.0 / 255.0) * (1.0 - sa);
                    let out = sa + below;
                    let (top, under) = (sa / out, below / out);
                    for c in 0..3 {
                        pixel[c] = (colour[c] * top + f32::from(pixel[c]) * under + 0.5) as u8;
                    }
                    pixel[3] = (out * 255.0 + 0.5) as u8;
                }
            }
        }
    }

    /// The image as RGBA bytes, row by row, as `ImageData` wants.
    pub fn rgba(&self) -> &[u8] {
        &self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RED: Paint = Paint::new(255, 0, 0, 1.0);

    fn alpha_at(buffer: &DotBuffer, x: usize, y: usize) -> u8 {
        let (width, _) = buffer.size();
        buffer.rgba()[4 * (y * width + x) + 3]
    }

    #[test]
    fn a_disc_covers_its_area_and_is_opaque_inside() {
        let mut buffer = DotBuffer::new();
        buffer.reset(40, 40);
        buffer.discs(&[(20.0, 20.0)], 6.0, RED);
        let bytes = buffer.rgba().to_vec();
        let covered: f64 = bytes.chunks_exact(4).map(|p| f64::from(p[3]) / 255.0).sum();
        let area = std::f64::consts::PI * 36.0;
        assert!((covered - area).abs() < 0.03 * area, "coverage {covered} vs area {area}");
        assert_eq!(&bytes[4 * (20 * 40 + 20)..][..4], &[255, 0, 0, 255], "the centre is the colour");
        assert_eq!(alpha_at(&buffer, 20, 30), 0, "outside the rim nothing");
    }

    #[test]
    fn discs_blend_over_each_other_and_keep_their_colour_when_translucent() {
        let mut buffer = DotBuffer::new();
        buffer.reset(10, 10);
        let half = Paint::new(0, 0, 255, 0.5);
        buffer.discs(&[(5.0, 5.0)], 3.0, half);
        assert_eq!(&buffer.rgba()[4 * (5 * 10 + 5)..][..4], &[0, 0, 255, 128]);
        buffer.discs(&[(5.0, 5.0)], 3.0, half);
        // Two halves over each other: 0.5 + 0.5 × 0.5, give or take a byte's rounding.
        assert!((191..=192).contains(&alpha_at(&buffer, 5, 5)));
        buffer.discs(&[(5.0, 5.0)], 3.0, RED);
        assert_eq!(&buffer.rgba()[4 * (5 * 10 + 5)..][..4], &[255, 0, 0, 255], "an opaque disc covers");
    }

    #[test]
    fn discs_at_the_edges_are_clipped_and_nonsense_is_skipped() {
        let mut buffer = DotBuffer::new();
        buffer.reset(8, 6);
        buffer.discs(&[(0.0, 0.0), (8.0, 6.0), (-50.0, 3.0), (f64::NAN, 1.0), (1e300, 1e300)], 2.0, RED);
        assert!(alpha_at(&buffer, 0, 0) > 200);
        assert!(alpha_at(&buffer, 7, 5) > 0);
        assert_eq!(alpha_at(&buffer, 4, 3), 0);
        buffer.reset(0, 0);
        buffer.discs(&[(0.0, 0.0)], 2.0, RED);
        assert!(buffer.rgba().is_empty());
    }
}
