//! Compressed files read as the file inside: gzip, bzip2, xz and zip, told by their magic
//! numbers (whatever the file is called), and inflated as a stream, so a text, a vectors
//! file or a benchmark reads as the plain file would, a slice at a time, and is never
//! inflated whole before it is read.
//!
//! - [`Compression::sniff`]: which compression, from the first bytes.
//! - [`Compressed::open`]: a compressed file opened; for a zip, its central directory read and
//!   [`Compressed::entries`] the files a person may mean (folders and macOS's resource forks
//!   left out).
//! - [`Compressed::into_reader`]: a [`Decompressed`], the file inside as a `Read` (a zip's
//!   entry chosen by name, or its only one), which counts the compressed bytes read
//!   ([`Decompressed::compressed_read`]) so the caller can show progress.
//!
//! gzip and bzip2 files may hold several streams one after another (`cat a.gz b.gz`,
//! Wikipedia's multistream dumps) and xz files several streams too: all are read. A zip's
//! entries may be stored, deflated, bzip2- or xz-compressed; each entry's CRC-32 and size are
//! checked at its end, as gzip's, bzip2's and xz's own checks are by their decoders.
//!
//! **Architecture Invariant:** a compressed file gives the same bytes, hence the same text,
//! vectors or benchmark, as the plain file, however it is read; and no input makes this
//! module panic or inflate without bound: corrupt, truncated and empty files and zip bombs
//! are [`Error::Archive`] with what to do.

use std::fmt;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

/// A compression embedscope reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    Gzip,
    Bzip2,
    Xz,
    Zip,
}

impl Compression {
    /// Every compression read, in the order of the enum.
    pub const ALL: [Compression; 4] =
        [Compression::Gzip, Compression::Bzip2, Compression::Xz, Compression::Zip];

    /// The compression [`Compression::name`] names.
    pub fn from_name(name: &str) -> Option<Compression> {
        Compression::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The bytes [`Compression::sniff`] needs.
    pub const SNIFF_LEN: usize = 10;

    /// The compression of a file starting with `head`, from its magic number; `None` for
    /// anything else (a plain file).
    pub fn sniff(head: &[u8]) -> Option<Compression> {
        let starts = |magic: &[u8]| head.starts_with(magic);
        // A bzip2 stream's "BZh" and block size are followed by a block's magic (the digits
        // of pi) or, for an empty stream, the end-of-stream magic (those of the square root
        // of pi); asking for them keeps a text that starts "BZh9" a text.
        let bzip2_next = |rest: &[u8]| {
            rest.starts_with(b"1AY&SY") || rest.starts_with(&[0x17, 0x72, 0x45, 0x38, 0x50, 0x90])
        };
        if starts(&[0x1F, 0x8B, 0x08]) {
            Some(Compression::Gzip)
        } else if starts(b"BZh")
            && head.get(3).is_some_and(|d| (b'1'..=b'9').contains(d))
            && bzip2_next(&head[4.min(head.len())..])
        {
            Some(Compression::Bzip2)
        } else if starts(&[0xFD, b'7', b'z', b'X', b'Z', 0]) {
            Some(Compression::Xz)
        } else if starts(b"PK\x03\x04") || starts(b"PK\x05\x06") {
            Some(Compression::Zip)
        } else {
            None
        }
    }

    /// Its name for people: "gzip", "bzip2", "xz", "zip".
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
            Compression::Zip => "zip",
        }
    }

    /// The command that tests a copy, for the message of a corrupt file.
    fn test_command(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip -t",
            Compression::Bzip2 => "bzip2 -t",
            Compression::Xz => "xz -t",
            Compression::Zip => "unzip -t",
        }
    }

    /// The name of the file inside a gzip, bzip2 or xz file called `name`: its extension
    /// removed (`kjv.txt.gz`: `kjv.txt`), else `name` itself, so the inner file's format can
    /// still be guessed from its name.
    pub fn inner_name(self, name: &str) -> String {
        let extensions: &[&str] = match self {
            Compression::Gzip => &[".gz", ".gzip"],
            Compression::Bzip2 => &[".bz2", ".bzip2"],
            Compression::Xz => &[".xz"],
            Compression::Zip => &[".zip"],
        };
        let lower = name.to_ascii_lowercase();
        extensions
            .iter()
            .find(|ext| lower.ends_with(*ext) && lower.len() > ext.len())
            .map_or_else(|| name.to_string(), |ext| name[..name.len() - ext.len()].to_string())
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// No file inflates past this many times its compressed size, once past [`RATIO_GRACE`]:
/// English text compresses about 3 to 5 times with any of these four, a vectors file's
/// decimals about 2 to 3 times, while one layer of deflate can reach about 1,030 times and
/// bzip2 and xz far more on the runs of one byte that zip bombs are made of.
pub const MAX_RATIO: u64 = 200;

/// The bytes a file may inflate to before [`MAX_RATIO`] applies, so a small file that
/// compresses very well (a list of repeated lines) still opens.
pub const RATIO_GRACE: u64 = 16 << 20;

/// No file inflates past 64 GiB: published corpora and vectors files inflate to a few GB
/// (the largest fastText and GloVe text files to under 6 GB), and neither the page nor a
/// machine of ordinary size holds more.
pub const MAX_INFLATED: u64 = 64 << 30;

/// xz's decoder may allocate its dictionary: 1 GiB covers every preset (`xz -9e` uses 64 MiB)
/// and refuses a header that asks for the 4 GiB the format allows.
const XZ_MEMORY_KIB: u32 = 1 << 20;

/// The source's bytes read in slices of this size, so each read (a synchronous read of the
/// file in the browser's worker) is worth its cost. The bytes counted are those the decoder
/// takes, which it buffers by at most 32 KiB, so the ratio check is not softened by this.
const SOURCE_BUFFER: usize = 256 << 10;

/// A zip entry a person may mean, as [`Compressed::entries`] lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipEntry {
    pub name: String,
    /// Its inflated size, as the archive's directory says.
    pub size: u64,
    index: usize,
}

