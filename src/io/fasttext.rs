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

use crate::error::{Error, Result, bytes, thousands};
use crate::vectors::{Embeddings, Subwords, ngram_buckets};

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

/// Where the reader stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Args,
    DictHeader,
    Entries,
    Prune,
    Quantized,
    MatrixHeader,
    Rows,
    Done,
}

/// The bucket rows being kept.
enum Store {
    F32(Vec<f32>),
    F16(Vec<u16>),
    No,
}

/// A push reader of a fastText `.bin` model: [`FastTextReader::push`] takes the file in
/// slices of any size, from its start, until [`FastTextReader::wants_more`] is false (the
/// input matrix is read; the rest of the file is not needed); [`FastTextReader::finish`]
/// gives the model. The result and every error are the same however the file is sliced.
pub struct FastTextReader {
    limits: Limits,
    file_len: u64,
    /// Bytes pushed and consumed so far (the start of `pending` in the file).
    consumed: u64,
    pending: Vec<u8>,
    stage: Stage,
    version: i32,
    args: Option<Args>,
    size: usize,
    nwords: usize,
    tokens: u64,
    entries_read: usize,
    prune_left: u64,
    kept: usize,
    words: Vec<String>,
    counts: Vec<u64>,
    /// `(bucket, kept word)` for each n-gram of each kept word, sorted by bucket once the
    /// dictionary is read, walked as the bucket rows pass.
    uses: Vec<(u32, u32)>,
    /// How many n-grams each kept word has.
    ngrams: Vec<u32>,
    cursor: usize,
    rows: u64,
    rows_read: u64,
    vectors: Vec<f32>,
    store: Store,
    non_utf8: usize,
    /// Whether the model is a classifier (`supervised`, or with labels), refused once its
    /// dictionary is read.
    supervised: bool,
    /// The bytes of the kept words that are not UTF-8, by index: should two read alike with
    /// U+FFFD, they are named by their bytes instead.
    raw_words: Vec<(usize, Vec<u8>)>,
    failed: Option<Error>,
}

impl std::fmt::Debug for FastTextReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FastTextReader")
            .field("stage", &self.stage)
            .field("consumed", &self.consumed)
            .field("entries_read", &self.entries_read)
            .field("rows_read", &self.rows_read)
            .finish_non_exhaustive()
    }
}

fn corrupt(message: String) -> Error {
    Error::Model(format!("not a readable fastText model: {message}"))
}

impl FastTextReader {
    /// A reader of a model file of `file_len` bytes, keeping what `limits` allow.
    pub fn new(limits: Limits, file_len: u64) -> FastTextReader {
        FastTextReader {
            limits,
            file_len,
            consumed: 0,
            pending: Vec::new(),
            stage: Stage::Args,
            version: 0,
            args: None,
            size: 0,
            nwords: 0,
            tokens: 0,
            entries_read: 0,
            prune_left: 0,
            kept: 0,
            words: Vec::new(),
            counts: Vec::new(),
            uses: Vec::new(),
            ngrams: Vec::new(),
            cursor: 0,
            rows: 0,
            rows_read: 0,
            vectors: Vec::new(),
            store: Store::No,
            non_utf8: 0,
            supervised: false,
            raw_words: Vec::new(),
            failed: None,
        }
    }

    /// Takes the next bytes of the file. After an error the reader is spent: every later
    /// call returns the same error. Bytes after the input matrix are ignored.
    pub fn push(&mut self, bytes: &[u8]) -> Result<()> {
        if let Some(err) = &self.failed {
            return Err(err.clone());
        }
        if self.stage == Stage::Done {
            return Ok(());
        }
        self.pending.extend_from_slice(bytes);
        let result = self.advance();
        if let Err(err) = &result {
            self.failed = Some(err.clone());
            self.pending = Vec::new();
        }
        result
    }

    /// Whether the reader needs more of the file.
    pub fn wants_more(&self) -> bool {
        self.failed.is_none() && self.stage != Stage::Done
    }

    /// Words of the dictionary read, then rows of the matrix read, for progress.
    pub fn progress(&self) -> (&'static str, u64, u64) {
        match self.stage {
            Stage::Args | Stage::DictHeader | Stage::Entries => {
                ("words", self.entries_read as u64, self.size as u64)
            }
            _ => ("rows", self.rows_read, self.rows),
        }
    }

    /// The words kept so far.
    pub fn words_read(&self) -> usize {
        self.words.len()
    }

