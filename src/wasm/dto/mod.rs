//! The shapes that cross the wasm boundary, mirrored by the `@typedef`s of `www/protocol.js`.
//! Serialisable types live here, at the edge, never in the core.

use serde::{Deserialize, Serialize};

use crate::embed::{
    AnalogyReport, Axis, EvalProgress, LayoutParams, LayoutPhase, LayoutProgress, Neighbour, Projection,
    SectionScore, SimilarityReport, TsneParams, UmapParams, ViewSpec,
};
use crate::error::{Error, Result};
use crate::params::{RunParams, TokenizerSpec};
use crate::text::{
    BpeConfig, BpeMode, BpeProgress, Corpus, Decoded, Provenance, Tokenizer, VocabConfig, WordTokenizer,
};
use crate::train::{Progress, TrainConfig};
use crate::{Embeddings, json};

/// Training parameters as the page's form sends them; a missing field takes its default.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Params {
    /// "word", "whitespace" or "bpe".
    pub tokenizer: String,
    /// With "bpe": the vocabulary size to learn, and "cross" or "within".
    pub bpe_vocab_size: usize,
    pub bpe_mode: String,
    pub lowercase: bool,
    pub keep_punctuation: bool,
    pub dim: usize,
    pub window: usize,
    pub negative: usize,
    pub sample: f64,
    pub min_count: u64,
    pub max_vocab: Option<usize>,
    pub epochs: u32,
    /// The learning rate; missing, the model's default (0.025 skip-gram, 0.05 CBOW).
    pub alpha: Option<f32>,
    pub min_alpha: f32,
    pub ns_exponent: f64,
    pub seed: u64,
    /// Threads to train on (the worker sizes its pool to it first; 1 is bit-reproducible).
    pub threads: usize,
    /// CBOW rather than skip-gram.
    pub cbow: bool,
}

impl Default for Params {
    fn default() -> Self {
        let (t, v) = (TrainConfig::default(), VocabConfig::default());
        Params {
            tokenizer: "word".into(),
            bpe_vocab_size: BpeConfig::default().vocab_size,
            bpe_mode: BpeConfig::default().mode.name().into(),
            lowercase: false,
            keep_punctuation: false,
            dim: t.dim,
            window: t.window,
            negative: t.negative,
            sample: t.sample,
            min_count: v.min_count,
            max_vocab: v.max_vocab,
            epochs: t.epochs,
            alpha: None,
            min_alpha: t.min_alpha,
            ns_exponent: t.ns_exponent,
            seed: t.seed,
            threads: t.threads,
            cbow: t.cbow,
        }
    }
}

impl Params {
    /// The tokenizer chosen by name, with its own options from the form.
    pub fn tokenizer_spec(&self) -> Result<TokenizerSpec> {
        let word = WordTokenizer { lowercase: self.lowercase, keep_punctuation: self.keep_punctuation };
        // The BPE fields are checked only when BPE is chosen.
        let bpe = if self.tokenizer == "bpe" { self.bpe_config()? } else { BpeConfig::default() };
        TokenizerSpec::from_name(&self.tokenizer, word, bpe)
    }

    /// The word-level tokenizer, or `None` for "bpe", whose model must be learned first.
    pub fn word_tokenizer(&self) -> Result<Option<Box<dyn Tokenizer>>> {
        Ok(self.tokenizer_spec()?.ready())
    }

    pub fn bpe_config(&self) -> Result<BpeConfig> {
        let config = BpeConfig { vocab_size: self.bpe_vocab_size, mode: BpeMode::from_name(&self.bpe_mode)? };
        config.validate()?;
        Ok(config)
    }

    pub fn vocab_config(&self) -> VocabConfig {
        VocabConfig { min_count: self.min_count, max_vocab: self.max_vocab }
    }

    /// The parameters under the page's names, as the command-line tool writes them into a
    /// bundle (`RunParams::to_json`). The session keeps this for the trainer it makes, so a
    /// bundle tells how its vectors were trained, whatever the form says later.
    pub fn to_json(&self) -> Result<json::Value> {
        let run = RunParams {
            tokenizer: self.tokenizer_spec()?,
            vocab: self.vocab_config(),
            train: self.train_config(),
        };
        Ok(run.to_json())
    }

    pub fn train_config(&self) -> TrainConfig {
        TrainConfig {
            dim: self.dim,
            window: self.window,
            negative: self.negative,
            sample: self.sample,
            alpha: self.alpha(),
            min_alpha: self.min_alpha,
            epochs: self.epochs,
            ns_exponent: self.ns_exponent,
            seed: self.seed,
            threads: self.threads,
            cbow: self.cbow,
        }
    }

