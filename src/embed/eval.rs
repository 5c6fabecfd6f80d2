//! Benchmarks for embeddings: analogy questions and word-pair similarity.
//!
//! # Analogies
//!
//! The format is that of `questions-words.txt`, the 19,544 questions of Mikolov et al. (2013),
//! "Efficient Estimation of Word Representations in Vector Space": a line `: name` opens a
//! section, and every other non-blank line holds four words `a b c d`, read "a is to b as c is
//! to d". Each question is answered by 3CosAdd and by 3CosMul (Levy & Goldberg 2014,
//! "Linguistic Regularities in Sparse and Explicit Word Representations") exactly as
//! [`Embeddings::analogy`] answers it, the three query words excluded, and is correct when the
//! top answer is `d`. As in word2vec's `compute-accuracy` and gensim's
//! `evaluate_word_analogies`, only the N most frequent words are candidates, a question with a
//! word outside them is skipped (not *covered*) rather than counted wrong, and accuracy is
//! correct / covered.
//!
//! # Word-pair similarity
//!
//! WordSim-353 (Finkelstein et al. 2002) and SimLex-999 (Hill et al. 2015) list word pairs with
//! a human score. The model's score of a pair is the cosine of its two words; agreement is
//! Spearman's rank correlation (tied values get the average of their ranks) and Pearson's
//! correlation, both over the pairs whose two words are known.
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
//!
//! # How the analogy benchmark runs
//!
//! [`AnalogyEvaluator`] answers a chunk of questions per [`AnalogyEvaluator::step`], so a Web
//! Worker can report progress between chunks. It scans the candidates once per chunk rather
//! than once per question: for each candidate it takes the dot product with every distinct
//! query word of the chunk, and each question reads its three cosines from that row.
//! Benchmarks reuse their words (the 506 questions of `capital-common-countries` hold 46
//! words), so a chunk needs far fewer dot products than three per question.
//!
//! **Architecture Invariant:** the answer to a question is, to the bit, the top answer of
//! [`Embeddings::analogy`] with the same `restrict` (ignoring case, for the query words'
//! most frequent forms): both score through `AnalogyMethod::score` from the same dot products
//! and break ties towards the more frequent word.
//!
//! **Architecture Invariant:** a report does not depend on how the evaluation was chunked;
//! one question per step and every question in one step give the same report.

use std::collections::HashMap;

use super::Embeddings;
use super::query::{AnalogyMethod, Candidate};
use crate::error::{Error, Result};
use crate::linalg;

/// The section of questions that come before any `: name` line.
pub const NO_SECTION: &str = "(no section)";

/// One analogy question, "a is to b as c is to d".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalogyQuestion {
    /// The words `[a, b, c, d]` as the file gives them; `d` is the expected answer.
    pub words: [String; 4],
    /// Its section's index in [`AnalogySet::sections`].
    pub section: usize,
    /// Its 1-based line in the benchmark file.
    pub line: usize,
}

/// Analogy questions in named sections, read from a `questions-words.txt` file.
///
/// Holds at least one question; [`AnalogySet::parse`] checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalogySet {
    sections: Vec<String>,
    questions: Vec<AnalogyQuestion>,
}

impl AnalogySet {
    /// Reads the `questions-words.txt` format: `: name` opens a section, every other
    /// non-blank line is four whitespace-separated words `a b c d`, except comments, lines
    /// starting with `#`. Questions before the first section go to a section named
    /// [`NO_SECTION`].
    ///
    /// Fails with [`Error::BenchmarkFormat`] naming the line of a question that does not
    /// hold four words or a section line without a name, and with line 0 when the text
    /// holds no question.
    pub fn parse(text: &str) -> Result<AnalogySet> {
        let mut sections: Vec<String> = Vec::new();
        let mut questions = Vec::new();
        for (line_no, line) in content_lines(text) {
            if let Some(name) = line.strip_prefix(':') {
                let name = name.trim();
                if name.is_empty() {
                    return Err(malformed(line_no, "a section line ': name' needs a name".into()));
                }
                sections.push(name.to_string());
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let Ok(words) = <[&str; 4]>::try_from(words.as_slice()) else {
                return Err(malformed(
                    line_no,
                    format!("expected four words 'a b c d' (a is to b as c is to d), found {}", words.len()),
                ));
            };
            if sections.is_empty() {
                sections.push(NO_SECTION.to_string());
            }
            questions.push(AnalogyQuestion {
                words: words.map(str::to_string),
                section: sections.len() - 1,
                line: line_no,
            });
        }
        if questions.is_empty() {
            return Err(malformed(0, "it holds no question (a line of four words 'a b c d')".into()));
        }
        Ok(AnalogySet { sections, questions })
    }

    /// The section names in file order; a name given twice is two sections.
    pub fn sections(&self) -> &[String] {
        &self.sections
    }

    /// The questions in file order.
    pub fn questions(&self) -> &[AnalogyQuestion] {
        &self.questions
    }

    /// The number of questions (at least 1).
    pub fn n_questions(&self) -> usize {
        self.questions.len()
    }
}

/// How an analogy benchmark is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnalogyOptions {
    /// Only the `n` most frequent words (indices `0..n`) are candidates, and a question is
    /// covered only when its four words are among them (gensim's `restrict_vocab`). `None`
    /// means the whole vocabulary. Default `Some(30_000)`, the threshold of word2vec's
    /// `compute-accuracy` (gensim's default is 300,000, see [`AnalogyOptions::gensim`]).
    pub restrict: Option<usize>,
    /// Matches words ignoring case: a question word stands for the most frequent candidate
    /// with the same lowercase form, the other forms of a query word are not answers either,
    /// and an answer is correct when its lowercase form is that of `d`. Default `false`.
    pub ignore_case: bool,
    /// How many wrongly answered questions [`AnalogyReport::worst`] keeps. Default 20.
    pub worst: usize,
}

