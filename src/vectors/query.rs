//! Queries on [`Embeddings`]: nearest neighbours, word similarity and analogies.
//!
//! Every score is a cosine similarity computed from the unit-normalised vectors, so a
//! word's raw length (which grows with its frequency in SGNS) never decides a ranking.
//! Analogies follow Levy & Goldberg (2014), "Linguistic Regularities in Sparse and Explicit
//! Word Representations", which defines 3CosAdd and 3CosMul.
//!
//! Like finalfusion's query traits, the query words themselves are never answers, and an
//! unknown input is reported as [`Error::UnknownWords`] listing every missing word.
//!
//! **Architecture Invariant:** top-k selection keeps a bounded heap of `k` candidates
//! instead of sorting the vocabulary, and ties are broken by the lower word index (the more
//! frequent word), so every query is deterministic.
//!
//! **Architecture Invariant:** an analogy score is always computed the same way, by
//! [`AnalogyMethod::score`] from the three dot products `dot(d, a)`, `dot(d, b)`, `dot(d, c)`
//! of unit vectors in that operand order, and compared through [`Candidate`]. The benchmark
//! in `eval/analogy.rs` relies on it: its answer to a question is, to the bit, what
//! [`Embeddings::analogy`] answers.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::Embeddings;
use crate::error::{Error, Result, UnknownWord};
use crate::linalg;

/// One answer of a query: a word, its index and its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Neighbour {
    /// The word.
    pub word: String,
    /// The word's index in [`Embeddings::words`].
    pub word_idx: usize,
    /// The score: a cosine similarity, or the analogy method's objective.
    pub similarity: f32,
}

/// How [`Embeddings::analogy`] scores a candidate `d` for "a is to b as c is to d"
/// (Levy & Goldberg 2014).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnalogyMethod {
    /// 3CosAdd: `argmax_d cos(d, b) − cos(d, a) + cos(d, c)`, the vector-offset method of
    /// Mikolov et al. (2013); one large similarity can dominate the sum.
    CosAdd,
    /// 3CosMul: `argmax_d cos'(d, b) · cos'(d, c) / (cos'(d, a) + ε)` with
    /// `cos' = (cos + 1) / 2` (shifted into `[0, 1]`) and `ε = 0.001`; it rewards a candidate
    /// that is close to both `b` and `c` over one that is very close to either alone.
    CosMul,
}

/// The ε of 3CosMul, which keeps the quotient finite when `cos'(d, a)` is 0.
const COS_MUL_EPSILON: f32 = 0.001;

impl AnalogyMethod {
    /// The score of a candidate `d` from its cosines `[cos(d, a), cos(d, b), cos(d, c)]`.
    ///
    /// Both the query ([`Embeddings::analogy`]) and the benchmark (`eval/analogy.rs`) score through
    /// here, so they agree to the bit.
    #[inline]
    pub(crate) fn score(self, [cos_a, cos_b, cos_c]: [f32; 3]) -> f32 {
        match self {
            AnalogyMethod::CosAdd => cos_b - cos_a + cos_c,
            AnalogyMethod::CosMul => {
                let shifted = |cos: f32| (cos + 1.0) / 2.0;
                shifted(cos_b) * shifted(cos_c) / (shifted(cos_a) + COS_MUL_EPSILON)
            }
        }
    }
}

impl Embeddings {
    /// The `k` words most similar by cosine to `word`, best first, `word` itself excluded.
    ///
    /// With `restrict = Some(n)` only the `n` most frequent words (indices `0..n`) are
    /// candidates; `n` larger than the vocabulary means all words. Fails with
    /// [`Error::InvalidParameter`] when `k` is 0, [`Error::UnknownWords`] when `word` is
    /// not in the vocabulary, and [`Error::NoDirection`] when its vector is all zeros (every
    /// word would score 0, and the answer would be the first words in index order). Fewer
    /// than `k` answers come back when there are fewer candidates.
    pub fn neighbours(&self, word: &str, k: usize, restrict: Option<usize>) -> Result<Vec<Neighbour>> {
        check_k(k)?;
        let [(word_idx, unit)] = self.try_queries([word])?;
        if unit.iter().all(|&x| x == 0.0) {
            return Err(Error::NoDirection { word: word.to_string() });
        }
        Ok(self.nearest_to_unit(&unit, k, restrict, word_idx.as_slice()))
    }

