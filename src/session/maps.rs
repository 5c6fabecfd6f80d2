//! The map's runs: the numbering of the word lists of its frames, and t-SNE and UMAP maps
//! built and stepped a slice at a time, warm-started from the map before.

use std::rc::Rc;

use crate::Embeddings;
use crate::error::{Error, Result};
use crate::map::layout::{Layout, LayoutBuilder, LayoutParams, LayoutPhase, LayoutProgress};
use crate::map::{KMeans, Pacer, Piece, SliceReport, frame_clusters};

/// The words of the last frame, numbered: frames of the same words (every frame of a t-SNE
/// or UMAP run, the PCA frames while training) carry the number alone, since turning 20,000
/// words into JavaScript strings and posting them took 20 to 30 ms a frame; the worker asks
/// for the words ([`WordList::words`]) when a number is new to the page.
#[derive(Debug, Default)]
pub struct WordList {
    /// 0 before the first list.
    id: u32,
    words: Vec<String>,
}

impl WordList {
    /// The number of the list of `emb`'s words at `indices`: the last one's when they are the
    /// same words (compared word for word, so a new vocabulary with the same words keeps it).
    pub fn number(&mut self, emb: &Embeddings, indices: impl ExactSizeIterator<Item = usize> + Clone) -> u32 {
        let same = self.id != 0
            && indices.len() == self.words.len()
            && indices.clone().zip(&self.words).all(|(i, word)| emb.word(i) == word);
        if !same {
            self.id += 1;
            self.words = indices.map(|i| emb.word(i).to_string()).collect();
        }
        self.id
    }

    /// The words of list `id`; fails when a later list gave way to it.
    pub fn words(&self, id: u32) -> Result<&[String]> {
        if id == 0 || id != self.id {
            return Err(Error::Session(format!("word list {id} gave way to list {}", self.id)));
        }
        Ok(&self.words)
    }
}

/// Units of the first piece of a phase's work, before its time per unit is measured: about
/// half a millisecond natively while building (a unit is about a multiply-add), a few hundred
/// points of an iteration while the points move (a t-SNE iteration of 20,000 words takes over
/// 100 ms in wasm, so 5 µs a point).
const FIRST_BUILD_UNITS: f64 = 500_000.0;
const FIRST_LAYOUT_POINTS: f64 = 256.0;

/// A t-SNE or UMAP map of the most frequent words of one snapshot of the vectors: being
/// built a slice at a time, then stepped.
pub struct LayoutRun {
    /// "tsne" or "umap".
    pub method: &'static str,
    /// The vectors it is built from: a snapshot, so training may move on meanwhile.
    pub embeddings: Rc<Embeddings>,
    pub n_words: usize,
    /// Iterations or epochs in all.
    pub iterations: usize,
    /// Whether it started from the coordinates of the run before it.
    pub warm: bool,
    state: LayoutState,
    /// The k-means colours of its words, when asked for (computed once, from the vectors the
    /// map is built from).
    pub clusters: Option<KMeans>,
    /// Sizes the pieces of `step` to its time budget, per phase.
    pacer: Pacer,
    /// How the last `step` went, for the benchmark.
    pub last_slice: SliceReport,
}

// One per session, so the builder's size beside a boxed layout costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
enum LayoutState {
    /// The graph is being built; a warm start shows its initial coordinates meanwhile.
    Building {
        builder: LayoutBuilder,
        initial: Option<Vec<f32>>,
    },
    Running(Box<dyn Layout>),
}

