//! What the files a person gives are, and how to open them: [`plan`] takes each file's name
//! and first bytes ([`FileHead`], read by [`FileHead::read`], inside its compression) and
//! answers with an [`OpenPlan`] or the one message a person reads ([`Refused`]). The
//! command-line tool and the browser worker both follow its answer, so a file is
//! recognised, paired with its companions and refused in one place.
//!
//! # The rules
//!
//! In this order, the first that applies decides:
//!
//! 1. **A zip of several files, none chosen** (and not the Projector's pair): the person
//!    chooses an entry ([`OpenPlan::ChooseEntry`]); given with other files, it is refused.
//! 2. **What is read in place** (a fastText model, a language model's file or a sharded
//!    model's index, a Parquet table) **inside compression** is refused: decompress it first.
//!    These are read a part at a time from where they lie, which a compressed stream cannot give.
//! 3. **A language model**: any safetensors or GGUF file (told by its first bytes), or a
//!    sharded model's index (a name ending in `index.json` whose first bytes hold
//!    `"weight_map"`: the content says it is an index, the name that it is no tokenizer),
//!    with its shards. Its tokenizer is the file named `tokenizer.json`, else the one other
//!    `.json` file; any other file dropped with it (a model folder's `config.json`,
//!    `README.md`) is left alone.
//! 4. **A Parquet table**: every file starting as Parquet does is a part, in the order of
//!    their names, with a Spark model's `metadata/part-00000` if given. Files whose names
//!    start with `.` or `_` (Spark's checksums and `_SUCCESS`) are left out; any other file
//!    is refused, so two tables are never read as one.
//! 5. **A Spark model's metadata alone** is refused: it holds no vectors.
//! 6. One file is a **fastText model**, a **bundle**, **vectors** (their format sniffed from
//!    the first bytes, else guessed from the name: `.bin`, `.tsv`) or, for the page, **a
//!    text to train on**. The command line's VECTORS is never a text: it is read as the
//!    format it most likely is ([`VectorFormat::guess`]), so the reader says what is wrong.
//! 7. **The Projector's pair**: a `vectors.tsv` with the `metadata.tsv` named as
//!    [`metadata_name_for`] pairs them (the names inside any compression), two files given
//!    together or a zip holding just the two. The names decide, as the Projector writes them, so a file that merely mentions
//!    "metadata" is no companion: it is refused, naming the file expected.
//! 8. Any other set of several files is refused.
//!
//! An option given for a file it does not apply to (`--metadata`, `--tokenizer`, `--tensor`,
//! `--columns`, `--max-words`) is refused naming the option and what the file is.

use std::fmt;
use std::io::{Read, Seek, SeekFrom};

use super::compressed::{metadata_name_for, projector_pair};
use super::fasttext;
use super::parquet::{self, SparkMetadata};
use super::{Bundle, Compressed, Compression, VectorFormat};
use crate::error::{Error, Result};
use crate::lm::ModelFormat;

/// How many of a file's first bytes [`plan`] looks at (as [`VectorFormat::sniff`] does).
pub const HEAD_LEN: usize = VectorFormat::SNIFF_LEN;

/// A file given to open: its name and first bytes, inside its compression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHead {
    /// The name the person gave (a dropped file's name, a command's path): messages name it.
    pub name: String,
    /// Its compression, or `None` for a plain file.
    pub compression: Option<Compression>,
    /// A zip's files (as [`Compressed::entries`] lists them); empty for anything else.
    pub entries: Vec<String>,
    /// The zip's entry `head` was read from: the one named, its only one, or the Projector
    /// pair's vectors file; `None` for a zip of several files and no choice (`head` empty).
    pub entry: Option<String>,
    /// The name of the file read, which the format may be guessed from: `name`, or the
    /// name inside ([`crate::io::Decompressed::name_inside`]).
    pub inner_name: String,
    /// Its first [`HEAD_LEN`] bytes (all of it when shorter), after decompression.
    pub head: Vec<u8>,
}

