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
//! `vectors.tsv`, an embedscope bundle); [`load_vectors`] tells which from the file's first bytes.
//!
//! Every error is one line on stderr and a non-zero exit status.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Instant;

use embedscope::embed::{
    self, AnalogyEvaluator, AnalogyMethod, AnalogyOptions, AnalogyReport, AnalogySet, Layout, Neighbour, Pca,
    SectionScore, SimilarityOptions, SimilarityReport, SimilaritySet, Tsne, TsneParams, Umap, UmapParams,
    VectorFormat, VectorsParser,
};
use embedscope::json::Value;
use embedscope::text::{
    BpeConfig, BpeLearner, BpeMode, BpeTokenizer, Corpus, Tokenizer, VocabConfig, WhitespaceTokenizer,
    WordTokenizer, decode_text,
};
use embedscope::train::{Progress, TrainConfig, Trainer};
use embedscope::{Embeddings, fingerprint};

const USAGE: &str = "\
usage:
  embedscope train CORPUS --out VECTORS [--format text|binary|glove|tsv|bundle]
                   [--tokenizer word|whitespace|bpe] [--lowercase] [--keep-punctuation]
                   [--vocab-size 8000] [--bpe-mode cross|within]
                   [--dim 100] [--window 5] [--negative 5] [--sample 1e-3]
                   [--min-count 5] [--max-vocab N] [--epochs 5] [--alpha 0.025]
                   [--min-alpha 0.0001] [--ns-exponent 0.75] [--seed 1] [--cbow]
                   [--threads N] [--quiet]
  embedscope neighbours VECTORS WORD [-k 10] [--restrict N] [--metadata FILE]
  embedscope analogy VECTORS A B C [-k 10] [--cosmul] [--restrict N] [--metadata FILE]
  embedscope eval VECTORS [--analogies FILE] [--similarity FILE] [--restrict N]
                  [--ignore-case] [--gensim] [-k/--worst N] [--json] [--metadata FILE]
  embedscope project VECTORS --out FILE [--method tsne|umap|pca] [--words 5000] [--seed 1]
                     [--perplexity 30] [--learning-rate auto] [--iterations 750] [--exaggeration 12]
                     [--neighbors 15] [--min-dist 0.1] [--epochs N] [--quiet] [--metadata FILE]

VECTORS files may be word2vec text or binary, GloVe, a Projector vectors.tsv, or an
embedscope bundle (.json, saved by the explorer); the
format is told from the file's first bytes, else from its name (.bin binary, .tsv
vectors.tsv) or its first line. A vectors.tsv takes its words from
--metadata FILE, by default from the metadata.tsv next to it (x-vectors.tsv: x-metadata.tsv);
without one its words are the row numbers 1, 2, ...
train writes word2vec text, or with --format (by default from the name: .bin binary,
.tsv a vectors.tsv plus its metadata.tsv, .json a bundle) binary, GloVe, Projector TSV or an
embedscope bundle, which also holds the counts, parameters, losses and fingerprint and opens
in the explorer as it was.
Tokens holding whitespace are stored escaped (\\s for a space, \\n for a newline);
give WORD escaped the same way, e.g. 'Jesus\\s' or 'from\\sthe\\sdead'.

