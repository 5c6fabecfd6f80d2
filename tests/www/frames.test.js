// Unit tests of the timeline's frame store (www/timeline/frames.js): its cap, its even
// thinning, the newest frame always held, word lists shared; and the Timeline keeping the
// frame scrubbed to in its place when the store thins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FRAME_BYTES, FRAME_CAP, FrameStore } from '../../www/timeline/frames.js';

const frame = (n, words = ['a', 'b']) => ({ n, words: [...words], coords: new Float32Array(2 * words.length) });

test('the store keeps every frame until it is full', () => {
  const store = new FrameStore(8);
  for (let n = 0; n < 8; n += 1) store.push(frame(n));
  assert.deepEqual(store.all().map((f) => f.n), [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.equal(store.length, 8);
  assert.equal(store.at(7).n, 7);
});

test('a long run is thinned evenly, within the cap, the newest always held', () => {
  const store = new FrameStore(8);
  for (let n = 0; n < 1000; n += 1) {
    store.push(frame(n));
    const ns = store.all().map((f) => f.n);
    assert.ok(ns.length <= 9, `${ns.length} frames held`);
    assert.equal(ns.at(-1), n, 'the newest is held');
    const kept = store.kept.map((f) => f.n);
    assert.equal(kept[0], 0, 'the first stays');
    const gaps = new Set(kept.slice(1).map((k, i) => k - kept[i]));
    assert.ok(gaps.size <= 1, `evenly spaced: ${kept}`);
    if (n >= 8) assert.ok(kept.length >= 4, 'at least half the cap stays');
  }
  assert.equal(store.stride, 128);
});

test('the default cap bounds the memory of 10,000 words to 20 MB', () => {
  const store = new FrameStore();
  const words = Array.from({ length: 10_000 }, (_, i) => `w${i}`);
  for (let n = 0; n < 3 * FRAME_CAP; n += 1) store.push({ n, words: n === 0 ? words : [...words], coords: new Float32Array(20_000) });
  assert.ok(store.length <= FRAME_CAP + 1);
  assert.ok(store.coordinateBytes() <= (FRAME_CAP + 1) * 10_000 * 8);
  // Every frame shows the same words, so they hold one list.
  assert.equal(new Set(store.all().map((f) => f.words)).size, 1);
});

test('frames of other words keep their own list', () => {
  const store = new FrameStore(4);
  store.push(frame(0, ['a', 'b']));
  store.push(frame(1, ['a', 'c']));
  store.push(frame(2, ['a', 'c']));
  const [f0, f1, f2] = store.all();
  assert.notEqual(f0.words, f1.words);
  assert.equal(f1.words, f2.words);
});

test('the last frame can be replaced by the same moment drawn again', () => {
  const store = new FrameStore(4);
  store.push(frame(0));
  store.push(frame(1));
  const again = store.replaceLast(frame(2));
  assert.deepEqual(store.all().map((f) => f.n), [0, 2]);
  assert.equal(again.words, store.at(0).words, 'its words are still shared');
  for (let n = 3; n < 12; n += 1) store.push(frame(n));
  store.replaceLast(frame(99));
  assert.equal(store.last().n, 99);
  assert.ok(store.length <= 5);
});

test('loading a bundle replaces the frames; the capacity and the newest are kept', () => {
  const store = new FrameStore(4);
  store.push(frame(99));
  store.load([0, 1, 2, 3, 4].map((n) => frame(n)));
  assert.deepEqual(store.all().map((f) => f.n), [0, 1, 2, 3, 4]);
  const before = store.version;
  store.push(frame(5));
  assert.ok(store.version > before);
  assert.ok(store.all().map((f) => f.n).at(-1) === 5);
  assert.throws(() => new FrameStore(3), /even number/);
});

test('a frame scrubbed to keeps its place when the store thins under it', async () => {
  // The Timeline without a page: a panel and host that record nothing.
  globalThis.requestAnimationFrame ??= (f) => setTimeout(() => f(performance.now()), 0);
  const { Timeline } = await import('../../www/timeline/timeline.js');
  const panel = new Proxy({}, { get: (_, name) => (name === 'readTrails' ? () => true : () => {}) });
  const shown = [];
  const timeline = new Timeline(panel, { hide() {} }, { show: (f) => shown.push(f), redraw() {}, drawLoss() {}, canvas: {} });
  timeline.store = new FrameStore(8);
  const progress = (n) => ({ epoch: 1, epochs: 1, tokensDone: n, tokensTotal: 100 });
  const words = ['a', 'b'];
  for (let n = 0; n < 8; n += 1) timeline.arrived({ n, words, coords: new Float32Array(4) }, progress(n));
  timeline.showIndex(6);
  assert.equal(shown.at(-1).n, 6);
  // The 9th frame halves the store: frame 6 is now the 4th kept.
  assert.equal(timeline.arrived({ n: 8, words, coords: new Float32Array(4) }, progress(8)), false, 'not drawn while scrubbed');
  assert.equal(timeline.shown().n, 6);
  assert.equal(timeline.index, 3);
});

test('a map of 250,000 words keeps fewer frames, evenly, within the byte budget, the newest held', () => {
  const store = new FrameStore();
  const words = Array.from({ length: 250_000 }, (_, i) => `w${i}`);
  const frameBytes = 250_000 * 8;
  for (let n = 0; n < 300; n += 1) {
    store.push({ n, words, coords: new Float32Array(500_000) });
    assert.ok(store.coordinateBytes() <= FRAME_BYTES + frameBytes, `${store.coordinateBytes()} bytes at frame ${n}`);
    assert.equal(store.last().n, n, 'the newest is held');
    const kept = store.kept.map((f) => f.n);
    assert.equal(kept[0], 0, 'the first stays');
    const gaps = new Set(kept.slice(1).map((k, i) => k - kept[i]));
    assert.ok(gaps.size <= 1, `evenly spaced: ${kept}`);
  }
  assert.ok(store.length >= FRAME_BYTES / frameBytes / 2, `${store.length} frames held`);
});
