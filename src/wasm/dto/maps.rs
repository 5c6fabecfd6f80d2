//! Maps: the map spec the page asks for ([`MapSpecDto`], its axes and its t-SNE or UMAP
//! parameters), a layout's progress, and a frame's metadata.

use serde::{Deserialize, Serialize};
use tsify::Tsify;

use crate::error::{Error, Result};
use crate::map::layout::{LayoutParams, LayoutPhase, LayoutProgress, TsneParams, UmapParams};
use crate::map::{Axis, MapSpec, Projection};

/// What the map shows, as the page sends it (`MapSpec` in www/protocol.js). A missing
/// field means the plainest map, [`MapSpecDto::default`]: principal components only, the
/// most frequent words, no colours (so a spec saved in a link or bundle without those fields
/// still opens). That default is the one definition of the map a model starts with: the page
/// and the worker read it through `default_map_spec`.
///
/// Each axis is a principal component (0-based `xComponent`, `yComponent`) or, when `axes`
/// names two words for it, the direction from the first to the second: d = unit(unit(b) −
/// unit(a)), a word sits at cos(word, d) (as in the Embedding Projector's custom projections
/// and word2viz). Beside one word axis, the other is that principal component of the words'
/// unit vectors with d projected out, so the two are orthogonal.
#[derive(Debug, Clone, Deserialize, Serialize, Tsify)]
#[serde(rename_all = "camelCase", default)]
#[tsify(missing_as_null)]
pub struct MapSpecDto {
    /// The most frequent words to show (all, when the vocabulary is smaller); the page offers
    /// the range of `WORDS_SHOWN` in www/map/map-panel.js.
    pub n_words: usize,
    pub x_component: usize,
    pub y_component: usize,
    /// Word-defined axes; null: a principal component.
    pub axes: AxesDto,
    /// Show just these words (in frequency order) and fit the projection on them; null: the
    /// `nWords` most frequent. Every word must be known; principal components need at least 2.
    pub isolate: Option<Vec<String>>,
    /// k-means clusters (spherical, on unit vectors) to colour the words by, 2..50; 0: none.
    /// With t-SNE or UMAP, k-means of the vectors the map is built from; another `clusters`
    /// recolours the running map without starting it again.
    pub clusters: usize,
    /// "pca" (principal components or word axes, `Projection`), "tsne" or "umap": t-SNE or
    /// UMAP map the `nWords` most frequent words (`layout`'s parameters), and `xComponent`,
    /// `yComponent`, `axes` and `isolate` do not apply to them.
    #[tsify(type = "\"pca\" | \"tsne\" | \"umap\"")]
    pub method: String,
    /// The t-SNE or UMAP parameters; ignored with "pca".
    pub layout: LayoutDto,
}

