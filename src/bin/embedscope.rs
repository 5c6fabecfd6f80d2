//! The command-line tool: the same core as the browser app, natively.
//!
//! ```text
//! embedscope train CORPUS --out VECTORS [options]
//! embedscope neighbours VECTORS WORD [-k 10] [--restrict N]
//! embedscope analogy VECTORS A B C [-k 10] [--cosmul] [--restrict N]
//! ```
//!
//! Every error is one line on stderr and a non-zero exit status.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufReader, BufWriter, IsTerminal};
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Instant;

use embedscope::embed::{self, AnalogyMethod, Neighbour};
use embedscope::text::{
    BpeConfig, BpeLearner, BpeMode, BpeTokenizer, Corpus, Tokenizer, VocabConfig, WhitespaceTokenizer,
    WordTokenizer,
};
use embedscope::train::{Progress, TrainConfig, Trainer};
use embedscope::{Embeddings, fingerprint};

const USAGE: &str = "\
usage:
  embedscope train CORPUS --out VECTORS [--format text|binary]
                   [--tokenizer word|whitespace|bpe] [--lowercase] [--keep-punctuation]
                   [--vocab-size 8000] [--bpe-mode cross|within]
                   [--dim 100] [--window 5] [--negative 5] [--sample 1e-3]
                   [--min-count 5] [--max-vocab N] [--epochs 5] [--alpha 0.025]
                   [--min-alpha 0.0001] [--ns-exponent 0.75] [--seed 1] [--quiet]
  embedscope neighbours VECTORS WORD [-k 10] [--restrict N]
  embedscope analogy VECTORS A B C [-k 10] [--cosmul] [--restrict N]

VECTORS files are in word2vec format: binary when the name ends in .bin, text otherwise.
Tokens holding whitespace are stored escaped (\\s for a space, \\n for a newline);
give WORD escaped the same way, e.g. 'Jesus\\s' or 'from\\sthe\\sdead'.

--tokenizer bpe learns byte-pair merges from CORPUS up to --vocab-size tokens; with
--bpe-mode cross (default) tokens may span words within a line, with within they stay
inside a word and the whitespace after it.";

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
        Some("help" | "-h" | "--help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'; try 'embedscope help'")),
        None => Err(format!("no command given\n{USAGE}")),
    }
}

/// Positional arguments and `--flag value` options, consumed as the command reads them,
/// so anything left over is reported as unknown.
struct Args {
    positional: VecDeque<String>,
    options: Vec<(String, Option<String>)>,
}

/// Options that take no value.
const SWITCHES: &[&str] = &["--lowercase", "--keep-punctuation", "--quiet", "--cosmul"];
/// Options that take a value; each command reads the ones it knows.
const VALUED: &[&str] = &[
    "--out",
    "--format",
    "--tokenizer",
    "--vocab-size",
    "--bpe-mode",
    "--dim",
    "--window",
    "--negative",
    "--sample",
    "--min-count",
    "--max-vocab",
    "--epochs",
    "--alpha",
    "--min-alpha",
    "--ns-exponent",
    "--seed",
    "-k",
    "--restrict",
];

impl Args {
    fn parse(mut raw: VecDeque<String>) -> Result<Args, String> {
        let mut args = Args { positional: VecDeque::new(), options: Vec::new() };
        while let Some(arg) = raw.pop_front() {
            if arg.starts_with('-') && arg.len() > 1 && arg.parse::<f64>().is_err() {
                let (name, inline) = match arg.split_once('=') {
                    Some((name, value)) => (name.to_string(), Some(value.to_string())),
                    None => (arg, None),
                };
                let value = if SWITCHES.contains(&name.as_str()) {
                    inline
                } else if VALUED.contains(&name.as_str()) {
                    Some(inline.or_else(|| raw.pop_front()).ok_or_else(|| format!("{name} needs a value"))?)
                } else {
                    return Err(format!("unknown option {name}; try 'embedscope help'"));
                };
                args.options.push((name, value));
            } else {
                args.positional.push_back(arg);
            }
        }
        Ok(args)
    }

    fn positional(&mut self, what: &str) -> Result<String, String> {
        self.positional.pop_front().ok_or_else(|| format!("missing {what}; try 'embedscope help'"))
    }