    /// The `k` words most similar by cosine to the vector `v`, best first, skipping the
    /// indices in `exclude`. `restrict` works as in [`Embeddings::neighbours`].
    ///
    /// `k == 0` gives an empty answer. A zero `v` scores every word 0, so the answer is the
    /// first `k` candidates in index order.
    ///
    /// **Unchecked precondition:** `v.len() == self.dim()` (checked only in debug builds).
    pub fn nearest_to_vector(
        &self,
        v: &[f32],
        k: usize,
        restrict: Option<usize>,
        exclude: &[usize],
    ) -> Vec<Neighbour> {
        let mut query = v.to_vec();
        linalg::normalize(&mut query);
        self.nearest_to_unit(&query, k, restrict, exclude)
    }

    /// [`Embeddings::nearest_to_vector`] for a vector that is already unit length.
    ///
    /// A stored unit vector is used as it is: normalising it again could move its last bits
    /// and turn exact ties (parallel vectors) into near-ties.
    fn nearest_to_unit(
        &self,
        unit: &[f32],
        k: usize,
        restrict: Option<usize>,
        exclude: &[usize],
    ) -> Vec<Neighbour> {
        let mut top = TopK::new(k, self.candidates(restrict));
        self.scan(restrict, |idx, ud| {
            if !exclude.contains(&idx) {
                top.offer(Candidate { score: linalg::dot(unit, ud), idx });
            }
        });
        self.to_neighbours(top.into_best())
    }

    /// The cosine similarity of `a` and `b`; 0 when either vector is zero.
    ///
    /// Fails with [`Error::UnknownWords`] listing each of `a` and `b` that is missing.
    pub fn similarity(&self, a: &str, b: &str) -> Result<f32> {
        let [(_, a), (_, b)] = self.try_queries([a, b])?;
        Ok(linalg::dot(&a, &b))
    }

    /// Answers "`a` is to `b` as `c` is to ?" with the `k` best words, best first.
    ///
    /// With `cos` the cosine similarity of unit vectors, a candidate `d` scores
    ///
    /// * [`AnalogyMethod::CosAdd`]: `cos(d, b) − cos(d, a) + cos(d, c)`;
    /// * [`AnalogyMethod::CosMul`]: `cos'(d, b) · cos'(d, c) / (cos'(d, a) + 0.001)`,
    ///   where `cos'(x, y) = (cos(x, y) + 1) / 2`.
    ///
    /// The reported [`Neighbour::similarity`] is that score. The three query words are never
    /// answers (Levy & Goldberg 2014 exclude them too; otherwise `b` or `c` usually wins).
    /// `restrict` limits candidates to the most frequent words as in [`Embeddings::neighbours`].
    ///
    /// Fails with [`Error::InvalidParameter`] when `k` is 0 and with [`Error::UnknownWords`]
    /// listing every missing input in the order `a`, `b`, `c` (a word given twice is listed once).
    pub fn analogy(
        &self,
        a: &str,
        b: &str,
        c: &str,
        k: usize,
        method: AnalogyMethod,
        restrict: Option<usize>,
    ) -> Result<Vec<Neighbour>> {
        check_k(k)?;
        let found = self.try_queries([a, b, c])?;
        let exclude: Vec<usize> = found.iter().filter_map(|(idx, _)| *idx).collect();
        let queries = found.map(|(_, unit)| unit);
        let mut top = TopK::new(k, self.candidates(restrict));
        self.scan(restrict, |idx, ud| {
            if !exclude.contains(&idx) {
                let score = method.score(queries.each_ref().map(|u| linalg::dot(ud, u)));
                top.offer(Candidate { score, idx });
            }
        });
        Ok(self.to_neighbours(top.into_best()))
    }

