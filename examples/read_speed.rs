//! How fast the vector readers are: generates `N` words × `DIM` random vectors, writes them in
//! every format in memory, and times sniffing and reading each, in one go and in 4 MB slices
//! as the browser worker pushes them.
//!
//! Usage: `cargo run --release --example read_speed -- [N] [DIM] [DECIMALS]` (defaults
//! 100000, 300 and 0). With DECIMALS > 0 values are rounded to that many decimals, which
//! makes text files shorter (GloVe's files hold 5 or 6); with 0 they keep every bit, as
//! training writes them.

use std::time::Instant;

use embedscope::Embeddings;
use embedscope::io::{
    VectorFormat, VectorsParser, write_glove, write_projector_tsv, write_word2vec_binary, write_word2vec_text,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// The browser worker's slice size.
const SLICE: usize = 4 << 20;

fn main() -> embedscope::Result<()> {
    let arg =
        |i: usize, default: usize| std::env::args().nth(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (n, dim, decimals) = (arg(1, 100_000), arg(2, 300), arg(3, 0));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let scale = 10f32.powi(decimals as i32);
    let vectors: Vec<f32> = (0..n * dim)
        .map(|_| {
            let v = rng.random_range(-1.0f32..1.0) * 0.5;
            if decimals > 0 { (v * scale).round() / scale } else { v }
        })
        .collect();
    let words: Vec<String> = (0..n).map(|i| format!("w{i}")).collect();
    let emb = Embeddings::new(words, dim, vectors)?;
    println!(
        "{n} words x {dim} dimensions, values {}",
        if decimals > 0 { "rounded" } else { "full precision" }
    );

    for format in VectorFormat::ALL {
        let (mut file, mut metadata) = (Vec::new(), Vec::new());
        let started = Instant::now();
        match format {
            VectorFormat::Word2VecText => write_word2vec_text(&emb, &mut file)?,
            VectorFormat::Word2VecBinary => write_word2vec_binary(&emb, &mut file)?,
            VectorFormat::Glove => write_glove(&emb, &mut file)?,
            VectorFormat::ProjectorTsv => write_projector_tsv(&emb, &mut file, &mut metadata)?,
        }
        let write_secs = started.elapsed().as_secs_f64();
        let metadata = String::from_utf8(metadata).expect("the writer writes UTF-8");
        let parser = || match format {
            VectorFormat::ProjectorTsv => VectorsParser::with_metadata(&metadata),
            _ => Ok(VectorsParser::new(format)),
        };

        let started = Instant::now();
        let sniffed = VectorFormat::sniff(&file[..file.len().min(VectorFormat::SNIFF_LEN)]);
        let sniff_secs = started.elapsed().as_secs_f64();
        assert_eq!(sniffed, Some(format));

        let started = Instant::now();
        let whole = parser()?.read_all(&file[..])?;
        let read_secs = started.elapsed().as_secs_f64();

        let started = Instant::now();
        let mut sliced = parser()?;
        for slice in file.chunks(SLICE) {
            sliced.push(slice)?;
        }
        let sliced = sliced.finish()?;
        let sliced_secs = started.elapsed().as_secs_f64();
        assert!(whole == emb && sliced == emb, "{format} does not read back what was written");

        let mb = file.len() as f64 / 1e6;
        println!(
            "{:<22} {mb:7.1} MB  write {write_secs:5.2} s  sniff {:5.2} ms  read {read_secs:5.2} s \
             ({:4.0} MB/s)  in 4 MB slices {sliced_secs:5.2} s",
            format.name(),
            sniff_secs * 1e3,
            mb / read_secs
        );
    }
    Ok(())
}
