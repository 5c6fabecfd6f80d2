// Training at the largest dimensions the form allows: Train answers at once (Stop enabled,
// the progress line moving), Stop ends training at once, and the map's frames leave training
// its own speed. An exact decomposition of the d × d covariance for each PCA frame would take
// O(d³) (15 s at 2000 dimensions in wasm, minutes at 4096), with the worker deaf to Stop
// meanwhile; this test fails if a frame costs that. In Chromium, against Vite.
//
// Run with `node --test tests/browser/bigdim.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { button, explorerSuite, field, stat, waitUntilDone, showParameters } from './helpers.js';

const suite = explorerSuite({ before, after });

/**
 * Bounds generous for a busy two-core machine, and far below what the exact decomposition
 * took: 14 s before the first progress at 2000 dimensions, more than a minute at 4096.
 */
const FEEDBACK_MS = 3_000;
const STOP_MS = 3_000;

const progressText = (page) => page.locator('#progress-text');

/** Opens the explorer on the built-in sample with `dim` dimensions, `epochs` epochs, one thread. */
async function sampleWith(dim, epochs) {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await field(page, 'Dimensions').fill(String(dim));
  await field(page, 'Epochs').fill(String(epochs));
  await field(page, 'Threads').fill('1');
  return { page, problems };
}

/** Milliseconds until `predicate` (run in the page) holds, at most `timeout`. */
async function msUntil(page, predicate, timeout) {
  const started = Date.now();
  await page.waitForFunction(predicate, null, { timeout, polling: 20 });
  return Date.now() - started;
}

test('at 4096 dimensions, Train answers at once and Stop ends training at once', { timeout: 120_000 }, async () => {
  const { page, problems } = await sampleWith(4096, 50);
  const started = Date.now();
  await button(page, 'Train').click();
  // Preparing the text (no frame work) comes first; then the view's frame and the first chunk.
  await page.waitForFunction(() => !document.getElementById('stop').disabled, null, { timeout: 60_000, polling: 20 });
  const stopEnabled = Date.now() - started;
  await page.waitForFunction(() => /^Epoch \d+ of 50/.test(document.getElementById('progress-text').textContent), null, { timeout: 60_000, polling: 20 });
  const progressShown = Date.now() - started;
  console.log(`4096 dimensions: Stop enabled after ${stopEnabled} ms, progress after ${progressShown} ms`);
  assert.ok(stopEnabled < FEEDBACK_MS, `Stop enabled ${stopEnabled} ms after Train`);
  assert.ok(progressShown < FEEDBACK_MS, `the first progress ${progressShown} ms after Train`);

  // Let it train past a few frames and an epoch's end, then stop it.
  await page.waitForTimeout(3_000);
  const text = await progressText(page).textContent();
  assert.match(text, /^Epoch \d+ of 50/, 'still training');
  await button(page, 'Stop').click();
  const stopped = await msUntil(page, () => document.getElementById('progress-text').textContent.startsWith('Stopped.'), 60_000);
  console.log(`4096 dimensions: stopped ${stopped} ms after Stop (${text})`);
  assert.ok(stopped < STOP_MS, `training stopped ${stopped} ms after Stop`);
  assert.equal(await page.getByRole('button', { name: /^Train( again)?$/ }).isEnabled(), true, 'Train enabled again');
  assert.deepEqual(problems, []);
  await page.close();
});

test('at 2000 dimensions, the map leaves training its own speed', { timeout: 180_000 }, async () => {
  // Three epochs of the sample train in about a second each here; with a frame after each
  // (and every 700 ms) costing 15 s, they took minutes.
  const { page, problems } = await sampleWith(2000, 3);
  const started = Date.now();
  await button(page, 'Train').click();
  await waitUntilDone(page, 120_000);
  const took = Date.now() - started;
  console.log(`2000 dimensions, 3 epochs: done after ${took} ms: ${await progressText(page).textContent()}`);
  assert.ok(took < 30_000, `3 epochs took ${took} ms`);
  // The map shows the trained vectors.
  assert.ok(await page.locator('#map canvas, canvas').first().isVisible());
  assert.deepEqual(problems, []);
  await page.close();
});
