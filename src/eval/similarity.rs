//! The word-pair similarity benchmark.
//!
//! WordSim-353 (Finkelstein et al. 2002) and SimLex-999 (Hill et al. 2015) list word pairs with
//! a human score. The model's score of a pair is the cosine of its two words; agreement is
//! Spearman's rank correlation (tied values get the average of their ranks) and Pearson's
//! correlation, both over the pairs whose two words are known.

use std::collections::HashSet;

use super::{GENSIM_RESTRICT, Lookup, content_lines, malformed};
use crate::error::Result;
use crate::linalg;
use crate::vectors::Embeddings;

/// One pair of a similarity benchmark with its human score.
#[derive(Debug, Clone, PartialEq)]
pub struct SimilarityPair {
    /// The two words as the file gives them.
    pub words: [String; 2],
    /// The human score (any scale; only its order and linear trend matter).
    pub score: f64,
    /// Its 1-based line in the benchmark file.
    pub line: usize,
}

/// Word pairs with human scores, read from a WordSim-353 or SimLex-999 style file.
///
/// Holds at least one pair; [`SimilaritySet::parse`] checks it.
#[derive(Debug, Clone, PartialEq)]
pub struct SimilaritySet {
    pairs: Vec<SimilarityPair>,
    score_column: usize,
    score_name: Option<String>,
}

/// What a header column holding the score is called, most telling first: SimLex-999's
/// `SimLex999` (before its `SimAssoc333`), `score`, WordSim-353's `Human (mean)`, ….
const SCORE_COLUMN_NAMES: [&str; 6] = ["simlex", "score", "mean", "similarity", "relatedness", "sim"];

impl SimilaritySet {
    /// Reads one pair a line: two words and a score, fields separated by tabs when the line
    /// holds a tab, by commas when it holds a comma (CSV), and by whitespace otherwise; blank lines and comments (lines starting with
    /// `#`, as in gensim's copies of both benchmarks) are skipped. The score is the third
    /// field, unless the first other line is a header (its third field is not a number): then
    /// the first column
    /// from the third on whose name contains, case-insensitively, `simlex`, `score`, `mean`,
    /// `similarity`, `relatedness` or `sim` (tried in that order) holds it. SimLex-999's file
    /// (`word1 word2 POS SimLex999 …`) therefore reads as it is.
    ///
    /// Fails with [`Error::BenchmarkFormat`](crate::Error::BenchmarkFormat) naming the line of a pair with too few fields or
    /// a score that is not a finite number, and with line 0 when the text holds no pair.
    pub fn parse(text: &str) -> Result<SimilaritySet> {
        let mut pairs = Vec::new();
        let mut score_column = 2;
        let mut score_name = None;
        let mut first = true;
        for (line_no, line) in content_lines(text) {
            let fields: Vec<&str> = if line.contains('\t') {
                line.split('\t').map(str::trim).collect()
            } else if line.contains(',') {
                // CSV copies (MEN, SimVerb-3500 and WordSim-353's own `combined.csv`).
                line.split(',').map(str::trim).collect()
            } else {
                line.split_whitespace().collect()
            };
            if std::mem::take(&mut first) && fields.len() >= 3 && fields[2].parse::<f64>().is_err() {
                let lower: Vec<String> = fields.iter().map(|f| f.to_lowercase()).collect();
                if let Some(column) = SCORE_COLUMN_NAMES
                    .iter()
                    .find_map(|name| (2..fields.len()).find(|&column| lower[column].contains(name)))
                {
                    score_column = column;
                }
                score_name = Some(fields[score_column].to_string());
                continue;
            }
            let Some(&score_text) = fields.get(score_column) else {
                return Err(malformed(
                    line_no,
                    format!(
                        "expected two words and a score in column {}, found {} field{}",
                        score_column + 1,
                        fields.len(),
                        if fields.len() == 1 { "" } else { "s" }
                    ),
                ));
            };
            let score = score_text.parse::<f64>().ok().filter(|s| s.is_finite()).ok_or_else(|| {
                malformed(
                    line_no,
                    format!("the score '{score_text}' in column {} is not a number", score_column + 1),
                )
            })?;
            pairs.push(SimilarityPair {
                words: [fields[0].to_string(), fields[1].to_string()],
                score,
                line: line_no,
            });
        }
        if pairs.is_empty() {
            return Err(malformed(0, "it holds no word pair (a line 'word1 word2 score')".into()));
        }
        Ok(SimilaritySet { pairs, score_column, score_name })
    }

