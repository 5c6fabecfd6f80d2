//! Times NN-descent's approximate k-NN graph ([`Knn::cosine_approximate`], what maps of over
//! 20,000 words use) on the first N words of a vectors file, and measures its recall: the
//! share of the exact k nearest neighbours it holds, on a sample of 1,000 words whose exact
//! neighbours are found by brute force. Prints figures; asserts nothing.
//!
//! With `EXACT=1` it also times the exact graph ([`Knn::cosine`]) of the same words, to see
//! where NN-descent starts to pay; `RAYON_NUM_THREADS` sets the threads both take.
//!
//! Usage: `cargo run --release --example knn_recall VECTORS.bin N K...`
//! (e.g. K = 14 for UMAP, 90 for t-SNE at perplexity 30).

use std::fs::File;
use std::io::BufReader;
use std::time::Instant;

use embedscope::io::{VectorFormat, read_vectors};
use embedscope::map::layout::Knn;

fn main() -> embedscope::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, n, ks @ ..] = &args[..] else {
        eprintln!("usage: knn_recall VECTORS.bin N K...");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N is a number");
    let emb = read_vectors(BufReader::new(File::open(path)?), VectorFormat::Word2VecBinary)?;
    let dim = emb.dim();
    let unit = emb.unit_rows(n);
    for k in ks.iter().map(|k| k.parse::<usize>().expect("K is a number")) {
        let started = Instant::now();
        let knn = Knn::cosine_approximate(&unit, dim, k);
        let seconds = started.elapsed().as_secs_f64();
        // Every (n / 1000)-th word, against all n.
        let sample: Vec<usize> = (0..1000).map(|s| s * n / 1000).collect();
        let mut found = 0;
        for &i in &sample {
            let row = &unit[i * dim..(i + 1) * dim];
            let mut all: Vec<(f32, u32)> = (0..n)
                .filter(|&j| j != i)
                .map(|j| (1.0 - dot(row, &unit[j * dim..(j + 1) * dim]), j as u32))
                .collect();
            all.select_nth_unstable_by(k - 1, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            found += all[..k].iter().filter(|(_, j)| knn.neighbours(i).contains(j)).count();
        }
        let recall = found as f64 / (sample.len() * k) as f64;
        let exact = if std::env::var("EXACT").is_ok_and(|v| v == "1") {
            let started = Instant::now();
            let graph = Knn::cosine(&unit, dim, k);
            std::hint::black_box(graph);
            format!("; exact graph in {:.2} s", started.elapsed().as_secs_f64())
        } else {
            String::new()
        };
        println!(
            "{n} words, k = {k}: NN-descent in {seconds:.2} s, recall {recall:.4} (1,000 sampled words){exact}"
        );
    }
    Ok(())
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
