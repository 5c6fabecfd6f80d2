//! `Embeddings`: a vocabulary with one vector per word, kept as `f32` rows with a unit-normalised
//! copy, or as half-precision rows (F16 or BF16 bits) with one norm a row.
//!
//! A language model's matrix is large (Llama 3's 128,256 × 4,096 values take 1 GB in BF16);
//! as `f32` rows beside their unit copy it would take 4.2 GB, more than a wasm32 tab can
//! address. Half-precision rows stay in their 2 bytes a value and are converted to `f32`
//! where they are read, so every computation is `f32`: a unit row is the converted row
//! divided by its norm, the same operations [`linalg::normalize`] does, so half-precision
//! embeddings answer every query to the bit as `f32` embeddings of the converted values do.
//!
//! Readers never borrow the whole matrix as `f32`: a row comes as a [`Cow`] ([`Embeddings::vector`],
//! [`Embeddings::unit_vector`]), the first rows of a map as one ([`Embeddings::raw_rows`],
//! [`Embeddings::unit_rows`]), and a scan over every row (neighbours, analogies, the analogy
//! benchmark) goes a block at a time ([`Embeddings::unit_blocks`]). For `f32` rows each is
//! borrowed, so that path copies nothing.
//!
//! **Architecture Invariant:** words are unique and ordered by descending corpus frequency
//! where it is known (index 0 is the most frequent), so "the N most frequent words" is the
//! prefix `0..N`. Every vector is finite and has exactly `dim` components; the constructor
//! checks this once and there are no setters.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use half::bf16;
use half::slice::{HalfBitsSliceExt, HalfFloatSliceExt};

use super::Subwords;
use crate::error::{Error, Result, UnknownWord};
use crate::linalg;
use crate::text::Words;

/// The two half-precision formats rows may be kept in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    /// IEEE 754 binary16: 5 exponent bits, 10 mantissa bits.
    F16,
    /// bfloat16: `f32`'s 8 exponent bits, 7 mantissa bits (an `f32`'s upper half).
    BF16,
}

impl Half {
    /// The format's name as [`Embeddings::precision`] shows it.
    pub fn name(self) -> &'static str {
        match self {
            Half::F16 => "f16",
            Half::BF16 => "bf16",
        }
    }

    /// Whether `bits` is a finite number (not an infinity or a NaN: all exponent bits set).
    fn is_finite(self, bits: u16) -> bool {
        let exponent = match self {
            Half::F16 => 0x7c00,
            Half::BF16 => 0x7f80,
        };
        bits & exponent != exponent
    }

    /// Converts `bits` into `out`, exactly (every half-precision value is an `f32`).
    /// **Unchecked precondition:** `bits.len() == out.len()` (panics otherwise).
    #[inline]
    fn to_f32(self, bits: &[u16], out: &mut [f32]) {
        match self {
            Half::F16 => {
                assert_eq!(bits.len(), out.len());
                for (y, &h) in out.iter_mut().zip(bits) {
                    *y = f16_to_f32(h);
                }
            }
            Half::BF16 => bits.reinterpret_cast::<bf16>().convert_to_f32_slice(out),
        }
    }
}

/// A half-precision float's bits as an `f32`, exactly as the `half` crate converts them
/// (checked on all 65,536 patterns; NaNs quieted, as ggml's and the crate's conversions do).
/// Written out because the crate's portable conversion branches on each value, which
/// took 5.0 s for 128,256 × 4,096 values in wasm (simd128) where this, free of branches the
/// compiler cannot turn into selects, took 0.24 s.
///
/// The exponent and mantissa are moved into an `f32`'s places and multiplied by 2^112,
/// which turns the exponent's bias of 15 into 127; a subnormal `f16` is then a subnormal
/// `f32` whose product is the exact normal value. Infinities and NaNs (exponent 31) are set
/// apart.
#[inline(always)]
pub fn f16_to_f32(h: u16) -> f32 {
    let h = u32::from(h);
    let sign = (h & 0x8000) << 16;
    let magnitude = h & 0x7FFF;
    let scaled = (f32::from_bits(magnitude << 13) * f32::from_bits(0x7780_0000)).to_bits();
    let bits = match magnitude {
        0x7C00 => 0x7F80_0000,
        0x7C01.. => 0x7FC0_0000 | (magnitude << 13),
        _ => scaled,
    };
    f32::from_bits(sign | bits)
}

