// @ts-check
// The training worker's map frames: the map spec the frames use, the PCA frames it makes
// (on request, and between training chunks when frame-pacing.js says one is due), the t-SNE
// and UMAP maps it hands to layout.js, and the word lists the page already has, so a frame
// of a list it has goes without its words.
import { post, reportError } from './messages.js';
import { isLayout, LayoutRunner } from './layout.js';
import { FramePacer } from './frame-pacing.js';

/** @typedef {import('../protocol.js').MapSpec} MapSpec */
/** @typedef {import('../pkg/embedscope.js').Session} Session */

export class Frames {
  /**
   * @param {Session} session
   * @param {import('./session-state.js').SessionState} state  names the model the frames show
   * @param {MapSpec} defaults  the wasm module's `default_map_spec`
   * @param {() => number} now  the worker's clock
   */
  constructor(session, state, defaults, now) {
    this.session = session;
    this.state = state;
    this.now = now;
    /** @type {MapSpec} the last map spec that gave a frame: the frames sent while training use it */
    this.mapSpec = { ...defaults, extraWords: [] };
    const { axes, isolate, clusters, method } = this.mapSpec;
    /**
     * What a map spec means where a field is missing (an older page): principal components of
     * the most frequent words, no colours; the fields of `default_map_spec` that a new model drops.
     * @type {Pick<MapSpec, 'axes'|'isolate'|'clusters'|'method'>}
     */
    this.plainMapSpec = { axes, isolate, clusters, method };
    /** When the next map frame is due while training (frame-pacing.js): it is told every chunk's and frame's time. */
    this.pacer = new FramePacer();
    /**
     * The `wordsId` of the last word list posted to the page. A frame of that list goes without
     * its words (the page keeps them, www/map/frame-words.js): at 20,000 words, making and posting
     * them took 20 to 30 ms a frame, which every query waited for.
     */
    this.sentWordsId = 0;
    /** The t-SNE or UMAP map, when the map spec is one. */
    this.layouts = new LayoutRunner(session, { model: () => state.model, postFrame: (frame, fields, transfer) => this.postFrame(frame, fields, transfer) });
  }

  /**
   * Posts `frame` (a session frame: `wordsId`, no words) with `fields`, its words added when the
   * page does not have its list yet.
   * @param {{wordsId: number, coords: Float32Array, clusters: Uint16Array|null}} frame
   * @param {object} fields @param {Transferable[]} transfer
   */
  postFrame(frame, fields, transfer) {
    const words = frame.wordsId === this.sentWordsId ? {} : { words: this.session.frame_words(frame.wordsId) };
    const buffers = [frame.coords.buffer, ...(frame.clusters ? [frame.clusters.buffer] : []), ...transfer];
    post({ type: 'projection', ...frame, ...words, ...fields }, buffers);
    this.sentWordsId = frame.wordsId;
  }

  /**
   * Posts a frame of `settings` (the current map spec unless told); throws, posting nothing and
   * keeping the last frame, when the session refuses the map spec (an unknown word, a bad number).
   * @param {number|null} id @param {MapSpec} settings
   */
  postProjection(id = null, settings = this.mapSpec) {
    const started = this.now();
    const frame = this.session.project(settings);
    const extraCoords = settings.extraWords.length ? this.session.place_words(settings.extraWords) : new Float32Array(0);
    const ended = this.now();
    if (id == null) this.pacer.framed(ended, ended - started);
    else this.pacer.requested(ended, ended - started);
    this.postFrame(frame, { id, model: this.state.model, extraWords: settings.extraWords, extraCoords }, [extraCoords.buffer]);
  }

  /**
   * A new model's frames start from the plain map spec (the page sends its map spec again): axes and
   * isolated words name words of the old vocabulary, and clusters may outnumber the new one's
   * words. A map spec that fails in the training loop would stop training.
   */
  usePlainView() {
    this.mapSpec = { ...this.mapSpec, ...this.plainMapSpec };
    this.layouts.cancel();
  }

  /**
   * The vectors moved on (an epoch ended, PROJECTION_INTERVAL_MS passed, training stopped):
   * a PCA frame now, or the t-SNE or UMAP map warm-started from where it stands.
   */
  showFreshVectors() {
    if (!isLayout(this.mapSpec)) {
      this.postProjection();
      return;
    }
    // Warm-starting the map costs nothing here: its slices run between chunks (layout.js).
    this.pacer.framed(this.now(), 0);
    if (this.layouts.refresh()) return;
    try {
      this.layouts.start(this.mapSpec, null, true);
    } catch (error) {
      // The map spec worked for other vectors; training goes on with a PCA map.
      this.mapSpec = { ...this.mapSpec, method: 'pca' };
      reportError(null)(error);
    }
  }

  /**
   * Whether a map frame is due after a chunk that brought training to `progress` (frame-pacing.js).
   * @param {import('../protocol.js').Progress} progress
   */
  due(progress) {
    return this.pacer.due(progress, this.now());
  }

  /**
   * The input rows the step mode's last updates moved, on the map just sent (`StepMovesDto`);
   * null when that map has nothing to place them on yet (a t-SNE or UMAP map still finding its
   * first coordinates, a frame that failed): the updates themselves went through, so that is
   * no error to show.
   * @returns {import('../protocol.js').StepMoves|null}
   */
  stepMoves() {
    try {
      return this.session.step_moves(isLayout(this.mapSpec) ? this.mapSpec.method : 'pca');
    } catch {
      return null;
    }
  }

  /**
   * The `project` request. A map spec that fails is answered with an error, and the frames while
   * training keep the last valid one. A t-SNE or UMAP map spec is answered by the map's first
   * frame; the map of the same method, word count and parameters goes on as it is (answered at
   * once, `extraWords` placed), any other map spec replaces it.
   * @param {number} id @param {MapSpec} settings
   */
  project(id, settings) {
    const next = { ...this.plainMapSpec, extraWords: [], ...settings };
    if (!isLayout(next)) {
      this.postProjection(id, next);
      this.layouts.cancel();
    } else {
      this.layouts.show(next, id);
    }
    this.mapSpec = next;
  }
}