impl Default for AnalogyOptions {
    fn default() -> Self {
        AnalogyOptions { restrict: Some(30_000), ignore_case: false, worst: 20 }
    }
}

/// gensim's `restrict_vocab` default in `evaluate_word_analogies` and `evaluate_word_pairs`.
pub const GENSIM_RESTRICT: usize = 300_000;

impl AnalogyOptions {
    /// The defaults of gensim 4's `evaluate_word_analogies`: `restrict_vocab=300000`,
    /// `case_insensitive=True`.
    pub fn gensim() -> AnalogyOptions {
        AnalogyOptions { restrict: Some(GENSIM_RESTRICT), ignore_case: true, ..AnalogyOptions::default() }
    }
}

/// How far a chunked evaluation has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvalProgress {
    /// Questions evaluated so far, covered or not.
    pub done: usize,
    /// Questions in the benchmark.
    pub total: usize,
}

impl EvalProgress {
    /// Whether every question has been evaluated.
    pub fn is_done(&self) -> bool {
        self.done == self.total
    }
}

/// The counts of one section of an analogy benchmark, or of all of them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SectionScore {
    /// The section's name ("overall" for the total).
    pub name: String,
    /// Questions evaluated.
    pub questions: usize,
    /// Questions whose four words are all candidates (in the restricted vocabulary).
    pub covered: usize,
    /// Covered questions that 3CosAdd answers correctly.
    pub correct_cos_add: usize,
    /// Covered questions that 3CosMul answers correctly.
    pub correct_cos_mul: usize,
}

impl SectionScore {
    /// Covered questions that `method` answers correctly.
    pub fn correct(&self, method: AnalogyMethod) -> usize {
        match method {
            AnalogyMethod::CosAdd => self.correct_cos_add,
            AnalogyMethod::CosMul => self.correct_cos_mul,
        }
    }

    /// Correct / covered; `None` when no question is covered.
    pub fn accuracy(&self, method: AnalogyMethod) -> Option<f64> {
        (self.covered > 0).then(|| self.correct(method) as f64 / self.covered as f64)
    }

    /// Covered / questions; `None` when there is no question.
    pub fn coverage(&self) -> Option<f64> {
        (self.questions > 0).then(|| self.covered as f64 / self.questions as f64)
    }

    /// Questions skipped because a word is not a candidate.
    pub fn skipped(&self) -> usize {
        self.questions - self.covered
    }

    fn add(&mut self, other: &SectionScore) {
        self.questions += other.questions;
        self.covered += other.covered;
        self.correct_cos_add += other.correct_cos_add;
        self.correct_cos_mul += other.correct_cos_mul;
    }
}

/// A covered question that 3CosAdd answers wrongly, for the report's list of the worst.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnsweredQuestion {
    /// The words `[a, b, c, d]` as the file gives them.
    pub words: [String; 4],
    /// Its section's index in [`AnalogyReport::sections`].
    pub section: usize,
    /// Its 1-based line in the benchmark file.
    pub line: usize,
    /// The top answer by 3CosAdd; `None` when every candidate is a query word.
    pub answer: Option<String>,
    /// The rank of `d` among the candidates by 3CosAdd (1 would be correct; this list holds
    /// only ranks above 1). Ignoring case, it is the rank of `d`'s best-scoring form, counting
    /// only candidates that are not forms of `d`. When `d` is itself a query word it can never
    /// be answered, and its rank is one past the number of candidates that can.
    pub rank: usize,
}

/// The result of an analogy benchmark (of the questions evaluated so far, while it runs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalogyReport {
    /// One score per section, in file order.
    pub sections: Vec<SectionScore>,
    /// The sum of the sections, named "overall".
    pub overall: SectionScore,
    /// The wrongly answered questions with the largest rank of the expected word under
    /// 3CosAdd, worst first (ties in file order); at most [`AnalogyOptions::worst`].
    pub worst: Vec<AnsweredQuestion>,
    /// The number of candidate words: `restrict` capped by the vocabulary size.
    pub n_candidates: usize,
}

