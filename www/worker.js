// The training worker: loads the wasm module once, holds the one Session, answers the
// requests of www/protocol.js from a handler table, and trains in chunks so that queries,
// pause and stop are read between two chunks.
import init, { Session, sample_analogies, sample_text, version } from './pkg/embedscope.js';
import { CHUNK_MS, FIRST_CHUNK_TOKENS, PROJECTION_INTERVAL_MS } from './protocol.js';

/** @typedef {import('./protocol.js').Request} Request */
/** @typedef {import('./protocol.js').TrainingState} TrainingState */
/** @typedef {import('./protocol.js').ViewSettings} ViewSettings */

/** @type {Session} */
let session;
/** @type {TrainingState} */
let state = 'idle';
let isSample = false;
/** @type {ViewSettings} */
let view = { nWords: 300, xComponent: 0, yComponent: 1, extraWords: [] };
let chunkTokens = FIRST_CHUNK_TOKENS;
let lastProjectionAt = 0;

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
  self.postMessage({ type: 'state', id, state });
}

function postProjection(id = null) {
  const frame = session.projection(view.nWords, view.xComponent, view.yComponent);
  const extraCoords = view.extraWords.length ? session.place_words(view.extraWords) : new Float32Array(0);
  lastProjectionAt = performance.now();
  self.postMessage(
    { type: 'projection', id, ...frame, extraWords: view.extraWords, extraCoords },
    [frame.coords.buffer, extraCoords.buffer],
  );
}

/** The chunked loop: runs while `state` is 'training'; pause and stop just change `state`. */
async function trainLoop() {
  while (state === 'training') {
    const started = performance.now();
    const progress = session.step(chunkTokens);
    const elapsed = performance.now() - started;
    // Size the next chunk so one takes about CHUNK_MS: progress then arrives ~20 times a second.
    if (elapsed > 0) chunkTokens = Math.max(1_000, Math.min(1_000_000, Math.round(chunkTokens * CHUNK_MS / elapsed)));
    self.postMessage({ type: 'progress', progress });
    const epochEnded = progress.epochTokensDone === progress.epochTokens;
    if (epochEnded || performance.now() - lastProjectionAt > PROJECTION_INTERVAL_MS) postProjection();
    if (progress.done) {
      setState('done');
      return;
    }
    await yieldToMessages();
  }
}

/** @type {Record<string, (request: any) => object|void>} */
const handlers = {
  prepare({ source, params }) {
    const text = source.kind === 'sample' ? sample_text() : source.text;
    const stats = session.prepare(text, params);
    isSample = source.kind === 'sample';
    chunkTokens = FIRST_CHUNK_TOKENS;
    state = 'prepared';
    return { stats, params, isSample };
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
    if (state === 'training' || state === 'paused') {
      setState('stopped', id);
      postProjection();
    } else {
      setState(state, id);
    }
  },
  project({ id, view: settings }) {
    view = settings;
    postProjection(id);
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
  evaluate() {
    if (!isSample) throw new Error('the planted analogies belong to the built-in sample; load it first');
    const analogies = sample_analogies();
    let correctCosAdd = 0;
    let correctCosMul = 0;
    const misses = [];
    for (const [a, b, c, d] of analogies) {
      const { cosAdd, cosMul } = session.analogy(a, b, c, 1);
      if (cosAdd[0]?.word === d) correctCosAdd += 1;
      else if (misses.length < 10) misses.push([a, b, c, d, cosAdd[0]?.word ?? '']);
      if (cosMul[0]?.word === d) correctCosMul += 1;
    }
    return { total: analogies.length, correctCosAdd, correctCosMul, misses };
  },
  export({ format }) {
    if (format === 'word2vec') return { files: [{ name: 'vectors.txt', text: session.export_word2vec() }] };
    const { vectors, metadata } = session.export_projector();
    return { files: [{ name: 'vectors.tsv', text: vectors }, { name: 'metadata.tsv', text: metadata }] };
  },
};

/** Turns a failure into an `error` message; a trap of the wasm instance ends the worker. */
function reportError(id) {
  return (error) => {
    const message = String(error?.message ?? error);
    if (error instanceof WebAssembly.RuntimeError) {
      self.postMessage({ type: 'fatal', message });
      self.close();
      return;
    }
    self.postMessage({ type: 'error', id, message });
  };
}

self.addEventListener('message', ({ data }) => {
  /** @type {Request} */
  const request = data;
  const handler = handlers[request.type];
  try {
    if (!handler) throw new Error(`unknown request type '${request.type}'`);
    const reply = handler(request);
    if (reply) self.postMessage({ type: request.type, id: request.id, ...reply });
  } catch (error) {
    reportError(request.id)(error);
  }
});

await init();
session = new Session();
self.postMessage({ type: 'ready', version: version() });
