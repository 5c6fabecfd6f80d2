//! The command-line tool, run as a user runs it: real files, exit codes, one-line errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn embedscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_embedscope")).args(args).output().expect("the binary runs")
}

/// A fresh directory per test, so tests can run in parallel.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("embedscope-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A small corpus where "red"/"blue" and "cat"/"dog" share their contexts.
fn write_corpus(dir: &Path) -> String {
    let mut text = String::new();
    for i in 0..400 {
        let colour = ["red", "blue"][i % 2];
        let animal = ["cat", "dog"][(i / 2) % 2];
        text.push_str(&format!("the {colour} paint on the wall, and a {animal} barks at night.\n"));
    }
    let path = dir.join("corpus.txt");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// One thread, since only one thread repeats a run bit for bit (the default is every core).
const SMALL: &[&str] =
    &["--dim", "16", "--epochs", "3", "--min-count", "1", "--seed", "7", "--threads", "1", "--quiet"];

#[test]
fn train_then_query_in_both_formats() {
    let dir = scratch_dir("train");
    let corpus = write_corpus(&dir);
    for out in ["vectors.txt", "vectors.bin"] {
        let out = dir.join(out);
        let out = out.to_str().unwrap();
        let trained = embedscope(&[&["train", &corpus, "--out", out], SMALL].concat());
        assert!(trained.status.success(), "{}", stderr(&trained));
        let log = stderr(&trained);
        assert!(log.contains("epoch 3/3  loss"), "{log}");
        assert!(log.contains("tokens/s") && log.contains("fingerprint"), "{log}");
        assert!(log.contains("vocabulary 13 words"), "{log}");

        let near = embedscope(&["neighbours", out, "red", "-k", "3"]);
        assert!(near.status.success(), "{}", stderr(&near));
        let lines: Vec<String> = stdout(&near).lines().map(str::to_string).collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines.iter().all(|l| l.split('\t').count() == 2 && !l.ends_with("\tred")), "{lines:?}");

        let analogy = embedscope(&["analogy", out, "red", "blue", "cat", "-k", "2", "--cosmul"]);
        assert!(analogy.status.success(), "{}", stderr(&analogy));
        assert_eq!(stdout(&analogy).lines().count(), 2);
    }
    let text = std::fs::read_to_string(dir.join("vectors.txt")).unwrap();
    assert!(text.starts_with("13 16\n"), "{}", &text[..20]);
}

#[test]
fn the_same_seed_writes_the_same_file() {
    let dir = scratch_dir("seed");
    let corpus = write_corpus(&dir);
    let run = |name: &str, seed: &str| {
        let out = dir.join(name);
        let out = out.to_str().unwrap();
        let result = embedscope(&[&["train", &corpus, "--out", out], SMALL, &["--seed", seed]].concat());
        assert!(result.status.success(), "{}", stderr(&result));
        std::fs::read(out).unwrap()
    };
    assert_eq!(run("a.txt", "3"), run("b.txt", "3"));
    assert_ne!(run("a.txt", "3"), run("c.txt", "4"));
}

#[test]
fn a_latin_1_corpus_trains_with_a_warning() {
    let dir = scratch_dir("latin1");
    // Latin-1 stores each of these characters in one byte, its code point.
    let text = "le café naïve et l'été du café\n".repeat(20);
    let bytes: Vec<u8> = text.chars().map(|c| c as u32 as u8).collect();
    let corpus = dir.join("latin1.txt");
    std::fs::write(&corpus, bytes).unwrap();
    let out = dir.join("v.txt");
    let trained =
        embedscope(&[&["train", corpus.to_str().unwrap(), "--out", out.to_str().unwrap()], SMALL].concat());
    assert!(trained.status.success(), "{}", stderr(&trained));
    assert!(
        stderr(&trained).contains("latin1.txt: not UTF-8: read as Windows-1252 (Latin-1)"),
        "{}",
        stderr(&trained)
    );
    let near = embedscope(&["neighbours", out.to_str().unwrap(), "café", "-k", "2"]);
    assert!(near.status.success(), "{}", stderr(&near));
}

