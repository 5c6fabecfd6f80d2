//! `embedscope train`: a corpus read, tokenized (BPE learned first when asked) and trained.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use embedscope::fingerprint;
use embedscope::io;
use embedscope::io::VectorFormat;
use embedscope::params::{RunParams, TokenizerSpec};
use embedscope::text::{BpeConfig, BpeLearner, BpeTokenizer, Corpus, Markup, decode_text};
use embedscope::train::{TrainConfig, Trainer};
use embedscope::vectors::Embeddings;

use crate::args::{Args, Command, optional, switch};
use crate::now;
use crate::progress::*;
use crate::run_params;
use crate::vectors::*;

/// `train`'s options: the run's parameters (`run_params`), between where the vectors go and
/// how the corpus is read.
pub(crate) fn command() -> Command {
    let mut options = vec![
        optional("--out", "VECTORS", "the file to write"),
        optional("--format", "text|binary|glove|tsv|bundle", "its format (default: from its name)"),
    ];
    options.extend(run_params::options());
    options.extend([
        switch(
            "--strip-markup",
            "an XML or HTML corpus: keep only its text (a Wikipedia dump: its articles)",
        ),
        switch("--quiet", "no progress bar"),
    ]);
    Command {
        name: "train",
        synopsis: "CORPUS --out VECTORS",
        required: &["--out"],
        options,
        about: format!(
            "train learns skip-gram vectors, or with --cbow continuous bag of words (the mean of a
window predicts its centre; --alpha then defaults to {cbow_alpha}, as in word2vec.c). --threads N
trains on N threads at once (default: this machine's cores), lock-free as word2vec.c and
gensim do; only --threads 1 gives bit-identical vectors for the same text, parameters and
seed, and the output says which a run was. --shared-noise draws a window's noise words once
for all its pairs instead of once a pair (Ji et al. 2016): faster, at the same quality on
the benchmark (docs/benchmarks.md).

train writes word2vec text, or with --format (by default from the name: .bin binary,
.tsv a vectors.tsv plus its metadata.tsv, .json a bundle) binary, GloVe, Projector TSV or an
embedscope bundle, which also holds the counts, parameters, losses and fingerprint and opens
in the explorer as it was.

--tokenizer bpe learns byte-pair merges from CORPUS up to --vocab-size tokens; with
--bpe-mode cross (default) tokens may span words within a line, with within they stay
inside a word and the whitespace after it.

A CORPUS that is XML or HTML (a Wikipedia dump, a saved web page) is trained as it is, with a
warning: its tag names would be words. --strip-markup keeps only its text: a Wikipedia dump's
articles (their wiki markup simplified), a page's text without scripts and styles, entities
decoded. A corpus too small for its vectors to mean anything (under {min_tokens} tokens an epoch or
{min_vocab} words) trains with a warning that says so.",
            cbow_alpha = TrainConfig::cbow_default().alpha,
            min_tokens = embedscope::text::MIN_TRAINING_TOKENS,
            min_vocab = embedscope::text::MIN_VOCAB_SIZE,
        ),
    }
}

/// What `train` was asked: the corpus, the run, and where its vectors go.
struct Request {
    corpus_path: String,
    out: String,
    /// `None`: an embedscope bundle, which holds the counts and parameters too.
    format: Option<VectorFormat>,
    run: RunParams,
    strip_markup: bool,
    quiet: bool,
}

impl Request {
    fn read(mut args: Args) -> Result<Request, String> {
        let corpus_path = args.positional("CORPUS")?;
        let out = args.take("--out").flatten().ok_or("train needs --out VECTORS")?;
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
        let run = run_params::read(&mut args)?;
        let strip_markup = args.switch("--strip-markup");
        let quiet = args.switch("--quiet");
        args.finish()?;
        Ok(Request { corpus_path, out, format, run, strip_markup, quiet })
    }
}