/// A compressed file, opened: its compression and, for a zip, its central directory.
pub struct Compressed<R: Read + Seek> {
    compression: Compression,
    read: Arc<AtomicU64>,
    opened: Opened<R>,
    entries: Vec<ZipEntry>,
}

enum Opened<R: Read + Seek> {
    Stream(Counted<BufReader<R>>),
    Zip(zip::ZipArchive<Counted<BufReader<R>>>),
}

impl<R: Read + Seek + 'static> Compressed<R> {
    /// Opens `reader` (at its start) if it is compressed; `Ok(None)` when it is not, the
    /// reader then back at its start. A zip's central directory is read here, so a corrupt
    /// or empty zip fails here.
    pub fn open(mut reader: R) -> Result<Option<Compressed<R>>> {
        let mut head = Vec::with_capacity(Compression::SNIFF_LEN);
        (&mut reader).take(Compression::SNIFF_LEN as u64).read_to_end(&mut head).map_err(read_failed)?;
        reader.seek(SeekFrom::Start(0)).map_err(read_failed)?;
        let Some(compression) = Compression::sniff(&head) else { return Ok(None) };
        let read = Arc::new(AtomicU64::new(0));
        let source = Counted { inner: BufReader::with_capacity(SOURCE_BUFFER, reader), read: read.clone() };
        if compression != Compression::Zip {
            let opened = Opened::Stream(source);
            return Ok(Some(Compressed { compression, read, opened, entries: Vec::new() }));
        }
        let mut archive = zip::ZipArchive::new(source).map_err(|e| zip_error(&e))?;
        let mut entries = Vec::new();
        for index in 0..archive.len() {
            let entry = archive.by_index_raw(index).map_err(|e| zip_error(&e))?;
            let name = entry.name().map_err(|e| zip_error(&e))?.into_owned();
            let hidden = name.starts_with("__MACOSX/")
                || name.rsplit('/').next().is_some_and(|file| file == ".DS_Store" || file.starts_with("._"));
            if !entry.is_dir() && !hidden {
                entries.push(ZipEntry { name, size: entry.size(), index });
            }
        }
        if let Some(kind) = document_kind(&entries) {
            return Err(Error::NotText { kind: kind.to_string() });
        }
        if entries.is_empty() {
            return Err(Error::Archive(
                "this zip archive holds no file (it is empty, or holds only folders): open a zip with a text or \
                 vectors file in it"
                    .into(),
            ));
        }
        Ok(Some(Compressed { compression, read, opened: Opened::Zip(archive), entries }))
    }

    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// A zip's files a person may mean, in the archive's order (folders, `__MACOSX/` and
    /// `.DS_Store` left out); empty for gzip, bzip2 and xz, which hold one file.
    pub fn entries(&self) -> &[ZipEntry] {
        &self.entries
    }

    /// The file inside as a reader. `entry` names a zip's entry (as [`Compressed::entries`]
    /// lists it); `None` takes a zip's only one. gzip, bzip2 and xz hold one file, so for
    /// them `entry` must be `None`.
    ///
    /// Fails with [`Error::Archive`] when `entry` is not in the zip, when a zip holds several
    /// files and none is named, and when the entry is encrypted, compressed in a way not
    /// read here, or declares a size past the limits.
    pub fn into_reader(self, entry: Option<&str>) -> Result<Decompressed> {
        let Compressed { compression, read, opened, entries } = self;
        let mut archive = match opened {
            Opened::Stream(source) => {
                if let Some(name) = entry {
                    return Err(Error::Archive(format!(
                        "a {compression} file holds one file, not several: there is no '{name}' to choose in it"
                    )));
                }
                let decoder = stream_decoder(compression, Box::new(source));
                return Decompressed::layered(compression, decoder, read, None, None);
            }
            Opened::Zip(archive) => archive,
        };
        let chosen = match entry {
            Some(name) => entries.iter().find(|e| e.name == name).ok_or_else(|| {
                Error::Archive(format!(
                    "this zip archive holds no file '{name}'; it holds {}",
                    listed(&entries)
                ))
            })?,
            None if entries.len() == 1 => &entries[0],
            None => {
                return Err(Error::Archive(format!(
                    "this zip archive holds {} files ({}): name the one to open",
                    entries.len(),
                    listed(&entries)
                )));
            }
        };
        let (start, compressed_size, method, crc, size) = {
            let raw = archive.by_index_raw(chosen.index).map_err(|e| zip_error(&e))?;
            if raw.encrypted() {
                return Err(Error::Archive(format!(
                    "'{}' is encrypted (the zip has a password): unzip it yourself and open the file",
                    chosen.name
                )));
            }
            let start = raw
                .data_start()
                .ok_or_else(|| Error::Archive("this zip archive's entry has no data".into()))?;
            (start, raw.compressed_size(), raw.compression(), raw.crc32(), raw.size())
        };
        check_declared(size, compressed_size)?;
        let mut source = archive.into_inner();
        source.seek(SeekFrom::Start(start)).map_err(read_failed)?;
        read.store(0, Ordering::Relaxed);
        let data = source.take(compressed_size);
        use zip::CompressionMethod as Method;
        let decoder: Box<dyn Read> = if method == Method::STORE {
            Box::new(data)
        } else if method == Method::DEFLATE {
            Box::new(flate2::read::DeflateDecoder::new(data))
        } else if method == Method::BZIP2 {
            Box::new(bzip2::read::BzDecoder::new(data))
        } else if method == Method::XZ {
            Box::new(lzma_rust2::XzReader::new_mem_limit(data, false, XZ_MEMORY_KIB))
        } else {
            return Err(Error::Archive(format!(
                "'{}' is compressed with {method}, which embedscope does not read (it reads stored, deflate, \
                 bzip2 and xz entries): unzip it yourself and open the file",
                chosen.name
            )));
        };
        let checked = Box::new(Checked { inner: flate2::CrcReader::new(decoder), crc, size, done: 0 });
        let entry = Some(chosen.name.clone());
        Decompressed::layered(compression, checked, read, Some(compressed_size), entry)
    }
}