#[test]
fn errors_are_one_line_and_exit_non_zero() {
    let dir = scratch_dir("errors");
    let corpus = write_corpus(&dir);
    let vectors = dir.join("v.txt");
    let vectors = vectors.to_str().unwrap();
    assert!(embedscope(&[&["train", &corpus, "--out", vectors], SMALL].concat()).status.success());
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, " \n\n").unwrap();
    let empty = empty.to_str().unwrap();
    let missing = dir.join("missing.txt");
    let missing = missing.to_str().unwrap();
    let image = dir.join("picture.txt");
    std::fs::write(&image, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    let image = image.to_str().unwrap();
    let one_word = dir.join("one-word.txt");
    std::fs::write(&one_word, "amen amen\namen\n").unwrap();
    let one_word = one_word.to_str().unwrap();

    let cases: &[(&[&str], &str)] = &[
        (
            &["train", image, "--out", vectors],
            "picture.txt: this file is not text: it looks like a PNG image.",
        ),
        (&["train", one_word, "--out", vectors, "--min-count", "1"], "only one distinct word, 'amen'"),
        (&[], "no command given"),
        (&["fly"], "unknown command 'fly'"),
        (&["train", missing, "--out", vectors], "cannot read"),
        (&["train", &corpus], "train needs --out"),
        (&["train", &corpus, "--out", vectors, "--window", "0"], "invalid window = 0"),
        (&["train", &corpus, "--out", vectors, "--alpha", "NaN"], "invalid alpha"),
        (
            &["train", &corpus, "--out", vectors, "--threads", "0"],
            "invalid threads = 0: expected an integer from 1 to 256",
        ),
        (&["train", &corpus, "--out", vectors, "--threads", "two"], "--threads 'two' is not a valid number"),
        (&["train", &corpus, "--out", vectors, "--dim", "ten"], "--dim 'ten' is not a valid number"),
        // Past its field's type (a u32) is no number of it either.
        (
            &["train", &corpus, "--out", vectors, "--epochs", "5000000000"],
            "--epochs '5000000000' is not a valid number",
        ),
        (&["train", &corpus, "--out", vectors, "--alpha", "fast"], "--alpha 'fast' is not a valid number"),
        (
            &["train", &corpus, "--out", vectors, "--max-vocab", "-1"],
            "--max-vocab '-1' is not a valid number",
        ),
        (&["train", &corpus, "--out", vectors, "--tokenizer", "pieces"], "--tokenizer 'pieces' is not word"),
        (
            &["train", &corpus, "--out", vectors, "--tokenizer", "bpe", "--vocab-size", "3"],
            "invalid vocab_size = 3: expected at least 22,",
        ),
        (
            &["train", &corpus, "--out", vectors, "--tokenizer", "bpe", "--vocab-size", "0"],
            "invalid vocab_size = 0",
        ),
        (
            &["train", &corpus, "--out", vectors, "--tokenizer", "bpe", "--bpe-mode", "diagonal"],
            "invalid bpe_mode = diagonal",
        ),
        (
            &["train", &corpus, "--out", vectors, "--vocab-size", "100"],
            "--vocab-size only applies to --tokenizer bpe",
        ),
        (
            &["train", &corpus, "--out", vectors, "--bpe-mode", "within"],
            "--bpe-mode only applies to --tokenizer bpe",
        ),
        (
            &["train", &corpus, "--out", vectors, "--tokenizer", "whitespace", "--lowercase"],
            "--lowercase only applies to --tokenizer word",
        ),
        (
            &["train", &corpus, "--out", vectors, "--tokenizer", "bpe", "--keep-punctuation"],
            "--keep-punctuation only applies to --tokenizer word",
        ),
        (
            &["train", &corpus, "--out", vectors, "--tokenizer", "chars"],
            "--tokenizer 'chars' is not word, whitespace or bpe",
        ),
        (&["train", empty, "--out", vectors, "--tokenizer", "bpe"], "holds no tokens"),
        (&["neighbours", vectors, "red\\n"], "'red\\n' is not in the vocabulary"),
        (&["train", &corpus, "--out", vectors, "--colour"], "unknown option --colour"),
        (&["train", &corpus, "--out", vectors, "--min-count", "100000"], "try min_count <= "),
        (&["train", empty, "--out", vectors], "holds no tokens"),
        (&["neighbours", vectors, "unicorn"], "'unicorn' is not in the vocabulary"),
        (&["neighbours", vectors, "Red"], "'Red' is not in the vocabulary. Did you mean 'red'?"),
        (
            &["analogy", vectors, "red", "Blue", "dgo"],
            "'Blue' and 'dgo' are not in the vocabulary. For 'Blue', did you mean 'blue'? For 'dgo', did you mean 'dog'?",
        ),
        (&["neighbours", missing, "red"], "cannot open"),
        (&["neighbours", &corpus, "red"], "malformed vectors file, line 1"),
        (&["analogy", vectors, "red", "pony", "unicorn"], "'pony' and 'unicorn' are not in the vocabulary"),
        (&["analogy", vectors, "red", "blue"], "missing C"),
        (&["neighbours", vectors, "red", "-k", "0"], "invalid k"),
        (&["neighbours", vectors, "red", "--restrict", "1", "--cosmul"], "unknown option --cosmul"),
        (&["neighbours", vectors, "red", "-k"], "-k needs a value"),
    ];
    for (args, expected) in cases {
        let err = fails_with(args, expected);
        // With no command at all the usage follows the one-line message.
        if !args.is_empty() {
            assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err:?}");
        }
    }
}

/// Runs the CLI with `args`, checks it fails with `expected` on stderr, and returns stderr.
fn fails_with(args: &[&str], expected: &str) -> String {
    let out = embedscope(args);
    let err = stderr(&out);
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(err.contains(expected), "{args:?}: expected '{expected}' in {err:?}");
    err
}

/// Like [`fails_with`], and the message is one line.
fn fails_with_one_line(args: &[&str], expected: &str) {
    let err = fails_with(args, expected);
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err:?}");
}

/// The vectors file's words, still escaped.
fn escaped_words(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().skip(1).map(|line| line.split(' ').next().unwrap().to_string()).collect()
}

#[test]
fn bpe_tokens_train_and_answer_escaped_queries() {
    let dir = scratch_dir("bpe");
    let corpus = write_corpus(&dir);
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let out = out.to_str().unwrap().to_string();
        let args =
            [&["train", &corpus, "--out", &out, "--tokenizer", "bpe", "--vocab-size", "60"], SMALL, extra];
        let trained = embedscope(&args.concat());
        assert!(trained.status.success(), "{}", stderr(&trained));
        (out, stderr(&trained))
    };

    let (cross, cross_log) = run("cross.txt", &[]);
    assert!(cross_log.contains("BPE merges (cross mode) in"), "{cross_log}");
    assert!(cross_log.contains("vocabulary 60 tokens = 22 characters + 38 merged"), "{cross_log}");
    let words = escaped_words(&cross);
    // Some tokens span words; a query names them escaped.
    let spanning = words.iter().find(|w| w.trim_end_matches("\\s").contains("\\s")).expect("a phrase token");
    let near = embedscope(&["neighbours", &cross, spanning, "-k", "3"]);
    assert!(near.status.success(), "{spanning}: {}", stderr(&near));
    assert_eq!(stdout(&near).lines().count(), 3);

    let (within, log) = run("within.txt", &["--bpe-mode", "within"]);
    assert!(log.contains("BPE merges (within mode) in") && log.contains("0 of them spanning words"), "{log}");
    let words = escaped_words(&within);
    assert!(words.iter().all(|w| !w.trim_end_matches(['\\', 's', 'n']).contains("\\s")), "{words:?}");
    assert!(words.iter().any(|w| w.ends_with("\\n")), "line-final tokens keep their line break: {words:?}");

    // The model is part of the fingerprint, and runs repeat exactly.
    let fingerprint = |log: &str| log.split("fingerprint ").nth(1).unwrap()[..16].to_string();
    let (again, again_log) = run("again.txt", &[]);
    assert_eq!(std::fs::read(&cross).unwrap(), std::fs::read(&again).unwrap());
    assert_eq!(fingerprint(&cross_log), fingerprint(&again_log));
    let (_, other_log) = run("other.txt", &["--vocab-size", "61"]);
    assert_ne!(fingerprint(&cross_log), fingerprint(&other_log));
}