    /// The pairs in file order.
    pub fn pairs(&self) -> &[SimilarityPair] {
        &self.pairs
    }

    /// The 1-based column that holds the score.
    pub fn score_column(&self) -> usize {
        self.score_column + 1
    }

    /// The header's name of the score column, when the file has a header.
    pub fn score_name(&self) -> Option<&str> {
        self.score_name.as_deref()
    }
}

/// How a similarity benchmark is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimilarityOptions {
    /// Only the `n` most frequent words count as known; `None` (the default) means the whole
    /// vocabulary (gensim's default, 300,000, is more than most vocabularies hold).
    pub restrict: Option<usize>,
    /// Matches words ignoring case: a word stands for the most frequent known word with the
    /// same lowercase form. Default `false`.
    pub ignore_case: bool,
    /// How many pairs [`SimilarityReport::worst`] keeps. Default 10.
    pub worst: usize,
}

impl Default for SimilarityOptions {
    fn default() -> Self {
        SimilarityOptions { restrict: None, ignore_case: false, worst: 10 }
    }
}

impl SimilarityOptions {
    /// The defaults of gensim 4's `evaluate_word_pairs`: `restrict_vocab=300000`,
    /// `case_insensitive=True`.
    pub fn gensim() -> SimilarityOptions {
        SimilarityOptions {
            restrict: Some(GENSIM_RESTRICT),
            ignore_case: true,
            ..SimilarityOptions::default()
        }
    }
}

/// A pair on which the model and the human scores disagree, for the report's list of the worst.
#[derive(Debug, Clone, PartialEq)]
pub struct PairDisagreement {
    /// The two words as the file gives them.
    pub words: [String; 2],
    /// Its 1-based line in the benchmark file.
    pub line: usize,
    /// The human score.
    pub human: f64,
    /// The cosine of the two words.
    pub cosine: f32,
    /// The pair's rank among the found pairs by human score, 1 = most similar; ties share
    /// the average of their ranks.
    pub human_rank: f64,
    /// The pair's rank among the found pairs by cosine, ranked the same way.
    pub model_rank: f64,
}

/// The result of a similarity benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct SimilarityReport {
    /// Pairs in the benchmark.
    pub pairs: usize,
    /// Pairs whose two words are both known (in the restricted vocabulary), or, for a word
    /// the whole vocabulary lacks, built from its character n-grams (a fastText model).
    pub found: usize,
    /// Spearman's rank correlation between human scores and cosines over the found pairs;
    /// `None` with fewer than two found pairs or when either side has a single value.
    pub spearman: Option<f64>,
    /// Pearson's correlation over the found pairs; `None` as for `spearman`.
    pub pearson: Option<f64>,
    /// The found pairs whose two ranks differ most, worst first (ties in file order); at most
    /// [`SimilarityOptions::worst`], and only pairs whose ranks differ.
    pub worst: Vec<PairDisagreement>,
    /// The distinct words of the found pairs that the vocabulary lacks, scored by the vector
    /// their character n-grams build (a fastText model's); 0 for other vectors.
    pub built_from_ngrams: usize,
}

impl SimilarityReport {
    /// The share of pairs with an unknown word, in `[0, 1]`.
    pub fn oov_ratio(&self) -> f64 {
        (self.pairs - self.found) as f64 / self.pairs as f64
    }
}

