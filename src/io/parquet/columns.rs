//! Which columns of a table are the words and the vectors: each top-level column's kind
//! (strings, lists of `FLOAT` or `DOUBLE`, anything else), and the pair chosen by name, by
//! being the only one of its kind, or by Spark's names.

use parquet::basic::{ConvertedType, LogicalType, Type as PhysicalType};
use parquet::schema::types::SchemaDescriptor;

use super::ParquetFile;
use crate::error::{Error, Result};

/// What a top-level column holds, as far as vectors go.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnKind {
    /// Strings: the words.
    Words,
    /// Lists of `FLOAT` (`f64: false`) or `DOUBLE` values: the vectors.
    Vectors { f64: bool },
    /// Anything else, described (`INT64`, `a list of INT32`, …).
    Other(String),
}

/// One top-level column of a table.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnInfo {
    pub name: String,
    pub kind: ColumnKind,
    /// Its leaf column's index in the schema (for a column of one leaf).
    pub(super) leaf: Option<usize>,
}

impl ColumnInfo {
    /// The column's type as a person reads it: `string`, `list<float>`, `list<double>`, or
    /// the Parquet type of another column.
    pub fn type_name(&self) -> String {
        match &self.kind {
            ColumnKind::Words => "string".into(),
            ColumnKind::Vectors { f64: false } => "list<float>".into(),
            ColumnKind::Vectors { f64: true } => "list<double>".into(),
            ColumnKind::Other(what) => what.clone(),
        }
    }
}

/// What the leaf column `leaf` holds: a string at the top level is a word, a `FLOAT` or
/// `DOUBLE` repeated once (a list, however the writer spelled it) is a vector.
pub(super) fn leaf_kind(schema: &SchemaDescriptor, leaf: usize) -> ColumnKind {
    let column = schema.column(leaf);
    let physical = column.physical_type();
    let repeated = column.max_rep_level();
    let is_string = matches!(column.logical_type_ref(), Some(LogicalType::String | LogicalType::Enum))
        || matches!(column.converted_type(), ConvertedType::UTF8 | ConvertedType::ENUM);
    match (physical, repeated) {
        (PhysicalType::BYTE_ARRAY, 0) if is_string => ColumnKind::Words,
        (PhysicalType::FLOAT, 1) => ColumnKind::Vectors { f64: false },
        (PhysicalType::DOUBLE, 1) => ColumnKind::Vectors { f64: true },
        (PhysicalType::BYTE_ARRAY, 0) => ColumnKind::Other("binary (not marked as a string)".into()),
        (physical, 0) => ColumnKind::Other(physical.to_string()),
        (physical, 1) => ColumnKind::Other(format!("a list of {physical}")),
        (physical, _) => ColumnKind::Other(format!("nested lists of {physical}")),
    }
}

/// Which columns of a table are the words and the vectors, and how they were found.
#[derive(Debug, Clone, PartialEq)]
pub struct Columns {
    pub word: String,
    pub vector: String,
    /// Whether the vectors are `DOUBLE`s (kept as `f32`).
    pub f64: bool,
}

