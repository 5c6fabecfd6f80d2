// Unit tests of when the training worker makes a map frame (www/worker/frame-pacing.js), on
// simulated runs: the built-in sample keeps a frame at every epoch's end on a fast machine
// and on one ten times slower, expensive frames on short epochs are spaced so that they
// take about a fifth of the time, and the last frame is always made. The times come from
// the worker's own measurements (the sample: epochs of 70 to 150 ms, frames of 1 to 8 ms
// after a first one of 10 to 20 ms; 4096 dimensions: epochs of 3 s, frames of 50 to 200 ms).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHUNK_MS, PROJECTION_INTERVAL_MS } from '../../www/protocol.js';
import { FramePacer } from '../../www/worker/frame-pacing.js';

/**
 * Trains `epochs` epochs of `chunks` chunks on a pacer, as the worker does: a frame on request
 * first (the view, costing `requestMs`), then chunks of CHUNK_MS (the worker sizes them so
 * whatever the machine), a paced frame costing `frameMs` after any chunk where one is due.
 * Returns the epochs whose end got a frame, how many frames were made while training, and
 * the share of the time they took.
 * @param {{requestMs: number, frameMs: number, chunks: number, epochs: number}} run
 */
function train({ requestMs, frameMs, chunks, epochs }) {
  const pacer = new FramePacer();
  let now = requestMs;
  pacer.requested(now, requestMs);
  const start = now;
  const ends = [];
  let frames = 0;
  let framesMs = 0;
  for (let epoch = 1; epoch <= epochs; epoch += 1) {
    for (let chunk = 1; chunk <= chunks; chunk += 1) {
      now += CHUNK_MS;
      pacer.trained(CHUNK_MS);
      const progress = { done: epoch === epochs && chunk === chunks, epochTokensDone: chunk, epochTokens: chunks };
      if (!pacer.due(progress, now)) continue;
      now += frameMs;
      pacer.framed(now, frameMs);
      frames += 1;
      framesMs += frameMs;
      if (chunk === chunks) ends.push(epoch);
    }
  }
  return { ends, frames, share: framesMs / (now - start) };
}

/** The built-in sample's run, `slower` times slower: an epoch and a frame take `slower` times as long. */
const sample = (slower) => ({ requestMs: 15 * slower, frameMs: 5 * slower, chunks: 2 * slower, epochs: 4 });

test('every epoch end of the sample has its frame, on a fast machine and on slow ones', () => {
  for (let slower = 1; slower <= 10; slower += 1) {
    assert.deepEqual(train(sample(slower)).ends, [1, 2, 3, 4], `${slower} times slower`);
  }
});

test('an epoch end has its frame when the frame before cost more than a quarter of the epoch', () => {
  // A loaded machine deschedules the worker in the middle of a frame: the view's first frame
  // took 60 ms, the epochs 150 ms.
  assert.deepEqual(train({ requestMs: 60, frameMs: 20, chunks: 3, epochs: 4 }).ends, [1, 2, 3, 4]);
  // An epoch end that comes just after a frame within the epoch (PROJECTION_INTERVAL_MS).
  const chunks = PROJECTION_INTERVAL_MS / CHUNK_MS + 2;
  const run = train({ requestMs: 80, frameMs: 40, chunks, epochs: 3 });
  assert.deepEqual(run.ends, [1, 2, 3]);
  assert.ok(run.frames > 3, `${run.frames} frames: some within the epochs`);
});

test('at 4096 dimensions every epoch end has its frame, and frames every PROJECTION_INTERVAL_MS within', () => {
  const run = train({ requestMs: 200, frameMs: 60, chunks: 60, epochs: 3 });
  assert.deepEqual(run.ends, [1, 2, 3]);
  // 3 s epochs: a frame after 700 ms and at the end, about four an epoch.
  assert.ok(run.frames >= 12 && run.frames <= 15, `${run.frames} frames`);
  assert.ok(run.share < 0.1, `frames took ${run.share} of the time`);
});

test('expensive frames on short epochs are spaced: they take about a fifth of the time', () => {
  // Two-second frames (2000 dimensions, 10,000 words) on epochs of 100 ms, for 20 s: the
  // first epoch end after the view's frame, then one each 8 s of training (FRAME_SPACING
  // frames' time, 80 epochs), and the last.
  const run = train({ requestMs: 2_000, frameMs: 2_000, chunks: 2, epochs: 200 });
  assert.deepEqual(run.ends, [1, 80, 160, 200]);
  assert.equal(run.frames, 4);
  // Over a longer run the share comes down to a fifth.
  const long = train({ requestMs: 2_000, frameMs: 2_000, chunks: 2, epochs: 2_000 });
  assert.ok(long.share > 0.19 && long.share < 0.21, `frames took ${long.share} of the time`);
});

test('the last frame, when training is done, is always due', () => {
  const pacer = new FramePacer();
  pacer.requested(5_000, 5_000);
  pacer.framed(5_050, 5_000);
  pacer.trained(CHUNK_MS);
  assert.equal(pacer.due({ done: false, epochTokensDone: 10, epochTokens: 10 }, 5_100), false);
  assert.equal(pacer.due({ done: true, epochTokensDone: 10, epochTokens: 10 }, 5_100), true);
});

test('a frame on request starts the accounts again: time saved under the old view is not spent on the new one', () => {
  const pacer = new FramePacer();
  // A minute of training with cheap frames.
  pacer.requested(10, 10);
  pacer.trained(60_000);
  pacer.framed(60_100, 100);
  const epochEnd = { done: false, epochTokensDone: 5, epochTokens: 5 };
  assert.equal(pacer.due(epochEnd, 60_200), true);
  // The page asks for a view whose frames cost 2 s: one epoch end has its frame, the next
  // (100 ms later) waits.
  pacer.requested(62_200, 2_000);
  pacer.trained(100);
  assert.equal(pacer.due(epochEnd, 62_300), true);
  pacer.framed(64_300, 2_000);
  pacer.trained(100);
  assert.equal(pacer.due(epochEnd, 64_400), false);
});