    /// The learning rate asked for, or the model's default.
    fn alpha(&self) -> f32 {
        self.alpha.unwrap_or(TrainConfig::default_alpha(self.cbow))
    }
}

/// What a text gave before training: shown as soon as a file is chosen.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CorpusStats {
    pub bytes: usize,
    pub lines: usize,
    pub sentences: usize,
    pub tokens: u64,
    pub types: usize,
    pub vocab_size: usize,
    pub training_tokens: usize,
    pub types_below_min_count: usize,
    pub tokens_below_min_count: u64,
    pub types_over_max_vocab: usize,
    pub tokens_over_max_vocab: u64,
    pub min_count: u64,
    pub fingerprint: String,
}

impl CorpusStats {
    pub fn new(text: &str, corpus: &Corpus, min_count: u64, fingerprint: String) -> CorpusStats {
        let cut = corpus.cut();
        CorpusStats {
            bytes: text.len(),
            lines: text.lines().count(),
            sentences: corpus.n_sentences(),
            tokens: cut.tokens_seen,
            types: cut.types_seen,
            vocab_size: corpus.vocab().len(),
            training_tokens: corpus.n_tokens(),
            types_below_min_count: cut.types_below_min_count,
            tokens_below_min_count: cut.tokens_below_min_count,
            types_over_max_vocab: cut.types_over_max_vocab,
            tokens_over_max_vocab: cut.tokens_over_max_vocab,
            min_count,
            fingerprint,
        }
    }
}

/// How a text file was read: its size and encoding, and a note for the page when it was
/// not plain UTF-8 (UTF-16, Latin-1, characters replaced).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextInfo {
    pub bytes: usize,
    pub encoding: &'static str,
    pub replaced: usize,
    pub note: Option<String>,
}

impl TextInfo {
    pub fn new(decoded: &Decoded) -> TextInfo {
        TextInfo {
            bytes: decoded.text.len(),
            encoding: decoded.encoding.name(),
            replaced: decoded.replaced,
            note: decoded.note(),
        }
    }

    /// A text the app wrote itself, in UTF-8.
    pub fn plain(bytes: usize) -> TextInfo {
        TextInfo { bytes, encoding: "UTF-8", replaced: 0, note: None }
    }
}

/// What a vectors file held.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VectorsInfo {
    pub format: &'static str,
    pub words: usize,
    pub dim: usize,
    pub bytes: f64,
    /// Whether the file gave word counts (a bundle does).
    pub counts: bool,
    pub fingerprint: Option<String>,
}

impl VectorsInfo {
    pub fn new(
        format: &'static str,
        emb: &Embeddings,
        bytes: f64,
        counts: bool,
        fingerprint: Option<String>,
    ) -> VectorsInfo {
        VectorsInfo { format, words: emb.len(), dim: emb.dim(), bytes, counts, fingerprint }
    }
}

/// Training progress, with the loss of every finished epoch for the loss chart.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressDto {
    pub epoch: u32,
    pub epochs: u32,
    pub epoch_tokens_done: u64,
    pub epoch_tokens: u64,
    pub tokens_done: u64,
    pub tokens_total: u64,
    pub alpha: f32,
    pub loss: f64,
    pub tokens_per_sec: f64,
    pub done: bool,
    pub epoch_losses: Vec<f64>,
}

impl ProgressDto {
    pub fn new(p: Progress, epoch_losses: &[f64]) -> ProgressDto {
        ProgressDto {
            epoch: p.epoch,
            epochs: p.epochs,
            epoch_tokens_done: p.epoch_tokens_done,
            epoch_tokens: p.epoch_tokens,
            tokens_done: p.tokens_done,
            tokens_total: p.tokens_total,
            alpha: p.alpha,
            loss: p.loss,
            tokens_per_sec: p.tokens_per_sec,
            done: p.done,
            epoch_losses: epoch_losses.to_vec(),
        }
    }
}

/// One answer of a neighbour or analogy query; `rank` is the word's frequency rank (0 = most frequent).
#[derive(Debug, Serialize)]
pub struct NeighbourDto {
    pub word: String,
    pub score: f32,
    pub rank: usize,
}

impl From<Neighbour> for NeighbourDto {
    fn from(n: Neighbour) -> Self {
        NeighbourDto { word: n.word, score: n.similarity, rank: n.word_idx }
    }
}

