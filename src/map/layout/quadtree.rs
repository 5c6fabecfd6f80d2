//! A quadtree over the points of a 2-D map for the Barnes–Hut approximation of t-SNE's
//! repulsive forces (van der Maaten 2014, after Barnes & Hut 1986): a cell far enough from a
//! point acts on it as one mass at its centre of mass.
//!
//! The nodes are stored in depth-first order, each with the index just past its subtree
//! (`skip`), so a traversal is a forward scan that either descends (`+ 1`) or jumps over a
//! summarised cell: no stack, no pointer chasing. Points are visited in the tree's order, so
//! consecutive queries walk nearly the same nodes.
//!
//! **Architecture Invariant:** the tree and the forces depend only on the coordinates (a
//! cell's points are partitioned by a stable counting sort), so they are deterministic.

/// Below this depth cells are not split further: their points are nearly in one place (a
/// side of 2⁻²⁴ of the map, about `f32` precision) and act as one mass.
const MAX_DEPTH: usize = 24;

#[derive(Debug, Clone, Copy)]
struct Node {
    /// Centre of mass.
    x: f32,
    y: f32,
    /// Number of points in the cell.
    mass: f32,
    /// The cell's side length, squared.
    side_sq: f32,
    /// The index just past this node's subtree.
    skip: u32,
}

/// A quadtree built for one set of coordinates.
pub struct QuadTree {
    nodes: Vec<Node>,
    /// Point indices in tree order.
    order: Vec<u32>,
    /// For each point, the leaf that holds it.
    leaf_of: Vec<u32>,
    scratch: Vec<u32>,
}

impl QuadTree {
    pub fn new() -> QuadTree {
        QuadTree { nodes: Vec::new(), order: Vec::new(), leaf_of: Vec::new(), scratch: Vec::new() }
    }

    /// Rebuilds the tree over `coords` (flat `x, y`), reusing its buffers.
    ///
    /// **Unchecked precondition:** the coordinates are finite and there is at least one point.
    pub fn build(&mut self, coords: &[f32]) {
        let n = coords.len() / 2;
        self.nodes.clear();
        self.order.clear();
        self.order.extend(0..n as u32);
        self.leaf_of.resize(n, 0);
        self.scratch.resize(n, 0);
        let (mut min_x, mut min_y, mut max_x, mut max_y) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for p in coords.chunks_exact(2) {
            min_x = min_x.min(p[0]);
            max_x = max_x.max(p[0]);
            min_y = min_y.min(p[1]);
            max_y = max_y.max(p[1]);
        }
        // A square a little larger than the points, so none lies on the far edge.
        let side = (max_x - min_x).max(max_y - min_y).max(f32::MIN_POSITIVE) * (1.0 + 1e-5);
        self.build_cell(coords, 0, n, min_x, min_y, side, 0);
    }

    /// Builds the cell with corner (`x0`, `y0`) and side `side` over `order[lo..hi]`.
    #[allow(clippy::too_many_arguments)]
    fn build_cell(
        &mut self,
        coords: &[f32],
        lo: usize,
        hi: usize,
        x0: f32,
        y0: f32,
        side: f32,
        depth: usize,
    ) {
        let at = self.nodes.len();
        self.nodes.push(Node { x: 0.0, y: 0.0, mass: (hi - lo) as f32, side_sq: side * side, skip: 0 });
        if hi - lo == 1 || depth == MAX_DEPTH {
            let (mut sx, mut sy) = (0.0f64, 0.0f64);
            for &p in &self.order[lo..hi] {
                sx += f64::from(coords[2 * p as usize]);
                sy += f64::from(coords[2 * p as usize + 1]);
                self.leaf_of[p as usize] = at as u32;
            }
            let m = (hi - lo) as f64;
            self.nodes[at].x = (sx / m) as f32;
            self.nodes[at].y = (sy / m) as f32;
            self.nodes[at].skip = (at + 1) as u32;
            return;
        }
        let half = side / 2.0;
        let (mx, my) = (x0 + half, y0 + half);
        let quadrant = |p: u32| {
            let (x, y) = (coords[2 * p as usize], coords[2 * p as usize + 1]);
            usize::from(x >= mx) + 2 * usize::from(y >= my)
        };
        // A stable counting sort of the cell's points into its four quadrants.
        let mut counts = [0usize; 4];
        for &p in &self.order[lo..hi] {
            counts[quadrant(p)] += 1;
        }
        let mut starts = [lo; 4];
        for q in 1..4 {
            starts[q] = starts[q - 1] + counts[q - 1];
        }
        let mut next = starts;
        for i in lo..hi {
            let p = self.order[i];
            let q = quadrant(p);
            self.scratch[next[q]] = p;
            next[q] += 1;
        }
        self.order[lo..hi].copy_from_slice(&self.scratch[lo..hi]);
        let (mut sx, mut sy) = (0.0f32, 0.0f32);
        for q in 0..4 {
            if counts[q] == 0 {
                continue;
            }
            let child = self.nodes.len();
            let (cx, cy) = (if q & 1 == 1 { mx } else { x0 }, if q & 2 == 2 { my } else { y0 });
            self.build_cell(coords, starts[q], starts[q] + counts[q], cx, cy, half, depth + 1);
            let c = self.nodes[child];
            sx += c.x * c.mass;
            sy += c.y * c.mass;
        }
        let m = (hi - lo) as f32;
        self.nodes[at].x = sx / m;
        self.nodes[at].y = sy / m;
        self.nodes[at].skip = self.nodes.len() as u32;
    }

