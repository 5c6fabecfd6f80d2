//! Spherical k-means on unit vectors, to colour the words of the map by cluster.
//!
//! Words are compared by cosine, so the clustering works on the unit sphere (Dhillon &
//! Modha 2001, "Concept Decompositions for Large Sparse Text Data Using Clustering"): a
//! point joins the centroid it has the largest dot product with, and a centroid is the
//! normalised sum of its points. Seeding is k-means++ (Arthur & Vassilvitskii 2007,
//! "k-means++: The Advantages of Careful Seeding"): the first centroid is a point drawn
//! uniformly, each next one a point drawn with probability proportional to its squared
//! distance to the nearest centroid chosen so far, `|x − c|² = |x|² + |c|² − 2 x·c`
//! (`2 − 2 cos` between unit vectors).
//!
//! A clustering can be resumed from its centroids on other vectors ([`KMeans::refit`]):
//! while training, each frame of the map starts from the previous frame's centroids, so a
//! cluster keeps its index, hence its colour, and a few iterations per frame suffice.
//!
//! **Architecture Invariant:** the same points, `k`, seed and iteration cap give the same
//! labels and centroids: the generator is seeded Xoshiro256++, sums run in a fixed order,
//! and ties go to the lower centroid index.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

use crate::error::{Error, Result};
use crate::linalg;

/// The most clusters the map colours: beyond about 50, colours can no longer be told apart.
pub const MAX_CLUSTERS: usize = 50;

/// A clustering of unit vectors: `k` unit centroids and the cluster of each point.
#[derive(Debug, Clone, PartialEq)]
pub struct KMeans {
    dim: usize,
    /// `k` rows of `dim` floats, row-major; a centroid is a unit vector (or zero, when all
    /// its points are zero vectors).
    centroids: Vec<f32>,
    labels: Vec<u16>,
    iterations: usize,
    converged: bool,
}

impl KMeans {
    /// Clusters `points` (unit vectors, row-major rows of `dim` floats) into `k` clusters:
    /// k-means++ seeding from `seed`, then at most `max_iterations` Lloyd iterations (each a
    /// centroid update and a re-assignment), fewer when no point changes cluster.
    ///
    /// Fails with [`Error::InvalidParameter`] (named `clusters`) when `k` is below 2, above
    /// [`MAX_CLUSTERS`] or above the number of points.
    ///
    /// **Unchecked precondition:** `dim > 0` and `points.len()` is a multiple of `dim`.
    pub fn fit(points: &[f32], dim: usize, k: usize, seed: u64, max_iterations: usize) -> Result<KMeans> {
        debug_assert!(dim > 0 && points.len().is_multiple_of(dim));
        let n = points.len() / dim;
        check_k(k, n)?;
        let centroids = seed_plus_plus(points, dim, k, seed);
        Ok(KMeans::lloyd(points, dim, centroids, max_iterations))
    }

    /// Clusters `points` again, starting from this clustering's centroids rather than a fresh
    /// seeding, so cluster `i` stays where it was as the points move a little.
    ///
    /// Fails with [`Error::InvalidParameter`] when `points` are fewer than the clusters.
    ///
    /// **Unchecked precondition:** `points.len()` is a multiple of `self.dim()`.
    pub fn refit(&self, points: &[f32], max_iterations: usize) -> Result<KMeans> {
        debug_assert!(points.len().is_multiple_of(self.dim));
        check_k(self.k(), points.len() / self.dim)?;
        Ok(KMeans::lloyd(points, self.dim, self.centroids.clone(), max_iterations))
    }

    /// The number of clusters.
    pub fn k(&self) -> usize {
        self.centroids.len() / self.dim
    }

    /// The dimension of the points.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The cluster of each point, in the order of the points.
    pub fn labels(&self) -> &[u16] {
        &self.labels
    }

    /// The centroids: `k()` rows of `dim()` floats, row-major.
    pub fn centroids(&self) -> &[f32] {
        &self.centroids
    }

    /// The Lloyd iterations run.
    pub fn iterations(&self) -> usize {
        self.iterations
    }

