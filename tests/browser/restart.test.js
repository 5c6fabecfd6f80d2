// The worker's life and the page's drop targets, in Chromium against the Vite dev server: a
// worker that cannot load its wasm is retried a bounded number of times and the page then
// says what is wrong; one that ran and died is restarted every time; a file dropped on the
// evaluation card leaves no page-wide drop overlay behind.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { button, collectProblems, explorerSuite, stat, waitUntilDone } from './helpers.js';

const suite = explorerSuite({ before, after });

/** Whether `worker` is a training worker (www/worker/worker.js), not a thread of its pool (www/worker/thread-host.js). */
const isTrainingWorker = (worker) => new URL(worker.url()).pathname.endsWith('/worker.js');

/**
 * A fresh tab whose workers get a 404 for the wasm module on their first `failures`
 * starts (every start when `failures` is Infinity). The page's own request for it passes:
 * www/app/main.js loads the module before it creates the worker, so no worker exists yet then.
 * `workers()` counts the training workers the page started (not the threads of their pools,
 * www/worker/thread-host.js, which get the module from their training worker and fetch nothing).
 */
async function openWithFailingWorkers(failures) {
  const page = await suite.browser.context.newPage();
  const problems = collectProblems(page);
  let workers = 0;
  page.on('worker', (worker) => { if (isTrainingWorker(worker)) workers += 1; });
  // page.route reaches a dedicated worker's requests in this Chromium (checked: the
  // refused fetch is the worker's, and its error event is what the page reports).
  await page.route('**/embedscope_bg*.wasm', (route) => (workers === 0 || workers > failures
    ? route.continue()
    : route.fulfill({ status: 404, contentType: 'text/plain', body: 'not here' })));
  await page.goto(suite.url());
  return { page, problems, workers: () => workers };
}

/**
 * The problems other than the refused wasm requests (their 404s are the test's own doing).
 * Chromium's console line for a 404 names no URL; the 'HTTP 404: url' entry of every 404
 * stays, so a 404 of any other file still shows.
 */
const otherThanRefusedWasm = (problems) => problems.filter((p) => !/embedscope_bg[^/]*\.wasm/.test(p)
  && p !== 'console: Failed to load resource: the server responded with a status of 404 (Not Found)');

test('a worker that never loads its wasm is tried three times, then the page says what is wrong and what to do', { timeout: 60_000 }, async () => {
  const { page, problems, workers } = await openWithFailingWorkers(Infinity);
  const workerStatus = page.locator('#worker-status');
  await page.waitForSelector('#worker-status[data-state="error"]', { timeout: 20_000 });
  const text = await workerStatus.textContent();
  assert.match(text, /^The training worker could not start/);
  assert.match(text, /404/, 'the server\'s answer is named');
  assert.match(text, /\.wasm/, 'the file at fault is named');
  assert.match(text, /[Rr]eload/, 'and what to do');
  // It stays stopped: no worker is started after it gave up.
  const started = workers();
  await page.waitForTimeout(3_000);
  assert.equal(workers(), started);
  assert.equal(started, 3);
  // The sample the page opened at start says why it was not prepared…
  // (In the page's notice and in the Text card: the first of them.)
  await page.getByRole('alert').filter({ hasText: 'could not start' }).first().waitFor();
  // …and so does every action after, at once rather than waiting for a worker.
  await page.evaluate(() => { document.getElementById('notice').textContent = ''; });
  await button(page, 'Use the built-in sample').click();
  await page.getByRole('alert').filter({ hasText: 'could not start' }).first().waitFor({ timeout: 5_000 });
  assert.deepEqual(otherThanRefusedWasm(problems), []);
  await page.close();
});

