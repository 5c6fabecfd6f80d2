// @ts-check
// The training worker: loads the wasm module once, holds the one Session, answers the
// requests of www/protocol.js from a handler table, and learns BPE merges and trains in
// chunks so that queries, pause and stop are read between two chunks. Where the page is
// cross-origin isolated it loads the threaded module and trains on a pool of threads
// (www/threads.js), else the single-threaded one, and says why.
import { ThreadHosts, machineThreads, threadSupport } from './threads.js';
import { CHUNK_MS, FIRST_CHUNK_MERGES, FIRST_CHUNK_TOKENS, FIRST_LAYOUT_WORK, LAYOUT_FRAME_MS, LOAD_SLICE_BYTES, PROJECTION_INTERVAL_MS, SNIFF_BYTES, SUPERSEDED } from './protocol.js';

/** @typedef {import('./protocol.js').Request} Request */
/** @typedef {import('./protocol.js').Source} Source */
/** @typedef {import('./protocol.js').TrainingState} TrainingState */
/** @typedef {import('./protocol.js').ViewSettings} ViewSettings */

/**
 * Posts to the page. `self` is typed as a window here (the checker reads the page's lib), whose
 * postMessage takes a target origin; a worker's takes the transfer list second.
 * @type {(message: import('./protocol.js').WorkerMessage|object, transfer?: Transferable[]) => void}
 */
const post = (message, transfer = []) => /** @type {any} */ (self).postMessage(message, transfer);

/** The wasm module's exports: the threaded build (www/pkg-threads) or the single-threaded one (www/pkg). */
let wasm;
/** @type {import('./pkg/embedscope.js').Session} */
let session;
/** The pool's host workers, in the threaded module only. @type {ThreadHosts|null} */
let threadHosts = null;
/** @type {import('./protocol.js').ThreadsInfo} */
let threads;
/** @type {TrainingState} */
let state = 'idle';
/** The state now, unnarrowed: what an async function reads after an await. @returns {TrainingState} */
const currentState = () => state;
/** @type {TrainingState} what `stop` returns to while BPE merges are learned: the vectors from before stay */
let stateBeforeLearning = 'idle';
/** What the session's text came from ('sample', a File or a URL), so preparing again does not read it again. */
let textFrom = null;
/** @type {import('./protocol.js').TextInfo|null} how that text was read */
let textInfo = null;
let isSample = false;
/** What a view means where a field is missing (an older page): principal components of the most frequent words, no colours. */
/** @type {{axes: {x: null, y: null}, isolate: null, clusters: number, method: 'pca'}} */
const PLAIN_VIEW = { axes: { x: null, y: null }, isolate: null, clusters: 0, method: 'pca' };
/** @type {ViewSettings} the last view that gave a frame: the frames sent while training use it */
let view = { nWords: 300, xComponent: 0, yComponent: 1, extraWords: [], ...PLAIN_VIEW };
let chunkTokens = FIRST_CHUNK_TOKENS;
/** Counts evaluations, so a running one sees that a newer one replaced it. */
let evaluations = 0;
/** Counts the requests for a text (`prepare`, `learnBpe`) likewise. */
let textRequests = 0;
/** The text being read: where from, and the promise of its bytes (null for the sample). */
let reading = null;
/** Counts vectors files opened; `stop` moves it on, which cancels the one being read. */
let loads = 0;
/** @type {TrainingState} what `stop` returns to while a vectors file is read: what was there before */
let stateBeforeLoading = 'idle';
/**
 * Names the model the session holds (a prepared text or opened vectors). Frames and the
 * replies that install a model carry it, so the page drops a frame of a model it replaced.
 */
let model = 0;

let lastProjectionAt = 0;

/**
 * The t-SNE or UMAP map being built or stepped (null with PCA): `id` is the `project`
 * request still waiting for its first frame; `fresh` says the vectors moved on since it
 * started, so it is to warm-start again; `buildMs` and `layoutMs` are the time spent building
 * its graph and moving its points.
 * @type {{id: number|null, key: string, settings: ViewSettings, progress: import('./protocol.js').LayoutProgress,
 *   fresh: boolean, buildMs: number, layoutMs: number, iterations: number, lastFrameAt: number}|null}
 */