/// Floats a block of [`Embeddings::unit_blocks`] converts at a time from half precision
/// (64 KB: it stays in L2 while its dot products read it).
const BLOCK_FLOATS: usize = 16 * 1024;

/// How the rows are kept.
#[derive(Debug, Clone, PartialEq)]
enum Rows {
    /// `f32` rows and their unit-normalised copy, row-major.
    F32 { raw: Vec<f32>, unit: Vec<f32> },
    /// Half-precision bits, row-major, and each row's Euclidean norm (of its `f32` values).
    Half { format: Half, bits: Vec<u16>, norms: Vec<f32> },
}

/// Word vectors: `len()` rows of `dim()` floats, row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Embeddings {
    /// Shared with the vocabulary they were trained on, when they were.
    words: Arc<Words>,
    dim: usize,
    rows: Rows,
    /// Other names of words (a token's raw form beside its readable one), to word indices.
    aliases: HashMap<String, usize>,
    /// Whether the words are a language model's tokens that write a whole word after a
    /// space with the space (`" king"`), as byte-level BPE and SentencePiece do.
    spaced_tokens: bool,
    /// A fastText model's character n-grams, which give a vector to a word the vocabulary
    /// lacks.
    subwords: Option<Arc<Subwords>>,
}

impl Embeddings {
    /// Builds embeddings from words and their row-major vectors.
    ///
    /// Fails when `dim` is 0, when `vectors.len() != words.len() * dim`, when a word
    /// repeats, or when a component is NaN or infinite.
    pub fn new(words: Vec<String>, dim: usize, vectors: Vec<f32>) -> Result<Self> {
        Embeddings::with_words(Arc::new(table(words)?), dim, vectors)
    }

    /// Like [`Embeddings::new`], with words already in a table (a vocabulary's, shared: a
    /// snapshot of training copies no word).
    pub fn with_words(words: Arc<Words>, dim: usize, vectors: Vec<f32>) -> Result<Self> {
        check_shape(&words, dim, vectors.len())?;
        if let Some(pos) = vectors.iter().position(|v| !v.is_finite()) {
            return Err(not_finite(&words, pos / dim));
        }
        let mut unit = vectors.clone();
        unit.chunks_exact_mut(dim).for_each(linalg::normalize);
        Ok(Embeddings {
            words,
            dim,
            rows: Rows::F32 { raw: vectors, unit },
            aliases: HashMap::new(),
            spaced_tokens: false,
            subwords: None,
        })
    }

    /// Builds embeddings that keep their rows in half precision: `bits` are the row-major
    /// values as `format`'s bit patterns (a model file's F16 or BF16 tensor as it is
    /// stored). They take 2 bytes a value and a norm a row, where `f32` rows with their unit
    /// copy take 8 bytes a value, and every query answers as [`Embeddings::new`] would from
    /// the same values converted to `f32`.
    ///
    /// Fails like [`Embeddings::new`]: when `dim` is 0, when `bits.len() != words.len() *
    /// dim`, when a word repeats, or when a value is NaN or infinite.
    pub fn from_half(words: Vec<String>, dim: usize, bits: Vec<u16>, format: Half) -> Result<Self> {
        let words = table(words)?;
        check_shape(&words, dim, bits.len())?;
        if let Some(pos) = bits.iter().position(|&b| !format.is_finite(b)) {
            return Err(not_finite(&words, pos / dim));
        }
        let mut norms = Vec::with_capacity(words.len());
        let mut row = vec![0.0; dim];
        for half_row in bits.chunks_exact(dim) {
            format.to_f32(half_row, &mut row);
            norms.push(linalg::norm(&row));
        }
        let rows = Rows::Half { format, bits, norms };
        Ok(Embeddings {
            words: Arc::new(words),
            dim,
            rows,
            aliases: HashMap::new(),
            spaced_tokens: false,
            subwords: None,
        })
    }

