//! Vectors in Parquet tables: Spark MLlib's `Word2VecModel.save` folder (its `data/part-*.parquet`
//! files, a `word` string column and a `vector` list-of-float column) and any table with a
//! string column and a column of lists of floats (`FLOAT` or `DOUBLE`, a list or Arrow's
//! fixed-size list, which Parquet stores as a list).
//!
//! Parquet keeps its metadata at the end of a file (the footer) and the table as row groups,
//! each a column chunk a column; so a file is read as its footer first
//! ([`ParquetFile::read_footer`], which asks for more bytes from the end until the footer is
//! whole), then, row group by row group, only the bytes of the two columns read
//! ([`TableReader::ranges`], [`TableReader::push_row_group`]). The page reads those ranges
//! with `File.slice`; [`read_tables`] is the native loop the CLI uses.
//!
//! The columns are decoded by the `parquet` crate's column readers (no Arrow): a list column
//! comes as its values with their repetition levels (0 where a row starts) and definition
//! levels (how much of the path is present: a null list, an empty one, a null element or a
//! value), which [`TableReader`] turns into rows of equal length.
//!
//! The rows keep the table's order: Spark saves no counts, so the map's "most frequent
//! words" are the first rows of the first file ([`TableInfo::note`] says so).

use std::io::{Read, Seek, SeekFrom};
use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::Compression;
use parquet::column::reader::ColumnReaderImpl;

use parquet::errors::ParquetError;
use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataReader};
use parquet::file::properties::ReaderProperties;
use parquet::file::reader::RowGroupReader;
use parquet::file::serialized_reader::SerializedRowGroupReader;
use parquet::schema::types::SchemaDescriptor;

use crate::error::{Error, Result, bytes as show_bytes, thousands};
use crate::vectors::Embeddings;

mod columns;
mod decode;
mod spark;
#[cfg(test)]
mod tests;

use columns::leaf_kind;
pub use columns::{ColumnInfo, ColumnKind, Columns};
use decode::{Chunks, Floats, ListLevels, Row, VectorColumn, WordColumn, WordError};
pub use spark::SparkMetadata;

/// The four bytes a Parquet file starts and ends with.
pub const MAGIC: &[u8; 4] = b"PAR1";

/// The footer's last 8 bytes: the metadata's length (little-endian `u32`) and the magic.
const TAIL_BYTES: u64 = 8;

/// How much of a file's end is read first for its footer: a table of two columns has a
/// footer of a few kB a row group.
pub const FIRST_TAIL_READ: u64 = 64 << 10;

/// The largest footer read: a footer holds the schema and a few numbers a column chunk, so
/// anything larger is not a table of vectors (and would take the tab's memory for nothing).
pub const MAX_FOOTER_BYTES: u64 = 64 << 20;

/// The largest table opened, in the bytes its rows take kept (`f32`, raw and unit-normalised,
/// 8 bytes a value): the same bound as a language model's matrix.
pub const MAX_TABLE_BYTES: u64 = crate::lm::matrix::MAX_MATRIX_BYTES;

/// Records decoded at a time from a column chunk: bounds the buffers whatever a row group's size.
const BATCH_ROWS: usize = 4096;

/// Whether `head`, a file's first bytes, starts as a Parquet file does.
pub fn sniff(head: &[u8]) -> bool {
    head.starts_with(MAGIC)
}

/// A footer read from a file's last bytes, or how many bytes from the end reading it needs.
#[derive(Debug)]
pub enum FooterRead {
    Done(ParquetFile),
    /// Read again with at least this many bytes from the end of the file.
    NeedMore(u64),
}

/// One Parquet file whose footer is read: its name, length and metadata.
#[derive(Debug, Clone)]
pub struct ParquetFile {
    name: String,
    len: u64,
    metadata: Arc<ParquetMetaData>,
}

