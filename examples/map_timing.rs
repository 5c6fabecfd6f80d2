//! What one frame of the map costs natively at 10,000 words × 100 dimensions (the page's
//! largest `nWords`): PCA, a word axis beside a principal component, two word axes, and
//! k-means colours, cold (k-means++ seeding) and warm (from the previous frame's
//! centroids, as every frame while training is). The vectors are random, so k-means never
//! converges early and every frame spends its whole budget: the worst case.
//!
//! Usage: `cargo run --release --example map_timing -- [N] [DIM]` (defaults 10000 and 100).

use std::time::Instant;

use embedscope::Embeddings;
use embedscope::map::{Axis, MapSpec, Projection};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Frames timed per case; the fastest is printed, since on a shared machine the others
/// measure the neighbours too.
const REPEATS: usize = 15;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(Ok(10_000), |a| a.parse())?;
    let dim: usize = args.next().map_or(Ok(100), |a| a.parse())?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let vectors = (0..n * dim).map(|_| rng.random_range(-1.0f32..1.0)).collect();
    let emb = Embeddings::new((0..n).map(|i| format!("w{i}")).collect(), dim, vectors)?;
    let words = |a: &str, b: &str| Axis::Words(a.into(), b.into());
    let pcs = MapSpec::components(n, 0, 1);
    let cases = [
        ("PC1 × PC2", pcs.clone()),
        ("word axis × PC2", MapSpec { x: words("w1", "w2"), ..pcs.clone() }),
        ("two word axes", MapSpec { x: words("w1", "w2"), y: words("w3", "w4"), ..pcs.clone() }),
        ("PC1 × PC2, 10 clusters", MapSpec { clusters: 10, ..pcs.clone() }),
        ("PC1 × PC2, 50 clusters", MapSpec { clusters: 50, ..pcs.clone() }),
        ("word axis × PC2, 50 clusters", MapSpec { x: words("w1", "w2"), clusters: 50, ..pcs.clone() }),
    ];
    println!("{n} words × {dim} dimensions, fastest of {REPEATS} frames:");
    for (name, spec) in cases {
        let (cold, warm) = (fastest(|| time(&emb, &spec, None)), {
            let previous = Projection::fit(&emb, &spec, None)?;
            fastest(|| time(&emb, &spec, Some(&previous)))
        });
        println!("  {name:30} first frame {cold:6.1} ms, next frames {warm:6.1} ms");
    }
    Ok(())
}

fn time(emb: &Embeddings, spec: &MapSpec, previous: Option<&Projection>) -> f64 {
    let started = Instant::now();
    let frame = Projection::fit(emb, spec, previous).expect("a valid view");
    let elapsed = started.elapsed().as_secs_f64() * 1e3;
    std::hint::black_box(frame);
    elapsed
}

fn fastest(mut run: impl FnMut() -> f64) -> f64 {
    (0..REPEATS).map(|_| run()).fold(f64::INFINITY, f64::min)
}
