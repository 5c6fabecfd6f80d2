// Unit tests of the even thinning the loss series and the timeline share
// (www/shared/even-thinning.js), on the cases src/map/timeline.rs is tested on too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EvenThinning } from '../../www/shared/even-thinning.js';
import { LossSeries } from '../../www/training/loss-series.js';
import { FrameStore } from '../../www/timeline/frames.js';

const shared = JSON.parse(readFileSync(new URL('../shared/even-thinning.json', import.meta.url), 'utf8'));

test('thins the cases of tests/shared/even-thinning.json as the Rust rule does', () => {
  assert.ok(shared.cases.length >= 10);
  for (const { capacity, n, held } of shared.cases) {
    const thinned = new EvenThinning(capacity);
    for (let i = 0; i < n; i++) thinned.push(i);
    assert.deepEqual(thinned.all(), held, `capacity ${capacity}, ${n} items`);
    assert.equal(thinned.length, held.length);
  }
});

test('the loss series and the frame store hold what the shared rule holds', () => {
  for (const { capacity, n, held } of shared.cases.filter((c) => c.capacity >= 2 && c.n > 0)) {
    const series = new LossSeries(capacity);
    const store = new FrameStore(capacity);
    for (let i = 0; i < n; i++) {
      series.push(i, 1 / (i + 1));
      store.push({ n: i, words: [String(i)], coords: new Float32Array(2) });
    }
    assert.deepEqual([...series.points()].filter((_, i) => i % 2 === 0), held, `loss series of ${capacity}, ${n} points`);
    assert.deepEqual(store.all().map((f) => f.n), held, `frame store of ${capacity}, ${n} frames`);
  }
});

test('a capacity must be even and at least 2', () => {
  for (const bad of [0, 1, 3, 7, Number.NaN]) assert.throws(() => new EvenThinning(bad), /even number/);
});
