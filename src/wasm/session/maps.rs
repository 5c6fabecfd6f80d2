//! The map: PCA frames of the vectors (`project`), t-SNE and UMAP maps built and run a
//! slice at a time (`layout_begin`, `layout_step`), and the numbered word lists of their frames.

use js_sys::{Float32Array, Object, Uint16Array};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{Session, clock, js_error, set, to_js};
use crate::map::Projection;
use crate::session::LayoutRun;
use crate::wasm::dto::{AxesDto, LayoutFrameDto, LayoutProgressDto, MapSpecDto, ProjectionDto};

/// How far `run` is, for the page.
fn layout_progress(run: &LayoutRun) -> LayoutProgressDto {
    let (phase, progress) = run.progress();
    LayoutProgressDto::new(phase, progress, run.warm)
}

/// The map a model starts with ([`MapSpecDto::default`]: PC1 and PC2 of the 300 most
/// frequent words, no word axes, no colours), for the page's map settings and the worker's
/// first frames, so the default is written once.
#[wasm_bindgen(unchecked_return_type = "MapSpecDto")]
pub fn default_map_spec() -> Result<JsValue, JsError> {
    let serializer = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
    MapSpecDto::default().serialize(&serializer).map_err(|e| JsError::new(&e.to_string()))
}

#[wasm_bindgen]
impl Session {
    /// A frame of the map for `spec` (`MapSpec` in www/protocol.js): the words it
    /// shows on two axes, each a principal component or defined by two words, aligned to
    /// the previous frame where its axes may turn, coloured by k-means clusters that start
    /// from the previous frame's. Returns `ProjectionDto` (its words as `wordsId`, see
    /// `frame_words`) plus `coords`, a `Float32Array` of `[x0, y0, x1, y1, …]`, and
    /// `clusters`, a `Uint16Array` of each word's cluster or null, both of which the worker
    /// can transfer to the page without copying. A spec that fails (an unknown word, a bad
    /// number) leaves the last frame as it was.
    pub fn project(&mut self, spec: JsValue) -> Result<JsValue, JsError> {
        let spec: MapSpecDto = serde_wasm_bindgen::from_value(spec)
            .map_err(|e| JsError::new(&format!("bad map settings: {e}")))?;
        self.project_spec(spec)
    }

    /// `project` with the `n_words` most frequent words on principal components `x` and `y`
    /// (0-based), uncoloured: the map before word axes (`tests/bench/worker.js` times it).
    pub fn projection(&mut self, n_words: usize, x: usize, y: usize) -> Result<JsValue, JsError> {
        self.project_spec(MapSpecDto { n_words, x_component: x, y_component: y, ..MapSpecDto::default() })
    }

    /// The words of the last frame (`project`'s or `layout_frame`'s), whose `wordsId` is `id`,
    /// most frequent first. Fails when a later frame showed other words.
    pub fn frame_words(&self, id: u32) -> Result<Vec<String>, JsError> {
        Ok(self.core.frame_words.words(id).map_err(js_error)?.to_vec())
    }

    /// Coordinates of `words` in the last frame (`Float32Array`, NaN for an unknown word),
    /// to add neighbours that are not among the plotted words.
    pub fn place_words(&mut self, words: Vec<String>) -> Result<Float32Array, JsError> {
        let emb = self.embeddings()?;
        let Some(frame) = &self.core.frame else {
            return Err(JsError::new("no projection yet: draw the plot first"));
        };
        let coords: Vec<f32> = words
            .iter()
            .flat_map(|word| emb.index_of(word).map_or([f32::NAN; 2], |i| frame.place(&emb, i)))
            .collect();
        Ok(Float32Array::from(coords.as_slice()))
    }

    /// Starts a t-SNE or UMAP map for `spec` (`MapSpec` with `method` 'tsne' or 'umap'
    /// and its `layout` parameters) of the `nWords` most frequent words (all, when the
    /// vocabulary is smaller) of the vectors as they are now; `layout_step` builds and runs
    /// it. With `warm`, when the map before was of the same method and word count, it starts
    /// from that map's coordinates with warm parameters (t-SNE: 250 iterations without
    /// exaggeration; UMAP: 100 epochs at learning rate 0.1), so a map drawn while training
    /// moves on rather than starting over. Returns `LayoutProgress`. Bad parameters or too
    /// few words fail here with the core's message, and the map before stays.
    pub fn layout_begin(&mut self, spec: JsValue, warm: bool) -> Result<JsValue, JsError> {
        let spec: MapSpecDto = serde_wasm_bindgen::from_value(spec)
            .map_err(|e| JsError::new(&format!("bad map settings: {e}")))?;
        let params = match spec.layout_params().map_err(js_error)? {
            Some(params) => params,
            None => return Err(JsError::new("layout_begin takes method 'tsne' or 'umap'")),
        };
        let embeddings = self.embeddings()?;
        let previous = self.core.layout.as_ref();
        let run = LayoutRun::begin(params, embeddings, spec.n_words, spec.clusters, previous, warm)
            .map_err(js_error)?;
        let progress = layout_progress(&run);
        self.core.layout = Some(run);
        to_js(&progress)
    }

