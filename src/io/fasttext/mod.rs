//! fastText's `.bin` model ([`FastTextReader`]): its settings, its dictionary (words with
//! their counts) and its input matrix (a row a word, then `bucket` rows of character
//! n-grams), read from a stream pushed in slices of any size. The output matrix after it is
//! never read.
//!
//! A word's vector is the one fastText's `getWordVector` gives: its own row and its n-grams'
//! rows, averaged. Rows stream in the file's order (the words' rows, then the buckets'), so
//! each bucket row is added to the kept words holding that n-gram as it passes: the words'
//! vectors come out whole whether the bucket rows are kept or not. The bucket rows are kept
//! (for words the model never saw, [`Subwords`]) when memory allows, in `f32`, else in `f16`.
//!
//! The layout, as fastText's `FastText::saveModel` writes it (little-endian):
//! `i32` magic 793712314, `i32` version (≤ 12); the arguments: `i32` dim, ws, epoch,
//! minCount, neg, wordNgrams, loss, model, bucket, minn, maxn, lrUpdateRate, `f64` t; the
//! dictionary: `i32` size, nwords, nlabels, `i64` ntokens, pruneidx_size, then `size`
//! entries of a NUL-ended word, `i64` count, `i8` type (0 a word, 1 a label), then
//! `pruneidx_size` pairs of `i32`; `u8` quantized; a dense matrix: `i64` rows, cols, the
//! `f32` values row-major.

use crate::error::thousands;
use crate::vectors::Embeddings;

mod reader;
pub use reader::{FastTextReader, read_fasttext};

/// The first four bytes of every fastText model, little-endian.
pub const MAGIC: i32 = 793_712_314;

/// The newest format version read (fastText 0.9 writes 12).
pub const MAX_VERSION: i32 = 12;

/// Words kept by default where memory is scarce (the page): the most frequent 200,000
/// cover nearly every running word of a text, and take 240 MB at 300 dimensions.
pub const DEFAULT_PAGE_WORDS: usize = 200_000;

/// Memory for the kept words (8 bytes a value: raw and unit rows) and the bucket rows,
/// in the page: a tab has 4 GB of wasm memory, and the map and queries need room beside.
pub const DEFAULT_PAGE_BYTES: u64 = 2_000_000_000;

/// The longest word read: past it, a word without its ending NUL is a corrupt dictionary.
const MAX_WORD_BYTES: usize = 1 << 16;

/// The largest dimension taken from a header (fastText's largest published models have 300).
const MAX_DIM: i32 = 100_000;

/// Whether `head`, a file's first bytes, is a fastText model's start: its magic number,
/// or the settings and dictionary header an older fastText wrote without one.
pub fn sniff(head: &[u8]) -> bool {
    (head.len() >= 4 && i32_at(head, 0) == MAGIC) || (head.len() >= LEGACY_HEAD && legacy(head))
}

/// The settings (56 bytes) and dictionary header (20) of an older fastText's model, which
/// has no magic number: read together, their values tell it from other files.
const LEGACY_HEAD: usize = 76;

/// Whether `head` starts with the settings and dictionary header of an older fastText: each
/// setting in the range fastText allows, and the entries the words and labels.
fn legacy(head: &[u8]) -> bool {
    let a = args_at(head, 0);
    let (size, nwords, nlabels) = (i32_at(head, 56), i32_at(head, 60), i32_at(head, 64));
    (1..=MAX_DIM).contains(&a.dim)
        && (1..=10_000).contains(&a.ws)
        && (1..=1_000_000).contains(&a.epoch)
        && a.min_count >= 0
        && (0..=10_000).contains(&a.neg)
        && (0..=100).contains(&a.word_ngrams)
        && (1..=4).contains(&a.loss)
        && (1..=3).contains(&a.model)
        && a.bucket >= 0
        && (0..=1000).contains(&a.minn)
        && (0..=1000).contains(&a.maxn)
        && a.t > 0.0
        && a.t < 1.0
        && nwords >= 0
        && nlabels >= 0
        && adds_up(size, nwords, nlabels)
}

/// Whether a dictionary's entries are its words and labels, summed without overflow (a
/// corrupt header's counts can be anything).
fn adds_up(size: i32, nwords: i32, nlabels: i32) -> bool {
    i64::from(size) == i64::from(nwords) + i64::from(nlabels)
}

/// The thirteen settings fastText writes, from `at`.
fn args_at(buf: &[u8], at: usize) -> Args {
    let v = |i: usize| i32_at(buf, at + 4 * i);
    Args {
        dim: v(0),
        ws: v(1),
        epoch: v(2),
        min_count: v(3),
        neg: v(4),
        word_ngrams: v(5),
        loss: v(6),
        model: v(7),
        bucket: v(8),
        minn: v(9),
        maxn: v(10),
        lr_update_rate: v(11),
        t: f64::from_le_bytes(buf[at + 48..at + 56].try_into().expect("8 bytes")),
    }
}

/// What a reader keeps of a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most frequent words kept; all when `None`.
    pub max_words: Option<usize>,
    /// The bytes the kept words (8 a value) and the bucket rows may take together: the
    /// buckets are kept in `f32` when they fit, else in `f16`, else not at all.
    pub max_bytes: u64,
}

