// Unit tests of the map's camera and glide (www/map/camera.js, glide.js): plain modules,
// run by node:test without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Camera, EASE_MS, FLAT, MARGIN, bounds, contains, fit } from '../../www/map/camera.js';
import { GLIDE_MS, Glide } from '../../www/map/glide.js';

const box = (x0, x1, y0, y1) => ({ x0, x1, y0, y1 });
const close = (a, b, message) => {
  for (const k of ['x0', 'x1', 'y0', 'y1']) assert.ok(Math.abs(a[k] - b[k]) < 1e-9, `${message}: ${k} ${a[k]} vs ${b[k]}`);
};

test('fit widens the box by the margin; a single point gets a unit span', () => {
  close(fit(box(0, 10, -1, 1)), box(-0.5, 10.5, -1.1, 1.1), 'margin');
  close(fit(box(3, 3, 5, 5)), box(2.5, 3.5, 4.5, 5.5), 'degenerate');
  assert.deepEqual(bounds(new Float32Array([1, 2, NaN, 9, -1, 4])), box(-1, 1, 2, 4), 'non-finite points skipped');
});

test('the camera fits the first frame at once, then stays still while points move inside', () => {
  const camera = new Camera();
  assert.equal(camera.follow(box(0, 10, 0, 10), 0), true);
  const first = camera.at(0);
  close(first, fit(box(0, 10, 0, 10)), 'first frame fitted');
  assert.equal(camera.follow(box(1, 9, 2, 8), 100), false, 'inside and not much smaller: no move');
  assert.equal(camera.at(100), first);
  // A point leaves the view: the camera eases to the new fit.
  assert.equal(camera.follow(box(0, 20, 0, 10), 200), true);
  assert.ok(camera.easing(200 + EASE_MS / 2));
  const halfway = camera.at(200 + EASE_MS / 2);
  assert.ok(halfway.x1 > first.x1 && halfway.x1 < fit(box(0, 20, 0, 10)).x1, 'eased, not jumped');
  close(camera.at(200 + EASE_MS), fit(box(0, 20, 0, 10)), 'arrived');
  // The cloud shrinks to a small part of the view: fitted again.
  assert.equal(camera.follow(box(4, 5, 4, 5), 1000), true);
});

test('zoom keeps the point under the pointer; pan moves by fractions; the person\'s view is kept until reset', () => {
  const camera = new Camera();
  camera.follow(box(0, 10, 0, 10), 0);
  const view = camera.at(0);
  const fx = 0.25;
  const fy = 0.75;
  const under = (v) => [v.x0 + fx * (v.x1 - v.x0), v.y1 - fy * (v.y1 - v.y0)];
  const before = under(view);
  camera.zoomAt(fx, fy, 2, 0);
  const zoomed = camera.at(0);
  const after = under(zoomed);
  assert.ok(Math.abs(before[0] - after[0]) < 1e-9 && Math.abs(before[1] - after[1]) < 1e-9, 'the point stays under the pointer');
  assert.ok(Math.abs((zoomed.x1 - zoomed.x0) * 2 - (view.x1 - view.x0)) < 1e-9, 'half the span');
  camera.pan(0.5, 0, 0);
  const panned = camera.at(0);
  assert.ok(Math.abs(panned.x0 - (zoomed.x0 - 0.5 * (zoomed.x1 - zoomed.x0))) < 1e-9, 'dragging right shows what was left');
  assert.equal(camera.follow(box(-100, 100, -100, 100), 10), false, 'a zoomed-in camera does not follow');
  camera.reset(20);
  close(camera.at(20 + EASE_MS), fit(box(-100, 100, -100, 100)), 'reset fits the points again');
  assert.equal(camera.moved, false);
});

test('zoom is limited, and nonsense is ignored', () => {
  const camera = new Camera();
  camera.follow(box(0, 1, 0, 1), 0);
  for (let i = 0; i < 100; i += 1) camera.zoomAt(0.5, 0.5, 10, 0);
  const span = camera.at(0).x1 - camera.at(0).x0;
  assert.ok(span > 0 && Number.isFinite(span), `a finite span (${span})`);
  const kept = camera.at(0);
  camera.zoomAt(0.5, 0.5, NaN, 0);
  camera.place(box(1, 0, 0, 1));
  assert.equal(camera.at(0), kept);
  assert.ok(contains(box(0, 1, 0, 1), box(Infinity, -Infinity, Infinity, -Infinity)), 'an empty box lies anywhere');
});

test('points glide from where they are shown to the new frame, matched by word', () => {
  const glide = new Glide();
  glide.set(['a', 'b'], new Float32Array([0, 0, 10, 10]), 0, { instant: true });
  assert.deepEqual(Array.from(glide.at(0)), [0, 0, 10, 10], 'the first frame is shown at once');
  glide.set(['a', 'b'], new Float32Array([10, 0, 10, 20]), 1000);
  const mid = Array.from(glide.at(1000 + GLIDE_MS / 2));
  assert.ok(mid[0] > 0 && mid[0] < 10 && mid[3] > 10 && mid[3] < 20, `between the frames: ${mid}`);
  assert.ok(glide.moving(1000 + GLIDE_MS / 2));
  assert.deepEqual(Array.from(glide.at(1000 + GLIDE_MS)), [10, 0, 10, 20]);
  // Other words: 'b' keeps its path, the new word 'c' appears where it belongs.
  glide.set(['c', 'b'], new Float32Array([5, 5, 0, 0]), 2000);
  const start = Array.from(glide.at(2000));
  assert.deepEqual(start, [5, 5, 10, 20]);
});

test('the flat-axis rule fits the cases src/plot/geometry.rs is tested on too', () => {
  const shared = JSON.parse(readFileSync(new URL('../shared/flat-axis.json', import.meta.url), 'utf8'));
  assert.equal(FLAT, shared.flat);
  assert.equal(MARGIN, shared.margin);
  for (const { what, coords, range } of shared.cases) {
    // The Rust side reads f32 coordinates: the cases' numbers are exact in f32.
    assert.deepEqual(Array.from(new Float32Array(coords)), coords, `${what}: exact in f32`);
    const [x0, x1, y0, y1] = range;
    close(fit(bounds(coords)), { x0, x1, y0, y1 }, what);
  }
});
