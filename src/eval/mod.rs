//! Benchmarks for embeddings: analogy questions (`analogy.rs`) and word-pair similarity
//! (`similarity.rs`).
//!
//! # Against gensim
//!
//! Both readers skip lines starting with `#`, as gensim does, so the copies of WordSim-353 and
//! SimLex-999 in gensim's test data read as they are. With [`AnalogyOptions::gensim`] and
//! [`SimilarityOptions::gensim`] the figures are those of gensim 4's
//! `KeyedVectors.evaluate_word_analogies` and `evaluate_word_pairs` with their defaults
//! (`tests/gensim_eval.py` checks them to 0.001 on the same vectors). Our own defaults are
//! case-sensitive, and restrict analogies to 30,000 words (`compute-accuracy`'s threshold)
//! and pairs to none; gensim's are `case_insensitive=True` and `restrict_vocab=300000` for
//! both. Words out of vocabulary are left out and counted (coverage, OOV ratio), as with
//! gensim's `dummy4unknown=False`; its `dummy4unknown=True`, which counts such a question
//! wrong and scores such a pair 0, is not offered.
//!
//! Where a file is not what it should be, gensim skips the line (one that is not four words,
//! or not three tab-separated fields ending in a number) and these readers refuse it, naming
//! the line; gensim reads only tabs in a pair file and refuses questions before the first
//! section. gensim raises an error when no pair is found, where the report has no
//! correlation. Ignoring case, gensim compares upper-case forms rather than lower-case ones,
//! and skips other forms of the query words among its top five answers only, where the
//! evaluator here skips them all.

mod analogy;
mod similarity;

pub use analogy::{
    AnalogyEvaluator, AnalogyOptions, AnalogyQuestion, AnalogyReport, AnalogySet, AnsweredQuestion,
    EvalProgress, NO_SECTION, SectionScore, evaluate_analogies,
};
pub use similarity::{
    PairDisagreement, SimilarityOptions, SimilarityPair, SimilarityReport, SimilaritySet, evaluate_similarity,
};

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::vectors::Embeddings;

/// gensim's `restrict_vocab` default in `evaluate_word_analogies` and `evaluate_word_pairs`.
pub const GENSIM_RESTRICT: usize = 300_000;

/// The canonical form of a candidate that stands for no benchmark word (a language model's
/// token that is not a whole word), which the scans skip.
const EXCLUDED: usize = usize::MAX;

/// How benchmark words find their vectors: among the `n_candidates` most frequent words,
/// exactly or ignoring case.
#[derive(Debug, Clone)]
struct Lookup {
    n_candidates: usize,
    /// Present when ignoring case.
    folding: Option<CaseFolding>,
}

/// The candidates grouped by the form benchmarks look them up by (lowercase when ignoring
/// case; a spaced token without its space); a group is named by its most frequent form.
#[derive(Debug, Clone)]
struct CaseFolding {
    /// Looked-up form → its most frequent candidate.
    by_key: HashMap<String, usize>,
    ignore_case: bool,
    /// Candidate → the most frequent candidate with its form, or [`EXCLUDED`].
    canonical: Vec<usize>,
    /// Candidate → the next less frequent candidate with its lowercase form.
    next_form: Vec<Option<usize>>,
}

impl Lookup {
    fn new(emb: &Embeddings, restrict: Option<usize>, ignore_case: bool) -> Result<Lookup> {
        if restrict == Some(0) {
            return Err(Error::InvalidParameter {
                name: "restrict",
                value: "0".into(),
                expected: "at least 1, or none for the whole vocabulary".into(),
            });
        }
        let n_candidates = emb.candidates(restrict);
        let spaced = emb.spaced_tokens();
        // A language model's tokens stand for whole words only when spaced (" king" for
        // "king"); its other tokens (pieces of words, "king" at a text's start) are no answers.
        let key = |word: &str| -> Option<String> {
            let word = match spaced {
                true => {
                    word.strip_prefix(' ').filter(|w| !w.is_empty() && !w.contains(char::is_whitespace))?
                }
                false => word,
            };
            Some(if ignore_case { word.to_lowercase() } else { word.to_string() })
        };
        let folding = (ignore_case || spaced).then(|| {
            let mut by_key: HashMap<String, usize> = HashMap::with_capacity(n_candidates);
            let mut canonical = Vec::with_capacity(n_candidates);
            let mut next_form = vec![None; n_candidates];
            // The last form seen of each group, indexed by the group's most frequent form.
            let mut last_form: Vec<usize> = (0..n_candidates).collect();
            for idx in 0..n_candidates {
                let Some(key) = key(emb.word(idx)) else {
                    canonical.push(EXCLUDED);
                    continue;
                };
                let first = *by_key.entry(key).or_insert(idx);
                canonical.push(first);
                if first != idx {
                    next_form[last_form[first]] = Some(idx);
                    last_form[first] = idx;
                }
            }
            CaseFolding { by_key, canonical, next_form, ignore_case }
        });
        Ok(Lookup { n_candidates, folding })
    }

