// Unit tests of the session's state machine as the worker reads it (www/worker/states.js over
// transitions.json, which src/session/machine.rs writes): every state under every event
// against a table of known answers, the refusals and their messages, and "back to the state
// before" for learning BPE merges and reading a vectors file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACK, EVENTS, INITIAL_STATE, STATES, TrainingMachine, next } from '../../www/worker/states.js';

/** What each event does to each state: a state, BACK, '=' (no change), or 'refused'. */
const EXPECTED = {
  //                idle        learning    prepared    training    paused      stopped     done        loading     loaded
  openVectors:    ['loading',  'refused',  'loading',  'refused',  'refused',  'loading',  'loading',  'refused',  'loading'],
  vectorsOpened:  ['refused',  'refused',  'refused',  'refused',  'refused',  'refused',  'refused',  'loaded',   'refused'],
  openFailed:     ['=',        '=',        '=',        '=',        '=',        '=',        '=',        BACK,       '='],
  replaceText:    ['=',        '=',        'idle',     'refused',  'refused',  'idle',     'idle',     'refused',  'idle'],
  learnBpe:       ['learning', 'refused',  'learning', 'refused',  'refused',  'learning', 'learning', 'refused',  'learning'],
  prepare:        ['=',        '=',        '=',        'refused',  'refused',  '=',        '=',        'refused',  '='],
  prepared:       ['prepared', 'prepared', '=',        'refused',  'refused',  'prepared', 'prepared', 'refused',  'prepared'],
  prepareFailed:  ['=',        BACK,       '=',        '=',        '=',        '=',        '=',        '=',        '='],
  learningFailed: ['=',        BACK,       '=',        '=',        '=',        '=',        '=',        '=',        '='],
  train:          ['refused',  'refused',  'training', 'refused',  'training', 'refused',  'refused',  'refused',  'refused'],
  pause:          ['=',        '=',        '=',        'paused',   '=',        '=',        '=',        '=',        '='],
  stop:           ['=',        BACK,       '=',        'stopped',  'stopped',  '=',        '=',        BACK,       '='],
  finished:       ['refused',  'refused',  'refused',  'done',     'refused',  'refused',  'refused',  'refused',  'refused'],
  trainingFailed: ['=',        '=',        '=',        'stopped',  'stopped',  '=',        '=',        '=',        '='],
};

test('the table names every state of the protocol and every event once', () => {
  assert.deepEqual(STATES, ['idle', 'learning', 'prepared', 'training', 'paused', 'stopped', 'done', 'loading', 'loaded']);
  assert.deepEqual([...EVENTS].sort(), Object.keys(EXPECTED).sort());
  assert.equal(INITIAL_STATE, 'idle');
  assert.equal(new TrainingMachine().state, 'idle');
});

test('every state under every event: known answers', () => {
  // 'done' stands for the state before learning or loading, so BACK is told from '='.
  const before = 'done';
  for (const event of EVENTS) {
    STATES.forEach((state, i) => {
      const expected = EXPECTED[event][i];
      const moved = next(state, event, before);
      const got = 'refused' in moved ? 'refused' : moved.state === state ? '=' : moved.state === before && (state === 'learning' || state === 'loading') ? BACK : moved.state;
      assert.equal(got, expected, `${event} in ${state}`);
    });
  }
});

test('an impossible transition is refused and leaves the machine as it was', () => {
  const machine = new TrainingMachine();
  assert.throws(() => machine.fire('train'), { message: 'choose a text first' });
  assert.throws(() => machine.fire('finished'), /cannot finish training while training is idle/);
  assert.equal(machine.state, 'idle');
  machine.fire('prepared');
  machine.fire('train');
  assert.equal(machine.state, 'training');
  assert.throws(() => machine.fire('openVectors'), { message: 'cannot open a file now: training is training' });
  assert.throws(() => machine.fire('learnBpe'), { message: 'cannot learn BPE merges now: training is training' });
  assert.throws(() => machine.fire('prepare'), { message: 'cannot prepare a text now: training is training' });
  assert.throws(() => machine.fire('train'), { message: 'cannot train now: training is training' });
  assert.equal(machine.state, 'training');
  assert.equal(machine.refusal('pause'), null);
  assert.match(machine.refusal('replaceText').message, /^cannot take another text now/);
});

test('the worker\'s refusals keep the words the page showed: a file being read, training running', () => {
  const machine = new TrainingMachine();
  machine.fire('openVectors');
  assert.equal(machine.refusal('openVectors').message, 'cannot open a file now: another file is being read');
  assert.equal(machine.refusal('train').message, 'cannot train now: training is loading');
});

test('fire says whether the state changed', () => {
  const machine = new TrainingMachine();
  assert.equal(machine.fire('stop'), false);
  assert.equal(machine.fire('replaceText'), false);
  assert.equal(machine.fire('prepared'), true);
  assert.equal(machine.fire('prepared'), false);
  assert.equal(machine.fire('train'), true);
  assert.equal(machine.fire('pause'), true);
  assert.equal(machine.fire('pause'), false);
});

test('stop while BPE merges are learned goes back to the state before: the trained vectors stay', () => {
  const machine = new TrainingMachine();
  for (const event of ['prepared', 'train', 'finished', 'learnBpe']) machine.fire(event);
  assert.equal(machine.state, 'learning');
  machine.fire('stop');
  assert.equal(machine.state, 'done');
  // Learned merges, then the text tokenized with them: prepared.
  machine.fire('learnBpe');
  machine.fire('prepare');
  assert.equal(machine.state, 'learning');
  machine.fire('prepared');
  assert.equal(machine.state, 'prepared');
  // A failed tokenizing after the merges goes back too.
  machine.fire('learnBpe');
  machine.fire('prepareFailed');
  assert.equal(machine.state, 'prepared');
  // The text installed again for tokenizing (a File comes as a fresh copy): the trainer
  // from before is gone, so a stop then goes back to idle.
  machine.fire('learnBpe');
  machine.fire('replaceText');
  assert.equal(machine.state, 'learning');
  machine.fire('stop');
  assert.equal(machine.state, 'idle');
});

test('stop or a failure while a vectors file is read goes back to what was open; a read that ends opens them', () => {
  const machine = new TrainingMachine();
  for (const event of ['openVectors', 'vectorsOpened']) machine.fire(event);
  assert.equal(machine.state, 'loaded');
  machine.fire('openVectors');
  machine.fire('stop');
  assert.equal(machine.state, 'loaded');
  machine.fire('replaceText');
  machine.fire('prepared');
  machine.fire('openVectors');
  machine.fire('openFailed');
  assert.equal(machine.state, 'prepared');
  // What "before" was is forgotten once back: a second stop changes nothing.
  assert.equal(machine.fire('stop'), false);
  assert.equal(machine.before, INITIAL_STATE);
});

test('an unknown event is a programming error, not a refusal', () => {
  assert.throws(() => next('idle', 'explode', 'idle'), /unknown event 'explode'/);
});
