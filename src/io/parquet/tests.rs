//! Tables written here by the parquet crate's own writer: Spark's layout (a `word` string and
//! a `vector` list of floats), several part files, doubles, gzip, the older two-level lists,
//! a table of many columns, and every way a table can fail to be vectors.

use std::io::Cursor;
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, FloatType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use super::*;

/// Spark's `Word2VecModel` data schema: `Data(word: String, vector: Array[Float])`.
const SPARK: &str = "message spark_schema {
    optional binary word (STRING);
    optional group vector (LIST) { repeated group list { required float element; } }
}";

/// pyarrow's layout of a nullable list of nullable doubles.
const DOUBLES: &str = "message schema {
    optional binary word (STRING);
    optional group vector (LIST) { repeated group list { optional double element; } }
}";

/// The older two-level list: a repeated float at the top.
const REPEATED: &str = "message schema {
    required binary word (UTF8);
    repeated float vector;
}";

/// One column's rows.
#[derive(Clone)]
enum Column {
    Words(Vec<Option<String>>),
    Floats(Vec<Option<Vec<Option<f64>>>>),
    Ints(Vec<i64>),
}

fn words(list: &[&str]) -> Column {
    Column::Words(list.iter().map(|w| Some(w.to_string())).collect())
}

fn floats(rows: &[Vec<f64>]) -> Column {
    Column::Floats(rows.iter().map(|r| Some(r.iter().map(|&v| Some(v)).collect())).collect())
}

/// A Parquet file of `schema`, a row group for each list of columns (in the schema's leaf
/// order), compressed with `codec`.
fn write(schema: &str, codec: Compression, groups: &[Vec<Column>]) -> Vec<u8> {
    let schema = Arc::new(parse_message_type(schema).unwrap());
    let props = Arc::new(WriterProperties::builder().set_compression(codec).build());
    let mut out = Vec::new();
    let leaves = SchemaDescriptor::new(schema.clone());
    let mut writer = SerializedFileWriter::new(&mut out, schema, props).unwrap();
    for columns in groups {
        let mut group = writer.next_row_group().unwrap();
        for (leaf, column) in columns.iter().enumerate() {
            let mut col = group.next_column().unwrap().unwrap();
            let descr = leaves.column(leaf);
            let (max_def, max_rep) = (descr.max_def_level(), descr.max_rep_level());
            match column {
                Column::Words(rows) => {
                    let values: Vec<ByteArray> =
                        rows.iter().flatten().map(|w| ByteArray::from(w.as_bytes().to_vec())).collect();
                    let defs: Vec<i16> = rows.iter().map(|w| if w.is_some() { max_def } else { 0 }).collect();
                    col.typed::<ByteArrayType>()
                        .write_batch(&values, (max_def > 0).then_some(&defs), None)
                        .unwrap();
                }
                Column::Ints(rows) => {
                    col.typed::<Int64Type>().write_batch(rows, None, None).unwrap();
                }
                Column::Floats(rows) => {
                    let element = descr.repeated_ancestor_def_level();
                    let (mut values, mut defs, mut reps) = (Vec::new(), Vec::new(), Vec::new());
                    for row in rows {
                        match row {
                            None => {
                                defs.push(0);
                                reps.push(0);
                            }
                            Some(list) if list.is_empty() => {
                                defs.push(element - 1);
                                reps.push(0);
                            }
                            Some(list) => {
                                for (k, v) in list.iter().enumerate() {
                                    reps.push(if k == 0 { 0 } else { max_rep });
                                    match v {
                                        Some(v) => {
                                            defs.push(max_def);
                                            values.push(*v);
                                        }
                                        None => defs.push(element),
                                    }
                                }
                            }
                        }
                    }
                    if descr.physical_type() == parquet::basic::Type::DOUBLE {
                        col.typed::<DoubleType>().write_batch(&values, Some(&defs), Some(&reps)).unwrap();
                    } else {
                        let values: Vec<f32> = values.iter().map(|&v| v as f32).collect();
                        col.typed::<FloatType>().write_batch(&values, Some(&defs), Some(&reps)).unwrap();
                    }
                }
            }
            col.close().unwrap();
        }
        group.close().unwrap();
    }
    writer.close().unwrap();
    out
}

