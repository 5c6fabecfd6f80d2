//! Compressed files through the command-line tool: a gzip, bzip2, xz or zip copy of a text,
//! a vectors file or a benchmark gives what the plain file gives, to the bit on one thread,
//! also when a compressed file sits in a zip; a zip of several files is named as
//! ARCHIVE:ENTRY, a zip of the Projector's pair opens as the pair; a bad archive is one line
//! saying what to do.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn embedscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_embedscope")).args(args).output().expect("the binary runs")
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("embedscope-compressed-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The first `len` bytes of the KJV (scripts/setup.sh --kjv fetches it), cut after a line.
fn kjv_slice(len: usize) -> Vec<u8> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/kjv.txt");
    let text = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}; run scripts/fetch-kjv.sh"));
    let end = text[..len].iter().rposition(|&b| b == b'\n').unwrap() + 1;
    text[..end].to_vec()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

fn bzip2(data: &[u8]) -> Vec<u8> {
    let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

fn xz(data: &[u8]) -> Vec<u8> {
    let mut encoder = lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(6)).unwrap();
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::DEFLATE);
    for (name, data) in files {
        writer.start_file(*name, options).unwrap();
        writer.write_all(data).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// A zip of `files` stored, not deflated, as archives of files compressed already often are.
fn zip_stored(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::STORE);
    for (name, data) in files {
        writer.start_file(*name, options).unwrap();
        writer.write_all(data).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// `data` written as `name` in `dir`, and its gzip, bzip2, xz and zip copies; the zip's
/// copy is called `.zip.bin` and the gzip one has no extension, as the compression is told
/// from the bytes, not the name.
fn copies(dir: &Path, name: &str, data: &[u8]) -> (String, Vec<String>) {
    let path = |file: &str| dir.join(file).to_str().unwrap().to_string();
    std::fs::write(path(name), data).unwrap();
    let written = [
        (format!("{name}-gzipped"), gzip(data)),
        (format!("{name}.bz2"), bzip2(data)),
        (format!("{name}.xz"), xz(data)),
        (format!("{name}.zip.bin"), zip_of(&[(name, data)])),
    ];
    let mut paths = Vec::new();
    for (file, bytes) in written {
        assert!(data.len() < 10_000 || bytes.len() < data.len() / 2, "{file} is compressed");
        std::fs::write(path(&file), bytes).unwrap();
        paths.push(path(&file));
    }
    (path(name), paths)
}

#[test]
fn compressed_copies_of_the_kjv_train_the_plain_texts_vectors_bit_for_bit() {
    let dir = scratch_dir("kjv");
    let (plain, compressed) = copies(&dir, "kjv.txt", &kjv_slice(1_500_000));
    let train = |corpus: &str, out: &str| {
        let out = dir.join(out).to_str().unwrap().to_string();
        let args = [
            "train",
            corpus,
            "--out",
            &out,
            "--format",
            "binary",
            "--dim",
            "32",
            "--epochs",
            "2",
            "--seed",
            "3",
            "--threads",
            "1",
            "--quiet",
        ];
        let run = embedscope(&args);
        assert!(run.status.success(), "{corpus}: {}", stderr(&run));
        std::fs::read(out).unwrap()
    };
    let expected = train(&plain, "plain.bin");
    assert!(expected.len() > 100_000);
    // A compressed copy inside a zip is unwrapped too.
    let text = std::fs::read(&plain).unwrap();
    let nested = [
        ("kjv-gz.zip", zip_stored(&[("kjv.txt.gz", &gzip(&text))])),
        ("kjv-xz.zip", zip_of(&[("corpus/kjv.txt.xz", &xz(&text))])),
    ];
    let mut compressed = compressed;
    for (name, bytes) in nested {
        let path = dir.join(name).to_str().unwrap().to_string();
        std::fs::write(&path, bytes).unwrap();
        compressed.push(path);
    }
    for (i, corpus) in compressed.iter().enumerate() {
        assert!(train(corpus, &format!("{i}.bin")) == expected, "{corpus} trained other vectors");
    }
}

#[test]
fn compressed_vectors_and_benchmarks_answer_as_the_plain_files() {
    let dir = scratch_dir("vectors");
    let vectors = "4 2\nking 1 0.5\nqueen 0.9 0.7\nman 0.2 -1\nwoman 0.1 -0.8\n";
    let questions = ": royal\nking queen man woman\n";
    let (plain_vectors, compressed_vectors) = copies(&dir, "v.txt", vectors.as_bytes());
    let (plain_questions, compressed_questions) = copies(&dir, "q.txt", questions.as_bytes());
    let neighbours = |path: &str| {
        let out = embedscope(&["neighbours", path, "king", "-k", "3"]);
        assert!(out.status.success(), "{path}: {}", stderr(&out));
        stdout(&out)
    };
    let eval = |vectors: &str, questions: &str| {
        let out = embedscope(&["eval", vectors, "--analogies", questions]);
        assert!(out.status.success(), "{vectors}, {questions}: {}", stderr(&out));
        stdout(&out)
    };
    let expected = (neighbours(&plain_vectors), eval(&plain_vectors, &plain_questions));
    assert!(expected.0.contains("queen"), "{}", expected.0);
    for (vectors, questions) in compressed_vectors.iter().zip(&compressed_questions) {
        assert_eq!(neighbours(vectors), expected.0, "{vectors}");
        // The report names the file it read; the rest is the same.
        assert_eq!(eval(vectors, questions).replace(questions.as_str(), &plain_questions), expected.1);
    }

    // A word2vec binary file inside is told from its bytes too.
    let corpus = dir.join("kjv.txt");
    std::fs::write(&corpus, kjv_slice(200_000)).unwrap();
    let binary = dir.join("v.bin");
    let train = embedscope(&[
        "train",
        corpus.to_str().unwrap(),
        "--out",
        binary.to_str().unwrap(),
        "--dim",
        "8",
        "--threads",
        "1",
        "--quiet",
    ]);
    assert!(train.status.success(), "{}", stderr(&train));
    let gz = dir.join("v.bin.gz");
    std::fs::write(&gz, gzip(&std::fs::read(&binary).unwrap())).unwrap();
    assert_eq!(neighbours_of(&gz, "God"), neighbours_of(&binary, "God"));
}

fn neighbours_of(path: &Path, word: &str) -> String {
    let out = embedscope(&["neighbours", path.to_str().unwrap(), word, "-k", "2"]);
    assert!(out.status.success(), "{}: {}", path.display(), stderr(&out));
    stdout(&out)
}

#[test]
fn a_zip_of_several_files_is_named_by_entry() {
    let dir = scratch_dir("entries");
    let vectors = b"2 2\nking 1 0\nqueen 0.9 0.1\n";
    let zip = dir.join("both.zip");
    std::fs::write(&zip, zip_of(&[("readme.txt", b"some words"), ("glove/v.txt", vectors)])).unwrap();
    let zip = zip.to_str().unwrap();
    let out = embedscope(&["neighbours", zip, "king"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("holds 2 files (readme.txt, glove/v.txt): name the one to open as")
            && err.contains(&format!("{zip}:readme.txt")),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let out = embedscope(&["neighbours", &format!("{zip}:glove/v.txt"), "king"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("queen"));
    let out = embedscope(&["neighbours", &format!("{zip}:v.txt"), "king"]);
    assert!(
        stderr(&out).contains("holds no file 'v.txt'; it holds 'readme.txt', 'glove/v.txt'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn compressed_vectors_in_a_zip_and_the_projectors_pair_in_a_zip_answer_as_the_plain_files() {
    let dir = scratch_dir("nested");
    let vectors = "4 2\nking 1 0.5\nqueen 0.9 0.7\nman 0.2 -1\nwoman 0.1 -0.8\n";
    let plain = dir.join("v.vec");
    std::fs::write(&plain, vectors).unwrap();
    let expected = neighbours_of(&plain, "king");
    assert!(expected.contains("queen"), "{expected}");
    let nested = dir.join("vectors.zip");
    std::fs::write(&nested, zip_of(&[("vectors.vec.gz", &gzip(vectors.as_bytes()))])).unwrap();
    assert_eq!(neighbours_of(&nested, "king"), expected);

    // The Projector's pair, as files side by side and as one zip of both.
    let tsv = "1\t0.5\n0.9\t0.7\n0.2\t-1\n0.1\t-0.8\n";
    let words = "king\nqueen\nman\nwoman\n";
    let pair = dir.join("pair");
    std::fs::create_dir_all(&pair).unwrap();
    std::fs::write(pair.join("vectors.tsv"), tsv).unwrap();
    std::fs::write(pair.join("metadata.tsv"), words).unwrap();
    let expected = neighbours_of(&pair.join("vectors.tsv"), "king");
    assert!(expected.contains("queen"), "{expected}");
    for (name, files) in [
        ("pair.zip", vec![("metadata.tsv", words), ("vectors.tsv", tsv)]),
        ("kjv-pair.zip", vec![("run/kjv-vectors.tsv", tsv), ("run/kjv-metadata.tsv", words)]),
    ] {
        let zip = dir.join(name);
        let files: Vec<(&str, &[u8])> = files.iter().map(|(n, d)| (*n, d.as_bytes())).collect();
        std::fs::write(&zip, zip_of(&files)).unwrap();
        assert_eq!(neighbours_of(&zip, "king"), expected, "{name}");
        let vectors_entry = files.iter().find(|(n, _)| n.ends_with("vectors.tsv")).unwrap().0;
        let named = format!("{}:{vectors_entry}", zip.to_str().unwrap());
        assert_eq!(neighbours_of(Path::new(&named), "king"), expected, "{named}");
    }
}

#[test]
fn bad_archives_are_one_line_saying_what_to_do() {
    let dir = scratch_dir("bad");
    let text = kjv_slice(300_000);
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let gz = gzip(&text);
    std::fs::write(path("cut.gz"), &gz[..gz.len() / 2]).unwrap();
    let mut corrupt = xz(&text);
    let middle = corrupt.len() / 2;
    corrupt[middle..middle + 8].copy_from_slice(b"garbage!");
    std::fs::write(path("corrupt.xz"), corrupt).unwrap();
    std::fs::write(path("empty.zip"), zip_of(&[])).unwrap();
    std::fs::write(path("bomb.bz2"), bzip2(&vec![b'a'; 200 << 20])).unwrap();
    // A .tar.gz: the gzip is read, and the tar inside is named with what to do.
    let mut tar = vec![0u8; 512];
    tar[..8].copy_from_slice(b"kjv.txt\0");
    tar[257..263].copy_from_slice(b"ustar\0");
    tar.extend_from_slice(&text);
    std::fs::write(path("corpus.tar.gz"), gzip(&tar)).unwrap();
    std::fs::write(path("zips.zip"), zip_stored(&[("corpora.zip", &zip_of(&[("kjv.txt", &text)]))])).unwrap();
    for (file, expected) in [
        ("cut.gz", "this gzip file is cut short"),
        ("corrupt.xz", "this xz file is corrupt"),
        ("empty.zip", "this zip archive holds no file"),
        ("bomb.bz2", "it looks like a zip bomb"),
        ("corpus.tar.gz", "it looks like a tar archive, several files in one: extract it (tar -xf)"),
        ("zips.zip", "'corpora.zip' in this zip archive is a zip archive itself"),
    ] {
        let out = embedscope(&["train", &path(file), "--out", &path("out.txt"), "--quiet"]);
        assert!(!out.status.success(), "{file} trained");
        let err = stderr(&out);
        assert!(err.contains(expected), "{file}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{file}: {err}");
    }
}
