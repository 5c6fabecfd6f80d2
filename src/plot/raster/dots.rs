//! Dots: a disc's coverage as stamps, one for each eighth of a pixel its centre may fall
//! at ([`Stamps`], laid one by one for a few discs and rings), and many dots drawn by summed
//! optical depth: each dot's stamp is counted into bins by the pixel it starts at, band by band of rows so the bins
//! stay in cache, then laid once per bin times its count; each pixel touched then takes the
//! colour at the opacity its depth sums to (`1 − e^−depth`). A pixel under many dots costs
//! one stamp, and dots that pile up read as the same blot whatever their order.

use super::{Raster, blend};
use crate::plot::geometry::{Px, Rect};
use crate::plot::scene::Paint;

/// Optical depth in `Raster::dots`' sums is counted in 1/`DEPTH_UNIT`ths: a sum of 16 bits
/// reaches 64, far past the depth (6.3) at which a pixel shows its colour alone.
const DEPTH_UNIT: f64 = 1024.0;
/// A bin of `Raster::dots` holds its first centre's place in the cell (see `Grid::key`) in
/// its low `PHASE_BITS` bits and the count of centres above them; so does a key, below the
/// cell's column.
const PHASE_BITS: u32 = 12;
const BIN_COUNT_SHIFT: u32 = PHASE_BITS;
/// `Raster::dots` counts by cells of 2 × 2 pixels when its drawing has more than one dot for
/// this many pixels of the clip.
const CROWDED: usize = 8;
/// Rows of a band of `Raster::dots`: its bins (16 rows of a few thousand columns) stay in
/// the processor's cache.
const BAND_ROWS: usize = 16;
const PHASE_MASK: u32 = (1 << BIN_COUNT_SHIFT) - 1;
/// The opacity `Raster::dots` takes an opaque colour at: its depth must be finite.
const MAX_DOT_OPACITY: f64 = 1.0 - 1.0 / 1024.0;

/// The opacity, in 1/256ths, of each optical depth in 1/`DEPTH_UNIT`ths (`1 − e^−depth`), up
/// to the first depth that rounds to 256; deeper is 256. Made once.
fn opacity_of_depth() -> &'static [u16] {
    static TABLE: std::sync::OnceLock<Vec<u16>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let opacity = |d: usize| (256.0 * (1.0 - (-(d as f64) / DEPTH_UNIT).exp()) + 0.5) as u16;
        let mut table: Vec<u16> = (0..).map(opacity).take_while(|&a| a < 256).collect();
        table.push(256);
        table
    })
}

/// Steps of a pixel a disc's centre is placed at: 2^`SUBPIXEL_BITS`.
pub(super) const SUBPIXEL_BITS: u32 = 3;
pub(super) const SUBPIXELS: i64 = 1 << SUBPIXEL_BITS;

/// A disc's (or a ring's) coverage times its opacity, in 1/256ths, for a centre at each
/// eighth of a pixel across and down: `SUBPIXELS²` square stamps of `side` pixels. Each
/// pixel's coverage falls from 1 to 0 over the pixel around a rim.
pub(super) struct Stamps {
    /// The outer radius, the inner one of a ring, and the opacity they were made for, as bits.
    pub(super) key: (u64, Option<u64>, u64),
    pub(super) side: usize,
    /// How many whole pixels the stamp reaches left of (and above) the centre's pixel.
    pub(super) reach: i64,
    coverage: Vec<u16>,
    /// The same coverage before the opacity scaled it, in 1/65535ths.
    covered: Vec<u16>,
    /// The coverage as optical depth for `Raster::dots`, made when first asked for.
    depth: Vec<u16>,
    opacity: f64,
}