    /// Whether the last iteration moved no point to another cluster.
    pub fn converged(&self) -> bool {
        self.converged
    }

    fn lloyd(points: &[f32], dim: usize, mut centroids: Vec<f32>, max_iterations: usize) -> KMeans {
        let mut labels = vec![0u16; points.len() / dim];
        let mut similarities = vec![0f32; labels.len()];
        assign(points, dim, &centroids, &mut labels, &mut similarities);
        let (mut iterations, mut converged) = (0, false);
        while iterations < max_iterations && !converged {
            update(points, dim, &mut centroids, &mut labels, &similarities);
            converged = !assign(points, dim, &centroids, &mut labels, &mut similarities);
            iterations += 1;
        }
        KMeans { dim, centroids, labels, iterations, converged }
    }
}

/// Checks that `k` is a number of clusters the map colours by, 2 to [`MAX_CLUSTERS`], whatever
/// the number of points.
pub fn check_clusters(k: usize) -> Result<()> {
    if !(2..=MAX_CLUSTERS).contains(&k) {
        return Err(Error::InvalidParameter {
            name: "clusters",
            value: k.to_string(),
            expected: format!("0 for none, or 2 to {MAX_CLUSTERS}"),
        });
    }
    Ok(())
}

fn check_k(k: usize, n_points: usize) -> Result<()> {
    check_clusters(k)?;
    if k > n_points {
        return Err(Error::InvalidParameter {
            name: "clusters",
            value: k.to_string(),
            expected: format!("at most the number of words shown, {n_points}"),
        });
    }
    Ok(())
}

/// A number uniform in `[0, 1)` with 53 random bits.
fn uniform(rng: &mut impl Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// k-means++ seeding: `k` points of `points` as the initial centroids.
fn seed_plus_plus(points: &[f32], dim: usize, k: usize, seed: u64) -> Vec<f32> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let n = points.len() / dim;
    let row = |i: usize| &points[i * dim..(i + 1) * dim];
    let norms: Vec<f64> = (0..n).map(|i| f64::from(linalg::dot(row(i), row(i)))).collect();
    let mut centroids = Vec::with_capacity(k * dim);
    let first = ((uniform(&mut rng) * n as f64) as usize).min(n - 1);
    centroids.extend_from_slice(row(first));
    // Squared distance of each point to its nearest centroid so far, summed in f64.
    let mut nearest = vec![f64::INFINITY; n];
    let mut last = first;
    for _ in 1..k {
        let c = row(last);
        let c_norm = norms[last];
        for (i, d) in nearest.iter_mut().enumerate() {
            let distance = (norms[i] + c_norm - 2.0 * f64::from(linalg::dot(row(i), c))).max(0.0);
            *d = d.min(distance);
        }
        let total: f64 = nearest.iter().sum();
        last = if total > 0.0 {
            let target = uniform(&mut rng) * total;
            let mut acc = 0.0;
            // Rounding may leave the target just above the last sum: the last point with
            // any weight takes it then.
            let mut chosen = nearest.iter().rposition(|&d| d > 0.0).unwrap_or(0);
            for (i, &d) in nearest.iter().enumerate() {
                acc += d;
                if d > 0.0 && acc > target {
                    chosen = i;
                    break;
                }
            }
            chosen
        } else {
            // Every point sits on a centroid (fewer distinct points than clusters): any
            // point will do, and the update step leaves the spare clusters empty.
            ((uniform(&mut rng) * n as f64) as usize).min(n - 1)
        };
        centroids.extend_from_slice(row(last));
    }
    centroids
}

/// Puts each point in the cluster whose centroid it has the largest dot product with (the
/// lower index on a tie), keeping that dot product; returns whether any label changed.
fn assign(
    points: &[f32],
    dim: usize,
    centroids: &[f32],
    labels: &mut [u16],
    similarities: &mut [f32],
) -> bool {
    let mut changed = false;
    for ((point, label), similarity) in points.chunks_exact(dim).zip(labels.iter_mut()).zip(similarities) {
        let (mut best, mut best_score) = (0usize, f32::NEG_INFINITY);
        for (c, centroid) in centroids.chunks_exact(dim).enumerate() {
            let score = linalg::dot(point, centroid);
            if score > best_score {
                (best, best_score) = (c, score);
            }
        }
        // k <= MAX_CLUSTERS, so the index fits.
        let best = best as u16;
        changed |= *label != best;
        *label = best;
        *similarity = best_score;
    }
    changed
}