fn write(dir: &Path, name: &str, contents: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn every_format_trains_and_answers_the_same_queries() {
    let dir = scratch_dir("formats");
    let corpus = write_corpus(&dir);
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let cases: &[(&str, &[&str])] = &[
        ("w2v.txt", &[]),
        ("w2v.bin", &[]),
        ("glove.txt", &["--format", "glove"]),
        ("vectors.tsv", &[]),
        ("kjv-vectors.tsv", &[]),
        ("run.json", &[]),
    ];
    let mut answers = Vec::new();
    for (name, format) in cases {
        let out = path(name);
        let trained = embedscope(&[&["train", &corpus, "--out", &out], SMALL, format].concat());
        assert!(trained.status.success(), "{name}: {}", stderr(&trained));
        let near = embedscope(&["neighbours", &out, "red", "-k", "4"]);
        assert!(near.status.success(), "{name}: {}", stderr(&near));
        assert_eq!(stderr(&near), "", "{name}");
        let analogy = embedscope(&["analogy", &out, "red", "blue", "cat", "-k", "2"]);
        assert!(analogy.status.success(), "{name}: {}", stderr(&analogy));
        answers.push((name, stdout(&near) + &stdout(&analogy)));
    }
    for (name, answer) in &answers {
        assert_eq!(answer, &answers[0].1, "{name} answers differently from {}", answers[0].0);
    }
    // The bundle holds the counts, the parameters under the page's names, and the fingerprint.
    let bundle = embedscope::io::read_bundle(&std::fs::read_to_string(path("run.json")).unwrap()).unwrap();
    let counts = bundle.counts.expect("counts");
    assert!(counts.windows(2).all(|w| w[0] >= w[1]) && counts.len() == bundle.embeddings.len());
    let params = bundle.params.expect("params");
    assert_eq!(params.get("dim").and_then(|v| v.as_f64()), Some(16.0));
    assert_eq!(params.get("tokenizer").and_then(|v| v.as_str()), Some("word"));
    assert_eq!(bundle.fingerprint.map(|f| f.len()), Some(16));
    let glove = std::fs::read_to_string(path("glove.txt")).unwrap();
    assert!(!glove.starts_with("13 16\n") && glove.lines().count() == 13, "{}", &glove[..40]);
    let metadata = std::fs::read_to_string(path("metadata.tsv")).unwrap();
    assert_eq!(metadata.lines().count(), 13);
    assert_eq!(std::fs::read_to_string(path("kjv-metadata.tsv")).unwrap(), metadata);

    // --metadata names a metadata file anywhere; without one the words are row numbers.
    std::fs::rename(path("kjv-metadata.tsv"), path("words.tsv")).unwrap();
    let near = embedscope(&[
        "neighbours",
        &path("kjv-vectors.tsv"),
        "red",
        "-k",
        "4",
        "--metadata",
        &path("words.tsv"),
    ]);
    assert!(near.status.success(), "{}", stderr(&near));
    assert_eq!(stdout(&near), answers[0].1.lines().take(4).map(|l| format!("{l}\n")).collect::<String>());
    let row = metadata.lines().position(|w| w == "red").unwrap() + 1;
    let near = embedscope(&["neighbours", &path("kjv-vectors.tsv"), &row.to_string(), "-k", "2"]);
    assert!(near.status.success(), "{}", stderr(&near));
    assert!(stderr(&near).contains("kjv-metadata.tsv next to"), "{}", stderr(&near));
    assert!(
        stdout(&near).lines().all(|l| l.split('\t').nth(1).unwrap().parse::<usize>().is_ok()),
        "{}",
        stdout(&near)
    );
}

#[test]
fn foreign_glove_and_projector_files_are_recognised() {
    let dir = scratch_dir("foreign");
    // GloVe as Stanford writes it: no header, a name that says nothing of the format.
    let glove = write(&dir, "glove.6B.3d.txt", "red 1 0.1 0\nblue 0.9 0.2 0\ncat 0 0.1 1\n\\o/ 0 1 0\n");
    let near = embedscope(&["neighbours", &glove, "red", "-k", "1"]);
    assert!(near.status.success(), "{}", stderr(&near));
    assert!(stdout(&near).ends_with("\tblue\n"), "{}", stdout(&near));
    // Its words are taken literally where they are no valid escape; queries are escaped.
    let near = embedscope(&["neighbours", &glove, "\\\\o/", "-k", "1"]);
    assert!(near.status.success(), "{}", stderr(&near));
    let near = embedscope(&["neighbours", &glove, "cat", "-k", "1"]);
    assert_eq!(stdout(&near).split('\t').nth(1), Some("\\\\o/\n"));
    // A Projector pair with a metadata header and several columns.
    let vectors = write(&dir, "vectors.tsv", "1\t0.1\n0.9\t0.2\n0\t1\n");
    write(&dir, "metadata.tsv", "word\tcount\nred\t10\nblue\t8\ncat\t3\n");
    let near = embedscope(&["neighbours", &vectors, "red", "-k", "1"]);
    assert!(near.status.success(), "{}", stderr(&near));
    assert!(stdout(&near).ends_with("\tblue\n"), "{}", stdout(&near));
}

#[test]
fn a_malformed_vectors_file_is_one_line_naming_file_and_line() {
    let dir = scratch_dir("malformed");
    let mut text = String::from("8 3\n");
    for (i, word) in ["the", "of", "and", "to", "night", "day", "light", "dark"].iter().enumerate() {
        let values = if *word == "day" { "0.5 1" } else { "0.5 1 -2" };
        text.push_str(&format!("{word} {i}{values}\n"));
    }
    let vectors = write(&dir, "vectors.txt", &text);
    let out = embedscope(&["neighbours", &vectors, "night"]);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out),
        format!(
            "embedscope: {vectors}: malformed vectors file, line 7: expected 3 values after 'day', found 2\n"
        )
    );

    // A malformed GloVe file is read as GloVe, so the error is about the bad line.
    let glove = write(&dir, "glove.txt", "the 1 2\nof 3 4\nand 5\n");
    let out = embedscope(&["neighbours", &glove, "the"]);
    assert_eq!(
        stderr(&out),
        format!(
            "embedscope: {glove}: malformed vectors file, line 3: expected 2 values after 'and', found 1\n"
        )
    );

    let tsv = write(&dir, "vectors.tsv", "1\t2\n3\t4\n");
    let words = write(&dir, "words.tsv", "a\nb\na\n");
    let three_words = write(&dir, "three.tsv", "a\nb\nc\n");
    let text_file = write(&dir, "good-glove.txt", "the 1 2\nof 3 4\n");
    // A folder is read as a Parquet table's part files.
    let folder = dir.to_string_lossy().into_owned();
    let cases: &[(&[&str], String)] = &[
        (
            &["neighbours", &tsv, "a", "--metadata", &words],
            format!("{words}: malformed vectors file, line 3: the metadata word 'a' occurs twice"),
        ),
        (
            &["neighbours", &tsv, "a", "--metadata", &three_words],
            format!(
                "{tsv}: malformed vectors file, line 3: the file ends after 2 rows, but the metadata gives 3 words"
            ),
        ),
        (
            &["neighbours", &text_file, "the", "--metadata", &words],
            format!("--metadata only applies to a Projector vectors.tsv, and {text_file} is GloVe"),
        ),
        (
            &["train", &text_file, "--out", &tsv, "--format", "csv"],
            "--format 'csv' is not text, binary, glove, tsv or bundle".to_string(),
        ),
        (
            &["neighbours", &text_file, "the", "--columns", "word,vector"],
            format!("--columns only applies to a Parquet table, and {text_file} is GloVe"),
        ),
        (
            &["neighbours", &folder, "the"],
            format!(
                "{folder} holds no Parquet file: give a Spark model's folder (its data/ holds the part files), a folder of .parquet files, or a .parquet file"
            ),
        ),
    ];
    for (args, expected) in cases {
        fails_with_one_line(args, expected);
    }
}