impl Stamps {
    /// A disc's stamps, or with an `inner` radius a ring's: the disc's coverage less that of
    /// the disc inside it.
    pub(super) fn new(radius: f64, inner: Option<f64>, alpha: f64) -> Stamps {
        let rim = radius.max(0.0) + 0.5;
        // A ring whose line is wider than its diameter has no hole, as the canvas's stroke.
        let inner_rim = inner.filter(|&r| r > 0.0).map_or(f64::NEG_INFINITY, |r| r + 0.5);
        let reach = rim.ceil();
        let side = 2 * reach as usize + 1;
        let opacity = alpha.clamp(0.0, 1.0);
        let n = SUBPIXELS as usize;
        let step = 1.0 / SUBPIXELS as f64;
        let mut coverage = Vec::with_capacity(n * n * side * side);
        let mut covered_whole = Vec::with_capacity(n * n * side * side);
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
                        covered_whole.push((covered * 65535.0 + 0.5) as u16);
                    }
                }
            }
        }
        Stamps {
            key: (radius.to_bits(), inner.map(f64::to_bits), alpha.to_bits()),
            side,
            reach: reach as i64,
            coverage,
            covered: covered_whole,
            depth: Vec::new(),
            opacity,
        }
    }

    /// The stamps as optical depth (see `Raster::dots`): `−ln(1 − opacity × coverage)` in
    /// 1/`DEPTH_UNIT`ths, the coverage taken before the opacity scaled and rounded it.
    fn depths(&mut self) -> &[u16] {
        if self.depth.is_empty() {
            let opacity = self.opacity.min(MAX_DOT_OPACITY);
            let depth_of = |covered: f64| ((-(1.0 - opacity * covered).ln()) * DEPTH_UNIT + 0.5) as u16;
            self.depth = self.covered.iter().map(|&c| depth_of(f64::from(c) / 65535.0)).collect();
        }
        &self.depth
    }

    /// The stamp for a centre `fx` and `fy` eighths of a pixel right of and below a pixel's
    /// top-left corner.
    pub(super) fn get(&self, fx: usize, fy: usize) -> &[u16] {
        let size = self.side * self.side;
        let k = fy * SUBPIXELS as usize + fx;
        &self.coverage[k * size..(k + 1) * size]
    }
}

/// The bins of `Raster::dots`: one per cell of `2^shift × 2^shift` positions of a stamp's
/// top-left pixel from which the stamp reaches into the clip.
struct Grid {
    /// The clip (left, top, right, bottom), in whole pixels inside the image.
    clip: (i64, i64, i64, i64),
    side: i64,
    /// A cell is `2^shift` pixels a side.
    shift: u32,
    /// The top-left pixel of the first cell's first stamp.
    origin: (i64, i64),
    columns: usize,
    rows: usize,
}

impl Grid {
    fn new(clip: (i64, i64, i64, i64), side: i64, shift: u32) -> Grid {
        let (left, top, right, bottom) = clip;
        let origin = (left - side + 1, top - side + 1);
        let cells = |span: i64| (span.max(0) as usize).div_ceil(1 << shift);
        Grid { clip, side, shift, origin, columns: cells(right - origin.0), rows: cells(bottom - origin.1) }
    }

    /// The key of the bin of a dot centred at `centre`: its cell's row and column, and the
    /// dot's place in the cell in eighths of a pixel; or `None` when it misses the clip (or
    /// is not a finite position).
    #[inline]
    fn key(&self, (cx, cy): Px, reach: i64) -> Option<u64> {
        // Far outside any drawing, so a centre beyond it is skipped without overflow.
        const FAR: f64 = 1e9;
        if !(cx.abs() < FAR && cy.abs() < FAR) {
            return None;
        }
        // Rounded to the nearest eighth by truncating a positive number: `f64::round` is a
        // library call in wasm, which cost more than the rest of this function.
        let eighths = |v: f64| (v * SUBPIXELS as f64 + (OFFSET + 0.5)) as i64 - OFFSET as i64;
        let (sx, sy) = (eighths(cx), eighths(cy));
        let (x, y) = ((sx >> SUBPIXEL_BITS) - reach, (sy >> SUBPIXEL_BITS) - reach);
        let (left, top, right, bottom) = self.clip;
        if x <= left - self.side || y <= top - self.side || x >= right || y >= bottom {
            return None;
        }
        let (dx, dy) = ((x - self.origin.0) as u64, (y - self.origin.1) as u64);
        let within = (1 << self.shift) - 1;
        let place = |d: u64, s: i64| (d & within) << SUBPIXEL_BITS | (s & (SUBPIXELS - 1)) as u64;
        let phase = place(dy, sy) << (SUBPIXEL_BITS + self.shift) | place(dx, sx);
        Some((dy >> self.shift) << 40 | (dx >> self.shift) << PHASE_BITS | phase)
    }

