//! `load_vectors`, the one loader of a vectors file for every command, a language model's
//! embedding matrix (`load_model`) and a Parquet table (`load_parquet`) included.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use embedscope::Embeddings;
use embedscope::io;
use embedscope::io::fasttext::{self, FastTextModel, Limits};
use embedscope::io::open::{self, Companion, OpenOptions, OpenPlan, plan};
use embedscope::io::parquet::{self, SparkMetadata, TableInfo};
use embedscope::io::{VectorFormat, VectorsParser};
use embedscope::lm::{self, MatrixPlan, ModelFormat, ModelInfo, Tokens};

use crate::args::{Args, Opt, optional};
use crate::input::{Input, file_head, open_input, read_all, several_files, split_entry};
use crate::progress::Bar;

/// Where a command's VECTORS get what the file itself may lack: a Projector file's words,
/// a model's tokenizer, and which of a model's tensors is the matrix.
#[derive(Debug, Default)]
pub(crate) struct Sources {
    metadata: Option<String>,
    tokenizer: Option<String>,
    tensor: Option<String>,
    columns: Option<String>,
    max_words: Option<String>,
}

impl Sources {
    /// The options every command reading VECTORS takes.
    pub(crate) fn options() -> Vec<Opt> {
        vec![
            optional("--metadata", "FILE", "the words of a Projector vectors.tsv"),
            optional("--tokenizer", "FILE", "a model's tokenizer.json (default: the one beside it)"),
            optional("--tensor", "NAME", "a model's tensor to read (default: its token embeddings)"),
            optional(
                "--columns",
                "WORD,VECTOR",
                "a Parquet table's columns of words and vectors (default: found)",
            ),
            optional("--max-words", "N", "a fastText model's N most frequent words kept (default: all)"),
        ]
    }

    /// Which options were given, for the core's plan to refuse one given for a file it does
    /// not apply to.
    fn open_options(&self) -> OpenOptions {
        OpenOptions {
            metadata: self.metadata.is_some(),
            tokenizer: self.tokenizer.is_some(),
            tensor: self.tensor.is_some(),
            columns: self.columns.is_some(),
            max_words: self.max_words.is_some(),
            vectors_only: true,
        }
    }

    /// The values of [`Sources::options`] given.
    pub(crate) fn take(args: &mut Args) -> Sources {
        Sources {
            metadata: args.take("--metadata").flatten(),
            tokenizer: args.take("--tokenizer").flatten(),
            tensor: args.take("--tensor").flatten(),
            columns: args.take("--columns").flatten(),
            max_words: args.take("--max-words").flatten(),
        }
    }
}

/// Loads the vectors file at `path`, whatever its format, as the core's plan says
/// ([`plan_for`]): a format sniffed from its first bytes, else guessed from its name or its
/// first line ([`VectorFormat::guess`]), so the reader of the likely format says what is
/// wrong. A Projector `vectors.tsv` takes its words from `metadata`, by default from the
/// file [`metadata_path_for`] names if it exists (or the one beside it in a zip of the
/// pair), else row numbers.
///
/// Errors are one line naming the file at fault, e.g.
/// `vectors.txt: malformed vectors file, line 7: expected 100 values after 'night', found 99`.
pub(crate) fn load_vectors(path: &str, sources: &Sources) -> Result<Embeddings, String> {
    let (format, paired) = match plan_for(path, sources)? {
        OpenPlan::FastText { .. } => {
            return load_fasttext(path, sources, false).map(|model| model.embeddings);
        }
        OpenPlan::Model { .. } => return load_model(path, sources, false).map(|(embeddings, _)| embeddings),
        OpenPlan::Table { .. } => {
            return load_parquet(path, sources, false).map(|(embeddings, _)| embeddings);
        }
        OpenPlan::Bundle { .. } => return load_bundle(path),
        OpenPlan::Vectors { format, metadata, .. } => (format, metadata),
        OpenPlan::ChooseEntry { entries, .. } => return Err(several_files(split_entry(path).0, &entries)),
        OpenPlan::Text { .. } => return Err(format!("{path} holds no vectors")),
    };
    let Input { reader: file, .. } = open_input(path)?;
    // A zip of the Projector's pair names its metadata.tsv as ARCHIVE.zip:ENTRY.
    let paired = match paired {
        Some(Companion::Entry(entry)) => Some(format!("{}:{entry}", split_entry(path).0)),
        _ => None,
    };
    let (mut parser, note) = match format {
        VectorFormat::ProjectorTsv => {
            projector_parser(path, sources.metadata.as_deref().or(paired.as_deref()))?
        }
        _ => (VectorsParser::new(format), None),
    };
    parser.push_all(file).map_err(|e| format!("{path}: {e}"))?;
    let encoding = parser.non_utf8_note();
    let embeddings = parser.finish().map_err(|e| format!("{path}: {e}"))?;
    for note in [note, encoding.map(|note| format!("{path}: {note}"))].into_iter().flatten() {
        eprintln!("{note}");
    }
    Ok(embeddings)
}

