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

const SMALL: &[&str] = &["--dim", "16", "--epochs", "3", "--min-count", "1", "--seed", "7", "--quiet"];

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

    let cases: &[(&[&str], &str)] = &[
        (&[], "no command given"),
        (&["fly"], "unknown command 'fly'"),
        (&["train", missing, "--out", vectors], "cannot read"),
        (&["train", &corpus], "train needs --out"),
        (&["train", &corpus, "--out", vectors, "--window", "0"], "invalid window = 0"),
        (&["train", &corpus, "--out", vectors, "--alpha", "NaN"], "invalid alpha"),
        (&["train", &corpus, "--out", vectors, "--dim", "ten"], "--dim 'ten' is not a valid number"),
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
        (&["train", empty, "--out", vectors, "--tokenizer", "bpe"], "holds no tokens"),
        (&["neighbours", vectors, "red\\n"], "'red\\n' is not in the vocabulary"),
        (&["train", &corpus, "--out", vectors, "--colour"], "unknown option --colour"),
        (&["train", &corpus, "--out", vectors, "--min-count", "100000"], "try min_count <= "),
        (&["train", empty, "--out", vectors], "holds no tokens"),
        (&["neighbours", vectors, "unicorn"], "'unicorn' is not in the vocabulary"),
        (&["neighbours", missing, "red"], "cannot open"),
        (&["neighbours", &corpus, "red"], "malformed vectors file, line 1"),
        (&["analogy", vectors, "red", "pony", "unicorn"], "'pony' and 'unicorn' are not in the vocabulary"),
        (&["analogy", vectors, "red", "blue"], "missing C"),
        (&["neighbours", vectors, "red", "-k", "0"], "invalid k"),
        (&["neighbours", vectors, "red", "--restrict", "1", "--cosmul"], "unknown option --cosmul"),
        (&["neighbours", vectors, "red", "-k"], "-k needs a value"),
    ];
    for (args, expected) in cases {
        let out = embedscope(args);
        let err = stderr(&out);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(err.contains(expected), "{args:?}: expected '{expected}' in {err:?}");
        if !args.is_empty() {
            assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err:?}");
        }
    }
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