train learns skip-gram vectors, or with --cbow continuous bag of words (the mean of a
window predicts its centre; --alpha then defaults to 0.05, as in word2vec.c). --threads N
trains on N threads at once (default: this machine's cores), lock-free as word2vec.c and
gensim do; only --threads 1 gives bit-identical vectors for the same text, parameters and
seed, and the output says which a run was.

--tokenizer bpe learns byte-pair merges from CORPUS up to --vocab-size tokens; with
--bpe-mode cross (default) tokens may span words within a line, with within they stay
inside a word and the whitespace after it.

eval scores VECTORS on benchmarks (give one or both): --analogies FILE in the
questions-words.txt format (': section' lines, then 'a b c d' per line), answered by 3CosAdd
and 3CosMul; --similarity FILE of 'word1 word2 score' lines (WordSim-353, SimLex-999; a
header line names the score column), scored by Spearman's and Pearson's correlation. In
both, lines starting with '#' are comments, as in gensim's copies of these benchmarks.
Only the --restrict N most frequent words count (default: 30000 for analogies, as word2vec's
compute-accuracy, and the whole vocabulary for similarity; 0 means the whole vocabulary);
--ignore-case matches words case-insensitively. Questions and pairs with a word outside
them are left out, and counted in the coverage and the OOV ratio. --gensim takes the
defaults of gensim's evaluate_word_analogies and evaluate_word_pairs instead: ignoring case,
the 300000 most frequent words for both (an explicit --restrict still applies).
-k/--worst N lists the N worst-answered questions (default 20) and pairs (default 10).

project maps the --words N most frequent words (default 5000, or all when fewer) to the
plane and writes one row per word with its two coordinates: CSV (word,x,y with a header,
RFC 4180 quoting), or for a .tsv name the Projector's pair (FILE the coordinates, its
metadata.tsv the words). --method tsne (default) is Barnes-Hut t-SNE as openTSNE runs it:
--perplexity, --learning-rate auto or a number (scikit-learn's scale, a quarter of
openTSNE's), --iterations, --exaggeration for the first 250. --method umap takes
--neighbors, --min-dist, --epochs (by default 500 up to 10000 words, else 200) and
--learning-rate (default 1). --method pca plots the first two principal components. t-SNE
and UMAP use cosine distance and write the same file for the same --seed.";

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

/// Positional arguments and `--flag value` options, consumed as the command reads them,
/// so anything left over is reported as unknown.
struct Args {
    positional: VecDeque<String>,
    options: Vec<(String, Option<String>)>,
}

/// Options that take no value.
const SWITCHES: &[&str] = &[
    "--lowercase",
    "--keep-punctuation",
    "--quiet",
    "--cosmul",
    "--ignore-case",
    "--gensim",
    "--json",
    "--cbow",
];
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
    "--threads",
    "-k",
    "--restrict",
    "--metadata",
    "--analogies",
    "--similarity",
    "--worst",
    "--method",
    "--words",
    "--perplexity",
    "--learning-rate",
    "--iterations",
    "--exaggeration",
    "--neighbors",
    "--min-dist",
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
        Ok(self.optional(name)?.unwrap_or(default))
    }

    /// The value of option `name` when it is given.
    fn optional<T: std::str::FromStr>(&mut self, name: &str) -> Result<Option<T>, String> {
        match self.take(name).flatten() {
            None => Ok(None),
            Some(text) => {
                text.parse().map(Some).map_err(|_| format!("{name} '{text}' is not a valid number"))
            }
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
    // None: an embedscope bundle, which holds the counts and parameters too.
    let format = match args.take("--format").flatten() {
        None if out.to_ascii_lowercase().ends_with(".json") => None,
        None => Some(VectorFormat::from_file_name(&out).unwrap_or(VectorFormat::Word2VecText)),
        Some(name) => match name.as_str() {
            "text" => Some(VectorFormat::Word2VecText),
            "binary" => Some(VectorFormat::Word2VecBinary),
            "glove" => Some(VectorFormat::Glove),
            "tsv" => Some(VectorFormat::ProjectorTsv),
            "bundle" => None,
            _ => return Err(format!("--format '{name}' is not text, binary, glove, tsv or bundle")),
        },
    };
    let tokenizer_name = args.text("--tokenizer", "word");
    let mut params: Vec<(String, Value)> = vec![("tokenizer".into(), tokenizer_name.as_str().into())];
    let choice = match tokenizer_name.as_str() {
        "word" => {
            let tokenizer = WordTokenizer {
                lowercase: args.switch("--lowercase"),
                keep_punctuation: args.switch("--keep-punctuation"),
            };
            params.push(("lowercase".into(), tokenizer.lowercase.into()));
            params.push(("keepPunctuation".into(), tokenizer.keep_punctuation.into()));
            TokenizerChoice::Ready(Box::new(tokenizer))
        }
        "whitespace" => TokenizerChoice::Ready(Box::new(WhitespaceTokenizer)),
        "bpe" => {
            let d = BpeConfig::default();
            let mode = match args.take("--bpe-mode").flatten() {
                Some(name) => BpeMode::from_name(&name).map_err(|e| e.to_string())?,
                None => d.mode,
            };
            let config = BpeConfig { vocab_size: args.value("--vocab-size", d.vocab_size)?, mode };
            config.validate().map_err(|e| e.to_string())?;
            params.push(("bpeVocabSize".into(), config.vocab_size.into()));
            params.push(("bpeMode".into(), config.mode.name().into()));
            TokenizerChoice::Bpe(config)
        }
        other => return Err(format!("--tokenizer '{other}' is not word, whitespace or bpe")),
    };
    for bpe_only in ["--vocab-size", "--bpe-mode"] {
        if args.switch(bpe_only) {
            return Err(format!("{bpe_only} only applies to --tokenizer bpe"));
        }
    }
    let cbow = args.switch("--cbow");
    let d = if cbow { TrainConfig::cbow_default() } else { TrainConfig::default() };
    let cores =
        std::thread::available_parallelism().map_or(1, |n| n.get()).min(embedscope::train::MAX_THREADS);
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
        threads: args.value("--threads", cores)?,
        cbow,
    };
    let max_vocab: usize = args.value("--max-vocab", 0)?;
    let vocab_config = VocabConfig {
        min_count: args.value("--min-count", VocabConfig::default().min_count)?,
        max_vocab: (max_vocab > 0).then_some(max_vocab),
    };
    let quiet = args.switch("--quiet");
    args.finish()?;
    // The page's names for the parameters, so the explorer fills its form from a bundle.
    params.extend([
        ("dim".to_string(), config.dim.into()),
        ("window".into(), config.window.into()),
        ("negative".into(), config.negative.into()),
        ("sample".into(), config.sample.into()),
        ("minCount".into(), vocab_config.min_count.into()),
        ("maxVocab".into(), vocab_config.max_vocab.map_or(Value::Null, Value::from)),
        ("epochs".into(), config.epochs.into()),
        ("alpha".into(), config.alpha.into()),
        ("minAlpha".into(), config.min_alpha.into()),
        ("nsExponent".into(), config.ns_exponent.into()),
        ("seed".into(), config.seed.into()),
        ("cbow".into(), config.cbow.into()),
        ("threads".into(), config.threads.into()),
    ]);
    // Check parameters before reading a large file.
    config.validate().map_err(|e| e.to_string())?;
    vocab_config.validate().map_err(|e| e.to_string())?;

    let bytes = std::fs::read(&corpus_path).map_err(|e| format!("cannot read {corpus_path}: {e}"))?;
    let n_bytes = bytes.len();
    let decoded = decode_text(bytes).map_err(|e| format!("{corpus_path}: {e}"))?;
    if let Some(note) = decoded.note() {
        eprintln!("warning: {corpus_path}: {note}");
    }
    let text = decoded.text;
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
        n_bytes,
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
    drop(text);

    let mut trainer = Trainer::new(corpus, config, now).map_err(|e| e.to_string())?;
    let mut bar = ProgressBar::new(quiet);
    let mut reported_epochs = 0;
    // Threads wait for each other at the end of a step, so each gets 50,000 tokens a step.
    let step_tokens = 50_000 * config.threads as u64;
    while !trainer.is_done() {
        let progress = trainer.step(step_tokens).map_err(|e| e.to_string())?;
        bar.draw(&progress);
        for (epoch, loss) in trainer.epoch_losses().iter().enumerate().skip(reported_epochs) {
            bar.line(&format!("epoch {}/{}  loss {loss:.4}", epoch + 1, config.epochs));
            reported_epochs = epoch + 1;
        }
    }
    let p = trainer.progress();
    let seconds = p.tokens_done as f64 / p.tokens_per_sec;
    let model = if config.cbow { "CBOW" } else { "skip-gram" };
    let reproducible = match config.threads {
        1 => "1 thread: bit-reproducible".to_string(),
        n => format!("{n} threads: not bit-reproducible, threads race on shared vectors"),
    };
    eprintln!(
        "trained {} tokens ({} epochs x {}) in {seconds:.2} s: {:.0} tokens/s; final loss {:.4}; \
         {model}, {reproducible}; fingerprint {run_id}",
        p.tokens_done, p.epochs, p.epoch_tokens, p.tokens_per_sec, p.loss
    );

    let embeddings = trainer.to_embeddings().map_err(|e| e.to_string())?;
    if let Some(mb) = peak_memory_mb() {
        eprintln!("peak memory {mb:.0} MB");
    }
    let create =
        |path: &str| File::create(path).map(BufWriter::new).map_err(|e| format!("cannot create {path}: {e}"));
    let writer = create(&out)?;
    let mut also = String::new();
    let Some(format) = format else {
        let mut bundle = embed::Bundle::new(embeddings);
        bundle.counts = Some(trainer.corpus().vocab().counts().to_vec());
        bundle.params = Some(Value::Object(params));
        bundle.fingerprint = Some(run_id);
        bundle.epoch_losses = trainer.epoch_losses().to_vec();
        bundle.source = Path::new(&corpus_path).file_name().map(|name| name.to_string_lossy().into_owned());
        embed::write_bundle(&bundle, writer).map_err(|e| format!("cannot write {out}: {e}"))?;
        eprintln!(
            "wrote {} vectors of dimension {} with their counts, parameters and losses to {out} (bundle)",
            bundle.embeddings.len(),
            bundle.embeddings.dim()
        );
        return Ok(());
    };
    let written = match format {
        VectorFormat::Word2VecText => embed::write_word2vec_text(&embeddings, writer),
        VectorFormat::Word2VecBinary => embed::write_word2vec_binary(&embeddings, writer),
        VectorFormat::Glove => embed::write_glove(&embeddings, writer),
        VectorFormat::ProjectorTsv => {
            let metadata = metadata_path_for(&out);
            let metadata = metadata.to_string_lossy();
            also = format!(", words to {metadata}");
            embed::write_projector_tsv(&embeddings, writer, create(&metadata)?)
        }
    };
    written.map_err(|e| format!("cannot write {out}: {e}"))?;
    eprintln!(
        "wrote {} vectors of dimension {} to {out}{also} ({format})",
        embeddings.len(),
        embeddings.dim()
    );
    Ok(())
}

