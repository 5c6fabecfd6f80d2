// @ts-check
// The page's end of www/protocol.js: starts the worker, numbers requests and matches
// replies to them, hands the worker's own messages to listeners, and starts a fresh worker
// when the old one dies. A worker that dies before it is ready is tried again a few times,
// then the client gives up and says why: restarting a worker that cannot load its wasm
// module would go on for ever.
import { explainLoadFailure } from './load-failure.js';

/** @typedef {import('../protocol.js').WorkerMessage} WorkerMessage */
/** @typedef {import('../protocol.js').AllRequests} AllRequests */
/**
 * @template M
 * @typedef {import('../protocol.js').Fields<M>} Fields
 */

/** How many workers in a row may die before saying 'ready' until the client gives up. */
const START_ATTEMPTS = 3;
/** The wait before the next try grows by this much each time, so a server that was briefly away has a moment to come back. */
const RETRY_DELAY_MS = 300;

export class WorkerClient {
  /** @param {() => Worker} createWorker */
  constructor(createWorker) {
    this.createWorker = createWorker;
    this.nextId = 1;
    /** @type {Map<number, {resolve: Function, reject: Function}>} */
    this.pending = new Map();
    /** @type {Map<string, Function[]>} */
    this.listeners = new Map();
    /** Workers in a row that died before they were ready. */
    this.failedStarts = 0;
    /** @type {Error|null} why no worker runs, once the client gave up */
    this.unavailable = null;
    this.start();
  }

  /**
   * Calls `handler(message)` for every message of `type` the worker sends ('ready',
   * 'progress', …), 'died' (a worker that was ready died and a fresh one starts) and
   * 'unavailable' (no worker could start; `message` says why and what to do).
   */
  on(type, handler) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), handler]);
  }

  /**
   * Sends a request and resolves with its reply, or rejects with the worker's message (an
   * `Error` whose `parts`, for words the vocabulary lacks, suggest spellings: www/protocol.js).
   * Requests wait for the worker to be ready. Typed by the protocol's `Requests`: the fields
   * must be the request's, and the reply is the one its type has.
   * @template {keyof AllRequests} T
   * @param {T} type @param {Fields<AllRequests[T]['request']>} [fields]
   * @returns {Promise<AllRequests[T]['reply']>}
   */
  request(type, fields) {
    if (this.unavailable) return Promise.reject(this.unavailable);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ready.then(() => this.worker.postMessage({ type, id, ...fields }));
    });
  }

  start() {
    // Requests made while a worker starts wait on this promise; one that failed to start
    // leaves it for the next, so they go to the first worker that is ready.
    if (!this.ready || this.isReady) this.ready = new Promise((resolve) => { this.markReady = () => resolve(undefined); });
    this.worker = this.createWorker();
    /** Whether this worker said 'ready'. */
    this.isReady = false;
    this.worker.addEventListener('message', ({ data }) => this.receive(data));
    this.worker.addEventListener('error', (event) => {
      event.preventDefault();
      // Chromium gives no message when the worker's script itself did not load.
      this.lost(event.message || 'its script did not load');
    });
  }

  /** @param {WorkerMessage} message */
  receive(message) {
    if (message.type === 'ready') {
      this.isReady = true;
      this.failedStarts = 0;
      this.markReady();
    }
    if (message.type === 'fatal') {
      this.lost(message.message);
      return;
    }
    // Replies carry the id of their request; unasked messages (progress, frames) have none.
    const id = 'id' in message ? message.id : null;
    const waiting = id != null && this.pending.get(id);
    if (waiting) {
      this.pending.delete(id);
      if (message.type === 'error') waiting.reject(Object.assign(new Error(message.message), { parts: message.parts ?? null }));
      else waiting.resolve(message);
      return;
    }
    this.emit(message.type, message);
  }

  emit(type, message) {
    for (const handler of this.listeners.get(type) ?? []) handler(message);
  }

  /**
   * The worker died. One that was ready is replaced at once, as often as that happens
   * (`restart`). One that never was is started again, quietly since nothing was lost, up
   * to START_ATTEMPTS starts in all; then the client gives up.
   */
  lost(reason) {
    if (this.isReady) {
      this.restart(reason);
      return;
    }
    this.worker.terminate();
    this.failedStarts += 1;
    if (this.failedStarts < START_ATTEMPTS) {
      setTimeout(() => this.start(), RETRY_DELAY_MS * this.failedStarts);
      return;
    }
    this.giveUp(reason);
  }

  /** No worker runs from now on: every request, waiting or later, fails with the reason. */
  giveUp(reason) {
    this.unavailable = new Error(explainLoadFailure(`The training worker could not start (${START_ATTEMPTS} tries)`, reason));
    for (const { reject } of this.pending.values()) reject(this.unavailable);
    this.pending.clear();
    this.emit('unavailable', { type: 'unavailable', message: this.unavailable.message });
  }

  /** Replaces a dead worker: pending requests fail, listeners hear 'died' with the reason. */
  restart(reason) {
    this.worker.terminate();
    for (const { reject } of this.pending.values()) reject(new Error(`the worker stopped: ${reason}`));
    this.pending.clear();
    this.start();
    this.emit('died', { type: 'died', message: reason });
  }
}
