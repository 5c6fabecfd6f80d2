//! The analogy benchmark: `questions-words.txt` read, each question answered by 3CosAdd
//! and 3CosMul.
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
//! # How it runs
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

use super::{GENSIM_RESTRICT, Lookup, content_lines, malformed};
use crate::error::{Error, Result};
use crate::linalg;
use crate::vectors::Embeddings;
use crate::vectors::{AnalogyMethod, Candidate};

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
    /// The distinct query words of the covered questions that the vocabulary lacks, scored by
    /// the vector their character n-grams build (a fastText model's); 0 for other vectors.
    pub built_from_ngrams: usize,
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
    /// The unit vectors of query words the vocabulary lacks, built from their character
    /// n-grams (a fastText model's), each named by the id `n_words + its index` here.
    built: Vec<Vec<f32>>,
    built_ids: HashMap<String, usize>,
    /// Whether each of `built` is a query word of a covered question, which the report counts.
    built_covered: Vec<bool>,
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

/// The unit vector of the query word `id`: a row of `emb`, or one of `built` past them.
fn unit_of<'a>(emb: &'a Embeddings, built: &'a [Vec<f32>], id: usize) -> std::borrow::Cow<'a, [f32]> {
    match id.checked_sub(emb.len()) {
        Some(k) => std::borrow::Cow::Borrowed(&built[k]),
        None => emb.unit_vector(id),
    }
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
            built: Vec::new(),
            built_ids: HashMap::new(),
            built_covered: Vec::new(),
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
            built_from_ngrams: self.built_covered.iter().filter(|&&covered| covered).count(),
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
            let [a, b, c, d] = question.words.each_ref().map(|w| self.lookup.find(emb, w));
            let Some(d) = d else { continue };
            // A query word the vocabulary lacks may be built from its n-grams (never `d`: an
            // answer is a word of the vocabulary).
            let mut query = [a, b, c];
            for (found, word) in query.iter_mut().zip(&question.words) {
                if found.is_none() && emb.index_of(word).is_none() {
                    *found = match self.built_ids.get(word) {
                        Some(&id) => Some(id),
                        None => emb.built_vector(word).map(|mut unit| {
                            linalg::normalize(&mut unit);
                            self.built.push(unit);
                            self.built_covered.push(false);
                            let id = self.n_words + self.built.len() - 1;
                            self.built_ids.insert(word.clone(), id);
                            id
                        }),
                    };
                }
            }
            let [Some(a), Some(b), Some(c)] = query else { continue };
            let section = &mut self.sections[question.section];
            section.covered += 1;
            let query = [a, b, c];
            for k in query.iter().filter_map(|id| id.checked_sub(self.n_words)) {
                self.built_covered[k] = true;
            }
            let slots = query.map(|word_idx| {
                *slot_of.entry(word_idx).or_insert_with(|| {
                    self.query_words.push(word_idx);
                    self.query_words.len() - 1
                })
            });
            let expected_best = if query.contains(&d) {
                NO_CANDIDATE
            } else {
                let units = query.map(|q| unit_of(emb, &self.built, q));
                let score = |form| {
                    let ud = emb.unit_vector(form);
                    AnalogyMethod::CosAdd.score(units.each_ref().map(|u| linalg::dot(&ud, u)))
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
        let queries: Vec<_> =
            self.query_words.iter().map(|&word_idx| unit_of(emb, &self.built, word_idx)).collect();
        let (dim, lookup, pending, cosines) = (self.dim, &self.lookup, &mut self.pending, &mut self.cosines);
        emb.unit_blocks(lookup.n_candidates, |start, rows| {
            for (i, ud) in rows.chunks_exact(dim).enumerate() {
                let idx = start + i;
                let form = lookup.canonical(idx);
                if form == super::EXCLUDED {
                    continue;
                }
                for (cos, query) in cosines.iter_mut().zip(&queries) {
                    *cos = linalg::dot(ud, query);
                }
                for p in pending.iter_mut() {
                    if p.query.contains(&form) {
                        continue;
                    }
                    let cos = p.slots.map(|slot| cosines[slot]);
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
        });
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

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{Rng, SeedableRng};

    use super::super::tests::{DISAGREEING, check, disagreeing};
    use super::*;

    fn analogies(emb: &Embeddings, text: &str, options: AnalogyOptions) -> AnalogyReport {
        evaluate_analogies(emb, &AnalogySet::parse(text).unwrap(), options).unwrap()
    }

    fn all_words() -> AnalogyOptions {
        AnalogyOptions { restrict: None, ..AnalogyOptions::default() }
    }

    fn score(name: &str, counts: [usize; 4]) -> SectionScore {
        let [questions, covered, correct_cos_add, correct_cos_mul] = counts;
        SectionScore { name: name.into(), questions, covered, correct_cos_add, correct_cos_mul }
    }

    #[test]
    fn spaced_tokens_answer_for_whole_words_and_pieces_are_no_answers() {
        // A language model's tokens: " queen" is the whole word; "ueen", a piece of one in
        // the same direction and more frequent, would win every tie if it were a candidate.
        let rows: &[(&str, &[f32])] = &[
            ("ueen", &[0.0, 1.0, 1.0]),
            ("king", &[1.0, 0.2, 1.0]),
            (" man", &[1.0, 0.0, 0.0]),
            (" woman", &[0.0, 1.0, 0.0]),
            (" king", &[1.0, 0.0, 1.0]),
            (" queen", &[0.0, 1.0, 1.0]),
        ];
        let question = ": royal\nman king woman queen\n";
        let tokens = Embeddings::from_rows(rows);
        // As they are, the benchmark's words are not tokens ("man" is " man").
        assert_eq!(analogies(&tokens, question, all_words()).overall.covered, 0);
        let report = analogies(&tokens.with_spaced_tokens(), question, all_words());
        assert_eq!(report.overall, score("overall", [1, 1, 1, 1]));
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
    fn query_words_built_from_ngrams_are_answered_as_the_analogy_query_answers() {
        for seed in [3, 4] {
            let (e, text) = random_benchmark(seed);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let rows: Vec<f32> = (0..7 * 3).map(|_| (rng.next_u32() % 5) as f32 - 2.0).collect();
            let e = e.with_subwords(crate::vectors::Subwords::new(1, 3, 7, 3, rows));
            let set = AnalogySet::parse(&text).unwrap();
            let options = AnalogyOptions { restrict: None, ignore_case: false, worst: usize::MAX };
            let report = evaluate_analogies(&e, &set, options).unwrap();
            let mut built = 0;
            let mut built_words = std::collections::HashSet::new();
            for (question, section) in set.questions().iter().zip(&report.sections) {
                let [a, b, c, d] = &question.words;
                let covered = e.index_of(d).is_some()
                    && [a, b, c].iter().all(|w| e.index_of(w).is_some() || e.built_from_ngrams(w));
                assert_eq!(section.covered, usize::from(covered), "{question:?}");
                if !covered {
                    continue;
                }
                built += usize::from([a, b, c].iter().any(|w| e.built_from_ngrams(w)));
                built_words.extend([a, b, c].into_iter().filter(|w| e.built_from_ngrams(w)));
                for method in [AnalogyMethod::CosAdd, AnalogyMethod::CosMul] {
                    let all = e.analogy(a, b, c, e.len(), method, None).unwrap();
                    let correct = all.first().is_some_and(|top| top.word == *d);
                    assert_eq!(section.correct(method), usize::from(correct), "{question:?} {method:?}");
                }
            }
            assert!(built > 3, "the benchmark asks of words built from n-grams ({built})");
            // Each word built counts once, and only from the questions it took part in.
            assert_eq!(report.built_from_ngrams, built_words.len());
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
}