impl Default for MapSpecDto {
    fn default() -> Self {
        MapSpecDto {
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

/// The parameters of a t-SNE or UMAP map (`MapSpec.layout` in www/protocol.js); a
/// missing field takes the core's default (`TsneParams`, `UmapParams`).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, Tsify)]
#[serde(rename_all = "camelCase", default)]
#[tsify(missing_as_null)]
pub struct LayoutDto {
    /// t-SNE: 30; at least 1.
    pub perplexity: f32,
    /// t-SNE: null = auto, max(N / exaggeration / 4, 50).
    pub learning_rate: Option<f32>,
    /// t-SNE: 750, the first 250 with early exaggeration.
    pub iterations: usize,
    /// t-SNE: 12; at least 1.
    pub exaggeration: f32,
    /// UMAP: 15, the word itself included; at least 2.
    pub neighbours: usize,
    /// UMAP: 0.1, in [0, 1].
    pub min_dist: f32,
    /// UMAP: null = by the word count (umap-learn's rule: 500 for up to 10,000 words, else 200).
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

impl MapSpecDto {
    /// The layout the spec asks for: `None` for "pca", an error naming an unknown method.
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
#[derive(Debug, Clone, Copy, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct LayoutProgressDto {
    /// "neighbours", "affinities", "start" or "layout".
    #[tsify(type = "\"neighbours\" | \"affinities\" | \"start\" | \"layout\"")]
    pub phase: &'static str,
    pub iteration: usize,
    pub iterations: usize,
    pub done: bool,
    /// The run started from the map before it (the vectors moved on), not from a PCA of the
    /// words: its frames show words moving, where a cold start's show the layout finding its shape.
    pub warm: bool,
}

impl LayoutProgressDto {
    pub fn new(phase: LayoutPhase, progress: LayoutProgress, warm: bool) -> LayoutProgressDto {
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
            warm,
        }
    }
}

/// A t-SNE or UMAP frame's metadata: a `ProjectionDto`'s fields (the page draws both alike)
/// and the layout's; the coordinates travel beside it as a `Float32Array`. Flattened, so it
/// needs a serializer that writes maps as objects.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
#[tsify(missing_as_null)]
pub struct LayoutFrameDto {
    /// `explained` empty, principal components 0 and 1 without word axes, not isolated.
    #[serde(flatten)]
    pub frame: ProjectionDto,
    /// "tsne" or "umap".
    #[tsify(type = "\"tsne\" | \"umap\"")]
    pub method: &'static str,
    pub layout_progress: LayoutProgressDto,
}

/// The words that define each axis, `[from, to]`; `None` (null) for a principal component.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, Tsify)]
#[serde(default)]
#[tsify(missing_as_null)]
pub struct AxesDto {
    pub x: Option<[String; 2]>,
    pub y: Option<[String; 2]>,
}

impl MapSpecDto {
    pub fn to_spec(&self) -> MapSpec {
        let axis = |words: &Option<[String; 2]>, component| match words {
            Some([a, b]) => Axis::Words(a.clone(), b.clone()),
            None => Axis::Component(component),
        };
        MapSpec {
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
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
#[tsify(missing_as_null)]
pub struct ProjectionDto {
    /// The word list shown: equal numbers, the same words in the same order.
    pub words_id: u32,
    /// Explained-variance ratio of each component of the frame's PCA (PC1 first, up to 6):
    /// of the words' vectors, or beside a word axis of their unit vectors with its direction
    /// projected out; empty when both axes are defined by words.
    pub explained: Vec<f32>,
    pub x_component: usize,
    pub y_component: usize,
    /// What the frame used, echoed (serialised with `None` as null).
    pub axes: AxesDto,
    /// The words are an isolated subset (`MapSpecDto::isolate`).
    pub isolated: bool,
    /// The axes' titles: "man → woman", "PC2 (12.3 % of variance)", beside a word axis
    /// "PC1 ⊥ man → woman (30.2 % of the variance left)".
    pub axis_labels: [String; 2],
}

impl ProjectionDto {
    /// The metadata of `frame` for `spec`, its words the list numbered `words_id`.
    pub fn new(spec: &MapSpecDto, frame: &Projection, words_id: u32) -> ProjectionDto {
        ProjectionDto {
            words_id,
            explained: frame.explained().to_vec(),
            x_component: spec.x_component,
            y_component: spec.y_component,
            axes: spec.axes.clone(),
            isolated: frame.isolated(),
            axis_labels: frame.axis_labels().clone(),
        }
    }
}

/// The input rows the step mode's last updates moved, as the map shows them
/// (`Session::step_moves`): each moved word the map shows, and its shift on the map from
/// where its row was before the updates to where it is now, already multiplied by `scale`.
#[derive(Debug, Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct StepMovesDto {
    /// The updates that moved them.
    pub updates: u32,
    pub words: Vec<String>,
    /// `[dx0, dy0, dx1, dy1, …]` in the map's data units, times `scale`.
    pub shifts: Vec<f64>,
    /// The factor the shifts are drawn at: 1, 2 or 5 times a power of ten.
    pub scale: f64,
    /// Whether the shifts are estimated among each word's neighbours (a t-SNE or UMAP map,
    /// which has no projection) rather than projected exactly.
    pub estimated: bool,
    /// Moved words the map does not show.
    pub off_map: usize,
}