    /// The number of candidate words under `restrict`.
    pub(crate) fn candidates(&self, restrict: Option<usize>) -> usize {
        restrict.map_or(self.len(), |n| n.min(self.len()))
    }

    /// Calls `visit(word_idx, unit_vector)` for each candidate under `restrict`, in index order.
    fn scan(&self, restrict: Option<usize>, mut visit: impl FnMut(usize, &[f32])) {
        let dim = self.dim();
        self.unit_blocks(self.candidates(restrict), |start, rows| {
            for (i, row) in rows.chunks_exact(dim).enumerate() {
                visit(start + i, row);
            }
        });
    }

    /// The unit vector of each of `words` with its index, or, for a word the vocabulary lacks,
    /// the unit vector its character n-grams build ([`Embeddings::built_vector`]) and no
    /// index; or an error naming each word that has neither once, in input order, with the
    /// nearest spellings of it.
    pub(crate) fn try_queries<const N: usize>(&self, words: [&str; N]) -> Result<[QueryVector<'_>; N]> {
        let mut missing: Vec<UnknownWord> = Vec::new();
        let mut found: Vec<QueryVector<'_>> = Vec::with_capacity(N);
        for word in words {
            if let Some(idx) = self.index_of(word) {
                found.push((Some(idx), self.unit_vector(idx)));
            } else if let Some(mut built) = self.built_vector(word) {
                linalg::normalize(&mut built);
                found.push((None, Cow::Owned(built)));
            } else if !missing.iter().any(|m| m.word == word) {
                missing.push(self.unknown(word));
            }
        }
        if !missing.is_empty() {
            return Err(Error::UnknownWords(missing));
        }
        let mut found = found.into_iter();
        Ok(std::array::from_fn(|_| found.next().expect("one a word")))
    }

    /// The indices of `words`, or an error naming each missing word once, in input order,
    /// with the nearest spellings of it.
    pub(crate) fn try_indices_of(&self, words: &[&str]) -> Result<Vec<usize>> {
        let mut indices = Vec::with_capacity(words.len());
        let mut missing: Vec<UnknownWord> = Vec::new();
        for &word in words {
            match self.index_of(word) {
                Some(idx) => indices.push(idx),
                None if missing.iter().any(|m| m.word == word) => {}
                None => missing.push(self.unknown(word)),
            }
        }
        if missing.is_empty() { Ok(indices) } else { Err(Error::UnknownWords(missing)) }
    }

    fn to_neighbours(&self, top: Vec<Candidate>) -> Vec<Neighbour> {
        top.into_iter()
            .map(|c| Neighbour { word: self.word(c.idx).to_string(), word_idx: c.idx, similarity: c.score })
            .collect()
    }
}

/// A query word's index, when it is a row (and so never its own answer), and its unit vector.
pub(crate) type QueryVector<'a> = (Option<usize>, Cow<'a, [f32]>);

fn check_k(k: usize) -> Result<()> {
    if k == 0 {
        return Err(Error::InvalidParameter { name: "k", value: "0".into(), expected: "at least 1".into() });
    }
    Ok(())
}

/// A scored word in the top-k heap, and the benchmark's "is this answer better" test.
///
/// Its order puts the *worse* candidate first as the greater one (lower score, then higher
/// index), so the max-heap's top is the candidate to evict next, and `x < y` reads "x beats y".
#[derive(Debug, Clone, Copy)]
pub(crate) struct Candidate {
    pub(crate) score: f32,
    pub(crate) idx: usize,
}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        other.score.total_cmp(&self.score).then(self.idx.cmp(&other.idx))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Candidate {}

/// The `k` best candidates offered, in a bounded heap: O(n log k) rather than a full sort.
/// Offered in index order, and evicting only for a strictly better candidate, it keeps the
/// lower index on ties.
struct TopK {
    k: usize,
    heap: BinaryHeap<Candidate>,
}

impl TopK {
    /// Room for the `k` best of up to `n` candidates.
    fn new(k: usize, n: usize) -> TopK {
        TopK { k, heap: BinaryHeap::with_capacity(k.min(n) + 1) }
    }

