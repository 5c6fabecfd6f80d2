//! Writes the same embeddings in both word2vec formats, plus the expected contents, so an
//! outside reader can check it reads them exactly: `tests/gensim_compat.py` does so with gensim.
//!
//! Usage: `cargo run --example write_formats -- OUTDIR`, which writes `OUTDIR/vectors.txt`,
//! `OUTDIR/vectors.bin` and `OUTDIR/expected.tsv` (one line per word: the escaped word, a
//! tab, and the `f32` bit patterns of its vector in hex).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use embedscope::Embeddings;
use embedscope::io::{escape_token, write_word2vec_binary, write_word2vec_text};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

include!("../src/io/tricky_tokens.rs");

fn main() -> ExitCode {
    let Some(out_dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: write_formats OUTDIR");
        return ExitCode::FAILURE;
    };
    match run(&out_dir) {
        Ok(n) => {
            println!("wrote {n} words to {}", out_dir.display());
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("write_formats: {err}");
            ExitCode::FAILURE
        }
    }
}

fn run(out_dir: &std::path::Path) -> embedscope::Result<usize> {
    std::fs::create_dir_all(out_dir)?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2014);
    let mut words: Vec<String> = TRICKY.iter().map(|w| w.to_string()).collect();
    words.extend((0..200).map(|i| format!("w{i}")));
    let dim = 50;
    // Random finite bit patterns cover subnormals, extremes and negative zero; the first
    // rows hold hand-picked awkward values.
    let special = [0.1f32, -0.0, 1e-45, f32::MAX, f32::MIN_POSITIVE, -3.4028235e38, 1.0 / 3.0, 1e10];
    let mut vectors: Vec<f32> = special.to_vec();
    while vectors.len() < words.len() * dim {
        let v = f32::from_bits(rng.next_u32());
        if v.is_finite() {
            vectors.push(v);
        }
    }
    let emb = Embeddings::new(words, dim, vectors)?;

    write_word2vec_text(&emb, File::create(out_dir.join("vectors.txt"))?)?;
    write_word2vec_binary(&emb, File::create(out_dir.join("vectors.bin"))?)?;
    let mut expected = BufWriter::new(File::create(out_dir.join("expected.tsv"))?);
    for (word_idx, word) in emb.words().iter().enumerate() {
        let bits: Vec<String> = emb.vector(word_idx).iter().map(|v| format!("{:08x}", v.to_bits())).collect();
        writeln!(expected, "{}\t{}", escape_token(word), bits.join(" "))?;
    }
    expected.flush()?;
    Ok(emb.len())
}