impl LayoutRun {
    /// A map of `params` of the `n_words` most frequent words (all, when the vocabulary is
    /// smaller) of `embeddings`, coloured by `k` clusters (0: none). With `warm`, when
    /// `previous` was of the same method and word count, it starts from that map's
    /// coordinates with warm parameters, so a map drawn while training moves on rather than
    /// starting over; its clusters start from the previous map's.
    pub fn begin(
        params: LayoutParams,
        embeddings: Rc<Embeddings>,
        n_words: usize,
        k: usize,
        previous: Option<&LayoutRun>,
        warm: bool,
    ) -> Result<LayoutRun> {
        let method = match params {
            LayoutParams::Tsne(_) => "tsne",
            LayoutParams::Umap(_) => "umap",
        };
        let n_words = n_words.min(embeddings.len());
        let start = previous.filter(|run| warm && run.method == method && run.n_words == n_words);
        let (params, initial) = match start.and_then(LayoutRun::coords) {
            Some(coords) => (params.warm(), Some(coords.to_vec())),
            None => (params, None),
        };
        let iterations = match &params {
            LayoutParams::Tsne(p) => p.iterations,
            LayoutParams::Umap(p) => p.epochs_for(n_words),
        };
        let builder = LayoutBuilder::new(&embeddings, n_words, params, initial.as_deref())?;
        let clusters =
            layout_clusters(&embeddings, n_words, k, previous.and_then(|run| run.clusters.as_ref()))?;
        Ok(LayoutRun {
            method,
            embeddings,
            n_words,
            iterations,
            warm: initial.is_some(),
            state: LayoutState::Building { builder, initial },
            clusters,
            pacer: Pacer::new(FIRST_BUILD_UNITS),
            last_slice: SliceReport::default(),
        })
    }

    /// Its phase and how far it is in it.
    pub fn progress(&self) -> (LayoutPhase, LayoutProgress) {
        match &self.state {
            LayoutState::Building { builder, .. } => {
                (builder.phase(), LayoutProgress { iteration: 0, iterations: self.iterations })
            }
            LayoutState::Running(layout) => (LayoutPhase::Layout, layout.progress()),
        }
    }

    /// The coordinates to show: the layout's, or a warm start's initial ones while building.
    pub fn coords(&self) -> Option<&[f32]> {
        match &self.state {
            LayoutState::Building { initial, .. } => initial.as_deref(),
            LayoutState::Running(layout) => Some(layout.coords()),
        }
    }

    /// Colours the words by `k` clusters (0: none) without starting the map again, from the
    /// old clusters when `k` is the same; a bad `k` fails and the colours before stay.
    pub fn set_clusters(&mut self, k: usize) -> Result<()> {
        self.clusters = layout_clusters(&self.embeddings, self.n_words, k, self.clusters.as_ref())?;
        Ok(())
    }

    /// Does about `budget` seconds more of the map on `clock`, in pieces the pacer sizes from
    /// their measured time: building its graph and its start, then moving its points through
    /// `step_points` (which may run them on other threads), stopping within a t-SNE iteration
    /// or a UMAP epoch. A phase that ends ends the call. A layout whose finish fails is gone.
    pub fn step(
        mut self,
        budget: f64,
        clock: &mut dyn FnMut() -> f64,
        mut step_points: impl FnMut(&mut Box<dyn Layout>, usize) -> LayoutProgress,
    ) -> Result<LayoutRun> {
        let (embeddings, pacer, n_words) = (&self.embeddings, &mut self.pacer, self.n_words);
        self.state = match self.state {
            LayoutState::Building { mut builder, initial } => {
                let phase = builder.phase();
                self.last_slice = pacer.run(budget, builder.stage(), clock, |units| {
                    let now = builder.step(embeddings, units.min(u64::MAX as f64) as u64);
                    Piece { units, stage: builder.stage(), finished: now != phase }
                });
                if builder.phase() == LayoutPhase::Layout {
                    // Its points' pieces are of other units.
                    *pacer = Pacer::new(FIRST_LAYOUT_POINTS);
                    LayoutState::Running(builder.finish(embeddings)?)
                } else {
                    LayoutState::Building { builder, initial }
                }
            }
            LayoutState::Running(mut layout) => {
                self.last_slice = pacer.run(budget, 0, clock, |points| {
                    // At most an iteration a piece: a point's cost changes from one to the next
                    // as the map spreads (UMAP's first epochs sample few edges), so it is
                    // measured again at least that often.
                    let points = points.clamp(1.0, n_words.max(1) as f64);
                    let done = step_points(&mut layout, points as usize).is_done();
                    Piece { units: points, stage: 0, finished: done }
                });
                LayoutState::Running(layout)
            }
        };
        Ok(self)
    }
}

/// The k-means colours of a map of the `n_words` most frequent words of `embeddings`, `k`
/// clusters (0: none; at most one a word), warm from `previous`.
fn layout_clusters(
    embeddings: &Embeddings,
    n_words: usize,
    k: usize,
    previous: Option<&KMeans>,
) -> Result<Option<KMeans>> {
    if k == 0 {
        return Ok(None);
    }
    frame_clusters(&embeddings.unit_rows(n_words), embeddings.dim(), k, previous)
}