impl FileHead {
    /// A plain file named `name` starting with `head`.
    pub fn plain(name: &str, head: &[u8]) -> FileHead {
        FileHead {
            name: name.to_string(),
            compression: None,
            entries: Vec::new(),
            entry: None,
            inner_name: name.to_string(),
            head: head[..head.len().min(HEAD_LEN)].to_vec(),
        }
    }

    /// Reads the head of the file `name` from `reader` (at its start): of the file inside
    /// when it is compressed, `entry` naming a zip's. A zip of several files and no entry
    /// named gives its entries and no head, unless it is the Projector's pair, which is read
    /// as its vectors file. Fails on a corrupt archive or an entry it does not hold.
    pub fn read<R: Read + Seek + 'static>(
        name: &str,
        mut reader: R,
        entry: Option<&str>,
    ) -> Result<FileHead> {
        let mut raw = Vec::with_capacity(HEAD_LEN);
        (&mut reader).take(HEAD_LEN as u64).read_to_end(&mut raw)?;
        let Some(compression) = Compression::sniff(&raw) else { return Ok(FileHead::plain(name, &raw)) };
        reader.seek(SeekFrom::Start(0))?;
        let compressed = Compressed::open(reader)?
            .ok_or_else(|| Error::Archive("the file changed while it was read".into()))?;
        let entries: Vec<String> = compressed.entries().iter().map(|e| e.name.clone()).collect();
        let chosen = match entry {
            Some(named) => Some(named.to_string()),
            None => entry_to_read(&entries).map(str::to_string),
        };
        let mut head = FileHead {
            name: name.to_string(),
            compression: Some(compression),
            entries,
            entry: chosen.clone(),
            inner_name: name.to_string(),
            head: Vec::new(),
        };
        if compression == Compression::Zip && chosen.is_none() {
            return Ok(head);
        }
        let mut inside = compressed.into_reader(chosen.as_deref())?;
        head.inner_name = inside.name_inside(name);
        (&mut inside).take(HEAD_LEN as u64).read_to_end(&mut head.head)?;
        Ok(head)
    }

    /// Whether it is a zip of several files whose entry is still to be chosen.
    fn needs_choice(&self) -> bool {
        self.compression == Some(Compression::Zip) && self.entry.is_none()
    }

    /// The Projector pair's `metadata.tsv` beside the entry read, when it is a zip of the pair.
    fn paired_entry(&self) -> Option<String> {
        let (vectors, metadata) = projector_pair(&self.entries)?;
        (self.entry.as_deref() == Some(self.entries[vectors].as_str()))
            .then(|| self.entries[metadata].clone())
    }
}

/// The entry of a zip holding `entries` that is read when none is named: its only one, or
/// the Projector pair's vectors file; `None` when the person must choose.
pub fn entry_to_read(entries: &[String]) -> Option<&str> {
    match entries {
        [only] => Some(only),
        _ => projector_pair(entries).map(|(vectors, _)| entries[vectors].as_str()),
    }
}

/// The options a person may give with the files (the command line's flags; the page gives
/// `tensor`, `columns` and `max_words` only once the file asked for them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenOptions {
    /// `--metadata`: the words of a Projector `vectors.tsv`, from a file named apart.
    pub metadata: bool,
    /// `--tokenizer`: a model's `tokenizer.json`, named apart.
    pub tokenizer: bool,
    /// `--tensor`: the model's tensor to read.
    pub tensor: bool,
    /// `--columns`: a Parquet table's word and vector columns.
    pub columns: bool,
    /// `--max-words`: how many of a fastText model's words to keep.
    pub max_words: bool,
    /// The files must be vectors (the command line's VECTORS): one that sniffs as no format
    /// is read as the format it most likely is, never as a text.
    pub vectors_only: bool,
}

