// @ts-check
// The session's states and the one table of what moves them, owned by the training worker:
// every change of state and every "cannot do X now" goes through `TrainingMachine.fire`.
// The page mirrors the `state` messages the worker posts and never works a state out
// itself. Plain JavaScript (no DOM, no wasm), unit-tested in tests/www/states.test.js.
//
// A text goes idle → prepared → training ⇄ paused → done or stopped, and back to prepared
// when it trains again; BPE passes through 'learning' (the merges, then the text tokenized
// with them) on its way to prepared; a vectors file through 'loading' to 'loaded'.
// 'learning' and 'loading' remember the state they came from: `stop` (and a failure) goes
// back to it, since the vectors or the text from before are still there, unless a new text
// has replaced them meanwhile (then back is idle). 'learning' lasts until the text is
// tokenized with the merges (`prepared`), so Stop stays offered until then.

/** @typedef {import('../protocol.js').TrainingState} TrainingState */

/** Every state, in the order of the protocol's `TrainingState`. @type {TrainingState[]} */
export const STATES = ['idle', 'learning', 'prepared', 'training', 'paused', 'stopped', 'done', 'loading', 'loaded'];

/** A fresh worker's state (and so the page's, when its worker restarts). @type {TrainingState} */
export const INITIAL_STATE = 'idle';

/** The target that means "the state before learning or loading started". */
export const BACK = 'back';

/** The states that hold a text or vectors and run nothing: a new text or vectors file may replace them. */
const SETTLED = ['idle', 'prepared', 'stopped', 'done', 'loaded'];

/** Why training, learning or loading refuses something else now, in the words the page shows. */
const busy = (state) => (state === 'loading' ? 'another file is being read' : `training is ${state}`);

/**
 * @typedef {TrainingState|typeof BACK|((state: TrainingState) => Error)} Target
 *   a state to move to, BACK, or the error that refuses the event in this state
 * @typedef {Partial<Record<TrainingState, Target|'stay'>> & {otherwise: Target|'stay', forgetsBefore?: boolean}} Row
 *   where each state goes; `otherwise` for the states not named ('stay': the event changes nothing);
 *   `forgetsBefore`: what learning or loading would go back to is gone
 */

/** A refusal with `message(state)`. */
const refuse = (message) => (/** @type {TrainingState} */ state) => new Error(message(state));
/** A refusal of an event that the worker's own code never fires in that state (a bug, not the person's doing). */
const impossible = (event) => refuse((state) => `the worker cannot ${event} while ${busy(state)}`);

/** Every state in `states` goes to `target`. @returns {Partial<Record<TrainingState, Target>>} */
const all = (states, target) => Object.fromEntries(states.map((state) => [state, target]));

/**
 * The transition table: for each event, where each state goes.
 * @type {Record<string, Row>}
 */
export const TRANSITIONS = {
  /** A vectors file starts to be read (`openFiles`); it replaces what is there once read. */
  openVectors: { ...all(SETTLED, 'loading'), otherwise: refuse((state) => `cannot open a file now: ${busy(state)}`) },
  /** The vectors file is read: its vectors replace the text or vectors from before. */
  vectorsOpened: { loading: 'loaded', otherwise: impossible('finish opening vectors') },
  /** The read failed or was stopped: what was there before stays. */
  openFailed: { loading: BACK, otherwise: 'stay' },
  /**
   * The session takes a text (anew: a File reaches the worker as a fresh copy with each
   * request): whatever it held gives way, nothing is prepared yet, and nothing is left to go
   * back to. After learned merges the text is installed again for tokenizing: still 'learning'.
   */
  replaceText: {
    ...all(SETTLED, 'idle'),
    learning: 'stay',
    otherwise: refuse((state) => `cannot take another text now: ${busy(state)}`),
    forgetsBefore: true,
  },
  /** BPE merges start to be learned on the session's text (`learnBpe`). */
  learnBpe: { ...all(SETTLED, 'learning'), otherwise: refuse((state) => `cannot learn BPE merges now: ${busy(state)}`) },
  /** A text starts to be tokenized (`prepare`); after learned merges it goes on from 'learning'. */
  prepare: { ...all([...SETTLED, 'learning'], 'stay'), otherwise: refuse((state) => `cannot prepare a text now: ${busy(state)}`) },
  /** The text is tokenized: a fresh trainer, ready to train. */
  prepared: { ...all([...SETTLED, 'learning'], 'prepared'), otherwise: impossible('finish preparing a text') },
  /** Tokenizing failed: after learned merges, back to the state before them; else the trainer from before stays. */
  prepareFailed: { learning: BACK, otherwise: 'stay' },
  /** Learning the merges failed: back to the state before them. */
  learningFailed: { learning: BACK, otherwise: 'stay' },
  /** `train`: starts, or resumes after a pause. */
  train: {
    prepared: 'training',
    paused: 'training',
    idle: refuse(() => 'choose a text first'),
    otherwise: refuse((state) => `cannot train now: training is ${state}`),
  },
  /** `pause`: only training pauses; in any other state the reply just says the state. */
  pause: { training: 'paused', otherwise: 'stay' },
  /** `stop`: ends training, learning or reading; in any other state the reply just says the state. */
  stop: { training: 'stopped', paused: 'stopped', learning: BACK, loading: BACK, otherwise: 'stay' },
  /** The trainer ran its last epoch. */
  finished: { training: 'done', otherwise: impossible('finish training') },
  /** Training failed (it diverged, or a step threw): the vectors so far stay. */
  trainingFailed: { training: 'stopped', paused: 'stopped', otherwise: 'stay' },
};

/** Every event of the table. */
export const EVENTS = Object.keys(TRANSITIONS);

/**
 * Where `event` moves `state`, with `before` the state that learning or loading started
 * from: the next state and the next `before`, or the error that refuses the event.
 * @param {TrainingState} state @param {string} event @param {TrainingState} before
 * @returns {{state: TrainingState, before: TrainingState} | {refused: Error}}
 */
export function next(state, event, before) {
  const row = TRANSITIONS[event];
  if (!row) throw new Error(`unknown event '${event}'`);
  const target = row[state] ?? row.otherwise;
  if (typeof target === 'function') return { refused: target(state) };
  if (row.forgetsBefore) before = INITIAL_STATE;
  if (target === 'stay') return { state, before };
  if (target === BACK) return { state: before, before: INITIAL_STATE };
  // Entering learning or loading remembers where from; another state forgets it.
  const remembers = target === 'learning' || target === 'loading';
  return { state: target, before: remembers && state !== target ? state : remembers ? before : INITIAL_STATE };
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