/// Both analogy methods' answers.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalogyDto {
    pub cos_add: Vec<NeighbourDto>,
    pub cos_mul: Vec<NeighbourDto>,
}

/// The map's view as the page sends it (`ViewSettings` in www/protocol.js). A missing
/// field, from a page older than word axes, isolation and clusters, means what the map did
/// before them: principal components only, the most frequent words, no colours.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ViewDto {
    pub n_words: usize,
    pub x_component: usize,
    pub y_component: usize,
    pub axes: AxesDto,
    pub isolate: Option<Vec<String>>,
    pub clusters: usize,
    /// "pca" (principal components or word axes, `Projection`), "tsne" or "umap".
    pub method: String,
    /// The t-SNE or UMAP parameters; ignored with "pca".
    pub layout: LayoutDto,
}

impl Default for ViewDto {
    fn default() -> Self {
        ViewDto {
            n_words: 300,
            x_component: 0,
            y_component: 1,
            axes: AxesDto::default(),
            isolate: None,
            clusters: 0,
            method: "pca".into(),
            layout: LayoutDto::default(),
        }
    }
}

/// The parameters of a t-SNE or UMAP map (`ViewSettings.layout` in www/protocol.js); a
/// missing field takes the core's default (`TsneParams`, `UmapParams`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LayoutDto {
    pub perplexity: f32,
    /// null: "auto".
    pub learning_rate: Option<f32>,
    pub iterations: usize,
    pub exaggeration: f32,
    pub neighbours: usize,
    pub min_dist: f32,
    /// null: by the word count (umap-learn's rule).
    pub epochs: Option<usize>,
    pub seed: u64,
}

impl Default for LayoutDto {
    fn default() -> Self {
        let (tsne, umap) = (TsneParams::default(), UmapParams::default());
        LayoutDto {
            perplexity: tsne.perplexity,
            learning_rate: tsne.learning_rate,
            iterations: tsne.iterations,
            exaggeration: tsne.early_exaggeration,
            neighbours: umap.n_neighbours,
            min_dist: umap.min_dist,
            epochs: umap.epochs,
            seed: tsne.seed,
        }
    }
}

impl ViewDto {
    /// The layout the view asks for: `None` for "pca", an error naming an unknown method.
    pub fn layout_params(&self) -> Result<Option<LayoutParams>> {
        let l = &self.layout;
        match self.method.as_str() {
            "pca" => Ok(None),
            "tsne" => Ok(Some(LayoutParams::Tsne(TsneParams {
                perplexity: l.perplexity,
                learning_rate: l.learning_rate,
                iterations: l.iterations,
                early_exaggeration: l.exaggeration,
                seed: l.seed,
            }))),
            "umap" => Ok(Some(LayoutParams::Umap(UmapParams {
                n_neighbours: l.neighbours,
                min_dist: l.min_dist,
                epochs: l.epochs,
                seed: l.seed,
                ..UmapParams::default()
            }))),
            other => Err(Error::InvalidParameter {
                name: "method",
                value: other.to_string(),
                expected: "'pca', 'tsne' or 'umap'".into(),
            }),
        }
    }
}

/// Where a t-SNE or UMAP map stands (`LayoutProgress` in www/protocol.js).
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LayoutProgressDto {
    /// "neighbours", "affinities" or "layout".
    pub phase: &'static str,
    pub iteration: usize,
    pub iterations: usize,
    pub done: bool,
}

impl LayoutProgressDto {
    pub fn new(phase: LayoutPhase, progress: LayoutProgress) -> LayoutProgressDto {
        let phase_name = match phase {
            LayoutPhase::Neighbours => "neighbours",
            LayoutPhase::Affinities => "affinities",
            LayoutPhase::Start => "start",
            LayoutPhase::Layout => "layout",
        };
        LayoutProgressDto {
            phase: phase_name,
            iteration: progress.iteration,
            iterations: progress.iterations,
            done: phase == LayoutPhase::Layout && progress.is_done(),
        }
    }
}

/// A t-SNE or UMAP frame's metadata: a `ProjectionDto`'s fields (the page draws both alike)
/// and the layout's; the coordinates travel beside it as a `Float32Array`. Flattened, so it
/// needs a serializer that writes maps as objects.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LayoutFrameDto {
    /// `explained` empty, principal components 0 and 1 without word axes, not isolated.
    #[serde(flatten)]
    pub frame: ProjectionDto,
    /// "tsne" or "umap".
    pub method: &'static str,
    pub layout_progress: LayoutProgressDto,
}

