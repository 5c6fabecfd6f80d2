// @ts-check
// The training worker's t-SNE and UMAP maps: `LayoutRunner` builds and steps the map of a
// map spec between training chunks and messages (`layout_begin`/`layout_step`/`layout_frame` in
// the session, which hold the vectors snapshot the map started on), posts a frame every
// LAYOUT_FRAME_MS while points move, and warm-starts the map from where it stands when
// training brings fresh vectors. It never spends more than one slice (LAYOUT_SLICE_MS, which
// `layout_step` keeps to by the clock) and then the frame, if one is due, before reading
// messages. worker.js decides which map spec is shown; PCA frames are its own.
import { CHUNK_MS, LAYOUT_FRAME_MS, SUPERSEDED } from '../protocol.js';
import { post, reportError, yieldToMessages } from './messages.js';

/** @typedef {import('../protocol.js').MapSpec} MapSpec */

/**
 * A map's slices aim at half a training chunk: a request that comes during one waits for the
 * rest of it, then for the frame posted after it, and is then answered within CHUNK_MS. The
 * session's pacer keeps a slice to this time however a phase's units cost in wasm.
 */
const LAYOUT_SLICE_MS = CHUNK_MS / 2;
const LOGGED_SLICES = 20_000;

/** @param {MapSpec} settings */
export const isLayout = (settings) => settings.method === 'tsne' || settings.method === 'umap';

/** What makes two map specs the same t-SNE or UMAP map: method, word count and parameters (not `extraWords`). */
function layoutKey(settings) {
  const layout = settings.layout ?? {};
  return JSON.stringify([settings.method, settings.nWords, Object.keys(layout).sort().map((k) => [k, layout[k]])]);
}

export class LayoutRunner {
  /**
   * @param {import('../pkg/embedscope.js').Session} session
   * @param {{model: () => number, postFrame: (frame: any, fields: object, transfer: Transferable[]) => void}} host
   *   worker.js: the model the session holds, and its `postFrame` (which adds a word list the page lacks)
   */
  constructor(session, host) {
    this.session = session;
    this.host = host;
    /**
     * The t-SNE or UMAP map being built or stepped (null with PCA): `id` is the `project`
     * request still waiting for its first frame; `fresh` says the vectors moved on since it
     * started, so it is to warm-start again; `buildMs` and `layoutMs` are the time spent building
     * its graph and moving its points.
     * @type {{id: number|null, key: string, settings: MapSpec, progress: import('../protocol.js').LayoutProgress,
     *   fresh: boolean, buildMs: number, layoutMs: number, lastFrameAt: number, loggedPhase?: string}|null}
     */
    this.job = null;
    /** Whether `run` is stepping the map. */
    this.running = false;
    /**
     * On the dev server only, every turn of `run` (its slice and the frame it posted, in ms),
     * for scripts/bench-layout.mjs through the `layoutSlices` test hook; at most LOGGED_SLICES kept.
     * and the session's account of the slice's pieces (the wasm test export `layout_slice_for_test`).
     * @type {{phase: string, budget: number, sliceMs: number, frameMs: number, posted: boolean, first: boolean, ended: boolean,
     *   iteration: number, pieces?: number, longestPieceMs?: number, longestExpectedMs?: number|null}[]}
     */
    this.sliceLog = [];
    /** The module's `layout_slice_for_test`, on the dev server only (set once the module is loaded). @type {((session: any) => object)|null} */
    this.sliceReport = null;
  }

  /** Drops the map being built or stepped; a `project` still waiting for its frame is told it was replaced. */
  cancel() {
    if (this.job?.id != null) post({ type: 'error', id: this.job.id, message: SUPERSEDED });
    this.job = null;
  }

