// Unit tests of the training worker's scheduler (www/worker/scheduler.js): a newer task of a
// kind supersedes the older, `stop` cancels exactly the task of the kinds it names, a
// cancelled task's cleanup runs once whoever cancels it, and a sliced task answers the
// messages queued between two slices. The yield and the clock are fakes: no real waits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SUPERSEDED } from '../../www/protocol.js';
import { Chunk, Scheduler } from '../../www/worker/scheduler.js';

/**
 * A scheduler whose yield runs the messages queued in `inbox` (functions), one per yield,
 * as the worker's message loop would between two slices; its clock reads `clock.now`.
 */
function fakeWorker() {
  const inbox = [];
  const clock = { now: 0 };
  let yields = 0;
  const scheduler = new Scheduler({
    yieldToMessages: async () => {
      yields += 1;
      inbox.shift()?.();
    },
    now: () => clock.now,
  });
  return { scheduler, inbox, clock, yields: () => yields };
}

/**
 * A task of `kind` that takes `slices` slices, logging each in `log`, and gives way when
 * its token is cancelled; resolves with 'done' or the reason's message.
 */
async function sliced(scheduler, kind, slices, log, cleanup = null) {
  const token = scheduler.begin(kind, cleanup);
  try {
    for (let i = 0; i < slices; i++) {
      log.push(`${kind} ${i}`);
      await scheduler.slice(token);
    }
    return 'done';
  } catch (error) {
    return error.message;
  } finally {
    token.end();
  }
}

test('a newer task of the same kind supersedes the running one, which gives way at its next slice', async () => {
  const { scheduler, inbox } = fakeWorker();
  const log = [];
  let newer;
  // The second message that arrives while the first task runs is a newer request of its kind.
  inbox.push(() => {}, () => { newer = sliced(scheduler, 'text', 2, log); });
  const older = await sliced(scheduler, 'text', 5, log);
  assert.equal(older, SUPERSEDED);
  assert.equal(await newer, 'done');
  // The older task ran two slices, then the newer one ran to its end: no slice of the older after it.
  assert.deepEqual(log, ['text 0', 'text 1', 'text 0', 'text 1']);
  assert.equal(scheduler.current('text'), null);
});

test('a task of another kind is not superseded', async () => {
  const { scheduler, inbox } = fakeWorker();
  const log = [];
  let other;
  inbox.push(() => { other = sliced(scheduler, 'evaluate', 1, log); });
  assert.equal(await sliced(scheduler, 'text', 3, log), 'done');
  assert.equal(await other, 'done');
});

test('stop cancels exactly the task of the kinds it names, with its reason, and only its cleanup runs', async () => {
  const { scheduler, inbox } = fakeWorker();
  const cleaned = [];
  const log = [];
  const stopped = new Error('stopped reading vectors.txt');
  let cancelled;
  let evaluation;
  inbox.push(() => { evaluation = sliced(scheduler, 'evaluate', 3, log, () => cleaned.push('evaluate')); });
  inbox.push(() => { cancelled = scheduler.cancel(['read', 'text'], stopped); });
  const read = await sliced(scheduler, 'read', 10, log, () => cleaned.push('read'));
  assert.equal(read, 'stopped reading vectors.txt');
  // Only a 'read' ran: 'text' had no task to cancel, and the evaluation goes on.
  assert.deepEqual(cancelled, ['read']);
  assert.deepEqual(cleaned, ['read']);
  assert.equal(await evaluation, 'done');
  // The evaluation's first yield ran the stop, before the read's second slice.
  assert.deepEqual(log.filter((entry) => entry.startsWith('read')), ['read 0']);
});

test("a cancelled task's cleanup runs once, whoever cancels it and however often", () => {
  const { scheduler } = fakeWorker();
  let cleanups = 0;
  const token = scheduler.begin('read', () => { cleanups += 1; });
  assert.equal(scheduler.current('read'), token);
  // `stop` cancels it; then the task's own failure path cancels it again; then a newer read begins.
  assert.deepEqual(scheduler.cancel(['read']), ['read']);
  assert.equal(token.cancel(new Error('failed')), false);
  scheduler.begin('read');
  assert.deepEqual(scheduler.cancel(['read', 'read']), ['read']);
  assert.equal(cleanups, 1);
  assert.equal(token.cancelled, true);
  assert.throws(() => token.check(), { message: SUPERSEDED });
});

test('a task that failed by itself cancels its own token: its cleanup runs, and it says it was still running', () => {
  const { scheduler } = fakeWorker();
  let cleanups = 0;
  const token = scheduler.begin('read', () => { cleanups += 1; });
  assert.equal(token.cancel(new Error('not a vectors file')), true);
  assert.equal(cleanups, 1);
  // `stop` after the failure finds nothing to cancel; the task runs until it has given way.
  assert.deepEqual(scheduler.cancel(['read']), []);
  assert.equal(scheduler.current('read'), token);
  token.end();
  assert.equal(scheduler.current('read'), null);
});

test('a task that ended is not cancelled: no cleanup, and no newer task is touched by its end', () => {
  const { scheduler } = fakeWorker();
  let cleanups = 0;
  const first = scheduler.begin('read', () => { cleanups += 1; });
  first.end();
  assert.equal(first.cancel(), false);
  assert.equal(first.cancelled, false);
  const second = scheduler.begin('read');
  first.end();
  assert.equal(scheduler.current('read'), second);
  assert.equal(cleanups, 0);
});

test("a superseded task's end does not unregister the task that superseded it", () => {
  const { scheduler } = fakeWorker();
  const older = scheduler.begin('text');
  const newer = scheduler.begin('text');
  assert.equal(older.cancelled, true);
  older.end();
  assert.equal(scheduler.current('text'), newer);
});

test('slices yield to the messages between them: one yield a slice, and a stop is seen before the next slice', async () => {
  const { scheduler, inbox, yields } = fakeWorker();
  const log = [];
  inbox.push(() => log.push('query'), () => log.push('query'), () => scheduler.cancel(['train']));
  const result = await sliced(scheduler, 'train', 10, log);
  assert.equal(result, SUPERSEDED);
  assert.deepEqual(log, ['train 0', 'query', 'train 1', 'query', 'train 2']);
  assert.equal(yields(), 3);
});

test('a chunk is sized so a slice takes about the target time, within its bounds', () => {
  const { scheduler, clock } = fakeWorker();
  const chunk = new Chunk(1_000, 100, 10_000, 50);
  const sizes = [];
  // A step that costs 0.1 ms a unit on the fake clock.
  const step = (size) => {
    sizes.push(size);
    clock.now += size / 10;
    return size;
  };
  for (let i = 0; i < 3; i++) scheduler.timed(chunk, step);
  // 1,000 units took 100 ms: half as many next, which take 50 ms: the size stays.
  assert.deepEqual(sizes, [1_000, 500, 500]);
  // A much slower step is held at the minimum; a much faster one at the maximum, or the one passed.
  assert.equal(chunk.took(1e6), 100);
  assert.equal(chunk.took(1e-6), 10_000);
  assert.equal(chunk.took(1e-6, 20_000), 20_000);
  // No time measured (a clock too coarse): the size stays as it was.
  assert.equal(chunk.took(0), 20_000);
  assert.deepEqual(scheduler.timed(new Chunk(7, 1, 10), (size) => size * 2), { result: 14, elapsed: 0 });
});
