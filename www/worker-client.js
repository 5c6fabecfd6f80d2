// The page's end of www/protocol.js: starts the worker, numbers requests and matches
// replies to them, hands the worker's own messages to listeners, and starts a fresh worker
// when the old one dies.

/** @typedef {import('./protocol.js').WorkerMessage} WorkerMessage */

export class WorkerClient {
  /** @param {() => Worker} createWorker */
  constructor(createWorker) {
    this.createWorker = createWorker;
    this.nextId = 1;
    /** @type {Map<number, {resolve: Function, reject: Function}>} */
    this.pending = new Map();
    /** @type {Map<string, Function[]>} */
    this.listeners = new Map();
    this.start();
  }

  /** Calls `handler(message)` for every message of `type` the worker sends ('ready', 'progress', …), and 'died'. */
  on(type, handler) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), handler]);
  }

  /**
   * Sends a request and resolves with its reply, or rejects with the worker's message.
   * Requests wait for the worker to be ready.
   */
  request(type, fields = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ready.then(() => this.worker.postMessage({ type, id, ...fields }));
    });
  }

  start() {
    this.worker = this.createWorker();
    this.ready = new Promise((resolve) => { this.markReady = resolve; });
    this.worker.addEventListener('message', ({ data }) => this.receive(data));
    this.worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.restart(event.message || 'the worker could not start');
    });
  }

  /** @param {WorkerMessage} message */
  receive(message) {
    if (message.type === 'ready') this.markReady();
    if (message.type === 'fatal') {
      this.restart(message.message);
      return;
    }
    const waiting = message.id != null && this.pending.get(message.id);
    if (waiting) {
      this.pending.delete(message.id);
      if (message.type === 'error') waiting.reject(new Error(message.message));
      else waiting.resolve(message);
      return;
    }
    this.emit(message.type, message);
  }

  emit(type, message) {
    for (const handler of this.listeners.get(type) ?? []) handler(message);
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