    /// These embeddings with other names for some words: `(name, word_idx)`, e.g. a
    /// language model's token typed in its raw form (`Ġking`) beside the readable form that
    /// names its row (` king`). [`Embeddings::index_of`] looks in the words first, then in
    /// the aliases; a name given twice keeps its last index, and an index that is not a row
    /// is dropped.
    pub fn with_aliases(mut self, aliases: Vec<(String, usize)>) -> Self {
        let len = self.len();
        self.aliases.extend(aliases.into_iter().filter(|&(_, word_idx)| word_idx < len));
        self
    }

    /// These embeddings, marked as a language model's tokens that write a whole word after a
    /// space with the space (`" king"`): benchmarks then look a word up as its spaced token
    /// and count only such tokens as answers (see `eval`).
    pub fn with_spaced_tokens(mut self) -> Self {
        self.spaced_tokens = true;
        self
    }

    /// These embeddings with a fastText model's character n-grams: a word they lack is then
    /// queried by the vector its n-grams build ([`Embeddings::built_vector`]).
    ///
    /// **Unchecked precondition:** the n-gram rows have this dimension.
    pub fn with_subwords(mut self, subwords: Subwords) -> Self {
        self.subwords = Some(Arc::new(subwords));
        self
    }

    /// The character n-grams, for a fastText model that kept them.
    pub fn subwords(&self) -> Option<&Subwords> {
        self.subwords.as_deref()
    }

    /// The vector of `word` built from its character n-grams, when the vocabulary lacks it
    /// and the embeddings have n-grams that cover it; `None` for a word of the vocabulary.
    pub fn built_vector(&self, word: &str) -> Option<Vec<f32>> {
        if self.index_of(word).is_some() {
            return None;
        }
        self.subwords.as_ref()?.vector(word)
    }

    /// Whether `word` is queried by a vector built from its n-grams (the vocabulary lacks it).
    pub fn built_from_ngrams(&self, word: &str) -> bool {
        self.built_vector(word).is_some()
    }

    /// Whether the words are tokens that write a whole word with its leading space.
    pub fn spaced_tokens(&self) -> bool {
        self.spaced_tokens
    }

