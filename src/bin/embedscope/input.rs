//! `open_input`, how every command opens a file it reads (a corpus, VECTORS, a benchmark, a
//! `metadata.tsv`): a plain file as it is, a gzip, bzip2, xz or zip file as the file inside
//! (told by its first bytes, whatever its name), and `ARCHIVE.zip:ENTRY` as that entry of a
//! zip of several files.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use embedscope::io::compressed::projector_pair;
use embedscope::io::{Compressed, Compression};

/// A file a command reads, opened.
pub(crate) struct Input {
    /// Its bytes: the file's, or the file's inside a compressed one.
    pub(crate) reader: Box<dyn Read>,
    /// The name the format may be guessed from: the file's, or the one inside
    /// (`vectors.bin.gz`: `vectors.bin`; a zip's entry: its name).
    pub(crate) name: String,
    /// Its compression, if any.
    pub(crate) compression: Option<Compression>,
    /// When it is the `vectors.tsv` of a zip holding the Embedding Projector's pair, the
    /// `ARCHIVE.zip:ENTRY` of the `metadata.tsv` beside it.
    pub(crate) metadata: Option<String>,
}

/// What the help says about compressed files.
pub(crate) const COMPRESSED_TEXT: &str = "\
Any file may be compressed with gzip, bzip2 or xz, or be a zip holding it (told from its
first bytes, whatever its name; a compressed file in a zip too); a zip of several files is
named as ARCHIVE.zip:ENTRY, e.g. corpora.zip:text8, except a zip of a Projector
vectors.tsv and its metadata.tsv, which opens as the pair.";

/// Opens `path` (see the module documentation). Errors are one line naming the file: a
/// zip of several files and no entry named lists them and says how to name one.
pub(crate) fn open_input(path: &str) -> Result<Input, String> {
    open_as(path, "open")
}

/// [`open_input`], a missing file said as "cannot {verb} PATH".
fn open_as(path: &str, verb: &str) -> Result<Input, String> {
    let (file_path, entry) = split_entry(path);
    let file = File::open(file_path).map_err(|e| format!("cannot {verb} {path}: {e}"))?;
    let name =
        Path::new(file_path).file_name().map_or(file_path.to_string(), |n| n.to_string_lossy().into_owned());
    let Some(compressed) = Compressed::open(file).map_err(|e| format!("{file_path}: {e}"))? else {
        if entry.is_some() {
            return Err(format!("{file_path} is not a zip archive, so it holds no {path} to open"));
        }
        let reader = Box::new(File::open(file_path).map_err(|e| format!("cannot {verb} {path}: {e}"))?);
        return Ok(Input { reader, name, compression: None, metadata: None });
    };
    let compression = compressed.compression();
    let names: Vec<&str> = compressed.entries().iter().map(|e| e.name.as_str()).collect();
    // The Projector's pair opens as its vectors.tsv, the words from the metadata.tsv beside it.
    let pair = projector_pair(&names).map(|(vectors, metadata)| (names[vectors], names[metadata]));
    let (entry, metadata) = match (entry, pair) {
        (None, Some((vectors, metadata))) => (Some(vectors), Some(metadata)),
        (Some(entry), Some((vectors, metadata))) if entry == vectors => (Some(entry), Some(metadata)),
        (entry, _) => (entry, None),
    };
    if entry.is_none() && names.len() > 1 {
        return Err(format!(
            "{file_path} holds {} files ({}): name the one to open as {file_path}:ENTRY, e.g. {file_path}:{}",
            names.len(),
            names.join(", "),
            names[0]
        ));
    }
    let metadata = metadata.map(|metadata| format!("{file_path}:{metadata}"));
    // Owned, as reading the entry ends the archive its name is borrowed from.
    let entry = entry.map(str::to_string);
    let reader = compressed.into_reader(entry.as_deref()).map_err(|e| format!("{path}: {e}"))?;
    let name = reader.name_inside(&name);
    Ok(Input { reader: Box::new(reader), name, compression: Some(compression), metadata })
}

/// `ARCHIVE.zip:ENTRY` as the archive's path and the entry's name; any other path, a file
/// named with a colon included, as itself.
fn split_entry(path: &str) -> (&str, Option<&str>) {
    if Path::new(path).exists() {
        return (path, None);
    }
    match path.split_once(':') {
        Some((archive, entry)) if !entry.is_empty() && Path::new(archive).is_file() => (archive, Some(entry)),
        _ => (path, None),
    }
}

/// The first `len` bytes of the file `path` names (of the file inside a compressed one).
pub(crate) fn read_head(path: &str, len: usize) -> Result<Vec<u8>, String> {
    let mut head = Vec::with_capacity(len);
    open_input(path)?
        .reader
        .take(len as u64)
        .read_to_end(&mut head)
        .map_err(|e| format!("{path}: {}", embedscope::Error::from(e)))?;
    Ok(head)
}

/// The whole of the file `path` names (of the file inside a compressed one).
pub(crate) fn read_all(path: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    open_as(path, "read")?
        .reader
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{path}: {}", embedscope::Error::from(e)))?;
    Ok(bytes)
}
