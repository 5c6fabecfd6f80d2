//! Compressed files in the worker: the file inside a gzip, bzip2, xz or zip file
//! ([`crate::io::compressed`]), inflated a slice at a time from the `File` itself, which the
//! worker reads synchronously (`FileReaderSync`) when the decoder asks for more. So the
//! compressed file is never in memory whole, and progress counts its bytes read.

use std::io::{self, Read, Seek, SeekFrom};

use js_sys::{Function, Uint8Array};
use wasm_bindgen::prelude::*;

use crate::error::Error;
use crate::io::{Compressed, Compression, Decompressed, FileHead};
use crate::wasm::dto::file_head_to_js;

/// The compression of a file starting with `head` ("gzip", "bzip2", "xz", "zip"), or
/// `undefined` for a plain file.
#[wasm_bindgen]
pub fn compression_of(head: &[u8]) -> Option<String> {
    Compression::sniff(head).map(|c| c.name().to_string())
}

/// The head of the file `name` of `size` bytes that `read` reads (see
/// [`CompressedFile::new`]), for `Session::open_plan`: its first bytes, of the file inside
/// when it is compressed (`entry` names a zip's); a zip of several files and none named gives
/// its entries (`FileHeadDto`, `io::open::FileHead::read`).
#[wasm_bindgen]
pub fn file_head(read: Function, size: f64, name: &str, entry: Option<String>) -> Result<JsValue, JsError> {
    let file = JsFile { read, size: size as u64, position: 0 };
    let head = FileHead::read(name, file, entry.as_deref()).map_err(|e| in_file(name, e))?;
    file_head_to_js(&head)
}

/// The file inside a compressed file, read a slice at a time.
#[wasm_bindgen]
pub struct CompressedFile {
    reader: Decompressed,
    /// The compressed file's name, which errors name.
    name: String,
    /// The file inside's name (`Decompressed::name_inside`).
    inner: String,
}

#[wasm_bindgen]
impl CompressedFile {
    /// Opens the compressed file `name` of `size` bytes; `read(offset, length)` returns that
    /// many of its bytes from `offset` as a `Uint8Array`, synchronously. `entry` names a
    /// zip's entry (as `zip_entries` lists it); without it a zip must hold one file.
    #[wasm_bindgen(constructor)]
    pub fn new(
        read: Function,
        size: f64,
        name: &str,
        entry: Option<String>,
    ) -> Result<CompressedFile, JsError> {
        let opened = open(read, size, name)?;
        let reader = opened.into_reader(entry.as_deref()).map_err(|e| in_file(name, e))?;
        let inner = reader.name_inside(name);
        Ok(CompressedFile { reader, name: name.to_string(), inner })
    }

    /// Up to `max` bytes of the file inside, fewer only at its end; empty at its end.
    pub fn read(&mut self, max: usize) -> Result<Vec<u8>, JsError> {
        let mut out = Vec::with_capacity(max);
        (&mut self.reader)
            .take(max as u64)
            .read_to_end(&mut out)
            .map_err(|e| in_file(&self.name, Error::from(e)))?;
        Ok(out)
    }

    /// The compressed bytes read so far, for progress.
    pub fn done(&self) -> f64 {
        self.reader.compressed_read() as f64
    }

    /// The compressed bytes to read: a zip entry's, or `undefined` for the whole file.
    pub fn total(&self) -> Option<f64> {
        self.reader.compressed_total().map(|total| total as f64)
    }

    /// The bytes inflated so far.
    pub fn inflated(&self) -> f64 {
        self.reader.inflated() as f64
    }

    /// The name of the file inside: a zip entry's (without its folders), or the compressed
    /// file's without `.gz`, `.bz2` or `.xz`; a nested compression's extension dropped too.
    pub fn inner_name(&self) -> String {
        self.inner.clone()
    }

    /// "gzip", "bzip2", "xz" or "zip".
    pub fn compression(&self) -> String {
        self.reader.compression().name().to_string()
    }
}

fn open(read: Function, size: f64, name: &str) -> Result<Compressed<JsFile>, JsError> {
    let file = JsFile { read, size: size as u64, position: 0 };
    match Compressed::open(file) {
        Ok(Some(opened)) => Ok(opened),
        Ok(None) => Err(JsError::new(&format!("{name}: not a gzip, bzip2, xz or zip file"))),
        Err(err) => Err(in_file(name, err)),
    }
}

fn in_file(name: &str, err: Error) -> JsError {
    JsError::new(&format!("{name}: {err}"))
}

/// A `File` in the worker as `Read + Seek`, through the worker's synchronous `read`.
struct JsFile {
    read: Function,
    size: u64,
    position: u64,
}

impl Read for JsFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let wanted = (buf.len() as u64).min(self.size.saturating_sub(self.position)) as usize;
        if wanted == 0 {
            return Ok(0);
        }
        let bytes = self
            .read
            .call2(&JsValue::NULL, &JsValue::from(self.position as f64), &JsValue::from(wanted as f64))
            .map_err(|e| io::Error::other(e.as_string().unwrap_or_else(|| format!("{e:?}"))))?;
        let bytes = Uint8Array::new(&bytes);
        let n = (bytes.length() as usize).min(wanted);
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the file became shorter while it was read",
            ));
        }
        bytes.subarray(0, n as u32).copy_to(&mut buf[..n]);
        self.position += n as u64;
        Ok(n)
    }
}

impl Seek for JsFile {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        let position = match pos {
            SeekFrom::Start(at) => Some(at),
            SeekFrom::End(delta) => self.size.checked_add_signed(delta),
            SeekFrom::Current(delta) => self.position.checked_add_signed(delta),
        };
        self.position = position
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "a seek before the file's start"))?;
        Ok(self.position)
    }
}