/// The decoder of a gzip, bzip2 or xz stream (several one after another read as one).
/// **Unchecked precondition:** `compression` is not zip, which is no stream.
fn stream_decoder(compression: Compression, source: Box<dyn Read>) -> Box<dyn Read> {
    match compression {
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(source)),
        Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(source)),
        _ => Box::new(lzma_rust2::XzReader::new_mem_limit(source, true, XZ_MEMORY_KIB)),
    }
}

/// The Embedding Projector's pair among a zip's `names`: the `vectors.tsv` and the
/// `metadata.tsv` that names its rows, as indices into `names`, when the zip holds just these
/// two files, side by side and named as [`metadata_name_for`] pairs them.
pub fn projector_pair<S: AsRef<str>>(names: &[S]) -> Option<(usize, usize)> {
    let [a, b] = names else { return None };
    let split = |name: &str| match name.rsplit_once('/') {
        Some((folder, file)) => (folder.to_string(), file.to_string()),
        None => (String::new(), name.to_string()),
    };
    let ((folder_a, file_a), (folder_b, file_b)) = (split(a.as_ref()), split(b.as_ref()));
    if folder_a != folder_b || file_a == file_b {
        return None;
    }
    if metadata_name_for(&file_a) == file_b {
        Some((0, 1))
    } else if metadata_name_for(&file_b) == file_a {
        Some((1, 0))
    } else {
        None
    }
}

/// The name of the `metadata.tsv` that goes with the Projector vectors file `vectors_name`:
/// its last `vectors` turned into `metadata` (`kjv-vectors.tsv`: `kjv-metadata.tsv`), or
/// `metadata.tsv` when it holds no `vectors`.
pub fn metadata_name_for(vectors_name: &str) -> String {
    match vectors_name.rfind("vectors") {
        Some(at) => format!("{}metadata{}", &vectors_name[..at], &vectors_name[at + "vectors".len()..]),
        None => "metadata.tsv".to_string(),
    }
}

/// What a zip is when it is a document built on zip, which a person means as a whole, not
/// as the XML files inside; `None` for an archive of files.
fn document_kind(entries: &[ZipEntry]) -> Option<&'static str> {
    let has = |name: &str| entries.iter().any(|e| e.name == name);
    if has("[Content_Types].xml") {
        Some("a Word, Excel or PowerPoint document (.docx, .xlsx, .pptx): save it as plain text first")
    } else if has("mimetype") && has("META-INF/container.xml") {
        Some("an EPUB book or an OpenDocument file: save or export it as plain text first")
    } else if has("mimetype") && has("content.xml") {
        Some("an OpenDocument file (.odt, .ods): save it as plain text first")
    } else {
        None
    }
}

/// Up to five of `entries`' names, and how many more.
fn listed(entries: &[ZipEntry]) -> String {
    const SHOWN: usize = 5;
    let mut names: Vec<String> = entries.iter().take(SHOWN).map(|e| format!("'{}'", e.name)).collect();
    if entries.len() > SHOWN {
        names.push(format!("and {} more", entries.len() - SHOWN));
    }
    names.join(", ")
}

/// Refuses, before reading, a zip entry whose directory says it inflates past the limits.
fn check_declared(size: u64, compressed_size: u64) -> Result<()> {
    if size > MAX_INFLATED || (size > RATIO_GRACE && size / compressed_size.max(1) > MAX_RATIO) {
        return Err(bomb(size, compressed_size));
    }
    Ok(())
}

/// The error of a file that inflates past [`MAX_RATIO`] or [`MAX_INFLATED`].
fn bomb(inflated: u64, compressed: u64) -> Error {
    Error::Archive(format!(
        "this file inflates to {} from {} of compressed data, more than {MAX_RATIO} times its size or past {}, \
         which no text or vectors file does: it looks like a zip bomb, so it was not read further. If you trust it, \
         decompress it yourself and open the plain file",
        crate::error::bytes(inflated),
        crate::error::bytes(compressed),
        crate::error::bytes(MAX_INFLATED),
    ))
}