    #[inline]
    fn offer(&mut self, candidate: Candidate) {
        if self.heap.len() < self.k {
            self.heap.push(candidate);
        } else if let Some(mut worst) = self.heap.peek_mut()
            && candidate < *worst
        {
            *worst = candidate;
        }
    }

    /// The candidates kept, best first.
    fn into_best(self) -> Vec<Candidate> {
        // Ascending in this order is best first.
        self.heap.into_sorted_vec()
    }
}

#[cfg(test)]
mod tests {
    use std::f32::consts::FRAC_1_SQRT_2;

    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, SeedableRng};

    use super::*;

    fn words(answer: &[Neighbour]) -> Vec<&str> {
        answer.iter().map(|n| n.word.as_str()).collect()
    }

    fn assert_close(actual: f32, expected: f32) {
        assert!((actual - expected).abs() < 1e-6, "{actual} != {expected}");
    }

    /// Royalty, male and female are orthogonal directions; each word is a sum of them.
    /// Raw lengths differ on purpose: only directions may matter.
    fn royals() -> Embeddings {
        Embeddings::from_rows(&[
            ("man", &[0.0, 2.0, 0.0]),
            ("woman", &[0.0, 0.0, 1.0]),
            ("king", &[3.0, 3.0, 0.0]),
            ("queen", &[1.0, 0.0, 1.0]),
            ("crown", &[5.0, 0.0, 0.0]),
            ("girl", &[0.0, -0.5, 1.0]),
        ])
    }

    #[test]
    fn neighbours_rank_by_cosine_and_skip_the_query_word() {
        let e = royals();
        let answer = e.neighbours("king", 3, None).unwrap();
        assert_eq!(words(&answer), ["man", "crown", "queen"]);
        // man and crown tie at 1/sqrt(2); the lower index (more frequent word) comes first.
        assert_eq!(answer[0].word_idx, 0);
        assert_close(answer[0].similarity, FRAC_1_SQRT_2);
        assert_close(answer[1].similarity, FRAC_1_SQRT_2);
        assert_close(answer[2].similarity, 0.5);
        assert!(answer.iter().all(|n| n.word != "king"));
    }

    #[test]
    fn a_vector_of_zeros_has_no_neighbours_and_says_why() {
        // It listed the first words in index order, each at 0.000.
        let e = Embeddings::from_rows(&[("man", &[0.0, 2.0]), ("nil", &[0.0, -0.0]), ("king", &[3.0, 3.0])]);
        let err = e.neighbours("nil", 2, None).unwrap_err();
        assert_eq!(err, Error::NoDirection { word: "nil".into() });
        assert!(err.to_string().contains("'nil' is all zeros"), "{err}");
        // Another word's neighbours still list it, last, at 0.
        let answer = e.neighbours("man", 2, None).unwrap();
        assert_eq!((words(&answer), answer[1].similarity), (vec!["king", "nil"], 0.0));
    }

    #[test]
    fn neighbours_return_everything_when_k_exceeds_the_candidates() {
        let e = royals();
        let answer = e.neighbours("man", 100, None).unwrap();
        assert_eq!(answer.len(), 5);
        let scores: Vec<f32> = answer.iter().map(|n| n.similarity).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    }

    #[test]
    fn restriction_keeps_only_the_most_frequent_words() {
        let e = royals();
        // Table: (restrict, expected answer for the neighbours of "queen").
        let cases: &[(Option<usize>, &[&str])] = &[
            (Some(0), &[]),
            (Some(1), &["man"]),
            (Some(3), &["woman", "king", "man"]),
            (Some(5), &["woman", "crown", "king", "man"]),
            (Some(99), &["woman", "crown", "girl", "king", "man"]),
            (None, &["woman", "crown", "girl", "king", "man"]),
        ];
        for (restrict, expected) in cases {
            let answer = e.neighbours("queen", 10, *restrict).unwrap();
            assert_eq!(words(&answer), *expected, "restrict = {restrict:?}");
        }
    }

    #[test]
    fn ties_go_to_the_lower_index_at_every_cut() {
        let e = Embeddings::from_rows(&[
            ("q", &[1.0, 0.0]),
            ("a", &[0.0, 1.0]),
            ("b", &[2.0, 0.0]),
            ("c", &[0.0, 3.0]),
            ("d", &[4.0, 0.0]),
        ]);
        let cases: &[(usize, &[&str])] =
            &[(1, &["b"]), (2, &["b", "d"]), (3, &["b", "d", "a"]), (4, &["b", "d", "a", "c"])];
        for (k, expected) in cases {
            assert_eq!(words(&e.neighbours("q", *k, None).unwrap()), *expected, "k = {k}");
        }
    }

    #[test]
    fn nearest_to_vector_honours_exclusion_and_zero_k() {
        let e = royals();
        let answer = e.nearest_to_vector(&[1.0, 0.0, 0.0], 2, None, &[4]);
        assert_eq!(words(&answer), ["king", "queen"]);
        assert!(e.nearest_to_vector(&[1.0, 0.0, 0.0], 0, None, &[]).is_empty());
        // A zero query scores every word 0, so index order decides.
        assert_eq!(words(&e.nearest_to_vector(&[0.0; 3], 2, None, &[0])), ["woman", "king"]);
    }

    #[test]
    fn bounded_heap_agrees_with_a_full_sort() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let (n, dim) = (300, 5);
        let words: Vec<String> = (0..n).map(|i| format!("w{i}")).collect();
        // Values from a small grid, so equal scores (ties) actually occur.
        let vectors: Vec<f32> = (0..n * dim).map(|_| (rng.next_u32() % 5) as f32 - 2.0).collect();
        let e = Embeddings::new(words, dim, vectors).unwrap();
        for query in 0..20 {
            let mut all: Vec<(f32, usize)> = (0..n)
                .filter(|&i| i != query)
                .map(|i| (linalg::dot(&e.unit_vector(query), &e.unit_vector(i)), i))
                .collect();
            all.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
            for k in [1, 7, 50] {
                let answer = e.neighbours(&format!("w{query}"), k, None).unwrap();
                let got: Vec<usize> = answer.iter().map(|n| n.word_idx).collect();
                let want: Vec<usize> = all[..k].iter().map(|&(_, i)| i).collect();
                assert_eq!(got, want, "query {query}, k = {k}");
            }
        }
    }

    #[test]
    fn similarity_is_the_cosine() {
        let e = royals();
        assert_close(e.similarity("king", "queen").unwrap(), 0.5);
        assert_close(e.similarity("man", "woman").unwrap(), 0.0);
        assert_close(e.similarity("queen", "queen").unwrap(), 1.0);
    }

    #[test]
    fn unknown_words_are_all_listed_in_input_order() {
        let e = royals();
        // No word of the vocabulary is spelled near x, y or z.
        let unknown = |ws: &[&str]| {
            Error::UnknownWords(
                ws.iter().map(|w| UnknownWord { word: w.to_string(), suggestions: vec![] }).collect(),
            )
        };
        assert_eq!(e.similarity("x", "king"), Err(unknown(&["x"])));
        assert_eq!(e.similarity("x", "y"), Err(unknown(&["x", "y"])));
        assert_eq!(e.neighbours("x", 1, None), Err(unknown(&["x"])));
        let analogy = |a, b, c| e.analogy(a, b, c, 1, AnalogyMethod::CosAdd, None);
        assert_eq!(analogy("x", "king", "z"), Err(unknown(&["x", "z"])));
        assert_eq!(analogy("man", "y", "z"), Err(unknown(&["y", "z"])));
        assert_eq!(analogy("x", "y", "z"), Err(unknown(&["x", "y", "z"])));
        assert_eq!(analogy("x", "king", "x"), Err(unknown(&["x"])));
    }

    #[test]
    fn unknown_words_come_with_the_nearest_spellings() {
        let e = royals();
        let unknown = |word: &str, suggestions: &[&str]| UnknownWord {
            word: word.to_string(),
            suggestions: suggestions.iter().map(|s| s.to_string()).collect(),
        };
        assert_eq!(e.neighbours("Kign", 1, None), Err(Error::UnknownWords(vec![unknown("Kign", &["king"])])));
        assert_eq!(
            e.analogy("MAN", "qeen", "yeti", 1, AnalogyMethod::CosAdd, None),
            Err(Error::UnknownWords(vec![
                unknown("MAN", &["man"]),
                unknown("qeen", &["queen"]),
                unknown("yeti", &[])
            ]))
        );
    }

    #[test]
    fn zero_k_is_rejected() {
        let e = royals();
        assert!(matches!(e.neighbours("king", 0, None), Err(Error::InvalidParameter { name: "k", .. })));
        assert!(matches!(
            e.analogy("man", "woman", "king", 0, AnalogyMethod::CosMul, None),
            Err(Error::InvalidParameter { name: "k", .. })
        ));
    }

    #[test]
    fn man_is_to_woman_as_king_is_to_queen() {
        let e = royals();
        // queen: cos(queen, woman) = 1/sqrt(2), cos(queen, man) = 0, cos(queen, king) = 1/2.
        let cos_add = FRAC_1_SQRT_2 - 0.0 + 0.5;
        let cos_mul = ((FRAC_1_SQRT_2 + 1.0) / 2.0) * 0.75 / (0.5 + 0.001);
        for (method, score) in [(AnalogyMethod::CosAdd, cos_add), (AnalogyMethod::CosMul, cos_mul)] {
            let answer = e.analogy("man", "woman", "king", 3, method, None).unwrap();
            // girl scores 3/sqrt(5) − 1/sqrt(10) ≈ 1.025 by 3CosAdd, crown 1/sqrt(2) ≈ 0.707.
            assert_eq!(words(&answer), ["queen", "girl", "crown"], "{method:?}");
            assert_close(answer[0].similarity, score);
        }
        // Table: (restrict, answer); the prefix 0..3 holds only the query words.
        let cases: &[(Option<usize>, &[&str])] =
            &[(Some(3), &[]), (Some(4), &["queen"]), (Some(5), &["queen", "crown"])];
        for (restrict, expected) in cases {
            let answer = e.analogy("man", "woman", "king", 3, AnalogyMethod::CosAdd, *restrict).unwrap();
            assert_eq!(words(&answer), *expected, "restrict = {restrict:?}");
        }
    }

    #[test]
    fn cos_add_and_cos_mul_disagree_when_one_similarity_dominates() {
        // a is orthogonal to every candidate, so cos(d, a) = 0 and cos'(d, a) = 1/2 throughout.
        // x equals b: cos(x, b) = 1, cos(x, c) = 0.
        // y leans towards both: cos(y, b) = cos(y, c) = 2/sqrt(17) ≈ 0.485.
        // 3CosAdd:  x = 1 + 0 = 1             beats  y = 4/sqrt(17) ≈ 0.970.
        // 3CosMul:  x = 1 · 0.5 / 0.501 ≈ 0.998  loses to  y = 0.7425² / 0.501 ≈ 1.100.
        let e = Embeddings::from_rows(&[
            ("a", &[0.0, 0.0, 1.0, 0.0]),
            ("b", &[1.0, 0.0, 0.0, 0.0]),
            ("c", &[0.0, 1.0, 0.0, 0.0]),
            ("x", &[2.0, 0.0, 0.0, 0.0]),
            ("y", &[2.0, 2.0, 0.0, 3.0]),
        ]);
        let u = 2.0 / 17f32.sqrt();
        let add = e.analogy("a", "b", "c", 2, AnalogyMethod::CosAdd, None).unwrap();
        assert_eq!(words(&add), ["x", "y"]);
        assert_close(add[0].similarity, 1.0);
        assert_close(add[1].similarity, 2.0 * u);
        let mul = e.analogy("a", "b", "c", 2, AnalogyMethod::CosMul, None).unwrap();
        assert_eq!(words(&mul), ["y", "x"]);
        assert_close(mul[0].similarity, ((u + 1.0) / 2.0).powi(2) / 0.501);
        assert_close(mul[1].similarity, 0.5 / 0.501);
    }
}