    /// The candidate standing for `word`: itself, or ignoring case the most frequent
    /// candidate with its lowercase form; for spaced tokens, the token of `word` after a space.
    fn find(&self, emb: &Embeddings, word: &str) -> Option<usize> {
        match &self.folding {
            None => emb.index_of(word).filter(|&idx| idx < self.n_candidates),
            Some(f) if f.ignore_case => f.by_key.get(&word.to_lowercase()).copied(),
            Some(f) => f.by_key.get(word).copied(),
        }
    }

    /// The most frequent form of candidate `idx`: `idx` itself unless ignoring case.
    #[inline]
    fn canonical(&self, idx: usize) -> usize {
        self.folding.as_ref().map_or(idx, |folding| folding.canonical[idx])
    }

    /// Every form of the most frequent form `first`, most frequent first.
    fn forms(&self, first: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(first), |&idx| self.folding.as_ref().and_then(|f| f.next_form[idx]))
    }
}

fn malformed(line: usize, message: String) -> Error {
    Error::BenchmarkFormat { line, message }
}

/// The lines of a benchmark file that hold something, trimmed, with their 1-based numbers:
/// without a leading byte-order mark (some editors write one), blank lines and comments.
///
/// A comment is a line whose first non-blank character is `#`. gensim's `evaluate_word_pairs`
/// skips such lines, and the copies of WordSim-353 and SimLex-999 in its test data open with
/// them (`# Word 1<TAB>Word 2<TAB>Human (mean)`); its `evaluate_word_analogies` skips every
/// line that is not four words, comments among them.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .enumerate()
        .map(|(line_idx, line)| (line_idx + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    use super::*;

    pub(super) fn assert_close(actual: f64, expected: f64) {
        assert!((actual - expected).abs() < 1e-9, "{actual} != {expected}");
    }

    /// a is orthogonal to every candidate; x equals b; y leans towards both b and c.
    /// 3CosAdd: x = 1 beats y = 4/sqrt(17) ≈ 0.970.
    /// 3CosMul: y = 0.7425² / 0.501 ≈ 1.100 beats x = 0.5 / 0.501 ≈ 0.998.
    pub(super) fn disagreeing() -> Embeddings {
        Embeddings::from_rows(&[
            ("a", &[0.0, 0.0, 1.0, 0.0]),
            ("b", &[1.0, 0.0, 0.0, 0.0]),
            ("c", &[0.0, 1.0, 0.0, 0.0]),
            ("x", &[2.0, 0.0, 0.0, 0.0]),
            ("y", &[2.0, 2.0, 0.0, 3.0]),
        ])
    }

    pub(super) fn check<T: std::fmt::Debug>(parsed: Result<T>, expected: (usize, &str)) {
        match parsed {
            Err(Error::BenchmarkFormat { line, message }) => assert_eq!((line, message.as_str()), expected),
            other => panic!("expected {expected:?}, got {other:?}"),
        }
    }

    pub(super) const DISAGREEING: &str = "\
: add-wins
a b c x

: mul-wins
a b c y
a b c unicorn
";

    #[test]
    fn random_and_mutated_benchmark_files_never_panic() {
        #[rustfmt::skip]
        const INTERESTING: &[&str] = &[
            "\n", "\t", " ", ":", ": ", "#", "\n#", "\r\n", "\u{feff}", "NaN", "inf", "-1e400", "1e308", "A", "É", "ß", "İ",
            "score", "SimLex999", "x", "y", "unicorn",
        ];
        let similarity = "word1\tword2\tPOS\tSimLex999\na\tb\tN\t1.5\nb\tc\tN\t2\nx\ty\tA\t3\nA\tY\tN\t1\n";
        let emb = disagreeing();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(43);
        let (mut analogy_sets, mut similarity_sets) = (0, 0);
        for case in 0..3_000 {
            let document = if case % 2 == 0 { DISAGREEING } else { similarity };
            let text = crate::fuzz::random_or_mutated(&mut rng, document, INTERESTING);
            let restrict = [None, Some(1), Some(3), Some(100)][case % 4];
            let ignore_case = case % 5 < 2;
            match AnalogySet::parse(&text) {
                Ok(set) => {
                    analogy_sets += 1;
                    let options = AnalogyOptions { restrict, ignore_case, ..AnalogyOptions::default() };
                    let report = evaluate_analogies(&emb, &set, options).unwrap();
                    assert_eq!(report.sections.iter().map(|s| s.questions).sum::<usize>(), set.n_questions());
                }
                Err(err) => assert!(matches!(err, Error::BenchmarkFormat { .. }), "{err:?}"),
            }
            match SimilaritySet::parse(&text) {
                Ok(set) => {
                    similarity_sets += 1;
                    let options = SimilarityOptions { restrict, ignore_case, ..SimilarityOptions::default() };
                    let report = evaluate_similarity(&emb, &set, options).unwrap();
                    assert!((0.0..=1.0).contains(&report.oov_ratio()));
                }
                Err(err) => assert!(matches!(err, Error::BenchmarkFormat { .. }), "{err:?}"),
            }
        }
        assert!(analogy_sets > 300 && similarity_sets > 150, "{analogy_sets} and {similarity_sets} parsed");
    }
}