/// Runs an analogy benchmark a chunk of questions at a time.
///
/// The evaluator owns the questions and its progress but not the vectors, so a long-lived
/// handle (the worker's `Session`) can keep it next to the embeddings it evaluates and hand
/// them to each [`AnalogyEvaluator::step`].
///
/// **Unchecked precondition:** every `step` gets the embeddings given to `new`. Only their
/// shape is checked; other vectors of the same shape give a report that mixes the two.
#[derive(Debug, Clone)]
pub struct AnalogyEvaluator {
    set: AnalogySet,
    options: AnalogyOptions,
    lookup: Lookup,
    n_words: usize,
    dim: usize,
    /// The first question not yet evaluated.
    next: usize,
    sections: Vec<SectionScore>,
    worst: Vec<AnsweredQuestion>,
    // Buffers reused by every step.
    pending: Vec<Pending>,
    query_words: Vec<usize>,
    cosines: Vec<f32>,
}

/// A covered question of the current chunk while the candidates are scanned.
#[derive(Debug, Clone)]
struct Pending {
    question: usize,
    /// The (most frequent forms of the) query words `a`, `b`, `c`; no form of them is an answer.
    query: [usize; 3],
    /// Where the cosines with `a`, `b`, `c` sit in the chunk's row of cosines.
    slots: [usize; 3],
    /// The (most frequent form of the) expected word `d`.
    expected: usize,
    /// The best form of `d` by 3CosAdd, which the rank counts against.
    expected_best: Candidate,
    best_cos_add: Candidate,
    best_cos_mul: Candidate,
    rank: usize,
}

/// Worse than any scored candidate: the start of every search for the best one.
const NO_CANDIDATE: Candidate = Candidate { score: f32::NEG_INFINITY, idx: usize::MAX };

impl AnalogyEvaluator {
    /// Prepares to evaluate `set` on `emb`. Cheap: one pass over the candidate words, and only
    /// when ignoring case (to find each word's lowercase form).
    ///
    /// Fails with [`Error::InvalidParameter`] when `options.restrict` is `Some(0)`.
    pub fn new(emb: &Embeddings, set: AnalogySet, options: AnalogyOptions) -> Result<AnalogyEvaluator> {
        let lookup = Lookup::new(emb, options.restrict, options.ignore_case)?;
        let sections = set
            .sections
            .iter()
            .map(|name| SectionScore { name: name.clone(), ..SectionScore::default() })
            .collect();
        Ok(AnalogyEvaluator {
            set,
            options,
            lookup,
            n_words: emb.len(),
            dim: emb.dim(),
            next: 0,
            sections,
            worst: Vec::new(),
            pending: Vec::new(),
            query_words: Vec::new(),
            cosines: Vec::new(),
        })
    }

    /// Evaluates up to `max_questions` more questions (at least one) and says where the
    /// evaluation stands. Its cost is about `n_candidates × distinct query words × dim`.
    ///
    /// Fails with [`Error::InvalidParameter`] when `emb` does not have the shape of the
    /// embeddings given to [`AnalogyEvaluator::new`].
    pub fn step(&mut self, emb: &Embeddings, max_questions: usize) -> Result<EvalProgress> {
        if emb.len() != self.n_words || emb.dim() != self.dim {
            return Err(Error::InvalidParameter {
                name: "embeddings",
                value: format!("{} words of dimension {}", emb.len(), emb.dim()),
                expected: format!(
                    "the embeddings the evaluation started with, {} words of dimension {}",
                    self.n_words, self.dim
                ),
            });
        }
        let end = self.next.saturating_add(max_questions.max(1)).min(self.set.questions.len());
        self.prepare_chunk(emb, end);
        self.scan_candidates(emb);
        self.tally(emb);
        self.next = end;
        Ok(self.progress())
    }

    /// Where the evaluation stands, without evaluating.
    pub fn progress(&self) -> EvalProgress {
        EvalProgress { done: self.next, total: self.set.questions.len() }
    }

    /// The report on the questions evaluated so far (every question once
    /// [`EvalProgress::is_done`]).
    pub fn report(&self) -> AnalogyReport {
        let mut overall = SectionScore { name: "overall".into(), ..SectionScore::default() };
        for section in &self.sections {
            overall.add(section);
        }
        AnalogyReport {
            sections: self.sections.clone(),
            overall,
            worst: self.worst.clone(),
            n_candidates: self.lookup.n_candidates,
        }
    }

    /// Counts the questions `self.next..end` and queues the covered ones in `pending`, with
    /// the distinct query words of the chunk in `query_words`.
    fn prepare_chunk(&mut self, emb: &Embeddings, end: usize) {
        self.pending.clear();
        self.query_words.clear();
        let mut slot_of: HashMap<usize, usize> = HashMap::new();
        for question_idx in self.next..end {
            let question = &self.set.questions[question_idx];
            let section = &mut self.sections[question.section];
            section.questions += 1;
            let [Some(a), Some(b), Some(c), Some(d)] =
                question.words.each_ref().map(|w| self.lookup.find(emb, w))
            else {
                continue;
            };
            section.covered += 1;
            let query = [a, b, c];
            let slots = query.map(|word_idx| {
                *slot_of.entry(word_idx).or_insert_with(|| {
                    self.query_words.push(word_idx);
                    self.query_words.len() - 1
                })
            });
            let expected_best = if query.contains(&d) {
                NO_CANDIDATE
            } else {
                let score = |form| {
                    let ud = emb.unit_vector(form);
                    AnalogyMethod::CosAdd.score(query.map(|q| linalg::dot(ud, emb.unit_vector(q))))
                };
                let forms = self.lookup.forms(d).map(|form| Candidate { score: score(form), idx: form });
                forms.min().expect("a word is one of its own forms")
            };
            self.pending.push(Pending {
                question: question_idx,
                query,
                slots,
                expected: d,
                expected_best,
                best_cos_add: NO_CANDIDATE,
                best_cos_mul: NO_CANDIDATE,
                rank: 1,
            });
        }
    }

