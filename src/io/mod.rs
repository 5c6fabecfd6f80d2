//! Files in and out of the core: the vector formats other tools read and write, the bundle
//! (one JSON file that holds a whole run and re-opens exactly) and the JSON it is written in.
//!
//! - This module: word2vec text and binary, GloVe, Projector TSV (below), one push parser
//!   for all of them ([`VectorsParser`]) and their writers, with the token escape.
//! - [`bundle`]: the run's own file ([`Bundle`], [`read_bundle`], [`write_bundle`]).
//! - [`json`]: serde_json as the bundle needs it (strict reading, floats that read back with
//!   their bits).
//! - [`compressed`]: gzip, bzip2, xz and zip files read as the file inside, a stream at a time.
//! - [`open`]: what the files a person gives are and how to open them ([`plan`]), for the
//!   command line and the page alike.
//! - [`parquet`]: Parquet tables of vectors (Spark's `Word2VecModel`, any table with a string
//!   column and a list-of-floats column), read footer first, then two column chunks at a time.
//!
//! **Architecture Invariant:** every reader and writer round-trips bit-exactly, and no input
//! makes a reader panic: a bad file is an [`Error::Format`] naming where it is wrong.
//!
//! # Vector files
//!
//! * **word2vec text** (Mikolov et al.'s `word2vec` tool; gensim's
//!   `KeyedVectors.load_word2vec_format`): the header `"<n> <dim>\n"`, then one line per
//!   word, `word v1 … vdim\n`, fields separated by one space.
//! * **word2vec binary**: the same header, then per word the word's UTF-8 bytes, one space,
//!   `dim` little-endian `f32`s (4 bytes each) and `\n`.
//! * **GloVe** (Pennington et al. 2014): word2vec text without the header. The dimension is
//!   the number of values on the first line, and every line must have as many. Some GloVe
//!   files (the Common Crawl "840B" one) hold a few tokens with spaces in them; their lines
//!   then seem to have too many values, and this reader rejects them.
//! * **Projector TSV** (the TensorFlow Embedding Projector): `vectors.tsv` holds one line of
//!   tab-separated values per word and no words; `metadata.tsv` holds the words. With one
//!   column, `metadata.tsv` has one word per line and no header; with several (its first
//!   line holds a tab) the first line is a header and the word is the first column. Without
//!   `metadata.tsv` the words are the 1-based row numbers `"1"`, `"2"`, … as strings.
//!
//! Writers format values with Rust's shortest round-trip formatting (`{}`), so reading a
//! text file back gives the same `f32` bits, and every reader and writer round-trips
//! bit-exactly.
//!
//! # Escaping tokens
//!
//! The formats end a word at whitespace (or a line), but a subword tokenizer makes tokens
//! such as `"from the dead"` or `"Jesus\n"`. Writers therefore store every word through
//! [`escape_token`] (whose documentation holds the table of escapes) and readers undo it.
//! An escaped token therefore holds no whitespace, and a token without backslashes or
//! whitespace is written unchanged, so ordinary files read as they are.
//! [`unescape_token`] accepts exactly the escapes of that table (`\u{HEX}` for any Unicode
//! scalar value, 1 to 6 hex digits) and rejects any other backslash sequence. The word2vec
//! readers reject such a word too; the GloVe and `metadata.tsv` readers keep it literally,
//! because those files mostly come from tools that do not escape, so a token such as `\o/`
//! reads as itself. The empty word cannot be stored in any format, so writers reject it.
//!
//! # Reading
//!
//! There is one reader per format, [`VectorsParser`], a push parser: a file may be pushed in
//! slices of any size, which lets the browser worker load a large file a few megabytes at a
//! time and report progress in between; [`read_vectors`] and friends push a whole
//! `std::io::Read`. [`VectorFormat::sniff`] tells the format from a file's first bytes.
//!
//! Readers check everything and report the first problem as [`Error::Format`] with the
//! 1-based line number and what is wrong (in binary vector data, which has no lines, the
//! line is 0 and the message names the word number). They accept what the `word2vec` tool
//! writes (a trailing space before the newline in text, a newline after each binary vector)
//! and `\r\n` line ends, and ignore blank lines after the last word. Headers are not trusted
//! for allocation: a short file with a huge header fails on its missing data, not by
//! exhausting memory.
//!
//! [`Error::Format`]: crate::Error::Format