impl ParquetFile {
    /// Reads the footer of the file `name`, `file_len` bytes long, from `tail`, its last
    /// bytes (all of them when the file is shorter than [`FIRST_TAIL_READ`]).
    pub fn read_footer(name: &str, tail: &[u8], file_len: u64) -> Result<FooterRead> {
        if file_len < 2 * MAGIC.len() as u64 + TAIL_BYTES - MAGIC.len() as u64
            || (tail.len() as u64) < TAIL_BYTES
        {
            return Err(Error::Parquet(format!(
                "{} is too short for a Parquet file: it is cut short, or not Parquet",
                show_bytes(file_len)
            )));
        }
        if tail.len() as u64 > file_len {
            return Err(Error::Parquet("more bytes than the file holds were given as its end".into()));
        }
        let end = &tail[tail.len() - TAIL_BYTES as usize..];
        if &end[4..] != MAGIC {
            return Err(Error::Parquet(if &end[4..] == b"PARE" {
                "the file is an encrypted Parquet file, which embedscope does not read".to_string()
            } else {
                "the file does not end as a Parquet file does (with PAR1): it is cut short, or not Parquet"
                    .to_string()
            }));
        }
        let footer_len = u64::from(u32::from_le_bytes(end[..4].try_into().expect("4 bytes")));
        let needed = footer_len + TAIL_BYTES;
        if needed + MAGIC.len() as u64 > file_len {
            return Err(Error::Parquet(format!(
                "its footer says it takes {}, more than the file's {}: the file is damaged",
                show_bytes(footer_len),
                show_bytes(file_len)
            )));
        }
        if footer_len > MAX_FOOTER_BYTES {
            return Err(Error::Parquet(format!(
                "its footer takes {}, more than the {} a table of vectors needs",
                show_bytes(footer_len),
                show_bytes(MAX_FOOTER_BYTES)
            )));
        }
        if (tail.len() as u64) < needed {
            return Ok(FooterRead::NeedMore(needed));
        }
        let footer = &tail[tail.len() - needed as usize..tail.len() - TAIL_BYTES as usize];
        let metadata =
            ParquetMetaDataReader::decode_metadata(footer).map_err(|e| parquet_error("its footer", e))?;
        let file = ParquetFile { name: name.to_string(), len: file_len, metadata: Arc::new(metadata) };
        file.check_row_groups()?;
        Ok(FooterRead::Done(file))
    }

    /// The file's name as it was given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many rows the footer says the file holds.
    pub fn rows(&self) -> u64 {
        self.metadata.row_groups().iter().map(|g| g.num_rows().max(0) as u64).sum()
    }

    /// How many row groups the file holds.
    pub fn row_groups(&self) -> usize {
        self.metadata.num_row_groups()
    }

    fn schema(&self) -> &SchemaDescriptor {
        self.metadata.file_metadata().schema_descr()
    }

    /// Every column chunk lies inside the file, and row counts are not negative.
    fn check_row_groups(&self) -> Result<()> {
        for (g, group) in self.metadata.row_groups().iter().enumerate() {
            if group.num_rows() < 0 {
                return Err(Error::Parquet(format!(
                    "row group {g} has a negative number of rows: the file is damaged"
                )));
            }
            for column in group.columns() {
                let (start, len) = chunk_range(column)?;
                if start.checked_add(len).is_none_or(|end| end > self.len) {
                    return Err(Error::Parquet(format!(
                        "the column '{}' of row group {g} lies past the end of the file ({}): the file is cut short",
                        column.column_path().string(),
                        show_bytes(self.len)
                    )));
                }
            }
        }
        Ok(())
    }

    /// The table's top-level columns as candidates for the words or the vectors.
    pub fn columns(&self) -> Vec<ColumnInfo> {
        let schema = self.schema();
        let root = schema.root_schema();
        root.get_fields()
            .iter()
            .map(|field| {
                let name = field.name().to_string();
                let leaves: Vec<usize> = (0..schema.num_columns())
                    .filter(|&i| schema.column(i).path().parts().first().is_some_and(|p| *p == name))
                    .collect();
                let kind = match leaves[..] {
                    [leaf] => leaf_kind(schema, leaf),
                    _ => ColumnKind::Other("a group of several columns".into()),
                };
                ColumnInfo { name, kind, leaf: leaves.first().copied() }
            })
            .collect()
    }
}

