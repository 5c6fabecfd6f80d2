//! Benchmarks on the vectors: analogies (questions-words format) a chunk of questions at a
//! time, word-pair similarity at once.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::{Session, js_error, to_js};
use crate::Embeddings;
use crate::eval;
use crate::eval::{
    AnalogyEvaluator, AnalogyOptions, AnalogySet, EvalProgress, SimilarityOptions, SimilarityReport,
    SimilaritySet,
};
use crate::wasm::dto::{EvalProgressDto, analogy_report_dto, similarity_report_dto};

/// A benchmark being run on a snapshot of the vectors.
pub(super) enum Evaluation {
    /// Analogies take long on a large vocabulary, so they run a chunk of questions at a time.
    Analogies { evaluator: AnalogyEvaluator, embeddings: Rc<Embeddings> },
    /// Similarity is one cosine per pair: done at once.
    Similarity(SimilarityReport),
}

#[wasm_bindgen]
impl Session {
    /// Starts scoring the vectors on a benchmark `text`: analogies in the questions-words
    /// format (`: section` lines, four words a line) or word pairs with a similarity score
    /// (WordSim-353, SimLex-999). `restrict` keeps the N most frequent words (analogies
    /// default to 30,000, similarity to all). Returns `{ done, total }`; `eval_step` goes on.
    pub fn eval_begin(
        &mut self,
        text: &str,
        restrict: Option<usize>,
        ignore_case: bool,
    ) -> Result<JsValue, JsError> {
        self.evaluation = None;
        let embeddings = self.embeddings()?;
        let progress = if looks_like_analogies(text) {
            let set = AnalogySet::parse(text).map_err(js_error)?;
            let options =
                AnalogyOptions { restrict: restrict.or(Some(30_000)), ignore_case, ..Default::default() };
            let evaluator = AnalogyEvaluator::new(&embeddings, set, options).map_err(js_error)?;
            let progress = evaluator.progress();
            self.evaluation = Some(Evaluation::Analogies { evaluator, embeddings });
            progress
        } else {
            let set = SimilaritySet::parse(text).map_err(js_error)?;
            let options = SimilarityOptions { restrict, ignore_case, ..Default::default() };
            let report = eval::evaluate_similarity(&embeddings, &set, options).map_err(js_error)?;
            let total = report.pairs;
            self.evaluation = Some(Evaluation::Similarity(report));
            EvalProgress { done: total, total }
        };
        to_js(&EvalProgressDto::from(progress))
    }

    /// Evaluates at most `max_questions` more analogy questions; returns `{ done, total }`.
    pub fn eval_step(&mut self, max_questions: usize) -> Result<JsValue, JsError> {
        let progress = match &mut self.evaluation {
            Some(Evaluation::Analogies { evaluator, embeddings }) => {
                evaluator.step(embeddings, max_questions).map_err(js_error)?
            }
            Some(Evaluation::Similarity(report)) => EvalProgress { done: report.pairs, total: report.pairs },
            None => return Err(JsError::new("no evaluation is running")),
        };
        to_js(&EvalProgressDto::from(progress))
    }

    /// The benchmark's scores so far (`EvaluationReport` in www/protocol.js).
    pub fn eval_report(&self) -> Result<JsValue, JsError> {
        match &self.evaluation {
            Some(Evaluation::Analogies { evaluator, .. }) => to_js(&analogy_report_dto(evaluator.report())),
            Some(Evaluation::Similarity(report)) => to_js(&similarity_report_dto(report)),
            None => Err(JsError::new("no evaluation has run")),
        }
    }
}

/// Whether a benchmark file holds analogies (a `: section` line, or a first line of four
/// words) rather than scored word pairs (whose third field is a number).
fn looks_like_analogies(text: &str) -> bool {
    // `#` lines are comments in both formats; one of four words would read as a question.
    let mut lines = text.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#'));
    let Some(first) = lines.next() else { return false };
    if first.starts_with(':') || text.lines().any(|line| line.starts_with(": ")) {
        return true;
    }
    // A CSV line ("Word 1,Word 2,Human (mean)") is a pair file's, whatever its spaces make.
    if first.contains(',') && !first.contains('\t') {
        return false;
    }
    let fields: Vec<&str> = first.split_whitespace().collect();
    fields.len() == 4 && fields[2].parse::<f64>().is_err() && fields[3].parse::<f64>().is_err()
}
