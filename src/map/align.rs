//! Aligning successive 2-D pictures of the same words, so points move smoothly while
//! training instead of jumping when PCA flips an axis's sign or the top components rotate.
//!
//! Orthogonal Procrustes in the plane: find the orthogonal 2×2 matrix `R` (a rotation, or a
//! reflection, which covers sign flips) minimising `Σ |p_i R − q_i|²` over the points `p`
//! of the new frame and `q` of the previous one. Writing `a = Σ (p_x q_x + p_y q_y)` and
//! `b = Σ (p_x q_y − p_y q_x)`, the best rotation by θ has `cos θ ∝ a`, `sin θ ∝ b` and
//! scores `√(a² + b²)`. A reflection is a rotation after flipping `y`, so the best one
//! comes from the same sums with `p_y` negated: `c = Σ (p_x q_x − p_y q_y)`,
//! `d = Σ (p_x q_y + p_y q_x)`, score `√(c² + d²)`. The larger score wins.
//! The points are centred already (PCA coordinates), so no translation is needed.

/// A 2×2 matrix, row-major: a point `(x, y)` maps to `(x·m[0] + y·m[2], x·m[1] + y·m[3])`.
pub type Transform2 = [f32; 4];

/// The identity transform.
pub const IDENTITY: Transform2 = [1.0, 0.0, 0.0, 1.0];

/// The orthogonal transform that best maps `current` onto `previous`, both flat
/// `[x0, y0, x1, y1, …]` lists of the same points. The identity when either is empty.
///
/// **Unchecked precondition:** `current.len() == previous.len()` and both are even.
pub fn procrustes_2d(current: &[f32], previous: &[f32]) -> Transform2 {
    let (mut a, mut b, mut c, mut d) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for (p, q) in current.chunks_exact(2).zip(previous.chunks_exact(2)) {
        let (px, py, qx, qy) = (p[0] as f64, p[1] as f64, q[0] as f64, q[1] as f64);
        a += px * qx + py * qy;
        b += px * qy - py * qx;
        c += px * qx - py * qy;
        d += px * qy + py * qx;
    }
    let rotation = (a * a + b * b).sqrt();
    let reflection = (c * c + d * d).sqrt();
    if rotation == 0.0 && reflection == 0.0 {
        return IDENTITY;
    }
    if rotation >= reflection {
        let (cos, sin) = ((a / rotation) as f32, (b / rotation) as f32);
        [cos, sin, -sin, cos]
    } else {
        let (cos, sin) = ((c / reflection) as f32, (d / reflection) as f32);
        [cos, sin, sin, -cos]
    }
}

/// The diagonal transform that flips each axis marked in `free` along which `current` runs
/// against `previous` (a negative sum of products): all the alignment a frame gets when one
/// of its axes means something and may not turn. The identity for unmarked axes.
///
/// **Unchecked precondition:** `current.len() == previous.len()` and both are even.
pub fn align_signs(current: &[f32], previous: &[f32], free: [bool; 2]) -> Transform2 {
    let mut sums = [0.0f64; 2];
    for (p, q) in current.chunks_exact(2).zip(previous.chunks_exact(2)) {
        sums[0] += p[0] as f64 * q[0] as f64;
        sums[1] += p[1] as f64 * q[1] as f64;
    }
    let sign = |axis: usize| if free[axis] && sums[axis] < 0.0 { -1.0 } else { 1.0 };
    [sign(0), 0.0, 0.0, sign(1)]
}

/// Applies `m` to every point of the flat list `points`, in place.
pub fn apply_2d(m: &Transform2, points: &mut [f32]) {
    for p in points.chunks_exact_mut(2) {
        let (x, y) = (p[0], p[1]);
        p[0] = x * m[0] + y * m[2];
        p[1] = x * m[1] + y * m[3];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ellipse() -> Vec<f32> {
        (0..12)
            .flat_map(|i| {
                let t = i as f32 * 0.5;
                [3.0 * t.cos() + 0.3 * i as f32, t.sin()]
            })
            .map(|v| v - 0.1)
            .collect()
    }

    fn assert_close(a: &[f32], b: &[f32]) {
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() < 1e-4, "{a:?} vs {b:?}");
        }
    }

    #[test]
    fn undoes_rotations_reflections_and_sign_flips() {
        let previous = ellipse();
        let theta = 0.7f32;
        let cases: Vec<Transform2> = vec![
            [theta.cos(), theta.sin(), -theta.sin(), theta.cos()],
            [-1.0, 0.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, -1.0],
            [-1.0, 0.0, 0.0, -1.0],
            [0.0, 1.0, 1.0, 0.0],
            [theta.cos(), theta.sin(), theta.sin(), -theta.cos()],
        ];
        for m in cases {
            let mut current = previous.clone();
            apply_2d(&m, &mut current);
            let fix = procrustes_2d(&current, &previous);
            apply_2d(&fix, &mut current);
            assert_close(&current, &previous);
        }
    }

    #[test]
    fn sign_alignment_flips_only_free_axes_that_ran_backwards() {
        let previous = ellipse();
        // Table: (the change applied, the axes free to flip, the fix expected).
        let cases: [(Transform2, [bool; 2], Transform2); 4] = [
            ([-1.0, 0.0, 0.0, 1.0], [true, true], [-1.0, 0.0, 0.0, 1.0]),
            ([-1.0, 0.0, 0.0, -1.0], [false, true], [1.0, 0.0, 0.0, -1.0]),
            ([1.0, 0.0, 0.0, -1.0], [true, false], IDENTITY),
            (IDENTITY, [true, true], IDENTITY),
        ];
        for (change, free, expected) in cases {
            let mut current = previous.clone();
            apply_2d(&change, &mut current);
            assert_eq!(align_signs(&current, &previous, free), expected, "{change:?} {free:?}");
        }
    }

    #[test]
    fn is_orthogonal_and_identity_when_nothing_moved() {
        let points = ellipse();
        assert_close(&procrustes_2d(&points, &points), &IDENTITY);
        assert_eq!(procrustes_2d(&[], &[]), IDENTITY);
        assert_eq!(procrustes_2d(&[0.0, 0.0], &[1.0, 1.0]), IDENTITY);
        let noisy: Vec<f32> = points.iter().enumerate().map(|(i, v)| v + (i % 3) as f32 * 0.05).collect();
        let m = procrustes_2d(&noisy, &points);
        // Columns of unit length and perpendicular.
        assert!((m[0] * m[0] + m[2] * m[2] - 1.0).abs() < 1e-5);
        assert!((m[0] * m[1] + m[2] * m[3]).abs() < 1e-5);
    }
}