fn read(files: Vec<(&str, Vec<u8>)>, chosen: Option<(&str, &str)>) -> Result<(Embeddings, TableInfo)> {
    read_with(files, chosen, None)
}

fn read_with(
    files: Vec<(&str, Vec<u8>)>,
    chosen: Option<(&str, &str)>,
    spark: Option<SparkMetadata>,
) -> Result<(Embeddings, TableInfo)> {
    let files = files
        .into_iter()
        .map(|(name, bytes)| (name.to_string(), Cursor::new(bytes.clone()), bytes.len() as u64))
        .collect();
    read_tables(files, chosen, spark, |_, _| {})
}

fn message(result: Result<(Embeddings, TableInfo)>) -> String {
    match result {
        Ok(_) => panic!("the table was read, where an error was expected"),
        Err(err) => err.to_string(),
    }
}

/// The words and rows of `embeddings`, as read.
fn rows(embeddings: &Embeddings) -> Vec<(String, Vec<f32>)> {
    (0..embeddings.len()).map(|i| (embeddings.word(i).to_string(), embeddings.vector(i).to_vec())).collect()
}

fn spark_file(group_rows: &[&[(&str, [f64; 3])]], codec: Compression) -> Vec<u8> {
    let groups: Vec<Vec<Column>> = group_rows
        .iter()
        .map(|rows| {
            let w: Vec<&str> = rows.iter().map(|(w, _)| *w).collect();
            let v: Vec<Vec<f64>> = rows.iter().map(|(_, v)| v.to_vec()).collect();
            vec![words(&w), floats(&v)]
        })
        .collect();
    write(SPARK, codec, &groups)
}

const KING: (&str, [f64; 3]) = ("king", [1.0, 2.0, 0.5]);
const QUEEN: (&str, [f64; 3]) = ("queen", [0.9, 2.1, -0.5]);
const MAN: (&str, [f64; 3]) = ("man", [0.25, -1.0, 0.125]);
const WOMAN: (&str, [f64; 3]) = ("woman", [0.2, -0.9, -0.75]);

#[test]
fn spark_parts_in_order_with_their_row_groups() {
    let part0 = spark_file(&[&[KING, QUEEN], &[MAN]], Compression::SNAPPY);
    let part1 = spark_file(&[&[WOMAN]], Compression::SNAPPY);
    let (embeddings, info) =
        read(vec![("part-00000.parquet", part0), ("part-00001.parquet", part1)], None).unwrap();
    let expected: Vec<(String, Vec<f32>)> = [KING, QUEEN, MAN, WOMAN]
        .iter()
        .map(|(w, v)| (w.to_string(), v.iter().map(|&x| x as f32).collect()))
        .collect();
    assert_eq!(rows(&embeddings), expected);
    assert_eq!((info.files, info.rows, info.dim), (2, 4, 3));
    assert_eq!(info.columns, Columns { word: "word".into(), vector: "vector".into(), f64: false });
    assert!(info.note().contains("the rows keep the table's order"), "{}", info.note());
}

#[test]
fn gzip_and_uncompressed_read_alike() {
    let groups: &[&[(&str, [f64; 3])]] = &[&[KING, QUEEN, MAN, WOMAN]];
    let plain = read(vec![("a", spark_file(groups, Compression::UNCOMPRESSED))], None).unwrap().0;
    let gzip = read(vec![("a", spark_file(groups, Compression::GZIP(Default::default())))], None).unwrap().0;
    assert_eq!(rows(&plain), rows(&gzip));
}

#[test]
fn doubles_round_to_the_nearest_f32() {
    let third = 1.0 / 3.0;
    let file = write(
        DOUBLES,
        Compression::SNAPPY,
        &[vec![words(&["a", "b"]), floats(&[vec![third, 0.1], vec![1e-40, -2.5]])]],
    );
    let (embeddings, info) = read(vec![("d.parquet", file)], None).unwrap();
    assert_eq!(embeddings.vector(0).to_vec(), vec![third as f32, 0.1f32]);
    assert_eq!(embeddings.vector(1).to_vec(), vec![1e-40f64 as f32, -2.5]);
    assert!(info.columns.f64);
    assert!(info.note().contains("doubles, kept as 32-bit floats"));
}