    /// The top-left pixel of the stamp of a bin's first dot, and which of the eighths'
    /// stamps it takes: from the bin's cell and the `phase` its key kept.
    #[inline]
    fn stamp_of(&self, column: usize, row: usize, phase: u32) -> ((i64, i64), usize) {
        let bits = SUBPIXEL_BITS + self.shift;
        let (px, py) = (phase & ((1 << bits) - 1), phase >> bits);
        let eighth = (SUBPIXELS - 1) as u32;
        let x = self.origin.0 + ((column as i64) << self.shift) + i64::from(px >> SUBPIXEL_BITS);
        let y = self.origin.1 + ((row as i64) << self.shift) + i64::from(py >> SUBPIXEL_BITS);
        ((x, y), ((py & eighth) << SUBPIXEL_BITS | (px & eighth)) as usize)
    }
}

/// A positive offset larger than any position `Grid::key` takes, in eighths of a pixel.
const OFFSET: f64 = (1u64 << 40) as f64;

/// `depth × count`, at most `u16::MAX` (in 32 bits, with no overflow branch to take).
#[inline]
fn times(depth: u16, count: u16) -> u16 {
    (u32::from(depth) * u32::from(count)).min(u32::from(u16::MAX)) as u16
}

fn key_row(key: u64) -> usize {
    (key >> 40) as usize
}

fn key_column(key: u64) -> usize {
    (key >> PHASE_BITS & ((1 << (40 - PHASE_BITS)) - 1)) as usize
}

/// `Raster::dots`' depth sums, with the box of the pixels touched so far.
struct Sums<'a> {
    depth: &'a mut [u16],
    width: usize,
    clip: (i64, i64, i64, i64),
    /// (left, top, right, bottom) of the pixels touched, once one is.
    touched: Option<(usize, usize, usize, usize)>,
}

impl Sums<'_> {
    /// Adds `count` times the `N × N` `stamp` with its top-left pixel at `at`; a stamp that
    /// reaches outside the clip goes to `add_clipped`. Of a known size, the loops unroll and
    /// lose their bounds checks: most dots lie inside the clip.
    #[inline]
    fn add<const N: usize>(&mut self, at: (i64, i64), stamp: &[u16], count: u16) {
        let (left, top, right, bottom) = self.clip;
        let (x, y) = at;
        if x < left || y < top || x + N as i64 > right || y + N as i64 > bottom {
            return self.add_clipped(at, N, stamp, count);
        }
        let (x, y) = (x as usize, y as usize);
        self.touch(x, y, x + N, y + N);
        for (j, add) in stamp.chunks_exact(N).take(N).enumerate() {
            let start = (y + j) * self.width + x;
            let Ok(row) = <&mut [u16; N]>::try_from(&mut self.depth[start..start + N]) else { return };
            if count == 1 {
                for (sum, &d) in row.iter_mut().zip(add) {
                    *sum = sum.saturating_add(d);
                }
            } else {
                for (sum, &d) in row.iter_mut().zip(add) {
                    *sum = sum.saturating_add(times(d, count));
                }
            }
        }
    }

    /// `add` for a stamp of any `side`, cut to the clip.
    fn add_clipped(&mut self, (x, y): (i64, i64), side: usize, stamp: &[u16], count: u16) {
        let (left, top, right, bottom) = self.clip;
        let side = side as i64;
        let (i0, i1) = ((left - x).max(0), (right - x).min(side));
        let (j0, j1) = ((top - y).max(0), (bottom - y).min(side));
        if i0 >= i1 || j0 >= j1 {
            return;
        }
        self.touch((x + i0) as usize, (y + j0) as usize, (x + i1) as usize, (y + j1) as usize);
        for j in j0..j1 {
            let start = (y + j) as usize * self.width + (x + i0) as usize;
            let row = &mut self.depth[start..start + (i1 - i0) as usize];
            let add = &stamp[(j * side + i0) as usize..(j * side + i1) as usize];
            for (sum, &d) in row.iter_mut().zip(add) {
                *sum = sum.saturating_add(times(d, count));
            }
        }
    }

    fn touch(&mut self, left: usize, top: usize, right: usize, bottom: usize) {
        self.touched = Some(match self.touched {
            None => (left, top, right, bottom),
            Some((l, t, r, b)) => (l.min(left), t.min(top), r.max(right), b.max(bottom)),
        });
    }
}