/// What the files are and how to open them; numbers index the files given to [`plan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenPlan {
    /// A text to train on.
    Text { file: usize },
    /// Vectors in `format`, a Projector `vectors.tsv` with the words of `metadata` if any.
    Vectors { file: usize, format: VectorFormat, metadata: Option<Companion> },
    /// An embedscope bundle.
    Bundle { file: usize },
    /// A fastText `.bin` model.
    FastText { file: usize },
    /// A language model's embedding matrix: in one of `files` (safetensors or GGUF; with
    /// several and no index, the one whose header names the token embeddings), or in the
    /// shard of them that the sharded model's `index` names; the rows named by `tokenizer`.
    Model { files: Vec<usize>, index: Option<usize>, tokenizer: Option<usize> },
    /// A Parquet table of vectors: its `parts` in the order of their names, with a Spark
    /// model's metadata file.
    Table { parts: Vec<usize>, spark: Option<usize> },
    /// A zip of several files: the person chooses one of `entries`.
    ChooseEntry { file: usize, entries: Vec<String> },
}

/// Where a Projector `vectors.tsv` finds its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Companion {
    /// Another of the files given.
    File(usize),
    /// The entry beside it in the same zip.
    Entry(String),
}

/// Why the files cannot be opened, as a person reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// What a file is, from its first bytes (and its name where they cannot tell).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    FastText,
    Model,
    ModelIndex,
    Parquet,
    SparkMetadata,
    Bundle,
    Vectors(VectorFormat),
    Other,
}

impl Kind {
    fn of(file: &FileHead) -> Kind {
        let head = &file.head;
        if fasttext::sniff(head) {
            Kind::FastText
        } else if ModelFormat::sniff(head).is_some() {
            Kind::Model
        } else if parquet::sniff(head) {
            Kind::Parquet
        } else if SparkMetadata::sniff(head) {
            Kind::SparkMetadata
        } else if is_model_index(&file.inner_name, head) {
            Kind::ModelIndex
        } else if Bundle::sniff(head) {
            Kind::Bundle
        } else {
            VectorFormat::sniff(head)
                .or_else(|| VectorFormat::from_file_name(&file.inner_name))
                .map_or(Kind::Other, Kind::Vectors)
        }
    }

    /// What is read in place, a part at a time, so never from inside compression.
    fn read_in_place(self) -> Option<&'static str> {
        match self {
            Kind::FastText => Some("a fastText model"),
            Kind::Model | Kind::ModelIndex => Some("a language model's file"),
            Kind::Parquet => Some("a Parquet table"),
            _ => None,
        }
    }
}

/// Whether a file named `name` starting with `head` is a sharded model's index
/// (`model.safetensors.index.json`).
fn is_model_index(name: &str, head: &[u8]) -> bool {
    const MARK: &[u8] = b"\"weight_map\"";
    name.to_ascii_lowercase().ends_with("index.json") && head.windows(MARK.len()).any(|w| w == MARK)
}

/// Whether a file is left out of a table's files: Spark's `_SUCCESS`, hidden checksums.
pub fn is_ignored(name: &str) -> bool {
    name.starts_with('.') || name.starts_with('_')
}