    /// The hot loop: one pass over the candidates for every pending question.
    fn scan_candidates(&mut self, emb: &Embeddings) {
        if self.pending.is_empty() {
            return;
        }
        self.cosines.clear();
        self.cosines.resize(self.query_words.len(), 0.0);
        for idx in 0..self.lookup.n_candidates {
            let ud = emb.unit_vector(idx);
            for (cos, &word_idx) in self.cosines.iter_mut().zip(&self.query_words) {
                *cos = linalg::dot(ud, emb.unit_vector(word_idx));
            }
            let form = self.lookup.canonical(idx);
            for p in &mut self.pending {
                if p.query.contains(&form) {
                    continue;
                }
                let cos = p.slots.map(|slot| self.cosines[slot]);
                let cos_add = Candidate { score: AnalogyMethod::CosAdd.score(cos), idx };
                let cos_mul = Candidate { score: AnalogyMethod::CosMul.score(cos), idx };
                // `<` reads "beats"; scanning in index order keeps the lower index on ties.
                if cos_add < p.best_cos_add {
                    p.best_cos_add = cos_add;
                }
                if cos_mul < p.best_cos_mul {
                    p.best_cos_mul = cos_mul;
                }
                // No form of d beats its best form, so this counts other words only.
                if cos_add < p.expected_best {
                    p.rank += 1;
                }
            }
        }
    }

    /// Counts the pending questions' answers and keeps the worst.
    fn tally(&mut self, emb: &Embeddings) {
        let is_expected = |best: Candidate, expected| {
            best.idx != NO_CANDIDATE.idx && self.lookup.canonical(best.idx) == expected
        };
        let mut wrong: Vec<&Pending> = Vec::new();
        for p in &self.pending {
            let section = &mut self.sections[self.set.questions[p.question].section];
            if is_expected(p.best_cos_add, p.expected) {
                section.correct_cos_add += 1;
            } else {
                wrong.push(p);
            }
            if is_expected(p.best_cos_mul, p.expected) {
                section.correct_cos_mul += 1;
            }
        }
        // Only the chunk's worst few can enter the list, so only they become strings.
        wrong.sort_by(|x, y| y.rank.cmp(&x.rank).then(x.question.cmp(&y.question)));
        wrong.truncate(self.options.worst);
        for p in wrong {
            let question = &self.set.questions[p.question];
            self.worst.push(AnsweredQuestion {
                words: question.words.clone(),
                section: question.section,
                line: question.line,
                answer: (p.best_cos_add.idx != NO_CANDIDATE.idx)
                    .then(|| emb.word(p.best_cos_add.idx).to_string()),
                rank: p.rank,
            });
        }
        // File order is question order, so ties keep the earlier question at every chunking.
        self.worst.sort_by(|x, y| y.rank.cmp(&x.rank).then(x.line.cmp(&y.line)));
        self.worst.truncate(self.options.worst);
    }
}