/// What a table of vectors was, as the CLI and the page say it.
#[derive(Debug, Clone, PartialEq)]
pub struct TableInfo {
    pub files: usize,
    pub rows: usize,
    pub dim: usize,
    pub columns: Columns,
    /// The Spark model that saved the table, when its metadata was given.
    pub spark: Option<SparkMetadata>,
    /// How many words had bytes that are not UTF-8 (read with U+FFFD).
    pub non_utf8: usize,
}

impl TableInfo {
    /// The line the CLI prints and the page shows beside the counts.
    pub fn note(&self) -> String {
        let from = match &self.spark {
            Some(spark) if spark.is_word2vec() => {
                format!("Spark's {}", spark.class.rsplit('.').next().unwrap_or(""))
            }
            _ => "a Parquet table".into(),
        };
        let mut note = format!(
            "{from} of {} file{}: words from '{}', vectors from '{}'{}; the rows keep the table's order (it holds no counts)",
            self.files,
            if self.files == 1 { "" } else { "s" },
            self.columns.word,
            self.columns.vector,
            if self.columns.f64 { " (doubles, kept as 32-bit floats)" } else { "" },
        );
        if self.non_utf8 > 0 {
            note.push_str(&format!(
                "; {} word{} held bytes that are not UTF-8, read as U+FFFD",
                thousands(self.non_utf8 as u64),
                if self.non_utf8 == 1 { "" } else { "s" }
            ));
        }
        note
    }
}

/// The rows of one table from its files' row groups, given in order; each row group's
/// two column chunks come as bytes ([`TableReader::ranges`] says which).
#[derive(Debug)]
pub struct TableReader {
    columns: Columns,
    /// The rows the footers announce, for progress and the memory check.
    rows_total: u64,
    files: usize,
    words: Vec<String>,
    values: Vec<f32>,
    dim: Option<usize>,
    non_utf8: usize,
    spark: Option<SparkMetadata>,
}

impl TableReader {
    /// A reader of `columns` from `files` part files whose footers announce `rows_total`
    /// rows, made by the Spark model `spark` when its metadata was given.
    pub fn new(columns: Columns, files: usize, rows_total: u64, spark: Option<SparkMetadata>) -> TableReader {
        TableReader {
            columns,
            rows_total,
            files,
            words: Vec::new(),
            values: Vec::new(),
            dim: None,
            non_utf8: 0,
            spark,
        }
    }

    /// The byte ranges (start, length) of row group `group` of `file` to read: the words'
    /// column chunk and the vectors'. Fails when `file` lacks the columns, or they are
    /// compressed with a codec embedscope does not read.
    pub fn ranges(&self, file: &ParquetFile, group: usize) -> Result<Vec<(u64, u64)>> {
        let (word, vector) = self.columns.leaves(file)?;
        let row_group = file.metadata.row_group(group);
        [word, vector]
            .into_iter()
            .map(|leaf| {
                let column = row_group.column(leaf);
                check_codec(column.compression(), &column.column_path().string())?;
                chunk_range(column)
            })
            .collect()
    }