/// What the `files` given together are and how to open them, or why they cannot be
/// opened: see the module documentation for the rules.
pub fn plan(files: &[FileHead], options: &OpenOptions) -> std::result::Result<OpenPlan, Refused> {
    let refuse = |message: String| Err(Refused(message));
    if files.is_empty() {
        return refuse("no file was given".into());
    }
    if let Some(file) = files.iter().position(FileHead::needs_choice) {
        let zip = &files[file];
        if files.len() > 1 {
            return refuse(format!(
                "{} holds {} files: open it by itself, and choose one",
                zip.name,
                zip.entries.len()
            ));
        }
        return Ok(OpenPlan::ChooseEntry { file, entries: zip.entries.clone() });
    }
    let kinds: Vec<Kind> = files.iter().map(Kind::of).collect();
    for (file, kind) in files.iter().zip(&kinds) {
        if let (Some(compression), Some(what)) = (file.compression, kind.read_in_place()) {
            return refuse(format!(
                "{}: {what} inside {compression} compression: decompress it first (it is read in place, a part \
                 at a time)",
                file.name
            ));
        }
    }
    let first = |wanted: fn(Kind) -> bool| kinds.iter().position(|&k| wanted(k));
    if let Some(file) = first(|k| matches!(k, Kind::Model | Kind::ModelIndex)) {
        check_options(&files[file].name, Kind::Model, options)?;
        return Ok(model_plan(files, &kinds));
    }
    if let Some(file) = first(|k| k == Kind::Parquet) {
        check_options(&files[file].name, Kind::Parquet, options)?;
        return table_plan(files, &kinds);
    }
    if let Some(file) = first(|k| k == Kind::SparkMetadata) {
        return refuse(format!(
            "{} is a Spark model's metadata: open it together with the model's data/ part files, or open the \
             model's folder",
            files[file].name
        ));
    }
    if files.len() > 1 {
        return several_plan(files, &kinds, options);
    }
    let file = &files[0];
    let kind = match kinds[0] {
        Kind::Other if options.vectors_only => {
            Kind::Vectors(VectorFormat::guess(&file.head, &file.inner_name))
        }
        kind => kind,
    };
    check_options(&file.name, kind, options)?;
    Ok(match kind {
        Kind::FastText => OpenPlan::FastText { file: 0 },
        Kind::Bundle => OpenPlan::Bundle { file: 0 },
        Kind::Vectors(format) => {
            let metadata = match format {
                VectorFormat::ProjectorTsv => file.paired_entry().map(Companion::Entry),
                _ => None,
            };
            OpenPlan::Vectors { file: 0, format, metadata }
        }
        _ => OpenPlan::Text { file: 0 },
    })
}

/// A language model's files: its model files, its index, and its tokenizer.
fn model_plan(files: &[FileHead], kinds: &[Kind]) -> OpenPlan {
    let model_files = (0..files.len()).filter(|&i| kinds[i] == Kind::Model).collect();
    let index = kinds.iter().position(|&k| k == Kind::ModelIndex);
    let jsons: Vec<usize> = (0..files.len())
        .filter(|&i| {
            kinds[i] != Kind::ModelIndex && files[i].inner_name.to_ascii_lowercase().ends_with(".json")
        })
        .collect();
    let named = jsons.iter().copied().find(|&i| {
        let name = files[i].inner_name.to_ascii_lowercase();
        name == "tokenizer.json" || name.ends_with("/tokenizer.json")
    });
    let tokenizer = named.or(match jsons[..] {
        [only] => Some(only),
        _ => None,
    });
    OpenPlan::Model { files: model_files, index, tokenizer }
}

/// A Parquet table's part files and Spark metadata; any other file is refused.
fn table_plan(files: &[FileHead], kinds: &[Kind]) -> std::result::Result<OpenPlan, Refused> {
    let others: Vec<&str> = (0..files.len())
        .filter(|&i| !matches!(kinds[i], Kind::Parquet | Kind::SparkMetadata) && !is_ignored(&files[i].name))
        .map(|i| files[i].name.as_str())
        .collect();
    if !others.is_empty() {
        return Err(Refused(format!(
            "{}: open the Parquet part files of one table alone (a Spark model's folder, or its data/ files)",
            others.join(", ")
        )));
    }
    let mut parts: Vec<usize> = (0..files.len()).filter(|&i| kinds[i] == Kind::Parquet).collect();
    parts.sort_by(|&a, &b| files[a].name.cmp(&files[b].name));
    let spark = kinds.iter().position(|&k| k == Kind::SparkMetadata);
    Ok(OpenPlan::Table { parts, spark })
}

