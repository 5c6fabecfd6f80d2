//! The table of files and what [`plan`] says of them: every format, compressed and not,
//! right and wrong companions, refusals. Each case's files are read by [`FileHead::read`]
//! from their bytes, as the command line and the page read them. The same table, with the
//! heads read, is the fixture `tests/shared/open-plans.json`, which the wasm test runs
//! through the page's export (`Session::open_plan`), and the command line's unit tests
//! through its decision (`plan_for`, from the files' bytes as written to disk), so all three
//! answer alike.

use std::io::Cursor;

use serde_json::{Value, json};

use super::*;
use crate::Embeddings;
use crate::io::compressed::tests::{bzip2, gzip, xz, zip_of};

/// Where the fixture lives, from the crate's root.
const FIXTURE: &str = "tests/shared/open-plans.json";

fn small_embeddings() -> Embeddings {
    Embeddings::new(vec!["the".into(), "of".into(), "and".into()], 2, vec![0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
        .unwrap()
}

fn word2vec_text() -> Vec<u8> {
    b"3 2\nthe 0.1 0.2\nof 0.3 0.4\nand 0.5 0.6\n".to_vec()
}

fn word2vec_binary() -> Vec<u8> {
    let mut out = Vec::new();
    crate::io::write_word2vec_binary(&small_embeddings(), &mut out).unwrap();
    out
}

fn glove() -> Vec<u8> {
    b"the 0.1 0.2\nof 0.3 0.4\nand 0.5 0.6\n".to_vec()
}

fn projector_vectors() -> Vec<u8> {
    b"0.1\t0.2\n0.3\t0.4\n0.5\t0.6\n".to_vec()
}

fn projector_metadata() -> Vec<u8> {
    b"the\nof\nand\n".to_vec()
}

fn bundle() -> Vec<u8> {
    let mut out = Vec::new();
    crate::io::write_bundle(&Bundle::new(small_embeddings()), &mut out).unwrap();
    out
}

fn fasttext_model() -> Vec<u8> {
    let mut out = fasttext::MAGIC.to_le_bytes().to_vec();
    out.extend(12i32.to_le_bytes());
    out.extend([0; 64]);
    out
}

fn safetensors() -> Vec<u8> {
    let header = br#"{"model.embed_tokens.weight":{"dtype":"F32","shape":[3,2],"data_offsets":[0,24]}}"#;
    let mut out = (header.len() as u64).to_le_bytes().to_vec();
    out.extend(header);
    out.extend([0; 24]);
    out
}

fn gguf() -> Vec<u8> {
    let mut out = b"GGUF".to_vec();
    out.extend(3u32.to_le_bytes());
    out.extend([0; 16]);
    out
}

fn shard_index() -> Vec<u8> {
    br#"{"metadata":{"total_size":48},"weight_map":{"model.embed_tokens.weight":"model-00001-of-00002.safetensors","lm_head.weight":"model-00002-of-00002.safetensors"}}"#.to_vec()
}

fn tokenizer() -> Vec<u8> {
    br#"{"version":"1.0","model":{"type":"BPE","vocab":{"the":0,"of":1,"and":2},"merges":[]}}"#.to_vec()
}

fn config() -> Vec<u8> {
    br#"{"architectures":["LlamaForCausalLM"],"hidden_size":2}"#.to_vec()
}

fn parquet() -> Vec<u8> {
    let mut out = b"PAR1".to_vec();
    out.extend([0; 32]);
    out.extend(b"PAR1");
    out
}

fn spark_metadata() -> Vec<u8> {
    br#"{"class":"org.apache.spark.ml.feature.Word2VecModel","timestamp":1,"sparkVersion":"3.5.0","uid":"w2v","paramMap":{"vectorSize":2}}"#.to_vec()
}

fn text() -> Vec<u8> {
    b"In the beginning God created the heaven and the earth.\nAnd the earth was without form, and void.\n"
        .to_vec()
}

fn deflated(files: &[(&str, &[u8])]) -> Vec<u8> {
    zip_of(files, zip::CompressionMethod::DEFLATE)
}

/// One case: the files given (name, bytes), the zip entry chosen, the options, and what
/// [`plan`] answers: the plan, or the message of the refusal.
struct Case {
    files: Vec<(&'static str, Vec<u8>)>,
    entry: Option<&'static str>,
    options: OpenOptions,
    expected: std::result::Result<OpenPlan, String>,
}

fn case(files: Vec<(&'static str, Vec<u8>)>, expected: OpenPlan) -> Case {
    Case { files, entry: None, options: OpenOptions::default(), expected: Ok(expected) }
}

fn refused(files: Vec<(&'static str, Vec<u8>)>, message: &str) -> Case {
    Case { files, entry: None, options: OpenOptions::default(), expected: Err(message.to_string()) }
}

impl Case {
    fn with(self, options: OpenOptions) -> Case {
        Case { options, ..self }
    }

    fn entry(self, entry: &'static str) -> Case {
        Case { entry: Some(entry), ..self }
    }

    /// The heads of its files, read as the callers read them.
    fn heads(&self) -> Vec<FileHead> {
        let entry = if self.files.len() == 1 { self.entry } else { None };
        self.files
            .iter()
            .map(|(name, bytes)| FileHead::read(name, Cursor::new(bytes.clone()), entry).unwrap())
            .collect()
    }
}

fn vectors(file: usize, format: VectorFormat) -> OpenPlan {
    OpenPlan::Vectors { file, format, metadata: None }
}

fn paired(file: usize, metadata: Companion) -> OpenPlan {
    OpenPlan::Vectors { file, format: VectorFormat::ProjectorTsv, metadata: Some(metadata) }
}

fn model(files: &[usize], index: Option<usize>, tokenizer: Option<usize>) -> OpenPlan {
    OpenPlan::Model { files: files.to_vec(), index, tokenizer }
}

const DECOMPRESS: &str = "compression: decompress it first (it is read in place, a part at a time)";

/// Every case of the table, in the order the shared fixture lists them.
fn cases() -> Vec<Case> {
    [one_of_each(), with_companions(), compressed(), options()].into_iter().flatten().collect()
}

/// One file of each format, and the Projector's pair.
fn one_of_each() -> Vec<Case> {
    use VectorFormat::{Glove, ProjectorTsv, Word2VecBinary, Word2VecText};
    vec![
        // One file of each format.
        case(vec![("vectors.txt", word2vec_text())], vectors(0, Word2VecText)),
        case(vec![("vectors.bin", word2vec_binary())], vectors(0, Word2VecBinary)),
        case(vec![("glove.6B.2d.txt", glove())], vectors(0, Glove)),
        case(vec![("vectors.tsv", projector_vectors())], vectors(0, ProjectorTsv)),
        case(vec![("run.json", bundle())], OpenPlan::Bundle { file: 0 }),
        case(vec![("cc.en.300.bin", fasttext_model())], OpenPlan::FastText { file: 0 }),
        case(vec![("model.safetensors", safetensors())], model(&[0], None, None)),
        case(vec![("q8_0.gguf", gguf())], model(&[0], None, None)),
        case(vec![("data.parquet", parquet())], OpenPlan::Table { parts: vec![0], spark: None }),
        case(vec![("kjv.txt", text())], OpenPlan::Text { file: 0 }),
        // The Projector's pair, in either order, and named as the Projector names it.
        case(
            vec![("vectors.tsv", projector_vectors()), ("metadata.tsv", projector_metadata())],
            paired(0, Companion::File(1)),
        ),
        case(
            vec![("metadata.tsv", projector_metadata()), ("vectors.tsv", projector_vectors())],
            paired(1, Companion::File(0)),
        ),
        case(
            vec![("kjv-vectors.tsv", projector_vectors()), ("kjv-metadata.tsv", projector_metadata())],
            paired(0, Companion::File(1)),
        ),
        case(
            vec![("vectors.tsv.gz", gzip(&projector_vectors())), ("metadata.tsv", projector_metadata())],
            paired(0, Companion::File(1)),
        ),
        refused(
            vec![("vectors.tsv", projector_vectors()), ("words-metadata.tsv", projector_metadata())],
            "vectors.tsv: a Projector vectors file takes its words from the metadata file named as it is, metadata.tsv, not words-metadata.tsv",
        ),
        refused(
            vec![("glove.txt", glove()), ("metadata.tsv", projector_metadata())],
            "glove.txt, metadata.tsv: open one vectors file at a time (or a vectors.tsv with its metadata.tsv, or a model's or a table's files together)",
        ),
    ]
}

/// A model's and a table's files with right and wrong companions.
fn with_companions() -> Vec<Case> {
    let index_name = "model.safetensors.index.json";
    let (shard1, shard2) = ("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors");
    vec![
        // A model with right and wrong companions.
        case(
            vec![("model.safetensors", safetensors()), ("tokenizer.json", tokenizer())],
            model(&[0], None, Some(1)),
        ),
        case(
            vec![
                ("config.json", config()),
                ("model.safetensors", safetensors()),
                ("tokenizer.json", tokenizer()),
                ("README.md", text()),
            ],
            model(&[1], None, Some(2)),
        ),
        case(
            vec![("model.safetensors", safetensors()), ("vocab.json", tokenizer())],
            model(&[0], None, Some(1)),
        ),
        case(
            vec![
                ("model.safetensors", safetensors()),
                ("config.json", config()),
                ("vocab.json", tokenizer()),
            ],
            model(&[0], None, None),
        ),
        case(vec![("q8_0.gguf", gguf()), ("tokenizer.json", tokenizer())], model(&[0], None, Some(1))),
        case(
            vec![
                (index_name, shard_index()),
                (shard1, safetensors()),
                (shard2, safetensors()),
                ("tokenizer.json", tokenizer()),
            ],
            model(&[1, 2], Some(0), Some(3)),
        ),
        case(vec![(index_name, shard_index())], model(&[], Some(0), None)),
        // An index by another name, or a JSON file that is no index, is no model's.
        case(vec![("weights.json", shard_index())], OpenPlan::Text { file: 0 }),
        case(vec![("tokenizer.json", tokenizer())], OpenPlan::Text { file: 0 }),
        // Tables: parts in name order, Spark's metadata beside, its markers left out.
        case(
            vec![
                ("part-00001.snappy.parquet", parquet()),
                ("part-00000.snappy.parquet", parquet()),
                ("part-00000", spark_metadata()),
                ("_SUCCESS", Vec::new()),
                (".part-00000.snappy.parquet.crc", b"crc".to_vec()),
            ],
            OpenPlan::Table { parts: vec![1, 0], spark: Some(2) },
        ),
        refused(
            vec![("part-00000", spark_metadata())],
            "part-00000 is a Spark model's metadata: open it together with the model's data/ part files, or open the model's folder",
        ),
        refused(
            vec![("data.parquet", parquet()), ("notes.txt", text())],
            "notes.txt: open the Parquet part files of one table alone (a Spark model's folder, or its data/ files)",
        ),
        refused(
            vec![("kjv.txt", text()), ("story.txt", text())],
            "open one text at a time (or a vectors.tsv with its metadata.tsv)",
        ),
    ]
}

/// Compressed files: what is read as a stream opens as the file inside; what is read in
/// place is refused.
fn compressed() -> Vec<Case> {
    use VectorFormat::{Glove, ProjectorTsv, Word2VecBinary, Word2VecText};
    vec![
        // Compressed: what is read as a stream opens as the file inside.
        case(vec![("vectors.txt.gz", gzip(&word2vec_text()))], vectors(0, Word2VecText)),
        case(vec![("vectors.bin.bz2", bzip2(&word2vec_binary()))], vectors(0, Word2VecBinary)),
        case(vec![("glove.txt.xz", xz(&glove()))], vectors(0, Glove)),
        case(vec![("vectors.tsv.gz", gzip(&projector_vectors()))], vectors(0, ProjectorTsv)),
        case(vec![("run.json.gz", gzip(&bundle()))], OpenPlan::Bundle { file: 0 }),
        case(vec![("kjv.txt.bz2", bzip2(&text()))], OpenPlan::Text { file: 0 }),
        case(vec![("vectors.zip", deflated(&[("vectors.txt", &word2vec_text())]))], vectors(0, Word2VecText)),
        case(vec![("nested.zip", deflated(&[("glove.txt.gz", &gzip(&glove()))]))], vectors(0, Glove)),
        case(
            vec![(
                "projector.zip",
                deflated(&[("vectors.tsv", &projector_vectors()), ("metadata.tsv", &projector_metadata())]),
            )],
            paired(0, Companion::Entry("metadata.tsv".into())),
        ),
        case(
            vec![("two.zip", deflated(&[("kjv.txt", &text()), ("vectors.txt", &word2vec_text())]))],
            OpenPlan::ChooseEntry { file: 0, entries: vec!["kjv.txt".into(), "vectors.txt".into()] },
        ),
        case(
            vec![("two.zip", deflated(&[("kjv.txt", &text()), ("vectors.txt", &word2vec_text())]))],
            OpenPlan::Text { file: 0 },
        )
        .entry("kjv.txt"),
        case(
            vec![("two.zip", deflated(&[("kjv.txt", &text()), ("vectors.txt", &word2vec_text())]))],
            vectors(0, Word2VecText),
        )
        .entry("vectors.txt"),
        refused(
            vec![
                ("two.zip", deflated(&[("kjv.txt", &text()), ("vectors.txt", &word2vec_text())])),
                ("story.txt", text()),
            ],
            "two.zip holds 2 files: open it by itself, and choose one",
        ),
        // What is read in place is refused inside compression.
        refused(
            vec![("model.safetensors.gz", gzip(&safetensors()))],
            &format!("model.safetensors.gz: a language model's file inside gzip {DECOMPRESS}"),
        ),
        refused(
            vec![("model.zip", deflated(&[("q8_0.gguf", &gguf())]))],
            &format!("model.zip: a language model's file inside zip {DECOMPRESS}"),
        ),
        refused(
            vec![("index.json.gz", gzip(&shard_index()))],
            &format!("index.json.gz: a language model's file inside gzip {DECOMPRESS}"),
        ),
        refused(
            vec![("cc.en.300.bin.gz", gzip(&fasttext_model()))],
            &format!("cc.en.300.bin.gz: a fastText model inside gzip {DECOMPRESS}"),
        ),
        refused(
            vec![("data.parquet.xz", xz(&parquet()))],
            &format!("data.parquet.xz: a Parquet table inside xz {DECOMPRESS}"),
        ),
    ]
}

/// Options that apply, and options for a file they do not apply to.
fn options() -> Vec<Case> {
    use VectorFormat::{ProjectorTsv, Word2VecText};
    let none = OpenOptions::default();
    vec![
        case(vec![("cc.en.300.bin", fasttext_model())], OpenPlan::FastText { file: 0 })
            .with(OpenOptions { max_words: true, ..none }),
        case(vec![("model.safetensors", safetensors())], model(&[0], None, None))
            .with(OpenOptions { tensor: true, tokenizer: true, ..none }),
        case(vec![("data.parquet", parquet())], OpenPlan::Table { parts: vec![0], spark: None })
            .with(OpenOptions { columns: true, ..none }),
        case(vec![("vectors.tsv", projector_vectors())], vectors(0, ProjectorTsv))
            .with(OpenOptions { metadata: true, ..none }),
        refused(vec![("glove.txt", glove())], "--metadata only applies to a Projector vectors.tsv, and glove.txt is GloVe")
            .with(OpenOptions { metadata: true, ..none }),
        refused(vec![("vectors.txt", word2vec_text())], "--columns only applies to a Parquet table, and vectors.txt is word2vec text")
            .with(OpenOptions { columns: true, ..none }),
        refused(vec![("vectors.txt", word2vec_text())], "--max-words only applies to a fastText .bin model, and vectors.txt is word2vec text")
            .with(OpenOptions { max_words: true, ..none }),
        refused(vec![("data.parquet", parquet())], "--tensor only applies to a model's .safetensors or .gguf file, and data.parquet is a Parquet table")
            .with(OpenOptions { tensor: true, ..none }),
        refused(vec![("model.safetensors", safetensors())], "--metadata only applies to a Projector vectors.tsv, and model.safetensors is a model's file")
            .with(OpenOptions { metadata: true, ..none }),
        refused(vec![("cc.en.300.bin", fasttext_model())], "--tokenizer only applies to a model's .safetensors or .gguf file, and cc.en.300.bin is a fastText model")
            .with(OpenOptions { tokenizer: true, ..none }),
        refused(vec![("run.json", bundle())], "--max-words only applies to a fastText .bin model, and run.json is an embedscope bundle")
            .with(OpenOptions { max_words: true, ..none }),
        refused(vec![("kjv.txt", text())], "--tensor only applies to a model's .safetensors or .gguf file, and kjv.txt is a text")
            .with(OpenOptions { tensor: true, ..none }),
        // The command line's VECTORS is never a text: it is read as the likeliest format.
        case(vec![("kjv.txt", text())], vectors(0, Word2VecText)).with(OpenOptions { vectors_only: true, ..none }),
    ]
}

/// Checks that `case`'s files get its expected plan or message.
fn check(case: &Case) {
    let heads = case.heads();
    let got = plan(&heads, &case.options).map_err(|refused| refused.0);
    let names: Vec<&str> = case.files.iter().map(|(name, _)| *name).collect();
    assert_eq!(got, case.expected, "{names:?}, entry {:?}, {:?}", case.entry, case.options);
}

#[test]
fn every_file_in_the_table_gets_its_plan_or_its_message() {
    let cases = cases();
    assert!(cases.len() >= 30, "{} cases", cases.len());
    for case in &cases {
        check(case);
    }
}

#[test]
fn a_zip_of_several_files_reads_no_head_until_one_is_chosen() {
    let zip = deflated(&[("kjv.txt", &text()), ("vectors.txt", &word2vec_text())]);
    let head = FileHead::read("two.zip", Cursor::new(zip.clone()), None).unwrap();
    assert_eq!((head.entry, head.head.len()), (None, 0));
    assert_eq!(head.entries, ["kjv.txt", "vectors.txt"]);
    let head = FileHead::read("two.zip", Cursor::new(zip.clone()), Some("vectors.txt")).unwrap();
    assert_eq!((head.inner_name.as_str(), head.head), ("vectors.txt", word2vec_text()));
    let missing = FileHead::read("two.zip", Cursor::new(zip), Some("nothing.txt")).unwrap_err();
    assert!(missing.to_string().contains("holds no file 'nothing.txt'"), "{missing}");
    let gz = FileHead::read("kjv.txt.gz", Cursor::new(gzip(&text())), None).unwrap();
    assert_eq!((gz.inner_name.as_str(), gz.compression), ("kjv.txt", Some(Compression::Gzip)));
}

/// The id of a vectors format between the worker and the session.
fn format_id(format: VectorFormat) -> &'static str {
    match format {
        VectorFormat::Word2VecText => "word2vec-text",
        VectorFormat::Word2VecBinary => "word2vec-binary",
        VectorFormat::Glove => "glove",
        VectorFormat::ProjectorTsv => "projector-tsv",
    }
}

/// `plan` as the page's `OpenPlanDto` (src/wasm/dto/files.rs) says it: the wasm test
/// checks the export's answer against this.
fn plan_json(plan: &OpenPlan) -> Value {
    match plan {
        OpenPlan::Text { file } => json!({ "kind": "text", "file": file }),
        OpenPlan::Vectors { file, format, metadata } => {
            let metadata = match metadata {
                Some(Companion::File(file)) => json!({ "file": file, "entry": null }),
                Some(Companion::Entry(entry)) => json!({ "file": null, "entry": entry }),
                None => Value::Null,
            };
            json!({ "kind": "vectors", "file": file, "format": format_id(*format), "metadata": metadata })
        }
        OpenPlan::Bundle { file } => json!({ "kind": "bundle", "file": file }),
        OpenPlan::FastText { file } => json!({ "kind": "fasttext", "file": file }),
        OpenPlan::Model { files, index, tokenizer } => {
            json!({ "kind": "model", "files": files, "index": index, "tokenizer": tokenizer })
        }
        OpenPlan::Table { parts, spark } => json!({ "kind": "table", "parts": parts, "spark": spark }),
        OpenPlan::ChooseEntry { file, entries } => {
            json!({ "kind": "chooseEntry", "file": file, "entries": entries })
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The table as the fixture holds it: each case's heads, options and expected answer.
fn fixture() -> String {
    let cases: Vec<Value> = cases()
        .iter()
        .map(|case| {
            let files: Vec<Value> = case
                .heads()
                .iter()
                .zip(&case.files)
                .map(|(head, (_, raw))| {
                    json!({
                        "raw": hex(raw),
                        "name": head.name,
                        "compression": head.compression.map(Compression::name),
                        "entries": head.entries,
                        "entry": head.entry,
                        "innerName": head.inner_name,
                        "head": hex(&head.head),
                    })
                })
                .collect();
            let o = case.options;
            let options = json!({
                "metadata": o.metadata, "tokenizer": o.tokenizer, "tensor": o.tensor,
                "columns": o.columns, "maxWords": o.max_words, "vectorsOnly": o.vectors_only,
            });
            let expected = match &case.expected {
                Ok(plan) => json!({ "plan": plan_json(plan) }),
                Err(message) => json!({ "refused": message }),
            };
            json!({ "files": files, "entry": case.entry, "options": options, "expected": expected })
        })
        .collect();
    serde_json::to_string_pretty(&cases).unwrap() + "\n"
}

#[test]
fn the_fixture_the_page_is_checked_against_is_the_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    let fresh = fixture();
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored == fresh,
        "{FIXTURE} is not the table: run `UPDATE_FIXTURES=1 cargo test --lib io::open` and commit it"
    );
}
