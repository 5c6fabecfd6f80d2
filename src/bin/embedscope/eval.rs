//! `embedscope eval`: analogy and similarity benchmarks, as text or JSON.

use embedscope::eval;
use embedscope::eval::{
    AnalogyEvaluator, AnalogyOptions, AnalogyReport, AnalogySet, SectionScore, SimilarityOptions,
    SimilarityReport, SimilaritySet,
};
use embedscope::io;
use embedscope::io::json::{self, Value};
use embedscope::vectors::{AnalogyMethod, Embeddings};

use crate::args::{Args, Command, optional, switch};
use crate::now;
use crate::progress::*;
use crate::vectors::*;

/// `eval`'s options, with the benchmarks' defaults.
pub(crate) fn command() -> Command {
    let (a, s) = (AnalogyOptions::default(), SimilarityOptions::default());
    let analogy_restrict = a.restrict.map_or("all".to_string(), |n| n.to_string());
    Command {
        name: "eval",
        synopsis: "VECTORS",
        required: &[],
        options: vec![
            optional("--analogies", "FILE", "analogy questions, in the questions-words.txt format"),
            optional("--similarity", "FILE", "word pairs with a score (WordSim-353, SimLex-999)"),
            optional("--restrict", "N", "only the N most frequent words count; 0: all"),
            switch("--ignore-case", "match words case-insensitively"),
            switch(
                "--gensim",
                &format!("gensim's defaults: ignore case, the {} most frequent words", eval::GENSIM_RESTRICT),
            ),
            optional("-k", "N", "the worst-answered questions and pairs to list"),
            optional("--worst", "N", "the same as -k"),
            switch("--json", "the figures as one JSON object on stdout"),
        ]
        .into_iter()
        .chain(Sources::options())
        .collect(),
        about: format!(
            "eval scores VECTORS on benchmarks (give one or both): --analogies FILE in the
questions-words.txt format (': section' lines, then 'a b c d' per line), answered by 3CosAdd
and 3CosMul; --similarity FILE of 'word1 word2 score' lines (WordSim-353, SimLex-999; a
header line names the score column), scored by Spearman's and Pearson's correlation. In
both, lines starting with '#' are comments, as in gensim's copies of these benchmarks.
Only the --restrict N most frequent words count (default: {analogy_restrict} for analogies, as word2vec's
compute-accuracy, and the whole vocabulary for similarity; 0 means the whole vocabulary);
--ignore-case matches words case-insensitively. Questions and pairs with a word outside
them are left out, and counted in the coverage and the OOV ratio. --gensim takes the
defaults of gensim's evaluate_word_analogies and evaluate_word_pairs instead: ignoring case,
the {gensim} most frequent words for both (an explicit --restrict still applies).
-k/--worst N lists the N worst-answered questions (default {}) and pairs (default {}).",
            a.worst,
            s.worst,
            gensim = eval::GENSIM_RESTRICT,
        ),
    }
}

pub(crate) fn eval(mut args: Args) -> Result<(), String> {
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
    let sources = Sources::take(&mut args);
    args.finish()?;
    if analogies_path.is_none() && similarity_path.is_none() {
        return Err("eval needs --analogies FILE or --similarity FILE (or both)".into());
    }
    // Benchmarks are small: read them first, so a malformed one fails before a large vectors file loads.
    let analogies =
        analogies_path.map(|p| read_benchmark(&p, AnalogySet::parse).map(|set| (p, set))).transpose()?;
    let similarity =
        similarity_path.map(|p| read_benchmark(&p, SimilaritySet::parse).map(|set| (p, set))).transpose()?;
    let embeddings = load_vectors(&path, &sources)?;
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
        let report = evaluate_analogies(&embeddings, set, options)?;
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
            print_built(report.built_from_ngrams);
        }
    }
    if let Some((file, set)) = similarity {
        let d = if gensim { SimilarityOptions::gensim() } else { SimilarityOptions::default() };
        let options = SimilarityOptions {
            restrict: restrict_or(d.restrict),
            ignore_case,
            worst: worst.unwrap_or(d.worst),
        };
        let report = eval::evaluate_similarity(&embeddings, &set, options).map_err(|e| e.to_string())?;
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
            print_built(report.built_from_ngrams);
        }
    }
    if json {
        println!("{}", json::to_json(&json::object(json_out)));
    }
    Ok(())
}

