//! The command-line tool: the same core as the browser app, natively.
//!
//! ```text
//! embedscope train CORPUS --out VECTORS [options]
//! embedscope neighbours VECTORS WORD [options]
//! embedscope analogy VECTORS A B C [options]
//! embedscope vector VECTORS WORD [options]
//! embedscope eval VECTORS [--analogies FILE] [--similarity FILE] [options]
//! embedscope project VECTORS --out FILE [options]
//! embedscope info VECTORS [options]
//! embedscope help [COMMAND]
//! ```
//!
//! Each command's options are one table in its module (`train::command()` and so on), from
//! which `args` parses and the help is written.
//!
//! VECTORS may be in any format the core reads (word2vec text or binary, GloVe, Projector
//! `vectors.tsv`, an embedscope bundle, a language model's safetensors or GGUF file, a
//! Parquet table or a folder of its part files, such as a Spark `Word2VecModel`'s);
//! [`vectors::load_vectors`] tells which from the file's first bytes.
//!
//! Every error is one line on stderr and a non-zero exit status.

// The CLI is native only: its argument and progress-bar crates are native dependencies
// (Cargo.toml). Cargo still builds every binary when the wasm integration tests
// (tests/wasm_session.rs) are built for wasm32, so there it is an empty program.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod args;
#[cfg(not(target_arch = "wasm32"))]
mod eval;
#[cfg(not(target_arch = "wasm32"))]
mod info;
#[cfg(not(target_arch = "wasm32"))]
mod input;
#[cfg(not(target_arch = "wasm32"))]
mod progress;
#[cfg(not(target_arch = "wasm32"))]
mod project;
#[cfg(not(target_arch = "wasm32"))]
mod query;
#[cfg(not(target_arch = "wasm32"))]
mod run_params;
#[cfg(not(target_arch = "wasm32"))]
mod train;
#[cfg(not(target_arch = "wasm32"))]
mod vectors;

#[cfg(not(target_arch = "wasm32"))]
use std::process::ExitCode;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::OnceLock;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;

#[cfg(not(target_arch = "wasm32"))]
use args::{Args, Command, Parsed};

#[cfg(not(target_arch = "wasm32"))]
/// What VECTORS may be, and how words with whitespace are given: shared by every command.
const VECTORS_TEXT: &str = "\
VECTORS files may be word2vec text or binary, GloVe, a Projector vectors.tsv, a fastText
.bin model (--max-words N keeps its N most frequent words; a word it lacks gets a vector
built from its character n-grams), an embedscope bundle (.json, saved by the explorer),
or a language model's embedding matrix
(a .safetensors file, a sharded model's model.safetensors.index.json, or a .gguf); the
format is told from the file's first bytes, else from its name (.bin binary, .tsv
vectors.tsv) or its first line. A vectors.tsv takes its words from
--metadata FILE, by default from the metadata.tsv next to it (x-vectors.tsv: x-metadata.tsv);
without one its words are the row numbers 1, 2, ... A model's tokens are named by
--tokenizer FILE, by default by the tokenizer.json next to it (a GGUF file holds its own);
without one they are named by their ids. A token with a leading space (' king') is given
as \\sking, or in its raw form (Ġking, ▁king).
VECTORS may also be a Parquet table: a .parquet file, a folder of part files, or a Spark
Word2VecModel's saved folder (its data/ part files, its metadata/); the words come from a
string column and the vectors from a list-of-float column, named by --columns WORD,VECTOR
when the table has several.
Tokens holding whitespace are stored escaped (\\s for a space, \\n for a newline);
give WORD escaped the same way, e.g. 'Jesus\\s' or 'from\\sthe\\sdead'. Put -- before a word
that starts with '-'.";

#[cfg(not(target_arch = "wasm32"))]
/// What runs a command once its arguments are parsed.
type Runner = fn(Args) -> Result<(), String>;

#[cfg(not(target_arch = "wasm32"))]
/// A command's table and the function that runs it.
type Entry = (fn() -> Command, Runner);

#[cfg(not(target_arch = "wasm32"))]
/// Every command, in the order the help lists them.
const COMMANDS: &[Entry] = &[
    (train::command, train::train),
    (query::neighbours_command, query::neighbours),
    (query::analogy_command, query::analogy),
    (query::vector_command, query::vector),
    (eval::command, eval::eval),
    (project::command, project::project),
    (info::command, info::info),
];

#[cfg(not(target_arch = "wasm32"))]
fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("embedscope: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// The command named `name` (`neighbors` is `neighbours`).
fn entry(name: &str) -> Option<(Command, Runner)> {
    let name = if name == "neighbors" { "neighbours" } else { name };
    COMMANDS.iter().map(|&(command, run)| (command(), run)).find(|(command, _)| command.name == name)
}

#[cfg(not(target_arch = "wasm32"))]
/// `embedscope help`: every command's synopsis, then what each does.
fn usage() -> String {
    let commands: Vec<Command> = COMMANDS.iter().map(|(command, _)| command()).collect();
    let synopses: Vec<String> = commands.iter().map(Command::synopsis).collect();
    let abouts: Vec<&str> = commands.iter().map(|c| c.about.as_str()).collect();
    format!(
        "usage:\n{}\n\n{VECTORS_TEXT}\n\n{}\n\n{}\n\n'embedscope COMMAND --help' lists a command's options with their defaults.",
        synopses.join("\n"),
        input::COMPRESSED_TEXT,
        abouts.join("\n\n"),
    )
}

#[cfg(not(target_arch = "wasm32"))]
fn run(mut args: Vec<String>) -> Result<(), String> {
    if args.is_empty() {
        return Err(format!("no command given\n{}", usage()));
    }
    let name = args.remove(0);
    match name.as_str() {
        "help" | "-h" | "--help" => {
            match args.first().map(|name| entry(name).ok_or(name)) {
                None => println!("{}", usage()),
                Some(Ok((command, _))) => println!("{}", command.help()),
                Some(Err(other)) => return Err(format!("unknown command '{other}'; try 'embedscope help'")),
            }
            Ok(())
        }
        _ => {
            let (command, run) =
                entry(&name).ok_or_else(|| format!("unknown command '{name}'; try 'embedscope help'"))?;
            match Args::parse(&command, args)? {
                Parsed::Help => {
                    println!("{}", command.help());
                    Ok(())
                }
                Parsed::Run(args) => run(args),
            }
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn now() -> f64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}
