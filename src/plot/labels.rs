//! Which points are offered a label at this zoom, cheaply enough for a map of 250,000 words.
//!
//! The map labels as many words as fit, the most frequent first (point `i` is the `i`-th
//! most frequent word), so zooming in labels more. Offering every visible point to the
//! greedy placement ([`place_labels`](super::geometry::place_labels)) on every redraw costs
//! a grid lookup and eight box tests per point: tens of milliseconds at 250,000 points,
//! nearly all of them for points with no room. So the plotting area is cut into cells about
//! a label's size, and each cell offers only its [`PER_CELL`] most frequent visible points:
//! a cell holds at most a label or two anyway, so a point beyond its cell's first few would
//! almost never find room. The walk over the points stops once every cell is full, and
//! costs a few operations a point otherwise. A rare word alone in an empty corner is still
//! offered, since its cell has no more frequent word.
//!
//! Cluster names (see [`cluster_places`]) are placed before the words, where a map is
//! coloured by clusters and seen whole.

use super::geometry::{Px, Rect};

/// The points each cell of the label grid offers, most frequent first.
pub const PER_CELL: usize = 2;

/// The label grid's cell, in label heights: two wide and one tall, so a cell offers about
/// what could fit around its points. Measured on 250,000 points in a Gaussian cloud at three
/// zooms: the grid offers 1,500 to 3,600 of them and the placement takes about 2 ms
/// natively, where offering every visible point took 60 to 250 ms; it places 88 to 99 % as
/// many labels (the rest are rarer words beside more frequent ones that had no room).
pub const CELL: (f64, f64) = (2.0, 1.0);

/// The points offered a label, in frequency order: among the first `count` of `points`
/// those inside `area` (a NaN position is outside) and not `skipped`, at most `per_cell`
/// in each cell of `cell` pixels (width, height) of a grid over `area`.
pub fn label_candidates(
    points: &[Px],
    count: usize,
    area: &Rect,
    cell: (f64, f64),
    per_cell: usize,
    skipped: impl Fn(usize) -> bool,
) -> Vec<usize> {
    let (cw, ch) = (cell.0.max(1.0), cell.1.max(1.0));
    // A grid of sane size whatever the area (a NaN area gets one cell, and offers nothing).
    let cells = |count: f64| (count.max(0.0).ceil() as usize).clamp(1, 512);
    let columns = cells((area.right - area.left) / cw);
    let rows = cells((area.bottom - area.top) / ch);
    let mut filled = vec![0u8; columns * rows];
    let per_cell = per_cell.min(usize::from(u8::MAX)) as u8;
    let mut full_cells = 0;
    let mut offered = Vec::new();
    if per_cell == 0 {
        return offered;
    }
    for (i, &(x, y)) in points.iter().take(count).enumerate() {
        // NaN fails every comparison, so it is outside too.
        if !(x >= area.left && x < area.right && y >= area.top && y < area.bottom) {
            continue;
        }
        let column = (((x - area.left) / cw) as usize).min(columns - 1);
        let row = (((y - area.top) / ch) as usize).min(rows - 1);
        let slot = &mut filled[row * columns + column];
        if *slot >= per_cell || skipped(i) {
            continue;
        }
        *slot += 1;
        offered.push(i);
        if *slot == per_cell {
            full_cells += 1;
            if full_cells == filled.len() {
                break;
            }
        }
    }
    offered
}

/// Where a cluster's name goes and what it says: the densest spot of its points on the map,
/// its most frequent words and how many points it has.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterPlace {
    pub cluster: u16,
    /// In data coordinates.
    pub at: (f32, f32),
    /// Its most frequent points (lowest indices), at most [`NAME_WORDS`].
    pub members: Vec<u32>,
    pub count: usize,
}

/// Words that name a cluster.
pub const NAME_WORDS: usize = 3;

/// Cells on each side of the grid in which [`cluster_places`] finds each cluster's densest
/// spot: fine enough to land on the cluster's main body, coarse enough that a cluster of a
/// few hundred points has several in a cell.
const PLACE_GRID: usize = 24;

