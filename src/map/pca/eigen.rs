//! The eigendecomposition of a dense symmetric matrix: Householder reduction to tridiagonal
//! form, then the implicit QL algorithm with Wilkinson shifts (EISPACK's `tred2` and `tql2`,
//! as in JAMA). Both are O(n³); PCA uses them on a covariance or Gram matrix of at most
//! `EXACT_MAX` rows, and on the Krylov iteration's small projected problem.

/// Eigen-decomposition of the symmetric `n × n` row-major matrix `a`.
///
/// Returns the eigenvalues (unsorted) and the eigenvectors as the rows of an `n × n`
/// row-major matrix, row `k` belonging to eigenvalue `k`.
pub(super) fn symmetric_eigen(a: Vec<f64>, n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut vt = a;
    let mut d = vec![0.0; n];
    let mut e = vec![0.0; n];
    // tred2 runs on the column-major view of the buffer, where its inner loops are
    // contiguous; its output, read row-major, is then already transposed for tql2.
    tred2(&mut vt, &mut d, &mut e, n);
    tql2(&mut vt, &mut d, &mut e, n);
    (d, vt)
}

/// Householder reduction of the symmetric matrix `v` to tridiagonal form (EISPACK `tred2`,
/// after JAMA). `v` is stored column-major (`v[i, j]` at `j * n + i`), as in EISPACK's
/// Fortran, so the loops over `k` walk memory in order. On return `d` holds the diagonal,
/// `e[1..]` the subdiagonal, and `v` the orthogonal transformation (its columns).
fn tred2(v: &mut [f64], d: &mut [f64], e: &mut [f64], n: usize) {
    let at = |i: usize, j: usize| j * n + i;
    for (j, x) in d.iter_mut().enumerate() {
        *x = v[at(n - 1, j)];
    }

    for i in (1..n).rev() {
        // Scaling avoids underflow and overflow in the Householder vector.
        let scale: f64 = d[..i].iter().map(|x| x.abs()).sum();
        let mut h = 0.0;
        if scale == 0.0 {
            e[i] = d[i - 1];
            for j in 0..i {
                d[j] = v[at(i - 1, j)];
                v[at(i, j)] = 0.0;
                v[at(j, i)] = 0.0;
            }
        } else {
            for x in &mut d[..i] {
                *x /= scale;
                h += *x * *x;
            }
            let mut f = d[i - 1];
            let mut g = h.sqrt();
            if f > 0.0 {
                g = -g;
            }
            e[i] = scale * g;
            h -= f * g;
            d[i - 1] = f - g;
            e[..i].fill(0.0);

            for j in 0..i {
                f = d[j];
                v[at(j, i)] = f;
                g = e[j] + v[at(j, j)] * f;
                for k in j + 1..i {
                    g += v[at(k, j)] * d[k];
                    e[k] += v[at(k, j)] * f;
                }
                e[j] = g;
            }
            f = 0.0;
            for j in 0..i {
                e[j] /= h;
                f += e[j] * d[j];
            }
            let hh = f / (h + h);
            for j in 0..i {
                e[j] -= hh * d[j];
            }
            for j in 0..i {
                f = d[j];
                g = e[j];
                for k in j..i {
                    v[at(k, j)] -= f * e[k] + g * d[k];
                }
                d[j] = v[at(i - 1, j)];
                v[at(i, j)] = 0.0;
            }
        }
        d[i] = h;
    }

    // Accumulate the transformations.
    for i in 0..n - 1 {
        v[at(n - 1, i)] = v[at(i, i)];
        v[at(i, i)] = 1.0;
        let h = d[i + 1];
        if h != 0.0 {
            for k in 0..=i {
                d[k] = v[at(k, i + 1)] / h;
            }
            for j in 0..=i {
                let mut g = 0.0;
                for k in 0..=i {
                    g += v[at(k, i + 1)] * v[at(k, j)];
                }
                for k in 0..=i {
                    v[at(k, j)] -= g * d[k];
                }
            }
        }
        for k in 0..=i {
            v[at(k, i + 1)] = 0.0;
        }
    }
    for j in 0..n {
        d[j] = v[at(n - 1, j)];
        v[at(n - 1, j)] = 0.0;
    }
    v[at(n - 1, n - 1)] = 1.0;
    e[0] = 0.0;
}

/// The most QL sweeps spent on one eigenvalue. Convergence is cubic and usually takes two
/// or three; the cap only guarantees termination.
const MAX_QL_ITERATIONS: usize = 64;

/// Eigenvalues and eigenvectors of the symmetric tridiagonal matrix (`d`, `e`) by the implicit
/// QL method (EISPACK `tql2`, after JAMA). `vt` holds the output of [`tred2`] read row-major
/// (its transpose); on return its rows are the eigenvectors and `d` the eigenvalues.
fn tql2(vt: &mut [f64], d: &mut [f64], e: &mut [f64], n: usize) {
    for i in 1..n {
        e[i - 1] = e[i];
    }
    e[n - 1] = 0.0;

    let mut f = 0.0;
    let mut tst1: f64 = 0.0;
    let eps = f64::EPSILON;
    for l in 0..n {
        // Find a small subdiagonal element; e[n - 1] is 0, so the search stops there.
        tst1 = tst1.max(d[l].abs() + e[l].abs());
        let mut m = l;
        while m < n - 1 && e[m].abs() > eps * tst1 {
            m += 1;
        }
        // If m == l, d[l] is already an eigenvalue; otherwise iterate.
        if m > l {
            let mut iterations = 0;
            loop {
                iterations += 1;
                // Compute the implicit shift.
                let mut g = d[l];
                let mut p = (d[l + 1] - g) / (2.0 * e[l]);
                let mut r = p.hypot(1.0);
                if p < 0.0 {
                    r = -r;
                }
                d[l] = e[l] / (p + r);
                d[l + 1] = e[l] * (p + r);
                let dl1 = d[l + 1];
                let mut h = g - d[l];
                for x in &mut d[l + 2..n] {
                    *x -= h;
                }
                f += h;

                // Implicit QL transformation.
                p = d[m];
                let mut c = 1.0;
                let mut c2 = c;
                let mut c3 = c;
                let el1 = e[l + 1];
                let mut s = 0.0;
                let mut s2 = 0.0;
                for i in (l..m).rev() {
                    c3 = c2;
                    c2 = c;
                    s2 = s;
                    g = c * e[i];
                    h = c * p;
                    r = p.hypot(e[i]);
                    e[i + 1] = s * r;
                    s = e[i] / r;
                    c = p / r;
                    p = c * d[i] - s * g;
                    d[i + 1] = h + s * (c * g + s * d[i]);
                    // Accumulate the rotation into eigenvectors i and i + 1.
                    let (head, tail) = vt.split_at_mut((i + 1) * n);
                    let row_i = &mut head[i * n..];
                    let row_next = &mut tail[..n];
                    for (vi, vn) in row_i.iter_mut().zip(row_next.iter_mut()) {
                        let h = *vn;
                        *vn = s * *vi + c * h;
                        *vi = c * *vi - s * h;
                    }
                }
                p = -s * s2 * c3 * el1 * e[l] / dl1;
                e[l] = s * p;
                d[l] = c * p;
                if e[l].abs() <= eps * tst1 || iterations >= MAX_QL_ITERATIONS {
                    break;
                }
            }
        }
        d[l] += f;
        e[l] = 0.0;
    }
}