    /// Removes every occurrence of option `name`; the last one given wins.
    fn take(&mut self, name: &str) -> Option<Option<String>> {
        let mut found = None;
        self.options.retain(|(n, value)| {
            let matches = n == name;
            if matches {
                found = Some(value.clone());
            }
            !matches
        });
        found
    }

    fn switch(&mut self, name: &str) -> bool {
        self.take(name).is_some()
    }

    fn value<T: std::str::FromStr>(&mut self, name: &str, default: T) -> Result<T, String> {
        match self.take(name).flatten() {
            None => Ok(default),
            Some(text) => text.parse().map_err(|_| format!("{name} '{text}' is not a valid number")),
        }
    }

    fn text(&mut self, name: &str, default: &str) -> String {
        self.take(name).flatten().unwrap_or_else(|| default.to_string())
    }

    /// Fails on anything no command asked for.
    fn finish(self) -> Result<(), String> {
        if let Some(extra) = self.positional.front() {
            return Err(format!("unexpected argument '{extra}'"));
        }
        if let Some((name, _)) = self.options.first() {
            return Err(format!("unknown option {name}; try 'embedscope help'"));
        }
        Ok(())
    }
}

fn now() -> f64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

fn train(mut args: Args) -> Result<(), String> {
    let corpus_path = args.positional("CORPUS")?;
    let out = args.take("--out").flatten().ok_or("train needs --out VECTORS")?;
    let format = args.text("--format", if out.ends_with(".bin") { "binary" } else { "text" });
    if format != "text" && format != "binary" {
        return Err(format!("--format '{format}' is not text or binary"));
    }
    let choice = match args.text("--tokenizer", "word").as_str() {
        "word" => TokenizerChoice::Ready(Box::new(WordTokenizer {
            lowercase: args.switch("--lowercase"),
            keep_punctuation: args.switch("--keep-punctuation"),
        })),
        "whitespace" => TokenizerChoice::Ready(Box::new(WhitespaceTokenizer)),
        "bpe" => {
            let d = BpeConfig::default();
            let mode = match args.take("--bpe-mode").flatten() {
                Some(name) => BpeMode::from_name(&name).map_err(|e| e.to_string())?,
                None => d.mode,
            };
            let config = BpeConfig { vocab_size: args.value("--vocab-size", d.vocab_size)?, mode };
            config.validate().map_err(|e| e.to_string())?;
            TokenizerChoice::Bpe(config)
        }
        other => return Err(format!("--tokenizer '{other}' is not word, whitespace or bpe")),
    };
    for bpe_only in ["--vocab-size", "--bpe-mode"] {
        if args.switch(bpe_only) {
            return Err(format!("{bpe_only} only applies to --tokenizer bpe"));
        }
    }
    let d = TrainConfig::default();
    let config = TrainConfig {
        dim: args.value("--dim", d.dim)?,
        window: args.value("--window", d.window)?,
        negative: args.value("--negative", d.negative)?,
        sample: args.value("--sample", d.sample)?,
        alpha: args.value("--alpha", d.alpha)?,
        min_alpha: args.value("--min-alpha", d.min_alpha)?,
        epochs: args.value("--epochs", d.epochs)?,
        ns_exponent: args.value("--ns-exponent", d.ns_exponent)?,
        seed: args.value("--seed", d.seed)?,
    };
    let max_vocab: usize = args.value("--max-vocab", 0)?;
    let vocab_config = VocabConfig {
        min_count: args.value("--min-count", VocabConfig::default().min_count)?,
        max_vocab: (max_vocab > 0).then_some(max_vocab),
    };
    let quiet = args.switch("--quiet");
    args.finish()?;
    // Check parameters before reading a large file.
    config.validate().map_err(|e| e.to_string())?;
    vocab_config.validate().map_err(|e| e.to_string())?;

    let bytes = std::fs::read(&corpus_path).map_err(|e| format!("cannot read {corpus_path}: {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    if matches!(text, std::borrow::Cow::Owned(_)) {
        eprintln!(
            "warning: {corpus_path} is not valid UTF-8; invalid byte sequences were replaced by U+FFFD"
        );
    }
    let tokenizer = match choice {
        TokenizerChoice::Ready(tokenizer) => tokenizer,
        TokenizerChoice::Bpe(config) => Box::new(learn_bpe(&text, &config, quiet)?),
    };
    let started = now();
    let corpus = Corpus::build(&text, tokenizer.as_ref(), &vocab_config).map_err(|e| e.to_string())?;
    let cut = corpus.cut();
    eprintln!(
        "{corpus_path}: {} bytes, {} sentences, {} tokens; vocabulary {} words \
         (cut {} of {} types and {} tokens: {} below min_count {}, {} over max_vocab) in {:.2} s",
        bytes.len(),
        corpus.n_sentences(),
        cut.tokens_seen,
        corpus.vocab().len(),
        cut.types_cut(),
        cut.types_seen,
        cut.tokens_cut(),
        cut.types_below_min_count,
        vocab_config.min_count,
        cut.types_over_max_vocab,
        now() - started
    );
    let run_id = fingerprint(&text, &tokenizer.describe(), &vocab_config, &config);
    drop(bytes);

    let mut trainer = Trainer::new(corpus, config, now).map_err(|e| e.to_string())?;
    let mut bar = ProgressBar::new(quiet);
    let mut reported_epochs = 0;
    while !trainer.is_done() {
        let progress = trainer.step(50_000).map_err(|e| e.to_string())?;
        bar.draw(&progress);
        for (epoch, loss) in trainer.epoch_losses().iter().enumerate().skip(reported_epochs) {
            bar.line(&format!("epoch {}/{}  loss {loss:.4}", epoch + 1, config.epochs));
            reported_epochs = epoch + 1;
        }
    }
    let p = trainer.progress();
    let seconds = p.tokens_done as f64 / p.tokens_per_sec;
    eprintln!(
        "trained {} tokens ({} epochs x {}) in {seconds:.2} s: {:.0} tokens/s; final loss {:.4}; fingerprint {run_id}",
        p.tokens_done, p.epochs, p.epoch_tokens, p.tokens_per_sec, p.loss
    );

    let embeddings = trainer.to_embeddings().map_err(|e| e.to_string())?;
    let file = File::create(&out).map_err(|e| format!("cannot create {out}: {e}"))?;
    let writer = BufWriter::new(file);
    let written = if format == "binary" {
        embed::write_word2vec_binary(&embeddings, writer)
    } else {
        embed::write_word2vec_text(&embeddings, writer)
    };
    written.map_err(|e| format!("cannot write {out}: {e}"))?;
    eprintln!("wrote {} vectors of dimension {} to {out} ({format})", embeddings.len(), embeddings.dim());
    Ok(())
}

/// The tokenizer asked for: ready to use, or BPE merges to learn from the corpus first.
enum TokenizerChoice {
    Ready(Box<dyn Tokenizer>),
    Bpe(BpeConfig),
}

/// Learns BPE merges from `text`, showing progress, and reports how long it took.
fn learn_bpe(text: &str, config: &BpeConfig, quiet: bool) -> Result<BpeTokenizer, String> {
    let started = now();
    let mut learner = BpeLearner::new(text, config).map_err(|e| e.to_string())?;
    let prepared = now() - started;
    let mut bar = ProgressBar::new(quiet);
    let progress = loop {
        let p = learner.step(200);
        let filled = (p.fraction() * 30.0) as usize;
        bar.draw_text(
            p.done,
            &format!(
                "BPE merges [{}{}] {:5.1}%  vocabulary {}/{}  last pair seen {} times",
                "#".repeat(filled),
                " ".repeat(30 - filled),
                p.fraction() * 100.0,
                p.vocab_size,
                p.target_vocab_size,
                p.last_pair_count
            ),
        );
        if p.done {
            break p;
        }
    };
    let seconds = now() - started;
    let model = learner.into_model();
    let stopped = if progress.vocab_size < progress.target_vocab_size {
        " (stopped early: no pair of tokens occurs twice any more)"
    } else {
        ""
    };
    let spanning = (0..model.vocab_size() as u32)
        .filter_map(|id| model.token(id))
        .filter(|t| embedscope::text::spans_words(t))
        .count();
    bar.line(&format!(
        "learned {} BPE merges ({} mode) in {seconds:.2} s ({prepared:.2} s counting pairs): \
         vocabulary {} tokens = {} characters + {} merged, {spanning} of them spanning words{stopped}",
        model.n_merges(),
        model.mode().name(),
        model.vocab_size(),
        model.alphabet_size(),
        model.vocab_size() - model.alphabet_size(),
    ));
    Ok(BpeTokenizer::new(model))
}

/// A one-line progress bar on stderr, redrawn at most ten times a second, only on a terminal.
struct ProgressBar {
    enabled: bool,
    last_draw: f64,
}

impl ProgressBar {
    fn new(quiet: bool) -> ProgressBar {
        ProgressBar { enabled: !quiet && std::io::stderr().is_terminal(), last_draw: f64::NEG_INFINITY }
    }

    /// Redraws the bar with `text`, unless it was drawn less than 0.1 s ago and `force` is unset.
    fn draw_text(&mut self, force: bool, text: &str) {
        if !self.enabled || (now() - self.last_draw < 0.1 && !force) {
            return;
        }
        self.last_draw = now();
        eprint!("\r\x1b[2K{text}");
    }

    fn draw(&mut self, p: &Progress) {
        if !self.enabled || (now() - self.last_draw < 0.1 && !p.done) {
            return;
        }
        let fraction = p.tokens_done as f64 / p.tokens_total as f64;
        let filled = (fraction * 30.0) as usize;
        let eta = if p.tokens_per_sec > 0.0 {
            (p.tokens_total - p.tokens_done) as f64 / p.tokens_per_sec
        } else {
            0.0
        };
        let text = format!(
            "epoch {}/{} [{}{}] {:5.1}%  {:>9.0} tokens/s  lr {:.5}  loss {:.4}  ETA {}:{:02}",
            p.epoch,
            p.epochs,
            "#".repeat(filled),
            " ".repeat(30 - filled),
            fraction * 100.0,
            p.tokens_per_sec,
            p.alpha,
            p.loss,
            eta as u64 / 60,
            eta as u64 % 60
        );
        self.draw_text(true, &text);
    }

    /// A permanent line, printed above the bar.
    fn line(&mut self, text: &str) {
        if self.enabled {
            eprint!("\r\x1b[2K");
        }
        eprintln!("{text}");
        self.last_draw = f64::NEG_INFINITY;
    }
}

fn load_vectors(path: &str) -> Result<Embeddings, String> {
    let file = File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
    let reader = BufReader::new(file);
    let loaded = if path.ends_with(".bin") {
        embed::read_word2vec_binary(reader)
    } else {
        embed::read_word2vec_text(reader)
    };
    loaded.map_err(|e| format!("{path}: {e}"))
}

fn print_neighbours(list: &[Neighbour]) {
    for n in list {
        println!("{:.4}\t{}", n.similarity, embed::escape_token(&n.word));
    }
}

/// A query's error as one line: unknown words are named escaped, as the user typed them.
fn query_error(err: embedscope::Error) -> String {
    match err {
        embedscope::Error::UnknownWords(words) => embedscope::Error::UnknownWords(
            words.iter().map(|w| embed::escape_token(w).into_owned()).collect(),
        )
        .to_string(),
        other => other.to_string(),
    }
}

fn neighbours(mut args: Args) -> Result<(), String> {
    let path = args.positional("VECTORS")?;
    let word = args.positional("WORD")?;
    let k = args.value("-k", 10usize)?;
    let restrict: usize = args.value("--restrict", 0)?;
    args.finish()?;
    let embeddings = load_vectors(&path)?;
    let word = embed::unescape_token(&word).map_err(|e| e.to_string())?;
    let list = embeddings.neighbours(&word, k, (restrict > 0).then_some(restrict)).map_err(query_error)?;
    print_neighbours(&list);
    Ok(())
}

fn analogy(mut args: Args) -> Result<(), String> {
    let path = args.positional("VECTORS")?;
    let mut words = Vec::new();
    for what in ["A", "B", "C"] {
        words.push(embed::unescape_token(&args.positional(what)?).map_err(|e| e.to_string())?);
    }
    let k = args.value("-k", 10usize)?;
    let method = if args.switch("--cosmul") { AnalogyMethod::CosMul } else { AnalogyMethod::CosAdd };
    let restrict: usize = args.value("--restrict", 0)?;
    args.finish()?;
    let embeddings = load_vectors(&path)?;
    let list = embeddings
        .analogy(&words[0], &words[1], &words[2], k, method, (restrict > 0).then_some(restrict))
        .map_err(query_error)?;
    print_neighbours(&list);
    Ok(())
}