/// The words that define each axis, `[from, to]`; `None` (null) for a principal component.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct AxesDto {
    pub x: Option<[String; 2]>,
    pub y: Option<[String; 2]>,
}

impl ViewDto {
    pub fn to_spec(&self) -> ViewSpec {
        let axis = |words: &Option<[String; 2]>, component| match words {
            Some([a, b]) => Axis::Words(a.clone(), b.clone()),
            None => Axis::Component(component),
        };
        ViewSpec {
            n_words: self.n_words,
            isolate: self.isolate.clone(),
            x: axis(&self.axes.x, self.x_component),
            y: axis(&self.axes.y, self.y_component),
            clusters: self.clusters,
        }
    }
}

/// A frame's metadata; the coordinates (and the clusters) travel beside it as typed arrays.
/// The words do not: `words_id` names the list they are (`Session::frame_words` gives it), so
/// the frames of one list, most of a run, hand over their words once.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectionDto {
    pub words_id: u32,
    /// Explained-variance ratio of each component of the frame's PCA (PC1 first); empty
    /// when both axes are defined by words.
    pub explained: Vec<f32>,
    pub x_component: usize,
    pub y_component: usize,
    /// What the frame used, echoed (serialised with `None` as null).
    pub axes: AxesDto,
    pub isolated: bool,
    pub axis_labels: [String; 2],
}

impl ProjectionDto {
    /// The metadata of `frame` for `view`, its words the list numbered `words_id`.
    pub fn new(view: &ViewDto, frame: &Projection, words_id: u32) -> ProjectionDto {
        ProjectionDto {
            words_id,
            explained: frame.explained().to_vec(),
            x_component: view.x_component,
            y_component: view.y_component,
            axes: view.axes.clone(),
            isolated: frame.isolated(),
            axis_labels: frame.axis_labels().clone(),
        }
    }
}

/// Progress of learning BPE merges.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BpeProgressDto {
    pub merges_done: usize,
    pub vocab_size: usize,
    pub target_vocab_size: usize,
    pub alphabet_size: usize,
    pub fraction: f64,
    pub done: bool,
}

impl From<BpeProgress> for BpeProgressDto {
    fn from(p: BpeProgress) -> Self {
        BpeProgressDto {
            fraction: p.fraction(),
            merges_done: p.merges_done,
            vocab_size: p.vocab_size,
            target_vocab_size: p.target_vocab_size,
            alphabet_size: p.alphabet_size,
            done: p.done,
        }
    }
}

/// Where a token came from: its count and rank in the vocabulary, and for a BPE token the
/// merge that made it and whether it spans a word boundary.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenInfoDto {
    pub token: String,
    pub rank: usize,
    pub count: u64,
    pub merge: Option<MergeDto>,
    pub spans_words: bool,
    pub concordance: Vec<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MergeDto {
    pub left: String,
    pub right: String,
    pub rank: usize,
    pub pair_count: u64,
}

impl MergeDto {
    pub fn of(provenance: &Provenance) -> Option<MergeDto> {
        provenance.merge.as_ref().map(|m| MergeDto {
            left: m.left.to_string(),
            right: m.right.to_string(),
            rank: m.rank,
            pair_count: m.pair_count,
        })
    }
}

/// How far a benchmark has come.
#[derive(Debug, Serialize)]
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
#[derive(Debug, Serialize)]
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
#[derive(Debug, Serialize)]
pub struct WorstQuestionDto {
    pub words: [String; 4],
    pub answer: Option<String>,
    pub rank: usize,
    pub line: usize,
}

/// An analogy benchmark's scores (`kind: "analogies"`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalogyReportDto {
    pub kind: &'static str,
    pub sections: Vec<SectionDto>,
    pub total: SectionDto,
    pub worst: Vec<WorstQuestionDto>,
    pub n_candidates: usize,
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
    }
}

/// A pair the model ranks far from the human score.
#[derive(Debug, Serialize)]
pub struct PairDto {
    pub a: String,
    pub b: String,
    pub gold: f64,
    pub cosine: f32,
    pub line: usize,
}

/// A similarity benchmark's scores (`kind: "similarity"`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SimilarityReportDto {
    pub kind: &'static str,
    pub pairs: usize,
    pub found: usize,
    pub oov_ratio: f64,
    pub spearman: Option<f64>,
    pub pearson: Option<f64>,
    pub worst: Vec<PairDto>,
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
    }
}
