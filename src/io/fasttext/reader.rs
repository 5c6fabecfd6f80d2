//! The push reader of a fastText `.bin` model: the file in slices of any size, from its
//! start, read stage by stage (settings, dictionary, pruned index, the quantized flag, the
//! input matrix's header and rows) into a [`FastTextModel`]. Each bucket row is added to the
//! kept words holding that n-gram as it passes, so known words' vectors come out whole
//! whether the bucket rows are kept or not.

use super::{
    Args, BucketsKept, FastTextInfo, FastTextModel, LEGACY_HEAD, Limits, MAGIC, MAX_DIM, MAX_VERSION,
    MAX_WORD_BYTES, adds_up, args_at, i32_at, i64_at, legacy,
};
use crate::error::{Error, Result, bytes, thousands};
use crate::vectors::{Embeddings, Subwords, ngram_buckets};

mod names;
use names::name_clashes_by_bytes;

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
        let clash = name_clashes_by_bytes(&mut words, &self.raw_words);
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