/// A run trained: its trainer, done, and its fingerprint.
struct Trained {
    trainer: Trainer,
    run_id: String,
}

pub(crate) fn train(args: Args) -> Result<(), String> {
    let request = Request::read(args)?;
    // Check parameters before reading a large file.
    request.run.train.validate().map_err(|e| e.to_string())?;
    request.run.vocab.validate().map_err(|e| e.to_string())?;
    let (text, n_bytes) = read_corpus(&request.corpus_path, request.strip_markup)?;
    let trained = train_on(&text, n_bytes, &request)?;
    drop(text);
    write(&request, trained)
}

/// The corpus's text, decoded, and with `strip_markup` only the text of its markup; and the
/// bytes it was read from.
fn read_corpus(corpus_path: &str, strip_markup: bool) -> Result<(String, usize), String> {
    let bytes = crate::input::read_all(corpus_path)?;
    let n_bytes = bytes.len();
    let decoded = decode_text(bytes).map_err(|e| format!("{corpus_path}: {e}"))?;
    if let Some(note) = decoded.note() {
        eprintln!("warning: {corpus_path}: {note}");
    }
    let name = file_name(corpus_path);
    let text = match (Markup::detect(&decoded.text), strip_markup) {
        (Some(markup), true) => {
            let text = markup.strip(&decoded.text);
            eprintln!(
                "{name}: only the text of its {} is kept ({} of {} bytes)",
                markup.kind.name(),
                text.len(),
                decoded.text.len()
            );
            text
        }
        (Some(markup), false) => {
            eprintln!("warning: {name}: {}; --strip-markup keeps only its text", markup.describe());
            decoded.text
        }
        (None, true) => {
            eprintln!("warning: --strip-markup: {name} is not XML or HTML: trained as it is");
            decoded.text
        }
        (None, false) => decoded.text,
    };
    Ok((text, n_bytes))
}