test('a page that cannot load the wasm module says what is wrong and starts no worker', { timeout: 60_000 }, async () => {
  const page = await suite.browser.context.newPage();
  const problems = collectProblems(page);
  let workers = 0;
  page.on('worker', (worker) => { if (isTrainingWorker(worker)) workers += 1; });
  await page.route('**/embedscope_bg*.wasm', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not here' }));
  await page.goto(suite.url());
  await page.waitForSelector('#status[data-state="error"]');
  const text = await page.locator('#status').textContent();
  assert.match(text, /^Could not load the WebAssembly module: .*404.*\.wasm/);
  assert.match(text, /[Rr]eload/);
  assert.match(await page.locator('#worker-status[data-state="error"]').textContent(), /not started/);
  assert.equal(workers, 0);
  // The refused request, and www/app/main.js logging the error it shows.
  assert.deepEqual(otherThanRefusedWasm(problems).filter((p) => !p.startsWith('console: Error: failed to fetch Wasm')), []);
  await page.close();
});

test('a worker that fails its first start is retried quietly and the sample trains', { timeout: 90_000 }, async () => {
  const { page, problems, workers } = await openWithFailingWorkers(1);
  await page.waitForSelector('#worker-status[data-state="ready"]', { timeout: 20_000 });
  assert.equal(workers(), 2);
  // The sample opened at start was waiting for a worker, not for the one that failed.
  await stat(page, 'Vocabulary').waitFor();
  assert.equal(await page.getByRole('alert').isVisible(), false, 'no notice: nothing the person did was lost');
  await button(page, 'Train').click();
  await waitUntilDone(page);
  assert.deepEqual(otherThanRefusedWasm(problems), []);
  await page.close();
});

test('a worker that ran and then died is restarted each time, however often', { timeout: 90_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  for (let death = 1; death <= 4; death++) {
    // A deliberate panic, which no control can cause, through the worker's test request; the
    // request never answers (the worker dies), so its rejection is expected, and the alert
    // below is what the test checks.
    await page.evaluate(() => window.explorer.worker.request('testPanic').catch(() => {}));
    await page.getByRole('alert').filter({ hasText: 'was restarted' }).waitFor();
    await page.waitForSelector('#worker-status[data-state="ready"]');
    // The notice has no close button; hidden, the next death's notice is a new one to wait for.
    await page.evaluate(() => { document.getElementById('notice').hidden = true; });
  }
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  assert.deepEqual(problems.filter((p) => !p.includes('deliberate panic')), []);
  await page.close();
});

test('a file dropped on the evaluation card is its benchmark and leaves no drop overlay', { timeout: 60_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const overlay = page.locator('#drop-overlay');
  // A drag as Chromium delivers one from outside the window: over the page, then onto the
  // card (dragleave on the page's element with the card as relatedTarget), then a drop.
  await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['king queen 9.5\n'], 'pairs.txt', { type: 'text/plain' }));
    window.drag = (target, type, relatedTarget = null) => document.querySelector(target).dispatchEvent(
      new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer, relatedTarget: relatedTarget && document.querySelector(relatedTarget) }),
    );
  });
  const card = '#evaluation-form';
  await page.evaluate(() => { window.drag('main', 'dragenter'); window.drag('main', 'dragover'); });
  assert.equal(await overlay.isVisible(), true, 'over the page, the overlay invites the drop');
  await page.evaluate((card) => {
    window.drag(card, 'dragenter');
    window.drag('main', 'dragleave', card);
    window.drag(card, 'dragover');
  }, card);
  assert.equal(await overlay.isVisible(), false, 'over the card, the card is the target, not the page');
  await page.evaluate((card) => window.drag(card, 'drop'), card);
  assert.equal(await overlay.isVisible(), false, 'the drop ends the drag');
  assert.equal(await page.locator('#benchmark option:checked').textContent(), 'Your file: pairs.txt');
  assert.match(await page.locator('#source-name').textContent(), /Built-in sample/, 'the text stays');

  // A drop anywhere else still opens the file as a text, and hides the overlay too.
  await page.evaluate(() => { window.drag('main', 'dragover'); window.drag('main', 'drop'); });
  assert.equal(await overlay.isVisible(), false);
  await page.locator('#source-name', { hasText: 'pairs.txt' }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});