/// Each cluster's place: the centre of the cell of a `PLACE_GRID` grid over the points'
/// range where most of its points lie (a cluster a projection splits in two is named at its
/// larger part; its mean could fall between them, on another cluster), moved to the mean of
/// its points in that cell. `coords` is flat `[x0, y0, …]` and `clusters` a cluster per
/// point (extra points beyond `clusters` are ignored). Clusters without points are left out;
/// the rest come in cluster order.
pub fn cluster_places(coords: &[f32], clusters: &[u16]) -> Vec<ClusterPlace> {
    let n = clusters.len().min(coords.len() / 2);
    let k = clusters[..n].iter().map(|&c| usize::from(c) + 1).max().unwrap_or(0);
    if k == 0 {
        return Vec::new();
    }
    let (mut x0, mut x1, mut y0, mut y1) =
        (f32::INFINITY, f32::NEG_INFINITY, f32::INFINITY, f32::NEG_INFINITY);
    for xy in coords[..2 * n].chunks_exact(2) {
        if xy[0].is_finite() && xy[1].is_finite() {
            (x0, x1, y0, y1) = (x0.min(xy[0]), x1.max(xy[0]), y0.min(xy[1]), y1.max(xy[1]));
        }
    }
    let g = PLACE_GRID;
    // Cells per unit of each axis (0 for a flat one: one cell).
    let per_unit = |lo: f32, hi: f32| if hi > lo { g as f32 / (hi - lo) } else { 0.0 };
    let (sx, sy) = (per_unit(x0, x1), per_unit(y0, y1));
    let cell_of = |x: f32, y: f32| {
        let index = |v: f32, lo: f32, scale: f32| (((v - lo) * scale) as usize).min(g - 1);
        index(y, y0, sy) * g + index(x, x0, sx)
    };
    // Each cluster's count in each cell, and the sums of its points' coordinates there.
    let mut counts = vec![0u32; k * g * g];
    let mut sums = vec![(0f64, 0f64); k * g * g];
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); k];
    let mut totals = vec![0usize; k];
    for (i, (&c, xy)) in clusters[..n].iter().zip(coords.chunks_exact(2)).enumerate() {
        let c = usize::from(c);
        if !(xy[0].is_finite() && xy[1].is_finite()) {
            continue;
        }
        let at = c * g * g + cell_of(xy[0], xy[1]);
        counts[at] += 1;
        sums[at].0 += f64::from(xy[0]);
        sums[at].1 += f64::from(xy[1]);
        totals[c] += 1;
        if members[c].len() < NAME_WORDS {
            members[c].push(i as u32);
        }
    }
    (0..k)
        .filter(|&c| totals[c] > 0)
        .map(|c| {
            let cells = &counts[c * g * g..(c + 1) * g * g];
            // The first of the fullest cells, so the answer does not depend on ties' order.
            let best = (0..cells.len()).max_by_key(|&i| (cells[i], std::cmp::Reverse(i))).unwrap_or(0);
            let (sx, sy) = sums[c * g * g + best];
            let m = f64::from(cells[best]);
            ClusterPlace {
                cluster: c as u16,
                at: ((sx / m) as f32, (sy / m) as f32),
                members: std::mem::take(&mut members[c]),
                count: totals[c],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const AREA: Rect = Rect { left: 0.0, top: 0.0, right: 100.0, bottom: 50.0 };

    #[test]
    fn each_cell_offers_its_most_frequent_visible_points() {
        // Cells of 50 × 25: four of them. Points 0, 2, 3 and 5 share the top-left cell.
        let points = [
            (1.0, 1.0),
            (60.0, 1.0),
            (2.0, 2.0),
            (3.0, 3.0),
            (f64::NAN, f64::NAN),
            (4.0, 4.0),
            (120.0, 1.0),
            (60.0, 40.0),
        ];
        let offered = label_candidates(&points, points.len(), &AREA, (50.0, 25.0), 2, |_| false);
        assert_eq!(offered, [0, 1, 2, 7], "two a cell, NaN and outside points left out");
        let offered = label_candidates(&points, points.len(), &AREA, (50.0, 25.0), 2, |i| i == 2);
        assert_eq!(offered, [0, 1, 3, 7], "a skipped point leaves its slot to the next");
        let offered = label_candidates(&points, 3, &AREA, (50.0, 25.0), 2, |_| false);
        assert_eq!(offered, [0, 1, 2], "only the first `count` points");
        assert!(label_candidates(&points, 8, &AREA, (50.0, 25.0), 0, |_| false).is_empty());
    }

    #[test]
    fn the_walk_stops_once_every_cell_is_full() {
        // One cell; the skip test records which points were looked at.
        let points = vec![(5.0, 5.0); 1000];
        let looked = std::cell::Cell::new(0);
        let offered = label_candidates(&points, 1000, &AREA, (200.0, 200.0), 3, |_| {
            looked.set(looked.get() + 1);
            false
        });
        assert_eq!(offered, [0, 1, 2]);
        assert_eq!(looked.get(), 3);
    }

    #[test]
    fn a_nan_area_offers_nothing_and_a_huge_one_stays_bounded() {
        let nan = Rect { left: f64::NAN, top: 0.0, right: 1.0, bottom: 1.0 };
        assert!(label_candidates(&[(0.5, 0.5)], 1, &nan, (1.0, 1.0), 3, |_| false).is_empty());
        let huge = Rect { left: 0.0, top: 0.0, right: 1e300, bottom: 1e300 };
        assert_eq!(label_candidates(&[(0.5, 0.5)], 1, &huge, (1.0, 1.0), 3, |_| false), [0]);
    }

    #[test]
    fn a_cluster_is_named_by_its_most_frequent_words_at_its_main_body() {
        // Cluster 0: a tight group of 6 points around (1, 1) and a stray pair at (9, 9);
        // cluster 2: four points around (5, 0). Cluster 1 has none.
        let mut coords = Vec::new();
        let mut clusters = Vec::new();
        let mut add = |x: f32, y: f32, c: u16| {
            coords.extend([x, y]);
            clusters.push(c);
        };
        add(9.0, 9.0, 0);
        add(5.0, 0.0, 2);
        for (dx, dy) in [(0.0, 0.0), (0.1, 0.0), (0.0, 0.1), (0.1, 0.1), (0.05, 0.05), (0.05, 0.0)] {
            add(1.0 + dx, 1.0 + dy, 0);
        }
        add(9.05, 9.0, 0);
        for dx in [0.1, 0.2, 0.3] {
            add(5.0 + dx, 0.0, 2);
        }
        let places = cluster_places(&coords, &clusters);
        assert_eq!(places.len(), 2);
        assert_eq!((places[0].cluster, places[0].count), (0, 8));
        assert_eq!(places[0].members, [0, 2, 3], "its three most frequent points");
        let (x, y) = places[0].at;
        assert!((x - 1.05).abs() < 0.06 && (y - 1.05).abs() < 0.06, "at its main body: {x}, {y}");
        assert_eq!((places[1].cluster, places[1].count, places[1].members.clone()), (2, 4, vec![1, 9, 10]));
        assert!((places[1].at.0 - 5.15).abs() < 0.2 && places[1].at.1.abs() < 0.2, "{:?}", places[1].at);
        assert!(cluster_places(&[], &[]).is_empty());
        assert!(cluster_places(&[1.0], &[0]).is_empty(), "a lone coordinate is no point");
    }
}
