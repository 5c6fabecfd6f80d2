//! Character n-grams as fastText uses them: a word is read as `<word>`, its n-grams of
//! `minn..=maxn` characters are hashed into `bucket` rows, and a word the vocabulary lacks
//! gets the average of its n-grams' rows ([`Subwords::vector`]), as fastText's
//! `getWordVector` and gensim's `FastTextKeyedVectors.get_vector` compute it.
//!
//! Hand-written rather than taken from a crate: the hash must match fastText's to the bit
//! (FNV-1a over the bytes read as *signed* chars, which no general FNV crate does), and the
//! n-grams must be cut on UTF-8 character starts as fastText cuts them.

use std::borrow::Cow;

use crate::linalg;

/// fastText's hash of an n-gram: 32-bit FNV-1a, each byte sign-extended first, because
/// fastText XORs `uint32_t(int8_t(c))`. Bytes of 0x80 and above (every byte of a character
/// that is not ASCII) therefore hash differently from plain FNV-1a.
pub fn fasttext_hash(bytes: &[u8]) -> u32 {
    let mut h: u32 = 2_166_136_261;
    for &b in bytes {
        h ^= b as i8 as i32 as u32;
        h = h.wrapping_mul(16_777_619);
    }
    h
}

/// The buckets of `word`'s character n-grams, in fastText's order (by start, then length),
/// a bucket once for each n-gram that lands in it: `<word>` cut into `minn..=maxn`
/// characters, never starting inside a UTF-8 character, the lone `<` and `>` left out.
/// Empty when `maxn` is 0 or `bucket` is 0.
pub fn ngram_buckets(word: &[u8], minn: usize, maxn: usize, bucket: u32, out: &mut Vec<u32>) {
    out.clear();
    if maxn == 0 || bucket == 0 {
        return;
    }
    let mut padded = Vec::with_capacity(word.len() + 2);
    padded.push(b'<');
    padded.extend_from_slice(word);
    padded.push(b'>');
    let continuation = |b: u8| b & 0xC0 == 0x80;
    for i in 0..padded.len() {
        if continuation(padded[i]) {
            continue;
        }
        let mut j = i;
        let mut n = 1;
        while j < padded.len() && n <= maxn {
            j += 1;
            while j < padded.len() && continuation(padded[j]) {
                j += 1;
            }
            if n >= minn && !(n == 1 && (i == 0 || j == padded.len())) {
                out.push(fasttext_hash(&padded[i..j]) % bucket);
            }
            n += 1;
        }
    }
}

/// How the n-gram rows are kept.
#[derive(Clone, PartialEq)]
enum BucketRows {
    F32(Vec<f32>),
    /// IEEE half precision: a large model's buckets at half the memory, computed in `f32`.
    F16(Vec<u16>),
}

/// A fastText model's n-gram settings and its bucket rows, which give a vector to any word
/// with at least one n-gram.
#[derive(Clone, PartialEq)]
pub struct Subwords {
    minn: usize,
    maxn: usize,
    bucket: u32,
    dim: usize,
    rows: BucketRows,
}

impl std::fmt::Debug for Subwords {
    /// The settings, without the rows.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subwords")
            .field("minn", &self.minn)
            .field("maxn", &self.maxn)
            .field("bucket", &self.bucket)
            .field("dim", &self.dim)
            .field("precision", &self.precision())
            .finish()
    }
}

impl Subwords {
    /// N-grams of `minn..=maxn` characters hashed into `bucket` rows of `dim` values
    /// (`rows`, row-major, `bucket * dim` long).
    ///
    /// **Unchecked precondition:** `rows.len() == bucket * dim`.
    pub fn new(minn: usize, maxn: usize, bucket: u32, dim: usize, rows: Vec<f32>) -> Subwords {
        debug_assert_eq!(rows.len(), bucket as usize * dim);
        Subwords { minn, maxn, bucket, dim, rows: BucketRows::F32(rows) }
    }

    /// Like [`Subwords::new`], the rows given as IEEE half-precision bits.
    pub fn from_f16(minn: usize, maxn: usize, bucket: u32, dim: usize, bits: Vec<u16>) -> Subwords {
        debug_assert_eq!(bits.len(), bucket as usize * dim);
        Subwords { minn, maxn, bucket, dim, rows: BucketRows::F16(bits) }
    }