/// Several files that are no model's and no table's: the Projector's pair, or a refusal.
fn several_plan(
    files: &[FileHead],
    kinds: &[Kind],
    options: &OpenOptions,
) -> std::result::Result<OpenPlan, Refused> {
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    // Paired by the names inside, so a gzipped vectors.tsv still finds its metadata.tsv.
    let inner: Vec<&str> = files.iter().map(|f| f.inner_name.as_str()).collect();
    let is_tsv = |i: usize| kinds[i] == Kind::Vectors(VectorFormat::ProjectorTsv);
    // A metadata.tsv is a .tsv too: the vectors file is the one whose rows are numbers.
    let tsv =
        (0..files.len()).find(|&i| VectorFormat::sniff(&files[i].head) == Some(VectorFormat::ProjectorTsv));
    if let Some((vectors, metadata)) = projector_pair(&inner).filter(|&(vectors, _)| is_tsv(vectors)) {
        check_options(&files[vectors].name, kinds[vectors], options)?;
        let metadata = Some(Companion::File(metadata));
        return Ok(OpenPlan::Vectors { file: vectors, format: VectorFormat::ProjectorTsv, metadata });
    }
    if let (Some(vectors), 2) = (tsv, files.len()) {
        let other = &files[1 - vectors];
        return Err(Refused(format!(
            "{}: a Projector vectors file takes its words from the metadata file named as it is, {}, not {}",
            files[vectors].name,
            metadata_name_for(&files[vectors].inner_name),
            other.name
        )));
    }
    if kinds.iter().all(|&k| k == Kind::Other) {
        return Err(Refused("open one text at a time (or a vectors.tsv with its metadata.tsv)".into()));
    }
    Err(Refused(format!(
        "{}: open one vectors file at a time (or a vectors.tsv with its metadata.tsv, or a model's or a table's \
         files together)",
        names.join(", ")
    )))
}

/// Refuses an option given with the Parquet table `name` (a folder of part files, which the
/// command line lists itself) that does not apply to a table.
pub fn table_options(name: &str, options: &OpenOptions) -> std::result::Result<(), Refused> {
    check_options(name, Kind::Parquet, options)
}

/// Refuses an option given for a file of `kind` it does not apply to.
fn check_options(name: &str, kind: Kind, options: &OpenOptions) -> std::result::Result<(), Refused> {
    let model = "a model's .safetensors or .gguf file";
    let rules = [
        (
            options.metadata,
            "--metadata",
            "a Projector vectors.tsv",
            kind == Kind::Vectors(VectorFormat::ProjectorTsv),
        ),
        (options.tokenizer, "--tokenizer", model, kind == Kind::Model),
        (options.tensor, "--tensor", model, kind == Kind::Model),
        (options.columns, "--columns", "a Parquet table", kind == Kind::Parquet),
        (options.max_words, "--max-words", "a fastText .bin model", kind == Kind::FastText),
    ];
    match rules.into_iter().find(|&(given, _, _, applies)| given && !applies) {
        Some((_, option, target, _)) => {
            Err(Refused(format!("{option} only applies to {target}, and {name} is {}", described(kind))))
        }
        None => Ok(()),
    }
}

/// What a file of `kind` is, for a message.
fn described(kind: Kind) -> &'static str {
    match kind {
        Kind::FastText => "a fastText model",
        Kind::Model | Kind::ModelIndex => "a model's file",
        Kind::Parquet => "a Parquet table",
        Kind::SparkMetadata => "a Spark model's metadata",
        Kind::Bundle => "an embedscope bundle",
        Kind::Vectors(format) => format.name(),
        Kind::Other => "a text",
    }
}

/// The message for a sharded model's index whose `shard` (holding `tensor`) was not given
/// with it.
pub fn shard_missing(index: &str, tensor: &str, shard: &str) -> Refused {
    Refused(format!(
        "{index} puts {tensor} in {shard}: open that file together with the index (and tokenizer.json)"
    ))
}

#[cfg(test)]
#[path = "open_tests.rs"]
mod tests;
