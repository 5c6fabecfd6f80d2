//! Evaluation: a benchmark's progress and the scores of analogy and similarity benchmarks.

use serde::Serialize;
use tsify::Tsify;

use crate::eval::{AnalogyReport, EvalProgress, SectionScore, SimilarityReport};

/// How far a benchmark has come.
#[derive(Debug, Serialize, Tsify)]
pub struct EvalProgressDto {
    pub done: usize,
    pub total: usize,
}

impl From<EvalProgress> for EvalProgressDto {
    fn from(p: EvalProgress) -> Self {
        EvalProgressDto { done: p.done, total: p.total }
    }
}

/// One section of an analogy benchmark (or all of it).
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct SectionDto {
    pub name: String,
    pub questions: usize,
    pub covered: usize,
    pub correct_cos_add: usize,
    pub correct_cos_mul: usize,
}

impl From<&SectionScore> for SectionDto {
    fn from(s: &SectionScore) -> Self {
        SectionDto {
            name: s.name.clone(),
            questions: s.questions,
            covered: s.covered,
            correct_cos_add: s.correct_cos_add,
            correct_cos_mul: s.correct_cos_mul,
        }
    }
}

/// A wrongly answered question: `words` is `[a, b, c, expected]`.
#[derive(Debug, Serialize, Tsify)]
pub struct WorstQuestionDto {
    pub words: [String; 4],
    pub answer: Option<String>,
    pub rank: usize,
    pub line: usize,
}

/// An analogy benchmark's scores (`kind: "analogies"`).
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct AnalogyReportDto {
    #[tsify(type = "\"analogies\"")]
    pub kind: &'static str,
    pub sections: Vec<SectionDto>,
    pub total: SectionDto,
    pub worst: Vec<WorstQuestionDto>,
    pub n_candidates: usize,
    /// The benchmark's words the vocabulary lacks, built from a fastText model's n-grams.
    pub built_from_ngrams: usize,
}

pub fn analogy_report_dto(report: AnalogyReport) -> AnalogyReportDto {
    AnalogyReportDto {
        kind: "analogies",
        sections: report.sections.iter().map(SectionDto::from).collect(),
        total: SectionDto::from(&report.overall),
        worst: (report.worst.into_iter())
            .map(|q| WorstQuestionDto { words: q.words, answer: q.answer, rank: q.rank, line: q.line })
            .collect(),
        n_candidates: report.n_candidates,
        built_from_ngrams: report.built_from_ngrams,
    }
}

/// A pair the model ranks far from the human score.
#[derive(Debug, Serialize, Tsify)]
pub struct PairDto {
    pub a: String,
    pub b: String,
    pub gold: f64,
    pub cosine: f32,
    pub line: usize,
}

/// A similarity benchmark's scores (`kind: "similarity"`).
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct SimilarityReportDto {
    #[tsify(type = "\"similarity\"")]
    pub kind: &'static str,
    pub pairs: usize,
    pub found: usize,
    pub oov_ratio: f64,
    pub spearman: Option<f64>,
    pub pearson: Option<f64>,
    pub worst: Vec<PairDto>,
    /// The benchmark's words the vocabulary lacks, built from a fastText model's n-grams.
    pub built_from_ngrams: usize,
}

pub fn similarity_report_dto(report: &SimilarityReport) -> SimilarityReportDto {
    SimilarityReportDto {
        kind: "similarity",
        pairs: report.pairs,
        found: report.found,
        oov_ratio: report.oov_ratio(),
        spearman: report.spearman,
        pearson: report.pearson,
        worst: (report.worst.iter())
            .map(|p| PairDto {
                a: p.words[0].clone(),
                b: p.words[1].clone(),
                gold: p.human,
                cosine: p.cosine,
                line: p.line,
            })
            .collect(),
        built_from_ngrams: report.built_from_ngrams,
    }
}