/// Scores every pair of `set` by the cosine of its words and correlates that with the human
/// scores.
///
/// Fails with [`Error::InvalidParameter`](crate::Error::InvalidParameter) when `options.restrict` is `Some(0)`.
pub fn evaluate_similarity(
    emb: &Embeddings,
    set: &SimilaritySet,
    options: SimilarityOptions,
) -> Result<SimilarityReport> {
    let lookup = Lookup::new(emb, options.restrict, options.ignore_case)?;
    let mut found: Vec<&SimilarityPair> = Vec::new();
    let mut cosines: Vec<f32> = Vec::new();
    let mut built_words: HashSet<&str> = HashSet::new();
    // A word the vocabulary lacks may be built from its n-grams (a fastText model's); the
    // flag says it was.
    let unit = |word: &str| match lookup.find(emb, word) {
        Some(idx) => Some((emb.unit_vector(idx), false)),
        None if emb.index_of(word).is_none() => emb.built_vector(word).map(|mut built| {
            linalg::normalize(&mut built);
            (std::borrow::Cow::Owned(built), true)
        }),
        None => None,
    };
    for pair in &set.pairs {
        if let [Some((a, a_built)), Some((b, b_built))] = pair.words.each_ref().map(|w| unit(w)) {
            found.push(pair);
            cosines.push(linalg::dot(&a, &b));
            for (word, built) in pair.words.iter().zip([a_built, b_built]) {
                if built {
                    built_words.insert(word);
                }
            }
        }
    }
    let human: Vec<f64> = found.iter().map(|p| p.score).collect();
    let model: Vec<f64> = cosines.iter().map(|&c| f64::from(c)).collect();
    let human_ranks = ranks_descending(&human);
    let model_ranks = ranks_descending(&model);

    let mut order: Vec<usize> = (0..found.len()).filter(|&i| human_ranks[i] != model_ranks[i]).collect();
    let gap = |i: usize| (human_ranks[i] - model_ranks[i]).abs();
    // `found` is in file order, so a stable sort keeps ties in file order.
    order.sort_by(|&i, &j| gap(j).total_cmp(&gap(i)));
    order.truncate(options.worst);
    let worst = order
        .into_iter()
        .map(|i| PairDisagreement {
            words: found[i].words.clone(),
            line: found[i].line,
            human: human[i],
            cosine: cosines[i],
            human_rank: human_ranks[i],
            model_rank: model_ranks[i],
        })
        .collect();
    Ok(SimilarityReport {
        pairs: set.pairs.len(),
        found: found.len(),
        spearman: pearson(&human_ranks, &model_ranks),
        pearson: pearson(&human, &model),
        worst,
        built_from_ngrams: built_words.len(),
    })
}

/// The 1-based ranks of `values`, largest first; equal values share the average of the ranks
/// they span (so Spearman's coefficient is Pearson's of the ranks, ties included).
fn ranks_descending(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&i, &j| values[j].total_cmp(&values[i]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let end = start + order[start..].iter().take_while(|&&i| values[i] == values[order[start]]).count();
        // Positions start..end hold equal values: ranks start + 1 ..= end, averaged.
        let rank = (start + 1 + end) as f64 / 2.0;
        order[start..end].iter().for_each(|&i| ranks[i] = rank);
        start = end;
    }
    ranks
}