    fn advance(&mut self) -> Result<()> {
        let mut at = 0;
        // Taken out while the stages read it, put back with what is left.
        let mut pending = std::mem::take(&mut self.pending);
        while self.stage != Stage::Done {
            let buf = &pending[at..];
            let used = match self.stage {
                Stage::Args => self.read_args(buf)?,
                Stage::DictHeader => self.read_dict_header(buf)?,
                Stage::Entries => self.read_entries(buf)?,
                Stage::Prune => {
                    let whole = (buf.len() as u64 / 8).min(self.prune_left);
                    self.prune_left -= whole;
                    if self.prune_left == 0 {
                        self.stage = Stage::Quantized;
                    }
                    whole as usize * 8
                }
                Stage::Quantized => self.read_quantized(buf)?,
                Stage::MatrixHeader => self.read_matrix_header(buf)?,
                Stage::Rows => self.read_rows(buf)?,
                Stage::Done => unreachable!("the loop stops there"),
            };
            if used == 0 {
                break;
            }
            at += used;
            self.consumed += used as u64;
        }
        if self.stage != Stage::Done {
            pending.drain(..at);
            self.pending = pending;
        }
        // Done: the output matrix follows, which is not needed.
        Ok(())
    }

    fn read_args(&mut self, buf: &[u8]) -> Result<usize> {
        if buf.len() < 4 {
            return Ok(0);
        }
        let (version, args, used) = if i32_at(buf, 0) == MAGIC {
            if buf.len() < 8 {
                return Ok(0);
            }
            let version = i32_at(buf, 4);
            if !(1..=MAX_VERSION).contains(&version) {
                return Err(Error::Model(format!(
                    "a fastText model of format version {version}; this reader knows versions up to {MAX_VERSION} (fastText 0.9)"
                )));
            }
            if buf.len() < 64 {
                return Ok(0);
            }
            (version, args_at(buf, 8), 64)
        } else {
            if buf.len() < LEGACY_HEAD {
                return Ok(0);
            }
            if !legacy(buf) {
                return Err(Error::Model(
                    "not a fastText model: its first bytes are neither fastText's magic number 793712314 nor the settings an older fastText wrote".into(),
                ));
            }
            (0, args_at(buf, 0), 56)
        };
        // A supervised model is refused once its dictionary is read: a quantized one (`.ftz`)
        // says so only after it.
        self.supervised = args.model == 3;
        if !(1..=3).contains(&args.model) || !(1..=4).contains(&args.loss) {
            return Err(corrupt(format!(
                "its header names model {} and loss {}, which fastText does not have",
                args.model, args.loss
            )));
        }
        if !(1..=MAX_DIM).contains(&args.dim) {
            return Err(corrupt(format!("its header gives the dimension as {}", args.dim)));
        }
        if args.bucket < 0 || args.minn < 0 || args.maxn < 0 || (args.maxn > 0 && args.minn > args.maxn) {
            return Err(corrupt(format!(
                "its header gives n-grams of {} to {} characters in {} buckets",
                args.minn, args.maxn, args.bucket
            )));
        }
        self.version = version;
        self.args = Some(args);
        self.stage = Stage::DictHeader;
        Ok(used)
    }

    fn read_dict_header(&mut self, buf: &[u8]) -> Result<usize> {
        // An older fastText (no magic number, version 0 here) writes no pruned index.
        let len = if self.version == 0 { 20 } else { 28 };
        if buf.len() < len {
            return Ok(0);
        }
        let (size, nwords, nlabels) = (i32_at(buf, 0), i32_at(buf, 4), i32_at(buf, 8));
        let ntokens = i64_at(buf, 12);
        let prune = if self.version == 0 { 0 } else { i64_at(buf, 20) };
        self.supervised |= nlabels > 0;
        let left = self.file_len.saturating_sub(self.consumed + len as u64);
        // An entry takes at least 10 bytes (an empty word's NUL, its count, its type).
        if size >= 0 && adds_up(size, nwords, nlabels) && size as u64 * 10 > left {
            return Err(Error::Model(format!(
                "the fastText model is cut short, or its header is corrupt: its dictionary of {} words needs at least {}, and {} follow its header",
                thousands(size as u64),
                bytes(size as u64 * 10),
                bytes(left)
            )));
        }
        if size < 0 || nwords < 0 || nlabels < 0 || !adds_up(size, nwords, nlabels) {
            return Err(corrupt(format!(
                "its dictionary header gives {size} entries, {nwords} words and {nlabels} labels in a file of {}",
                bytes(self.file_len)
            )));
        }
        if nwords == 0 && !self.supervised {
            return Err(Error::Model("a fastText model without words: there is nothing to show".into()));
        }
        self.size = size as usize;
        self.nwords = nwords as usize;
        self.tokens = ntokens.max(0) as u64;
        self.prune_left = prune.max(0) as u64;
        self.kept = self.limits.max_words.map_or(self.nwords, |n| n.min(self.nwords)).max(1);
        self.words.reserve(self.kept);
        self.counts.reserve(self.kept);
        self.ngrams.reserve(self.kept);
        self.stage = Stage::Entries;
        Ok(len)
    }