/// Hand-built vectors on which 3CosAdd and 3CosMul disagree: for a : b :: c : ?, a is
/// orthogonal to every candidate, x is parallel to b, and y leans towards both b and c, so
/// 3CosAdd answers x (1 against 4/√17 ≈ 0.970) and 3CosMul answers y (1.100 against 0.998).
const DISAGREEING_VECTORS: &str = "5 4\na 0 0 1 0\nb 1 0 0 0\nc 0 1 0 0\nx 2 0 0 0\ny 2 2 0 3\n";

const ANALOGIES: &str = ": add-wins\na b c x\n\n: mul-wins\na b c y\na b c unicorn\n";

/// Cosines b·x 1, b·y = x·y = 2/√17 (a tie), a·b 0; unicorn is unknown. Spearman of the
/// human ranks (1, 3, 2, 4) and the model's (1, 2.5, 2.5, 4) is 4.5/√22.5 ≈ 0.9487; Pearson of
/// the scores and cosines is 0.9864 (worked out in Python).
const PAIRS: &str = "b x 9\nb y 5\nx y 6\na b 1\nb unicorn 2\n";

#[test]
fn eval_prints_accuracy_by_both_methods_and_correlations() {
    let dir = scratch_dir("eval");
    let vectors = write(&dir, "v.txt", DISAGREEING_VECTORS);
    let analogies = write(&dir, "questions.txt", ANALOGIES);
    let pairs = write(&dir, "pairs.txt", PAIRS);

    let out = embedscope(&["eval", &vectors, "--analogies", &analogies, "--similarity", &pairs]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // Columns: questions, covered, skipped, 3CosAdd, 3CosMul.
    assert_eq!(row(&text, "add-wins"), "add-wins 1 1 0 100.0 % (1/1) 0.0 % (0/1)");
    assert_eq!(row(&text, "mul-wins"), "mul-wins 2 1 1 0.0 % (0/1) 100.0 % (1/1)");
    assert_eq!(row(&text, "overall"), "overall 3 2 1 50.0 % (1/2) 50.0 % (1/2)");
    assert!(text.contains("coverage 66.7 % (2 of 3 questions"), "{text}");
    assert!(text.contains("rank 2      a : b :: c : y   answered x   (mul-wins, line 5)"), "{text}");
    assert!(text.contains("5 pairs (score in column 3); found 4 of 5 pairs, OOV ratio 20.0 %"), "{text}");
    assert!(text.contains("Spearman 0.9487   Pearson 0.9864"), "{text}");

    // Restricted to the 4 most frequent words, y is no candidate: one question is covered,
    // and x, the only candidate, is right by both methods.
    let out = embedscope(&["eval", &vectors, "--analogies", &analogies, "--restrict", "4", "-k", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("candidates: the 4 most frequent of 5 words"), "{text}");
    assert_eq!(row(&text, "overall"), "overall 3 1 2 100.0 % (1/1) 100.0 % (1/1)");
    assert!(text.contains("3CosAdd answers every covered question correctly"), "{text}");
    assert!(!text.contains("similarity"), "{text}");

    // Upper-case words are found only when ignoring case.
    let upper = write(&dir, "upper.txt", &ANALOGIES.replace("a b c x", "A B C X"));
    let out = embedscope(&["eval", &vectors, "--analogies", &upper, "--ignore-case"]);
    assert_eq!(row(&stdout(&out), "add-wins"), "add-wins 1 1 0 100.0 % (1/1) 0.0 % (0/1)");
    let out = embedscope(&["eval", &vectors, "--analogies", &upper]);
    assert_eq!(row(&stdout(&out), "add-wins"), "add-wins 1 0 1 n/a n/a");
}

#[test]
fn eval_json_holds_the_same_figures_and_parses() {
    use embedscope::io::json::{self, Value};
    let dir = scratch_dir("eval-json");
    let vectors = write(&dir, "v.txt", DISAGREEING_VECTORS);
    let analogies = write(&dir, "questions.txt", ANALOGIES);
    let pairs = write(&dir, "pairs.txt", PAIRS);
    let out = embedscope(&["eval", &vectors, "--analogies", &analogies, "--similarity", &pairs, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.trim_end().lines().count(), 1, "one JSON document: {text}");
    let doc = json::parse(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let number = |v: Option<&Value>| v.and_then(Value::as_f64);
    let overall = doc.get("analogies").and_then(|a| a.get("overall")).expect("analogies.overall");
    assert_eq!(number(overall.get("questions")), Some(3.0));
    assert_eq!(number(overall.get("covered")), Some(2.0));
    assert_eq!(number(overall.get("correctCosAdd")), Some(1.0));
    assert_eq!(number(overall.get("accuracyCosMul")), Some(0.5));
    let sections = doc.get("analogies").and_then(|a| a.get("sections")).and_then(Value::as_array).unwrap();
    assert_eq!(
        sections.iter().filter_map(|s| s.get("name")?.as_str()).collect::<Vec<_>>(),
        ["add-wins", "mul-wins"]
    );
    let similarity = doc.get("similarity").expect("similarity");
    assert_eq!(number(similarity.get("found")), Some(4.0));
    assert!((number(similarity.get("spearman")).unwrap() - 0.9487).abs() < 1e-4);
    assert!((number(similarity.get("oovRatio")).unwrap() - 0.2).abs() < 1e-12);
}

/// `PAIRS` as gensim ships WordSim-353 (gensim/test/test_data/wordsim353.tsv): two comment
/// lines, the second looking like a header, then tab-separated pairs.
fn wordsim_layout(pairs: &str) -> String {
    let mut text = String::from(
        "# The WordSimilarity-353 Test Collection (http://www.cs.technion.ac.il/~gabr/resources/data/wordsim353/)\n\
         # Word 1\tWord 2\tHuman (mean)\n",
    );
    for line in pairs.lines() {
        text.push_str(&line.split(' ').collect::<Vec<_>>().join("\t"));
        text.push('\n');
    }
    text
}

#[test]
fn eval_reads_benchmarks_with_comment_lines_as_gensim_ships_them() {
    let dir = scratch_dir("eval-comments");
    let vectors = write(&dir, "v.txt", DISAGREEING_VECTORS);
    let pairs = write(&dir, "wordsim353.tsv", &wordsim_layout(PAIRS));
    let analogies = write(&dir, "questions.txt", &format!("# made by hand\n{}# the end\n", ANALOGIES));
    let out = embedscope(&["eval", &vectors, "--analogies", &analogies, "--similarity", &pairs]);
    assert!(out.status.success(), "{}", stderr(&out));
    // The same figures as the file without comments.
    let text = stdout(&out);
    assert_eq!(row(&text, "overall"), "overall 3 2 1 50.0 % (1/2) 50.0 % (1/2)");
    assert!(text.contains("5 pairs (score in column 3); found 4 of 5 pairs, OOV ratio 20.0 %"), "{text}");
    assert!(text.contains("Spearman 0.9487   Pearson 0.9864"), "{text}");
    // Lines keep their numbers in the file: the questions moved down by one line.
    assert!(text.contains("a : b :: c : y   answered x   (mul-wins, line 6)"), "{text}");
}

/// `n` words w0, w1, … (most frequent first) with vectors in the plane; the last two are also
/// upper-case words that benchmarks can name in lower case.
fn many_words(n: usize) -> String {
    let mut text = format!("{n} 2\n");
    for i in 0..n {
        let word = if i + 2 >= n { format!("W{i}") } else { format!("w{i}") };
        let angle = i as f64 * 0.001;
        text.push_str(&format!("{word} {:.6} {:.6}\n", angle.cos(), angle.sin()));
    }
    text
}

#[test]
fn eval_gensim_takes_gensims_defaults() {
    use embedscope::io::json;
    let dir = scratch_dir("eval-gensim");
    // More words than our analogy default (30,000) and fewer than gensim's (300,000).
    let n = 30_005;
    let vectors = write(&dir, "v.txt", &many_words(n));
    let (last, before) = (format!("w{}", n - 1), format!("w{}", n - 2));
    // One question and one pair within the first 30,000 words, one each naming the last two
    // words in lower case.
    let analogies = write(&dir, "questions.txt", &format!(": s\nw0 w1 w2 w3\nw0 w1 {before} {last}\n"));
    let pairs =
        write(&dir, "pairs.tsv", &wordsim_layout(&format!("w0 w1 1\nw1 w9 2\nw2 w3 3\nw0 {last} 4\n")));
    let eval = |flags: &[&str]| {
        let out = embedscope(
            &[&["eval", &vectors, "--analogies", &analogies, "--similarity", &pairs, "--json"], flags]
                .concat(),
        );
        assert!(out.status.success(), "{flags:?}: {}", stderr(&out));
        let doc = json::parse(&stdout(&out)).unwrap();
        let at = |path: &[&str]| path.iter().try_fold(&doc, |value, key| value.get(key)).unwrap();
        let count = |path: &[&str]| at(path).as_f64().unwrap() as usize;
        let ignore_case = |benchmark| at(&[benchmark, "ignoreCase"]).as_bool().unwrap();
        (
            count(&["analogies", "candidates"]),
            count(&["analogies", "overall", "covered"]),
            count(&["similarity", "found"]),
            [ignore_case("analogies"), ignore_case("similarity")],
        )
    };
    // Table: (flags, analogy candidates, questions covered, pairs found, ignoring case).
    type Case = (&'static [&'static str], usize, usize, usize, [bool; 2]);
    let cases: &[Case] = &[
        // Ours: 30,000 candidates, case-sensitive, so neither W word is found.
        (&[], 30_000, 1, 3, [false, false]),
        // gensim's: 300,000 (here all) and ignoring case, so w30003 and w30004 are found.
        (&["--gensim"], n, 2, 4, [true, true]),
        // An explicit --restrict still applies.
        (&["--gensim", "--restrict", "10"], 10, 1, 3, [true, true]),
        (&["--ignore-case"], 30_000, 1, 4, [true, true]),
    ];
    for &(flags, candidates, covered, found, ignore_case) in cases {
        assert_eq!(eval(flags), (candidates, covered, found, ignore_case), "{flags:?}");
    }
    let help = stdout(&embedscope(&["help"]));
    assert!(help.contains("[--gensim]") && help.contains("--gensim takes the"), "{help}");
}

/// The line of `text` that starts with the word `name`, its fields joined by single spaces.
fn row(text: &str, name: &str) -> String {
    let line = text.lines().find(|l| l.split_whitespace().next() == Some(name));
    let line = line.unwrap_or_else(|| panic!("no row {name} in {text}"));
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn eval_errors_are_one_line_and_exit_non_zero() {
    let dir = scratch_dir("eval-errors");
    let vectors = write(&dir, "v.txt", DISAGREEING_VECTORS);
    let analogies = write(&dir, "questions.txt", ANALOGIES);
    let bad_analogies = write(&dir, "bad-questions.txt", ": s\na b c x\n\na b c\n");
    let bad_pairs = write(&dir, "bad-pairs.txt", "word1\tword2\tscore\nb\tx\tnine\n");
    let empty = write(&dir, "empty.txt", "\n");
    let missing = dir.join("missing.txt");
    let missing = missing.to_str().unwrap();

    let cases: &[(&[&str], String)] = &[
        (&["eval", &vectors], "eval needs --analogies FILE or --similarity FILE".into()),
        (
            &["eval", &vectors, "--analogies", &bad_analogies],
            format!(
                "{bad_analogies}: malformed benchmark file, line 4: expected four words 'a b c d' \
                 (a is to b as c is to d), found 3"
            ),
        ),
        (
            &["eval", &vectors, "--similarity", &bad_pairs],
            format!(
                "{bad_pairs}: malformed benchmark file, line 2: the score 'nine' in column 3 is not a number"
            ),
        ),
        (
            &["eval", &vectors, "--analogies", &empty],
            format!("{empty}: malformed benchmark file: it holds no question"),
        ),
        (&["eval", &vectors, "--analogies", missing], format!("cannot read {missing}")),
        (&["eval", missing, "--analogies", &analogies], format!("cannot open {missing}")),
        (
            &["eval", &vectors, "--analogies", &analogies, "--restrict", "x"],
            "--restrict 'x' is not a valid number".into(),
        ),
        (&["eval", &vectors, "--analogies", &analogies, "--jsn"], "unknown option --jsn".into()),
        (&["eval", "--analogies", &analogies], "missing VECTORS".into()),
    ];
    for (args, expected) in cases {
        fails_with_one_line(args, expected);
    }
}

/// Trains the small corpus's vectors (13 words) into `dir` and returns their path.
fn small_vectors(dir: &Path) -> String {
    let corpus = write_corpus(dir);
    let vectors = dir.join("v.txt");
    let vectors = vectors.to_str().unwrap().to_string();
    let trained = embedscope(&[&["train", &corpus, "--out", &vectors], SMALL].concat());
    assert!(trained.status.success(), "{}", stderr(&trained));
    vectors
}

/// The small corpus has 13 words: these parameters fit so few.
const SMALL_TSNE: &[&str] = &["--method", "tsne", "--perplexity", "3", "--iterations", "300"];
const SMALL_UMAP: &[&str] = &["--method", "umap", "--neighbors", "5", "--epochs", "100"];

#[test]
fn project_writes_a_row_per_word_and_the_same_file_for_the_same_seed() {
    let dir = scratch_dir("project");
    let vectors = small_vectors(&dir);
    let words = escaped_words(&vectors);
    for (name, method) in [("pca", &["--method", "pca"][..]), ("tsne", SMALL_TSNE), ("umap", SMALL_UMAP)] {
        let run = |file: &str, seed: &[&str]| {
            let out = dir.join(file);
            let out = out.to_str().unwrap();
            let projected =
                embedscope(&[&["project", &vectors, "--out", out, "--quiet"], method, seed].concat());
            assert!(projected.status.success(), "{name}: {}", stderr(&projected));
            assert!(stderr(&projected).contains("of 13 words in "), "{name}: {}", stderr(&projected));
            std::fs::read_to_string(out).unwrap()
        };
        let seeded: &[&str] = if name == "pca" { &[] } else { &["--seed", "5"] };
        let csv = run(&format!("{name}-a.csv"), seeded);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "word,x,y", "{name}");
        assert_eq!(lines.len(), 14, "{name}: a header and a row per word");
        for (line, word) in lines[1..].iter().zip(&words) {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), 3, "{name}: {line}");
            assert_eq!(fields[0], word, "{name}: most frequent first");
            assert!(fields[1..].iter().all(|f| f.parse::<f32>().is_ok_and(f32::is_finite)), "{name}: {line}");
        }
        assert_eq!(csv, run(&format!("{name}-b.csv"), seeded), "{name}: same seed, same file");
    }
    let seeds = |seed: &str| {
        let out = dir.join(format!("umap-seed-{seed}.csv"));
        let args =
            [&["project", &vectors, "--out", out.to_str().unwrap(), "--seed", seed], SMALL_UMAP].concat();
        assert!(embedscope(&args).status.success());
        std::fs::read(out).unwrap()
    };
    assert_ne!(seeds("1"), seeds("2"), "UMAP's negative samples follow the seed");
}

#[test]
fn project_to_tsv_writes_the_projectors_pair() {
    let dir = scratch_dir("project-tsv");
    let vectors = small_vectors(&dir);
    let out = dir.join("map-vectors.tsv");
    let projected =
        embedscope(&[&["project", &vectors, "--out", out.to_str().unwrap()], SMALL_TSNE].concat());
    assert!(projected.status.success(), "{}", stderr(&projected));
    let coords = std::fs::read_to_string(&out).unwrap();
    assert_eq!(coords.lines().count(), 13);
    assert!(
        coords.lines().all(|l| l.split('\t').filter(|f| f.parse::<f32>().is_ok()).count() == 2),
        "{coords}"
    );
    let metadata = std::fs::read_to_string(dir.join("map-metadata.tsv")).unwrap();
    assert_eq!(metadata.lines().collect::<Vec<_>>(), escaped_words(&vectors));
}

#[test]
fn project_quotes_words_as_rfc_4180_asks() {
    let dir = scratch_dir("project-quote");
    let vectors = write(&dir, "v.txt", "3 2\nplain 1 0\nsay,\"hi\" 0 1\na,b 1 1\n");
    let out = dir.join("map.csv");
    assert!(
        embedscope(&["project", &vectors, "--method", "pca", "--out", out.to_str().unwrap()])
            .status
            .success()
    );
    let csv = std::fs::read_to_string(out).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[1].starts_with("plain,"), "{csv}");
    assert!(lines[2].starts_with("\"say,\"\"hi\"\"\","), "{csv}");
    assert!(lines[3].starts_with("\"a,b\","), "{csv}");
}