    /// Number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether there are no words.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Number of components of each vector.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The precision the rows are kept in, for display: `"f32"`, `"f16"` or `"bf16"`.
    pub fn precision(&self) -> &'static str {
        match &self.rows {
            Rows::F32 { .. } => "f32",
            Rows::Half { format, .. } => format.name(),
        }
    }

    /// The bytes the vectors take in memory: the `f32` rows and their unit copy, or the
    /// half-precision rows and their norms (the words are not counted).
    pub fn bytes(&self) -> usize {
        match &self.rows {
            Rows::F32 { raw, unit } => (raw.len() + unit.len()) * size_of::<f32>(),
            Rows::Half { bits, norms, .. } => bits.len() * size_of::<u16>() + norms.len() * size_of::<f32>(),
        }
    }

    /// All words, most frequent first.
    pub fn words(&self) -> &[String] {
        self.words.as_slice()
    }

    /// The word at `word_idx`. **Unchecked precondition:** `word_idx < len()` (panics otherwise).
    pub fn word(&self, word_idx: usize) -> &str {
        &self.words.as_slice()[word_idx]
    }

    /// The index of `word`, or of the word it is an alias of ([`Embeddings::with_aliases`]),
    /// or `None` when it is neither.
    pub fn index_of(&self, word: &str) -> Option<usize> {
        self.words.id(word).map(|id| id as usize).or_else(|| self.aliases.get(word).copied())
    }

    /// Like [`Embeddings::index_of`], but an unknown word is an [`Error::UnknownWords`] with
    /// the nearest spellings of it.
    pub fn try_index_of(&self, word: &str) -> Result<usize> {
        self.index_of(word).ok_or_else(|| Error::UnknownWords(vec![self.unknown(word)]))
    }

    /// `word`, which the vocabulary lacks, with the nearest spellings of it that it holds.
    pub fn unknown(&self, word: &str) -> UnknownWord {
        UnknownWord::new(word, self.words())
    }

    /// The raw vector at `word_idx`: borrowed from `f32` rows, converted from half
    /// precision. **Unchecked precondition:** `word_idx < len()` (panics otherwise).
    pub fn vector(&self, word_idx: usize) -> Cow<'_, [f32]> {
        self.raw_range(word_idx, word_idx + 1)
    }

    /// The L2-normalised vector at `word_idx` (zero stays zero), borrowed or converted as
    /// [`Embeddings::vector`]. **Unchecked precondition:** `word_idx < len()` (panics otherwise).
    pub fn unit_vector(&self, word_idx: usize) -> Cow<'_, [f32]> {
        self.unit_range(word_idx, word_idx + 1)
    }

    /// The raw vectors of the `n` most frequent words, row-major: the words of a map,
    /// borrowed from `f32` rows, converted once from half precision.
    /// **Unchecked precondition:** `n <= len()` (panics otherwise).
    pub fn raw_rows(&self, n: usize) -> Cow<'_, [f32]> {
        self.raw_range(0, n)
    }

    /// The unit vectors of the `n` most frequent words, row-major, borrowed or converted as
    /// [`Embeddings::raw_rows`]. **Unchecked precondition:** `n <= len()` (panics otherwise).
    pub fn unit_rows(&self, n: usize) -> Cow<'_, [f32]> {
        self.unit_range(0, n)
    }

    /// Whether the vector at `word_idx` is all zeros (it has no direction).
    /// **Unchecked precondition:** `word_idx < len()` (panics otherwise).
    pub fn is_zero(&self, word_idx: usize) -> bool {
        let range = word_idx * self.dim..(word_idx + 1) * self.dim;
        match &self.rows {
            Rows::F32 { raw, .. } => raw[range].iter().all(|&x| x == 0.0),
            Rows::Half { bits, .. } => bits[range].iter().all(|&b| b & 0x7fff == 0),
        }
    }

    /// Visits the unit vectors of the `n` most frequent words (all when there are fewer) in
    /// order, a block of whole rows at a time: `visit(first_word_idx, rows)`. `f32` rows
    /// come as one borrowed block; half-precision rows are converted a few at a time into
    /// one small buffer, so a scan of a large matrix stays in cache and holds no `f32` copy
    /// of it. The scans over every word (neighbours, analogies, the analogy benchmark) go
    /// through here.
    pub fn unit_blocks(&self, n: usize, mut visit: impl FnMut(usize, &[f32])) {
        let (n, dim) = (n.min(self.len()), self.dim);
        match &self.rows {
            Rows::F32 { unit, .. } => visit(0, &unit[..n * dim]),
            Rows::Half { format, bits, norms } => {
                let block = (BLOCK_FLOATS / dim).max(1);
                let mut buffer = vec![0.0; block.min(n) * dim];
                for start in (0..n).step_by(block) {
                    let end = (start + block).min(n);
                    let rows = &mut buffer[..(end - start) * dim];
                    format.to_f32(&bits[start * dim..end * dim], rows);
                    for (row, &norm) in rows.chunks_exact_mut(dim).zip(&norms[start..end]) {
                        linalg::divide_by_norm(row, norm);
                    }
                    visit(start, rows);
                }
            }
        }
    }

    /// The dot product of `query` with the unit vector of each of the first `out.len()`
    /// words, into `out`: their cosines when `query` is a unit vector.
    ///
    /// **Unchecked precondition:** `query.len() == dim()` and `out.len() <= len()` (checked
    /// only in debug builds).
    pub fn unit_dots(&self, query: &[f32], out: &mut [f32]) {
        debug_assert!(query.len() == self.dim && out.len() <= self.len());
        let dim = self.dim;
        self.unit_blocks(out.len(), |start, rows| {
            let outs = &mut out[start..start + rows.len() / dim];
            for (out, row) in outs.iter_mut().zip(rows.chunks_exact(dim)) {
                *out = linalg::dot(query, row);
            }
        });
    }

    /// Indices of up to `limit` words that start with `prefix`, ignoring case, most
    /// frequent first: the completions of a search box.
    pub fn complete(&self, prefix: &str, limit: usize) -> Vec<usize> {
        let prefix = prefix.to_lowercase();
        self.words()
            .iter()
            .enumerate()
            .filter(|(_, word)| starts_with_ignoring_case(word, &prefix))
            .map(|(i, _)| i)
            .take(limit)
            .collect()
    }

    /// How many words hold `needle`, ignoring case, and the indices of the first `limit` of
    /// them, most frequent first: what a search finds in the whole vocabulary.
    pub fn containing(&self, needle: &str, limit: usize) -> (usize, Vec<usize>) {
        let needle = needle.to_lowercase();
        let mut found = Vec::new();
        let mut count = 0;
        for (i, word) in self.words().iter().enumerate() {
            if word.to_lowercase().contains(&needle) {
                count += 1;
                if found.len() < limit {
                    found.push(i);
                }
            }
        }
        (count, found)
    }

    /// The raw rows `start..end`.
    fn raw_range(&self, start: usize, end: usize) -> Cow<'_, [f32]> {
        let range = start * self.dim..end * self.dim;
        match &self.rows {
            Rows::F32 { raw, .. } => Cow::Borrowed(&raw[range]),
            Rows::Half { format, bits, .. } => {
                let mut rows = vec![0.0; range.len()];
                format.to_f32(&bits[range], &mut rows);
                Cow::Owned(rows)
            }
        }
    }

    /// The unit rows `start..end`.
    fn unit_range(&self, start: usize, end: usize) -> Cow<'_, [f32]> {
        match &self.rows {
            Rows::F32 { unit, .. } => Cow::Borrowed(&unit[start * self.dim..end * self.dim]),
            Rows::Half { norms, .. } => {
                let mut rows = self.raw_range(start, end).into_owned();
                for (row, &norm) in rows.chunks_exact_mut(self.dim).zip(&norms[start..end]) {
                    linalg::divide_by_norm(row, norm);
                }
                Cow::Owned(rows)
            }
        }
    }
}