/// Answers the analogy questions of `set`, a slice at a time, with a progress bar.
fn evaluate_analogies(
    embeddings: &Embeddings,
    set: AnalogySet,
    options: AnalogyOptions,
) -> Result<AnalogyReport, String> {
    let n_questions = set.n_questions();
    let started = now();
    let mut evaluator = AnalogyEvaluator::new(embeddings, set, options).map_err(|e| e.to_string())?;
    let bar = Bar::new(false, "analogies");
    loop {
        let p = evaluator.step(embeddings, 1_024).map_err(|e| e.to_string())?;
        bar.set(p.done as u64, p.total as u64, format!("{}/{}", p.done, p.total));
        if p.is_done() {
            break;
        }
    }
    bar.line(&format!("evaluated {n_questions} analogy questions in {:.2} s", now() - started));
    bar.finish();
    Ok(evaluator.report())
}

/// One section's figures as JSON; accuracies and coverage are null when nothing is covered.
pub(crate) fn section_json(score: &SectionScore) -> Value {
    let ratio = |r: Option<f64>| r.map_or(Value::Null, Value::from);
    json::object(vec![
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
pub(crate) fn analogy_json(file: &str, report: &AnalogyReport, ignore_case: bool) -> Value {
    let worst = report.worst.iter().map(|q| {
        json::object(vec![
            ("words".into(), Value::Array(q.words.iter().map(|w| w.as_str().into()).collect())),
            ("answer".into(), q.answer.as_deref().map_or(Value::Null, Value::from)),
            ("rank".into(), q.rank.into()),
            ("section".into(), report.sections[q.section].name.as_str().into()),
            ("line".into(), q.line.into()),
        ])
    });
    json::object(vec![
        ("file".into(), file.into()),
        ("candidates".into(), report.n_candidates.into()),
        ("ignoreCase".into(), ignore_case.into()),
        ("overall".into(), section_json(&report.overall)),
        ("sections".into(), Value::Array(report.sections.iter().map(section_json).collect())),
        ("builtFromNgrams".into(), report.built_from_ngrams.into()),
        ("worst".into(), Value::Array(worst.collect())),
    ])
}

/// The similarity report as JSON; correlations are null where they are not defined.
pub(crate) fn similarity_json(
    file: &str,
    set: &SimilaritySet,
    report: &SimilarityReport,
    ignore_case: bool,
) -> Value {
    let figure = |r: Option<f64>| r.map_or(Value::Null, Value::from);
    let worst = report.worst.iter().map(|p| {
        json::object(vec![
            ("words".into(), Value::Array(p.words.iter().map(|w| w.as_str().into()).collect())),
            ("human".into(), p.human.into()),
            ("cosine".into(), json::number_f32(p.cosine)),
            ("humanRank".into(), p.human_rank.into()),
            ("modelRank".into(), p.model_rank.into()),
            ("line".into(), p.line.into()),
        ])
    });
    json::object(vec![
        ("file".into(), file.into()),
        ("scoreColumn".into(), set.score_column().into()),
        ("ignoreCase".into(), ignore_case.into()),
        ("pairs".into(), report.pairs.into()),
        ("found".into(), report.found.into()),
        ("oovRatio".into(), report.oov_ratio().into()),
        ("spearman".into(), figure(report.spearman)),
        ("pearson".into(), figure(report.pearson)),
        ("builtFromNgrams".into(), report.built_from_ngrams.into()),
        ("worst".into(), Value::Array(worst.collect())),
    ])
}

/// Reads and parses a benchmark file; errors name the file.
pub(crate) fn read_benchmark<T>(path: &str, parse: fn(&str) -> embedscope::Result<T>) -> Result<T, String> {
    let text = String::from_utf8(crate::input::read_all(path)?)
        .map_err(|_| format!("{path}: a benchmark file must be UTF-8 text"))?;
    parse(&text).map_err(|e| format!("{path}: {e}"))
}

/// `correct/covered` as a percentage, or "n/a" when nothing is covered.
pub(crate) fn accuracy_cell(score: &SectionScore, method: AnalogyMethod) -> String {
    match score.accuracy(method) {
        Some(accuracy) => format!("{:5.1} % ({}/{})", accuracy * 100.0, score.correct(method), score.covered),
        None => "  n/a".into(),
    }
}

pub(crate) fn print_analogy_report(report: &AnalogyReport) {
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
        let answer = question.answer.as_deref().map_or("nothing".into(), io::escape_token);
        println!(
            "  rank {:<6} {a} : {b} :: {c} : {d}   answered {answer}   ({}, line {})",
            question.rank, report.sections[question.section].name, question.line
        );
    }
}

/// How many of a benchmark's words a fastText model built from their n-grams, when any did.
pub(crate) fn print_built(built_from_ngrams: usize) {
    match built_from_ngrams {
        0 => {}
        1 => println!("1 of the benchmark's words is not in the vocabulary: built from n-grams"),
        n => println!("{n} of the benchmark's words are not in the vocabulary: built from n-grams"),
    }
}

pub(crate) fn print_similarity_report(report: &SimilarityReport) {
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
