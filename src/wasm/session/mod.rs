//! `Session`: the one opaque handle the worker holds. Large, long-lived data (the corpus,
//! both vector matrices, the query snapshot) stays in wasm memory; JavaScript gets small,
//! copyable results: progress, query answers, and the 2-D coordinates of the plotted words.

use std::rc::Rc;

use js_sys::{Float32Array, JSON, Object, Reflect, Uint16Array};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::dto::{
    AnalogyDto, AxesDto, BpeProgressDto, CorpusStats, EvalProgressDto, LayoutFrameDto, LayoutProgressDto,
    MergeDto, NeighbourDto, Params, ProgressDto, ProjectionDto, TextInfo, TokenInfoDto, VectorsInfo, ViewDto,
    analogy_report_dto, similarity_report_dto,
};
use super::pool::Pool;
use crate::embed::{
    self, AnalogyEvaluator, AnalogyMethod, AnalogyOptions, AnalogySet, Bundle, BundleRef, EvalProgress,
    KMeans, Layout, LayoutBuilder, LayoutParams, LayoutPhase, LayoutProgress, Pacer, Piece, Projection,
    SimilarityOptions, SimilarityReport, SimilaritySet, SliceReport, VectorFormat, VectorsParser,
    frame_clusters,
};
use crate::embed::{NeighbourHistory, Timeline};
use crate::error::Error;
use crate::text::{BpeConfig, BpeLearner, BpeTokenizer, CorpusBuilder, Tokenizer, concordance, decode_text};
use crate::train::Trainer;
use crate::{Embeddings, fingerprint, json};

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`, in window and worker scopes alike.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

fn clock() -> f64 {
    performance_now() / 1000.0
}

fn js_error(err: Error) -> JsError {
    JsError::new(&err.to_string())
}

pub(super) fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsError> {
    serde_wasm_bindgen::to_value(value).map_err(|e| JsError::new(&e.to_string()))
}

/// BPE merges being learned, or learned, for the session's text with one configuration.
struct Bpe<T> {
    config: BpeConfig,
    state: T,
}

/// Vectors opened from a file (trained elsewhere, or a bundle saved here), with what the
/// file said about them.
struct Opened {
    embeddings: Rc<Embeddings>,
    counts: Option<Vec<u64>>,
    params: Option<json::Value>,
    fingerprint: Option<String>,
    epoch_losses: Vec<f64>,
    /// A bundle's timeline (its frames, for the page, and its neighbours per epoch).
    timeline: Option<Timeline>,
}

/// The text being tokenized into a corpus, a piece at a time, with the parameters it is for.
struct Preparing {
    builder: CorpusBuilder<Box<dyn Tokenizer>>,
    /// Bytes of the text fed to the builder so far.
    fed: usize,
    params: Params,
    tokenizer: String,
}

/// A benchmark being run on a snapshot of the vectors.
enum Evaluation {
    /// Analogies take long on a large vocabulary, so they run a chunk of questions at a time.
    Analogies { evaluator: AnalogyEvaluator, embeddings: Rc<Embeddings> },
    /// Similarity is one cosine per pair: done at once.
    Similarity(SimilarityReport),
}

/// A t-SNE or UMAP map of the most frequent words of one snapshot of the vectors: being
/// built a slice at a time, then stepped.
struct LayoutRun {
    /// "tsne" or "umap".
    method: &'static str,
    /// The vectors it is built from: a snapshot, so training may move on meanwhile.
    embeddings: Rc<Embeddings>,
    n_words: usize,
    /// Iterations or epochs in all.
    iterations: usize,
    state: LayoutState,
    /// The k-means colours of its words, when the view asks for them (computed once, from
    /// the vectors the map is built from).
    clusters: Option<KMeans>,
    /// Sizes `layout_step`'s pieces to its time budget, per phase.
    pacer: Pacer,
    /// How the last `layout_step` went, for the benchmark (`layout_slice_for_test`).
    last_slice: SliceReport,
}

/// Units of the first piece of a phase's work, before its time per unit is measured: about
/// half a millisecond natively while building (a unit is about a multiply-add), a few hundred
/// points of an iteration while the points move (a t-SNE iteration of 20,000 words takes over
/// 100 ms in wasm, so 5 µs a point).
const FIRST_BUILD_UNITS: f64 = 500_000.0;
const FIRST_LAYOUT_POINTS: f64 = 256.0;

enum LayoutState {
    /// The graph is being built; a warm start shows its initial coordinates meanwhile.
    Building {
        builder: LayoutBuilder,
        initial: Option<Vec<f32>>,
    },
    Running(Box<dyn Layout>),
}

impl LayoutRun {
    fn progress(&self) -> LayoutProgressDto {
        match &self.state {
            LayoutState::Building { builder, .. } => LayoutProgressDto::new(
                builder.phase(),
                LayoutProgress { iteration: 0, iterations: self.iterations },
            ),
            LayoutState::Running(layout) => LayoutProgressDto::new(LayoutPhase::Layout, layout.progress()),
        }
    }

    /// The coordinates to show: the layout's, or a warm start's initial ones while building.
    fn coords(&self) -> Option<&[f32]> {
        match &self.state {
            LayoutState::Building { initial, .. } => initial.as_deref(),
            LayoutState::Running(layout) => Some(layout.coords()),
        }
    }
}

/// The words of the last frame, numbered: frames of the same words (every frame of a t-SNE
/// or UMAP run, the PCA frames while training) carry the number alone, since turning 20,000
/// words into JavaScript strings and posting them took 20 to 30 ms a frame; the worker asks
/// for the words (`Session::frame_words`) when a number is new to the page.
#[derive(Default)]
struct WordList {
    /// 0 before the first list.
    id: u32,
    words: Vec<String>,
}

impl WordList {
    /// The number of the list of `emb`'s words at `indices`: the last one's when they are the
    /// same words (compared word for word, so a new vocabulary with the same words keeps it).
    fn number(&mut self, emb: &Embeddings, indices: impl ExactSizeIterator<Item = usize> + Clone) -> u32 {
        let same = self.id != 0
            && indices.len() == self.words.len()
            && indices.clone().zip(&self.words).all(|(i, word)| emb.word(i) == word);
        if !same {
            self.id += 1;
            self.words = indices.map(|i| emb.word(i).to_string()).collect();
        }
        self.id
    }
}

/// A training and query session over one text, or over vectors opened from a file.
#[wasm_bindgen]
#[derive(Default)]
pub struct Session {
    /// The text being trained on, for the concordance of a token.
    text: String,
    learner: Option<Bpe<BpeLearner>>,
    bpe: Option<Bpe<Rc<BpeTokenizer>>>,
    /// A text being tokenized a piece at a time (`prepare_begin`).
    preparing: Option<Preparing>,
    trainer: Option<Trainer>,
    /// The run fingerprint of the trainer's text and parameters.
    fingerprint: String,
    /// The parameters the trainer was made with (`Params::to_json`), for the bundle: the
    /// page's form may have changed since.
    trained_params: Option<json::Value>,
    /// The vectors as of the first number of trained tokens, for queries.
    snapshot: Option<(u64, Rc<Embeddings>)>,
    /// Training diverged: the trainer's vectors hold NaN or infinity, so queries keep using
    /// the last snapshot, the last good vectors.
    diverged: bool,
    /// Vectors opened from a file; there is no trainer then.
    opened: Option<Opened>,
    /// A vectors file being read, slice by slice, and its name for messages.
    loading: Option<(String, VectorsParser)>,
    evaluation: Option<Evaluation>,
    /// The last frame of the map: what the next one is aligned to, and how to place extra words.
    frame: Option<Projection>,
    /// The t-SNE or UMAP map (`layout_begin`).
    layout: Option<LayoutRun>,
    /// The words of the last frame, `project`'s or `layout_frame`'s.
    frame_words: WordList,
    /// The trainer's neighbours at each epoch end, for `neighbour_history` and the bundle.
    history: Option<NeighbourHistory>,
    /// The threads training runs on (`use_threads`); one, the worker's own, until then.
    pool: Pool,
}

#[wasm_bindgen]
impl Session {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Session {
        Session::default()
    }

    /// Takes the bytes of a text file and keeps its text for `prepare`, `bpe_begin` and
    /// `token_info`, replacing the text, the training and any opened vectors; returns
    /// `TextInfo`. The bytes are decoded as UTF-8, UTF-16 or Latin-1 (`TextInfo.note` says
    /// which when it is not plain UTF-8). A binary file or one over `MAX_TEXT_BYTES` is
    /// refused, and then nothing is replaced.
    pub fn set_text(&mut self, bytes: Vec<u8>) -> Result<JsValue, JsError> {
        check_text_size(bytes.len() as f64)?;
        let decoded = decode_text(bytes).map_err(js_error)?;
        let info = TextInfo::new(&decoded);
        self.replace_text(decoded.text);
        to_js(&info)
    }

    /// Makes the built-in sample the session's text (see `set_text`).
    pub fn set_sample_text(&mut self) -> Result<JsValue, JsError> {
        let text = super::sample_text();
        let info = TextInfo::plain(text.len());
        self.replace_text(text);
        to_js(&info)
    }

    /// Refuses, before anything is read, a text of `bytes` bytes over `MAX_TEXT_BYTES`.
    pub fn check_text_size(&self, bytes: f64) -> Result<(), JsError> {
        check_text_size(bytes)
    }

    /// Starts learning BPE merges of the text with the `bpeVocabSize` and `bpeMode` of
    /// `params`; `bpe_step` then advances it, so the worker can report and cancel.
    pub fn bpe_begin(&mut self, params: JsValue) -> Result<JsValue, JsError> {
        let config = parse_params(params)?.bpe_config().map_err(js_error)?;
        check_bpe_size(self.text.len())?;
        let learner = BpeLearner::new(&self.text, &config).map_err(js_error)?;
        let progress = learner.progress();
        self.learner = Some(Bpe { config, state: learner });
        to_js(&BpeProgressDto::from(progress))
    }

    /// Learns at most `max_merges` more merges (`BpeProgressDto`). When learning is done the
    /// model is kept for `prepare` and for `token_info`.
    pub fn bpe_step(&mut self, max_merges: usize) -> Result<JsValue, JsError> {
        let learner = self.learner.as_mut().ok_or_else(|| JsError::new("no BPE learning in progress"))?;
        let progress = learner.state.step(max_merges);
        if progress.done {
            let Bpe { config, state } = self.learner.take().expect("checked above");
            self.bpe = Some(Bpe { config, state: Rc::new(BpeTokenizer::new(state.into_model())) });
        }
        to_js(&BpeProgressDto::from(progress))
    }

    /// Tokenizes the text (`set_text`), builds the vocabulary and a fresh trainer, replacing
    /// any earlier one. Returns the text's statistics (`CorpusStats`). Nothing is trained
    /// yet. With the BPE tokenizer it uses the merges `bpe_begin`/`bpe_step` learned for this
    /// configuration, learning them here, in one go, when there are none. `prepare_begin`,
    /// `prepare_step` and `prepare_finish` do the same a piece at a time.
    pub fn prepare(&mut self, params: JsValue) -> Result<JsValue, JsError> {
        self.prepare_begin(params)?;
        self.prepare_step(usize::MAX)?;
        self.prepare_finish()
    }

    /// Starts tokenizing the text for `params` (checked here); `prepare_step` goes on.
    pub fn prepare_begin(&mut self, params: JsValue) -> Result<(), JsError> {
        self.preparing = None;
        let params = parse_params(params)?;
        params.train_config().validate().map_err(js_error)?;
        params.vocab_config().validate().map_err(js_error)?;
        let tokenizer: Box<dyn Tokenizer> = match params.word_tokenizer().map_err(js_error)? {
            Some(tokenizer) => tokenizer,
            None => {
                check_bpe_size(self.text.len())?;
                self.learn_bpe(params.bpe_config().map_err(js_error)?)?;
                Box::new(Rc::clone(&self.bpe.as_ref().expect("learn_bpe leaves a model").state))
            }
        };
        let described = tokenizer.describe();
        self.preparing =
            Some(Preparing { builder: CorpusBuilder::new(tokenizer), fed: 0, params, tokenizer: described });
        Ok(())
    }

    /// Tokenizes about `max_bytes` more of the text; returns the fraction done.
    pub fn prepare_step(&mut self, max_bytes: usize) -> Result<f64, JsError> {
        let preparing = self.preparing.as_mut().ok_or_else(|| JsError::new("no text is being prepared"))?;
        let text = &self.text;
        let mut end = preparing.fed.saturating_add(max_bytes.max(1)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        preparing.builder.feed(&text[preparing.fed..end]);
        preparing.fed = end;
        Ok(if text.is_empty() { 1.0 } else { end as f64 / text.len() as f64 })
    }

    /// Finishes the vocabulary and makes a fresh trainer (see `prepare`); returns `CorpusStats`.
    pub fn prepare_finish(&mut self) -> Result<JsValue, JsError> {
        let Preparing { builder, fed, params, tokenizer } =
            self.preparing.take().ok_or_else(|| JsError::new("no text is being prepared"))?;
        if fed < self.text.len() {
            return Err(JsError::new("the text is not tokenized to its end yet"));
        }
        let (vocab_config, train_config) = (params.vocab_config(), params.train_config());
        let corpus = builder.finish(&vocab_config).map_err(js_error)?;
        let text = &self.text;
        let run_id = fingerprint(text, &tokenizer, &vocab_config, &train_config);
        let stats = CorpusStats::new(text, &corpus, vocab_config.min_count, run_id.clone());
        let trainer = Trainer::new(corpus, train_config, clock).map_err(js_error)?;
        if params.tokenizer != "bpe" {
            self.bpe = None;
        }
        self.trainer = Some(trainer);
        self.fingerprint = run_id;
        self.trained_params = Some(params.to_json().map_err(js_error)?);
        self.opened = None;
        self.snapshot = None;
        self.diverged = false;
        self.frame = None;
        self.layout = None;
        self.history = Some(NeighbourHistory::for_vocabulary(self.vocab_size()));
        to_js(&stats)
    }

    /// Where `token` came from: its count and frequency rank, the BPE merge that made it and
    /// whether it spans words (BPE only), and up to `max_lines` lines of the text holding it.
    pub fn token_info(&self, token: &str, max_lines: usize) -> Result<JsValue, JsError> {
        let trainer = self.trainer.as_ref().ok_or_else(no_text)?;
        let vocab = trainer.corpus().vocab();
        let rank =
            vocab.id(token).ok_or_else(|| js_error(Error::UnknownWords(vec![token.to_string()])))? as usize;
        let provenance = self.bpe.as_ref().and_then(|bpe| bpe.state.model().provenance(token));
        to_js(&TokenInfoDto {
            token: token.to_string(),
            rank,
            count: vocab.counts()[rank],
            merge: provenance.as_ref().and_then(MergeDto::of),
            spans_words: provenance.is_some_and(|p| p.spans_words),
            concordance: concordance(&self.text, token, max_lines),
        })
    }

    /// Trains on at most `max_tokens` more tokens and returns the progress (`ProgressDto`).
    pub fn step(&mut self, max_tokens: f64) -> Result<JsValue, JsError> {
        let max_tokens = max_tokens.max(0.0) as u64;
        // Through the pool, which ends this instance with a message if a thread panics.
        let stepped = self.pool.step(&mut self.trainer, max_tokens).ok_or_else(no_text)?;
        let trainer = self.trainer.as_mut().ok_or_else(no_text)?;
        let progress = match stepped {
            Ok(progress) => progress,
            Err(err @ Error::Diverged { .. }) => {
                self.diverged = true;
                let kept = match &self.snapshot {
                    Some((tokens, _)) => {
                        format!("the vectors from before it ({} tokens trained) are kept for queries", tokens)
                    }
                    None => "it happened before any vectors were kept".to_string(),
                };
                return Err(JsError::new(&format!("{err}; {kept}")));
            }
            Err(err) => return Err(js_error(err)),
        };
        let out = to_js(&ProgressDto::new(progress.clone(), trainer.epoch_losses()))?;
        // A chunk stops at an epoch's end, so this sees every epoch end once, whatever the chunks.
        if progress.epoch_tokens > 0 && progress.epoch_tokens_done == progress.epoch_tokens {
            let embeddings = self.embeddings()?;
            if let Some(history) = &mut self.history {
                history.record(&embeddings, progress.epoch, progress.tokens_done);
            }
        }
        Ok(out)
    }

    /// `word`'s `k` nearest neighbours (at most `NEIGHBOUR_K`) at the end of each epoch kept
    /// (`NeighbourHistory` in www/protocol.js): of the trainer, or of an opened bundle; null
    /// for vectors without a history (opened from a word2vec, GloVe or Projector file). Fails
    /// for a word outside the most frequent ones kept.
    pub fn neighbour_history(&mut self, word: &str, k: usize) -> Result<JsValue, JsError> {
        let embeddings = self.embeddings()?;
        match self.kept_history() {
            Some(history) => super::timeline::word_history(history, &embeddings, word, k),
            None => Ok(JsValue::NULL),
        }
    }

    /// Trains on `threads` threads from now on: the pool is rebuilt when its size changes.
    /// In the threaded build the worker must have started that many host workers first
    /// (www/threads.js); the single-threaded build takes 1 only.
    pub fn use_threads(&mut self, threads: usize) -> Result<(), JsError> {
        self.pool.resize(threads).map_err(|e| JsError::new(&e))
    }

    /// The threads training runs on: the pool's `current_num_threads()`, or 1 without one.
    pub fn threads(&self) -> usize {
        self.pool.threads()
    }

    /// Runs a job on every thread of the pool at once (rayon's `broadcast`) and returns how
    /// many distinct threads ran it: proof that the pool's threads are really there and
    /// working, for the page and the browser tests.
    pub fn threads_working(&self) -> usize {
        let ran_on = self.pool.install(|| rayon::broadcast(|_| std::thread::current().id()));
        let mut distinct = Vec::new();
        for id in ran_on {
            if !distinct.contains(&id) {
                distinct.push(id);
            }
        }
        distinct.len()
    }

    /// The progress without training.
    pub fn progress(&self) -> Result<JsValue, JsError> {
        let trainer = self.trainer.as_ref().ok_or_else(no_text)?;
        to_js(&ProgressDto::new(trainer.progress(), trainer.epoch_losses()))
    }

    /// Number of words in the vocabulary (0 before `prepare`).
    pub fn vocab_size(&self) -> usize {
        self.trainer.as_ref().map_or(0, |t| t.corpus().vocab().len())
    }

    /// The `k` nearest neighbours of `word` by cosine (`NeighbourDto[]`).
    pub fn neighbours(&mut self, word: &str, k: usize) -> Result<JsValue, JsError> {
        let list = self.embeddings()?.neighbours(word, k, None).map_err(js_error)?;
        to_js(&list.into_iter().map(NeighbourDto::from).collect::<Vec<_>>())
    }

    /// "a is to b as c is to ?", by 3CosAdd and 3CosMul (`AnalogyDto`).
    pub fn analogy(&mut self, a: &str, b: &str, c: &str, k: usize) -> Result<JsValue, JsError> {
        let emb = self.embeddings()?;
        let answer = |method| -> Result<Vec<NeighbourDto>, JsError> {
            let list = emb.analogy(a, b, c, k, method, None).map_err(js_error)?;
            Ok(list.into_iter().map(NeighbourDto::from).collect())
        };
        to_js(&AnalogyDto {
            cos_add: answer(AnalogyMethod::CosAdd)?,
            cos_mul: answer(AnalogyMethod::CosMul)?,
        })
    }

    /// Up to `limit` vocabulary words starting with `prefix` (any case), most frequent first.
    pub fn complete(&mut self, prefix: &str, limit: usize) -> Result<Vec<String>, JsError> {
        let emb = self.embeddings()?;
        Ok(emb.complete(prefix, limit).into_iter().map(|i| emb.word(i).to_string()).collect())
    }

    /// A frame of the map for `view` (`ViewSettings` in www/protocol.js): the words it
    /// shows on two axes, each a principal component or defined by two words, aligned to
    /// the previous frame where its axes may turn, coloured by k-means clusters that start
    /// from the previous frame's. Returns `ProjectionDto` (its words as `wordsId`, see
    /// `frame_words`) plus `coords`, a `Float32Array` of `[x0, y0, x1, y1, …]`, and
    /// `clusters`, a `Uint16Array` of each word's cluster or null, both of which the worker
    /// can transfer to the page without copying. A view that fails (an unknown word, a bad
    /// number) leaves the last frame as it was.
    pub fn project(&mut self, view: JsValue) -> Result<JsValue, JsError> {
        let view: ViewDto = serde_wasm_bindgen::from_value(view)
            .map_err(|e| JsError::new(&format!("bad view settings: {e}")))?;
        self.project_view(view)
    }

    /// `project` with the `n_words` most frequent words on principal components `x` and `y`
    /// (0-based), uncoloured: the map before word axes (`tests/bench/worker.js` times it).
    pub fn projection(&mut self, n_words: usize, x: usize, y: usize) -> Result<JsValue, JsError> {
        self.project_view(ViewDto { n_words, x_component: x, y_component: y, ..ViewDto::default() })
    }

    /// The words of the last frame (`project`'s or `layout_frame`'s), whose `wordsId` is `id`,
    /// most frequent first. Fails when a later frame showed other words.
    pub fn frame_words(&self, id: u32) -> Result<Vec<String>, JsError> {
        if id == 0 || id != self.frame_words.id {
            return Err(JsError::new(&format!("word list {id} gave way to list {}", self.frame_words.id)));
        }
        Ok(self.frame_words.words.clone())
    }

    /// Coordinates of `words` in the last frame (`Float32Array`, NaN for an unknown word),
    /// to add neighbours that are not among the plotted words.
    pub fn place_words(&mut self, words: Vec<String>) -> Result<Float32Array, JsError> {
        let emb = self.embeddings()?;
        let Some(frame) = &self.frame else {
            return Err(JsError::new("no projection yet: draw the plot first"));
        };
        let coords: Vec<f32> = words
            .iter()
            .flat_map(|word| emb.index_of(word).map_or([f32::NAN; 2], |i| frame.place(&emb, i)))
            .collect();
        Ok(Float32Array::from(coords.as_slice()))
    }

    /// Starts a t-SNE or UMAP map for `view` (`ViewSettings` with `method` 'tsne' or 'umap'
    /// and its `layout` parameters) of the `nWords` most frequent words (all, when the
    /// vocabulary is smaller) of the vectors as they are now; `layout_step` builds and runs
    /// it. With `warm`, when the map before was of the same method and word count, it starts
    /// from that map's coordinates with warm parameters (t-SNE: 250 iterations without
    /// exaggeration; UMAP: 100 epochs at learning rate 0.1), so a map drawn while training
    /// moves on rather than starting over. Returns `LayoutProgress`. Bad parameters or too
    /// few words fail here with the core's message, and the map before stays.
    pub fn layout_begin(&mut self, view: JsValue, warm: bool) -> Result<JsValue, JsError> {
        let view: ViewDto = serde_wasm_bindgen::from_value(view)
            .map_err(|e| JsError::new(&format!("bad view settings: {e}")))?;
        let (method, params) = match view.layout_params().map_err(js_error)? {
            Some(params @ LayoutParams::Tsne(_)) => ("tsne", params),
            Some(params @ LayoutParams::Umap(_)) => ("umap", params),
            None => return Err(JsError::new("layout_begin takes method 'tsne' or 'umap'")),
        };
        let embeddings = self.embeddings()?;
        let n_words = view.n_words.min(embeddings.len());
        let previous = self
            .layout
            .as_ref()
            .filter(|run| warm && run.method == method && run.n_words == n_words)
            .and_then(LayoutRun::coords);
        let (params, initial) = match previous {
            Some(coords) => (params.warm(), Some(coords.to_vec())),
            None => (params, None),
        };
        let iterations = match &params {
            LayoutParams::Tsne(p) => p.iterations,
            LayoutParams::Umap(p) => p.epochs_for(n_words),
        };
        let builder =
            LayoutBuilder::new(&embeddings, n_words, params, initial.as_deref()).map_err(js_error)?;
        let previous = self.layout.as_ref().and_then(|run| run.clusters.as_ref());
        let clusters = layout_clusters(&embeddings, n_words, view.clusters, previous)?;
        let run = LayoutRun {
            method,
            embeddings,
            n_words,
            iterations,
            state: LayoutState::Building { builder, initial },
            clusters,
            pacer: Pacer::new(FIRST_BUILD_UNITS),
            last_slice: SliceReport::default(),
        };
        let progress = run.progress();
        self.layout = Some(run);
        to_js(&progress)
    }

    /// Colours the running map's words by `k` k-means clusters (0: none), from the vectors
    /// it is built from, without starting it again: the colouring changed, not the map. The
    /// clusters start from the old ones when `k` is the same. A bad `k` fails with the
    /// core's message, and the colours before stay.
    pub fn layout_set_clusters(&mut self, k: usize) -> Result<(), JsError> {
        let run = self.layout.as_mut().ok_or_else(no_layout)?;
        run.clusters = layout_clusters(&run.embeddings, run.n_words, k, run.clusters.as_ref())?;
        Ok(())
    }

    /// Does about `budget_ms` milliseconds more of the map, in pieces a `Pacer` sizes from
    /// their measured time (the units' costs were calibrated natively and differ in wasm):
    /// building its graph and its start, then moving its points, stopping within a t-SNE
    /// iteration or a UMAP epoch. A phase that ends ends the call. Returns `LayoutProgress`.
    pub fn layout_step(&mut self, budget_ms: f64) -> Result<JsValue, JsError> {
        // Taken out while it steps: a layout whose finish fails is dropped.
        let mut run = self.layout.take().ok_or_else(no_layout)?;
        let budget = budget_ms.max(0.0) / 1000.0;
        let mut clock = clock;
        let (embeddings, pacer, n_words) = (&run.embeddings, &mut run.pacer, run.n_words);
        run.state = match run.state {
            LayoutState::Building { mut builder, initial } => {
                let phase = builder.phase();
                run.last_slice = pacer.run(budget, builder.stage(), &mut clock, |units| {
                    let now = builder.step(embeddings, units.min(u64::MAX as f64) as u64);
                    Piece { units, stage: builder.stage(), finished: now != phase }
                });
                if builder.phase() == LayoutPhase::Layout {
                    // Its points' pieces are of other units.
                    *pacer = Pacer::new(FIRST_LAYOUT_POINTS);
                    LayoutState::Running(builder.finish(embeddings).map_err(js_error)?)
                } else {
                    LayoutState::Building { builder, initial }
                }
            }
            LayoutState::Running(mut layout) => {
                run.last_slice = pacer.run(budget, 0, &mut clock, |points| {
                    // At most an iteration a piece: a point's cost changes from one to the next
                    // as the map spreads (UMAP's first epochs sample few edges), so it is
                    // measured again at least that often.
                    let points = points.clamp(1.0, n_words.max(1) as f64);
                    let done = layout.step_points(points as usize).is_done();
                    Piece { units: points, stage: 0, finished: done }
                });
                LayoutState::Running(layout)
            }
        };
        let progress = run.progress();
        self.layout = Some(run);
        to_js(&progress)
    }

    /// The map as a frame in the shape of `project`'s (`ProjectionDto` with `explained`
    /// empty, `axisLabels` such as 't-SNE 1', the words as `wordsId`), plus `method` and
    /// `layoutProgress`, `coords`, a `Float32Array` the worker can transfer, and `clusters`;
    /// null while a cold start is still building its graph and has no coordinates yet.
    pub fn layout_frame(&mut self) -> Result<JsValue, JsError> {
        let run = self.layout.as_ref().ok_or_else(no_layout)?;
        let Some(coords) = run.coords() else { return Ok(JsValue::NULL) };
        let title = if run.method == "tsne" { "t-SNE" } else { "UMAP" };
        let frame = LayoutFrameDto {
            frame: ProjectionDto {
                words_id: self.frame_words.number(&run.embeddings, 0..run.n_words),
                explained: Vec::new(),
                x_component: 0,
                y_component: 1,
                axes: AxesDto::default(),
                isolated: false,
                axis_labels: [format!("{title} 1"), format!("{title} 2")],
            },
            method: run.method,
            layout_progress: run.progress(),
        };
        let serializer = serde_wasm_bindgen::Serializer::new()
            .serialize_missing_as_null(true)
            .serialize_maps_as_objects(true);
        let out = frame.serialize(&serializer).map_err(|e| JsError::new(&e.to_string()))?;
        set(&out, "coords", &Float32Array::from(coords))?;
        match &run.clusters {
            Some(clusters) => set(&out, "clusters", &js_sys::Uint16Array::from(clusters.labels()))?,
            None => set(&out, "clusters", &JsValue::NULL)?,
        }
        Ok(out)
    }

    /// Coordinates of `words` on the t-SNE or UMAP map (`Float32Array`): a shown word at its
    /// point, another at the point of its nearest shown word by cosine (a layout has no
    /// projection to place new words with), NaN for an unknown word.
    pub fn layout_place_words(&self, words: Vec<String>) -> Result<Float32Array, JsError> {
        let run = self.layout.as_ref().ok_or_else(no_layout)?;
        let coords = run.coords().ok_or_else(|| JsError::new("the map has no coordinates yet"))?;
        let emb = &run.embeddings;
        let placed: Vec<f32> = words
            .iter()
            .flat_map(|word| {
                let shown = match emb.index_of(word) {
                    Some(i) if i < run.n_words => Some(i),
                    Some(_) => emb
                        .neighbours(word, 1, Some(run.n_words))
                        .ok()
                        .and_then(|n| n.first().map(|n| n.word_idx)),
                    None => None,
                };
                shown.map_or([f32::NAN; 2], |i| [coords[2 * i], coords[2 * i + 1]])
            })
            .collect();
        Ok(Float32Array::from(placed.as_slice()))
    }

    /// What a file is, from its first bytes (and its name when they cannot tell): `"bundle"`,
    /// a vectors format for `load_begin`, or `undefined` for a text to train on.
    pub fn sniff(&self, head: &[u8], name: &str) -> Option<String> {
        if Bundle::sniff(head) {
            return Some("bundle".into());
        }
        VectorFormat::sniff(head)
            .or_else(|| VectorFormat::from_file_name(name))
            .map(format_id)
            .map(String::from)
    }

    /// Starts reading the vectors file `name` in `format` (as `sniff` names it); `metadata`
    /// is the text of a Projector `metadata.tsv` that goes with a `vectors.tsv`. `load_push`
    /// then takes the file a slice at a time, so the worker can report progress.
    pub fn load_begin(&mut self, format: &str, name: &str, metadata: Option<String>) -> Result<(), JsError> {
        let format = VectorFormat::ALL
            .into_iter()
            .find(|f| format_id(*f) == format)
            .ok_or_else(|| JsError::new(&format!("unknown vectors format '{format}'")))?;
        let parser = match metadata {
            Some(text) if format == VectorFormat::ProjectorTsv => {
                VectorsParser::with_metadata(&text).map_err(|e| js_error_in("metadata.tsv", e))?
            }
            _ => VectorsParser::new(format),
        };
        self.loading = Some((name.to_string(), parser));
        Ok(())
    }

    /// Parses the next slice of the file; returns the number of words read so far. A
    /// malformed file fails here, naming the line.
    pub fn load_push(&mut self, bytes: &[u8]) -> Result<usize, JsError> {
        let (name, parser) =
            self.loading.as_mut().ok_or_else(|| JsError::new("no vectors file is being read"))?;
        if let Err(err) = parser.push(bytes) {
            let error = js_error_in(name, err);
            self.loading = None;
            return Err(error);
        }
        Ok(parser.words_read())
    }

    /// Forgets a vectors file being read.
    pub fn load_cancel(&mut self) {
        self.loading = None;
    }

    /// Finishes reading the vectors file and makes its vectors the ones queried, replacing
    /// any text and training (`VectorsInfo`).
    pub fn load_finish(&mut self, bytes: f64) -> Result<JsValue, JsError> {
        let (name, parser) =
            self.loading.take().ok_or_else(|| JsError::new("no vectors file is being read"))?;
        let format = parser.format().name();
        let embeddings = parser.finish().map_err(|e| js_error_in(&name, e))?;
        let info = VectorsInfo::new(format, &embeddings, bytes, false, None);
        self.open(Opened {
            embeddings: Rc::new(embeddings),
            counts: None,
            params: None,
            fingerprint: None,
            epoch_losses: Vec::new(),
            timeline: None,
        });
        to_js(&info)
    }

    /// Opens a bundle (as `export_bundle` writes) and makes its vectors the ones queried.
    /// Returns `{ info: VectorsInfo, params, epochLosses, timeline }`, `params` being the
    /// training parameters the bundle holds (or null), `timeline` its frames (`TimelineData`
    /// in www/protocol.js, or null).
    pub fn open_bundle(&mut self, text: &str, name: &str, bytes: f64) -> Result<JsValue, JsError> {
        let bundle = embed::read_bundle(text).map_err(|e| js_error_in(name, e))?;
        let info = VectorsInfo::new(
            "embedscope bundle",
            &bundle.embeddings,
            bytes,
            bundle.counts.is_some(),
            bundle.fingerprint.clone(),
        );
        let out = JsValue::from(Object::new());
        set(&out, "info", &to_js(&info)?)?;
        let params = match &bundle.params {
            Some(params) => JSON::parse(&json::to_json(params))
                .map_err(|_| JsError::new("the bundle's parameters are not JSON"))?,
            None => JsValue::NULL,
        };
        set(&out, "params", &params)?;
        set(&out, "epochLosses", &to_js(&bundle.epoch_losses)?)?;
        let timeline = match &bundle.timeline {
            Some(timeline) => super::timeline::to_js(timeline, &bundle.embeddings)?,
            None => JsValue::NULL,
        };
        set(&out, "timeline", &timeline)?;
        self.open(Opened {
            embeddings: Rc::new(bundle.embeddings),
            counts: bundle.counts,
            params: bundle.params,
            fingerprint: bundle.fingerprint,
            epoch_losses: bundle.epoch_losses,
            timeline: bundle.timeline,
        });
        Ok(out)
    }

    /// The vectors with their counts, parameters, fingerprint and losses as an embedscope
    /// bundle (JSON bytes), which `open_bundle` re-opens exactly. Trained vectors carry the
    /// parameters they were trained with; opened ones keep what their file held (none for a
    /// word2vec or GloVe file). The vectors are written from where they are, not copied.
    /// `timeline` is the page's frames (`TimelineData` in www/protocol.js, or null); the
    /// bundle holds them with the neighbours of each epoch the session kept.
    pub fn export_bundle(&mut self, timeline: JsValue) -> Result<Vec<u8>, JsError> {
        let embeddings = self.embeddings()?;
        let timeline = super::timeline::from_js(&timeline, &embeddings, self.kept_history())?;
        let mut bundle = BundleRef { timeline: timeline.as_ref(), ..BundleRef::new(&embeddings) };
        if let Some(opened) = &self.opened {
            bundle = BundleRef {
                counts: opened.counts.as_deref(),
                params: opened.params.as_ref(),
                fingerprint: opened.fingerprint.as_deref(),
                epoch_losses: &opened.epoch_losses,
                ..bundle
            };
        } else if let Some(trainer) = &self.trainer {
            bundle = BundleRef {
                counts: Some(trainer.corpus().vocab().counts()),
                params: self.trained_params.as_ref(),
                fingerprint: Some(&self.fingerprint),
                epoch_losses: trainer.epoch_losses(),
                ..bundle
            };
        }
        let mut out = Vec::new();
        embed::write_bundle(bundle, &mut out).map_err(js_error)?;
        Ok(out)
    }

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
            let report = embed::evaluate_similarity(&embeddings, &set, options).map_err(js_error)?;
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

    /// The vectors in word2vec text format (UTF-8 bytes: the page makes a file of them, so
    /// they are never decoded into a JavaScript string).
    pub fn export_word2vec(&mut self) -> Result<Vec<u8>, JsError> {
        self.export_with(|emb, out| embed::write_word2vec_text(emb, out))
    }

    /// The vectors in word2vec binary format.
    pub fn export_word2vec_binary(&mut self) -> Result<Vec<u8>, JsError> {
        self.export_with(|emb, out| embed::write_word2vec_binary(emb, out))
    }

    /// The TensorFlow Embedding Projector's `vectors.tsv` (UTF-8 bytes).
    pub fn export_projector_vectors(&mut self) -> Result<Vec<u8>, JsError> {
        self.export_with(|emb, out| embed::write_projector_vectors(emb, out))
    }

    /// The TensorFlow Embedding Projector's `metadata.tsv`, the words (UTF-8 bytes).
    pub fn export_projector_metadata(&mut self) -> Result<Vec<u8>, JsError> {
        self.export_with(|emb, out| embed::write_projector_metadata(emb, out))
    }
}

impl Session {
    /// The neighbours per epoch of the vectors queried: the trainer's, or an opened bundle's.
    fn kept_history(&self) -> Option<&NeighbourHistory> {
        match &self.opened {
            Some(opened) => opened.timeline.as_ref().and_then(|t| t.neighbours.as_ref()),
            None => self.history.as_ref(),
        }
    }

    fn project_view(&mut self, view: ViewDto) -> Result<JsValue, JsError> {
        if view.layout_params().map_err(js_error)?.is_some() {
            return Err(JsError::new("project draws 'pca' maps: t-SNE and UMAP go through layout_begin"));
        }
        let emb = self.embeddings()?;
        let frame = Projection::fit(&emb, &view.to_spec(), self.frame.as_ref()).map_err(js_error)?;
        // `axes` says null, not undefined, for an axis that is a principal component.
        let serializer = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
        let words_id = self.frame_words.number(&emb, frame.word_indices().iter().copied());
        let out = ProjectionDto::new(&view, &frame, words_id)
            .serialize(&serializer)
            .map_err(|e| JsError::new(&e.to_string()))?;
        set(&out, "coords", &Float32Array::from(frame.coords()))?;
        let clusters = frame.clusters().map_or(JsValue::NULL, |labels| Uint16Array::from(labels).into());
        set(&out, "clusters", &clusters)?;
        self.frame = Some(frame);
        Ok(out)
    }

    /// Makes sure `self.bpe` holds merges for `config`: those learned already, or the ones
    /// being learned, finished now, or new ones learned in one go.
    fn learn_bpe(&mut self, config: BpeConfig) -> Result<(), JsError> {
        if !self.bpe.as_ref().is_some_and(|b| b.config == config) {
            let mut learner = match self.learner.take() {
                Some(l) if l.config == config => l.state,
                _ => BpeLearner::new(&self.text, &config).map_err(js_error)?,
            };
            while !learner.step(usize::MAX).done {}
            self.bpe = Some(Bpe { config, state: Rc::new(BpeTokenizer::new(learner.into_model())) });
        }
        Ok(())
    }

    /// Replaces the text; whatever was learned from or opened before it is gone.
    /// The queried vectors written by `write`, one of the core's writers, into bytes.
    fn export_with(
        &mut self,
        write: impl FnOnce(&Embeddings, &mut Vec<u8>) -> Result<(), Error>,
    ) -> Result<Vec<u8>, JsError> {
        let mut out = Vec::new();
        write(&*self.embeddings()?, &mut out).map_err(js_error)?;
        Ok(out)
    }

    fn replace_text(&mut self, text: String) {
        // The pool is the worker's, not the text's: it stays. So does the numbering of word
        // lists: the worker tells the page's lists by number, so a number never names two.
        let pool = std::mem::take(&mut self.pool);
        let frame_words = std::mem::take(&mut self.frame_words);
        *self = Session { text, pool, frame_words, ..Session::default() };
    }

    /// The vectors to query: those opened from a file, or those trained so far, copied out
    /// of the trainer only when it has moved on since the last copy.
    fn embeddings(&mut self) -> Result<Rc<Embeddings>, JsError> {
        if let Some(opened) = &self.opened {
            return Ok(Rc::clone(&opened.embeddings));
        }
        let trainer = self.trainer.as_ref().ok_or_else(no_text)?;
        if self.diverged {
            return match &self.snapshot {
                Some((_, last_good)) => Ok(Rc::clone(last_good)),
                None => Err(JsError::new(
                    "training diverged before any vectors were kept: lower the learning rate alpha and train again",
                )),
            };
        }
        let tokens_done = trainer.progress().tokens_done;
        if self.snapshot.as_ref().is_none_or(|(tokens, _)| *tokens != tokens_done) {
            self.snapshot = Some((tokens_done, Rc::new(trainer.to_embeddings().map_err(js_error)?)));
        }
        Ok(Rc::clone(&self.snapshot.as_ref().expect("set above").1))
    }

    /// Replaces the text, the trainer and the plot with vectors opened from a file.
    fn open(&mut self, opened: Opened) {
        let pool = std::mem::take(&mut self.pool);
        let frame_words = std::mem::take(&mut self.frame_words);
        *self = Session { opened: Some(opened), pool, frame_words, ..Session::default() };
    }
}

fn parse_params(params: JsValue) -> Result<Params, JsError> {
    serde_wasm_bindgen::from_value(params).map_err(|e| JsError::new(&format!("bad training parameters: {e}")))
}

/// The largest text the explorer takes: its copy in wasm memory, the tokens, the vectors
/// and the snapshots must fit in the 4 GiB a wasm instance can have, with room to spare.
/// The command-line tool has no such limit.
const MAX_TEXT_BYTES: f64 = 250e6;

/// The largest text BPE learns merges from in the explorer: learning keeps several words of
/// bookkeeping per character (pairs, their counts, the queue).
const MAX_BPE_TEXT_BYTES: usize = 32_000_000;

fn megabytes(bytes: f64) -> String {
    format!("{:.0} MB", bytes / 1e6)
}

fn check_text_size(bytes: f64) -> Result<(), JsError> {
    if bytes > MAX_TEXT_BYTES {
        return Err(JsError::new(&format!(
            "this file is {}, and the explorer takes texts up to {}: open a part of it, or train on it \
             with the command-line tool (embedscope train), which has no such limit",
            megabytes(bytes),
            megabytes(MAX_TEXT_BYTES)
        )));
    }
    Ok(())
}

fn check_bpe_size(bytes: usize) -> Result<(), JsError> {
    if bytes > MAX_BPE_TEXT_BYTES {
        return Err(JsError::new(&format!(
            "BPE learns its merges from texts up to {} in the explorer, and this one is {}: choose the \
             word or whitespace tokenizer, or open a part of the text",
            megabytes(MAX_BPE_TEXT_BYTES as f64),
            megabytes(bytes as f64)
        )));
    }
    Ok(())
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
    let fields: Vec<&str> = first.split_whitespace().collect();
    fields.len() == 4 && fields[2].parse::<f64>().is_err() && fields[3].parse::<f64>().is_err()
}

/// The id of a vectors format between the worker and the session.
fn format_id(format: VectorFormat) -> &'static str {
    match format {
        VectorFormat::Word2VecText => "word2vec-text",
        VectorFormat::Word2VecBinary => "word2vec-binary",
        VectorFormat::Glove => "glove",
        VectorFormat::ProjectorTsv => "projector-tsv",
    }
}

/// An error about a file, naming it: "vectors.txt: malformed vectors file, line 7: …".
fn js_error_in(name: &str, err: Error) -> JsError {
    JsError::new(&format!("{name}: {err}"))
}

/// The k-means colours of a map of the `n_words` most frequent words of `embeddings`, `k`
/// clusters (0: none), warm from `previous`.
fn layout_clusters(
    embeddings: &Embeddings,
    n_words: usize,
    k: usize,
    previous: Option<&KMeans>,
) -> Result<Option<KMeans>, JsError> {
    if k == 0 {
        return Ok(None);
    }
    let dim = embeddings.dim();
    frame_clusters(&embeddings.unit()[..n_words * dim], dim, k, previous).map(Some).map_err(js_error)
}

/// How `session`'s last `layout_step` went: `{pieces, longestPieceMs, longestExpectedMs}`
/// (the last null for a phase's first piece), for scripts/bench-layout.mjs. A free function,
/// not a method, so that the production bundle drops its glue with the export (vite.config.js
/// strips the `_for_test` exports; a class keeps every method's wrapper).
#[wasm_bindgen]
pub fn layout_slice_for_test(session: &Session) -> Result<JsValue, JsError> {
    let run = session.layout.as_ref().ok_or_else(no_layout)?;
    let report = &run.last_slice;
    let out: JsValue = Object::new().into();
    set(&out, "pieces", &report.pieces.into())?;
    set(&out, "longestPieceMs", &(report.longest_piece * 1000.0).into())?;
    set(&out, "longestExpectedMs", &report.longest_expected.map_or(JsValue::NULL, |s| (s * 1000.0).into()))?;
    Ok(out)
}

fn no_layout() -> JsError {
    JsError::new("no t-SNE or UMAP map has been started")
}

fn no_text() -> JsError {
    JsError::new("no text loaded yet: choose a file or the built-in sample first")
}

fn set(target: &JsValue, key: &str, value: &JsValue) -> Result<(), JsError> {
    Reflect::set(target, &key.into(), value)
        .map(|_| ())
        .map_err(|_| JsError::new("cannot build the result object"))
}