    /// `"f32"` or `"f16"`.
    pub fn precision(&self) -> &'static str {
        match self.rows {
            BucketRows::F32(_) => "f32",
            BucketRows::F16(_) => "f16",
        }
    }

    /// The bytes the rows take.
    pub fn bytes(&self) -> usize {
        match &self.rows {
            BucketRows::F32(rows) => rows.len() * 4,
            BucketRows::F16(rows) => rows.len() * 2,
        }
    }

    /// The bucket row `b`, in `f32`.
    fn row(&self, b: usize) -> Cow<'_, [f32]> {
        let range = b * self.dim..(b + 1) * self.dim;
        match &self.rows {
            BucketRows::F32(rows) => Cow::Borrowed(&rows[range]),
            BucketRows::F16(bits) => {
                Cow::Owned(bits[range].iter().map(|&h| half::f16::from_bits(h).to_f32()).collect())
            }
        }
    }

    /// The vector of a word the vocabulary lacks: the average of its n-grams' rows, or
    /// `None` when it has no n-gram (a model trained without them, or `maxn` shorter than
    /// any of its n-grams).
    pub fn vector(&self, word: &str) -> Option<Vec<f32>> {
        let mut buckets = Vec::new();
        ngram_buckets(word.as_bytes(), self.minn, self.maxn, self.bucket, &mut buckets);
        if buckets.is_empty() {
            return None;
        }
        let mut sum = vec![0.0f32; self.dim];
        for &b in &buckets {
            linalg::axpy(1.0, &self.row(b as usize), &mut sum);
        }
        let scale = 1.0 / buckets.len() as f32;
        sum.iter_mut().for_each(|x| *x *= scale);
        Some(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_reads_bytes_as_signed_chars() {
        // Plain FNV-1a of "a" is 0xe40c292c; ASCII is unaffected by the sign.
        assert_eq!(fasttext_hash(b"a"), 0xe40c_292c);
        // 0xC3 sign-extends to 0xFFFFFFC3: plain FNV-1a would XOR only 0xC3.
        let plain = (2_166_136_261u32 ^ 0xC3).wrapping_mul(16_777_619);
        let signed = (2_166_136_261u32 ^ 0xFFFF_FFC3).wrapping_mul(16_777_619);
        assert_ne!(plain, signed);
        assert_eq!(fasttext_hash(&[0xC3]), signed);
    }

    fn grams(word: &str, minn: usize, maxn: usize) -> Vec<String> {
        // The n-grams themselves, by hashing each candidate into a bucket space so large
        // that its hash is its bucket, and matching back.
        let mut padded = format!("<{word}>");
        let mut all = Vec::new();
        let chars: Vec<(usize, char)> = padded.char_indices().collect();
        for (s, _) in chars.iter().enumerate() {
            for e in s + 1..=chars.len() {
                let start = chars[s].0;
                let end = chars.get(e).map_or(padded.len(), |c| c.0);
                all.push(padded[start..end].to_string());
            }
        }
        let mut buckets = Vec::new();
        ngram_buckets(word.as_bytes(), minn, maxn, u32::MAX, &mut buckets);
        padded.clear();
        buckets
            .iter()
            .map(|&b| all.iter().find(|g| fasttext_hash(g.as_bytes()) % u32::MAX == b).unwrap().clone())
            .collect()
    }

    #[test]
    fn ngrams_are_cut_as_fasttext_cuts_them() {
        assert_eq!(grams("ab", 1, 2), ["<a", "a", "ab", "b", "b>"]);
        assert_eq!(grams("ab", 3, 6), ["<ab", "<ab>", "ab>"]);
        // Characters, not bytes: "é" is one character of two bytes.
        assert_eq!(grams("é", 1, 3), ["<é", "<é>", "é", "é>"]);
    }

    #[test]
    fn no_ngrams_without_maxn_or_buckets() {
        let mut out = vec![7];
        ngram_buckets(b"word", 3, 0, 100, &mut out);
        assert!(out.is_empty());
        ngram_buckets(b"word", 3, 6, 0, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn an_unknown_word_is_the_average_of_its_ngram_rows_counted_each_time() {
        let bucket = 5u32;
        let rows: Vec<f32> = (0..bucket as usize * 2).map(|i| i as f32).collect();
        let sub = Subwords::new(3, 3, bucket, 2, rows.clone());
        let mut buckets = Vec::new();
        ngram_buckets(b"abab", 3, 3, bucket, &mut buckets);
        assert_eq!(buckets.len(), 4); // <ab aba bab ab>
        let mut expected = [0.0f32; 2];
        for &b in &buckets {
            expected[0] += rows[b as usize * 2];
            expected[1] += rows[b as usize * 2 + 1];
        }
        let got = sub.vector("abab").unwrap();
        assert_eq!(got, vec![expected[0] / 4.0, expected[1] / 4.0]);
        let half = Subwords::from_f16(
            3,
            3,
            bucket,
            2,
            rows.iter().map(|&x| half::f16::from_f32(x).to_bits()).collect(),
        );
        assert_eq!(half.vector("abab").unwrap(), got);
        assert_eq!(Subwords::new(7, 9, bucket, 2, rows).vector("ab"), None);
    }
}