let layoutJob = null;
/**
 * A map's slices aim at half a training chunk: a request that comes during one waits for the
 * rest of it and then, at 20,000 words, for a frame (20 to 30 ms to hand over its words);
 * slices of CHUNK_MS made such waits of 120 to 140 ms.
 */
const LAYOUT_SLICE_MS = CHUNK_MS / 2;
/** Work per slice of building a graph, by phase, sized to LAYOUT_SLICE_MS; kept across maps (the units do not depend on the word count). */
const buildBudgets = { neighbours: FIRST_LAYOUT_WORK, affinities: FIRST_LAYOUT_WORK, start: FIRST_LAYOUT_WORK };
/** Whether `runLayout` is stepping the map. */
let layoutRunning = false;

/** Lets queued messages run before the next chunk (a MessageChannel is not clamped like setTimeout). */
const yieldToMessages = (() => {
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()();
  return () => new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
})();

function setState(next, id = null) {
  state = next;
  post({ type: 'state', id, state });
}

/**
 * Posts a frame of `settings` (the current view unless told); throws, posting nothing and
 * keeping the last frame, when the session refuses the view (an unknown word, a bad number).
 * @param {number|null} id @param {ViewSettings} settings
 */
function postProjection(id = null, settings = view) {
  const frame = session.project(settings);
  const extraCoords = settings.extraWords.length ? session.place_words(settings.extraWords) : new Float32Array(0);
  lastProjectionAt = performance.now();
  const transfer = [frame.coords.buffer, extraCoords.buffer];
  if (frame.clusters) transfer.push(frame.clusters.buffer);
  post({ type: 'projection', id, model, ...frame, extraWords: settings.extraWords, extraCoords }, transfer);
}

/**
 * A new model's frames start from the plain view (the page sends its view again): axes and
 * isolated words name words of the old vocabulary, and clusters may outnumber the new one's
 * words. A view that fails in the training loop would stop training.
 */
function usePlainView() {
  view = { ...view, ...PLAIN_VIEW };
  cancelLayout();
}

/** @param {ViewSettings} settings */
const isLayout = (settings) => settings.method === 'tsne' || settings.method === 'umap';

/** What makes two views the same t-SNE or UMAP map: method, word count and parameters (not `extraWords`). */
function layoutKey(settings) {
  const layout = settings.layout ?? {};
  return JSON.stringify([settings.method, settings.nWords, Object.keys(layout).sort().map((k) => [k, layout[k]])]);
}

/** Drops the map being built or stepped; a `project` still waiting for its frame is told it was replaced. */
function cancelLayout() {
  if (layoutJob?.id != null) post({ type: 'error', id: layoutJob.id, message: SUPERSEDED });
  layoutJob = null;
}

/**
 * Starts a t-SNE or UMAP map of `settings` (throws, changing nothing, when the session
 * refuses it); `warm` starts from the map before when it is of the same method and word count.
 * @param {ViewSettings} settings @param {number|null} id @param {boolean} warm
 */
function startLayout(settings, id, warm) {
  const progress = session.layout_begin(settings, warm);
  const waiting = layoutJob?.id;
  if (waiting != null && waiting !== id) post({ type: 'error', id: waiting, message: SUPERSEDED });
  // A quarter of an iteration first: at 20,000 words a whole t-SNE iteration outlasts a slice.
  layoutJob = { id, key: layoutKey(settings), settings, progress, fresh: false, buildMs: 0, layoutMs: 0, iterations: 0.25, lastFrameAt: 0 };
  runLayout();
}

/** Posts the map as a `projection` frame, unless it has no coordinates yet; says whether it did. */
function postLayoutFrame(job) {
  const frame = session.layout_frame();
  if (frame == null) return false;
  const extraWords = job.settings.extraWords ?? [];
  const extraCoords = extraWords.length ? session.layout_place_words(extraWords) : new Float32Array(0);
  job.lastFrameAt = performance.now();
  // The parameters go with the frame, so the timeline records how its maps were made.
  post({ type: 'projection', id: job.id, model, ...frame, layout: job.settings.layout ?? null, extraWords, extraCoords }, [frame.coords.buffer, extraCoords.buffer]);
  job.id = null;
  return true;
}

