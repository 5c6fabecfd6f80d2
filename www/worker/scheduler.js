// @ts-check
// The training worker's one scheduler: what runs, in time slices, and what gives way. Each
// request that works in slices (a text read and tokenized, BPE merges, a vectors file, an
// evaluation) holds a `Token` of its kind; a newer request of the same kind cancels the
// older one's (supersession), and `stop` cancels the tokens of the kinds it ends. A task
// reads its token between two slices and gives way once it is cancelled; the cleanup it
// registered (a parser to drop, say) runs exactly once, by whoever cancels it first. A task
// runs until it ends (`end`, in a `finally`), cancelled or not: a cancelled one is still
// unwinding, and the scheduler says so.
// Between two slices the worker answers its messages (`slice`), and `Chunk` sizes the
// next slice by the time the last one took. Plain JavaScript (no wasm, no DOM): the clock
// and the yield are passed in, so tests/www/scheduler.test.js runs it with fake ones.
import { CHUNK_MS, SUPERSEDED } from '../protocol.js';

/** A task's hold on its run: cancelled by a newer task of its kind, by `stop`, or by its own failure. */
export class Token {
  /**
   * @param {string} kind  what the task is (one runs at a time per kind)
   * @param {(() => void)|null} cleanup  what undoes the task's half-done work, run once when it is cancelled
   * @param {(token: Token) => void} settled  tells the scheduler the task no longer runs
   */
  constructor(kind, cleanup, settled) {
    this.kind = kind;
    this.cleanup = cleanup;
    this.settled = settled;
    /** @type {Error|null} why the task was cancelled, once it was */
    this.reason = null;
    /** Whether the task ended (it gave way, failed or finished): a token that ended changes no more. */
    this.ended = false;
  }

  /** Whether the task was cancelled and must give way. */
  get cancelled() {
    return this.reason != null;
  }

  /** Throws why the task was cancelled, if it was. */
  check() {
    if (this.reason) throw this.reason;
  }

  /**
   * Cancels the task, running its cleanup: true when this call did (the task still ran),
   * false when it had ended or was cancelled already, so the cleanup never runs twice.
   * @param {Error} [reason]
   */
  cancel(reason = new Error(SUPERSEDED)) {
    if (this.ended || this.reason) return false;
    this.reason = reason;
    this.cleanup?.();
    return true;
  }

  /** The task no longer runs (finished, failed, or gave way): a later cancel does nothing. */
  end() {
    if (this.ended) return;
    this.ended = true;
    this.settled(this);
  }
}

/**
 * The size of a task's next slice (tokens, merges, questions), scaled so that a slice takes
 * about `target` ms, within `min` and `max`.
 */
export class Chunk {
  /** @param {number} size  the first slice's @param {number} min @param {number} max @param {number} [target] */
  constructor(size, min, max, target = CHUNK_MS) {
    this.size = size;
    this.min = min;
    this.max = max;
    this.target = target;
  }

  /**
   * The last slice (of `this.size`) took `elapsed` ms: the next is sized from that, within
   * `max` (this chunk's unless told: a pool of threads trains more in the same time).
   * @param {number} elapsed @param {number} [max]
   */
  took(elapsed, max = this.max) {
    if (elapsed > 0) this.size = Math.max(this.min, Math.min(max, Math.round((this.size * this.target) / elapsed)));
    return this.size;
  }
}

export class Scheduler {
  /**
   * @param {{yieldToMessages: () => Promise<unknown>, now: () => number}} clock
   *   the worker's: a yield that lets queued messages run, and `performance.now`
   */
  constructor({ yieldToMessages, now }) {
    this.yieldToMessages = yieldToMessages;
    this.now = now;
    /** @type {Map<string, Token>} the task running of each kind */
    this.running = new Map();
  }

  /**
   * Starts a task of `kind`: the one of that kind still running is superseded (its token
   * cancelled with SUPERSEDED, its cleanup run). `cleanup` runs if this one is cancelled.
   * @param {string} kind @param {(() => void)|null} [cleanup]
   */
  begin(kind, cleanup = null) {
    this.running.get(kind)?.cancel(new Error(SUPERSEDED));
    const token = new Token(kind, cleanup, (settled) => {
      if (this.running.get(kind) === settled) this.running.delete(kind);
    });
    this.running.set(kind, token);
    return token;
  }

  /** The task of `kind` that runs now (perhaps cancelled, and giving way), or null. @param {string} kind */
  current(kind) {
    return this.running.get(kind) ?? null;
  }

  /**
   * Cancels the task of each of `kinds` that runs (`stop`): its own cleanup runs, and no
   * other's. Returns the kinds it cancelled.
   * @param {string[]} kinds @param {Error} [reason]
   */
  cancel(kinds, reason = new Error(SUPERSEDED)) {
    return kinds.filter((kind) => this.running.get(kind)?.cancel(reason));
  }

  /**
   * Between two slices of a task: lets the messages queued meanwhile run (a query, a pause,
   * a stop, a newer request), then throws if one of them cancelled the task.
   * @param {Token} token
   */
  async slice(token) {
    await this.yieldToMessages();
    token.check();
  }

  /**
   * Runs one slice, `step(chunk.size)`, and sizes the next by the time it took; returns the
   * step's result and that time (ms).
   * @template R
   * @param {Chunk} chunk @param {(size: number) => R} step @param {number} [max]
   * @returns {{result: R, elapsed: number}}
   */
  timed(chunk, step, max) {
    const started = this.now();
    const result = step(chunk.size);
    const elapsed = this.now() - started;
    chunk.took(elapsed, max);
    return { result, elapsed };
  }
}
