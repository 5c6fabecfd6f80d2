// @ts-check
// The training worker's composition root: loads the wasm module once, holds the one Session,
// builds the worker's parts around it and answers the requests of www/protocol.js from one
// handler table, typed against the protocol's `Requests`. Where the page is cross-origin
// isolated it loads the threaded module and trains on a pool of threads (threads.js, each
// thread a thread-host.js), else the single-threaded one, and says why. The parts, beside it:
// the scheduler (scheduler.js: time slices, supersession, cancellation), what the page is
// told of the session (session-state.js, over the state machine of states.js), the text
// (text-source.js), training and BPE (training.js), files opened as vectors (opening.js, over
// file-bytes.js), the map's frames (frames.js, layout.js, frame-pacing.js), the questions
// (queries.js) and the export files (exports.js); talking to the page is messages.js's, and
// which module it loads modules.js's.
import { post, reportError, yieldToMessages } from './messages.js';
import { loadModule, wasm } from './modules.js';
import { Pool, ThreadHosts } from './threads.js';
import { Scheduler } from './scheduler.js';
import { SessionState } from './session-state.js';
import { Frames } from './frames.js';
import { TextSource } from './text-source.js';
import { Training } from './training.js';
import { Opening, openFilesHandler } from './opening.js';
import { queryHandlers } from './queries.js';
import { exportHandlers } from './exports.js';

/** @typedef {import('../protocol.js').Handlers} Handlers */

const threads = await loadModule();
const now = () => performance.now();
/** @type {import('../pkg/embedscope.js').Session} */
const session = new wasm.Session();
const scheduler = new Scheduler({ yieldToMessages, now });
const state = new SessionState(post);
const frames = new Frames(session, state, wasm.default_map_spec(), now);
const text = new TextSource(session, state, scheduler);
const pool = new Pool(threads, threads.module === 'threaded' ? new ThreadHosts(wasm.thread_host_init()) : null);
const training = new Training({ session, state, scheduler, text, frames, pool });
const opening = new Opening({ session, state, scheduler, text, frames });

/**
 * Every request's handler: a reply's fields, or nothing when the handler posts its own reply
 * (the test hooks are the dev server's only).
 * @type {Handlers & Partial<import('../protocol.js').TestHandlers>}
 */
const handlers = {
  ...openFilesHandler(opening),
  ...text.handlers(),
  ...training.handlers(),
  project: ({ id, mapSpec }) => frames.project(id, mapSpec),
  ...queryHandlers(session, scheduler),
  ...exportHandlers(session),
};

// Panics inside wasm on purpose, for the browser tests that the page recovers (see
// `panic_for_test`). Dev server only: `npm run build` replaces import.meta.env.DEV with false,
// so the bundler drops the handler and the glue's wrapper, and vite.config.js the export.
if (import.meta.env.DEV) {
  const glue = threads.module === 'threaded' ? await import('../pkg-threads/embedscope.js') : await import('../pkg/embedscope.js');
  handlers.testPanic = async ({ inThread }) => {
    if (inThread) {
      // A training thread of the pool panics in the next step (src/wasm/pool.rs).
      const { panic_in_training_thread_for_test } = await import('../pkg-threads/embedscope.js');
      panic_in_training_thread_for_test();
      return {};
    }
    glue.panic_for_test();
  };
  /** The turns of `LayoutRunner.run` logged since the last call (see its `sliceLog`), for scripts/bench-layout.mjs. */
  handlers.layoutSlices = () => ({ slices: frames.layouts.sliceLog.splice(0) });
  /** The wasm memory's bytes, its peak since it never shrinks, for scripts/bench-model.mjs. */
  handlers.memoryForTest = () => ({ bytes: wasm.memory.buffer.byteLength });
  frames.layouts.sliceReport = glue.layout_slice_for_test;
}

self.addEventListener('message', async ({ data }) => {
  /** @type {import('../protocol.js').Request} */
  const request = data;
  /** @type {(request: import('../protocol.js').Request) => any} */
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

post({ type: 'ready', version: wasm.version(), threads });
