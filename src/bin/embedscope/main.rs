//! The command-line tool: the same core as the browser app, natively.
//!
//! ```text
//! embedscope train CORPUS --out VECTORS [options]
//! embedscope neighbours VECTORS WORD [-k 10] [--restrict N] [--metadata FILE]
//! embedscope analogy VECTORS A B C [-k 10] [--cosmul] [--restrict N] [--metadata FILE]
//! embedscope eval VECTORS [--analogies FILE] [--similarity FILE] [--restrict N] [--ignore-case]
//!                 [--gensim] [-k N] [--json] [--metadata FILE]
//! embedscope project VECTORS --out FILE [--method tsne|umap|pca] [--words 5000] [options]
//! ```
//!
//! VECTORS may be in any format the core reads (word2vec text or binary, GloVe, Projector
//! `vectors.tsv`, an embedscope bundle); [`vectors::load_vectors`] tells which from the file's first bytes.
//!
//! Every error is one line on stderr and a non-zero exit status.

mod args;
mod eval;
mod progress;
mod project;
mod query;
mod train;
mod vectors;

use std::collections::VecDeque;
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Instant;

use args::{Args, USAGE};
use eval::eval;
use project::project;
use query::{analogy, neighbours};
use train::train;

fn main() -> ExitCode {
    let args: VecDeque<String> = std::env::args().skip(1).collect();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("embedscope: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(mut args: VecDeque<String>) -> Result<(), String> {
    match args.pop_front().as_deref() {
        Some("train") => train(Args::parse(args)?),
        Some("neighbours" | "neighbors") => neighbours(Args::parse(args)?),
        Some("analogy") => analogy(Args::parse(args)?),
        Some("eval") => eval(Args::parse(args)?),
        Some("project") => project(Args::parse(args)?),
        Some("help" | "-h" | "--help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'; try 'embedscope help'")),
        None => Err(format!("no command given\n{USAGE}")),
    }
}

pub(crate) fn now() -> f64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}
