// @ts-check
// What the training worker tells the page of its session: the state of the machine
// (states.js) and what follows from it for the page (whether it shows vectors, has vectors
// to export, may prepare the text again, has work running), computed here once, so that the
// page mirrors them and works nothing out. It also names the model the session holds
// (`model`): frames and the replies that install a model carry it. Plain JavaScript (no
// wasm, no DOM), unit-tested in tests/www/session-state.test.js.
import { INITIAL_STATE, TrainingMachine } from './states.js';

/** @typedef {import('../protocol.js').SessionReport} SessionReport */
/** @typedef {import('../protocol.js').TrainingState} TrainingState */

/** What a fresh worker reports (and so what the page shows when its worker restarts). @type {SessionReport} */
export const INITIAL_REPORT = Object.freeze({ state: INITIAL_STATE, showsVectors: false, hasVectors: false, mayPrepare: false, working: false });

/** The fields of a report, to tell whether two differ. @type {(keyof SessionReport)[]} */
const FIELDS = ['state', 'showsVectors', 'hasVectors', 'mayPrepare', 'working'];

export class SessionState {
  /** @param {(message: object) => void} post  sends a message to the page */
  constructor(post) {
    this.post = post;
    this.machine = new TrainingMachine();
    /** Names the model the session holds (a prepared text or opened vectors); each new one counts on. */
    this.model = 0;
    /** Whether the session holds a model the text read last has not replaced (a prepared text or opened vectors). */
    this.holdsModel = false;
    /** Whether the session holds a text to prepare (vectors opened from a file replace it). */
    this.hasText = false;
    /** Whether the model has trained a chunk (or a step) since it was prepared: it has vectors worth exporting. */
    this.trained = false;
    /** @type {SessionReport} the last report the page was sent */
    this.reported = INITIAL_REPORT;
  }

  /** The state now, unnarrowed: what an async function reads after an await. @returns {TrainingState} */
  get current() {
    return this.machine.state;
  }

  /** Throws why `event` cannot happen now, if it cannot (before any work starts). @param {string} event */
  check(event) {
    const refusal = this.machine.refusal(event);
    if (refusal) throw refusal;
  }

  /**
   * Moves the session's state by `event` and tells the page: always when it answers request
   * `id`, else when the report changed. Throws the table's refusal, whose message the page shows.
   * @param {string} event @param {number|null} id
   */
  fire(event, id = null) {
    this.machine.fire(event);
    if (event === 'replaceText') Object.assign(this, { hasText: true, holdsModel: false, trained: false });
    if (event === 'prepared') Object.assign(this, { holdsModel: true, trained: false });
    if (event === 'vectorsOpened') Object.assign(this, { hasText: false, holdsModel: true, trained: false });
    this.tell(id);
  }

  /** A new model replaces the one the session held (prepared, or opened): its name. */
  newModel() {
    this.model += 1;
    return this.model;
  }

  /** The model trained a chunk or a step: from now it has vectors (told the page the first time). */
  trainedChunk() {
    if (this.trained) return;
    this.trained = true;
    this.tell();
  }

  /** What the page is told now. @returns {SessionReport} */
  report() {
    const state = this.current;
    const working = state === 'training' || state === 'paused' || state === 'learning';
    // A text read and not prepared yet shows nothing: the worker's state still describes the
    // model that gives way until the text is tokenized.
    const showsVectors = this.holdsModel && state !== 'idle';
    const hasVectors = showsVectors && (state === 'loaded' || (state !== 'loading' && this.trained));
    const mayPrepare = !working && state !== 'loading' && this.hasText && (state === 'prepared' || !showsVectors);
    return { state, showsVectors, hasVectors, mayPrepare, working };
  }

  /** Posts the report: when it answers request `id`, or when it changed. @param {number|null} [id] */
  tell(id = null) {
    const report = this.report();
    const changed = FIELDS.some((field) => report[field] !== this.reported[field]);
    this.reported = report;
    if (changed || id != null) this.post({ type: 'state', id, ...report });
  }
}