#[test]
fn a_repeated_float_is_a_vector_column_too() {
    let file = write(
        REPEATED,
        Compression::SNAPPY,
        &[vec![words(&["x", "y"]), floats(&[vec![1.0, 2.0], vec![3.0, 4.0]])]],
    );
    let (embeddings, _) = read(vec![("r.parquet", file)], None).unwrap();
    assert_eq!(rows(&embeddings), vec![("x".into(), vec![1.0, 2.0]), ("y".into(), vec![3.0, 4.0])]);
}

/// A table with an id, two string columns and two list columns: which are the words and the
/// vectors is the person's choice.
fn many_columns() -> Vec<u8> {
    let schema = "message schema {
        required int64 id;
        optional binary token (STRING);
        optional binary source (STRING);
        optional group small (LIST) { repeated group list { optional float element; } }
        optional group embedding (LIST) { repeated group list { optional float element; } }
    }";
    write(
        schema,
        Compression::SNAPPY,
        &[vec![
            Column::Ints(vec![7, 8, 9]),
            words(&["red", "green", "blue"]),
            words(&["web", "web", "book"]),
            floats(&[vec![1.0], vec![2.0], vec![3.0]]),
            floats(&[vec![1.0, 0.0, 0.0], vec![0.0, 1.0, 0.0], vec![0.7, 0.7, 0.1]]),
        ]],
    )
}

#[test]
fn several_candidates_are_listed_and_a_choice_is_read() {
    let table = many_columns();
    let err = message(read(vec![("t.parquet", table.clone())], None));
    assert_eq!(
        err,
        "t.parquet: choose the columns: the words from one of 'token', 'source' and the vectors from one of 'small', 'embedding'"
    );
    let footer = read_file_footer(&mut Cursor::new(&table), "t.parquet", table.len() as u64).unwrap();
    assert!(Columns::needs_choice(&footer));
    let (embeddings, info) = read(vec![("t.parquet", table.clone())], Some(("token", "embedding"))).unwrap();
    assert_eq!(embeddings.word(2), "blue");
    assert_eq!(embeddings.vector(2).to_vec(), vec![0.7, 0.7, 0.1]);
    assert_eq!(info.dim, 3);
    let wrong = message(read(vec![("t.parquet", table.clone())], Some(("id", "embedding"))));
    assert_eq!(
        wrong,
        "t.parquet: the column 'id' holds INT64, not strings; the string columns: 'token', 'source'"
    );
    let missing = message(read(vec![("t.parquet", table)], Some(("token", "vec"))));
    assert!(
        missing.starts_with(
            "t.parquet: the table has no column 'vec'; its columns: 'id' (INT64), 'token' (string)"
        ),
        "{missing}"
    );
}

#[test]
fn spark_names_settle_the_choice_among_several() {
    let schema = "message schema {
        optional binary word (STRING);
        optional binary note (STRING);
        optional group vector (LIST) { repeated group list { optional float element; } }
    }";
    let file = write(
        schema,
        Compression::SNAPPY,
        &[vec![words(&["a", "b"]), words(&["x", "y"]), floats(&[vec![1.0], vec![2.0]])]],
    );
    let footer = read_file_footer(&mut Cursor::new(&file), "f", file.len() as u64).unwrap();
    assert!(!Columns::needs_choice(&footer));
    assert_eq!(read(vec![("f", file)], None).unwrap().1.columns.word, "word");
}

#[test]
fn tables_without_words_or_vectors_say_what_they_hold() {
    let no_words = write(
        "message s { required int64 id; optional group v (LIST) { repeated group list { optional float element; } } }",
        Compression::SNAPPY,
        &[vec![Column::Ints(vec![1, 2]), floats(&[vec![1.0], vec![2.0]])]],
    );
    assert_eq!(
        message(read(vec![("n.parquet", no_words)], None)),
        "n.parquet: the table has no string column to take the words from; its columns: 'id' (INT64), 'v' (list<float>)"
    );
    let no_vectors = write(
        "message s { optional binary w (STRING); required int64 id; }",
        Compression::SNAPPY,
        &[vec![words(&["a", "b"]), Column::Ints(vec![1, 2])]],
    );
    assert_eq!(
        message(read(vec![("n.parquet", no_vectors)], None)),
        "n.parquet: the table has no column of lists of floats to take the vectors from; its columns: 'w' (string), 'id' (INT64)"
    );
}