pub mod bundle;
pub mod compressed;
mod escape;
pub mod fasttext;
mod format;
pub mod json;
pub mod open;
pub mod parquet;
mod parser;
mod write;

use std::io::Read;

pub use bundle::{BUNDLE_VERSION, Bundle, BundleRef, read_bundle, write_bundle};
pub use compressed::{Compressed, Compression, Decompressed};
pub use escape::{escape_token, unescape_token};
pub use format::VectorFormat;
pub use open::{Companion, FileHead, OpenOptions, OpenPlan, Refused, plan};
pub use parser::VectorsParser;
pub use write::{
    write_glove, write_projector_metadata, write_projector_tsv, write_projector_vectors,
    write_word2vec_binary, write_word2vec_text,
};

use crate::error::Result;
use crate::vectors::Embeddings;

/// Reads a whole file in `format`. A `vectors.tsv` read this way gets row numbers as words;
/// see [`read_projector_tsv`].
///
/// Fails with [`Error::Format`](crate::Error::Format) naming the line of the first
/// problem, and with [`Error::Io`](crate::Error::Io) when reading fails.
pub fn read_vectors(reader: impl Read, format: VectorFormat) -> Result<Embeddings> {
    VectorsParser::new(format).read_all(reader)
}

/// Reads the word2vec text format; see [`read_vectors`].
pub fn read_word2vec_text(reader: impl Read) -> Result<Embeddings> {
    read_vectors(reader, VectorFormat::Word2VecText)
}

/// Reads the word2vec binary format; see [`read_vectors`].
pub fn read_word2vec_binary(reader: impl Read) -> Result<Embeddings> {
    read_vectors(reader, VectorFormat::Word2VecBinary)
}

