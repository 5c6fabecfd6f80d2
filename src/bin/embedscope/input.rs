//! `open_input`, how every command opens a file it reads (a corpus, VECTORS, a benchmark, a
//! `metadata.tsv`): a plain file as it is, a gzip, bzip2, xz or zip file as the file inside
//! (told by its first bytes, whatever its name), and `ARCHIVE.zip:ENTRY` as that entry of a
//! zip of several files.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use embedscope::io::open::entry_to_read;
use embedscope::io::{Compressed, FileHead};

/// A file a command reads, opened.
pub(crate) struct Input {
    /// Its bytes: the file's, or the file's inside a compressed one.
    pub(crate) reader: Box<dyn Read>,
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
    let Some(compressed) = Compressed::open(file).map_err(|e| format!("{file_path}: {e}"))? else {
        if entry.is_some() {
            return Err(format!("{file_path} is not a zip archive, so it holds no {path} to open"));
        }
        let reader = Box::new(File::open(file_path).map_err(|e| format!("cannot {verb} {path}: {e}"))?);
        return Ok(Input { reader });
    };
    let names: Vec<String> = compressed.entries().iter().map(|e| e.name.clone()).collect();
    // The Projector's pair opens as its vectors.tsv (the caller's plan finds its metadata.tsv).
    let entry = entry.or_else(|| entry_to_read(&names));
    if entry.is_none() && names.len() > 1 {
        return Err(several_files(file_path, &names));
    }
    // Owned, as reading the entry ends the archive its name is borrowed from.
    let entry = entry.map(str::to_string);
    let reader = compressed.into_reader(entry.as_deref()).map_err(|e| format!("{path}: {e}"))?;
    Ok(Input { reader: Box::new(reader) })
}

/// The refusal of a zip of several files none of which is named: the command line cannot
/// ask, so it says how to name one.
pub(crate) fn several_files(file_path: &str, names: &[String]) -> String {
    format!(
        "{file_path} holds {} files ({}): name the one to open as {file_path}:ENTRY, e.g. {file_path}:{}",
        names.len(),
        names.join(", "),
        names.first().map_or("", String::as_str)
    )
}

/// The name and first bytes of the file `path` names (of the file inside a compressed one,
/// `ARCHIVE.zip:ENTRY` naming a zip's entry), for the core's plan of how to open it.
pub(crate) fn file_head(path: &str) -> Result<FileHead, String> {
    let (file_path, entry) = split_entry(path);
    let file = File::open(file_path).map_err(|e| format!("cannot open {path}: {e}"))?;
    if entry.is_some() && embedscope::io::Compression::sniff(&read_head_raw(file_path)?).is_none() {
        return Err(format!("{file_path} is not a zip archive, so it holds no {path} to open"));
    }
    FileHead::read(file_path, file, entry).map_err(|e| format!("{path}: {e}"))
}

/// The first bytes of the file at `path` as they are.
fn read_head_raw(path: &str) -> Result<Vec<u8>, String> {
    let mut head = Vec::new();
    File::open(path)
        .and_then(|f| f.take(16).read_to_end(&mut head))
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    Ok(head)
}

/// `ARCHIVE.zip:ENTRY` as the archive's path and the entry's name; any other path, a file
/// named with a colon included, as itself.
pub(crate) fn split_entry(path: &str) -> (&str, Option<&str>) {
    if Path::new(path).exists() {
        return (path, None);
    }
    match path.split_once(':') {
        Some((archive, entry)) if !entry.is_empty() && Path::new(archive).is_file() => (archive, Some(entry)),
        _ => (path, None),
    }
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