impl Columns {
    /// The columns of `file`: `chosen` (`(words, vectors)` by name), else the only string
    /// column and the only list-of-floats column, else Spark's `word` and `vector`. Fails
    /// with the candidates listed when the table holds none, or several and none is chosen.
    pub fn choose(file: &ParquetFile, chosen: Option<(&str, &str)>) -> Result<Columns> {
        let columns = file.columns();
        let words: Vec<&ColumnInfo> = columns.iter().filter(|c| c.kind == ColumnKind::Words).collect();
        let vectors: Vec<&ColumnInfo> =
            columns.iter().filter(|c| matches!(c.kind, ColumnKind::Vectors { .. })).collect();
        let listed = |list: &[&ColumnInfo]| {
            list.iter().map(|c| format!("'{}'", c.name)).collect::<Vec<_>>().join(", ")
        };
        let all = || {
            columns.iter().map(|c| format!("'{}' ({})", c.name, c.type_name())).collect::<Vec<_>>().join(", ")
        };
        if let Some((word, vector)) = chosen {
            let find = |name: &str| columns.iter().find(|c| c.name == name);
            let word_column = find(word).ok_or_else(|| {
                Error::Parquet(format!("the table has no column '{word}'; its columns: {}", all()))
            })?;
            if word_column.kind != ColumnKind::Words {
                return Err(Error::Parquet(format!(
                    "the column '{word}' holds {}, not strings; the string columns: {}",
                    word_column.type_name(),
                    if words.is_empty() { "none".to_string() } else { listed(&words) }
                )));
            }
            let vector_column = find(vector).ok_or_else(|| {
                Error::Parquet(format!("the table has no column '{vector}'; its columns: {}", all()))
            })?;
            let ColumnKind::Vectors { f64 } = vector_column.kind else {
                return Err(Error::Parquet(format!(
                    "the column '{vector}' holds {}, not lists of floats; the list-of-float columns: {}",
                    vector_column.type_name(),
                    if vectors.is_empty() { "none".to_string() } else { listed(&vectors) }
                )));
            };
            return Ok(Columns { word: word.into(), vector: vector.into(), f64 });
        }
        if words.is_empty() {
            return Err(Error::Parquet(format!(
                "the table has no string column to take the words from; its columns: {}",
                all()
            )));
        }
        if vectors.is_empty() {
            return Err(Error::Parquet(format!(
                "the table has no column of lists of floats to take the vectors from; its columns: {}",
                all()
            )));
        }
        let pick = |list: &[&ColumnInfo], name: &str| match list {
            [only] => Some((*only).clone()),
            _ => list.iter().find(|c| c.name == name).map(|c| (*c).clone()),
        };
        match (pick(&words, "word"), pick(&vectors, "vector")) {
            (Some(word), Some(vector)) => {
                let ColumnKind::Vectors { f64 } = vector.kind else { unreachable!("picked among vectors") };
                Ok(Columns { word: word.name, vector: vector.name, f64 })
            }
            _ => Err(Error::Parquet(format!(
                "choose the columns: the words from one of {} and the vectors from one of {}",
                listed(&words),
                listed(&vectors)
            ))),
        }
    }

    /// Every string column and list-of-floats column of `file`, to choose from.
    pub fn candidates(file: &ParquetFile) -> (Vec<ColumnInfo>, Vec<ColumnInfo>) {
        let columns = file.columns();
        let words = columns.iter().filter(|c| c.kind == ColumnKind::Words).cloned().collect();
        let vectors = columns.into_iter().filter(|c| matches!(c.kind, ColumnKind::Vectors { .. })).collect();
        (words, vectors)
    }

    /// Whether a person must choose: the table holds several candidates of a kind and
    /// neither Spark's names nor a single candidate settles it.
    pub fn needs_choice(file: &ParquetFile) -> bool {
        let (words, vectors) = Columns::candidates(file);
        let settled =
            |list: &[ColumnInfo], name: &str| list.len() == 1 || list.iter().any(|c| c.name == name);
        let settled_both = settled(&words, "word") && settled(&vectors, "vector");
        !(words.is_empty() || vectors.is_empty() || settled_both)
    }

    /// The leaf indices of the two columns in `file`, which must hold them with the same
    /// types as the first file did.
    pub(super) fn leaves(&self, file: &ParquetFile) -> Result<(usize, usize)> {
        let columns = file.columns();
        let find = |name: &str, ok: &dyn Fn(&ColumnKind) -> bool, what: &str| {
            columns.iter().find(|c| c.name == name && ok(&c.kind)).and_then(|c| c.leaf).ok_or_else(|| {
                Error::Parquet(format!(
                    "it has no column '{name}' of {what}, which the first file had: the files are not parts of one table"
                ))
            })
        };
        let word = find(&self.word, &|k| *k == ColumnKind::Words, "strings")?;
        let f64 = self.f64;
        let vector = find(
            &self.vector,
            &|k| *k == ColumnKind::Vectors { f64 },
            if f64 { "lists of doubles" } else { "lists of floats" },
        )?;
        Ok((word, vector))
    }
}
