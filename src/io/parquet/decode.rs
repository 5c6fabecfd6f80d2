//! A row group's two columns decoded by the `parquet` crate's column readers, from the bytes
//! of their chunks alone ([`Chunks`]): the words' strings, and the vectors' values with their
//! repetition and definition levels turned into rows.

use std::io::Cursor;

use bytes::Bytes;
use parquet::column::reader::ColumnReaderImpl;
use parquet::data_type::{ByteArray, DataType, DoubleType, FloatType};
use parquet::errors::ParquetError;
use parquet::file::reader::{ChunkReader, Length};

/// The bytes of a file that were read: a few ranges, each with its start. What the
/// crate's readers ask for must lie inside one of them.
pub(super) struct Chunks {
    pub(super) len: u64,
    pub(super) pieces: Vec<(u64, Bytes)>,
}

impl Chunks {
    fn find(&self, start: u64, len: u64) -> parquet::errors::Result<Bytes> {
        self.pieces
            .iter()
            .find(|(at, bytes)| *at <= start && start.saturating_add(len) <= at + bytes.len() as u64)
            .map(|(at, bytes)| bytes.slice((start - at) as usize..(start - at + len) as usize))
            .ok_or_else(|| {
                ParquetError::EOF(format!(
                    "bytes {start}..{} lie outside the column chunks read",
                    start.saturating_add(len)
                ))
            })
    }
}

impl Length for Chunks {
    fn len(&self) -> u64 {
        self.len
    }
}

impl ChunkReader for Chunks {
    type T = Cursor<Bytes>;

    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        let (at, bytes) = self
            .pieces
            .iter()
            .find(|(at, bytes)| *at <= start && start < at + bytes.len() as u64)
            .ok_or_else(|| ParquetError::EOF(format!("byte {start} lies outside the column chunks read")))?;
        Ok(Cursor::new(bytes.slice((start - at) as usize..)))
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        self.find(start, length as u64)
    }
}

/// The words' column, read a batch of rows at a time.
pub(super) struct WordColumn {
    pub(super) reader: ColumnReaderImpl<parquet::data_type::ByteArrayType>,
    pub(super) max_def: i16,
    pub(super) values: Vec<ByteArray>,
    pub(super) defs: Vec<i16>,
}

impl WordColumn {
    /// Appends up to `batch` words to `words`; a null word is an error naming its row in the batch.
    pub(super) fn read(
        &mut self,
        batch: usize,
        words: &mut Vec<String>,
        non_utf8: &mut usize,
    ) -> std::result::Result<usize, WordError> {
        self.values.clear();
        self.defs.clear();
        let defs = (self.max_def > 0).then_some(&mut self.defs);
        let (records, _, _) =
            self.reader.read_records(batch, defs, None, &mut self.values).map_err(WordError::Parquet)?;
        let mut values = self.values.iter();
        for r in 0..records {
            if self.max_def > 0 && self.defs[r] < self.max_def {
                return Err(WordError::Null(r));
            }
            let bytes = values.next().ok_or_else(|| {
                WordError::Parquet(ParquetError::EOF("the words' column ended early".into()))
            })?;
            let word = String::from_utf8_lossy(bytes.data());
            if let std::borrow::Cow::Owned(_) = word {
                *non_utf8 += 1;
            }
            words.push(word.into_owned());
        }
        Ok(records)
    }
}

/// Why a batch of words could not be read: a null word (its row in the batch), or the column's bytes.
pub(super) enum WordError {
    Null(usize),
    Parquet(ParquetError),
}

/// The definition levels of a list column: `value` where a value is present, `element`
/// (the repeated level's) where the list has an element (null below `value`); below
/// `element` the row's list is empty (`element - 1`) or null.
#[derive(Debug, Clone, Copy)]
pub(super) struct ListLevels {
    pub(super) value: i16,
    pub(super) element: i16,
}

/// One row of the vectors' column.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Row {
    /// The range of its values in the batch's values.
    Values(std::ops::Range<usize>),
    Null,
    /// Its `k`-th element (0-based) is null.
    NullElement(usize),
}

/// The vectors' column, `FLOAT` or `DOUBLE`, read a batch of rows at a time into `values`.
pub(super) struct VectorColumn {
    pub(super) reader: Floats,
    pub(super) levels: ListLevels,
    pub(super) values: Vec<f32>,
    pub(super) doubles: Vec<f64>,
    pub(super) defs: Vec<i16>,
    pub(super) reps: Vec<i16>,
}

pub(super) enum Floats {
    F32(ColumnReaderImpl<FloatType>),
    F64(ColumnReaderImpl<DoubleType>),
}

impl VectorColumn {
    pub(super) fn new(reader: Floats, levels: ListLevels) -> VectorColumn {
        VectorColumn {
            reader,
            levels,
            values: Vec::new(),
            doubles: Vec::new(),
            defs: Vec::new(),
            reps: Vec::new(),
        }
    }

    /// Reads up to `batch` rows: each row's values (in `self.values`) or what is null.
    pub(super) fn read(&mut self, batch: usize) -> parquet::errors::Result<Vec<Row>> {
        self.values.clear();
        self.defs.clear();
        self.reps.clear();
        let (records, _, levels) = match &mut self.reader {
            Floats::F32(r) => read_list(r, batch, &mut self.defs, &mut self.reps, &mut self.values)?,
            Floats::F64(r) => {
                self.doubles.clear();
                let read = read_list(r, batch, &mut self.defs, &mut self.reps, &mut self.doubles)?;
                // f64 to f32 rounds to nearest, as numpy's astype(float32) does.
                self.values.extend(self.doubles.iter().map(|&v| v as f32));
                read
            }
        };
        let ListLevels { value, element } = self.levels;
        let mut rows = Vec::with_capacity(records);
        let mut next_value = 0;
        for l in 0..levels {
            let (def, rep) = (self.defs[l], self.reps[l]);
            if rep == 0 {
                rows.push(if def >= element - 1 { Row::Values(next_value..next_value) } else { Row::Null });
            }
            let Some(row) = rows.last_mut() else {
                return Err(ParquetError::General("the vectors' column starts inside a row".into()));
            };
            if def == value {
                next_value += 1;
                if let Row::Values(range) = row {
                    range.end = next_value;
                }
            } else if def >= element
                && let Row::Values(range) = row
            {
                *row = Row::NullElement(range.len());
            }
        }
        if next_value != self.values.len() || rows.len() != records {
            return Err(ParquetError::General("the vectors' column's levels do not match its values".into()));
        }
        Ok(rows)
    }
}

/// `read_records` with both levels.
fn read_list<T: DataType>(
    reader: &mut ColumnReaderImpl<T>,
    batch: usize,
    defs: &mut Vec<i16>,
    reps: &mut Vec<i16>,
    values: &mut Vec<T::T>,
) -> parquet::errors::Result<(usize, usize, usize)> {
    reader.read_records(batch, Some(defs), Some(reps), values)
}