/// The table of `words`, or an error naming the first that repeats.
fn table(words: Vec<String>) -> Result<Words> {
    Words::from_vec(words)
        .map_err(|word| Error::Format { line: 0, message: format!("the word '{word}' occurs twice") })
}

/// Checks that `n_values` numbers are `words.len()` rows of `dim > 0`.
fn check_shape(words: &Words, dim: usize, n_values: usize) -> Result<()> {
    if dim == 0 {
        return Err(Error::InvalidParameter {
            name: "dim",
            value: "0".into(),
            expected: "at least 1".into(),
        });
    }
    let needed = words.len().checked_mul(dim);
    if needed != Some(n_values) {
        return Err(Error::Format {
            line: 0,
            message: format!(
                "{} words of dimension {dim} need {} numbers, found {n_values}",
                words.len(),
                needed.map_or("more".to_string(), |n| n.to_string()),
            ),
        });
    }
    Ok(())
}

/// The error of a row that holds a NaN or an infinity.
fn not_finite(words: &Words, word_idx: usize) -> Error {
    Error::Format {
        line: 0,
        message: format!("the vector of '{}' holds a NaN or infinite value", words.as_slice()[word_idx]),
    }
}

#[cfg(test)]
impl Embeddings {
    /// Test embeddings from `(word, vector)` rows, most frequent first; panics on rows that
    /// break the invariant.
    pub(crate) fn from_rows(rows: &[(&str, &[f32])]) -> Embeddings {
        let dim = rows[0].1.len();
        let words = rows.iter().map(|(w, _)| w.to_string()).collect();
        let vectors = rows.iter().flat_map(|(_, v)| v.iter().copied()).collect();
        Embeddings::new(words, dim, vectors).expect("valid test embeddings")
    }
}