    fn read_entries(&mut self, buf: &[u8]) -> Result<usize> {
        let args = self.args.expect("read before the entries");
        let mut at = 0;
        let mut grams = Vec::new();
        while self.entries_read < self.size {
            let rest = &buf[at..];
            let Some(end) = rest.iter().take(MAX_WORD_BYTES + 1).position(|&b| b == 0) else {
                if rest.len() > MAX_WORD_BYTES {
                    return Err(corrupt(format!(
                        "word {} runs past {} bytes without its end",
                        self.entries_read + 1,
                        thousands(MAX_WORD_BYTES as u64)
                    )));
                }
                break;
            };
            if rest.len() < end + 10 {
                break;
            }
            let raw = &rest[..end];
            let count = i64_at(rest, end + 1);
            let kind = rest[end + 9] as i8;
            let number = self.entries_read + 1;
            if kind == 1 && self.entries_read < self.nwords {
                return Err(corrupt(format!(
                    "entry {number} is a label, though the header says it is one of the {} words",
                    self.nwords
                )));
            }
            if (kind == 0 && self.entries_read >= self.nwords) || !(0..=1).contains(&kind) || count < 0 {
                return Err(corrupt(format!("entry {number} has type {kind} and count {count}")));
            }
            if self.entries_read < self.kept {
                let (word, replaced) = match String::from_utf8_lossy(raw) {
                    std::borrow::Cow::Borrowed(w) => (w.to_string(), false),
                    std::borrow::Cow::Owned(w) => (w, true),
                };
                if replaced {
                    self.non_utf8 += 1;
                    self.raw_words.push((self.words.len(), raw.to_vec()));
                }
                // fastText gives the end of sentence no n-grams.
                if word != "</s>" {
                    ngram_buckets(
                        raw,
                        args.minn as usize,
                        args.maxn as usize,
                        args.bucket as u32,
                        &mut grams,
                    );
                } else {
                    grams.clear();
                }
                let idx = self.words.len() as u32;
                self.uses.extend(grams.iter().map(|&b| (b, idx)));
                self.ngrams.push(grams.len() as u32);
                self.words.push(word);
                self.counts.push(count as u64);
            }
            self.entries_read += 1;
            at += end + 10;
        }
        if self.entries_read == self.size {
            self.uses.sort_unstable();
            self.uses.shrink_to_fit();
            self.stage = match (self.prune_left, self.version) {
                (0, 0) if self.supervised => return Err(self.supervised_error()),
                (0, 0) => Stage::MatrixHeader,
                (0, _) => Stage::Quantized,
                _ => Stage::Prune,
            };
        }
        Ok(at)
    }

    fn read_quantized(&mut self, buf: &[u8]) -> Result<usize> {
        let Some(&flag) = buf.first() else { return Ok(0) };
        if flag != 0 {
            let what = if self.supervised { "a text classifier " } else { "" };
            return Err(Error::Model(format!(
                "a quantized fastText model (.ftz, {what}made smaller by `fasttext quantize`): its vectors are compressed by product quantization, which embedscope does not read; open the .bin it was made from, or its .vec (word2vec text)"
            )));
        }
        if self.supervised {
            return Err(self.supervised_error());
        }
        self.stage = Stage::MatrixHeader;
        Ok(1)
    }

    fn supervised_error(&self) -> Error {
        let args = self.args.expect("read before the dictionary");
        Error::Model(format!(
            "a supervised fastText model (a text classifier: {} labels, loss {}): its vectors are trained to tell labels apart, not to place words; open a model trained with `fasttext skipgram` or `fasttext cbow`",
            thousands((self.size - self.nwords) as u64),
            args.loss_name()
        ))
    }