/// A zip entry's inflated bytes, checked against the CRC-32 and size its directory gives:
/// zip's own check, and the only one its stored entries have.
struct Checked {
    inner: flate2::CrcReader<Box<dyn Read>>,
    crc: u32,
    size: u64,
    done: u64,
}

impl Read for Checked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.done += n as u64;
        if self.done > self.size {
            return Err(io::Error::other(Error::Archive(format!(
                "this zip archive's entry inflates past the {} its directory gives: the archive is corrupt, or a zip \
                 bomb; unzip a copy you trust yourself and open the file",
                crate::error::bytes(self.size)
            ))));
        }
        if n == 0 && !buf.is_empty() && (self.done != self.size || self.inner.crc().sum() != self.crc) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the entry's checksum (CRC-32) or size differs from its directory's",
            ));
        }
        Ok(n)
    }
}

/// The file inside a compressed file, as a `Read`: see the module documentation. Its errors
/// are `io::Error`s carrying an [`Error`]; `Error::from` gets it back.
pub struct Decompressed {
    compression: Compression,
    /// The compression of the file inside, unwrapped too (a `kjv.txt.gz` in a zip).
    nested: Option<Compression>,
    /// The zip's entry read.
    entry: Option<String>,
    decoder: Box<dyn Read>,
    read: Arc<AtomicU64>,
    total: Option<u64>,
    inflated: u64,
}

impl Decompressed {
    fn new(
        compression: Compression,
        decoder: Box<dyn Read>,
        read: Arc<AtomicU64>,
        total: Option<u64>,
    ) -> Self {
        Decompressed { compression, nested: None, entry: None, decoder, read, total, inflated: 0 }
    }

    /// `decoder`'s bytes, or, when they are a gzip, bzip2 or xz file themselves, the file
    /// inside that (one layer more, never two). Both layers' bytes are bounded by the limits
    /// against the outer file's compressed bytes, so a bomb inside an archive is stopped as
    /// one outside. A zip inside is refused: it is read from its end, not as a stream.
    fn layered(
        compression: Compression,
        decoder: Box<dyn Read>,
        read: Arc<AtomicU64>,
        total: Option<u64>,
        entry: Option<String>,
    ) -> Result<Decompressed> {
        let mut outer = Decompressed::new(compression, decoder, read.clone(), total);
        let mut head = Vec::with_capacity(Compression::SNIFF_LEN);
        (&mut outer).take(Compression::SNIFF_LEN as u64).read_to_end(&mut head)?;
        let nested = Compression::sniff(&head);
        if nested == Some(Compression::Zip) {
            let what = entry.as_deref().map_or_else(
                || format!("the file inside this {compression} file"),
                |e| format!("'{e}' in this zip archive"),
            );
            return Err(Error::Archive(format!(
                "{what} is a zip archive itself, which is read from its end, not as a stream: take it out of \
                 the {compression} file and open it"
            )));
        }
        let again: Box<dyn Read> = Box::new(io::Cursor::new(head).chain(outer));
        let decoder = match nested {
            Some(inner) => stream_decoder(inner, again),
            None => again,
        };
        Ok(Decompressed { compression, nested, entry, decoder, read, total, inflated: 0 })
    }

    /// The compressed file's compression (a zip's, for a `kjv.txt.gz` in a zip).
    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// The compression of the file inside, when it was compressed too and is read inflated.
    pub fn nested(&self) -> Option<Compression> {
        self.nested
    }

    /// The name of the file read, from which its format may be guessed: the zip's entry
    /// (without its folders), else `file_name` without its compression's extension; without
    /// the nested compression's extension too (`kjv.txt.gz` in a zip: `kjv.txt`).
    pub fn name_inside(&self, file_name: &str) -> String {
        let outer = match &self.entry {
            Some(entry) => entry.rsplit('/').next().unwrap_or(entry).to_string(),
            None => self.compression.inner_name(file_name),
        };
        self.nested.map_or_else(|| outer.clone(), |nested| nested.inner_name(&outer))
    }

    /// The compressed bytes read so far (of a zip, of the entry's data), for progress.
    pub fn compressed_read(&self) -> u64 {
        let read = self.read.load(Ordering::Relaxed);
        self.total.map_or(read, |total| read.min(total))
    }

    /// The compressed bytes of a zip's entry; `None` for gzip, bzip2 and xz, whose
    /// compressed bytes are the whole file.
    pub fn compressed_total(&self) -> Option<u64> {
        self.total
    }

    /// The bytes inflated so far.
    pub fn inflated(&self) -> u64 {
        self.inflated
    }

    /// The decoder's error `err` as a person reads it; an error of the outer layer, under a
    /// nested one, is already an [`Error`].
    fn decoder_error(&self, err: io::Error) -> Error {
        if let Some(SourceFailed(message)) =
            err.get_ref().and_then(|inner| inner.downcast_ref::<SourceFailed>())
        {
            return Error::Io(format!("cannot read the file: {message}"));
        }
        if let Some(error) = err.get_ref().and_then(|inner| inner.downcast_ref::<Error>()) {
            return error.clone();
        }
        let layer = self.nested.unwrap_or(self.compression);
        let (what, test) = (layer.name(), layer.test_command());
        if err.kind() == io::ErrorKind::UnexpectedEof {
            Error::Archive(format!(
                "this {what} file is cut short (it ends inside its compressed data): download it again, or test a copy with {test}"
            ))
        } else if err.kind() == io::ErrorKind::OutOfMemory {
            Error::Archive(format!(
                "this {what} file needs more memory to inflate than embedscope allows ({err}): decompress it yourself \
                 and open the plain file"
            ))
        } else {
            Error::Archive(format!(
                "this {what} file is corrupt ({err}): download it again, or test a copy with {test}"
            ))
        }
    }
}

