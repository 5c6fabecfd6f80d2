//! The fastText reader on models built here as fastText writes them: words and n-gram rows,
//! older files, slicing, limits, refusals and fuzzed bytes.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use super::*;
use crate::error::Result;
use crate::fuzz::mutate_bytes;
use crate::vectors::ngram_buckets;

#[derive(Clone)]
/// A model as fastText writes it: `words` with counts, `bucket` n-gram rows, the input
/// matrix's values `i`-th row `row(i)`, and an output matrix after it.
struct Model {
    dim: i32,
    model: i32,
    loss: i32,
    bucket: i32,
    minn: i32,
    maxn: i32,
    words: Vec<(Vec<u8>, i64, i8)>,
    nlabels: i32,
    quantized: bool,
    /// An older fastText's layout: no magic number and version, pruned index or flag.
    legacy: bool,
}

impl Model {
    fn small() -> Model {
        let words = ["</s>", "the", "lord", "unto", "said", "israel", "éden"];
        Model {
            dim: 3,
            model: 2,
            loss: 2,
            bucket: 11,
            minn: 2,
            maxn: 4,
            words: words
                .iter()
                .enumerate()
                .map(|(i, w)| (w.as_bytes().to_vec(), 100 - i as i64, 0))
                .collect(),
            nlabels: 0,
            quantized: false,
            legacy: false,
        }
    }

    fn row(i: usize, dim: usize) -> Vec<f32> {
        (0..dim).map(|j| ((i * 7 + j * 3) % 11) as f32 / 4.0 - 1.0).collect()
    }

    fn rows(&self) -> usize {
        self.words.len() + self.bucket as usize
    }

    fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let i32s =
            |out: &mut Vec<u8>, v: &[i32]| v.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        if !self.legacy {
            i32s(&mut out, &[MAGIC, 12]);
        }
        let a = [self.dim, 5, 1, 1, 5, 1, self.loss, self.model, self.bucket, self.minn, self.maxn, 100];
        i32s(&mut out, &a);
        out.extend_from_slice(&1e-4f64.to_le_bytes());
        let n = self.words.len() as i32;
        i32s(&mut out, &[n, n - self.nlabels, self.nlabels]);
        out.extend_from_slice(&12345i64.to_le_bytes());
        if !self.legacy {
            out.extend_from_slice(&(-1i64).to_le_bytes());
        }
        for (w, c, t) in &self.words {
            out.extend_from_slice(w);
            out.push(0);
            out.extend_from_slice(&c.to_le_bytes());
            out.push(*t as u8);
        }
        if !self.legacy {
            out.push(u8::from(self.quantized));
        }
        out.extend_from_slice(&(self.rows() as i64).to_le_bytes());
        out.extend_from_slice(&(self.dim as i64).to_le_bytes());
        for i in 0..self.rows() {
            for x in Model::row(i, self.dim as usize) {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        // The output matrix, which the reader never needs.
        out.push(0);
        out.extend_from_slice(&(n as i64).to_le_bytes());
        out.extend_from_slice(&(self.dim as i64).to_le_bytes());
        out.extend(std::iter::repeat_n(0xAB, n as usize * self.dim as usize * 4));
        out
    }

    /// The vector fastText gives a known word: its row and its n-gram rows, averaged.
    fn expected(&self, i: usize) -> Vec<f32> {
        let dim = self.dim as usize;
        let mut sum = Model::row(i, dim);
        let mut grams = Vec::new();
        if self.words[i].0 != b"</s>" {
            ngram_buckets(
                &self.words[i].0,
                self.minn as usize,
                self.maxn as usize,
                self.bucket as u32,
                &mut grams,
            );
        }
        for &g in &grams {
            let r = Model::row(self.words.len() + g as usize, dim);
            sum.iter_mut().zip(&r).for_each(|(s, x)| *s += x);
        }
        sum.iter().map(|s| s / (1 + grams.len()) as f32).collect()
    }
}

fn read(bytes: &[u8], limits: Limits, slice: usize) -> Result<FastTextModel> {
    let mut reader = FastTextReader::new(limits, bytes.len() as u64);
    for piece in bytes.chunks(slice) {
        reader.push(piece)?;
        if !reader.wants_more() {
            break;
        }
    }
    reader.finish()
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
}

#[test]
fn known_words_average_their_row_and_ngram_rows() {
    let model = Model::small();
    let got = read(&model.bytes(), Limits::ALL, 1 << 20).unwrap();
    assert_eq!(got.embeddings.words(), ["</s>", "the", "lord", "unto", "said", "israel", "éden"]);
    assert_eq!(got.counts, [100, 99, 98, 97, 96, 95, 94]);
    for i in 0..model.words.len() {
        assert!(close(&got.embeddings.vector(i), &model.expected(i)), "word {i}");
    }
    // "</s>" has no n-grams: its vector is its own row.
    assert_eq!(&*got.embeddings.vector(0), &Model::row(0, 3)[..]);
    assert_eq!(got.info.buckets, BucketsKept::F32);
    assert_eq!(got.info.kept(), "kept all 7 words; 11 n-gram buckets kept");
    assert_eq!(got.info.args.model_name(), "skipgram");
}

#[test]
fn an_older_fastext_model_without_magic_number_reads_alike() {
    let new = Model::small();
    let old = Model { legacy: true, ..Model::small() };
    assert!(sniff(&old.bytes()) && sniff(&new.bytes()));
    let (a, b) = (read(&new.bytes(), Limits::ALL, 7).unwrap(), read(&old.bytes(), Limits::ALL, 7).unwrap());
    assert_eq!(a.embeddings, b.embeddings);
    assert_eq!(b.info.version, 0);
    assert!(b.info.settings().contains("an older format"));
    // Other files are not taken for one: word2vec binary, text, zeros.
    let mut w2v = b"3 2\nthe ".to_vec();
    w2v.extend(std::iter::repeat_n(0u8, 100));
    assert!(!sniff(&w2v));
    assert!(!sniff(&[0u8; 200]));
    assert!(!sniff("In the beginning God created the heaven and the earth. ".repeat(4).as_bytes()));
}

#[test]
fn an_unknown_word_is_the_average_of_its_ngram_rows() {
    let model = Model::small();
    let got = read(&model.bytes(), Limits::ALL, 1 << 20).unwrap();
    let mut grams = Vec::new();
    ngram_buckets(b"lordx", 2, 4, 11, &mut grams);
    let mut want = vec![0.0f32; 3];
    for &g in &grams {
        let r = Model::row(model.words.len() + g as usize, 3);
        want.iter_mut().zip(&r).for_each(|(s, x)| *s += x);
    }
    want.iter_mut().for_each(|x| *x /= grams.len() as f32);
    assert!(close(&got.embeddings.built_vector("lordx").unwrap(), &want));
    assert!(got.embeddings.built_from_ngrams("lordx"));
    assert!(!got.embeddings.built_from_ngrams("lord"));
    // Its neighbours exclude nothing (it is no row) and rank every word.
    let list = got.embeddings.neighbours("lordx", 7, None).unwrap();
    assert_eq!(list.len(), 7);
}

#[test]
fn the_result_does_not_depend_on_the_slicing() {
    let bytes = Model::small().bytes();
    let whole = read(&bytes, Limits::ALL, bytes.len()).unwrap();
    for slice in [1, 3, 7, 64] {
        let sliced = read(&bytes, Limits::ALL, slice).unwrap();
        assert_eq!(sliced.embeddings, whole.embeddings, "slices of {slice}");
        assert_eq!(sliced.counts, whole.counts);
    }
}

#[test]
fn a_limit_keeps_the_most_frequent_words_whole_and_says_so() {
    let model = Model::small();
    let limits = Limits { max_words: Some(3), max_bytes: u64::MAX };
    let got = read(&model.bytes(), limits, 5).unwrap();
    assert_eq!(got.embeddings.words(), ["</s>", "the", "lord"]);
    for i in 0..3 {
        assert!(close(&got.embeddings.vector(i), &model.expected(i)));
    }
    assert_eq!(got.info.kept(), "kept 3 of 7 words; 11 n-gram buckets kept");
    // A word beyond the limit is built from its n-grams.
    assert!(got.embeddings.built_from_ngrams("israel"));
}

#[test]
fn buckets_are_kept_in_f16_or_not_at_all_when_memory_is_short() {
    let model = Model::small();
    let words = 7 * 3 * 8;
    let half = Limits { max_words: None, max_bytes: words + 11 * 3 * 2 };
    let got = read(&model.bytes(), half, 1 << 20).unwrap();
    assert_eq!(got.info.buckets, BucketsKept::F16);
    assert_eq!(got.embeddings.subwords().unwrap().precision(), "f16");
    let none = Limits { max_words: None, max_bytes: words };
    let got = read(&model.bytes(), none, 1 << 20).unwrap();
    assert_eq!(got.info.buckets, BucketsKept::No);
    assert!(got.embeddings.subwords().is_none());
    assert!(got.info.kept().contains("not kept"));
    // The known words are still whole.
    for i in 0..7 {
        assert!(close(&got.embeddings.vector(i), &model.expected(i)));
    }
    let tight = Limits { max_words: None, max_bytes: words - 1 };
    let err = read(&model.bytes(), tight, 1 << 20).unwrap_err().to_string();
    assert!(err.contains("keep fewer words"), "{err}");
}

#[test]
fn a_model_without_ngrams_has_no_subwords() {
    let model = Model { maxn: 0, minn: 0, ..Model::small() };
    let got = read(&model.bytes(), Limits::ALL, 1 << 20).unwrap();
    assert_eq!(got.info.buckets, BucketsKept::None);
    assert_eq!(&*got.embeddings.vector(2), &Model::row(2, 3)[..]);
    assert!(got.embeddings.neighbours("lordx", 3, None).is_err());
}

#[test]
fn supervised_and_quantized_models_are_refused_saying_what_they_are() {
    let mut sup = Model { model: 3, loss: 3, ..Model::small() };
    sup.words.push((b"__label__a".to_vec(), 3, 1));
    sup.nlabels = 1;
    for legacy in [false, true] {
        let sup = Model { legacy, ..sup.clone() };
        let err = read(&sup.bytes(), Limits::ALL, 1 << 20).unwrap_err().to_string();
        assert!(
            err.contains("supervised fastText model (a text classifier: 1 labels, loss softmax)"),
            "{err}"
        );
    }
    let mut labelled = Model::small();
    labelled.words.push((b"__label__a".to_vec(), 3, 1));
    labelled.nlabels = 1;
    let err = read(&labelled.bytes(), Limits::ALL, 1 << 20).unwrap_err().to_string();
    assert!(err.contains("supervised fastText model (a text classifier: 1 labels, loss ns)"), "{err}");
    let ftz = Model { quantized: true, ..Model::small() };
    let err = read(&ftz.bytes(), Limits::ALL, 1 << 20).unwrap_err().to_string();
    assert!(err.contains("quantized fastText model (.ftz, made") && err.contains("open the .bin"), "{err}");
    let ftz = Model { quantized: true, ..sup };
    let err = read(&ftz.bytes(), Limits::ALL, 1 << 20).unwrap_err().to_string();
    assert!(err.contains("quantized fastText model (.ftz, a text classifier made"), "{err}");
}

#[test]
fn a_cut_file_says_where_it_ends() {
    let bytes = Model::small().bytes();
    let matrix_end = bytes.len() - (1 + 16 + 7 * 3 * 4);
    for len in 0..matrix_end {
        let err = read(&bytes[..len], Limits::ALL, 9).unwrap_err().to_string();
        assert!(err.contains("cut short") || err.contains("not a fastText model"), "{len}: {err}");
    }
    // Only the output matrix missing: the model reads.
    assert!(read(&bytes[..matrix_end], Limits::ALL, 9).is_ok());
    // A file cut in its matrix, whose length is known, says so before reading the rows.
    let err = read(&bytes[..matrix_end - 5], Limits::ALL, 1 << 20).unwrap_err().to_string();
    assert!(err.contains("cut short: its input matrix of 18 rows needs 216 bytes"), "{err}");
}

#[test]
fn a_lying_header_is_refused() {
    let bytes = Model::small().bytes();
    let mut dict = bytes.clone();
    dict[64..68].copy_from_slice(&1_000_000i32.to_le_bytes());
    dict[68..72].copy_from_slice(&1_000_000i32.to_le_bytes());
    let err = read(&dict, Limits::ALL, 1 << 20).unwrap_err().to_string();
    assert!(err.contains("its dictionary of 1,000,000 words needs at least 9.5 MiB"), "{err}");
    let mut dim = bytes.clone();
    dim[8..12].copy_from_slice(&4i32.to_le_bytes());
    let err = read(&dim, Limits::ALL, 1 << 20).unwrap_err().to_string();
    assert!(err.contains("input matrix is 18 × 3"), "{err}");
    let mut magic = bytes;
    magic[0] ^= 1;
    let err = read(&magic, Limits::ALL, 1 << 20).unwrap_err().to_string();
    assert!(err.contains("magic number"), "{err}");
}

#[test]
fn words_not_in_utf8_are_read_with_replacement_and_counted() {
    let mut model = Model::small();
    model.words[3].0 = vec![b'u', 0xFF, b't'];
    let got = read(&model.bytes(), Limits::ALL, 1 << 20).unwrap();
    assert_eq!(got.embeddings.word(3), "u\u{FFFD}t");
    assert_eq!(got.info.non_utf8_words, 1);
    // Its n-grams are hashed from its bytes, as fastText hashes them.
    assert!(close(&got.embeddings.vector(3), &model.expected(3)));
    assert!(got.info.non_utf8_note().unwrap().starts_with("1 word is not UTF-8"));
    // Two words alike once read with U+FFFD are named by their bytes.
    model.words[4].0 = vec![b'u', 0xFE, b't'];
    let got = read(&model.bytes(), Limits::ALL, 1 << 20).unwrap();
    assert_eq!([got.embeddings.word(3), got.embeddings.word(4)], ["u\\xfft", "u\\xfet"]);
    assert_eq!(got.info.non_utf8_words, 2);
}

#[test]
fn fuzzed_models_fail_cleanly_or_read() {
    let bytes = Model::small().bytes();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(29);
    let interesting: &[&[u8]] = &[&[0], &[0xFF; 4], &[0x7F, 0xFF, 0xFF, 0xFF], &[1]];
    for _ in 0..2000 {
        let mutated = mutate_bytes(&mut rng, &bytes, interesting);
        let limits = Limits { max_words: Some(4), max_bytes: 1 << 20 };
        if let Ok(model) = read(&mutated, limits, 13) {
            assert!(model.embeddings.len() <= 4);
        }
    }
}