/// What the file or folder at `path` is and how to open it, with the options given: the
/// core's [`plan`] of its first bytes (a folder is a Parquet table's).
pub(crate) fn plan_for(path: &str, sources: &Sources) -> Result<OpenPlan, String> {
    let options = OpenOptions { vectors_only: true, ..sources.open_options() };
    if Path::new(path).is_dir() {
        open::table_options(path, &options).map_err(|refused| refused.to_string())?;
        return Ok(OpenPlan::Table { parts: Vec::new(), spark: None });
    }
    plan(&[file_head(path)?], &options).map_err(|refused| refused.to_string())
}

/// The bundle at `path`.
fn load_bundle(path: &str) -> Result<Embeddings, String> {
    let mut text = String::new();
    open_input(path)?
        .reader
        .read_to_string(&mut text)
        .map_err(|_| format!("{path}: a bundle must be UTF-8"))?;
    io::read_bundle(&text).map(|bundle| bundle.embeddings).map_err(|e| format!("{path}: {e}"))
}

/// The parser for the Projector `vectors.tsv` at `path`, with the words of `metadata`, by
/// default of the file [`metadata_path_for`] names if it exists; without one, also a note
/// to show that the words are row numbers.
pub(crate) fn projector_parser(
    path: &str,
    metadata: Option<&str>,
) -> Result<(VectorsParser, Option<String>), String> {
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
pub(crate) fn metadata_path_for(vectors_path: &str) -> PathBuf {
    let path = Path::new(vectors_path);
    let name = path.file_name().map(|name| name.to_string_lossy()).unwrap_or_default();
    path.with_file_name(io::compressed::metadata_name_for(&name))
}

/// The text of a `metadata.tsv`; invalid UTF-8 is an error naming its line.
pub(crate) fn read_metadata(path: &Path) -> Result<String, String> {
    let shown = path.to_string_lossy();
    let bytes = read_all(&shown)?;
    String::from_utf8(bytes).map_err(|err| {
        let valid = &err.as_bytes()[..err.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        format!("{shown}: invalid UTF-8 on line {line}")
    })
}

/// The token-embedding matrix of the model at `path` (a `.safetensors`, a sharded model's
/// `model.safetensors.index.json`, or a `.gguf`), its rows named by `--tokenizer`, else by
/// the `tokenizer.json` beside it (a safetensors model) or the file's own tokenizer (GGUF);
/// with what the matrix is. `quiet` hides the progress bar.
pub(crate) fn load_model(
    path: &str,
    sources: &Sources,
    quiet: bool,
) -> Result<(Embeddings, ModelInfo), String> {
    let (file_path, chosen) = if path.ends_with(".json") {
        let index = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let index = lm::safetensors::ShardIndex::read(&index).map_err(|e| format!("{path}: {e}"))?;
        let (tensor, shard) =
            index.embedding_shard(sources.tensor.as_deref()).map_err(|e| format!("{path}: {e}"))?;
        (Path::new(path).with_file_name(shard), Some(tensor.to_string()))
    } else {
        (PathBuf::from(path), sources.tensor.clone())
    };
    let shown = file_path.to_string_lossy().into_owned();
    let mut file = File::open(&file_path).map_err(|e| format!("cannot open {shown}: {e}"))?;
    let file_len = file.metadata().map_err(|e| format!("cannot read {shown}: {e}"))?.len();
    let mut head = [0u8; 9];
    let n = file.read(&mut head).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let format = ModelFormat::sniff(&head[..n])
        .ok_or_else(|| format!("{shown}: not a safetensors or GGUF file (its first bytes are neither)"))?;
    let header = lm::read_file_header(&mut file, format, file_len).map_err(|e| format!("{shown}: {e}"))?;
    let tokenizer = match (&sources.tokenizer, format) {
        (Some(given), _) => Some(read_tokenizer(Path::new(given))?),
        (None, ModelFormat::Safetensors) => {
            let beside = file_path.with_file_name("tokenizer.json");
            if beside.exists() {
                Some(read_tokenizer(&beside)?)
            } else {
                eprintln!(
                    "note: no tokenizer.json beside {shown} (give one with --tokenizer), so its rows are named by their token ids"
                );
                None
            }
        }
        (None, ModelFormat::Gguf) => None,
    };
    let name = file_path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let plan = MatrixPlan::new(
        &name,
        file_len,
        &header,
        chosen.as_deref(),
        tokenizer.as_ref().map(|(t, s)| (t.clone(), s.as_str())),
    )
    .map_err(|e| format!("{shown}: {e}"))?;
    let bar = Bar::new(quiet, "reading");
    let tensor = plan.info().tensor.clone();
    let read = lm::read_matrix(&mut file, plan, |read, rows| {
        bar.set(read as u64, rows as u64, format!("{tensor}: {read} of {rows} rows"))
    });
    bar.finish();
    read.map_err(|e| format!("{shown}: {e}"))
}

/// The tokens of the `tokenizer.json` at `path`, and where they came from.
fn read_tokenizer(path: &Path) -> Result<(Tokens, String), String> {
    let shown = path.to_string_lossy();
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let tokens = Tokens::from_tokenizer_json(&bytes).map_err(|e| format!("{shown}: {e}"))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    Ok((tokens, name))
}

/// The vectors of the Parquet table at `path`: a `.parquet` file, or a folder of part files
/// (a Spark `Word2VecModel` folder's `data/`, found by itself when `path` is the model's
/// folder, whose `metadata/` then says what the model is). `--columns WORD,VECTOR` names the
/// columns when the table has several candidates. `quiet` hides the progress bar.
pub(crate) fn load_parquet(
    path: &str,
    sources: &Sources,
    quiet: bool,
) -> Result<(Embeddings, TableInfo), String> {
    let chosen = match &sources.columns {
        Some(given) => match given.split_once(',') {
            Some((word, vector)) if !word.is_empty() && !vector.is_empty() && !vector.contains(',') => {
                Some((word, vector))
            }
            _ => return Err(format!("--columns takes two column names, WORD,VECTOR, not '{given}'")),
        },
        None => None,
    };
    let given = Path::new(path);
    let (paths, spark) = if given.is_dir() {
        let data = if given.join("data").is_dir() { given.join("data") } else { given.to_path_buf() };
        let paths = part_files(&data)?;
        let metadata =
            [given.join("metadata"), data.with_file_name("metadata")].into_iter().find(|m| m.is_dir());
        (paths, metadata.map(|m| spark_metadata(&m)).transpose()?.flatten())
    } else {
        (vec![given.to_path_buf()], None)
    };
    let mut files = Vec::with_capacity(paths.len());
    for file_path in &paths {
        let shown = file_path.to_string_lossy().into_owned();
        let file = File::open(file_path).map_err(|e| format!("cannot open {shown}: {e}"))?;
        let len = file.metadata().map_err(|e| format!("cannot read {shown}: {e}"))?.len();
        files.push((shown, file, len));
    }
    let bar = Bar::new(quiet, "reading");
    let read = parquet::read_tables(files, chosen, spark, |read, rows| {
        bar.set(read as u64, rows, format!("{read} of {rows} rows"))
    });
    bar.finish();
    let (embeddings, info) = read.map_err(|e| {
        let message = e.to_string();
        let hint = if message.contains("choose the columns") { " (--columns WORD,VECTOR)" } else { "" };
        if given.is_dir() { format!("{path}: {message}{hint}") } else { format!("{message}{hint}") }
    })?;
    eprintln!("note: {path}: {}", info.note());
    Ok((embeddings, info))
}

/// The Parquet part files in `dir`, by name (Spark's `part-00000-…` order): the files that
/// start as Parquet does, leaving out hidden files and Spark's `_SUCCESS` and checksums.
fn part_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let shown = dir.to_string_lossy();
    let mut parts = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| format!("cannot read the folder {shown}: {e}"))? {
        let path = entry.map_err(|e| format!("cannot read the folder {shown}: {e}"))?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name.starts_with('.') || name.starts_with('_') || !path.is_file() {
            continue;
        }
        let mut head = [0u8; 4];
        let starts_as_parquet =
            File::open(&path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && parquet::sniff(&head);
        if starts_as_parquet {
            parts.push(path);
        }
    }
    parts.sort();
    if parts.is_empty() {
        return Err(format!(
            "{shown} holds no Parquet file: give a Spark model's folder (its data/ holds the part files), a folder of .parquet files, or a .parquet file"
        ));
    }
    Ok(parts)
}

/// What the Spark model's `metadata/` folder says (its `part-*` file), or `None` when it
/// holds none.
fn spark_metadata(dir: &Path) -> Result<Option<SparkMetadata>, String> {
    let mut parts: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read the folder {}: {e}", dir.to_string_lossy()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("part-")))
        .collect();
    parts.sort();
    let Some(first) = parts.first() else { return Ok(None) };
    let shown = first.to_string_lossy();
    let text = std::fs::read_to_string(first).map_err(|e| format!("cannot read {shown}: {e}"))?;
    SparkMetadata::read(&text).map(Some).map_err(|e| format!("{shown}: {e}"))
}

/// The fastText model at `path`: every word and the n-gram buckets, or the `--max-words`
/// most frequent words. Says on stderr what was not kept and which words are not UTF-8.
/// `quiet` hides the progress bar.
pub(crate) fn load_fasttext(path: &str, sources: &Sources, quiet: bool) -> Result<FastTextModel, String> {
    let max_words = match &sources.max_words {
        Some(n) => match n.parse::<usize>() {
            Ok(n) if n > 0 => Some(n),
            _ => return Err(format!("--max-words takes a number of words of at least 1, not '{n}'")),
        },
        None => None,
    };
    let file = File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
    let file_len = file.metadata().map_err(|e| format!("cannot read {path}: {e}"))?.len();
    let bar = Bar::new(quiet, "reading");
    let limits = Limits { max_words, ..Limits::ALL };
    let read =
        fasttext::read_fasttext(std::io::BufReader::new(file), file_len, limits, |what, done, total| {
            bar.set(done, total, format!("{what}: {done} of {total}"))
        });
    bar.finish();
    let model = read.map_err(|e| format!("{path}: {e}"))?;
    if model.info.kept_words < model.info.words || model.info.buckets == fasttext::BucketsKept::No {
        eprintln!("{path}: {}", model.info.kept());
    }
    if let Some(note) = model.info.non_utf8_note() {
        eprintln!("{path}: {note}");
    }
    Ok(model)
}

#[cfg(test)]
mod tests {
    use embedscope::io::{Compression, FileHead};
    use serde_json::Value;

    use super::*;

    fn bytes(hex: &str) -> Vec<u8> {
        (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect()
    }

    /// A file's head as the fixture holds it: as the page read it.
    fn page_head(file: &Value) -> FileHead {
        let text = |key: &str| file[key].as_str().map(str::to_string);
        FileHead {
            name: text("name").unwrap(),
            compression: file["compression"].as_str().and_then(Compression::from_name),
            entries: file["entries"].as_array().unwrap().iter().map(|e| e.as_str().unwrap().into()).collect(),
            entry: text("entry"),
            inner_name: text("innerName").unwrap(),
            head: bytes(file["head"].as_str().unwrap()),
        }
    }

    /// The table of files of `io::open` (tests/shared/open-plans.json): each file given
    /// alone, written to disk, gets from the command line's decision the plan or the message
    /// the core gives the heads the page read of it (the command line asking for vectors,
    /// so a text is read as its likeliest format, and naming the file by its path).
    #[test]
    fn the_command_line_opens_every_file_of_the_table_as_the_page_does() {
        let fixture: Value =
            serde_json::from_str(include_str!("../../../tests/shared/open-plans.json")).unwrap();
        let dir = std::env::temp_dir().join(format!("embedscope-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let prefix = format!("{}/", dir.to_string_lossy());
        let mut checked = 0;
        for case in fixture.as_array().unwrap() {
            let [file] = &case["files"].as_array().unwrap()[..] else { continue };
            let path = dir.join(file["name"].as_str().unwrap());
            std::fs::write(&path, bytes(file["raw"].as_str().unwrap())).unwrap();
            let mut path = path.to_string_lossy().into_owned();
            if let Some(entry) = case["entry"].as_str() {
                path = format!("{path}:{entry}");
            }
            let flag = |key: &str| case["options"][key].as_bool().unwrap();
            let given = |key: &str| flag(key).then(|| "given".to_string());
            let sources = Sources {
                metadata: given("metadata"),
                tokenizer: given("tokenizer"),
                tensor: given("tensor"),
                columns: given("columns"),
                max_words: given("maxWords"),
            };
            let got = plan_for(&path, &sources).map_err(|message| message.replace(&prefix, ""));
            let options = OpenOptions {
                metadata: flag("metadata"),
                tokenizer: flag("tokenizer"),
                tensor: flag("tensor"),
                columns: flag("columns"),
                max_words: flag("maxWords"),
                vectors_only: true,
            };
            let expected = plan(&[page_head(file)], &options).map_err(|refused| refused.0);
            assert_eq!(got, expected, "{path}");
            checked += 1;
        }
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(checked >= 30, "{checked} files checked");
    }
}
