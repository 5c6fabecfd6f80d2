// Unit tests of the map's density layer (www/map/density.js) with a stand-in map and worker:
// it asks for the grid over the view and half a view beyond, once a view and set of points,
// again when either changes (one request at a time, the latest view last), never again for
// a view whose request failed, and the kernel's width follows the number of points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BANDWIDTH, CELL_PX, DensityLayer, REACH, bandwidthFor } from '../../www/map/density.js';

/** A map whose view is `view` and which records the layers set on it. */
function fakeMap(view) {
  return { view, layers: [], densityView() { return this.view; }, setDensity(layer) { this.layers.push(layer); } };
}

/** A worker that answers each request when `answer(i)` is called, with a grid or null. */
function fakeWorker() {
  const asked = [];
  return {
    asked,
    estimate: (ask) => new Promise((resolve) => { asked.push({ ask, resolve }); }),
    answer: async (i, values = new Float32Array(ask(i).columns * ask(i).rows)) => {
      asked[i].resolve(values);
      await new Promise((r) => setTimeout(r, 0));
    },
  };
  function ask(i) { return asked[i].ask; }
}

const VIEW = { range: { x0: 0, x1: 10, y0: -5, y1: 5 }, width: 500, height: 300 };

test('asks once for the view and beyond it, and draws the answer', async () => {
  const map = fakeMap(VIEW);
  const worker = fakeWorker();
  const layer = new DensityLayer(/** @type {any} */ (map), worker.estimate);
  const coords = new Float32Array([1, 1, 2, 2]);
  layer.setPoints(coords);
  assert.equal(worker.asked.length, 0, 'nothing while off');
  layer.setOn(true);
  layer.setOn(true);
  assert.equal(worker.asked.length, 1, 'one request at a time');
  const { ask } = worker.asked[0];
  assert.deepEqual(ask.range, [-10 * REACH, 10 + 10 * REACH, -5 - 10 * REACH, 5 + 10 * REACH]);
  assert.equal(ask.columns, Math.round((500 * (1 + 2 * REACH)) / CELL_PX) + 1);
  assert.equal(ask.rows, Math.round((300 * (1 + 2 * REACH)) / CELL_PX) + 1);
  assert.equal(ask.coords, coords);
  await worker.answer(0);
  assert.equal(map.layers.length, 1, 'the grid drawn');
  assert.deepEqual(map.layers[0].range, ask.range);
  assert.equal(layer.drawn, 1);
  await layer.ask();
  assert.equal(worker.asked.length, 1, 'the same view and points: not asked again');
});

test('a change while a request is out asks again when it is answered; a failed view is not asked again', async () => {
  const map = fakeMap(VIEW);
  const worker = fakeWorker();
  const layer = new DensityLayer(/** @type {any} */ (map), worker.estimate);
  layer.setPoints(new Float32Array([1, 1]));
  layer.setOn(true);
  const moved = new Float32Array([3, 3]);
  layer.setPoints(moved);
  assert.equal(worker.asked.length, 1);
  await worker.answer(0);
  assert.equal(worker.asked.length, 2, 'the new points asked for once the first answer came');
  assert.equal(worker.asked[1].ask.coords, moved);
  await worker.answer(1, null);
  await layer.ask();
  assert.equal(worker.asked.length, 2, 'a failed view is not asked again');
  map.view = { ...VIEW, range: { ...VIEW.range, x1: 20 } };
  layer.ask();
  assert.equal(worker.asked.length, 3, 'another view is');
  layer.setOn(false);
  await worker.answer(2);
  assert.equal(map.layers.at(-1), null, 'an answer after the box is cleared is dropped');
});

test('the kernel narrows as the points grow, within 2 to 6 cells', () => {
  assert.equal(bandwidthFor(10_000), BANDWIDTH);
  assert.ok(bandwidthFor(300) > bandwidthFor(10_000) && bandwidthFor(10_000) > bandwidthFor(250_000));
  assert.equal(bandwidthFor(1), 6);
  assert.equal(bandwidthFor(1e9), 2);
});