impl Limits {
    /// Everything: the command line's default.
    pub const ALL: Limits = Limits { max_words: None, max_bytes: u64::MAX };

    /// The page's default.
    pub const PAGE: Limits = Limits { max_words: Some(DEFAULT_PAGE_WORDS), max_bytes: DEFAULT_PAGE_BYTES };
}

/// The training arguments a model holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Args {
    pub dim: i32,
    pub ws: i32,
    pub epoch: i32,
    pub min_count: i32,
    pub neg: i32,
    pub word_ngrams: i32,
    pub loss: i32,
    pub model: i32,
    pub bucket: i32,
    pub minn: i32,
    pub maxn: i32,
    pub lr_update_rate: i32,
    pub t: f64,
}

impl Args {
    /// The model's name as fastText's command line gives it.
    pub fn model_name(&self) -> &'static str {
        match self.model {
            1 => "cbow",
            2 => "skipgram",
            3 => "supervised",
            _ => "unknown",
        }
    }

    /// The loss's name as fastText's command line gives it.
    pub fn loss_name(&self) -> &'static str {
        match self.loss {
            1 => "hs",
            2 => "ns",
            3 => "softmax",
            4 => "ova",
            _ => "unknown",
        }
    }
}

/// How the n-gram bucket rows were kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BucketsKept {
    F32,
    F16,
    /// Not kept: memory did not allow them; known words' vectors are still whole.
    No,
    /// The model has no n-grams (`maxn` 0 or no buckets).
    None,
}

/// What a fastText model is, and what of it was kept.
#[derive(Debug, Clone, PartialEq)]
pub struct FastTextInfo {
    /// The format's version; 0 for an older fastText's model, which has none.
    pub version: i32,
    pub args: Args,
    /// The words in the model, and how many were kept (the most frequent).
    pub words: usize,
    pub kept_words: usize,
    /// The tokens of the training text.
    pub tokens: u64,
    pub buckets: BucketsKept,
    /// Words whose bytes are not UTF-8, read with U+FFFD, or with `\xNN` for each such byte
    /// when two of them would read alike with U+FFFD.
    pub non_utf8_words: usize,
    pub named_by_bytes: bool,
}

impl FastTextInfo {
    /// What was kept, in a sentence: "kept 200,000 of 2,000,000 words; n-gram buckets kept (f16)".
    pub fn kept(&self) -> String {
        let words = if self.kept_words == self.words {
            format!("kept all {} words", thousands(self.words as u64))
        } else {
            format!("kept {} of {} words", thousands(self.kept_words as u64), thousands(self.words as u64))
        };
        let buckets = match self.buckets {
            BucketsKept::F32 => format!("{} n-gram buckets kept", thousands(self.args.bucket as u64)),
            BucketsKept::F16 => {
                format!("{} n-gram buckets kept in f16 to save memory", thousands(self.args.bucket as u64))
            }
            BucketsKept::No => format!(
                "n-gram buckets not kept ({} would not fit in memory): words the model lacks have no vector",
                thousands(self.args.bucket as u64)
            ),
            BucketsKept::None => "no n-grams in this model: words it lacks have no vector".into(),
        };
        format!("{words}; {buckets}")
    }

    /// A line on the model's settings: "skipgram, dim 100, n-grams 3–6 in 2,000,000 buckets, …".
    pub fn settings(&self) -> String {
        let a = &self.args;
        let format = match self.version {
            0 => "an older format without a magic number".to_string(),
            v => format!("format {v}"),
        };
        let ngrams = if a.maxn == 0 || a.bucket == 0 {
            "no n-grams".to_string()
        } else {
            format!("n-grams {}–{} in {} buckets", a.minn, a.maxn, thousands(a.bucket as u64))
        };
        format!(
            "fastText {} ({format}), dim {}, {ngrams}, window {}, epoch {}, minCount {}, loss {}, neg {}, wordNgrams {}, t {}, lrUpdateRate {}, {} training tokens",
            a.model_name(),
            a.dim,
            a.ws,
            a.epoch,
            a.min_count,
            a.loss_name(),
            a.neg,
            a.word_ngrams,
            a.t,
            a.lr_update_rate,
            thousands(self.tokens)
        )
    }

    /// The note on words that are not UTF-8, when there were some.
    pub fn non_utf8_note(&self) -> Option<String> {
        (self.non_utf8_words > 0).then(|| {
            format!(
                "{} word{} not UTF-8: the bytes that do not decode are shown as {}",
                thousands(self.non_utf8_words as u64),
                if self.non_utf8_words == 1 { " is" } else { "s are" },
                if self.named_by_bytes {
                    "\\xNN, since two words read alike with \u{FFFD}: the model's words are in another encoding"
                } else {
                    "\u{FFFD}"
                }
            )
        })
    }
}

/// A model read: the kept words' vectors (with the n-grams when kept), their counts, and
/// what the model is.
#[derive(Debug)]
pub struct FastTextModel {
    pub embeddings: Embeddings,
    pub counts: Vec<u64>,
    pub info: FastTextInfo,
}

fn i32_at(buf: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(buf[at..at + 4].try_into().expect("4 bytes"))
}

fn i64_at(buf: &[u8], at: usize) -> i64 {
    i64::from_le_bytes(buf[at..at + 8].try_into().expect("8 bytes"))
}

#[cfg(test)]
mod tests;
