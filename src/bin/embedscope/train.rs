//! `embedscope train`: a corpus read, tokenized (BPE learned first when asked) and trained.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use embedscope::embed::{self, VectorFormat};
use embedscope::fingerprint;
use embedscope::json::{self, Value};
use embedscope::text::{
    BpeConfig, BpeLearner, BpeMode, BpeTokenizer, Corpus, Tokenizer, VocabConfig, WhitespaceTokenizer,
    WordTokenizer, decode_text,
};
use embedscope::train::{TrainConfig, Trainer};

use crate::args::Args;
use crate::now;
use crate::progress::*;
use crate::vectors::*;

pub(crate) fn train(mut args: Args) -> Result<(), String> {
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
        ("alpha".into(), json::number_f32(config.alpha)),
        ("minAlpha".into(), json::number_f32(config.min_alpha)),
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
        bundle.params = Some(json::object(params));
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
pub(crate) fn peak_memory_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// The tokenizer asked for: ready to use, or BPE merges to learn from the corpus first.
pub(crate) enum TokenizerChoice {
    Ready(Box<dyn Tokenizer>),
    Bpe(BpeConfig),
}

/// Learns BPE merges from `text`, showing progress, and reports how long it took.
pub(crate) fn learn_bpe(text: &str, config: &BpeConfig, quiet: bool) -> Result<BpeTokenizer, String> {
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
