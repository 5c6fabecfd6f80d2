//! A Parquet table of vectors read from its files a slice at a time: each file's footer
//! (from its end, grown until it is whole), then, row group by row group, only the bytes of
//! the two columns read (the worker slices the `File` where `table_ranges` says).

use wasm_bindgen::prelude::*;

use super::files::{info_js, js_error_in};
use super::{Opened, Session, js_error, to_js};
use crate::error::Error;
use crate::io::parquet::{Columns, FooterRead, ParquetFile, SparkMetadata, TableReader};
use crate::wasm::dto::{TableColumnDto, TableColumnsDto, VectorsInfo};

/// The files of a table being read: their footers as they are read, then the reader.
#[derive(Default)]
pub(super) struct TableLoading {
    files: Vec<ParquetFile>,
    spark: Option<SparkMetadata>,
    reader: Option<TableReader>,
    bytes: f64,
}

#[wasm_bindgen]
impl Session {
    /// Starts reading a Parquet table; `spark_metadata` is the text of a Spark model's
    /// `metadata/part-00000` when it was dropped with the part files.
    pub fn table_open(&mut self, spark_metadata: Option<String>) -> Result<(), JsError> {
        let spark = match spark_metadata {
            Some(text) => Some(SparkMetadata::read(&text).map_err(|e| js_error_in("the Spark metadata", e))?),
            None => None,
        };
        self.table = Some(TableLoading { spark, ..TableLoading::default() });
        Ok(())
    }

    /// Reads the footer of the part file `name`, `file_len` bytes long, from `tail`, its last
    /// bytes: 0 when it is read (the file is the table's next part), else how many bytes from
    /// the end it needs.
    pub fn table_footer(&mut self, name: &str, tail: &[u8], file_len: f64) -> Result<f64, JsError> {
        let loading = self.table.as_mut().ok_or_else(not_reading)?;
        let file_len = file_len as u64;
        let read = match ParquetFile::read_footer(name, tail, file_len) {
            Ok(FooterRead::Done(file)) => {
                loading.files.push(file);
                loading.bytes += file_len as f64;
                return Ok(0.0);
            }
            Ok(FooterRead::NeedMore(n)) if n > tail.len() as u64 && n <= file_len => return Ok(n as f64),
            Ok(FooterRead::NeedMore(_)) => {
                Error::Parquet("its footer runs past the start of the file".into())
            }
            Err(err) => err,
        };
        Err(self.table_failed(name, read))
    }

    /// The first file's string and list-of-float columns (`TableColumnsDto`), when the
    /// person must choose among them; null when the table settles it.
    pub fn table_choice(&self) -> Result<JsValue, JsError> {
        let first = self.table.as_ref().and_then(|t| t.files.first()).ok_or_else(not_reading)?;
        if !Columns::needs_choice(first) {
            return Ok(JsValue::NULL);
        }
        let (words, vectors) = Columns::candidates(first);
        let dto = |list: Vec<crate::io::parquet::ColumnInfo>| {
            list.into_iter().map(|c| TableColumnDto { kind: c.type_name(), name: c.name }).collect()
        };
        to_js(&TableColumnsDto { words: dto(words), vectors: dto(vectors) })
    }

    /// Begins reading the rows from the columns `word` and `vector` (both, or neither: then
    /// the table's own); returns how many row groups each file holds.
    pub fn table_begin(&mut self, word: Option<String>, vector: Option<String>) -> Result<Vec<u32>, JsError> {
        let loading = self.table.as_ref().ok_or_else(not_reading)?;
        let Some(first) = loading.files.first() else {
            return Err(self.table_failed("", Error::Parquet("no Parquet file was given".into())));
        };
        let chosen = match (&word, &vector) {
            (Some(w), Some(v)) => Some((w.as_str(), v.as_str())),
            _ => None,
        };
        let name = first.name().to_string();
        let columns = match Columns::choose(first, chosen) {
            Ok(columns) => columns,
            Err(err) => return Err(self.table_failed(&name, err)),
        };
        let loading = self.table.as_mut().expect("checked above");
        let rows = loading.files.iter().map(ParquetFile::rows).sum();
        loading.reader = Some(TableReader::new(columns, loading.files.len(), rows, loading.spark.clone()));
        Ok(loading.files.iter().map(|f| f.row_groups() as u32).collect())
    }

    /// Where the two column chunks of row group `group` of part `file` lie: `[start, length,
    /// start, length]`, the words' then the vectors'.
    pub fn table_ranges(&mut self, file: usize, group: usize) -> Result<Vec<f64>, JsError> {
        let loading = self.table.as_ref().ok_or_else(not_reading)?;
        let (part, reader) = match (loading.files.get(file), loading.reader.as_ref()) {
            (Some(part), Some(reader)) if group < part.row_groups() => (part, reader),
            _ => return Err(not_reading()),
        };
        match reader.ranges(part, group) {
            Ok(ranges) => {
                Ok(ranges.into_iter().flat_map(|(start, len)| [start as f64, len as f64]).collect())
            }
            Err(err) => {
                let name = part.name().to_string();
                Err(self.table_failed(&name, err))
            }
        }
    }

    /// Decodes row group `group` of part `file` from the bytes of its two column chunks, as
    /// `table_ranges` named them; returns the rows read so far.
    pub fn table_push(
        &mut self,
        file: usize,
        group: usize,
        words: &[u8],
        vectors: &[u8],
    ) -> Result<usize, JsError> {
        let loading = self.table.as_mut().ok_or_else(not_reading)?;
        let (Some(part), Some(reader)) = (loading.files.get(file), loading.reader.as_mut()) else {
            return Err(not_reading());
        };
        let pushed = reader.ranges(part, group).and_then(|ranges| {
            let chunks = vec![(ranges[0].0, words.to_vec()), (ranges[1].0, vectors.to_vec())];
            reader.push_row_group(part, group, chunks)
        });
        match pushed {
            Ok(rows) => Ok(rows),
            Err(err) => {
                let name = part.name().to_string();
                Err(self.table_failed(&name, err))
            }
        }
    }

    /// Forgets a table being read.
    pub fn table_cancel(&mut self) {
        self.table = None;
    }

    /// Finishes reading the table and makes its rows the vectors queried, replacing any text
    /// and training: `VectorsInfo`, whose `note` says which columns were read and in what order.
    pub fn table_finish(&mut self) -> Result<JsValue, JsError> {
        let loading = self.table.take().ok_or_else(not_reading)?;
        let names: Vec<&str> = loading.files.iter().map(ParquetFile::name).collect();
        let shown =
            if names.len() == 1 { names[0].to_string() } else { format!("{} part files", names.len()) };
        let reader = loading.reader.ok_or_else(not_reading)?;
        let (embeddings, info) = reader.finish().map_err(|e| js_error_in(&shown, e))?;
        let format = if info.spark.as_ref().is_some_and(SparkMetadata::is_word2vec) {
            "Spark Word2VecModel (Parquet)"
        } else {
            "Parquet table"
        };
        let vectors = VectorsInfo {
            note: Some(info.note()),
            ..VectorsInfo::new(format, &embeddings, loading.bytes, false, None)
        };
        let out = info_js(&vectors, &embeddings)?;
        self.open(Opened::vectors(embeddings));
        Ok(out)
    }
}

impl Session {
    /// `err`, naming the part file `name` at fault; the table being read is forgotten.
    fn table_failed(&mut self, name: &str, err: Error) -> JsError {
        self.table = None;
        if name.is_empty() { js_error(err) } else { js_error_in(name, err) }
    }
}

fn not_reading() -> JsError {
    JsError::new("no Parquet table is being read")
}
