// Unit tests of what the training worker tells the page of its session
// (www/worker/session-state.js): the flags the page mirrors along the runs a person makes
// (a text prepared and trained, BPE merges, vectors opened and a read stopped, a new text),
// and a `state` message whenever they change or a request is answered, never otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { INITIAL_REPORT, SessionState } from '../../www/worker/session-state.js';

/** A session state whose messages are kept, and `run(steps)`: each step an event, or 'trained'. */
function session() {
  const posted = [];
  const state = new SessionState((message) => posted.push(message));
  const run = (...steps) => {
    for (const step of steps) {
      if (step === 'trained') state.trainedChunk();
      else state.fire(step);
    }
    return state.report();
  };
  return { state, posted, run };
}

/** A report written short: the state and the flags that are true. */
const short = ({ state, type: _type, id: _id, ...flags }) => [state, ...Object.keys(flags).filter((flag) => flags[flag])].join(' ');

test('a fresh session reports the initial report, which the page starts from', () => {
  const { state } = session();
  assert.deepEqual(state.report(), INITIAL_REPORT);
  assert.equal(short(INITIAL_REPORT), 'idle');
});

test('a text: read, prepared, trained, stopped, trained again', () => {
  const { run } = session();
  assert.equal(short(run('replaceText')), 'idle mayPrepare');
  assert.equal(short(run('prepare', 'prepared')), 'prepared showsVectors mayPrepare');
  assert.equal(short(run('train')), 'training showsVectors working');
  assert.equal(short(run('trained')), 'training showsVectors hasVectors working');
  assert.equal(short(run('pause')), 'paused showsVectors hasVectors working');
  assert.equal(short(run('stop')), 'stopped showsVectors hasVectors');
  // Trained again: the statistics do not follow the form while the trained model would give way.
  assert.equal(short(run('prepare', 'prepared')), 'prepared showsVectors mayPrepare');
  assert.equal(short(run('train', 'trained', 'finished')), 'done showsVectors hasVectors');
});

test('BPE: learning from a new text shows nothing; learning to train again keeps the vectors shown', () => {
  const { run } = session();
  assert.equal(short(run('replaceText', 'learnBpe')), 'learning working');
  assert.equal(short(run('stop')), 'idle mayPrepare');
  assert.equal(short(run('learnBpe', 'prepared', 'train', 'trained', 'finished')), 'done showsVectors hasVectors');
  assert.equal(short(run('learnBpe')), 'learning showsVectors hasVectors working');
  assert.equal(short(run('prepareFailed')), 'done showsVectors hasVectors');
});

test('vectors: opened over a trained text, a read stopped, and a new text after them', () => {
  const { run } = session();
  run('replaceText', 'prepared', 'train', 'trained', 'finished');
  assert.equal(short(run('openVectors')), 'loading showsVectors');
  assert.equal(short(run('stop')), 'done showsVectors hasVectors');
  // The vectors replace the text: nothing to prepare until a text is read.
  assert.equal(short(run('openVectors', 'vectorsOpened')), 'loaded showsVectors hasVectors');
  assert.equal(short(run('openVectors', 'openFailed')), 'loaded showsVectors hasVectors');
  assert.equal(short(run('replaceText')), 'idle mayPrepare');
});

test('vectors opened first: reading shows nothing, and a stopped read leaves the session as it was', () => {
  const { run } = session();
  assert.equal(short(run('openVectors')), 'loading');
  assert.equal(short(run('stop')), 'idle');
});

test('a state message goes when the report changes or a request is answered, and only then', () => {
  const { state, posted, run } = session();
  run('replaceText');
  // The state stayed idle, but a text now waits to be prepared: the page is told.
  assert.deepEqual(posted, [{ type: 'state', id: null, state: 'idle', showsVectors: false, hasVectors: false, mayPrepare: true, working: false }]);
  run('prepare');
  assert.equal(posted.length, 1);
  run('prepared', 'train', 'trained', 'trained');
  assert.deepEqual(posted.slice(1).map(short), ['prepared showsVectors mayPrepare', 'training showsVectors working', 'training showsVectors hasVectors working']);
  // A request answered with the state it leaves unchanged still gets its reply.
  state.fire('pause', 7);
  state.fire('pause', 8);
  assert.deepEqual(posted.slice(4).map(({ id, state: s }) => [id, s]), [[7, 'paused'], [8, 'paused']]);
});

test('a refused event changes nothing and posts nothing', () => {
  const { state, posted } = session();
  assert.throws(() => state.fire('train'), { message: 'choose a text first' });
  assert.throws(() => state.check('train'), { message: 'choose a text first' });
  assert.deepEqual(posted, []);
  assert.deepEqual(state.report(), INITIAL_REPORT);
});

test('each new model gets a new name', () => {
  const { state } = session();
  assert.deepEqual([state.newModel(), state.newModel()], [1, 2]);
});