  /**
   * Shows the t-SNE or UMAP map spec `next`, asked for by the request `id`: the map of the same
   * method, word count and parameters goes on as it is (answered at once, `extraWords`
   * placed), any other map spec replaces it (throws, changing nothing, when the session refuses it).
   * @param {MapSpec} next @param {number|null} id
   */
  show(next, id) {
    const job = this.job;
    if (job?.key === layoutKey(next)) {
      // Other colours recolour the map as it runs (a bad k throws here, and nothing changes).
      if ((next.clusters ?? 0) !== (job.settings.clusters ?? 0)) this.session.layout_set_clusters(next.clusters ?? 0);
      if (job.id != null) post({ type: 'error', id: job.id, message: SUPERSEDED });
      Object.assign(job, { id, settings: next });
      // Without coordinates yet, the frame comes when the graph is built.
      this.postFrame(job);
    } else {
      this.start(next, id, false);
    }
  }

  /**
   * The vectors moved on: the map being built or stepped warm-starts again (see `run`).
   * False when there is none, and `start` is then the caller's.
   */
  refresh() {
    if (!this.job) return false;
    this.job.fresh = true;
    this.run();
    return true;
  }

  /**
   * Starts a t-SNE or UMAP map of `settings` (throws, changing nothing, when the session
   * refuses it); `warm` starts from the map before when it is of the same method and word count.
   * @param {MapSpec} settings @param {number|null} id @param {boolean} warm
   */
  start(settings, id, warm) {
    const progress = this.session.layout_begin(settings, warm);
    const waiting = this.job?.id;
    if (waiting != null && waiting !== id) post({ type: 'error', id: waiting, message: SUPERSEDED });
    this.job = { id, key: layoutKey(settings), settings, progress, fresh: false, buildMs: 0, layoutMs: 0, lastFrameAt: 0 };
    this.run();
  }

  /** Posts the map as a `projection` frame, unless it has no coordinates yet; says whether it did. */
  postFrame(job) {
    const frame = this.session.layout_frame();
    if (frame == null) return false;
    const extraWords = job.settings.extraWords ?? [];
    const extraCoords = extraWords.length ? this.session.layout_place_words(extraWords) : new Float32Array(0);
    job.lastFrameAt = performance.now();
    // The parameters go with the frame, so the timeline records how its maps were made.
    this.host.postFrame(frame, { id: job.id, model: this.host.model(), layout: job.settings.layout ?? null, extraWords, extraCoords }, [extraCoords.buffer]);
    job.id = null;
    return true;
  }

  /**
   * Builds and steps the map a slice (LAYOUT_SLICE_MS, which the session keeps to) at a time, yielding to messages between
   * slices, and posts a frame every LAYOUT_FRAME_MS while the points move, until it is done.
   * Fresh vectors warm-start it again once it is done, or once moving its points has taken as
   * long as building its graph did, so that at least half the time goes to the map moving.
   * Training chunks run in between, as both loops yield through the same channel.
   */
  async run() {
    if (this.running) return;
    this.running = true;
    const session = this.session;
    try {
      while (this.job) {
        const job = this.job;
        const { phase, done } = job.progress;
        if (job.fresh && (done || (phase === 'layout' && job.layoutMs >= job.buildMs))) {
          job.progress = session.layout_begin(job.settings, true);
          Object.assign(job, { fresh: false, buildMs: 0, layoutMs: 0 });
          continue;
        }
        if (done) break;
        const budget = LAYOUT_SLICE_MS;
        const started = performance.now();
        job.progress = session.layout_step(budget);
        const elapsed = performance.now() - started;
        const first = job.loggedPhase !== phase;
        job.loggedPhase = phase;
        if (phase === 'layout') job.layoutMs += elapsed;
        else job.buildMs += elapsed;
        const moving = job.progress.phase === 'layout';
        const framed = performance.now();
        const posted = moving && (job.id != null || job.progress.done || performance.now() - job.lastFrameAt >= LAYOUT_FRAME_MS)
          && this.postFrame(job);
        if (import.meta.env.DEV && this.sliceLog.length < LOGGED_SLICES) {
          const ended = job.progress.phase !== phase || job.progress.done;
          const pieces = this.sliceReport?.(session);
          this.sliceLog.push({ phase, budget, sliceMs: elapsed, frameMs: performance.now() - framed, posted, first, ended, iteration: job.progress.iteration, ...pieces });
        }
        await yieldToMessages();
      }
    } catch (error) {
      const id = this.job?.id ?? null;
      this.job = null;
      reportError(id)(error);
    } finally {
      this.running = false;
    }
  }
}