impl Read for Decompressed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.decoder.read(buf).map_err(|e| io::Error::other(self.decoder_error(e)))?;
        self.inflated += n as u64;
        let compressed = self.compressed_read();
        if self.inflated > MAX_INFLATED
            || (self.inflated > RATIO_GRACE && self.inflated / compressed.max(1) > MAX_RATIO)
        {
            return Err(io::Error::other(bomb(self.inflated, compressed)));
        }
        Ok(n)
    }
}

/// The reader of the compressed bytes, counting them for progress and for the ratio check.
struct Counted<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf).map_err(|e| io::Error::new(e.kind(), SourceFailed(e.to_string())))?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: Seek> Seek for Counted<R> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// An error of the source itself (the file could not be read), told apart from the
/// decoders' errors, which mean the compressed data is wrong.
#[derive(Debug)]
struct SourceFailed(String);

impl fmt::Display for SourceFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SourceFailed {}

fn read_failed(err: io::Error) -> Error {
    Error::Io(format!("cannot read the file: {err}"))
}

fn zip_error(err: &zip::result::ZipError) -> Error {
    Error::Archive(format!(
        "this zip archive is corrupt or cut short ({err}): download it again, or test a copy with unzip -t"
    ))
}

#[cfg(test)]
pub(super) mod tests {
    use std::io::{Cursor, Write};

    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::fuzz::mutate_bytes;