#[test]
fn ragged_null_and_non_finite_rows_are_named() {
    let cases: Vec<(Column, Column, &str)> = vec![
        (
            words(&["a", "b", "c"]),
            floats(&[vec![1.0, 2.0], vec![1.0, 2.0], vec![3.0]]),
            "row 3 ('c'): its vector has 1 values, but the rows before have 2: every vector must have the same length",
        ),
        (
            words(&["a", "b"]),
            Column::Floats(vec![Some(vec![Some(1.0)]), None]),
            "row 2 ('b'): its vector is null",
        ),
        (
            words(&["a", "b"]),
            Column::Floats(vec![Some(vec![Some(1.0), Some(2.0)]), Some(vec![Some(1.0), None])]),
            "row 2 ('b'): value 2 of its vector is null",
        ),
        (
            words(&["a", "b"]),
            Column::Floats(vec![Some(vec![]), Some(vec![])]),
            "row 1 ('a'): its vector is empty",
        ),
        (
            words(&["a", "b"]),
            floats(&[vec![1.0], vec![f64::NAN]]),
            "row 2 ('b'): value 1 of its vector is NaN",
        ),
        (
            Column::Words(vec![Some("a".into()), None]),
            floats(&[vec![1.0], vec![2.0]]),
            "row 2: its word is null",
        ),
    ];
    for (w, v, expected) in cases {
        let file = write(DOUBLES, Compression::SNAPPY, &[vec![w, v]]);
        assert_eq!(message(read(vec![("bad.parquet", file)], None)), format!("bad.parquet: {expected}"));
    }
}

#[test]
fn a_repeated_word_and_a_single_row_are_refused() {
    let twice =
        write(SPARK, Compression::SNAPPY, &[vec![words(&["a", "a"]), floats(&[vec![1.0], vec![2.0]])]]);
    assert_eq!(message(read(vec![("w", twice)], None)), "the word 'a' occurs twice");
    let one = write(SPARK, Compression::SNAPPY, &[vec![words(&["a"]), floats(&[vec![1.0]])]]);
    assert_eq!(
        message(read(vec![("w", one)], None)),
        "the table holds a single row: exploring vectors needs at least two words"
    );
}

#[test]
fn parts_of_different_tables_are_refused() {
    let spark = spark_file(&[&[KING, QUEEN]], Compression::SNAPPY);
    let doubles =
        write(DOUBLES, Compression::SNAPPY, &[vec![words(&["a", "b"]), floats(&[vec![1.0], vec![2.0]])]]);
    assert_eq!(
        message(read(vec![("p0", spark), ("p1", doubles)], None)),
        "p1: it has no column 'vector' of lists of floats, which the first file had: the files are not parts of one table"
    );
}

#[test]
fn files_that_are_not_parquet_or_cut_short_are_named() {
    assert_eq!(
        message(read(vec![("x.txt", b"king 1 2 3\nqueen 1 2 3\n".to_vec())], None)),
        "x.txt: the file does not end as a Parquet file does (with PAR1): it is cut short, or not Parquet"
    );
    assert_eq!(
        message(read(vec![("x", b"PAR1".to_vec())], None)),
        "x: 4 bytes is too short for a Parquet file: it is cut short, or not Parquet"
    );
    let file = spark_file(&[&[KING, QUEEN], &[MAN, WOMAN]], Compression::SNAPPY);
    for cut in [file.len() - 1, file.len() / 2, 20] {
        let err = message(read(vec![("cut.parquet", file[..cut].to_vec())], None));
        assert!(err.starts_with("cut.parquet: "), "{err}");
        assert!(err.contains("cut short") || err.contains("damaged"), "cut at {cut}: {err}");
    }
}

#[test]
fn the_footer_is_read_from_the_end_growing_as_it_asks() {
    let file = spark_file(&[&[KING, QUEEN]], Compression::SNAPPY);
    let len = file.len() as u64;
    let FooterRead::NeedMore(n) = ParquetFile::read_footer("f", &file[file.len() - 8..], len).unwrap() else {
        panic!("8 bytes hold no footer");
    };
    assert!(n > 8 && n < len);
    let FooterRead::Done(footer) =
        ParquetFile::read_footer("f", &file[file.len() - n as usize..], len).unwrap()
    else {
        panic!("{n} bytes hold the footer");
    };
    assert_eq!(footer.rows(), 2);
    assert_eq!(footer.columns().iter().map(|c| c.type_name()).collect::<Vec<_>>(), ["string", "list<float>"]);
}

