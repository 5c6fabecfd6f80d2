// @ts-check
// The session's states and what moves them, owned by the training worker: every change of
// state and every "cannot do X now" goes through `TrainingMachine.fire`. The page mirrors the
// `state` messages the worker posts and never works a state out itself.
//
// The table is the core's (src/session/machine.rs, where its rules are written and tested):
// Rust writes it into transitions.json and a Rust test keeps that file equal to it. This
// module only reads it: for each event, each state's target is a state, 'back' (the state
// learning or loading started from), 'stay', or the refusal with the message the page shows.
// Plain JavaScript (no DOM, no wasm), unit-tested in tests/www/states.test.js.

import table from './transitions.json' with { type: 'json' };

/** @typedef {import('../protocol.js').TrainingState} TrainingState */
/** @typedef {TrainingState|'back'|'stay'|{refused: string}} Target */

/** Every state, in the order of the protocol's `TrainingState`. @type {TrainingState[]} */
export const STATES = /** @type {TrainingState[]} */ (table.states);

/** A fresh worker's state (and so the page's, when its worker restarts). @type {TrainingState} */
export const INITIAL_STATE = /** @type {TrainingState} */ (table.initial);

/** The target that means "the state before learning or loading started". */
export const BACK = 'back';

/** The states whose entry remembers where from, for BACK. @type {string[]} */
const REMEMBERING = table.remembering;

/** @type {Record<string, {forgetsBefore: boolean, targets: Record<string, Target>}>} */
const ROWS = /** @type {any} */ (table.events);

/** Every event of the table. */
export const EVENTS = Object.keys(ROWS);

/**
 * Where `event` moves `state`, with `before` the state that learning or loading started
 * from: the next state and the next `before`, or the error that refuses the event.
 * @param {TrainingState} state @param {string} event @param {TrainingState} before
 * @returns {{state: TrainingState, before: TrainingState} | {refused: Error}}
 */
export function next(state, event, before) {
  const row = ROWS[event];
  if (!row) throw new Error(`unknown event '${event}'`);
  const target = row.targets[state];
  if (typeof target === 'object') return { refused: new Error(target.refused) };
  if (row.forgetsBefore) before = INITIAL_STATE;
  if (target === 'stay') return { state, before };
  if (target === BACK) return { state: before, before: INITIAL_STATE };
  // Entering learning or loading remembers where from; another state forgets it.
  if (!REMEMBERING.includes(target)) return { state: target, before: INITIAL_STATE };
  return { state: target, before: state === target ? before : state };
}

/** The session's state and where learning or loading came from, moved only by `fire`. */
export class TrainingMachine {
  constructor() {
    /** @type {TrainingState} */
    this.state = INITIAL_STATE;
    /** @type {TrainingState} what BACK returns to (learning and loading set it) */
    this.before = INITIAL_STATE;
  }

  /** Why `event` is refused now, or null when it is allowed. */
  refusal(event) {
    const moved = next(this.state, event, this.before);
    return 'refused' in moved ? moved.refused : null;
  }

  /**
   * Moves by `event`; throws the refusal (whose message the page shows) when the table
   * refuses it here. Returns whether the state changed.
   * @param {string} event
   */
  fire(event) {
    const moved = next(this.state, event, this.before);
    if ('refused' in moved) throw moved.refused;
    const changed = moved.state !== this.state;
    this.state = moved.state;
    this.before = moved.before;
    return changed;
  }
}