/// Moves each centroid to the normalised sum of its points. A cluster left without points
/// takes the point farthest from its own centroid (the least similar), which then joins it,
/// so no colour goes unused while there are points enough.
fn update(points: &[f32], dim: usize, centroids: &mut [f32], labels: &mut [u16], similarities: &[f32]) {
    centroids.fill(0.0);
    let mut sizes = vec![0usize; centroids.len() / dim];
    for (point, &label) in points.chunks_exact(dim).zip(labels.iter()) {
        let label = usize::from(label);
        linalg::axpy(1.0, point, &mut centroids[label * dim..(label + 1) * dim]);
        sizes[label] += 1;
    }
    let mut taken = vec![false; labels.len()];
    for c in 0..sizes.len() {
        if sizes[c] > 0 {
            continue;
        }
        // The least similar point whose cluster can spare it.
        let donor = (0..labels.len())
            .filter(|&i| !taken[i] && sizes[usize::from(labels[i])] > 1)
            .min_by(|&a, &b| similarities[a].total_cmp(&similarities[b]));
        let Some(i) = donor else { continue };
        let (point, from) = (&points[i * dim..(i + 1) * dim], usize::from(labels[i]));
        linalg::axpy(-1.0, point, &mut centroids[from * dim..(from + 1) * dim]);
        sizes[from] -= 1;
        centroids[c * dim..(c + 1) * dim].copy_from_slice(point);
        sizes[c] = 1;
        labels[i] = c as u16;
        taken[i] = true;
    }
    centroids.chunks_exact_mut(dim).for_each(linalg::normalize);
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, SeedableRng};

    use super::*;

    /// `per_cluster` unit vectors around each of `k` orthogonal axes of `dim` dimensions,
    /// jittered by up to `noise`, shuffled so no cluster sits in one block of rows; returns
    /// the points and each one's true axis.
    fn blobs(k: usize, per_cluster: usize, dim: usize, noise: f32, seed: u64) -> (Vec<f32>, Vec<usize>) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut rows: Vec<(usize, Vec<f32>)> = Vec::new();
        for axis in 0..k {
            for _ in 0..per_cluster {
                let mut v: Vec<f32> =
                    (0..dim).map(|_| (uniform(&mut rng) as f32 * 2.0 - 1.0) * noise).collect();
                v[axis] += 1.0;
                linalg::normalize(&mut v);
                rows.push((axis, v));
            }
        }
        for i in (1..rows.len()).rev() {
            rows.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        let truth = rows.iter().map(|(axis, _)| *axis).collect();
        (rows.into_iter().flat_map(|(_, v)| v).collect(), truth)
    }

    /// Whether `labels` split the points exactly as `truth` does, whatever the numbering.
    fn same_partition(labels: &[u16], truth: &[usize]) -> bool {
        labels.iter().zip(truth).all(|(&a, &t)| labels.iter().zip(truth).all(|(&b, &u)| (a == b) == (t == u)))
    }

    #[test]
    fn recovers_well_separated_clusters_exactly() {
        // Table: (clusters, points per cluster, dimension, seed).
        for (k, per_cluster, dim, seed) in [(2, 10, 3, 1), (3, 20, 5, 2), (5, 30, 8, 3), (12, 15, 16, 4)] {
            let (points, truth) = blobs(k, per_cluster, dim, 0.05, seed);
            let clustering = KMeans::fit(&points, dim, k, seed, 50).unwrap();
            assert!(same_partition(clustering.labels(), &truth), "k = {k}: {:?}", clustering.labels());
            assert!(clustering.converged(), "k = {k}");
            // Each centroid is a unit vector near its axis.
            for centroid in clustering.centroids().chunks_exact(dim) {
                assert!((linalg::dot(centroid, centroid) - 1.0).abs() < 1e-5);
                assert!(centroid.iter().any(|&x| x > 0.9), "{centroid:?}");
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_labels() {
        // Overlapping clusters, where the seeding decides the outcome.
        let (points, _) = blobs(4, 25, 6, 1.5, 9);
        let a = KMeans::fit(&points, 6, 7, 42, 3).unwrap();
        assert_eq!(a, KMeans::fit(&points, 6, 7, 42, 3).unwrap());
        let others: Vec<KMeans> = (43..48).map(|seed| KMeans::fit(&points, 6, 7, seed, 3).unwrap()).collect();
        assert!(others.iter().any(|b| b.labels() != a.labels()), "the seed changes the seeding");
    }

    #[test]
    fn refit_keeps_cluster_indices_as_points_move() {
        let (points, truth) = blobs(6, 20, 8, 0.2, 5);
        let first = KMeans::fit(&points, 8, 6, 1, 50).unwrap();
        // Move every point a little: the clusters and their numbers stay.
        let mut moved = points.clone();
        for (i, x) in moved.iter_mut().enumerate() {
            *x += 0.03 * ((i % 7) as f32 - 3.0) / 3.0;
        }
        moved.chunks_exact_mut(8).for_each(linalg::normalize);
        let second = first.refit(&moved, 1).unwrap();
        assert_eq!(second.labels(), first.labels());
        assert!(same_partition(second.labels(), &truth));
        // A fresh seeding may number the same clusters otherwise; the refit never does.
        let renumbered =
            (2..30).any(|seed| KMeans::fit(&moved, 8, 6, seed, 50).unwrap().labels() != first.labels());
        assert!(renumbered, "the test shows nothing if every seed numbers clusters alike");
    }

    #[test]
    fn iterations_are_capped_and_zero_means_seeding_only() {
        let (points, _) = blobs(5, 40, 6, 1.0, 3);
        let seeded = KMeans::fit(&points, 6, 5, 1, 0).unwrap();
        assert_eq!((seeded.iterations(), seeded.converged()), (0, false));
        let capped = KMeans::fit(&points, 6, 5, 1, 2).unwrap();
        assert!(capped.iterations() <= 2);
        let full = KMeans::fit(&points, 6, 5, 1, 1000).unwrap();
        assert!(full.converged() && full.iterations() < 1000);
        assert_eq!(full.refit(&points, 5).unwrap().iterations(), 1, "converged already");
    }

    #[test]
    fn degenerate_points_give_valid_labels_not_a_panic() {
        // Ten copies of one vector and two zero vectors: two distinct points for three
        // clusters. Every label is a valid cluster and every centroid finite.
        let mut points: Vec<f32> = [0.6f32, 0.8].repeat(10);
        points.extend([0.0; 4]);
        for seed in 0..20 {
            let clustering = KMeans::fit(&points, 2, 3, seed, 10).unwrap();
            assert_eq!(clustering.labels().len(), 12);
            assert!(clustering.labels().iter().all(|&c| c < 3), "{:?}", clustering.labels());
            assert!(clustering.centroids().iter().all(|x| x.is_finite()));
            // The copies are one point: they share a cluster.
            assert!(clustering.labels()[..10].iter().all(|&c| c == clustering.labels()[0]));
        }
    }

    #[test]
    fn rejects_bad_numbers_of_clusters() {
        let (points, _) = blobs(2, 3, 2, 0.1, 1);
        // Table: (k, what the message says).
        for (k, expected) in
            [(0, "2 to 50"), (1, "2 to 50"), (51, "2 to 50"), (7, "at most the number of words shown, 6")]
        {
            match KMeans::fit(&points, 2, k, 1, 5) {
                Err(err @ Error::InvalidParameter { name: "clusters", .. }) => {
                    assert!(err.to_string().contains(expected), "k = {k}: {err}")
                }
                other => panic!("k = {k}: expected an error on clusters, got {other:?}"),
            }
        }
        let clustering = KMeans::fit(&points, 2, 3, 1, 5).unwrap();
        assert!(clustering.refit(&points[..4], 5).is_err(), "two points cannot fill three clusters");
    }
}
