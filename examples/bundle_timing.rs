//! Times writing and reading a bundle of 50,000 words × 100 dimensions (the size of a large
//! vocabulary on the page), next to the word2vec text format and a full `json::parse` of the
//! same file, and checks that the vectors come back bit-identical. Prints figures; asserts
//! only the round trip, since timings depend on the machine.
//!
//! Usage: `cargo run --release --example bundle_timing [WORDS [DIM]]`.

use std::time::Instant;

use embedscope::Embeddings;
use embedscope::io::json;
use embedscope::io::{Bundle, read_bundle, read_word2vec_text, write_bundle, write_word2vec_text};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

fn main() -> embedscope::Result<()> {
    let mut args = std::env::args().skip(1).map(|arg| arg.parse::<usize>());
    let n_words = args.next().transpose().ok().flatten().unwrap_or(50_000);
    let dim = args.next().transpose().ok().flatten().unwrap_or(100);

    // Trained vectors have full-precision components of about this size, so their shortest
    // decimal forms are as long as they will be in practice.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(50_000);
    let words: Vec<String> = (0..n_words).map(|i| format!("w{i}")).collect();
    let vectors: Vec<f32> = (0..n_words * dim).map(|_| rng.random_range(-1.0f32..1.0)).collect();
    let counts: Vec<u64> = (0..n_words as u64).map(|i| 1_000_000 / (i + 1)).collect();
    let bundle = Bundle {
        counts: Some(counts),
        params: Some(json::object(vec![("dim".into(), dim.into())])),
        epoch_losses: vec![3.0, 2.5, 2.25],
        ..Bundle::new(Embeddings::new(words, dim, vectors)?)
    };
    println!("{n_words} words × {dim} dimensions");

    let (file, write_s) = timed(|| {
        let mut file = Vec::new();
        write_bundle(&bundle, &mut file).map(|()| file)
    });
    let file = file?;
    let text = String::from_utf8(file).expect("a bundle is UTF-8");
    report("bundle: write", write_s, text.len());

    let (back, read_s) = timed(|| read_bundle(&text));
    let back = back?;
    report("bundle: read", read_s, text.len());
    let same_bits = back
        .embeddings
        .raw_rows(back.embeddings.len())
        .iter()
        .zip(bundle.embeddings.raw_rows(bundle.embeddings.len()).iter())
        .all(|(a, b)| a.to_bits() == b.to_bits());
    assert!(same_bits && back == bundle, "the bundle did not re-open exactly");
    println!("  round trip: bit-identical");

    let (tree, tree_s) = timed(|| json::parse(&text));
    report("json::parse of the whole file (a tree)", tree_s, text.len());
    drop(tree.map_err(|err| embedscope::Error::Format { line: err.line, message: err.message })?);

    let (w2v, w2v_write_s) = timed(|| {
        let mut file = Vec::new();
        write_word2vec_text(&bundle.embeddings, &mut file).map(|()| file)
    });
    let w2v = w2v?;
    report("word2vec text: write", w2v_write_s, w2v.len());
    let (emb, w2v_read_s) = timed(|| read_word2vec_text(&w2v[..]));
    emb?;
    report("word2vec text: read", w2v_read_s, w2v.len());
    Ok(())
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let value = f();
    (value, start.elapsed().as_secs_f64())
}

fn report(what: &str, seconds: f64, bytes: usize) {
    let mb = bytes as f64 / 1e6;
    println!("  {what:<40} {:>7.0} ms  {mb:6.1} MB  {:6.0} MB/s", seconds * 1e3, mb / seconds);
}