    fn read_matrix_header(&mut self, buf: &[u8]) -> Result<usize> {
        if buf.len() < 16 {
            return Ok(0);
        }
        let args = self.args.expect("read before the matrix");
        let (m, n) = (i64_at(buf, 0), i64_at(buf, 8));
        let wanted = self.nwords as i64 + args.bucket as i64;
        if m != wanted || n != args.dim as i64 {
            return Err(corrupt(format!(
                "its input matrix is {m} × {n}, where {} words and {} buckets of dimension {} make {wanted} × {}",
                self.nwords, args.bucket, args.dim, args.dim
            )));
        }
        let dim = args.dim as u64;
        let matrix_bytes = m as u64 * dim * 4;
        let left = self.file_len.saturating_sub(self.consumed + 16);
        if matrix_bytes > left {
            return Err(Error::Model(format!(
                "the fastText model is cut short: its input matrix of {} rows needs {}, and the file holds {} after its header",
                thousands(m as u64),
                bytes(matrix_bytes),
                bytes(left)
            )));
        }
        let words_bytes = self.kept as u64 * dim * 8;
        if words_bytes > self.limits.max_bytes {
            return Err(Error::Model(format!(
                "the {} words kept of this fastText model would take {}, more than the {} allowed: keep fewer words",
                thousands(self.kept as u64),
                bytes(words_bytes),
                bytes(self.limits.max_bytes)
            )));
        }
        let bucket_values = args.bucket as u64 * dim;
        let has_ngrams = args.maxn > 0 && args.bucket > 0;
        // The words first: without them there is nothing to show. Memory the limits allow
        // may still be taken (the vectors open before stay while this one is read), so each
        // allocation is tried, and the buckets fall back to less.
        let mut vectors = Vec::new();
        if vectors.try_reserve_exact(self.kept * args.dim as usize).is_err() {
            return Err(Error::Model(format!(
                "not enough memory for the {} words kept of this fastText model ({}): keep fewer words",
                thousands(self.kept as u64),
                bytes(self.kept as u64 * dim * 4)
            )));
        }
        self.vectors = vectors;
        let fits = |value_bytes: u64| {
            words_bytes.saturating_add(bucket_values * value_bytes) <= self.limits.max_bytes
        };
        self.store = Store::No;
        if has_ngrams && fits(4) {
            let mut rows = Vec::new();
            if rows.try_reserve_exact(bucket_values as usize).is_ok() {
                self.store = Store::F32(rows);
            }
        }
        if has_ngrams && matches!(self.store, Store::No) && fits(2) {
            let mut bits = Vec::new();
            if bits.try_reserve_exact(bucket_values as usize).is_ok() {
                self.store = Store::F16(bits);
            }
        }
        self.rows = m as u64;
        self.stage = if m == 0 { Stage::Done } else { Stage::Rows };
        Ok(16)
    }

    fn read_rows(&mut self, buf: &[u8]) -> Result<usize> {
        let dim = self.args.expect("read before the rows").dim as usize;
        let row_bytes = dim * 4;
        let mut row = vec![0.0f32; dim];
        let mut at = 0;
        while self.rows_read < self.rows && buf.len() - at >= row_bytes {
            let r = self.rows_read as usize;
            let used = r < self.kept || r >= self.nwords;
            if used {
                for (x, b) in row.iter_mut().zip(buf[at..at + row_bytes].chunks_exact(4)) {
                    *x = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                }
                if row.iter().any(|x| !x.is_finite()) {
                    let what = if r < self.nwords {
                        format!("the vector of '{}'", self.words[r])
                    } else {
                        format!("n-gram bucket {}", r - self.nwords)
                    };
                    return Err(Error::Model(format!("{what} holds a NaN or infinite value")));
                }
                if r < self.kept {
                    self.vectors.extend_from_slice(&row);
                } else {
                    let b = (r - self.nwords) as u32;
                    while let Some(&(bucket, word)) = self.uses.get(self.cursor)
                        && bucket == b
                    {
                        let w = word as usize;
                        crate::linalg::axpy(1.0, &row, &mut self.vectors[w * dim..(w + 1) * dim]);
                        self.cursor += 1;
                    }
                    match &mut self.store {
                        Store::F32(rows) => rows.extend_from_slice(&row),
                        Store::F16(bits) => {
                            bits.extend(row.iter().map(|&x| half::f16::from_f32(x).to_bits()))
                        }
                        Store::No => {}
                    }
                }
            }
            self.rows_read += 1;
            at += row_bytes;
        }
        if self.rows_read == self.rows {
            self.stage = Stage::Done;
        }
        Ok(at)
    }