impl Raster {
    /// `dots` by summed optical depth, whatever their number.
    #[cfg(test)]
    pub(super) fn summed_dots(&mut self, centres: &[Px], radius: f64, paint: Paint, clip: &Rect) {
        self.summed_dots_among(centres, radius, paint, clip, centres.len());
    }

    /// `dots` by summed optical depth, whatever their number, in a drawing of `crowd` dots.
    pub(super) fn summed_dots_among(
        &mut self,
        centres: &[Px],
        radius: f64,
        paint: Paint,
        clip: &Rect,
        crowd: usize,
    ) {
        let key = (radius.to_bits(), None, paint.alpha.to_bits());
        let found = self.stamps.iter().position(|s| s.key == key);
        let index = found.unwrap_or_else(|| {
            if self.stamps.len() >= 16 {
                self.stamps.clear();
            }
            self.stamps.push(Stamps::new(radius, None, paint.alpha));
            self.stamps.len() - 1
        });
        let (left, top, right, bottom) = self.bounds(clip);
        let clip = (left.ceil() as i64, top.ceil() as i64, right as i64, bottom as i64);
        let stamps = &mut self.stamps[index];
        let (side, reach) = (stamps.side, stamps.reach);
        let depths = stamps.depths();
        // The centres are counted by pixel (a bin per position of the stamp's top-left pixel
        // that reaches into the clip), then each bin's stamp is laid once, times its count:
        // a pixel shared by many dots costs one stamp. A bin keeps the eighth of a pixel of
        // its first dot: dots that share a pixel are drawn from that one's position, off by
        // under a pixel (under two in a cell of 2 × 2) where they pile up anyway. So that
        // neither the counting nor the stamping walks the whole image at random (a cache miss
        // a dot, most of the time at 250,000 dots), the centres are first sorted into bands of
        // `BAND_ROWS` rows, in their order, and each band is counted and stamped in turn.
        // Crowded dots (more than one in `CROWDED` pixels of the clip) are counted by cells of
        // 2 × 2 pixels: a quarter of the stamps where they pile up, and a dot alone in its
        // cell is still drawn where it is.
        let pixels = ((clip.2 - clip.0).max(0) * (clip.3 - clip.1).max(0)) as usize;
        let shift = u32::from(crowd.saturating_mul(CROWDED) > pixels);
        let grid = Grid::new(clip, side as i64, shift);
        let bands = grid.rows.div_ceil(BAND_ROWS);
        self.keys.clear();
        self.band_starts.clear();
        self.band_starts.resize(bands + 1, 0);
        for &centre in centres {
            if let Some(key) = grid.key(centre, reach) {
                self.keys.push(key);
                self.band_starts[key_row(key) / BAND_ROWS + 1] += 1;
            }
        }
        for band in 0..bands {
            self.band_starts[band + 1] += self.band_starts[band];
        }
        self.sorted.resize(self.keys.len(), 0);
        let mut next = self.band_starts.clone();
        for &key in &self.keys {
            let band = key_row(key) / BAND_ROWS;
            self.sorted[next[band] as usize] = key;
            next[band] += 1;
        }
        if self.bins.len() < BAND_ROWS * grid.columns {
            self.bins.resize(BAND_ROWS * grid.columns, 0);
        }
        let mut sums = Sums { depth: &mut self.depth, width: self.width, clip, touched: None };
        for band in 0..bands {
            let keys = &self.sorted[self.band_starts[band] as usize..self.band_starts[band + 1] as usize];
            if keys.is_empty() {
                continue;
            }
            for &key in keys {
                let bin = &mut self.bins[key_row(key) % BAND_ROWS * grid.columns + key_column(key)];
                if *bin == 0 {
                    *bin = (key & u64::from(PHASE_MASK)) as u32 | 1 << BIN_COUNT_SHIFT;
                } else {
                    *bin = bin.saturating_add(1 << BIN_COUNT_SHIFT);
                }
            }
            for row in 0..BAND_ROWS.min(grid.rows - band * BAND_ROWS) {
                let bins = &mut self.bins[row * grid.columns..(row + 1) * grid.columns];
                for (column, bin) in bins.iter_mut().enumerate() {
                    if *bin == 0 {
                        continue;
                    }
                    let count = (*bin >> BIN_COUNT_SHIFT).min(u32::from(u16::MAX)) as u16;
                    let (at, phase) = grid.stamp_of(column, band * BAND_ROWS + row, *bin & PHASE_MASK);
                    *bin = 0;
                    let stamp = &depths[phase * side * side..][..side * side];
                    match side {
                        5 => sums.add::<5>(at, stamp, count),
                        7 => sums.add::<7>(at, stamp, count),
                        9 => sums.add::<9>(at, stamp, count),
                        11 => sums.add::<11>(at, stamp, count),
                        13 => sums.add::<13>(at, stamp, count),
                        17 => sums.add::<17>(at, stamp, count),
                        _ => sums.add_clipped(at, side, stamp, count),
                    }
                }
            }
        }
        if let Some(touched) = sums.touched {
            self.blend_depths(touched, paint);
        }
    }