#[test]
fn spark_metadata_checks_the_vectors() {
    let ml = r#"{"class":"org.apache.spark.ml.feature.Word2VecModel","timestamp":1,"sparkVersion":"4.0.0","uid":"w2v","paramMap":{"vectorSize":3,"minCount":5},"defaultParamMap":{"vectorSize":100}}"#;
    let mllib = r#"{"class":"org.apache.spark.mllib.feature.Word2VecModel","version":"1.0","vectorSize":3,"numWords":5}"#;
    // What each says is read in spark.rs's own test; here it is checked against a table.
    let (ml, mllib) = (SparkMetadata::read(ml).unwrap(), SparkMetadata::read(mllib).unwrap());
    let file = spark_file(&[&[KING, QUEEN, MAN, WOMAN]], Compression::SNAPPY);
    let (_, info) = read_with(vec![("p", file.clone())], None, Some(ml)).unwrap();
    assert!(info.note().starts_with("Spark's Word2VecModel of 1 file"), "{}", info.note());
    assert_eq!(
        message(read_with(vec![("p", file.clone())], None, Some(mllib))),
        "the Spark metadata says the model has 5 words, but the data files hold 4: open every part file of data/"
    );
    let other = SparkMetadata { vector_size: Some(100), ..SparkMetadata::default() };
    assert!(
        message(read_with(vec![("p", file)], None, Some(other)))
            .contains("says the vectors have 100 values, but the table's have 3")
    );
}

#[test]
fn push_reads_as_the_native_loop_does() {
    // The page's order of calls: footer from the tail, the ranges, each row group's bytes.
    let file = spark_file(&[&[KING], &[QUEEN, MAN], &[WOMAN]], Compression::SNAPPY);
    let len = file.len() as u64;
    let FooterRead::Done(footer) = ParquetFile::read_footer("f", &file, len).unwrap() else { panic!() };
    let columns = Columns::choose(&footer, None).unwrap();
    let mut table = TableReader::new(columns, 1, footer.rows(), None);
    for group in 0..footer.row_groups() {
        let chunks = table
            .ranges(&footer, group)
            .unwrap()
            .into_iter()
            .map(|(start, n)| (start, file[start as usize..(start + n) as usize].to_vec()))
            .collect();
        table.push_row_group(&footer, group, chunks).unwrap();
    }
    assert_eq!(table.progress(), (4, 4));
    let pushed = table.finish().unwrap().0;
    assert_eq!(rows(&pushed), rows(&read(vec![("f", file)], None).unwrap().0));
}

#[test]
fn many_rows_cross_batches() {
    let n = 3 * BATCH_ROWS + 17;
    let w: Vec<String> = (0..n).map(|i| format!("w{i}")).collect();
    let v: Vec<Vec<f64>> = (0..n).map(|i| vec![i as f64, 1.0, -(i as f64) / 7.0]).collect();
    let file = write(
        SPARK,
        Compression::SNAPPY,
        &[vec![Column::Words(w.iter().cloned().map(Some).collect()), floats(&v)]],
    );
    let (embeddings, _) = read(vec![("big", file)], None).unwrap();
    assert_eq!(embeddings.len(), n);
    for i in [0, BATCH_ROWS - 1, BATCH_ROWS, n - 1] {
        assert_eq!(embeddings.word(i), w[i]);
        assert_eq!(embeddings.vector(i).to_vec(), v[i].iter().map(|&x| x as f32).collect::<Vec<_>>());
    }
}

#[test]
fn fuzz_mutated_tables_never_panic() {
    let valid = many_columns();
    let spark = spark_file(&[&[KING, QUEEN], &[MAN, WOMAN]], Compression::SNAPPY);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(29);
    for round in 0..400 {
        let base = if round % 2 == 0 { &valid } else { &spark };
        let bytes = if rng.random_range(0..4) == 0 {
            let cut = rng.random_range(0..base.len());
            base[..cut].to_vec()
        } else {
            crate::fuzz::mutate_bytes(&mut rng, base, &[b"PAR1", &[0xff; 4], &[0; 4]])
        };
        let chosen = (round % 2 == 0).then_some(("token", "embedding"));
        let _ = read(vec![("fuzz", bytes)], chosen);
    }
}