/**
 * Builds and steps the map a slice (about CHUNK_MS) at a time, yielding to messages between
 * slices, and posts a frame every LAYOUT_FRAME_MS while the points move, until it is done.
 * Fresh vectors warm-start it again once it is done, or once moving its points has taken as
 * long as building its graph did, so that at least half the time goes to the map moving.
 * Training chunks run in between, as both loops yield through the same channel.
 */
async function runLayout() {
  if (layoutRunning) return;
  layoutRunning = true;
  try {
    while (layoutJob) {
      const job = layoutJob;
      const { phase, done } = job.progress;
      if (job.fresh && (done || (phase === 'layout' && job.layoutMs >= job.buildMs))) {
        job.progress = session.layout_begin(job.settings, true);
        Object.assign(job, { fresh: false, buildMs: 0, layoutMs: 0 });
        continue;
      }
      if (done) break;
      const budget = phase === 'layout' ? job.iterations : buildBudgets[phase];
      const started = performance.now();
      job.progress = session.layout_step(budget);
      const elapsed = performance.now() - started;
      // A slice that ended its phase (or the map) stopped short of its budget: it says nothing of the rate.
      if (job.progress.phase === phase && !job.progress.done) {
        // Grown at most 4 times a slice: a few fast slices timed coarsely must not make one that takes seconds.
        // Iterations may be a fraction (the session stops within one); building units are whole.
        const next = phase === 'layout'
          ? Math.min(4 * budget, Math.max(0.01, elapsed > 0 ? (budget * LAYOUT_SLICE_MS) / elapsed : budget))
          : Math.min(4 * budget, resized(budget, elapsed, 1, 1e12, LAYOUT_SLICE_MS));
        if (phase === 'layout') job.iterations = next;
        else buildBudgets[phase] = next;
      }
      if (phase === 'layout') job.layoutMs += elapsed;
      else job.buildMs += elapsed;
      const moving = job.progress.phase === 'layout';
      if (moving && (job.id != null || job.progress.done || performance.now() - job.lastFrameAt >= LAYOUT_FRAME_MS)) {
        postLayoutFrame(job);
      }
      await yieldToMessages();
    }
  } catch (error) {
    const id = layoutJob?.id ?? null;
    layoutJob = null;
    reportError(id)(error);
  } finally {
    layoutRunning = false;
  }
}

/**
 * The vectors moved on (an epoch ended, PROJECTION_INTERVAL_MS passed, training stopped):
 * a PCA frame now, or the t-SNE or UMAP map warm-started from where it stands.
 */
function showFreshVectors() {
  if (!isLayout(view)) {
    postProjection();
    return;
  }
  lastProjectionAt = performance.now();
  if (layoutJob) {
    layoutJob.fresh = true;
    runLayout();
    return;
  }
  try {
    startLayout(view, null, true);
  } catch (error) {
    // The view worked for other vectors; training goes on with a PCA map.
    view = { ...view, method: 'pca' };
    reportError(null)(error);
  }
}



/** The next chunk's size: `size` scaled so a chunk takes about `target` ms, within bounds. */
function resized(size, elapsed, min, max, target = CHUNK_MS) {
  return elapsed > 0 ? Math.max(min, Math.min(max, Math.round(size * target / elapsed))) : size;
}

/**
 * Gives the session the text of `source`, unless it holds it already; returns how it was
 * read. A file is refused before reading when it is too large, and read in slices with
 * `readProgress` between them. A request for the text being read waits for that read
 * rather than starting another. `isCurrent()` says whether the request still stands: a
 * read that a newer text replaced stops, and never becomes the session's text, so it
 * cannot wipe the newer text's trainer.
 * @param {Source} source @param {() => boolean} isCurrent
 */