fn file_name(path: &str) -> String {
    Path::new(path).file_name().map_or(path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// Tokenizes `text` (learning BPE first when asked), builds its vocabulary and trains on it,
/// showing progress.
fn train_on(text: &str, n_bytes: usize, request: &Request) -> Result<Trained, String> {
    let RunParams { tokenizer, vocab: vocab_config, train: config } = request.run;
    let tokenizer = match tokenizer {
        TokenizerSpec::Bpe(config) => Box::new(learn_bpe(text, &config, request.quiet)?),
        ready => ready.ready().expect("only BPE is learned first"),
    };
    let started = now();
    let corpus = Corpus::build(text, tokenizer.as_ref(), &vocab_config).map_err(|e| e.to_string())?;
    let cut = corpus.cut();
    eprintln!(
        "{}: {} bytes, {} sentences, {} tokens; vocabulary {} words \
         (cut {} of {} types and {} tokens: {} below min_count {}, {} over max_vocab) in {:.2} s",
        request.corpus_path,
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
    if let Some(verdict) = corpus.too_small() {
        eprintln!("warning: {}: {verdict}", file_name(&request.corpus_path));
    }
    let run_id = fingerprint(text, &tokenizer.describe(), &vocab_config, &config);
    let mut trainer = Trainer::new(corpus, config, now).map_err(|e| e.to_string())?;
    let bar = Bar::new(request.quiet, "epoch");
    let mut reported_epochs = 0;
    // Threads wait for each other at the end of a step, and hand over their copies of the
    // frequent rows, so each gets 500,000 tokens a step (about 0.4 s): with 50,000, 2
    // threads took 1.82 to 2.4 s on the KJV against 1.67 to 2.2 s.
    let step_tokens = 500_000 * config.threads as u64;
    while !trainer.is_done() {
        let progress = trainer.step(step_tokens).map_err(|e| e.to_string())?;
        bar.training(&progress);
        for (epoch, loss) in trainer.epoch_losses().iter().enumerate().skip(reported_epochs) {
            bar.line(&format!("epoch {}/{}  loss {loss:.4}", epoch + 1, config.epochs));
            reported_epochs = epoch + 1;
        }
    }
    bar.finish();
    report(&trainer, &config, &run_id);
    Ok(Trained { trainer, run_id })
}

/// How fast the run went and whether it repeats.
fn report(trainer: &Trainer, config: &TrainConfig, run_id: &str) {
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
}

/// Writes the trained vectors where `request` asked, in its format.
fn write(request: &Request, trained: Trained) -> Result<(), String> {
    let Trained { trainer, run_id } = trained;
    let embeddings = trainer.to_embeddings().map_err(|e| e.to_string())?;
    if let Some(mb) = peak_memory_mb() {
        eprintln!("peak memory {mb:.0} MB");
    }
    let out = &request.out;
    let writer = create(out)?;
    let Some(format) = request.format else {
        let mut bundle = io::Bundle::new(embeddings);
        bundle.counts = Some(trainer.corpus().vocab().counts().to_vec());
        // The page's names for the parameters, so the explorer fills its form from a bundle.
        bundle.params = Some(request.run.to_json());
        bundle.fingerprint = Some(run_id);
        bundle.epoch_losses = trainer.epoch_losses().to_vec();
        bundle.source =
            Path::new(&request.corpus_path).file_name().map(|name| name.to_string_lossy().into_owned());
        io::write_bundle(&bundle, writer).map_err(|e| format!("cannot write {out}: {e}"))?;
        eprintln!(
            "wrote {} vectors of dimension {} with their counts, parameters and losses to {out} (bundle)",
            bundle.embeddings.len(),
            bundle.embeddings.dim()
        );
        return Ok(());
    };
    let also = write_vectors(&embeddings, format, out, writer)?;
    eprintln!(
        "wrote {} vectors of dimension {} to {out}{also} ({format})",
        embeddings.len(),
        embeddings.dim()
    );
    Ok(())
}

fn create(path: &str) -> Result<BufWriter<File>, String> {
    File::create(path).map(BufWriter::new).map_err(|e| format!("cannot create {path}: {e}"))
}

/// Writes `embeddings` to `writer` in `format`; returns what else was written (a
/// vectors.tsv's metadata), as the report says it.
fn write_vectors(
    embeddings: &Embeddings,
    format: VectorFormat,
    out: &str,
    writer: BufWriter<File>,
) -> Result<String, String> {
    let mut also = String::new();
    let written = match format {
        VectorFormat::Word2VecText => io::write_word2vec_text(embeddings, writer),
        VectorFormat::Word2VecBinary => io::write_word2vec_binary(embeddings, writer),
        VectorFormat::Glove => io::write_glove(embeddings, writer),
        VectorFormat::ProjectorTsv => {
            let metadata = metadata_path_for(out);
            let metadata = metadata.to_string_lossy();
            also = format!(", words to {metadata}");
            io::write_projector_tsv(embeddings, writer, create(&metadata)?)
        }
    };
    written.map_err(|e| format!("cannot write {out}: {e}"))?;
    Ok(also)
}

/// The most memory this process has held (its peak resident set), where Linux tells it.
pub(crate) fn peak_memory_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Learns BPE merges from `text`, showing progress, and reports how long it took.
pub(crate) fn learn_bpe(text: &str, config: &BpeConfig, quiet: bool) -> Result<BpeTokenizer, String> {
    let started = now();
    let mut learner = BpeLearner::new(text, config).map_err(|e| e.to_string())?;
    let prepared = now() - started;
    let bar = Bar::new(quiet, "BPE merges");
    let progress = loop {
        let p = learner.step(200);
        bar.set(
            (p.fraction() * 1000.0) as u64,
            1000,
            format!(
                "vocabulary {}/{}  last pair seen {} times",
                p.vocab_size, p.target_vocab_size, p.last_pair_count
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