#[test]
fn project_errors_are_one_line_and_exit_non_zero() {
    let dir = scratch_dir("project-errors");
    let vectors = small_vectors(&dir);
    let out = dir.join("map.csv");
    let out = out.to_str().unwrap();
    // Table: (arguments after `project VECTORS --out FILE`, expected message).
    let cases: &[(&[&str], &str)] = &[
        (&["--method", "mds"], "--method 'mds' is not tsne, umap or pca"),
        (&["--perplexity", "30"], "invalid words = 13: expected at least 91 words for perplexity 30"),
        (&["--method", "umap"], "invalid words = 13: expected at least 15 words for 15 neighbours"),
        (&["--words", "100", "--method", "pca"], "--words 100 is more than the 13 words of the vectors"),
        (&["--words", "100", "--perplexity", "3"], "invalid words = 100: expected at most the 13 words"),
        (&["--perplexity", "0.5"], "invalid perplexity = 0.5: expected a number of at least 1"),
        (&["--perplexity", "many"], "--perplexity 'many' is not a valid number"),
        (&["--learning-rate", "fast"], "--learning-rate 'fast' is not 'auto' or a valid number"),
        (&["--learning-rate", "-1"], "invalid learning_rate = -1: expected a positive number"),
        (&["--iterations", "0"], "invalid iterations = 0: expected at least 1"),
        (&["--exaggeration", "0"], "invalid early_exaggeration = 0"),
        (&["--method", "umap", "--neighbors", "1"], "invalid n_neighbours = 1: expected at least 2"),
        (&["--method", "umap", "--min-dist", "2"], "invalid min_dist = 2: expected between 0 and 1"),
        (&["--method", "umap", "--epochs", "0"], "invalid epochs = 0: expected at least 1"),
        (&["--method", "umap", "--perplexity", "3"], "--perplexity only applies to --method tsne"),
        (&["--neighbors", "5"], "--neighbors only applies to --method umap"),
        (&["--method", "pca", "--seed", "3"], "--seed only applies to --method tsne or umap"),
    ];
    for (extra, expected) in cases {
        fails_with_one_line(&[&["project", &vectors, "--out", out], *extra].concat(), expected);
    }
    fails_with_one_line(&["project", &vectors], "project needs --out FILE");
    fails_with_one_line(&["project", "missing.txt", "--out", out], "cannot open missing.txt");
    assert!(!Path::new(out).exists(), "no file is written when the map fails");
}

