//! `load_vectors`, the one loader of a vectors file for every command.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use embedscope::Embeddings;
use embedscope::io;
use embedscope::io::{VectorFormat, VectorsParser};

/// Loads the vectors file at `path`, whatever its format: sniffed from its first bytes, else
/// guessed from its name or its first line ([`VectorFormat::guess`]), so the reader of the
/// likely format says what is wrong. A Projector `vectors.tsv` takes its words from
/// `metadata`, by default from the file [`metadata_path_for`] names if it exists, else row
/// numbers.
///
/// Errors are one line naming the file at fault, e.g.
/// `vectors.txt: malformed vectors file, line 7: expected 100 values after 'night', found 99`.
pub(crate) fn load_vectors(path: &str, metadata: Option<&str>) -> Result<Embeddings, String> {
    let mut file = File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
    let mut head = Vec::with_capacity(VectorFormat::SNIFF_LEN);
    (&mut file)
        .take(VectorFormat::SNIFF_LEN as u64)
        .read_to_end(&mut head)
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if io::Bundle::sniff(&head) {
        let mut text = String::from_utf8(head).map_err(|_| format!("{path}: a bundle must be UTF-8"))?;
        file.read_to_string(&mut text).map_err(|e| format!("cannot read {path}: {e}"))?;
        return io::read_bundle(&text).map(|bundle| bundle.embeddings).map_err(|e| format!("{path}: {e}"));
    }
    let format = VectorFormat::guess(&head, path);
    let (parser, note) = match (format, metadata) {
        (VectorFormat::ProjectorTsv, _) => projector_parser(path, metadata)?,
        (_, Some(given)) => {
            return Err(format!(
                "--metadata {given} only applies to a Projector vectors.tsv, and {path} is {format}"
            ));
        }
        (_, None) => (VectorsParser::new(format), None),
    };
    let embeddings = parser.read_all((&head[..]).chain(file)).map_err(|e| format!("{path}: {e}"))?;
    if let Some(note) = note {
        eprintln!("{note}");
    }
    Ok(embeddings)
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
    let metadata_name = match name.rfind("vectors") {
        Some(at) => format!("{}metadata{}", &name[..at], &name[at + "vectors".len()..]),
        None => "metadata.tsv".to_string(),
    };
    path.with_file_name(metadata_name)
}

/// The text of a `metadata.tsv`; invalid UTF-8 is an error naming its line.
pub(crate) fn read_metadata(path: &Path) -> Result<String, String> {
    let shown = path.to_string_lossy();
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    String::from_utf8(bytes).map_err(|err| {
        let valid = &err.as_bytes()[..err.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        format!("{shown}: invalid UTF-8 on line {line}")
    })
}