/// The most memory this process has held (its peak resident set), where Linux tells it.
fn peak_memory_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
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
        bar.draw_text(
            p.done,
            &format!(
                "BPE merges {} {:5.1}%  vocabulary {}/{}  last pair seen {} times",
                gauge(p.fraction()),
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

/// `fraction` (0 to 1) as a bar of 30 characters between brackets: `[#####     ]`.
fn gauge(fraction: f64) -> String {
    let filled = ((fraction.clamp(0.0, 1.0) * 30.0) as usize).min(30);
    format!("[{}{}]", "#".repeat(filled), " ".repeat(30 - filled))
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
        let eta = if p.tokens_per_sec > 0.0 {
            (p.tokens_total - p.tokens_done) as f64 / p.tokens_per_sec
        } else {
            0.0
        };
        let text = format!(
            "epoch {}/{} {} {:5.1}%  {:>9.0} tokens/s  lr {:.5}  loss {:.4}  ETA {}:{:02}",
            p.epoch,
            p.epochs,
            gauge(fraction),
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

/// Loads the vectors file at `path`, whatever its format: sniffed from its first bytes, else
/// guessed from its name or its first line ([`VectorFormat::guess`]), so the reader of the
/// likely format says what is wrong. A Projector `vectors.tsv` takes its words from
/// `metadata`, by default from the file [`metadata_path_for`] names if it exists, else row
/// numbers.
///
/// Errors are one line naming the file at fault, e.g.
/// `vectors.txt: malformed vectors file, line 7: expected 100 values after 'night', found 99`.
fn load_vectors(path: &str, metadata: Option<&str>) -> Result<Embeddings, String> {
    let mut file = File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
    let mut head = Vec::with_capacity(VectorFormat::SNIFF_LEN);
    (&mut file)
        .take(VectorFormat::SNIFF_LEN as u64)
        .read_to_end(&mut head)
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if embed::Bundle::sniff(&head) {
        let mut text = String::from_utf8(head).map_err(|_| format!("{path}: a bundle must be UTF-8"))?;
        file.read_to_string(&mut text).map_err(|e| format!("cannot read {path}: {e}"))?;
        return embed::read_bundle(&text).map(|bundle| bundle.embeddings).map_err(|e| format!("{path}: {e}"));
    }
    let format = VectorFormat::guess(&head, path);
    let (parser, note) = match (format, metadata) {
        (VectorFormat::ProjectorTsv, _) => projector_parser(path, metadata)?,
        (_, Some(given)) => {
            return Err(format!(
                "--metadata {given} only applies to a Projector vectors.tsv, and {path} is {format}"
            ));
        }
        (_, None) => (VectorsParser::new(format), None),
    };
    let embeddings = parser.read_all((&head[..]).chain(file)).map_err(|e| format!("{path}: {e}"))?;
    if let Some(note) = note {
        eprintln!("{note}");
    }
    Ok(embeddings)
}

/// The parser for the Projector `vectors.tsv` at `path`, with the words of `metadata`, by
/// default of the file [`metadata_path_for`] names if it exists; without one, also a note
/// to show that the words are row numbers.
fn projector_parser(path: &str, metadata: Option<&str>) -> Result<(VectorsParser, Option<String>), String> {
    let default = metadata_path_for(path);
    let metadata_path = match metadata {
        Some(given) => PathBuf::from(given),
        None if default.exists() => default,
        None => {
            let note = format!(
                "note: no {} next to {path}, so its words are the row numbers 1, 2, ...",
                default.to_string_lossy()
            );
            return Ok((VectorsParser::new(VectorFormat::ProjectorTsv), Some(note)));
        }
    };
    let text = read_metadata(&metadata_path)?;
    let parser = VectorsParser::with_metadata(&text)
        .map_err(|e| format!("{}: {e}", metadata_path.to_string_lossy()))?;
    Ok((parser, None))
}

/// Where the `metadata.tsv` of a `vectors.tsv` is: next to it, its name with the last
/// `vectors` turned into `metadata` (`kjv-vectors.tsv`: `kjv-metadata.tsv`), or
/// `metadata.tsv` when the name holds no `vectors`.
fn metadata_path_for(vectors_path: &str) -> PathBuf {
    let path = Path::new(vectors_path);
    let name = path.file_name().map(|name| name.to_string_lossy()).unwrap_or_default();
    let metadata_name = match name.rfind("vectors") {
        Some(at) => format!("{}metadata{}", &name[..at], &name[at + "vectors".len()..]),
        None => "metadata.tsv".to_string(),
    };
    path.with_file_name(metadata_name)
}

/// The text of a `metadata.tsv`; invalid UTF-8 is an error naming its line.
fn read_metadata(path: &Path) -> Result<String, String> {
    let shown = path.to_string_lossy();
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    String::from_utf8(bytes).map_err(|err| {
        let valid = &err.as_bytes()[..err.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        format!("{shown}: invalid UTF-8 on line {line}")
    })
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
    let metadata = args.take("--metadata").flatten();
    args.finish()?;
    let embeddings = load_vectors(&path, metadata.as_deref())?;
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
    let metadata = args.take("--metadata").flatten();
    args.finish()?;
    let embeddings = load_vectors(&path, metadata.as_deref())?;
    let list = embeddings
        .analogy(&words[0], &words[1], &words[2], k, method, (restrict > 0).then_some(restrict))
        .map_err(query_error)?;
    print_neighbours(&list);
    Ok(())
}

fn eval(mut args: Args) -> Result<(), String> {
    let path = args.positional("VECTORS")?;
    let analogies_path = args.take("--analogies").flatten();
    let similarity_path = args.take("--similarity").flatten();
    // 0 means the whole vocabulary, as for the other commands; absent means each benchmark's default.
    let restrict: Option<usize> = args.optional("--restrict")?;
    // --gensim swaps our defaults for gensim's; what is given explicitly still applies.
    let gensim = args.switch("--gensim");
    let ignore_case = args.switch("--ignore-case") || gensim;
    let k: Option<usize> = args.optional("-k")?;
    let worst = args.optional("--worst")?.or(k);
    let json = args.switch("--json");
    let metadata = args.take("--metadata").flatten();
    args.finish()?;
    if analogies_path.is_none() && similarity_path.is_none() {
        return Err("eval needs --analogies FILE or --similarity FILE (or both)".into());
    }
    // Benchmarks are small: read them first, so a malformed one fails before a large vectors file loads.
    let analogies =
        analogies_path.map(|p| read_benchmark(&p, AnalogySet::parse).map(|set| (p, set))).transpose()?;
    let similarity =
        similarity_path.map(|p| read_benchmark(&p, SimilaritySet::parse).map(|set| (p, set))).transpose()?;
    let embeddings = load_vectors(&path, metadata.as_deref())?;
    let mut json_out: Vec<(String, Value)> = vec![
        ("vectors".into(), path.as_str().into()),
        ("words".into(), embeddings.len().into()),
        ("dim".into(), embeddings.dim().into()),
    ];
    let restrict_or = |default: Option<usize>| restrict.map_or(default, |n| (n > 0).then_some(n));

    let both = analogies.is_some() && similarity.is_some();
    if let Some((file, set)) = analogies {
        let d = if gensim { AnalogyOptions::gensim() } else { AnalogyOptions::default() };
        let options = AnalogyOptions {
            restrict: restrict_or(d.restrict),
            ignore_case,
            worst: worst.unwrap_or(d.worst),
        };
        let (n_questions, n_sections) = (set.n_questions(), set.sections().len());
        let started = now();
        let mut evaluator = AnalogyEvaluator::new(&embeddings, set, options).map_err(|e| e.to_string())?;
        let mut bar = ProgressBar::new(false);
        loop {
            let p = evaluator.step(&embeddings, 1_024).map_err(|e| e.to_string())?;
            let text = format!("analogies {} {}/{}", gauge(p.done as f64 / p.total as f64), p.done, p.total);
            bar.draw_text(p.is_done(), &text);
            if p.is_done() {
                break;
            }
        }
        bar.line(&format!("evaluated {n_questions} analogy questions in {:.2} s", now() - started));
        let report = evaluator.report();
        if json {
            json_out.push(("analogies".into(), analogy_json(&file, &report, ignore_case)));
        } else {
            println!(
                "analogies: {file}, {n_questions} questions in {n_sections} section{}; candidates: the {} \
                 most frequent of {} words{}",
                if n_sections == 1 { "" } else { "s" },
                report.n_candidates,
                embeddings.len(),
                if ignore_case { ", ignoring case" } else { "" }
            );
            print_analogy_report(&report);
        }
    }
    if let Some((file, set)) = similarity {
        let d = if gensim { SimilarityOptions::gensim() } else { SimilarityOptions::default() };
        let options = SimilarityOptions {
            restrict: restrict_or(d.restrict),
            ignore_case,
            worst: worst.unwrap_or(d.worst),
        };
        let report = embed::evaluate_similarity(&embeddings, &set, options).map_err(|e| e.to_string())?;
        if json {
            json_out.push(("similarity".into(), similarity_json(&file, &set, &report, ignore_case)));
        } else {
            if both {
                println!();
            }
            let column = match set.score_name() {
                Some(name) => format!("'{name}', column {}", set.score_column()),
                None => format!("column {}", set.score_column()),
            };
            println!(
                "similarity: {file}, {} pairs (score in {column}); found {} of {} pairs{}, OOV ratio {:.1} %",
                report.pairs,
                report.found,
                report.pairs,
                if ignore_case { " ignoring case" } else { "" },
                report.oov_ratio() * 100.0
            );
            print_similarity_report(&report);
        }
    }
    if json {
        println!("{}", Value::Object(json_out).to_json());
    }
    Ok(())
}

/// The words `project` maps when `--words` is not given (or all, when fewer).
const DEFAULT_PROJECT_WORDS: usize = 5000;

/// A map's method and its parameters.
enum Projection {
    Pca,
    Tsne(TsneParams),
    Umap(UmapParams),
}

fn project(mut args: Args) -> Result<(), String> {
    let path = args.positional("VECTORS")?;
    let out = args.take("--out").flatten().ok_or("project needs --out FILE")?;
    let n_words: Option<usize> = args.optional("--words")?;
    let method_name = args.text("--method", "tsne");
    let method = match method_name.as_str() {
        "pca" => Projection::Pca,
        "tsne" => {
            let d = TsneParams::default();
            let learning_rate = match args.take("--learning-rate").flatten() {
                None => None,
                Some(text) if text == "auto" => None,
                Some(text) => Some(
                    text.parse()
                        .map_err(|_| format!("--learning-rate '{text}' is not 'auto' or a valid number"))?,
                ),
            };
            Projection::Tsne(TsneParams {
                perplexity: args.value("--perplexity", d.perplexity)?,
                learning_rate,
                iterations: args.value("--iterations", d.iterations)?,
                early_exaggeration: args.value("--exaggeration", d.early_exaggeration)?,
                seed: args.value("--seed", d.seed)?,
            })
        }
        "umap" => {
            let d = UmapParams::default();
            Projection::Umap(UmapParams {
                n_neighbours: args.value("--neighbors", d.n_neighbours)?,
                min_dist: args.value("--min-dist", d.min_dist)?,
                epochs: args.optional("--epochs")?,
                learning_rate: args.value("--learning-rate", d.learning_rate)?,
                seed: args.value("--seed", d.seed)?,
            })
        }
        other => return Err(format!("--method '{other}' is not tsne, umap or pca")),
    };
    // Options of another method would be silently ignored; say so instead.
    let belongs = [
        ("--perplexity", "tsne"),
        ("--iterations", "tsne"),
        ("--exaggeration", "tsne"),
        ("--neighbors", "umap"),
        ("--min-dist", "umap"),
        ("--epochs", "umap"),
        ("--learning-rate", "tsne or umap"),
        ("--seed", "tsne or umap"),
    ];
    for (option, methods) in belongs {
        if args.switch(option) {
            return Err(format!("{option} only applies to --method {methods}"));
        }
    }
    let metadata = args.take("--metadata").flatten();
    let quiet = args.switch("--quiet");
    args.finish()?;
    // Check parameters before reading a large file.
    match &method {
        Projection::Pca => Ok(()),
        Projection::Tsne(params) => params.validate(),
        Projection::Umap(params) => params.validate(),
    }
    .map_err(|e| e.to_string())?;

    let embeddings = load_vectors(&path, metadata.as_deref())?;
    let n = n_words.unwrap_or(DEFAULT_PROJECT_WORDS.min(embeddings.len()));
    let started = now();
    let mut bar = ProgressBar::new(quiet);
    let (coords, summary) = match method {
        Projection::Pca => (pca_map(&embeddings, n)?, "PCA".to_string()),
        Projection::Tsne(params) => {
            let layout = Tsne::new(&embeddings, n, params).map_err(|e| e.to_string())?;
            run_layout(layout, "t-SNE", "iterations", now() - started, &mut bar)
        }
        Projection::Umap(params) => {
            let layout = Umap::new(&embeddings, n, params).map_err(|e| e.to_string())?;
            run_layout(layout, "UMAP", "epochs", now() - started, &mut bar)
        }
    };
    let seconds = now() - started;
    let words = embeddings.words()[..n].to_vec();
    let written = if out.to_ascii_lowercase().ends_with(".tsv") {
        let map = Embeddings::new(words, 2, coords).map_err(|e| e.to_string())?;
        let metadata = metadata_path_for(&out);
        let create = |p: &Path| {
            File::create(p).map(BufWriter::new).map_err(|e| format!("cannot create {}: {e}", p.display()))
        };
        embed::write_projector_tsv(&map, create(Path::new(&out))?, create(&metadata)?)
            .map(|()| format!("{out} and {}", metadata.display()))
    } else {
        let file = File::create(&out).map(BufWriter::new).map_err(|e| format!("cannot create {out}: {e}"))?;
        write_map_csv(&words, &coords, file).map(|()| out.clone()).map_err(embedscope::Error::from)
    };
    let written = written.map_err(|e| format!("cannot write {out}: {e}"))?;
    bar.line(&format!("{summary} of {n} words in {seconds:.2} s; wrote {written}"));
    Ok(())
}

/// The first two principal coordinates of the `n` most frequent words; vectors of one
/// dimension have one axis, so they lie on y = 0.
fn pca_map(embeddings: &Embeddings, n: usize) -> Result<Vec<f32>, String> {
    if n > embeddings.len() {
        return Err(format!("--words {n} is more than the {} words of the vectors", embeddings.len()));
    }
    let components = embeddings.dim().min(2);
    let pca = Pca::fit(embeddings, Some(n), components).map_err(|e| e.to_string())?;
    let coords = pca.project_words(embeddings, n);
    Ok(if components == 2 { coords } else { coords.iter().flat_map(|&x| [x, 0.0]).collect() })
}

/// Steps `layout` to the end in slices, drawing `bar`; returns its coordinates and a summary
/// naming the time it took to build (`built` seconds: the neighbours and affinities).
fn run_layout(
    mut layout: impl Layout,
    name: &str,
    unit: &str,
    built: f64,
    bar: &mut ProgressBar,
) -> (Vec<f32>, String) {
    loop {
        let p = layout.step(10);
        let text = format!("{name} {} {}/{} {unit}", gauge(p.fraction()), p.iteration, p.iterations);
        bar.draw_text(p.is_done(), &text);
        if p.is_done() {
            let summary = format!("{name} ({} {unit}; neighbours and affinities {built:.2} s)", p.iterations);
            return (layout.coords().to_vec(), summary);
        }
    }
}

/// Writes `word,x,y` rows under a header, fields quoted as RFC 4180 asks.
fn write_map_csv(words: &[String], coords: &[f32], mut out: impl Write) -> std::io::Result<()> {
    writeln!(out, "word,x,y")?;
    for (word, p) in words.iter().zip(coords.chunks_exact(2)) {
        writeln!(out, "{},{},{}", csv_field(word), p[0], p[1])?;
    }
    out.flush()
}

/// A CSV field: quoted, with quotes doubled, when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text.into()
    }
}

/// One section's figures as JSON; accuracies and coverage are null when nothing is covered.
fn section_json(score: &SectionScore) -> Value {
    let ratio = |r: Option<f64>| r.map_or(Value::Null, Value::from);
    Value::Object(vec![
        ("name".into(), score.name.as_str().into()),
        ("questions".into(), score.questions.into()),
        ("covered".into(), score.covered.into()),
        ("skipped".into(), score.skipped().into()),
        ("coverage".into(), ratio(score.coverage())),
        ("correctCosAdd".into(), score.correct_cos_add.into()),
        ("correctCosMul".into(), score.correct_cos_mul.into()),
        ("accuracyCosAdd".into(), ratio(score.accuracy(AnalogyMethod::CosAdd))),
        ("accuracyCosMul".into(), ratio(score.accuracy(AnalogyMethod::CosMul))),
    ])
}

/// The analogy report as JSON, with the same figures the text output prints.
fn analogy_json(file: &str, report: &AnalogyReport, ignore_case: bool) -> Value {
    let worst = report.worst.iter().map(|q| {
        Value::Object(vec![
            ("words".into(), Value::Array(q.words.iter().map(|w| w.as_str().into()).collect())),
            ("answer".into(), q.answer.as_deref().map_or(Value::Null, Value::from)),
            ("rank".into(), q.rank.into()),
            ("section".into(), report.sections[q.section].name.as_str().into()),
            ("line".into(), q.line.into()),
        ])
    });
    Value::Object(vec![
        ("file".into(), file.into()),
        ("candidates".into(), report.n_candidates.into()),
        ("ignoreCase".into(), ignore_case.into()),
        ("overall".into(), section_json(&report.overall)),
        ("sections".into(), Value::Array(report.sections.iter().map(section_json).collect())),
        ("worst".into(), Value::Array(worst.collect())),
    ])
}

/// The similarity report as JSON; correlations are null where they are not defined.
fn similarity_json(file: &str, set: &SimilaritySet, report: &SimilarityReport, ignore_case: bool) -> Value {
    let figure = |r: Option<f64>| r.map_or(Value::Null, Value::from);
    let worst = report.worst.iter().map(|p| {
        Value::Object(vec![
            ("words".into(), Value::Array(p.words.iter().map(|w| w.as_str().into()).collect())),
            ("human".into(), p.human.into()),
            ("cosine".into(), p.cosine.into()),
            ("humanRank".into(), p.human_rank.into()),
            ("modelRank".into(), p.model_rank.into()),
            ("line".into(), p.line.into()),
        ])
    });
    Value::Object(vec![
        ("file".into(), file.into()),
        ("scoreColumn".into(), set.score_column().into()),
        ("ignoreCase".into(), ignore_case.into()),
        ("pairs".into(), report.pairs.into()),
        ("found".into(), report.found.into()),
        ("oovRatio".into(), report.oov_ratio().into()),
        ("spearman".into(), figure(report.spearman)),
        ("pearson".into(), figure(report.pearson)),
        ("worst".into(), Value::Array(worst.collect())),
    ])
}

/// Reads and parses a benchmark file; errors name the file.
fn read_benchmark<T>(path: &str, parse: fn(&str) -> embedscope::Result<T>) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    parse(&text).map_err(|e| format!("{path}: {e}"))
}

/// `correct/covered` as a percentage, or "n/a" when nothing is covered.
fn accuracy_cell(score: &SectionScore, method: AnalogyMethod) -> String {
    match score.accuracy(method) {
        Some(accuracy) => format!("{:5.1} % ({}/{})", accuracy * 100.0, score.correct(method), score.covered),
        None => "  n/a".into(),
    }
}

fn print_analogy_report(report: &AnalogyReport) {
    let width =
        report.sections.iter().map(|s| s.name.chars().count()).max().unwrap_or(0).max("section".len());
    println!("{:width$}  questions  covered  skipped  {:20}  3CosMul", "section", "3CosAdd");
    for score in report.sections.iter().chain([&report.overall]) {
        println!(
            "{:width$}  {:>9}  {:>7}  {:>7}  {:20}  {}",
            score.name,
            score.questions,
            score.covered,
            score.skipped(),
            accuracy_cell(score, AnalogyMethod::CosAdd),
            accuracy_cell(score, AnalogyMethod::CosMul)
        );
    }
    let overall = &report.overall;
    println!(
        "coverage {:.1} % ({} of {} questions have all four words among the candidates; {} skipped)",
        overall.coverage().unwrap_or(0.0) * 100.0,
        overall.covered,
        overall.questions,
        overall.skipped()
    );
    if report.worst.is_empty() {
        println!("3CosAdd answers every covered question correctly");
        return;
    }
    println!("worst-answered questions by 3CosAdd (rank of the expected word; 1 would be correct):");
    for question in &report.worst {
        let [a, b, c, d] = &question.words;
        let answer = question.answer.as_deref().map_or("nothing".into(), embed::escape_token);
        println!(
            "  rank {:<6} {a} : {b} :: {c} : {d}   answered {answer}   ({}, line {})",
            question.rank, report.sections[question.section].name, question.line
        );
    }
}

fn print_similarity_report(report: &SimilarityReport) {
    let figure = |value: Option<f64>| value.map_or("n/a".into(), |v| format!("{v:.4}"));
    println!("Spearman {}   Pearson {}", figure(report.spearman), figure(report.pearson));
    if report.worst.is_empty() {
        return;
    }
    println!("largest rank disagreements (rank 1 = most similar of the {} found pairs):", report.found);
    for pair in &report.worst {
        let [a, b] = &pair.words;
        println!(
            "  {a} {b}   human {} (rank {})   cosine {:.4} (rank {})   line {}",
            pair.human, pair.human_rank, pair.cosine, pair.model_rank, pair.line
        );
    }
}