    /// Each pixel of `touched` (`x0, y0, x1, y1`) takes `paint` at the opacity its summed
    /// depth comes to, and its depth goes back to zero for the next call.
    #[inline]
    fn blend_depths(&mut self, (x0, y0, x1, y1): (usize, usize, usize, usize), paint: Paint) {
        let opacity = opacity_of_depth();
        let width = self.width;
        for row in y0..y1 {
            let sums = &mut self.depth[row * width + x0..row * width + x1];
            let pixels = &mut self.bytes[4 * (row * width + x0)..4 * (row * width + x1)];
            for (sum, pixel) in sums.iter_mut().zip(pixels.chunks_exact_mut(4)) {
                if *sum != 0 {
                    let depth = usize::from(std::mem::take(sum));
                    blend(pixel, paint.rgb, u32::from(opacity[depth.min(opacity.len() - 1)]));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_depth_table_rises_to_the_whole_colour() {
        let table = opacity_of_depth();
        assert_eq!(table[0], 0);
        assert!(table.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(*table.last().unwrap(), 256);
        // Depth ln 2 is half opaque: 128 of 256.
        assert_eq!(table[(std::f64::consts::LN_2 * DEPTH_UNIT).round() as usize], 128);
        // The opacity at which an opaque colour is summed still shows the colour whole.
        let opaque = ((-(1.0 - MAX_DOT_OPACITY).ln()) * DEPTH_UNIT).round() as usize;
        assert!(opaque >= table.len() - 1);
    }
}