/// Runs a whole analogy benchmark at once; see [`AnalogyEvaluator`] to run it in chunks.
///
/// Fails with [`Error::InvalidParameter`] when `options.restrict` is `Some(0)`.
pub fn evaluate_analogies(
    emb: &Embeddings,
    set: &AnalogySet,
    options: AnalogyOptions,
) -> Result<AnalogyReport> {
    let mut evaluator = AnalogyEvaluator::new(emb, set.clone(), options)?;
    // Large chunks share the most query words; this one bounds the row of cosines.
    while !evaluator.step(emb, 2_048)?.is_done() {}
    Ok(evaluator.report())
}

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
    /// holds a tab and by whitespace otherwise; blank lines and comments (lines starting with
    /// `#`, as in gensim's copies of both benchmarks) are skipped. The score is the third
    /// field, unless the first other line is a header (its third field is not a number): then
    /// the first column
    /// from the third on whose name contains, case-insensitively, `simlex`, `score`, `mean`,
    /// `similarity`, `relatedness` or `sim` (tried in that order) holds it. SimLex-999's file
    /// (`word1 word2 POS SimLex999 …`) therefore reads as it is.
    ///
    /// Fails with [`Error::BenchmarkFormat`] naming the line of a pair with too few fields or
    /// a score that is not a finite number, and with line 0 when the text holds no pair.
    pub fn parse(text: &str) -> Result<SimilaritySet> {
        let mut pairs = Vec::new();
        let mut score_column = 2;
        let mut score_name = None;
        let mut first = true;
        for (line_no, line) in content_lines(text) {
            let fields: Vec<&str> = if line.contains('\t') {
                line.split('\t').map(str::trim).collect()
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
    /// Pairs whose two words are both known (in the restricted vocabulary).
    pub found: usize,
    /// Spearman's rank correlation between human scores and cosines over the found pairs;
    /// `None` with fewer than two found pairs or when either side has a single value.
    pub spearman: Option<f64>,
    /// Pearson's correlation over the found pairs; `None` as for `spearman`.
    pub pearson: Option<f64>,
    /// The found pairs whose two ranks differ most, worst first (ties in file order); at most
    /// [`SimilarityOptions::worst`], and only pairs whose ranks differ.
    pub worst: Vec<PairDisagreement>,
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
/// Fails with [`Error::InvalidParameter`] when `options.restrict` is `Some(0)`.
pub fn evaluate_similarity(
    emb: &Embeddings,
    set: &SimilaritySet,
    options: SimilarityOptions,
) -> Result<SimilarityReport> {
    let lookup = Lookup::new(emb, options.restrict, options.ignore_case)?;
    let mut found: Vec<&SimilarityPair> = Vec::new();
    let mut cosines: Vec<f32> = Vec::new();
    for pair in &set.pairs {
        if let [Some(a), Some(b)] = pair.words.each_ref().map(|w| lookup.find(emb, w)) {
            found.push(pair);
            cosines.push(emb.cosine(a, b));
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

/// How benchmark words find their vectors: among the `n_candidates` most frequent words,
/// exactly or ignoring case.
#[derive(Debug, Clone)]
struct Lookup {
    n_candidates: usize,
    /// Present when ignoring case.
    folding: Option<CaseFolding>,
}

/// The candidates grouped by lowercase form; a group is named by its most frequent form.
#[derive(Debug, Clone)]
struct CaseFolding {
    /// Lowercase form → its most frequent candidate.
    by_lowercase: HashMap<String, usize>,
    /// Candidate → the most frequent candidate with its lowercase form.
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
        let folding = ignore_case.then(|| {
            let mut by_lowercase: HashMap<String, usize> = HashMap::with_capacity(n_candidates);
            let mut canonical = Vec::with_capacity(n_candidates);
            let mut next_form = vec![None; n_candidates];
            // The last form seen of each group, indexed by the group's most frequent form.
            let mut last_form: Vec<usize> = (0..n_candidates).collect();
            for idx in 0..n_candidates {
                let first = *by_lowercase.entry(emb.word(idx).to_lowercase()).or_insert(idx);
                canonical.push(first);
                if first != idx {
                    next_form[last_form[first]] = Some(idx);
                    last_form[first] = idx;
                }
            }
            CaseFolding { by_lowercase, canonical, next_form }
        });
        Ok(Lookup { n_candidates, folding })
    }

    /// The candidate standing for `word`: itself, or ignoring case the most frequent
    /// candidate with its lowercase form.
    fn find(&self, emb: &Embeddings, word: &str) -> Option<usize> {
        match &self.folding {
            None => emb.index_of(word).filter(|&idx| idx < self.n_candidates),
            Some(folding) => folding.by_lowercase.get(&word.to_lowercase()).copied(),
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
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, SeedableRng};

    use super::*;

    fn analogies(emb: &Embeddings, text: &str, options: AnalogyOptions) -> AnalogyReport {
        evaluate_analogies(emb, &AnalogySet::parse(text).unwrap(), options).unwrap()
    }

    fn all_words() -> AnalogyOptions {
        AnalogyOptions { restrict: None, ..AnalogyOptions::default() }
    }

    fn assert_close(actual: f64, expected: f64) {
        assert!((actual - expected).abs() < 1e-9, "{actual} != {expected}");
    }

    /// a is orthogonal to every candidate; x equals b; y leans towards both b and c.
    /// 3CosAdd: x = 1 beats y = 4/sqrt(17) ≈ 0.970.
    /// 3CosMul: y = 0.7425² / 0.501 ≈ 1.100 beats x = 0.5 / 0.501 ≈ 0.998.
    fn disagreeing() -> Embeddings {
        Embeddings::from_rows(&[
            ("a", &[0.0, 0.0, 1.0, 0.0]),
            ("b", &[1.0, 0.0, 0.0, 0.0]),
            ("c", &[0.0, 1.0, 0.0, 0.0]),
            ("x", &[2.0, 0.0, 0.0, 0.0]),
            ("y", &[2.0, 2.0, 0.0, 3.0]),
        ])
    }

    const DISAGREEING: &str = "\
: add-wins
a b c x

: mul-wins
a b c y
a b c unicorn
";

    fn score(name: &str, counts: [usize; 4]) -> SectionScore {
        let [questions, covered, correct_cos_add, correct_cos_mul] = counts;
        SectionScore { name: name.into(), questions, covered, correct_cos_add, correct_cos_mul }
    }

    #[test]
    fn each_method_counts_its_own_correct_answers() {
        let report = analogies(&disagreeing(), DISAGREEING, all_words());
        assert_eq!(report.sections, [score("add-wins", [1, 1, 1, 0]), score("mul-wins", [2, 1, 0, 1])]);
        assert_eq!(report.overall, score("overall", [3, 2, 1, 1]));
        assert_eq!(report.overall.accuracy(AnalogyMethod::CosAdd), Some(0.5));
        assert_eq!(report.overall.accuracy(AnalogyMethod::CosMul), Some(0.5));
        assert_eq!(report.overall.coverage(), Some(2.0 / 3.0));
        assert_eq!(report.overall.skipped(), 1);
        assert_eq!(report.n_candidates, 5);
        // Only x and y are candidates; under 3CosAdd x beats y.
        assert_eq!(
            report.worst,
            [AnsweredQuestion {
                words: ["a", "b", "c", "y"].map(String::from),
                section: 1,
                line: 5,
                answer: Some("x".into()),
                rank: 2,
            }]
        );
    }

    #[test]
    fn restriction_limits_candidates_and_coverage() {
        let e = disagreeing();
        // Table: (restrict, overall [questions, covered, 3CosAdd, 3CosMul], candidates).
        let cases: &[(Option<usize>, [usize; 4], usize)] = &[
            (None, [3, 2, 1, 1], 5),
            (Some(99), [3, 2, 1, 1], 5),
            // y is cut: "a b c y" is skipped, and x is the only candidate left.
            (Some(4), [3, 1, 1, 1], 4),
            // x is cut too: nothing is covered.
            (Some(3), [3, 0, 0, 0], 3),
        ];
        for &(restrict, counts, n_candidates) in cases {
            let report = analogies(&e, DISAGREEING, AnalogyOptions { restrict, ..all_words() });
            assert_eq!(report.overall, score("overall", counts), "restrict = {restrict:?}");
            assert_eq!(report.n_candidates, n_candidates);
        }
        let report = analogies(&e, DISAGREEING, AnalogyOptions { restrict: Some(3), ..all_words() });
        assert_eq!(report.overall.accuracy(AnalogyMethod::CosAdd), None);
        assert_eq!(report.overall.coverage(), Some(0.0));
        assert_eq!(
            evaluate_analogies(
                &e,
                &AnalogySet::parse(DISAGREEING).unwrap(),
                AnalogyOptions { restrict: Some(0), ..all_words() }
            )
            .unwrap_err(),
            Error::InvalidParameter {
                name: "restrict",
                value: "0".into(),
                expected: "at least 1, or none for the whole vocabulary".into()
            }
        );
    }

    /// Royalty, male and female directions as in the query tests, plus two case variants.
    /// For man : woman :: king : ?, 3CosAdd scores a word (p, 0, 1) as (1 + p/√2) / √(1 + p²):
    /// queen (p = 1) 1.2071, WOMAN (p = 0.5) 1.2106, Queen (p = 0.7) 1.2247; crown 0.7071;
    /// and girl, leaning away from man, 0.7956 + 0.2387 + 0.2250 = 1.2593.
    fn royals_with_variants() -> Embeddings {
        Embeddings::from_rows(&[
            ("man", &[0.0, 2.0, 0.0]),
            ("woman", &[0.0, 0.0, 1.0]),
            ("king", &[3.0, 3.0, 0.0]),
            ("queen", &[1.0, 0.0, 1.0]),
            ("crown", &[5.0, 0.0, 0.0]),
            ("WOMAN", &[0.5, 0.0, 1.0]),
            ("Queen", &[0.7, 0.0, 1.0]),
            ("girl", &[0.7, -0.3, 1.0]),
        ])
    }

    #[test]
    fn ignoring_case_folds_questions_answers_and_excluded_words() {
        let e = royals_with_variants();
        // Table: (question, ignore_case, restrict, covered, 3CosAdd answer, rank of d).
        // Restricting to 7 words leaves girl out, to 6 Queen too.
        type Case = (&'static str, bool, Option<usize>, bool, Option<&'static str>, usize);
        let cases: &[Case] = &[
            // Case-sensitive, Queen and WOMAN both beat queen.
            ("man woman king queen", false, Some(7), true, Some("Queen"), 3),
            ("man woman king Queen", false, Some(7), true, Some("Queen"), 1),
            ("MAN WOMAN KING QUEEN", false, Some(7), false, None, 0),
            // Ignoring case, WOMAN is a form of a query word and Queen a form of the answer.
            ("man woman king queen", true, Some(7), true, Some("Queen"), 1),
            ("MAN WOMAN KING QUEEN", true, Some(7), true, Some("Queen"), 1),
            ("man woman king Queen", true, Some(7), true, Some("Queen"), 1),
            // Without Queen: case-sensitive WOMAN wins, ignoring case queen does.
            ("man woman king queen", false, Some(6), true, Some("WOMAN"), 2),
            ("man woman king queen", true, Some(6), true, Some("queen"), 1),
            ("man woman king Queen", true, Some(6), true, Some("queen"), 1),
            ("man woman king Queen", false, Some(6), false, None, 0),
            // With girl, who beats every form of queen: ignoring case the rank is that of
            // queen's best form (Queen), which only girl beats.
            ("man woman king queen", false, None, true, Some("girl"), 4),
            ("man woman king queen", true, None, true, Some("girl"), 2),
            ("man woman king Queen", false, None, true, Some("girl"), 2),
        ];
        for &(question, ignore_case, restrict, covered, answer, rank) in cases {
            let options = AnalogyOptions { restrict, ignore_case, worst: 5 };
            let report = analogies(&e, question, options);
            let label = format!("{question:?}, ignore_case {ignore_case}, restrict {restrict:?}");
            assert_eq!(report.overall.covered, usize::from(covered), "{label}");
            assert_eq!(report.overall.correct_cos_add, usize::from(rank == 1), "{label}");
            match report.worst.as_slice() {
                [] => assert!(rank <= 1, "{label}: {report:?}"),
                [worst] => {
                    assert_eq!((worst.answer.as_deref(), worst.rank), (answer, rank), "{label}");
                }
                more => panic!("{label}: {more:?}"),
            }
            if covered && !ignore_case {
                // The top answer is the one the query gives.
                let [a, b, c, _]: [&str; 4] = question.split(' ').collect::<Vec<_>>().try_into().unwrap();
                let top = e.analogy(a, b, c, 1, AnalogyMethod::CosAdd, restrict).unwrap();
                assert_eq!(Some(top[0].word.as_str()), answer, "{label}");
            }
        }
    }

    #[test]
    fn an_expected_word_among_the_query_words_is_never_correct() {
        let e = disagreeing();
        let report = analogies(&e, "a b c b\nb x b c", all_words());
        assert_eq!(report.overall, score("overall", [2, 2, 0, 0]));
        // The first can be answered by x and y. The second scores cos(d, x) (b and c cancel):
        // y (0.485) first, then a and c tie at 0 and the tie goes to a, the lower index.
        let ranks: Vec<(usize, usize)> = report.worst.iter().map(|w| (w.line, w.rank)).collect();
        assert_eq!(ranks, [(1, 3), (2, 3)]);
    }

    #[test]
    fn the_worst_list_is_bounded_and_ordered_by_rank_then_line() {
        let e = royals_with_variants();
        // Ranks of d by 3CosAdd for man : woman :: king : d among the first seven words:
        // Queen 1, WOMAN 2, queen 3, crown 4.
        let text = "man woman king crown\nman woman king queen\nman woman king Queen\nman woman king crown\n";
        let options = AnalogyOptions { restrict: Some(7), ignore_case: false, worst: 2 };
        let report = analogies(&e, text, options);
        let listed: Vec<(usize, usize)> = report.worst.iter().map(|w| (w.line, w.rank)).collect();
        assert_eq!(listed, [(1, 4), (4, 4)]);
        let report = analogies(&e, text, AnalogyOptions { worst: 10, ..options });
        let listed: Vec<(usize, usize)> = report.worst.iter().map(|w| (w.line, w.rank)).collect();
        assert_eq!(listed, [(1, 4), (4, 4), (2, 3)]);
        assert!(analogies(&e, text, AnalogyOptions { worst: 0, ..options }).worst.is_empty());
    }

    /// Random vectors for the words w0, W0, w1, W1, … and random questions, some with
    /// repeated or unknown words, in sections of one question. The components are −1, 0 or 1,
    /// so parallel vectors are equal and exact ties are common.
    fn random_benchmark(seed: u64) -> (Embeddings, String) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (n, dim) = (40, 3);
        let words: Vec<String> = (0..n).map(|i| format!("{}{}", ["w", "W"][i % 2], i / 2)).collect();
        let vectors: Vec<f32> = (0..n * dim).map(|_| (rng.next_u32() % 3) as f32 - 1.0).collect();
        let mut text = String::new();
        for q in 0..60 {
            let mut pick = || {
                let r = rng.next_u32() as usize;
                format!("{}{}", ["w", "W"][r % 2], (r / 2) % (n / 2 + 2))
            };
            let question = [pick(), pick(), pick(), pick()];
            text.push_str(&format!(": q{q}\n{}\n", question.join(" ")));
        }
        (Embeddings::new(words, dim, vectors).unwrap(), text)
    }

    #[test]
    fn answers_and_ranks_agree_with_the_analogy_query() {
        for seed in [1, 2] {
            let (e, text) = random_benchmark(seed);
            let set = AnalogySet::parse(&text).unwrap();
            for restrict in [None, Some(25)] {
                let options = AnalogyOptions { restrict, ignore_case: false, worst: usize::MAX };
                let report = evaluate_analogies(&e, &set, options).unwrap();
                let n_candidates = restrict.unwrap_or(e.len());
                for (question, section) in set.questions().iter().zip(&report.sections) {
                    let [a, b, c, d] = &question.words;
                    let known = |w: &str| e.index_of(w).is_some_and(|i| i < n_candidates);
                    let covered = [a, b, c, d].iter().all(|w| known(w));
                    assert_eq!(section.covered, usize::from(covered), "{question:?}");
                    if !covered {
                        continue;
                    }
                    for method in [AnalogyMethod::CosAdd, AnalogyMethod::CosMul] {
                        let all = e.analogy(a, b, c, n_candidates, method, restrict).unwrap();
                        let correct = all.first().is_some_and(|top| top.word == *d);
                        assert_eq!(section.correct(method), usize::from(correct), "{question:?} {method:?}");
                        if method == AnalogyMethod::CosAdd {
                            let listed = report.worst.iter().find(|w| w.line == question.line);
                            let rank = all.iter().position(|n| n.word == *d).map_or(all.len() + 1, |p| p + 1);
                            assert_eq!(listed.map_or(1, |w| w.rank), rank, "{question:?}");
                            if let Some(listed) = listed {
                                assert_eq!(listed.answer.as_deref(), all.first().map(|n| n.word.as_str()));
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn chunking_does_not_change_the_report() {
        let (e, text) = random_benchmark(3);
        let set = AnalogySet::parse(&text).unwrap();
        let options = AnalogyOptions { restrict: Some(36), ignore_case: true, worst: 7 };
        let whole = evaluate_analogies(&e, &set, options).unwrap();
        assert!(whole.overall.covered > 20 && whole.worst.len() == 7, "{:?}", whole.overall);
        for chunk in [1, 7, usize::MAX] {
            let mut evaluator = AnalogyEvaluator::new(&e, set.clone(), options).unwrap();
            let mut steps = 0;
            loop {
                let progress = evaluator.step(&e, chunk).unwrap();
                steps += 1;
                assert_eq!(progress.total, 60);
                assert_eq!(progress.done, (steps * chunk).min(60));
                if progress.is_done() {
                    break;
                }
            }
            assert_eq!(evaluator.report(), whole, "chunk {chunk}");
            // Stepping past the end changes nothing.
            assert!(evaluator.step(&e, 5).unwrap().is_done());
            assert_eq!(evaluator.report(), whole, "chunk {chunk}");
        }
    }

    #[test]
    fn a_partial_report_counts_what_was_evaluated() {
        let e = disagreeing();
        let mut evaluator =
            AnalogyEvaluator::new(&e, AnalogySet::parse(DISAGREEING).unwrap(), all_words()).unwrap();
        assert_eq!(evaluator.progress(), EvalProgress { done: 0, total: 3 });
        assert_eq!(evaluator.report().overall, score("overall", [0, 0, 0, 0]));
        evaluator.step(&e, 2).unwrap();
        let report = evaluator.report();
        assert_eq!(report.sections, [score("add-wins", [1, 1, 1, 0]), score("mul-wins", [1, 1, 0, 1])]);
        let other = Embeddings::from_rows(&[("a", &[1.0])]);
        assert!(matches!(evaluator.step(&other, 1), Err(Error::InvalidParameter { name: "embeddings", .. })));
    }

    #[test]
    fn analogy_files_parse_into_sections() {
        let set = AnalogySet::parse(
            "\u{feff}a b c d\r\n\n: capitals \nAthens Greece\tBaghdad Iraq\n: empty\n:x\n e f g h \n",
        )
        .unwrap();
        assert_eq!(set.sections(), [NO_SECTION, "capitals", "empty", "x"]);
        let summary: Vec<(usize, usize, &str)> =
            set.questions().iter().map(|q| (q.line, q.section, q.words[3].as_str())).collect();
        assert_eq!(summary, [(1, 0, "d"), (4, 1, "Iraq"), (7, 3, "h")]);
        assert_eq!(set.n_questions(), 3);
        // `#` lines are comments anywhere, as gensim skips them; they keep the line numbers.
        let set = AnalogySet::parse("# questions\n: s\n# a b c\n  # a b c d\nk q m w\n#\n").unwrap();
        assert_eq!(set.sections(), ["s"]);
        let summary: Vec<(usize, [&str; 4])> =
            set.questions().iter().map(|q| (q.line, q.words.each_ref().map(String::as_str))).collect();
        assert_eq!(summary, [(5, ["k", "q", "m", "w"])]);
        // A section with no question is reported with zero counts.
        let report = analogies(&disagreeing(), ": empty\n: full\na b c x", all_words());
        assert_eq!(report.sections, [score("empty", [0, 0, 0, 0]), score("full", [1, 1, 1, 0])]);
    }

    fn check<T: std::fmt::Debug>(parsed: Result<T>, expected: (usize, &str)) {
        match parsed {
            Err(Error::BenchmarkFormat { line, message }) => assert_eq!((line, message.as_str()), expected),
            other => panic!("expected {expected:?}, got {other:?}"),
        }
    }

    #[test]
    fn malformed_analogy_files_are_rejected_with_their_line() {
        let four = "expected four words 'a b c d' (a is to b as c is to d), found";
        let cases: &[(&str, (usize, String))] = &[
            ("a b c\n", (1, format!("{four} 3"))),
            (": s\na b c d\n\na b c d e\n", (4, format!("{four} 5"))),
            ("# a comment\n", (0, "it holds no question (a line of four words 'a b c d')".into())),
            ("# a comment\n: s\n# more\na b c\n", (4, format!("{four} 3"))),
            (":\na b c d\n", (1, "a section line ': name' needs a name".into())),
            ("", (0, "it holds no question (a line of four words 'a b c d')".into())),
            ("\n \n", (0, "it holds no question (a line of four words 'a b c d')".into())),
            (": only a section\n", (0, "it holds no question (a line of four words 'a b c d')".into())),
        ];
        for (input, (line, message)) in cases {
            check(AnalogySet::parse(input), (*line, message.as_str()));
        }
        let err = AnalogySet::parse("a b c\n").unwrap_err();
        assert_eq!(err.to_string(), format!("malformed benchmark file, line 1: {four} 3"));
        let err = AnalogySet::parse("").unwrap_err();
        assert!(err.to_string().starts_with("malformed benchmark file: it holds no question"), "{err}");
    }

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