    /// Decodes row group `group` of `file` from `chunks`, the bytes of
    /// [`TableReader::ranges`] (each with its start in the file); returns the rows read so far.
    pub fn push_row_group(
        &mut self,
        file: &ParquetFile,
        group: usize,
        chunks: Vec<(u64, Vec<u8>)>,
    ) -> Result<usize> {
        let (word_leaf, vector_leaf) = self.columns.leaves(file)?;
        let reader = Arc::new(Chunks {
            len: file.len,
            pieces: chunks.into_iter().map(|(start, bytes)| (start, Bytes::from(bytes))).collect(),
        });
        let metadata = file.metadata.row_group(group);
        let props = Arc::new(ReaderProperties::builder().build());
        let row_group = SerializedRowGroupReader::new(
            reader,
            metadata,
            file.metadata.page_index_for_row_group(group),
            props,
        )
        .map_err(|e| parquet_error("a row group", e))?;
        let rows = usize::try_from(metadata.num_rows()).unwrap_or(0);
        let first_row = self.words.len();
        // Each column's reader is made for its own type from its pages, where the crate's
        // `get_column_reader` would build (and link) the readers of all eight physical types.
        let pages =
            |leaf: usize| row_group.get_column_page_reader(leaf).map_err(|e| self.row_error(first_row, e));
        let word_descr = file.schema().column(word_leaf);
        let max_def = word_descr.max_def_level();
        let mut words = WordColumn {
            reader: ColumnReaderImpl::new(word_descr, pages(word_leaf)?),
            max_def,
            values: Vec::new(),
            defs: Vec::new(),
        };
        let vector_descr = file.schema().column(vector_leaf);
        let levels = ListLevels {
            value: vector_descr.max_def_level(),
            element: vector_descr.repeated_ancestor_def_level(),
        };
        let reader = if self.columns.f64 {
            Floats::F64(ColumnReaderImpl::new(vector_descr, pages(vector_leaf)?))
        } else {
            Floats::F32(ColumnReaderImpl::new(vector_descr, pages(vector_leaf)?))
        };
        let mut vectors = VectorColumn::new(reader, levels);
        let mut done = 0;
        while done < rows {
            let batch = BATCH_ROWS.min(rows - done);
            let at = self.words.len();
            let read = words.read(batch, &mut self.words, &mut self.non_utf8).map_err(|e| match e {
                WordError::Null(r) => self.row_problem(at + r, "its word is null".into()),
                WordError::Parquet(e) => self.row_error(at, e),
            })?;
            let vectors_read = self.read_vectors(&mut vectors, batch, at)?;
            if read != batch || vectors_read != batch {
                return Err(Error::Parquet(format!(
                    "row group {group} says it holds {} rows, but its columns end after {}: the file is damaged",
                    thousands(rows as u64),
                    thousands((done + read.min(vectors_read)) as u64)
                )));
            }
            done += batch;
        }
        Ok(self.words.len())
    }

    /// Reads up to `batch` rows of vectors, checking each is whole, of the table's length and
    /// finite; `at` is the index of the first row read (for messages).
    fn read_vectors(&mut self, vectors: &mut VectorColumn, batch: usize, at: usize) -> Result<usize> {
        let rows = vectors.read(batch).map_err(|e| self.row_error(at, e))?;
        for (i, row) in rows.iter().enumerate() {
            let index = at + i;
            let values = match row {
                Row::Null => return Err(self.row_problem(index, "its vector is null".into())),
                Row::NullElement(k) => {
                    return Err(self.row_problem(index, format!("value {} of its vector is null", k + 1)));
                }
                Row::Values(range) => &vectors.values[range.clone()],
            };
            let dim = *self.dim.get_or_insert(values.len());
            if values.len() != dim {
                return Err(self.row_problem(
                    index,
                    format!("its vector has {} values, but the rows before have {dim}: every vector must have the same length", values.len()),
                ));
            }
            if dim == 0 {
                return Err(self.row_problem(index, "its vector is empty".into()));
            }
            if self.values.is_empty() {
                let kept = self.rows_total.saturating_mul(dim as u64).saturating_mul(8);
                if kept > MAX_TABLE_BYTES {
                    return Err(Error::Parquet(format!(
                        "{} rows × {dim} values would take {} kept, more than the {} a tab can hold beside the map",
                        thousands(self.rows_total),
                        show_bytes(kept),
                        show_bytes(MAX_TABLE_BYTES)
                    )));
                }
                // The footers' count sizes the rows once; a count the memory cannot hold is an
                // error here, where an allocation that failed would end the tab.
                let values = (self.rows_total as usize).saturating_mul(dim);
                self.values.try_reserve_exact(values).map_err(|_| {
                    Error::Parquet(format!(
                        "{} rows × {dim} values do not fit in the memory left",
                        thousands(self.rows_total)
                    ))
                })?;
            }
            if let Some(k) = values.iter().position(|v| !v.is_finite()) {
                return Err(
                    self.row_problem(index, format!("value {} of its vector is {}", k + 1, values[k]))
                );
            }
            self.values.extend_from_slice(values);
        }
        Ok(rows.len())
    }

