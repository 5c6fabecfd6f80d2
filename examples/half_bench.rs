//! What a neighbour query costs natively over random rows held as `f32` or in half
//! precision: a word2vec-sized `f32` matrix (100,000 × 300 by default) and a language
//! model's matrix in BF16 and F16 (Llama 3's 128,256 × 4,096 by default), with the memory
//! the vectors take ([`Embeddings::bytes`]).
//!
//! Usage: `cargo run --release --example half_bench -- [f32|half|all] [N DIM] [N_HALF DIM_HALF]`.

use std::time::Instant;

use embedscope::Embeddings;
use embedscope::vectors::Half;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Queries timed per matrix; the figures are the fastest and the median.
const QUERIES: usize = 31;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map_or("all", String::as_str);
    let number = |i: usize, default: usize| args.get(i).map_or(Ok(default), |a| a.parse::<usize>());
    let (n, dim) = (number(1, 100_000)?, number(2, 300)?);
    let (n_half, dim_half) = (number(3, 128_256)?, number(4, 4_096)?);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    if which == "f32" || which == "all" {
        let vectors: Vec<f32> = (0..n * dim).map(|_| rng.random_range(-0.5f32..0.5)).collect();
        let emb = Embeddings::new(names(n), dim, vectors)?;
        report("f32", &emb, query_ms(&emb)?);
    }
    if which == "half" || which == "all" {
        let values: Vec<f32> = (0..n_half * dim_half).map(|_| rng.random_range(-0.05f32..0.05)).collect();
        for format in [Half::BF16, Half::F16] {
            let bits: Vec<u16> = values
                .iter()
                .map(|&x| match format {
                    Half::BF16 => half::bf16::from_f32(x).to_bits(),
                    Half::F16 => half::f16::from_f32(x).to_bits(),
                })
                .collect();
            let started = Instant::now();
            let emb = Embeddings::from_half(names(n_half), dim_half, bits, format)?;
            println!("{}: built in {:.2} s", format.name(), started.elapsed().as_secs_f64());
            report(format.name(), &emb, query_ms(&emb)?);
        }
    }
    Ok(())
}

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("w{i}")).collect()
}

/// The fastest and the median time of a 10-neighbour query of several words, in milliseconds.
fn query_ms(emb: &Embeddings) -> Result<(f64, f64), Box<dyn std::error::Error>> {
    let mut times = Vec::with_capacity(QUERIES);
    for i in 0..QUERIES {
        let started = Instant::now();
        let answer = emb.neighbours(emb.word(i * 7919 % emb.len()), 10, None)?;
        times.push(started.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box(answer);
    }
    times.sort_by(f64::total_cmp);
    Ok((times[0], times[QUERIES / 2]))
}

fn report(precision: &str, emb: &Embeddings, (fastest, median): (f64, f64)) {
    println!(
        "{precision}: {} words x {} dims, {:.1} MB held; neighbours {fastest:.1} ms fastest, {median:.1} ms median of {QUERIES}",
        emb.len(),
        emb.dim(),
        emb.bytes() as f64 / 1e6,
    );
}