#[test]
fn threads_and_cbow_train_and_say_whether_a_run_repeats() {
    let dir = scratch_dir("threads");
    let corpus = write_corpus(&dir);
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name).to_str().unwrap().to_string();
        let args =
            [&["train", &corpus, "--out", &out, "--dim", "16", "--epochs", "3", "--min-count", "1"], extra];
        let trained = embedscope(&args.concat());
        assert!(trained.status.success(), "{name}: {}", stderr(&trained));
        (out, stderr(&trained))
    };
    let fingerprint = |log: &str| log.split("fingerprint ").nth(1).unwrap()[..16].to_string();
    let params = |path: &str| {
        let bundle = embedscope::io::read_bundle(&std::fs::read_to_string(path).unwrap()).unwrap();
        let params = bundle.params.expect("params");
        let number = |name| params.get(name).and_then(|v| v.as_f64());
        let cbow = params.get("cbow").and_then(|v| v.as_bool());
        (number("threads"), cbow, number("alpha").map(|a| (a * 1e6).round() / 1e6))
    };

    let (one, one_log) = run("one.json", &["--threads", "1"]);
    assert!(one_log.contains("skip-gram, 1 thread: bit-reproducible;"), "{one_log}");
    assert_eq!(params(&one), (Some(1.0), Some(false), Some(0.025)));
    let (two, two_log) = run("two.json", &["--threads", "2"]);
    assert!(two_log.contains("skip-gram, 2 threads: not bit-reproducible"), "{two_log}");
    assert_eq!(params(&two), (Some(2.0), Some(false), Some(0.025)));
    assert_ne!(fingerprint(&one_log), fingerprint(&two_log));

    // CBOW takes word2vec.c's learning rate unless one is given.
    let (cbow, cbow_log) = run("cbow.json", &["--threads", "1", "--cbow"]);
    assert!(cbow_log.contains("CBOW, 1 thread: bit-reproducible;"), "{cbow_log}");
    assert_eq!(params(&cbow), (Some(1.0), Some(true), Some(0.05)));
    assert_ne!(fingerprint(&one_log), fingerprint(&cbow_log));
    let (given, _) = run("given.json", &["--threads", "1", "--cbow", "--alpha", "0.01"]);
    assert_eq!(params(&given), (Some(1.0), Some(true), Some(0.01)));

    // Shared noise words: recorded in the bundle and the fingerprint; not for CBOW.
    let (shared, shared_log) = run("shared.json", &["--threads", "1", "--shared-noise"]);
    assert!(shared_log.contains("skip-gram, 1 thread: bit-reproducible;"), "{shared_log}");
    let bundle = embedscope::io::read_bundle(&std::fs::read_to_string(&shared).unwrap()).unwrap();
    assert_eq!(bundle.params.unwrap().get("sharedNoise").and_then(|v| v.as_bool()), Some(true));
    assert_ne!(fingerprint(&one_log), fingerprint(&shared_log));
    let out = dir.join("no.json").to_str().unwrap().to_string();
    fails_with_one_line(
        &["train", &corpus, "--out", &out, "--cbow", "--shared-noise"],
        "--shared-noise only applies to skip-gram: CBOW already draws noise words once a window",
    );

    // The default is this machine's cores.
    let cores = std::thread::available_parallelism().unwrap().get();
    let (default, _) = run("default.json", &[]);
    assert_eq!(params(&default).0, Some(cores as f64));

    let help = stdout(&embedscope(&["help"]));
    assert!(help.contains("[--cbow]") && help.contains("[--threads N]"), "{help}");
}