    /// Rows read so far, and the rows the footers announce.
    pub fn progress(&self) -> (usize, u64) {
        (self.words.len(), self.rows_total)
    }

    /// The embeddings, once every row group of every file is read, with what the table was.
    /// Fails when no row was read, a word repeats, or the Spark metadata disagrees.
    pub fn finish(self) -> Result<(Embeddings, TableInfo)> {
        let TableReader { columns, files, words, values, dim, non_utf8, spark, .. } = self;
        let Some(dim) = dim else {
            return Err(Error::Parquet("the table holds no rows".into()));
        };
        if words.len() < 2 {
            return Err(Error::Parquet(
                "the table holds a single row: exploring vectors needs at least two words".into(),
            ));
        }
        if let Some(spark) = &spark {
            if let Some(size) = spark.vector_size.filter(|&size| size != dim) {
                return Err(Error::Parquet(format!(
                    "the Spark metadata says the vectors have {size} values, but the table's have {dim}: the metadata belongs to another model"
                )));
            }
            if let Some(n) = spark.num_words.filter(|&n| n != words.len()) {
                return Err(Error::Parquet(format!(
                    "the Spark metadata says the model has {} words, but the data files hold {}: open every part file of data/",
                    thousands(n as u64),
                    thousands(words.len() as u64)
                )));
            }
        }
        let info = TableInfo { files, rows: words.len(), dim, columns, spark, non_utf8 };
        let embeddings = Embeddings::new(words, dim, values).map_err(|e| match e {
            Error::Format { message, .. } => Error::Parquet(message),
            other => Error::Parquet(other.to_string()),
        })?;
        Ok((embeddings, info))
    }

    /// `err` of the parquet crate, at the row group starting at row `at`.
    fn row_error(&self, at: usize, err: ParquetError) -> Error {
        parquet_error(&format!("the rows from {} on", thousands(at as u64 + 1)), err)
    }

    /// What is wrong with row `index` (0-based), naming its word.
    fn row_problem(&self, index: usize, what: String) -> Error {
        let word = self.words.get(index).map(|w| format!(" ('{w}')")).unwrap_or_default();
        Error::Parquet(format!("row {}{word}: {what}", thousands(index as u64 + 1)))
    }
}

/// Where a column chunk's bytes lie: from its dictionary page (if any) or first data page, for
/// its compressed size. Checked, where the crate's `byte_range` panics on negative numbers.
fn chunk_range(column: &parquet::file::metadata::ColumnChunkMetaData) -> Result<(u64, u64)> {
    let start = column.dictionary_page_offset().unwrap_or_else(|| column.data_page_offset());
    let len = column.compressed_size();
    if start < 0 || len < 0 {
        return Err(Error::Parquet(format!(
            "the column '{}' has a negative offset or size: the file is damaged",
            column.column_path().string()
        )));
    }
    Ok((start as u64, len as u64))
}

/// Refuses the codecs this build does not decode, by name, with what to do.
fn check_codec(codec: Compression, column: &str) -> Result<()> {
    match codec {
        Compression::UNCOMPRESSED | Compression::SNAPPY | Compression::GZIP(_) => Ok(()),
        other => {
            let name = match other {
                Compression::ZSTD(_) => "zstd",
                Compression::BROTLI(_) => "Brotli",
                Compression::LZ4 | Compression::LZ4_RAW => "LZ4",
                Compression::LZO => "LZO",
                _ => "a codec",
            };
            Err(Error::Parquet(format!(
                "the column '{column}' is compressed with {name}, which embedscope does not read (it reads uncompressed, \
                 snappy and gzip tables): write the table again with snappy, e.g. pyarrow's \
                 pq.write_table(table, path, compression='snappy') or Spark's spark.sql.parquet.compression.codec=snappy"
            )))
        }
    }
}