/// Pearson's correlation of `x` and `y`; `None` for fewer than two points or a constant side.
///
/// **Unchecked precondition:** `x.len() == y.len()`.
fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len();
    if n < 2 {
        return None;
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / n as f64;
    let (mean_x, mean_y) = (mean(x), mean(y));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (&xi, &yi) in x.iter().zip(y) {
        let (dx, dy) = (xi - mean_x, yi - mean_y);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    // Rounding can step just outside [-1, 1].
    Some((sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_close, check};
    use super::*;

    /// Cosines: p·q 0, p·r 0.7071, p·s 0.6, q·s 0.8, r·s 7/(5√2) ≈ 0.98995.
    fn plane() -> Embeddings {
        Embeddings::from_rows(&[
            ("p", &[1.0, 0.0]),
            ("q", &[0.0, 1.0]),
            ("r", &[1.0, 1.0]),
            ("s", &[3.0, 4.0]),
        ])
    }

    const PAIRS: &str = "p q 1\np r 5\np s 5\nq s 7\nr s 9\np unicorn 3\n";

    #[test]
    fn similarity_correlations_match_hand_computed_values() {
        let report = evaluate_similarity(
            &plane(),
            &SimilaritySet::parse(PAIRS).unwrap(),
            SimilarityOptions::default(),
        )
        .unwrap();
        assert_eq!((report.pairs, report.found), (6, 5));
        assert_close(report.oov_ratio(), 1.0 / 6.0);
        // Human ranks (ties averaged) 5, 3.5, 3.5, 2, 1; model ranks 5, 3, 4, 2, 1.
        // Deviations from the mean rank 3: (2, .5, .5, −1, −2) and (2, 0, 1, −1, −2), so
        // Spearman = 9.5 / √(9.5 · 10) = √0.95.
        assert_close(report.spearman.unwrap(), 0.95f64.sqrt());
        // Pearson of (1, 5, 5, 7, 9) and the cosines, worked out with exact cosines in Python:
        // 0.97180285872...; the cosines here are f32, so compare to 1e-6.
        assert!((report.pearson.unwrap() - 0.971_802_859).abs() < 1e-6, "{:?}", report.pearson);
        let worst: Vec<(usize, f64, f64)> =
            report.worst.iter().map(|w| (w.line, w.human_rank, w.model_rank)).collect();
        assert_eq!(worst, [(2, 3.5, 3.0), (3, 3.5, 4.0)]);
        assert_eq!(report.worst[0].words, ["p", "r"]);
        assert_eq!(report.worst[0].human, 5.0);
        assert!((report.worst[0].cosine - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-6);
    }

    #[test]
    fn a_word_built_from_ngrams_is_scored_as_similarity_scores_it() {
        // Every n-gram of "unicorn" falls in one of 3 buckets, all the same direction.
        let rows = vec![2.0, 1.0, 2.0, 1.0, 2.0, 1.0];
        let emb = plane().with_subwords(crate::vectors::Subwords::new(3, 4, 3, 2, rows));
        let set = SimilaritySet::parse(PAIRS).unwrap();
        let report =
            evaluate_similarity(&emb, &set, SimilarityOptions { worst: 10, ..SimilarityOptions::default() })
                .unwrap();
        assert_eq!((report.pairs, report.found), (6, 6));
        assert_eq!(report.built_from_ngrams, 1, "unicorn");
        let cosine = emb.similarity("p", "unicorn").unwrap();
        assert!((cosine - 2.0 / 5f32.sqrt()).abs() < 1e-6);
        let listed = report.worst.iter().find(|w| w.words[1] == "unicorn").expect("its rank differs");
        assert_eq!(listed.cosine, cosine);
        // Restricted, a word of the vocabulary beyond the limit stays unknown (p r, p s, q s,
        // r s): only a word the vocabulary lacks is built.
        let restricted = SimilarityOptions { restrict: Some(2), ..SimilarityOptions::default() };
        let report = evaluate_similarity(&emb, &set, restricted).unwrap();
        assert_eq!((report.found, report.built_from_ngrams), (2, 1));
        // A word built twice is counted once; vectors without n-grams build none.
        let twice = SimilaritySet::parse("p unicorn 3\nq unicorn 4\nunicorn p 2\n").unwrap();
        let report = evaluate_similarity(&emb, &twice, SimilarityOptions::default()).unwrap();
        assert_eq!((report.found, report.built_from_ngrams), (3, 1));
        let report = evaluate_similarity(&plane(), &set, SimilarityOptions::default()).unwrap();
        assert_eq!((report.found, report.built_from_ngrams), (5, 0));
    }

    #[test]
    fn similarity_options_restrict_and_fold_case() {
        let e = plane();
        let set = SimilaritySet::parse(PAIRS).unwrap();
        // s is cut: two pairs are left, which a line fits exactly.
        let report = evaluate_similarity(
            &e,
            &set,
            SimilarityOptions { restrict: Some(3), ..SimilarityOptions::default() },
        )
        .unwrap();
        assert_eq!((report.pairs, report.found), (6, 2));
        assert_close(report.spearman.unwrap(), 1.0);
        assert_close(report.pearson.unwrap(), 1.0);
        assert!(report.worst.is_empty());
        // One pair, or a constant side, has no correlation.
        let only = |text: &str, restrict| {
            let set = SimilaritySet::parse(text).unwrap();
            evaluate_similarity(&e, &set, SimilarityOptions { restrict, ..SimilarityOptions::default() })
                .unwrap()
        };
        let one = only(PAIRS, Some(2));
        assert_eq!((one.found, one.spearman, one.pearson), (1, None, None));
        let flat = only("p q 3\np r 3\nq s 3\n", None);
        assert_eq!((flat.found, flat.spearman, flat.pearson), (3, None, None));
        let none = only("x y 1\n", None);
        assert_eq!((none.found, none.spearman, none.oov_ratio()), (0, None, 1.0));
        // Upper-case words are found only when ignoring case.
        let upper = SimilaritySet::parse(&PAIRS.to_uppercase()).unwrap();
        let strict = evaluate_similarity(&e, &upper, SimilarityOptions::default()).unwrap();
        assert_eq!(strict.found, 0);
        let folded = evaluate_similarity(
            &e,
            &upper,
            SimilarityOptions { ignore_case: true, ..SimilarityOptions::default() },
        )
        .unwrap();
        assert_eq!(folded.found, 5);
        assert_close(folded.spearman.unwrap(), 0.95f64.sqrt());
    }

    #[test]
    fn ranks_average_ties() {
        assert_eq!(ranks_descending(&[]), Vec::<f64>::new());
        assert_eq!(ranks_descending(&[2.0, 9.0, 2.0, 2.0, 0.5]), [3.0, 1.0, 3.0, 3.0, 5.0]);
        assert_eq!(ranks_descending(&[1.0, 1.0]), [1.5, 1.5]);
        assert_eq!(pearson(&[1.0, 2.0, 3.0], &[6.0, 4.0, 2.0]), Some(-1.0));
    }

    #[test]
    fn similarity_files_find_their_score_column() {
        // Table: (text, score column (1-based), its header name, the first pair's score).
        let cases: &[(&str, usize, Option<&str>, f64)] = &[
            ("tiger cat 7.35\n", 3, None, 7.35),
            ("Word 1\tWord 2\tHuman (mean)\nlove\tsex\t6.77\n", 3, Some("Human (mean)"), 6.77),
            (
                "word1\tword2\tPOS\tSimLex999\tconc(w1)\tconc(w2)\tconcQ\tAssoc(USF)\tSimAssoc333\tSD(SimLex)\n\
                 old\tnew\tA\t1.58\t2.72\t2.81\t2\t7.25\t1\t0.41\n",
                4,
                Some("SimLex999"),
                1.58,
            ),
            ("w1 w2 pos freq score\na b N 100 2.5\n", 5, Some("score"), 2.5),
            ("first second third\na b 4\n", 3, Some("third"), 4.0),
            ("\u{feff}a b -1e-1 extra\n", 3, None, -0.1),
            // gensim's wordsim353.tsv and simlex999.txt: `#` lines are comments, even one
            // that looks like a header, so the score stays in column 3.
            (
                "# The WordSimilarity-353 Test Collection (http://www.cs.technion.ac.il/~gabr/resources/data/wordsim353/)\n\
                 # Word 1\tWord 2\tHuman (mean)\nlove\tsex\t6.77\n",
                3,
                None,
                6.77,
            ),
            // A header after the comments is still a header.
            ("# pairs\n\n  # scored by hand\nw1 w2 pos score\na b N 2.5\n", 4, Some("score"), 2.5),
        ];
        for &(text, column, name, first) in cases {
            let set = SimilaritySet::parse(text).unwrap();
            assert_eq!(
                (set.score_column(), set.score_name(), set.pairs()[0].score),
                (column, name, first),
                "{text:?}"
            );
        }
        // CSV, as WordSim-353's `combined.csv` (a header, then `love,sex,6.77`).
        let set =
            SimilaritySet::parse("Word 1,Word 2,Human (mean)\nlove,sex,6.77\ntiger, cat ,7.35\n").unwrap();
        assert_eq!((set.score_name(), set.pairs().len()), (Some("Human (mean)"), 2));
        assert_eq!(
            (&set.pairs()[1].words, set.pairs()[1].score),
            (&["tiger".to_string(), "cat".to_string()], 7.35)
        );
        let set = SimilaritySet::parse("a\tb\t1\n\n# c d 9\nc d 2\n#e\tf\t3\n").unwrap();
        let lines: Vec<(usize, &[String; 2])> = set.pairs().iter().map(|p| (p.line, &p.words)).collect();
        assert_eq!(
            lines,
            [(1, &["a".to_string(), "b".to_string()]), (4, &["c".to_string(), "d".to_string()])]
        );
    }

    #[test]
    fn malformed_similarity_files_are_rejected_with_their_line() {
        let cases: &[(&str, (usize, &str))] = &[
            ("a b\n", (1, "expected two words and a score in column 3, found 2 fields")),
            ("a b 1\nc\n", (2, "expected two words and a score in column 3, found 1 field")),
            ("a b 1\nc d x\n", (2, "the score 'x' in column 3 is not a number")),
            ("a b nan\n", (1, "the score 'nan' in column 3 is not a number")),
            ("a b 1\nc d inf\n", (2, "the score 'inf' in column 3 is not a number")),
            (
                "word1 word2 POS SimLex999\nold new A\n",
                (2, "expected two words and a score in column 4, found 3 fields"),
            ),
            ("a b x\n", (0, "it holds no word pair (a line 'word1 word2 score')")),
            ("", (0, "it holds no word pair (a line 'word1 word2 score')")),
            ("# a\tb\t1\n", (0, "it holds no word pair (a line 'word1 word2 score')")),
        ];
        for (input, expected) in cases {
            check(SimilaritySet::parse(input), *expected);
        }
    }
}
