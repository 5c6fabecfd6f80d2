//! What a large pretrained file costs natively: writes (or reads) a word2vec text file of
//! `N` words × `DIM` values with 6 decimals, as GloVe and fastText files hold them, then
//! times reading it in 4 MB slices (as the browser worker pushes them), a neighbour query
//! and a PCA of the 300 most frequent words, and prints the peak memory.
//!
//! Usage: `cargo run --release --example vectors_bench -- FILE [N] [DIM]` (defaults 100000
//! and 300). FILE is written first when it does not exist; `npm run bench` then serves the
//! same file to the browser.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::time::Instant;

use embedscope::io::{VectorFormat, VectorsParser};
use embedscope::map::Pca;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

const SLICE: usize = 4 << 20;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: vectors_bench FILE [N] [DIM]")?;
    let n: usize = args.next().map_or(Ok(100_000), |a| a.parse())?;
    let dim: usize = args.next().map_or(Ok(300), |a| a.parse())?;
    if !std::path::Path::new(&path).exists() {
        let started = Instant::now();
        let mut out = BufWriter::new(File::create(&path)?);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        writeln!(out, "{n} {dim}")?;
        for i in 0..n {
            write!(out, "w{i}")?;
            for _ in 0..dim {
                write!(out, " {:.6}", rng.random_range(-1.0f32..1.0) * 0.5)?;
            }
            writeln!(out)?;
        }
        out.flush()?;
        println!("wrote {path} in {:.1} s", started.elapsed().as_secs_f64());
    }

    let started = Instant::now();
    let mut file = File::open(&path)?;
    let mut slice = vec![0u8; SLICE];
    let got = file.read(&mut slice)?;
    let format = VectorFormat::sniff(&slice[..got]).ok_or("not a vectors file")?;
    let mut parser = VectorsParser::new(format);
    parser.push(&slice[..got])?;
    loop {
        let got = file.read(&mut slice)?;
        if got == 0 {
            break;
        }
        parser.push(&slice[..got])?;
    }
    let bytes = parser.bytes_read();
    let emb = parser.finish()?;
    let load = started.elapsed().as_secs_f64();

    let started = Instant::now();
    let queries = 20;
    for i in 0..queries {
        emb.neighbours(emb.word(i * 7919 % emb.len()), 10, None)?;
    }
    let neighbours_ms = started.elapsed().as_secs_f64() * 1e3 / queries as f64;
    let started = Instant::now();
    let pca = Pca::fit(&emb, Some(300), 6)?;
    pca.project_words(&emb, 300);
    let pca_ms = started.elapsed().as_secs_f64() * 1e3;

    println!(
        "native: {} words x {} dims ({:.0} MB of {format}) loaded in {load:.2} s ({:.0} MB/s); \
         neighbours {neighbours_ms:.1} ms; PCA of 300 words {pca_ms:.1} ms",
        emb.len(),
        emb.dim(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / load
    );
    if let Ok(status) = std::fs::read_to_string("/proc/self/status")
        && let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:"))
    {
        println!("native peak memory: {}", line.trim_start_matches("VmHWM:").trim());
    }
    Ok(())
}