    /// The model, once its input matrix is read. Fails when the file ended early.
    pub fn finish(self) -> Result<FastTextModel> {
        if let Some(err) = self.failed {
            return Err(err);
        }
        if self.stage != Stage::Done {
            let where_ = match self.stage {
                Stage::Args | Stage::DictHeader => "in its header".to_string(),
                Stage::Entries | Stage::Prune | Stage::Quantized | Stage::MatrixHeader => format!(
                    "in its dictionary, after {} of {} words",
                    thousands(self.entries_read as u64),
                    thousands(self.size as u64)
                ),
                Stage::Rows | Stage::Done => format!(
                    "in its matrix, after {} of {} rows",
                    thousands(self.rows_read),
                    thousands(self.rows)
                ),
            };
            return Err(Error::Model(format!("the fastText model is cut short: the file ends {where_}")));
        }
        let args = self.args.expect("read");
        let dim = args.dim as usize;
        let mut vectors = self.vectors;
        for (v, &n) in vectors.chunks_exact_mut(dim).zip(&self.ngrams) {
            let scale = 1.0 / (1 + n) as f32;
            v.iter_mut().for_each(|x| *x *= scale);
        }
        let (minn, maxn, bucket) = (args.minn as usize, args.maxn as usize, args.bucket as u32);
        let (subwords, buckets) = match self.store {
            Store::F32(rows) => (Some(Subwords::new(minn, maxn, bucket, dim, rows)), BucketsKept::F32),
            Store::F16(bits) => (Some(Subwords::from_f16(minn, maxn, bucket, dim, bits)), BucketsKept::F16),
            Store::No if args.maxn > 0 && args.bucket > 0 => (None, BucketsKept::No),
            Store::No => (None, BucketsKept::None),
        };
        let kept_words = self.words.len();
        let mut words = self.words;
        let mut clash = false;
        if !self.raw_words.is_empty() {
            let names: std::collections::HashSet<&str> =
                self.raw_words.iter().map(|(i, _)| words[*i].as_str()).collect();
            let mut times = std::collections::HashMap::new();
            for word in words.iter().filter(|w| names.contains(w.as_str())) {
                *times.entry(word.as_str()).or_insert(0usize) += 1;
            }
            clash = times.values().any(|&n| n > 1);
            if clash {
                // Two words alike once read with U+FFFD: every such word is named by its
                // bytes, as gensim names them (`errors='backslashreplace'`).
                for (i, raw) in &self.raw_words {
                    words[*i] = backslash_replace(raw);
                }
            }
        }
        let embeddings = Embeddings::new(words, dim, vectors).map_err(|err| match err {
            Error::Format { message, .. } => Error::Model(format!("the fastText model's words: {message}")),
            other => other,
        })?;
        let embeddings = match subwords {
            Some(subwords) => embeddings.with_subwords(subwords),
            None => embeddings,
        };
        let info = FastTextInfo {
            version: self.version,
            args,
            words: self.nwords,
            kept_words,
            tokens: self.tokens,
            buckets,
            non_utf8_words: self.non_utf8,
            named_by_bytes: clash,
        };
        Ok(FastTextModel { embeddings, counts: self.counts, info })
    }
}

/// `raw` as UTF-8 where it is, each other byte as `\xNN`.
fn backslash_replace(raw: &[u8]) -> String {
    let mut out = String::new();
    for chunk in raw.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

fn i32_at(buf: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(buf[at..at + 4].try_into().expect("4 bytes"))
}

fn i64_at(buf: &[u8], at: usize) -> i64 {
    i64::from_le_bytes(buf[at..at + 8].try_into().expect("8 bytes"))
}

/// Reads a fastText model from `input`, `file_len` bytes long, in slices of 16 MB, with
/// `progress(what, done, total)` after each; stops once the input matrix is read.
pub fn read_fasttext<R: std::io::Read>(
    mut input: R,
    file_len: u64,
    limits: Limits,
    mut progress: impl FnMut(&'static str, u64, u64),
) -> Result<FastTextModel> {
    let mut reader = FastTextReader::new(limits, file_len);
    let mut slice = vec![0u8; 16 << 20];
    while reader.wants_more() {
        let n = input.read(&mut slice).map_err(|e| Error::Io(format!("cannot read the model file: {e}")))?;
        if n == 0 {
            break;
        }
        reader.push(&slice[..n])?;
        let (what, done, total) = reader.progress();
        progress(what, done, total);
    }
    reader.finish()
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    use super::*;
    use crate::fuzz::mutate_bytes;

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
        let (a, b) =
            (read(&new.bytes(), Limits::ALL, 7).unwrap(), read(&old.bytes(), Limits::ALL, 7).unwrap());
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
        assert!(
            err.contains("quantized fastText model (.ftz, made") && err.contains("open the .bin"),
            "{err}"
        );
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
}