/// Whether `word` lowercased starts with `lower_prefix` (already lowercase), without
/// allocating: the search box calls this for every vocabulary word on every keystroke.
fn starts_with_ignoring_case(word: &str, lower_prefix: &str) -> bool {
    let mut word_chars = word.chars().flat_map(char::to_lowercase);
    lower_prefix.chars().all(|p| word_chars.next() == Some(p))
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::eval::{AnalogyOptions, AnalogySet, evaluate_analogies};
    use crate::map::layout::{LayoutBuilder, LayoutParams, LayoutPhase, TsneParams};
    use crate::map::{MapSpec, Pca, Projection};
    use crate::vectors::AnalogyMethod;
    use half::f16;

    fn words(ws: &[&str]) -> Vec<String> {
        ws.iter().map(|w| w.to_string()).collect()
    }

    /// Every `f16` bit pattern converts as the `half` crate converts it.
    #[test]
    fn f16_conversion_is_the_half_crates() {
        for h in 0..=u16::MAX {
            let expected = half::f16::from_bits(h).to_f32();
            assert_eq!(f16_to_f32(h).to_bits(), expected.to_bits(), "{h:#06x}");
        }
    }

    #[test]
    fn constructor_checks_its_invariant() {
        assert!(Embeddings::new(words(&["a"]), 0, vec![]).is_err());
        assert!(Embeddings::new(words(&["a", "b"]), 2, vec![1.0; 3]).is_err());
        assert!(Embeddings::new(words(&["a", "a"]), 1, vec![1.0; 2]).is_err());
        assert!(Embeddings::new(words(&["a"]), 1, vec![f32::NAN]).is_err());
        let e = Embeddings::new(words(&["a", "b"]), 2, vec![3.0, 4.0, 0.0, 0.0]).unwrap();
        assert_eq!(*e.unit_vector(0), [0.6, 0.8]);
        assert_eq!(*e.unit_vector(1), [0.0, 0.0]);
        assert_eq!(e.complete("A", 5), vec![0]);
        let unknown = UnknownWord { word: "c".into(), suggestions: words(&["a", "b"]) };
        assert_eq!(e.try_index_of("c"), Err(Error::UnknownWords(vec![unknown])));
    }

    #[test]
    fn completion_ignores_case_and_keeps_frequency_order() {
        let e = Embeddings::new(words(&["The", "them", "Theos", "ÉTÉ", "other"]), 1, vec![1.0; 5]).unwrap();
        assert_eq!(e.complete("the", 10), vec![0, 1, 2]);
        assert_eq!(e.complete("THE", 2), vec![0, 1]);
        assert_eq!(e.complete("été", 10), vec![3]);
        assert_eq!(e.complete("", 2), vec![0, 1]);
        assert_eq!(e.complete("zzz", 10), Vec::<usize>::new());
    }

    #[test]
    fn containing_counts_every_word_and_lists_the_most_frequent() {
        let e = Embeddings::new(words(&["The", "other", "them", "ÉTÉ", "father"]), 1, vec![1.0; 5]).unwrap();
        assert_eq!(e.containing("THE", 2), (4, vec![0, 1]));
        assert_eq!(e.containing("the", 10), (4, vec![0, 1, 2, 4]));
        assert_eq!(e.containing("été", 10), (1, vec![3]));
        assert_eq!(e.containing("zzz", 10), (0, vec![]));
    }

    /// Random values as `format`'s bits, and the same values as `f32`s, each converted by
    /// `half`'s scalar conversion (one value at a time, a path apart from the slices' one).
    fn random_half(format: Half, n_values: usize, seed: u64) -> (Vec<u16>, Vec<f32>) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let bits: Vec<u16> = (0..n_values)
            .map(|_| {
                let x = rng.random_range(-1.0f32..1.0);
                match format {
                    Half::F16 => f16::from_f32(x).to_bits(),
                    Half::BF16 => bf16::from_f32(x).to_bits(),
                }
            })
            .collect();
        let values = bits
            .iter()
            .map(|&b| match format {
                Half::F16 => f16::from_bits(b).to_f32(),
                Half::BF16 => bf16::from_bits(b).to_f32(),
            })
            .collect();
        (bits, values)
    }

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("w{i}")).collect()
    }

    fn bits_of(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// Every answer's word, index and score bits.
    fn answers(answer: Result<Vec<crate::vectors::Neighbour>>) -> Vec<(usize, u32)> {
        answer.unwrap().iter().map(|n| (n.word_idx, n.similarity.to_bits())).collect()
    }

    #[test]
    fn half_values_convert_to_the_numbers_they_stand_for() {
        // Table: (format, bits, value), from the formats' definitions.
        let cases: &[(Half, u16, f32)] = &[
            (Half::F16, 0x3c00, 1.0),
            (Half::F16, 0xc000, -2.0),
            (Half::F16, 0x3555, 0.333_251_95),
            (Half::F16, 0x7bff, 65504.0),
            (Half::F16, 0x0001, 5.960_464_5e-8), // the smallest subnormal, 2^-24
            (Half::F16, 0x8000, -0.0),
            (Half::BF16, 0x3f80, 1.0),
            (Half::BF16, 0xc000, -2.0),
            (Half::BF16, 0x3eab, 0.333_984_38),
            (Half::BF16, 0x7f7f, 3.389_531_4e38),
            (Half::BF16, 0x0001, 9.183_5e-41), // the smallest subnormal, 2^-133
        ];
        for &(format, bits, value) in cases {
            let e = Embeddings::from_half(words(&["a"]), 1, vec![bits], format).unwrap();
            assert_eq!(e.vector(0)[0].to_bits(), value.to_bits(), "{format:?} {bits:#06x}");
        }
    }

    #[test]
    fn half_rows_answer_as_f32_rows_of_the_same_values() {
        // 37 dimensions: a block of unit_blocks holds 442 rows, so 1,000 rows end in a part block.
        let (n, dim) = (1000, 37);
        for format in [Half::F16, Half::BF16] {
            let (bits, values) = random_half(format, n * dim, 11);
            let half = Embeddings::from_half(names(n), dim, bits, format).unwrap();
            let full = Embeddings::new(names(n), dim, values).unwrap();
            assert_eq!((half.precision(), full.precision()), (format.name(), "f32"));
            for i in [0, 1, 441, 442, 443, 999] {
                assert_eq!(bits_of(&half.vector(i)), bits_of(&full.vector(i)), "{format:?} row {i}");
                assert_eq!(
                    bits_of(&half.unit_vector(i)),
                    bits_of(&full.unit_vector(i)),
                    "{format:?} row {i}"
                );
            }
            assert_eq!(bits_of(&half.raw_rows(n)), bits_of(&full.raw_rows(n)));
            assert_eq!(bits_of(&half.unit_rows(500)), bits_of(&full.unit_rows(500)));
            for q in [0, 7, 500, 998] {
                let word = full.word(q);
                for restrict in [None, Some(300), Some(443)] {
                    assert_eq!(
                        answers(half.neighbours(word, 10, restrict)),
                        answers(full.neighbours(word, 10, restrict))
                    );
                }
                let other = full.word((q + 1) % n);
                assert_eq!(
                    half.similarity(word, other).unwrap().to_bits(),
                    full.similarity(word, other).unwrap().to_bits()
                );
                for method in [AnalogyMethod::CosAdd, AnalogyMethod::CosMul] {
                    let (b, c) = (full.word((q + 3) % n), full.word((q + 5) % n));
                    assert_eq!(
                        answers(half.analogy(word, b, c, 5, method, None)),
                        answers(full.analogy(word, b, c, 5, method, Some(n)))
                    );
                }
                let mut dots = (vec![0.0; n], vec![0.0; n]);
                half.unit_dots(&full.unit_vector(q), &mut dots.0);
                full.unit_dots(&full.unit_vector(q), &mut dots.1);
                assert_eq!(bits_of(&dots.0), bits_of(&dots.1));
            }
            assert_eq!(Pca::fit(&half, Some(300), 3).unwrap(), Pca::fit(&full, Some(300), 3).unwrap());
            let spec = MapSpec { clusters: 4, ..MapSpec::components(200, 0, 1) };
            assert_eq!(
                Projection::fit(&half, &spec, None).unwrap(),
                Projection::fit(&full, &spec, None).unwrap()
            );
        }
    }

    #[test]
    fn half_rows_give_the_f32_rows_analogy_report_and_map() {
        let (n, dim) = (200, 16);
        let questions: String =
            (0..60).map(|i| format!("w{} w{} w{} w{}\n", i, i + 1, i + 2, (i * 7) % n)).collect();
        let set = AnalogySet::parse(&format!(": section\n{questions}")).unwrap();
        let params =
            LayoutParams::Tsne(TsneParams { perplexity: 5.0, iterations: 20, ..TsneParams::default() });
        for format in [Half::F16, Half::BF16] {
            let (bits, values) = random_half(format, n * dim, 5);
            let half = Embeddings::from_half(names(n), dim, bits, format).unwrap();
            let full = Embeddings::new(names(n), dim, values).unwrap();
            let report = |e: &Embeddings| evaluate_analogies(e, &set, AnalogyOptions::default()).unwrap();
            assert_eq!(report(&half), report(&full), "{format:?}");
            let layout = |e: &Embeddings| {
                let mut builder = LayoutBuilder::new(e, 100, params.clone(), None).unwrap();
                while builder.step(e, 5_000) != LayoutPhase::Layout {}
                let mut layout = builder.finish(e).unwrap();
                while !layout.step(3).is_done() {}
                bits_of(layout.coords())
            };
            assert_eq!(layout(&half), layout(&full), "{format:?}");
        }
    }

    #[test]
    fn a_row_wider_than_a_block_is_a_block_alone() {
        let (n, dim) = (3, BLOCK_FLOATS + 5);
        let (bits, values) = random_half(Half::BF16, n * dim, 3);
        let half = Embeddings::from_half(names(n), dim, bits, Half::BF16).unwrap();
        let full = Embeddings::new(names(n), dim, values).unwrap();
        assert_eq!(answers(half.neighbours("w1", 2, None)), answers(full.neighbours("w1", 2, None)));
    }

    #[test]
    fn the_half_constructor_checks_its_invariant() {
        let check =
            |dim, bits: Vec<u16>, format| Embeddings::from_half(words(&["a", "b"]), dim, bits, format);
        for format in [Half::F16, Half::BF16] {
            let (inf, nan, max) = match format {
                Half::F16 => (0x7c00, 0x7e00, 0x7bff),
                Half::BF16 => (0x7f80, 0x7fc0, 0x7f7f),
            };
            for bad in [inf, inf | 0x8000, nan, nan | 0x8000, nan + 1] {
                let err = check(2, vec![0x3c00, 0, 0, bad], format).unwrap_err();
                assert_eq!(
                    err,
                    Error::Format {
                        line: 0,
                        message: "the vector of 'b' holds a NaN or infinite value".into()
                    },
                    "{format:?} {bad:#06x}"
                );
            }
            assert!(check(2, vec![max, max | 0x8000, 0, 1], format).is_ok(), "{format:?}");
            assert_eq!(
                check(2, vec![0; 3], format).unwrap_err(),
                Error::Format { line: 0, message: "2 words of dimension 2 need 4 numbers, found 3".into() }
            );
            assert!(matches!(check(0, vec![], format), Err(Error::InvalidParameter { name: "dim", .. })));
            assert_eq!(
                Embeddings::from_half(words(&["a", "a"]), 1, vec![0; 2], format).unwrap_err(),
                Error::Format { line: 0, message: "the word 'a' occurs twice".into() }
            );
        }
    }

    #[test]
    fn bytes_count_the_rows_as_they_are_kept() {
        let full = Embeddings::new(words(&["a", "b", "c"]), 4, vec![1.0; 12]).unwrap();
        assert_eq!(full.bytes(), 2 * 12 * 4);
        let half = Embeddings::from_half(words(&["a", "b", "c"]), 4, vec![0x3c00; 12], Half::F16).unwrap();
        assert_eq!(half.bytes(), 12 * 2 + 3 * 4);
    }

    #[test]
    fn zero_rows_are_known_in_either_precision() {
        let full = Embeddings::new(words(&["a", "b"]), 2, vec![0.0, -0.0, 0.0, 1e-30]).unwrap();
        assert_eq!((full.is_zero(0), full.is_zero(1)), (true, false));
        // -0.0 and a subnormal BF16 whose square underflows.
        let half = Embeddings::from_half(words(&["a", "b"]), 2, vec![0x8000, 0, 0, 1], Half::BF16).unwrap();
        assert_eq!((half.is_zero(0), half.is_zero(1)), (true, false));
    }

    #[test]
    fn aliases_name_words_after_the_words_themselves() {
        let e = Embeddings::new(words(&[" king", "Ġqueen", " man"]), 1, vec![1.0, 2.0, 3.0])
            .unwrap()
            .with_aliases(vec![
                ("Ġking".into(), 0),
                ("Ġqueen".into(), 2),
                ("Ġman".into(), 2),
                ("Ġbeyond".into(), 3),
            ]);
        assert_eq!(e.index_of("Ġking"), Some(0));
        assert_eq!(e.index_of(" king"), Some(0));
        // A word is found before an alias of the same name.
        assert_eq!(e.index_of("Ġqueen"), Some(1));
        assert_eq!(e.try_index_of("Ġman"), Ok(2));
        // An alias of no row is dropped.
        assert_eq!(e.index_of("Ġbeyond"), None);
        assert!(matches!(e.try_index_of("Ġbeyond"), Err(Error::UnknownWords(_))));
        assert_eq!(e.similarity("Ġking", " man").unwrap(), 1.0);
    }
}