/// Reads a Projector `vectors.tsv` with the words of `metadata`, the text of its
/// `metadata.tsv` (see [`VectorsParser::with_metadata`]), or row numbers as words without it.
///
/// Fails like [`read_vectors`], and on metadata that is malformed or gives another number of
/// words than `vectors` has rows.
pub fn read_projector_tsv(vectors: impl Read, metadata: Option<&str>) -> Result<Embeddings> {
    let parser = match metadata {
        Some(text) => VectorsParser::with_metadata(text)?,
        None => VectorsParser::new(VectorFormat::ProjectorTsv),
    };
    parser.read_all(vectors)
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, RngExt, SeedableRng};

    use super::*;
    use crate::Error;
    use crate::fuzz::{mutate_bytes, mutate_text, random_bytes, random_finite_f32, random_slices};

    include!("tricky_tokens.rs");

    fn tricky_embeddings() -> Embeddings {
        let words: Vec<String> = TRICKY.iter().map(|w| w.to_string()).collect();
        let dim = 3;
        let specials = [0.1f32, -0.0, 1e-45, f32::MAX, f32::MIN_POSITIVE, -3.4028235e38, 1.0 / 3.0];
        let vectors = (0..words.len() * dim)
            .map(|i| specials[i % specials.len()] * if i % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        Embeddings::new(words, dim, vectors).unwrap()
    }

    /// Random words (any character below U+3100, so controls and whitespace too) and random
    /// finite bit patterns (subnormals, huge values, negative zero).
    fn random_embeddings(rng: &mut Xoshiro256PlusPlus, n: usize, dim: usize) -> Embeddings {
        let mut words: Vec<String> = Vec::new();
        while words.len() < n {
            let len = rng.random_range(1..7);
            let word: String =
                (0..len).map(|_| char::from_u32(rng.next_u32() % 0x3100).unwrap_or('?')).collect();
            if !words.contains(&word) {
                words.push(word);
            }
        }
        let vectors: Vec<f32> = (0..n * dim).map(|_| random_finite_f32(rng)).collect();
        Embeddings::new(words, dim, vectors).unwrap()
    }

    fn bits(emb: &Embeddings) -> Vec<u32> {
        emb.raw_rows(emb.len()).iter().map(|v| v.to_bits()).collect()
    }

    /// `emb` written in `format`: the file, and `metadata.tsv` for TSV.
    fn written(emb: &Embeddings, format: VectorFormat) -> (Vec<u8>, Option<String>) {
        let mut file = Vec::new();
        let mut metadata = None;
        match format {
            VectorFormat::Word2VecText => write_word2vec_text(emb, &mut file).unwrap(),
            VectorFormat::Word2VecBinary => write_word2vec_binary(emb, &mut file).unwrap(),
            VectorFormat::Glove => write_glove(emb, &mut file).unwrap(),
            VectorFormat::ProjectorTsv => {
                let mut words = Vec::new();
                write_projector_tsv(emb, &mut file, &mut words).unwrap();
                metadata = Some(String::from_utf8(words).unwrap());
            }
        }
        (file, metadata)
    }

    fn parser_for(format: VectorFormat, metadata: Option<&str>) -> VectorsParser {
        match metadata {
            Some(text) => VectorsParser::with_metadata(text).unwrap(),
            None => VectorsParser::new(format),
        }
    }

    /// Reads `file` pushed in slices of the sizes `slice_len` gives, checking the counters.
    fn read_sliced(
        format: VectorFormat,
        file: &[u8],
        metadata: Option<&str>,
        mut slice_len: impl FnMut() -> usize,
    ) -> Result<Embeddings> {
        let mut parser = parser_for(format, metadata);
        let mut rest = file;
        while !rest.is_empty() {
            let (slice, tail) = rest.split_at(slice_len().min(rest.len()));
            parser.push(slice)?;
            rest = tail;
            assert_eq!(parser.bytes_read(), (file.len() - rest.len()) as u64);
        }
        parser.finish()
    }

    fn assert_same(back: &Embeddings, emb: &Embeddings, context: &str) {
        assert_eq!(back.words(), emb.words(), "{context}");
        assert_eq!(back.dim(), emb.dim(), "{context}");
        assert_eq!(bits(back), bits(emb), "{context}");
    }

    #[test]
    fn every_format_round_trips_tricky_tokens_bit_exactly() {
        let emb = tricky_embeddings();
        for format in VectorFormat::ALL {
            let (file, metadata) = written(&emb, format);
            assert_eq!(VectorFormat::sniff(&file), Some(format));
            let back = match format {
                VectorFormat::ProjectorTsv => read_projector_tsv(&file[..], metadata.as_deref()).unwrap(),
                _ => read_vectors(&file[..], format).unwrap(),
            };
            assert_same(&back, &emb, format.name());
        }
    }

    #[test]
    fn a_chain_through_every_format_and_the_bundle_keeps_the_vectors() {
        // text → binary → GloVe → TSV → bundle, each read back before the next is written.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
        for start in [tricky_embeddings(), random_embeddings(&mut rng, 40, 5)] {
            let mut emb = start.clone();
            for format in VectorFormat::ALL {
                let (file, metadata) = written(&emb, format);
                emb = match format {
                    VectorFormat::ProjectorTsv => read_projector_tsv(&file[..], metadata.as_deref()).unwrap(),
                    _ => read_vectors(&file[..], format).unwrap(),
                };
            }
            let mut bundle = Vec::new();
            crate::io::write_bundle(&crate::io::Bundle::new(emb), &mut bundle).unwrap();
            let back = crate::io::read_bundle(std::str::from_utf8(&bundle).unwrap()).unwrap();
            assert_same(&back.embeddings, &start, "the chain");
        }
    }

    #[test]
    fn written_files_look_as_documented() {
        let emb = tricky_embeddings();
        let (text, _) = written(&emb, VectorFormat::Word2VecText);
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with(&format!("{} 3\nthe ", TRICKY.len())));
        assert!(text.contains("\nfrom\\sthe\\sdead "));
        assert_eq!(text.lines().count(), TRICKY.len() + 1);
        let (glove, _) = written(&emb, VectorFormat::Glove);
        assert_eq!(glove, text.split_once('\n').unwrap().1.as_bytes());
        let (binary, _) = written(&emb, VectorFormat::Word2VecBinary);
        let header = format!("{} 3\n", TRICKY.len());
        assert!(binary.starts_with(format!("{header}the ").as_bytes()));
        assert_eq!(binary[header.len() + 4..header.len() + 8], 0.1f32.to_le_bytes());
    }

    #[test]
    fn generated_files_round_trip_in_every_format() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for round in 0..50 {
            let n = rng.random_range(1..21);
            let dim = rng.random_range(1..10);
            let emb = random_embeddings(&mut rng, n, dim);
            for format in VectorFormat::ALL {
                let (file, metadata) = written(&emb, format);
                let back = read_sliced(format, &file, metadata.as_deref(), || usize::MAX).unwrap();
                assert_same(&back, &emb, &format!("round {round}, {format}"));
            }
        }
    }

    #[test]
    fn slicing_never_changes_the_result() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut emb = tricky_embeddings();
        // Tricky words, then random ones, with 7-dimensional vectors (28 bytes in binary).
        let random = random_embeddings(&mut rng, 60, 7);
        let mut words: Vec<String> = emb.words().to_vec();
        words.extend(random.words().iter().filter(|w| !words.contains(w)).cloned().collect::<Vec<_>>());
        let raw = random.raw_rows(random.len());
        let vectors = (0..words.len() * 7).map(|i| raw[i % raw.len()] + i as f32).collect();
        emb = Embeddings::new(words, 7, vectors).unwrap();
        for format in VectorFormat::ALL {
            let (file, metadata) = written(&emb, format);
            let metadata = metadata.as_deref();
            let whole = read_sliced(format, &file, metadata, || usize::MAX).unwrap();
            assert_same(&whole, &emb, format.name());
            for fixed in [1, 2, 3, 4, 5, 7, 64] {
                let back = read_sliced(format, &file, metadata, || fixed).unwrap();
                assert_eq!(back, whole, "{format}, slices of {fixed}");
                assert_same(&back, &whole, &format!("{format}, slices of {fixed}"));
            }
            for round in 0..20 {
                let back = read_sliced(format, &file, metadata, || rng.random_range(1..300)).unwrap();
                assert_same(&back, &whole, &format!("{format}, random slices, round {round}"));
            }
            // Empty pushes change nothing either.
            let mut parser = parser_for(format, metadata);
            for byte in &file {
                parser.push(&[]).unwrap();
                parser.push(std::slice::from_ref(byte)).unwrap();
            }
            assert_same(&parser.finish().unwrap(), &whole, &format!("{format}, empty pushes"));
        }
    }

    #[test]
    fn words_read_counts_complete_rows() {
        let emb = tricky_embeddings();
        for format in VectorFormat::ALL {
            let (file, metadata) = written(&emb, format);
            let mut parser = parser_for(format, metadata.as_deref());
            let half = file.len() / 2;
            parser.push(&file[..half]).unwrap();
            let partway = parser.words_read();
            assert!(0 < partway && partway < emb.len(), "{format}: {partway}");
            parser.push(&file[half..]).unwrap();
            assert_eq!(parser.words_read(), emb.len(), "{format}");
            assert_eq!(parser.bytes_read(), file.len() as u64);
            assert_eq!(parser.format(), format);
        }
    }

    #[test]
    fn readers_accept_what_other_tools_write() {
        // The word2vec tool ends each text line with a space; blank lines at the end are harmless.
        let text = "2 2\r\nthe 0.5 -1 \r\nof 2 3e-2 \n\n";
        let emb = read_word2vec_text(text.as_bytes()).unwrap();
        assert_eq!(emb.words(), ["the", "of"]);
        assert_eq!(*emb.raw_rows(emb.len()), [0.5, -1.0, 2.0, 0.03]);
        // Binary without a newline after each vector.
        let mut binary = b"2 1\nthe ".to_vec();
        binary.extend(1.5f32.to_le_bytes());
        binary.extend(b"of ");
        binary.extend((-2.0f32).to_le_bytes());
        let emb = read_word2vec_binary(&binary[..]).unwrap();
        assert_eq!(emb.words(), ["the", "of"]);
        assert_eq!(*emb.raw_rows(emb.len()), [1.5, -2.0]);
        // An empty vocabulary is a valid word2vec file.
        assert_eq!(read_word2vec_text(&b"0 4\n"[..]).unwrap().len(), 0);
        assert_eq!(read_word2vec_binary(&b"0 4\n"[..]).unwrap().len(), 0);
        // GloVe without a last line end, with tokens other tools do not escape.
        let emb = read_vectors(&b"the 0.1 0.2\n\\o/ 1 2\r\nC:\\dos -1 1e3"[..], VectorFormat::Glove).unwrap();
        assert_eq!(emb.words(), ["the", "\\o/", "C:\\dos"]);
        assert_eq!(*emb.raw_rows(emb.len()), [0.1, 0.2, 1.0, 2.0, -1.0, 1000.0]);
        // TSV without metadata has row numbers for words; with several metadata columns the
        // first line is a header and the first column the word.
        let vectors = b"1\t2\r\n3\t4\n\n";
        let emb = read_projector_tsv(&vectors[..], None).unwrap();
        assert_eq!(emb.words(), ["1", "2"]);
        let emb = read_projector_tsv(&vectors[..], Some("word\tcount\nthe\t10\nof\\s\t5\n")).unwrap();
        assert_eq!(emb.words(), ["the", "of "]);
        let emb = read_projector_tsv(&vectors[..], Some("a\\q\r\nb\r\n\r\n")).unwrap();
        assert_eq!(emb.words(), ["a\\q", "b"]);
        // A byte order mark at the start is skipped.
        let emb = read_projector_tsv(&vectors[..], Some("\u{feff}a\nb\n")).unwrap();
        assert_eq!(emb.words(), ["a", "b"]);
        let emb = read_word2vec_text(&b"\xef\xbb\xbf1 1\nthe 1\n"[..]).unwrap();
        assert_eq!(emb.words(), ["the"]);
        let emb = read_vectors(&b"\xef\xbb\xbfthe 1\n"[..], VectorFormat::Glove).unwrap();
        assert_eq!(emb.words(), ["the"]);
    }

    #[test]
    fn random_and_mutated_files_never_panic_and_slicing_changes_nothing() {
        #[rustfmt::skip]
        const INTERESTING: &[&[u8]] = &[
            b"\n", b" ", b"\t", b"\r\n", b"-", b"e", b"NaN", b"inf", b"1e99", b"99999999999999999999", b"0",
            b"\\", b"\\u{", b"\xff", b"\0", b"\xef\xbb\xbf",
        ];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(23);
        let (mut fine, mut faulty) = (0, 0);
        for case in 0..2_000 {
            let format = VectorFormat::ALL[case % VectorFormat::ALL.len()];
            let (file, metadata) = if rng.random_range(0..3) == 0 {
                let len = rng.random_range(0..300);
                let metadata =
                    String::from_utf8_lossy(&random_bytes(&mut rng, len / 4, b"ab\\\t\n ")).into_owned();
                (random_bytes(&mut rng, len, b"0123456789 .-e\n\tab"), Some(metadata))
            } else {
                let (n, dim) = (rng.random_range(1..6), rng.random_range(1..5));
                let (file, metadata) = written(&random_embeddings(&mut rng, n, dim), format);
                let metadata = metadata.map(|m| match rng.random_range(0..2) {
                    0 => m,
                    _ => mutate_text(&mut rng, &m, &["\n", "\t", "\\", "\\u{"]),
                });
                (mutate_bytes(&mut rng, &file, INTERESTING), metadata)
            };
            let _ = (VectorFormat::sniff(&file), VectorFormat::guess(&file, "vectors.bin"));
            let _ = crate::io::Bundle::sniff(&file);
            let parser = || match (format, &metadata) {
                (VectorFormat::ProjectorTsv, Some(text)) => {
                    VectorsParser::with_metadata(text).unwrap_or_else(|_| VectorsParser::new(format))
                }
                _ => VectorsParser::new(format),
            };
            let mut sliced = parser();
            for slice in random_slices(&mut rng, &file) {
                // After a failure every push gives the same error, and so does `finish`.
                let _ = sliced.push(slice);
            }
            let mut one_go = parser();
            let _ = one_go.push(&file);
            let whole = one_go.finish();
            assert_eq!(sliced.finish(), whole, "{format}, case {case}: {file:?}");
            match whole {
                Ok(_) => fine += 1,
                Err(Error::Format { .. }) => faulty += 1,
                Err(err) => panic!("{format}, case {case}: {err:?}"),
            }
        }
        // Both outcomes are exercised.
        assert!(fine > 100 && faulty > 500, "{fine} read, {faulty} rejected");
    }
}