#[test]
fn every_command_has_its_own_help_with_the_cores_defaults() {
    for command in ["train", "neighbours", "neighbors", "analogy", "eval", "project"] {
        let asked = embedscope(&[command, "--help"]);
        assert!(asked.status.success(), "{command}: {}", stderr(&asked));
        let help = stdout(&asked);
        let name = if command == "neighbors" { "neighbours" } else { command };
        assert!(help.starts_with(&format!("usage:\n  embedscope {name} ")), "{help}");
        assert!(help.contains("-h, --help"), "{help}");
        assert_eq!(stdout(&embedscope(&["help", command])), help, "{command}");
        // -h anywhere after the command asks for the help, and nothing runs.
        assert_eq!(stdout(&embedscope(&[command, "missing.txt", "-h"])), help, "{command}");
    }
    // Defaults are the core's, in the option list and the synopsis.
    let train = stdout(&embedscope(&["train", "--help"]));
    let line = |name: &str| row(&train, name);
    assert_eq!(line("--dim"), "--dim N 100 the dimension of the vectors");
    assert_eq!(line("--alpha"), "--alpha A 0.025 the first learning rate (0.05 with --cbow)");
    assert!(train.contains("[--window 5]") && train.contains("[--min-count 5]"), "{train}");
    let project = stdout(&embedscope(&["project", "--help"]));
    assert!(project.contains("[--perplexity 30]") && project.contains("[--neighbors 15]"), "{project}");
    // What a command does not take is refused by name, pointing at its help.
    fails_with_one_line(&["eval", "x", "--dim", "3"], "unknown option --dim; try 'embedscope eval --help'");
    fails_with_one_line(&["train", "x", "--quiet=yes"], "--quiet takes no value");
    fails_with_one_line(&["help", "nope"], "unknown command 'nope'");
}

/// A MediaWiki export, as Wikipedia's dumps are written: each page's metadata around an
/// article whose own markup is escaped.
fn wiki_dump(pages: usize) -> String {
    let mut xml = String::from(
        "<mediawiki xmlns=\"http://www.mediawiki.org/xml/export-0.10/\" version=\"0.10\" xml:lang=\"en\">\n  \
         <siteinfo>\n    <sitename>Wikipedia</sitename>\n  </siteinfo>\n",
    );
    for i in 0..pages {
        let (colour, animal) = (["red", "blue"][i % 2], ["cat", "dog"][(i / 2) % 2]);
        xml.push_str(&format!(
            "  <page>\n    <title>Page {i}</title>\n    <ns>0</ns>\n    <id>{i}</id>\n    <revision>\n      \
             <id>{}</id>\n      <parentid>{}</parentid>\n      <timestamp>2017-02-19T18:08:07Z</timestamp>\n      \
             <sha1>t0ijswlk6ii5cj8oh6hnbng4rdqmhv9</sha1>\n      <text xml:space=\"preserve\">'''The {colour} paint''' \
             on the [[wall]], and a {animal} barks at night.&lt;ref&gt;{{{{cite web|url=http://example.org}}}}&lt;/ref&gt;\n\
             The {colour} paint on the wall, and a {animal} barks at night.</text>\n    </revision>\n  </page>\n",
            1000 + i,
            999 + i
        ));
    }
    xml.push_str("</mediawiki>\n");
    xml
}

#[test]
fn a_markup_file_warns_and_strip_markup_keeps_only_its_text() {
    let dir = scratch_dir("markup");
    let corpus = write(&dir, "dump.xml", &wiki_dump(200));
    let out = dir.join("v.txt");
    let out = out.to_str().unwrap();
    let words = |path: &str| escaped_words(path);

    let as_is = embedscope(&[&["train", &corpus, "--out", out], SMALL].concat());
    assert!(as_is.status.success(), "{}", stderr(&as_is));
    let log = stderr(&as_is);
    assert!(
        log.contains("warning: ")
            && log.contains("dump.xml: this text looks like MediaWiki XML (a Wikipedia dump)"),
        "{log}"
    );
    assert!(log.contains("--strip-markup keeps only its text"), "{log}");
    assert!(words(out).iter().any(|w| w == "timestamp"), "trained as it is");

    let stripped = embedscope(&[&["train", &corpus, "--out", out, "--strip-markup"], SMALL].concat());
    assert!(stripped.status.success(), "{}", stderr(&stripped));
    let log = stderr(&stripped);
    assert!(log.contains("dump.xml: only the text of its MediaWiki XML (a Wikipedia dump) is kept"), "{log}");
    assert!(!log.contains("looks like"), "{log}");
    let words = words(out);
    for markup in ["timestamp", "sha1", "parentid", "revision", "lt", "gt", "ref", "cite", "url"] {
        assert!(!words.iter().any(|w| w == markup), "{markup} in {words:?}");
    }
    for word in ["paint", "wall", "barks", "cat", "dog"] {
        assert!(words.iter().any(|w| w == word), "{word} in {words:?}");
    }

    // A plain text is trained as it is, saying the option found no markup.
    let plain = write_corpus(&dir);
    let trained = embedscope(&[&["train", &plain, "--out", out, "--strip-markup"], SMALL].concat());
    assert!(trained.status.success(), "{}", stderr(&trained));
    assert!(
        stderr(&trained).contains("--strip-markup: corpus.txt is not XML or HTML: trained as it is"),
        "{}",
        stderr(&trained)
    );
}