/// An error of the parquet crate, reading `what`, as a person reads it.
fn parquet_error(what: &str, err: ParquetError) -> Error {
    let detail = match err {
        ParquetError::EOF(m) | ParquetError::General(m) => m,
        ParquetError::NYI(m) => format!("not supported: {m}"),
        ParquetError::IndexOutOfBound(i, n) => format!("index {i} out of {n}"),
        ParquetError::NeedMoreData(n) => format!("{n} more bytes were needed"),
        other => other.to_string(),
    };
    Error::Parquet(format!("cannot read {what} (the file is damaged or cut short): {detail}"))
}

/// Reads the footer of `file`, `file_len` bytes long: its last [`FIRST_TAIL_READ`] bytes,
/// then as many as the footer says it needs.
pub fn read_file_footer<R: Read + Seek>(file: &mut R, name: &str, file_len: u64) -> Result<ParquetFile> {
    let mut wanted = FIRST_TAIL_READ.min(file_len);
    let mut tail = Vec::new();
    loop {
        tail.clear();
        file.seek(SeekFrom::Start(file_len - wanted)).map_err(io_error)?;
        file.by_ref().take(wanted).read_to_end(&mut tail).map_err(io_error)?;
        match ParquetFile::read_footer(name, &tail, file_len)? {
            FooterRead::Done(parquet) => return Ok(parquet),
            FooterRead::NeedMore(n) if n > wanted && n <= file_len => wanted = n,
            FooterRead::NeedMore(_) => {
                return Err(Error::Parquet("its footer runs past the start of the file".into()));
            }
        }
    }
}

/// The vectors of the Parquet files `files` (each a name, a reader and its length; the parts
/// of one table, in order), from the columns `chosen` (or found: [`Columns::choose`]), with
/// `progress(rows read, rows)` after each row group. A file's name leads any error about it.
pub fn read_tables<R: Read + Seek>(
    files: Vec<(String, R, u64)>,
    chosen: Option<(&str, &str)>,
    spark: Option<SparkMetadata>,
    mut progress: impl FnMut(usize, u64),
) -> Result<(Embeddings, TableInfo)> {
    let in_file = |name: &str, err: Error| Error::Parquet(format!("{name}: {err}"));
    let mut opened = Vec::with_capacity(files.len());
    for (name, mut reader, len) in files {
        let footer = read_file_footer(&mut reader, &name, len).map_err(|e| in_file(&name, e))?;
        opened.push((footer, reader));
    }
    let Some((first, _)) = opened.first() else {
        return Err(Error::Parquet("no Parquet file was given".into()));
    };
    let columns = Columns::choose(first, chosen).map_err(|e| in_file(first.name(), e))?;
    let rows = opened.iter().map(|(f, _)| f.rows()).sum();
    let mut table = TableReader::new(columns, opened.len(), rows, spark);
    for (file, reader) in &mut opened {
        for group in 0..file.row_groups() {
            let ranges = table.ranges(file, group).map_err(|e| in_file(file.name(), e))?;
            let mut chunks = Vec::with_capacity(ranges.len());
            for (start, len) in ranges {
                reader.seek(SeekFrom::Start(start)).map_err(io_error)?;
                let mut bytes = Vec::with_capacity(len as usize);
                reader.by_ref().take(len).read_to_end(&mut bytes).map_err(io_error)?;
                chunks.push((start, bytes));
            }
            table.push_row_group(file, group, chunks).map_err(|e| in_file(file.name(), e))?;
            let (read, rows) = table.progress();
            progress(read, rows);
        }
    }
    table.finish()
}

fn io_error(err: std::io::Error) -> Error {
    Error::Io(format!("cannot read the Parquet file: {err}"))
}