    /// A text of `len` bytes that compresses as prose does (words drawn from a few hundred).
    fn prose(len: usize, seed: u64) -> Vec<u8> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let words: Vec<String> = (0..300)
            .map(|i| (0..1 + i % 9).map(|j| (b'a' + ((i * 7 + j * 3) % 26) as u8) as char).collect())
            .collect();
        let mut out = Vec::with_capacity(len + 16);
        while out.len() < len {
            out.extend_from_slice(words[rng.random_range(0..words.len())].as_bytes());
            out.push(if rng.random_range(0..12) == 0 { b'\n' } else { b' ' });
        }
        out.truncate(len);
        out
    }

    pub(crate) fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    pub(crate) fn bzip2(data: &[u8]) -> Vec<u8> {
        let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    pub(crate) fn xz(data: &[u8]) -> Vec<u8> {
        let mut encoder =
            lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1)).unwrap();
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    /// A zip of `files` (name, bytes), each compressed with `method`.
    pub(crate) fn zip_of(files: &[(&str, &[u8])], method: zip::CompressionMethod) -> Vec<u8> {
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default().compression_method(method);
        for (name, data) in files {
            if name.ends_with('/') {
                writer.add_directory(*name, options).unwrap();
            } else {
                writer.start_file(*name, options).unwrap();
                writer.write_all(data).unwrap();
            }
        }
        writer.finish().unwrap().into_inner()
    }

    fn compress(compression: Compression, data: &[u8]) -> Vec<u8> {
        match compression {
            Compression::Gzip => gzip(data),
            Compression::Bzip2 => bzip2(data),
            Compression::Xz => xz(data),
            Compression::Zip => zip_of(&[("inner.txt", data)], zip::CompressionMethod::DEFLATE),
        }
    }

    const ALL: [Compression; 4] = [Compression::Gzip, Compression::Bzip2, Compression::Xz, Compression::Zip];

    /// A source that gives at most a few bytes a read, of random sizes: the decoders must not
    /// depend on how the file arrives.
    struct Trickle {
        inner: Cursor<Vec<u8>>,
        rng: Xoshiro256PlusPlus,
    }

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.rng.random_range(1..4000));
            self.inner.read(&mut buf[..n])
        }
    }

    impl Seek for Trickle {
        fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
            self.inner.seek(pos)
        }
    }

    /// The file inside `file`, read through buffers of random sizes from a trickling source.
    fn inflate_sliced(file: Vec<u8>, entry: Option<&str>, seed: u64) -> Result<Vec<u8>> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let source = Trickle { inner: Cursor::new(file), rng: Xoshiro256PlusPlus::seed_from_u64(seed + 1) };
        let mut reader = Compressed::open(source)?.expect("compressed").into_reader(entry)?;
        let mut out = Vec::new();
        loop {
            let mut buf = vec![0; rng.random_range(1..100_000)];
            let n = reader.read(&mut buf)?;
            if n == 0 {
                return Ok(out);
            }
            out.extend_from_slice(&buf[..n]);
        }
    }

    fn inflate(file: Vec<u8>, entry: Option<&str>) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        Compressed::open(Cursor::new(file))?
            .expect("compressed")
            .into_reader(entry)?
            .read_to_end(&mut out)?;
        Ok(out)
    }

    fn archive_message(result: Result<Vec<u8>>) -> String {
        match result {
            Err(Error::Archive(message)) => message,
            other => panic!("expected an archive error, got {:?}", other.map(|v| v.len())),
        }
    }

    #[test]
    fn each_compression_is_told_by_its_magic_number() {
        let data = prose(1000, 1);
        for compression in ALL {
            assert_eq!(Compression::sniff(&compress(compression, &data)), Some(compression));
        }
        assert_eq!(Compression::sniff(&zip_of(&[], zip::CompressionMethod::STORE)), Some(Compression::Zip));
        assert_eq!(Compression::sniff(&bzip2(b"")), Some(Compression::Bzip2), "an empty bzip2 stream");
        for plain in [&b"BZh9 is how a text may start"[..], b"PK is a text too", b"\x1f\x8b", b"", b"the cat"]
        {
            assert_eq!(Compression::sniff(plain), None, "{:?}", String::from_utf8_lossy(plain));
        }
        assert!(Compressed::open(Cursor::new(data)).unwrap().is_none());
    }

    #[test]
    fn each_compression_gives_the_plain_bytes_however_it_is_sliced() {
        // Larger than the source buffer and flate2's, so the streams cross many reads.
        let data = prose(700_000, 2);
        for compression in ALL {
            let file = compress(compression, &data);
            assert!(file.len() < data.len() / 2, "{compression} compressed");
            assert_eq!(inflate(file.clone(), None).unwrap(), data, "{compression}");
            for seed in 0..3 {
                assert_eq!(
                    inflate_sliced(file.clone(), None, seed).unwrap(),
                    data,
                    "{compression}, seed {seed}"
                );
            }
        }
    }

    #[test]
    fn progress_counts_the_compressed_bytes_up_to_the_whole_file() {
        let data = prose(2_000_000, 3);
        for compression in ALL {
            let file = compress(compression, &data);
            let len = file.len() as u64;
            let mut reader = Compressed::open(Cursor::new(file)).unwrap().unwrap().into_reader(None).unwrap();
            let mut buf = vec![0; 64 << 10];
            let mut seen = Vec::new();
            while reader.read(&mut buf).unwrap() > 0 {
                seen.push(reader.compressed_read());
            }
            assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{compression}: progress never goes back");
            assert!(seen[0] < len, "{compression}: the first slice did not read the whole file");
            let total = reader.compressed_total().unwrap_or(len);
            assert_eq!(reader.compressed_read(), total, "{compression}: the whole file read at the end");
            assert_eq!(reader.inflated(), data.len() as u64);
        }
    }

    #[test]
    fn concatenated_streams_read_as_one_file() {
        let (a, b) = (prose(50_000, 4), prose(30_000, 5));
        let both: Vec<u8> = a.iter().chain(&b).copied().collect();
        for (compression, join) in [
            (Compression::Gzip, [gzip(&a), gzip(&b)].concat()),
            (Compression::Bzip2, [bzip2(&a), bzip2(&b)].concat()),
            (Compression::Xz, [xz(&a), xz(&b)].concat()),
        ] {
            assert_eq!(inflate(join, None).unwrap(), both, "{compression}");
        }
    }

    #[test]
    fn a_zip_opens_its_only_file_or_the_one_named() {
        let (text, vectors) = (prose(20_000, 6), b"2 2\nking 1 0\nqueen 0 1\n".to_vec());
        for method in
            [zip::CompressionMethod::STORE, zip::CompressionMethod::DEFLATE, zip::CompressionMethod::BZIP2]
        {
            // Folders and macOS's resource forks are no file a person means.
            let one = zip_of(
                &[("corpus/", b""), ("corpus/text8", &text), ("__MACOSX/corpus/._text8", b"fork")],
                method,
            );
            let opened = Compressed::open(Cursor::new(one.clone())).unwrap().unwrap();
            let names: Vec<&str> = opened.entries().iter().map(|e| e.name.as_str()).collect();
            assert_eq!(names, ["corpus/text8"]);
            assert_eq!(opened.entries()[0].size, text.len() as u64);
            assert_eq!(inflate(one, None).unwrap(), text, "{method}");

            let two = zip_of(&[("text.txt", &text), ("vectors.txt", &vectors)], method);
            let message = archive_message(inflate(two.clone(), None));
            assert!(message.contains("holds 2 files ('text.txt', 'vectors.txt')"), "{message}");
            assert_eq!(inflate(two.clone(), Some("vectors.txt")).unwrap(), vectors);
            assert_eq!(inflate_sliced(two.clone(), Some("text.txt"), 9).unwrap(), text);
            let message = archive_message(inflate(two, Some("other.txt")));
            assert!(message.contains("no file 'other.txt'; it holds 'text.txt', 'vectors.txt'"), "{message}");
        }
        let message = archive_message(inflate(gzip(&text), Some("text.txt")));
        assert!(message.contains("a gzip file holds one file"), "{message}");
    }

    #[test]
    fn an_empty_archive_says_so() {
        for file in [
            zip_of(&[], zip::CompressionMethod::STORE),
            zip_of(&[("empty/", b"")], zip::CompressionMethod::STORE),
        ] {
            let message = match Compressed::open(Cursor::new(file)) {
                Err(Error::Archive(message)) => message,
                _ => panic!("an empty zip opened"),
            };
            assert!(message.contains("holds no file"), "{message}");
        }
        // An empty file compressed is an empty file.
        for compression in [Compression::Gzip, Compression::Bzip2, Compression::Xz] {
            assert_eq!(inflate(compress(compression, b""), None).unwrap(), b"", "{compression}");
        }
    }

    #[test]
    fn a_truncated_file_is_an_error_never_a_shorter_text() {
        let data = prose(300_000, 7);
        for compression in ALL {
            let file = compress(compression, &data);
            for keep in [file.len() / 3, file.len() / 2, file.len() - 9, file.len() - 1] {
                let cut = file[..keep].to_vec();
                let message = match Compressed::open(Cursor::new(cut.clone())).and_then(|c| {
                    let mut out = Vec::new();
                    c.unwrap().into_reader(None)?.read_to_end(&mut out)?;
                    Ok(out)
                }) {
                    Err(Error::Archive(message)) => message,
                    other => {
                        panic!("{compression} cut to {keep} of {}: {:?}", file.len(), other.map(|v| v.len()))
                    }
                };
                assert!(
                    message.contains("cut short") || message.contains("corrupt"),
                    "{compression}: {message}"
                );
            }
        }
    }

    #[test]
    fn a_corrupt_file_is_an_error_that_says_how_to_check_it() {
        let data = prose(300_000, 8);
        for compression in ALL {
            let mut file = compress(compression, &data);
            let middle = file.len() / 2;
            for byte in &mut file[middle..middle + 16] {
                *byte ^= 0x5A;
            }
            let message = archive_message(inflate(file, None));
            assert!(message.contains("corrupt") && message.contains(" -t"), "{compression}: {message}");
        }
    }

    #[test]
    fn a_zip_entry_larger_or_different_than_its_directory_says_is_refused() {
        let data = prose(10_000, 10);
        let reader = |size: u64, crc: u32| {
            let inner: Box<dyn Read> = Box::new(Cursor::new(data.clone()));
            Checked { inner: flate2::CrcReader::new(inner), crc, size, done: 0 }
        };
        let mut crc = flate2::Crc::new();
        crc.update(&data);
        let mut out = Vec::new();
        reader(data.len() as u64, crc.sum()).read_to_end(&mut out).unwrap();
        assert_eq!(out, data);
        let message =
            Error::from(reader(100, crc.sum()).read_to_end(&mut Vec::new()).unwrap_err()).to_string();
        assert!(message.contains("inflates past the 100 bytes its directory gives"), "{message}");
        let err = reader(data.len() as u64, crc.sum() ^ 1).read_to_end(&mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("checksum (CRC-32)"), "{err}");
    }

    /// Reads the bomb `reader` inflates a MiB at a time: it must fail soon past the grace,
    /// saying it looks like a zip bomb.
    fn assert_stops_the_bomb(reader: &mut Decompressed, what: &str) {
        let mut buf = vec![0; 1 << 20];
        let err = loop {
            match reader.read(&mut buf) {
                Ok(0) => panic!("{what}: the bomb was inflated whole"),
                Ok(_) => {}
                Err(err) => break err,
            }
        };
        assert!(reader.inflated() <= RATIO_GRACE + (8 << 20), "{what} stopped at {}", reader.inflated());
        let message = Error::from(err).to_string();
        assert!(
            message.contains("zip bomb") && message.contains("decompress it yourself"),
            "{what}: {message}"
        );
    }

    #[test]
    fn a_zip_bomb_is_refused_before_it_fills_memory() {
        // 64 MiB of zeros: well past the grace, and over 200 times smaller compressed.
        let zeros = vec![0u8; 64 << 20];
        for compression in ALL {
            let file = compress(compression, &zeros);
            assert!(
                file.len() as u64 * MAX_RATIO < zeros.len() as u64,
                "{compression}: {} bytes",
                file.len()
            );
            let mut reader = match Compressed::open(Cursor::new(file)).unwrap().unwrap().into_reader(None) {
                Ok(reader) => reader,
                // A zip's directory says how large the entry is: refused before reading.
                Err(Error::Archive(message)) => {
                    assert_eq!(compression, Compression::Zip);
                    assert!(message.contains("zip bomb"), "{message}");
                    continue;
                }
                Err(other) => panic!("{compression}: {other}"),
            };
            assert_stops_the_bomb(&mut reader, &compression.to_string());
        }
    }

    #[test]
    fn mutated_archives_never_panic() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let data = prose(5_000, 12);
        let interesting: &[&[u8]] =
            &[b"PK\x01\x02", b"PK\x05\x06", b"\xff\xff\xff\xff", b"\0\0\0\0", b"1AY&SY"];
        for compression in ALL {
            let file = compress(compression, &data);
            for _ in 0..150 {
                let mutated = mutate_bytes(&mut rng, &file, interesting);
                let _ = Compressed::open(Cursor::new(mutated)).and_then(|opened| match opened {
                    Some(opened) => {
                        let entry = opened.entries().first().map(|e| e.name.clone());
                        let mut out = Vec::new();
                        opened.into_reader(entry.as_deref())?.read_to_end(&mut out)?;
                        Ok(())
                    }
                    None => Ok(()),
                });
            }
        }
    }

    #[test]
    fn a_document_built_on_zip_is_named_not_unpacked() {
        let docx = zip_of(
            &[("[Content_Types].xml", b"<Types/>"), ("word/document.xml", b"<w:document/>")],
            zip::CompressionMethod::DEFLATE,
        );
        let epub = zip_of(
            &[("mimetype", b"application/epub+zip"), ("META-INF/container.xml", b"<container/>")],
            zip::CompressionMethod::STORE,
        );
        for (file, expected) in [(docx, "a Word, Excel or PowerPoint document"), (epub, "an EPUB book")] {
            match Compressed::open(Cursor::new(file)) {
                Err(Error::NotText { kind }) => assert!(kind.starts_with(expected), "{kind}"),
                _ => panic!("{expected} was not named"),
            }
        }
    }

    #[test]
    fn a_compressed_file_inside_is_unwrapped_once_and_named_without_its_extension() {
        let data = prose(300_000, 13);
        for inner in [Compression::Gzip, Compression::Bzip2, Compression::Xz] {
            let nested = compress(inner, &data);
            let ext = match inner {
                Compression::Gzip => "gz",
                Compression::Bzip2 => "bz2",
                _ => "xz",
            };
            let entry = format!("corpus/kjv.txt.{ext}");
            let files = [
                (Compression::Gzip, gzip(&nested), format!("kjv.txt.{ext}.gz")),
                (Compression::Xz, xz(&nested), format!("kjv.txt.{ext}.xz")),
                (
                    Compression::Zip,
                    zip_of(&[(&entry, &nested)], zip::CompressionMethod::STORE),
                    "a.zip".into(),
                ),
                (
                    Compression::Zip,
                    zip_of(&[(&entry, &nested)], zip::CompressionMethod::DEFLATE),
                    "a.zip".into(),
                ),
            ];
            for (outer, file, name) in files {
                assert_eq!(inflate(file.clone(), None).unwrap(), data, "{inner} in {outer}");
                assert_eq!(inflate_sliced(file.clone(), None, 5).unwrap(), data, "{inner} in {outer}");
                let reader = Compressed::open(Cursor::new(file)).unwrap().unwrap().into_reader(None).unwrap();
                assert_eq!((reader.compression(), reader.nested()), (outer, Some(inner)));
                assert_eq!(reader.name_inside(&name), "kjv.txt", "{inner} in {outer}");
            }
        }
        // One layer, never two: a gzip inside a gzip inside a gzip gives the innermost gzip.
        let twice = gzip(&gzip(&data));
        assert_eq!(inflate(gzip(&twice), None).unwrap(), gzip(&data));
        // A plain file inside keeps its name and says nothing is nested.
        let reader = Compressed::open(Cursor::new(gzip(&data))).unwrap().unwrap().into_reader(None).unwrap();
        assert_eq!((reader.nested(), reader.name_inside("kjv.txt.gz")), (None, "kjv.txt".to_string()));
    }

    #[test]
    fn a_nested_layer_says_what_is_wrong_with_it() {
        let data = prose(300_000, 14);
        let gz = gzip(&data);
        let cut = zip_of(&[("kjv.txt.gz", &gz[..gz.len() / 2])], zip::CompressionMethod::STORE);
        let message = archive_message(inflate(cut, None));
        assert!(message.contains("this gzip file is cut short"), "{message}");
        // A bomb inside a stored zip is stopped as one outside: against the zip's bytes.
        let bomb = gzip(&vec![0u8; 64 << 20]);
        let file = zip_of(&[("bomb.txt.gz", &bomb)], zip::CompressionMethod::STORE);
        let mut reader = Compressed::open(Cursor::new(file)).unwrap().unwrap().into_reader(None).unwrap();
        assert_stops_the_bomb(&mut reader, "gzip in a zip");
        // A zip inside is no stream: refused, saying what to do.
        let inner = zip_of(&[("kjv.txt", &data)], zip::CompressionMethod::DEFLATE);
        for (file, expected) in [
            (
                zip_of(&[("corpora.zip", &inner)], zip::CompressionMethod::STORE),
                "'corpora.zip' in this zip archive",
            ),
            (gzip(&inner), "the file inside this gzip file"),
        ] {
            let message = archive_message(inflate(file, None));
            assert!(
                message.starts_with(expected) && message.contains("is a zip archive itself"),
                "{message}"
            );
        }
    }

    #[test]
    fn the_projectors_pair_is_told_by_its_names() {
        let pair = |names: &[&str]| projector_pair(names);
        assert_eq!(pair(&["vectors.tsv", "metadata.tsv"]), Some((0, 1)));
        assert_eq!(pair(&["metadata.tsv", "vectors.tsv"]), Some((1, 0)));
        assert_eq!(pair(&["run/kjv-vectors.tsv", "run/kjv-metadata.tsv"]), Some((0, 1)));
        assert_eq!(pair(&["embeddings.tsv", "metadata.tsv"]), Some((0, 1)));
        for names in [
            &["vectors.tsv", "labels.tsv"][..],
            &["a/vectors.tsv", "b/metadata.tsv"],
            &["vectors.tsv", "metadata.tsv", "readme.md"],
            &["metadata.tsv", "metadata.tsv"],
            &["vectors.tsv"],
        ] {
            assert_eq!(pair(names), None, "{names:?}");
        }
        assert_eq!(metadata_name_for("kjv-vectors.tsv"), "kjv-metadata.tsv");
        assert_eq!(metadata_name_for("v.tsv"), "metadata.tsv");
    }

    #[test]
    fn the_inner_name_drops_the_extension() {
        assert_eq!(Compression::Gzip.inner_name("kjv.txt.gz"), "kjv.txt");
        assert_eq!(Compression::Bzip2.inner_name("enwiki.xml.BZ2"), "enwiki.xml");
        assert_eq!(Compression::Xz.inner_name("vectors.bin.xz"), "vectors.bin");
        assert_eq!(Compression::Gzip.inner_name("download"), "download");
        assert_eq!(Compression::Gzip.inner_name(".gz"), ".gz");
    }
}