async function useSource(source, isCurrent) {
  const from = source.kind === 'sample' ? 'sample' : source.kind === 'file' ? source.file : source.url;
  if (from === textFrom) return textInfo;
  if (reading?.from !== from) {
    const read = { from, bytes: null };
    read.bytes = readSource(source, () => reading === read);
    reading = read;
  }
  const mine = reading;
  try {
    const bytes = await mine.bytes;
    if (!isCurrent()) throw new Error(SUPERSEDED);
    // Another request for the same text may have installed it meanwhile.
    if (textFrom !== from) {
      textInfo = bytes == null ? session.set_sample_text() : session.set_text(bytes);
      textFrom = from;
    }
    return textInfo;
  } finally {
    if (reading === mine) reading = null;
  }
}

/**
 * The bytes of `source` (null for the built-in sample, which the session writes itself);
 * stops with SUPERSEDED between slices once `wanted()` is false.
 * @param {Source} source @param {() => boolean} wanted
 */
async function readSource(source, wanted) {
  if (source.kind === 'sample') return null;
  if (source.kind === 'file') {
    session.check_text_size(source.file.size);
    return readFile(source.file, wanted);
  }
  const response = await fetch(source.url);
  if (!response.ok) throw new Error(`cannot load ${source.name}: the server answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * `file` in slices of LOAD_SLICE_BYTES, each with its offset, read one at a time, so a
 * large file never sits in memory twice and progress can be posted in between.
 * @param {Blob} file
 */
async function* slices(file) {
  for (let offset = 0; offset < file.size; offset += LOAD_SLICE_BYTES) {
    yield { offset, bytes: new Uint8Array(await file.slice(offset, offset + LOAD_SLICE_BYTES).arrayBuffer()) };
  }
}

/** The bytes of `file`, read a slice at a time with `readProgress` between slices, while `wanted()`. */
async function readFile(file, wanted) {
  const whole = new Uint8Array(file.size);
  for await (const { offset, bytes } of slices(file)) {
    if (!wanted()) throw new Error(SUPERSEDED);
    whole.set(bytes, offset);
    post({ type: 'readProgress', bytesDone: offset + bytes.length, bytesTotal: file.size });
  }
  return whole;
}

/** The chunked loop: runs while `state` is 'training'; pause and stop just change `state`. */
async function trainLoop() {
  while (state === 'training') {
    const started = performance.now();
    const progress = session.step(chunkTokens);
    const elapsed = performance.now() - started;
    // Size the next chunk so one takes about CHUNK_MS: progress then arrives ~20 times a second.
    // More threads train more tokens in that time, hence the larger cap.
    chunkTokens = resized(chunkTokens, elapsed, 1_000, 1_000_000 * session.threads());
    post({ type: 'progress', progress, threads: session.threads() });
    const epochEnded = progress.epochTokensDone === progress.epochTokens;
    if (epochEnded || performance.now() - lastProjectionAt > PROJECTION_INTERVAL_MS) showFreshVectors();
    if (progress.done) {
      setState('done');
      return;
    }
    await yieldToMessages();
  }
}

/**
 * Reads vectors from `file` slice by slice into the session, posting progress between
 * slices, while `isCurrent()`: `stop` cancels the read by moving `loads` on. Returns false
 * when cancelled.
 * @param {File} file @param {string} format @param {File|undefined} metadata @param {() => boolean} isCurrent
 */
async function loadVectors(file, format, metadata, isCurrent) {
  const metadataText = metadata ? await metadata.text() : undefined;
  if (!isCurrent()) return false;
  session.load_begin(format, file.name, metadataText);
  for await (const { offset, bytes } of slices(file)) {
    if (!isCurrent()) return false;
    const words = session.load_push(bytes);
    post({ type: 'loadProgress', bytesDone: offset + bytes.length, bytesTotal: file.size, words });
    await yieldToMessages();
    if (!isCurrent()) return false;
  }
  return true;
}

/** The text of a benchmark: a built-in one, or a file the person opened. */
async function benchmarkSource(benchmark) {
  if (benchmark.kind === 'file') return benchmark.file.text();
  return wasm.benchmark_text(benchmark.name);
}

/** The session's writer of each export format (www/protocol.js `ExportRequest`). */
const EXPORTS = {
  bundle: (request) => session.export_bundle(request.timeline ?? null),
  word2vec: () => session.export_word2vec(),
  word2vecBinary: () => session.export_word2vec_binary(),
  projectorVectors: () => session.export_projector_vectors(),
  projectorMetadata: () => session.export_projector_metadata(),
};

/** @type {Record<string, (request: any) => object|void|Promise<object|void>>} */
const handlers = {
  /**
   * Vectors (a bundle, word2vec, GloVe, a Projector pair) are read here and replace the
   * session's vectors; anything else is a text, which the page then prepares.
   */
  async openFiles({ files }) {
    if (state === 'training' || state === 'paused' || state === 'learning' || state === 'loading') {
      throw new Error(`cannot open a file now: ${state === 'loading' ? 'another file is being read' : `training is ${state}`}`);
    }
    const metadata = files.length === 2 ? files.find((f) => /metadata/i.test(f.name)) : undefined;
    const file = files.find((f) => f !== metadata);
    const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
    const format = session.sniff(head, file.name);
    if (format == null) {
      if (files.length > 1) throw new Error('open one text at a time (or a vectors.tsv with its metadata.tsv)');
      return { kind: 'text' };
    }
    const mine = ++loads;
    const isCurrent = () => mine === loads;
    const stopped = () => new Error(`stopped reading ${file.name}`);
    stateBeforeLoading = state;
    setState('loading');
    try {
      if (format === 'bundle') {
        const text = await file.text();
        if (!isCurrent()) throw stopped();
        const opened = session.open_bundle(text, file.name, file.size);
        // The session's text gave way to the vectors (a failed open leaves it as it was).
        textFrom = null;
        model += 1;
        usePlainView();
        setState('loaded');
        return { kind: 'vectors', model, ...opened };
      }
      // `stop` has cancelled the parser and answered with the state from before.
      if (!(await loadVectors(file, format, metadata, isCurrent))) throw stopped();
      const info = session.load_finish(file.size);
      textFrom = null;
      model += 1;
      usePlainView();
      setState('loaded');
      return { kind: 'vectors', model, info };
    } catch (error) {
      // `state` may have changed during the awaits above: read it afresh (the checker narrows it).
      if (isCurrent() && currentState() === 'loading') {
        session.load_cancel();
        setState(stateBeforeLoading);
      }
      throw error;
    }
  },
  /**
   * Tokenizes the text in slices, posting `tokenizeProgress` between them; a newer
   * `prepare` (the parameters changed again) replaces one still running.
   */
  async prepare({ source, params }) {
    const mine = ++textRequests;
    const isCurrent = () => mine === textRequests;
    const text = await useSource(source, isCurrent);
    await useThreads(params.threads ?? 1);
    if (!isCurrent()) throw new Error(SUPERSEDED);
    session.prepare_begin(params);
    for (let fraction = session.prepare_step(LOAD_SLICE_BYTES); fraction < 1; fraction = session.prepare_step(LOAD_SLICE_BYTES)) {
      post({ type: 'tokenizeProgress', fraction });
      await yieldToMessages();
      if (!isCurrent()) throw new Error(SUPERSEDED);
    }
    const stats = session.prepare_finish();
    isSample = source.kind === 'sample';
    chunkTokens = FIRST_CHUNK_TOKENS;
    model += 1;
    usePlainView();
    state = 'prepared';
    return { stats, text, params, isSample, model };
  },
  /** Learns merges chunk by chunk, like `trainLoop`; `stop` ends it by changing `state`. */
  async learnBpe({ source, params }) {
    if (state === 'training' || state === 'paused' || state === 'learning') {
      throw new Error(`cannot learn BPE merges now: training is ${state}`);
    }
    const mine = ++textRequests;
    await useSource(source, () => mine === textRequests);
    let progress = session.bpe_begin(params);
    stateBeforeLearning = state;
    setState('learning');
    post({ type: 'bpeProgress', progress });
    let chunkMerges = FIRST_CHUNK_MERGES;
    while (!progress.done) {
      await yieldToMessages();
      if (currentState() !== 'learning') return { progress, done: false };
      const started = performance.now();
      progress = session.bpe_step(chunkMerges);
      chunkMerges = resized(chunkMerges, performance.now() - started, 1, 100_000);
      post({ type: 'bpeProgress', progress });
    }
    // Quietly: the page goes on to `prepare`, which uses these merges.
    state = stateBeforeLearning;
    return { progress, done: true };
  },
  train({ id }) {
    if (state !== 'prepared' && state !== 'paused') {
      throw new Error(state === 'idle' ? 'choose a text first' : `cannot train now: training is ${state}`);
    }
    setState('training', id);
    trainLoop().catch((error) => {
      setState('stopped');
      reportError(null)(error);
    });
  },
  pause({ id }) {
    if (state === 'training') setState('paused', id);
    else setState(state, id);
  },
  stop({ id }) {
    if (state === 'loading') {
      // The read sees `loads` moved on at its next slice and ends; the parser goes now, and
      // the vectors or text from before stay.
      loads += 1;
      session.load_cancel();
      setState(stateBeforeLoading, id);
    } else if (state === 'learning') {
      setState(stateBeforeLearning, id);
    } else if (state === 'training' || state === 'paused') {
      setState('stopped', id);
      showFreshVectors();
    } else {
      setState(state, id);
    }
  },
  /**
   * A view that fails is answered with an error, and the frames while training keep the last
   * valid one. A t-SNE or UMAP view is answered by the map's first frame; the map of the
   * same method, word count and parameters goes on as it is (answered at once, `extraWords`
   * placed), any other view replaces it.
   */
  project({ id, view: settings }) {
    const next = { ...PLAIN_VIEW, extraWords: [], ...settings };
    if (!isLayout(next)) {
      postProjection(id, next);
      cancelLayout();
    } else if (layoutJob?.key === layoutKey(next)) {
      // Other colours recolour the map as it runs (a bad k throws here, and nothing changes).
      if ((next.clusters ?? 0) !== (layoutJob.settings.clusters ?? 0)) session.layout_set_clusters(next.clusters ?? 0);
      if (layoutJob.id != null) post({ type: 'error', id: layoutJob.id, message: SUPERSEDED });
      Object.assign(layoutJob, { id, settings: next });
      // Without coordinates yet, the frame comes when the graph is built.
      postLayoutFrame(layoutJob);
    } else {
      startLayout(next, id, false);
    }
    view = next;
  },
  /**
   * Where training runs: the module, the pool's threads, and how many distinct threads ran
   * a job sent to each of them (rayon's broadcast), which shows the pool really works.
   */
  threads() {
    return { info: threads, poolThreads: session.threads(), working: session.threads_working() };
  },
  neighbours({ word, k }) {
    return { word, neighbours: session.neighbours(word, k) };
  },
  analogy({ a, b, c, k }) {
    const { cosAdd, cosMul } = session.analogy(a, b, c, k);
    return { cosAdd, cosMul };
  },
  complete({ prefix, limit }) {
    return { prefix, words: session.complete(prefix, limit) };
  },
  tokenInfo({ token, maxLines }) {
    return { info: session.token_info(token, maxLines) };
  },
  /** A word's neighbours at the end of each epoch (the session keeps them as it trains). */
  neighbourHistory({ word, k }) {
    return { history: session.neighbour_history(word, k) };
  },
  /**
   * Scores the vectors on a benchmark, in chunks, posting `evalProgress` between them. A
   * newer evaluation replaces one still running, which then fails saying so.
   */
  async evaluate({ benchmark, restrict, ignoreCase, purpose }) {
    const mine = ++evaluations;
    const text = await benchmarkSource(benchmark);
    let progress = session.eval_begin(text, restrict ?? undefined, ignoreCase);
    let chunk = 16;
    while (progress.done < progress.total) {
      post({ type: 'evalProgress', purpose, done: progress.done, total: progress.total });
      await yieldToMessages();
      if (mine !== evaluations) throw new Error(SUPERSEDED);
      const started = performance.now();
      progress = session.eval_step(chunk);
      chunk = resized(chunk, performance.now() - started, 1, 1_000_000);
    }
    return { report: session.eval_report() };
  },
  /**
   * Builds the one file asked for, now (a large one takes seconds), and transfers its bytes
   * to the page rather than copying them; the worker keeps nothing of it.
   */
  export(request) {
    const { id, format } = request;
    const build = EXPORTS[format];
    if (!build) throw new Error(`unknown export format '${format}'`);
    const bytes = build(request);
    post({ type: 'export', id, bytes }, [bytes.buffer]);
  },
};

// Panics inside wasm on purpose, for the browser tests that the page recovers (see
// `panic_for_test`). Dev server only: `npm run build` replaces import.meta.env.DEV with false,
// so the bundler drops the handler and the glue's wrapper, and vite.config.js the export.
if (import.meta.env.DEV) {
  handlers.testPanic = async (/** @type {{inThread?: boolean}} */ { inThread }) => {
    if (inThread) {
      // A training thread of the pool panics in the next step (src/wasm/pool.rs).
      const { panic_in_training_thread_for_test } = await import('./pkg-threads/embedscope.js');
      panic_in_training_thread_for_test();
      return {};
    }
    const { panic_for_test } = threads.module === 'threaded' ? await import('./pkg-threads/embedscope.js') : await import('./pkg/embedscope.js');
    panic_for_test();
  };
}

/** Turns a failure into an `error` message; a trap of the wasm instance ends the worker. */
function reportError(id) {
  return (error) => {
    const message = String(error?.message ?? error);
    if (error instanceof WebAssembly.RuntimeError) {
      post({ type: 'fatal', message });
      self.close();
      return;
    }
    post({ type: 'error', id, message });
  };
}

self.addEventListener('message', async ({ data }) => {
  /** @type {Request} */
  const request = data;
  const handler = handlers[request.type];
  try {
    if (!handler) throw new Error(`unknown request type '${request.type}'`);
    // A synchronous handler's reply still goes out before the next message is read.
    const reply = await handler(request);
    if (reply) post({ type: request.type, id: request.id, ...reply });
  } catch (error) {
    reportError(request.id)(error);
  }
});

/**
 * Trains on `n` threads from the next `prepare` on: starts the host workers the pool needs
 * (the first time, a few hundred ms), then rebuilds the session's pool if its size changed.
 * @param {number} n
 */
async function useThreads(n) {
  if (!Number.isInteger(n) || n < 1 || n > threads.max) {
    throw new Error(threads.max === 1
      ? `cannot train on ${n} threads: ${threads.cause}`
      : `threads: from 1 to ${threads.max} here (this machine's cores, at most 8)`);
  }
  if (n > 1) await threadHosts.ensure(n);
  session.use_threads(n);
}

// Each module is imported with its exports named, as the bundler drops only the unnamed
// ones from the build (`panic_for_test` among them, which only the dev server's hook names).

/** The threaded module (www/pkg-threads), loaded and started. */
async function loadThreaded() {
  const { default: init, Session, benchmark_text, version, thread_host_init } = await import('./pkg-threads/embedscope.js');
  await init();
  return { Session, benchmark_text, version, thread_host_init };
}

/** The single-threaded module (www/pkg), loaded and started. */
async function loadSingle() {
  const { default: init, Session, benchmark_text, version } = await import('./pkg/embedscope.js');
  await init();
  return { Session, benchmark_text, version, thread_host_init: null };
}

/**
 * Loads the threaded module where the page can use shared memory, else (or when it fails to
 * load) the single-threaded one; returns the module and what the page is told.
 * @returns {Promise<{module: object, info: import('./protocol.js').ThreadsInfo}>}
 */
async function loadModule() {
  const support = threadSupport();
  if (support.available) {
    try {
      return { module: await loadThreaded(), info: { module: 'threaded', max: machineThreads(), cause: null } };
    } catch (error) {
      const cause = `the threaded WebAssembly module did not load (${error?.message ?? error}); reload the page to try again`;
      console.warn(`Training on 1 thread: ${cause}`);
      return { module: await loadSingle(), info: { module: 'single', max: 1, cause } };
    }
  }
  return { module: await loadSingle(), info: { module: 'single', max: 1, cause: support.cause } };
}

({ module: wasm, info: threads } = await loadModule());
session = new wasm.Session();
if (threads.module === 'threaded') threadHosts = new ThreadHosts(wasm.thread_host_init());
post({ type: 'ready', version: wasm.version(), threads });