#[test]
fn a_text_too_small_to_learn_from_trains_with_a_warning_that_says_why() {
    let dir = scratch_dir("tiny");
    let corpus =
        write(&dir, "tiny.txt", &"alpha beta gamma delta epsilon zeta eta theta iota kappa\n".repeat(4));
    let out = dir.join("v.txt");
    let trained = embedscope(&[&["train", &corpus, "--out", out.to_str().unwrap()], SMALL].concat());
    assert!(trained.status.success(), "{}", stderr(&trained));
    assert!(
        stderr(&trained).contains(
            "warning: tiny.txt: 40 tokens an epoch and a vocabulary of 10 words: too few for the vectors to mean anything"
        ),
        "{}",
        stderr(&trained)
    );
}

/// A skipgram model as fastText saves it: `words` (most frequent first), n-grams of 3 to 4
/// characters in `bucket` rows, dimension 3, each row's values from its number.
fn write_fasttext(dir: &Path, name: &str, words: &[&str], bucket: i32, supervised: bool) -> String {
    let mut out = Vec::new();
    let i32s = |out: &mut Vec<u8>, v: &[i32]| v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
    let model = if supervised { 3 } else { 2 };
    i32s(&mut out, &[793_712_314, 12, 3, 5, 1, 1, 5, 1, 2, model, bucket, 3, 4, 100]);
    out.extend_from_slice(&1e-4f64.to_le_bytes());
    let n = words.len() as i32;
    i32s(&mut out, &[n, n, 0]);
    out.extend_from_slice(&1000i64.to_le_bytes());
    out.extend_from_slice(&(-1i64).to_le_bytes());
    for (i, w) in words.iter().enumerate() {
        out.extend_from_slice(w.as_bytes());
        out.push(0);
        out.extend_from_slice(&(100 - i as i64).to_le_bytes());
        out.push(0);
    }
    out.push(0);
    let rows = words.len() + bucket as usize;
    out.extend_from_slice(&(rows as i64).to_le_bytes());
    out.extend_from_slice(&3i64.to_le_bytes());
    for r in 0..rows {
        for j in 0..3 {
            out.extend_from_slice(&(((r * 5 + j * 3) % 7) as f32 - 3.0).to_le_bytes());
        }
    }
    let path = dir.join(name);
    std::fs::write(&path, out).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_fasttext_model_answers_for_its_words_and_builds_others_from_ngrams() {
    let dir = scratch_dir("fasttext");
    let words = ["</s>", "night", "light", "day", "dark"];
    // Named without .bin: told by its first bytes.
    let path = write_fasttext(&dir, "model", &words, 13, false);
    let info = stdout(&embedscope(&["info", &path]));
    assert!(info.contains("fastText skipgram (format 12), dim 3, n-grams 3–4 in 13 buckets"), "{info}");
    assert!(info.contains("kept\tkept all 5 words; 13 n-gram buckets kept"), "{info}");
    let known = embedscope(&["neighbours", &path, "night", "-k", "2"]);
    assert!(known.status.success() && !stderr(&known).contains("n-grams"), "{known:?}");
    assert_eq!(stdout(&known).lines().count(), 2);
    let built = embedscope(&["neighbours", &path, "nigth", "-k", "4"]);
    assert!(stderr(&built).contains("'nigth' is not in the vocabulary: its vector is built from n-grams"));
    assert_eq!(stdout(&built).lines().count(), 4);
    let vector = stdout(&embedscope(&["vector", &path, "nigth"]));
    assert_eq!(vector.split_whitespace().count(), 3, "{vector}");
    // A benchmark's words built from n-grams are counted, each once.
    let pairs = dir.join("pairs.txt");
    std::fs::write(&pairs, "night nigth 8\nday dark 2\nligth nigth 6\nlight day 3\n").unwrap();
    let pairs = pairs.to_str().unwrap();
    let eval = embedscope(&["eval", &path, "--similarity", pairs]);
    assert!(eval.status.success(), "{eval:?}");
    assert!(
        stdout(&eval).contains("found 4 of 4 pairs")
            && stdout(&eval)
                .contains("2 of the benchmark's words are not in the vocabulary: built from n-grams"),
        "{}",
        stdout(&eval)
    );
    let eval = stdout(&embedscope(&["eval", &path, "--similarity", pairs, "--json"]));
    assert!(eval.contains(r#""builtFromNgrams":2"#), "{eval}");
    let questions = dir.join("questions.txt");
    std::fs::write(&questions, ": one\nnight dark light day\nnigth dark light day\n").unwrap();
    let eval = stdout(&embedscope(&["eval", &path, "--analogies", questions.to_str().unwrap()]));
    assert!(
        eval.contains("1 of the benchmark's words is not in the vocabulary: built from n-grams"),
        "{eval}"
    );
    // The most frequent words kept: a word past them is built from its n-grams.
    let kept = embedscope(&["analogy", &path, "night", "day", "dark", "--max-words", "3"]);
    assert!(stderr(&kept).contains("kept 3 of 5 words"), "{kept:?}");
    assert!(stderr(&kept).contains("'day' is not in the vocabulary"), "{kept:?}");
    fails_with_one_line(&["neighbours", &path, "night", "--max-words", "0"], "--max-words takes a number");
    let sup = write_fasttext(&dir, "classifier.bin", &words, 13, true);
    fails_with_one_line(&["neighbours", &sup, "night"], "a supervised fastText model (a text classifier");
    let whole = std::fs::read(&path).unwrap();
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &whole[..whole.len() - 20]).unwrap();
    fails_with_one_line(&["info", cut.to_str().unwrap()], "the fastText model is cut short");
    fails_with_one_line(
        &["neighbours", &small_vectors(&dir), "a", "--max-words", "3"],
        "--max-words only applies to a fastText",
    );
}