    /// The point indices in tree order (nearby points next to each other).
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// The repulsive sums at point `i` at (`x`, `y`): `Σ_j q_ij² (y_i − y_j)` for both axes and
    /// `Σ_j q_ij` (its share of the normalisation Z), with `q_ij = 1 / (1 + |y_i − y_j|²)`,
    /// over every other point; a cell whose side is under `theta` times its distance counts
    /// as its mass at its centre.
    ///
    /// **Unchecked precondition:** the tree was built over coordinates that put point `i` at
    /// (`x`, `y`).
    #[inline]
    pub fn repulsion(&self, i: usize, x: f32, y: f32, theta_sq: f32) -> (f32, f32, f32) {
        let own_leaf = self.leaf_of[i] as usize;
        let (mut fx, mut fy, mut z) = (0.0f32, 0.0f32, 0.0f32);
        let mut at = 0;
        let nodes = &self.nodes[..];
        while at < nodes.len() {
            let node = nodes[at];
            let (mut dx, mut dy) = (x - node.x, y - node.y);
            let mut d2 = dx * dx + dy * dy;
            let is_leaf = node.skip as usize == at + 1;
            if is_leaf || node.side_sq < theta_sq * d2 {
                let mut mass = node.mass;
                if at == own_leaf {
                    // The point itself does not act on itself: take it out of its leaf.
                    mass -= 1.0;
                    if mass > 0.0 {
                        let (cx, cy) = ((node.x * node.mass - x) / mass, (node.y * node.mass - y) / mass);
                        (dx, dy) = (x - cx, y - cy);
                        d2 = dx * dx + dy * dy;
                    }
                }
                if mass > 0.0 {
                    let q = 1.0 / (1.0 + d2);
                    let mq = mass * q;
                    z += mq;
                    fx += mq * q * dx;
                    fy += mq * q * dy;
                }
                at = node.skip as usize;
            } else {
                at += 1;
            }
        }
        (fx, fy, z)
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    use super::*;

    /// The exact sums over every other point.
    fn exact(coords: &[f32], i: usize) -> (f32, f32, f32) {
        let (x, y) = (coords[2 * i], coords[2 * i + 1]);
        let (mut fx, mut fy, mut z) = (0.0, 0.0, 0.0);
        for (j, p) in coords.chunks_exact(2).enumerate() {
            if j != i {
                let (dx, dy) = (x - p[0], y - p[1]);
                let q = 1.0 / (1.0 + dx * dx + dy * dy);
                z += q;
                fx += q * q * dx;
                fy += q * q * dy;
            }
        }
        (fx, fy, z)
    }

    #[test]
    fn theta_zero_is_exact_and_theta_half_is_close() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut coords: Vec<f32> = (0..2 * 500).map(|_| rng.random::<f32>() * 20.0 - 10.0).collect();
        // Three points in one place, which end in one deepest leaf.
        coords[..6].copy_from_slice(&[1.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
        let mut tree = QuadTree::new();
        tree.build(&coords);
        let mut sorted: Vec<u32> = tree.order().to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..500).collect::<Vec<u32>>(), "every point once in the order");
        for i in [0, 1, 7, 250, 499] {
            let (x, y) = (coords[2 * i], coords[2 * i + 1]);
            let (ex, ey, ez) = exact(&coords, i);
            let (fx, fy, z) = tree.repulsion(i, x, y, 0.0);
            assert!((fx - ex).abs() < 1e-4 && (fy - ey).abs() < 1e-4 && (z - ez).abs() < 1e-3, "point {i}");
            let (fx, fy, z) = tree.repulsion(i, x, y, 0.25);
            let scale = (ex * ex + ey * ey).sqrt().max(1e-3);
            assert!(((fx - ex).powi(2) + (fy - ey).powi(2)).sqrt() < 0.05 * scale, "point {i}: force");
            assert!((z - ez).abs() < 0.02 * ez, "point {i}: Z {z} vs {ez}");
        }
    }
}