    /// Colours the running map's words by `k` k-means clusters (0: none), from the vectors
    /// it is built from, without starting it again: the colouring changed, not the map. The
    /// clusters start from the old ones when `k` is the same. A bad `k` fails with the
    /// core's message, and the colours before stay.
    pub fn layout_set_clusters(&mut self, k: usize) -> Result<(), JsError> {
        self.core.layout.as_mut().ok_or_else(no_layout)?.set_clusters(k).map_err(js_error)
    }

    /// Does about `budget_ms` milliseconds more of the map, in pieces a `Pacer` sizes from
    /// their measured time (the units' costs were calibrated natively and differ in wasm):
    /// building its graph and its start, then moving its points, stopping within a t-SNE
    /// iteration or a UMAP epoch. A phase that ends ends the call. Returns `LayoutProgress`.
    pub fn layout_step(&mut self, budget_ms: f64) -> Result<JsValue, JsError> {
        // Taken out while it steps: a layout whose finish fails is dropped.
        let run = self.core.layout.take().ok_or_else(no_layout)?;
        let (pool, mut clock) = (&self.pool, clock);
        // On the training threads where the page has them (t-SNE's iterations split among
        // them, to the same map); between training slices they idle.
        let run = run
            .step(budget_ms.max(0.0) / 1000.0, &mut clock, |layout, points| {
                pool.install(|| layout.step_points(points))
            })
            .map_err(js_error)?;
        let progress = layout_progress(&run);
        self.core.layout = Some(run);
        to_js(&progress)
    }

    /// The map as a frame in the shape of `project`'s (`ProjectionDto` with `explained`
    /// empty, `axisLabels` such as 't-SNE 1', the words as `wordsId`), plus `method` and
    /// `layoutProgress`, `coords`, a `Float32Array` the worker can transfer, and `clusters`;
    /// null while a cold start is still building its graph and has no coordinates yet.
    pub fn layout_frame(&mut self) -> Result<JsValue, JsError> {
        let run = self.core.layout.as_ref().ok_or_else(no_layout)?;
        let Some(coords) = run.coords() else { return Ok(JsValue::NULL) };
        let title = if run.method == "tsne" { "t-SNE" } else { "UMAP" };
        let frame = LayoutFrameDto {
            frame: ProjectionDto {
                words_id: self.core.frame_words.number(&run.embeddings, 0..run.n_words),
                explained: Vec::new(),
                x_component: 0,
                y_component: 1,
                axes: AxesDto::default(),
                isolated: false,
                axis_labels: [format!("{title} 1"), format!("{title} 2")],
            },
            method: run.method,
            layout_progress: layout_progress(run),
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
        let run = self.core.layout.as_ref().ok_or_else(no_layout)?;
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
}

impl Session {
    fn project_spec(&mut self, spec: MapSpecDto) -> Result<JsValue, JsError> {
        if spec.layout_params().map_err(js_error)?.is_some() {
            return Err(JsError::new("project draws 'pca' maps: t-SNE and UMAP go through layout_begin"));
        }
        let emb = self.embeddings()?;
        let frame = Projection::fit(&emb, &spec.to_spec(), self.core.frame.as_ref()).map_err(js_error)?;
        // `axes` says null, not undefined, for an axis that is a principal component.
        let serializer = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
        let words_id = self.core.frame_words.number(&emb, frame.word_indices().iter().copied());
        let out = ProjectionDto::new(&spec, &frame, words_id)
            .serialize(&serializer)
            .map_err(|e| JsError::new(&e.to_string()))?;
        set(&out, "coords", &Float32Array::from(frame.coords()))?;
        let clusters = frame.clusters().map_or(JsValue::NULL, |labels| Uint16Array::from(labels).into());
        set(&out, "clusters", &clusters)?;
        self.core.frame = Some(frame);
        Ok(out)
    }
}

/// How `session`'s last `layout_step` went: `{pieces, longestPieceMs, longestExpectedMs}`
/// (the last null for a phase's first piece), for scripts/bench-layout.mjs. A free function,
/// not a method, so that the production bundle drops its glue with the export (vite.config.js
/// strips the `_for_test` exports; a class keeps every method's wrapper).
#[wasm_bindgen]
pub fn layout_slice_for_test(session: &Session) -> Result<JsValue, JsError> {
    let run = session.core.layout.as_ref().ok_or_else(no_layout)?;
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
