// Training on several threads in the browser: on a cross-origin isolated page (the dev
// server, and the production build served by `vite preview`, which both send COOP/COEP) the
// worker loads the threaded module (www/pkg-threads) and trains the built-in sample on a pool
// of 2 threads (host workers over shared memory, www/worker/threads.js), which really run: a job
// broadcast to the pool runs on 2 distinct threads. The loss falls, the planted analogies come
// out, queries answer; CBOW, chosen in the form, trains so too; a panic in a training thread
// ends the run with its message and a fresh worker trains again. A page that is not isolated
// falls back to one thread and says why:
// tests/browser/hosting.test.js, with a plain static server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { build, preview } from 'vite';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { button, combobox, explorerSuite, field, freePort, lossChart, openPage, stat, waitUntilDone, withChromium, showParameters } from './helpers.js';

const suite = explorerSuite({ before, after });

/** Waits for the sanity check after training on the sample: at least 90 % of its 296 planted analogies. */
async function assertSanityCheckPasses(page) {
  const sanity = page.locator('#sanity');
  await sanity.filter({ hasText: 'Sanity check' }).waitFor();
  const [, correct, total] = (await sanity.textContent()).match(/3CosAdd ([\d,]+) of ([\d,]+)/).map((n) => Number(n.replaceAll(',', '')));
  assert.ok(total === 296 && correct / total >= 0.9, await sanity.textContent());
}

/** The parameters in a bundle of the current model, downloaded from the Export card. */
async function bundleParams(page) {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), button(page, 'embedscope-bundle.json').click()]);
  return JSON.parse(await readFile(await file.path(), 'utf8')).params;
}

/**
 * Trains the built-in sample on `threads` threads in the open page and checks what a person
 * sees: the progress line names the threads, the loss falls every epoch but in noise, and
 * the analogy king : queen :: man : ? is answered with woman.
 */
async function trainSampleOnThreads(page, threads) {
  await stat(page, 'Vocabulary').waitFor();
  assert.equal(await page.locator('#threads-note').isHidden(), true, 'no "1 thread" note on an isolated page');
  await showParameters(page);
  await field(page, 'Threads').fill(String(threads));
  await button(page, 'Train').click();
  await waitUntilDone(page, 120_000);
  const progress = await page.locator('#progress-text').textContent();
  assert.match(progress, new RegExp(`tokens/s · ${threads} threads · learning rate`), progress);

  const losses = JSON.parse(await lossChart(page).getAttribute('data-epoch-losses'));
  assert.equal(losses.length, 5);
  assert.ok(losses.every(Number.isFinite), `finite losses: ${losses.join(', ')}`);
  // One thread gives 2.33 in the first epoch and 2.05 in the last on the sample; vectors that
  // learned nothing score 6 ln 2 = 4.16 per pair (a word and its 5 noise words at σ(0)).
  assert.ok(losses.at(-1) < 0.95 * losses[0], `the loss falls: ${losses.join(', ')}`);
  assert.ok(losses.at(-1) < 2.5, `the loss is far below 6 ln 2: ${losses.join(', ')}`);

  await combobox(page, 'A').fill('king');
  await combobox(page, 'B').fill('queen');
  await combobox(page, 'C').fill('man');
  await button(page, 'Solve').click();
  await page.getByText('king is to queen as man is to woman').waitFor();
}

test('on the dev server the worker trains on a pool of 2 threads that really run, and answers queries', { timeout: 240_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  // The worker's own account of its pool: which module it loaded and how many threads run a
  // job right now, which no control shows.
  const ask = (type, fields = {}) => page.evaluate(([t, f]) => window.explorer.worker.request(t, f), [type, fields]);
  const { info } = await ask('threads');
  assert.deepEqual(info, { module: 'threaded', max: Math.min(await page.evaluate(() => navigator.hardwareConcurrency), 8), cause: null });

  await trainSampleOnThreads(page, 2);
  const during = await ask('threads');
  assert.deepEqual([during.poolThreads, during.working], [2, 2], 'a pool of 2 threads, both running a broadcast job');
  // The sanity check after training on the sample scores its planted analogies.
  await assertSanityCheckPasses(page);

  // The pool is the worker's, not the model's: vectors opened from a file keep it (the
  // session once dropped it with the text, and went on with one thread until the next prepare).
  const word2vec = '3 2\nalpha 1 0\nbeta 0 1\ngamma 0.5 0.5\n';
  await page.getByLabel('Open a file…').setInputFiles([{ name: 'small.txt', mimeType: 'text/plain', buffer: Buffer.from(word2vec) }]);
  await stat(page, 'Format').filter({ hasText: 'word2vec' }).waitFor();
  const opened = await ask('threads');
  assert.deepEqual([opened.poolThreads, opened.working], [2, 2], 'the pool outlives the model it trained');
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();

  // Back to one thread: the pool goes, and the same run gives the same vectors twice.
  await showParameters(page);
  await field(page, 'Threads').fill('1');
  const once = [];
  for (let run = 0; run < 2; run++) {
    // Train, then Train again.
    await page.getByRole('button', { name: /^Train( again)?$/ }).click();
    await page.waitForFunction(() => !document.getElementById('progress-text').textContent.startsWith('Done.'));
    await waitUntilDone(page, 120_000);
    once.push(await lossChart(page).getAttribute('data-epoch-losses'));
  }
  assert.equal(once[0], once[1], 'one thread is reproducible');
  const single = await ask('threads');
  assert.deepEqual([single.poolThreads, single.working], [1, 1]);
  assert.match(await page.locator('#progress-text').textContent(), /tokens\/s · 1 thread · learning rate/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('CBOW, chosen in the form, trains on 2 threads and answers the planted analogies; the bundle records it', { timeout: 240_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await field(page, 'Learning rate').fill('0.025');
  const modelHelp = () => page.locator('#param-model-help').textContent();
  assert.match(await modelHelp(), /^skip-gram predicts/, 'the line under Model describes the model chosen');
  const sharedNoise = page.getByRole('checkbox', { name: 'Share noise words across a window', exact: true });
  assert.deepEqual([await sharedNoise.isVisible(), await sharedNoise.isChecked()], [true, false], "skip-gram's shared noise shows, off");
  await combobox(page, 'Model').selectOption('cbow');
  assert.equal(await field(page, 'Learning rate').inputValue(), '0.05', "skip-gram's default became CBOW's");
  assert.match(await modelHelp(), /^CBOW predicts/, 'the line under Model follows the choice');
  assert.equal(await sharedNoise.isVisible(), false, 'shared noise is hidden under CBOW, which draws once a window anyway');
  await field(page, 'Epochs').fill('10');
  await field(page, 'Threads').fill('2');
  await button(page, 'Train').click();
  await waitUntilDone(page, 120_000);
  const losses = JSON.parse(await lossChart(page).getAttribute('data-epoch-losses'));
  assert.ok(losses.every(Number.isFinite) && losses.at(-1) < losses[0], `the loss falls: ${losses.join(', ')}`);
  // The sanity check after training on the sample: all 296 planted analogies, as for skip-gram.
  await assertSanityCheckPasses(page);
  const bundle = await bundleParams(page);
  assert.deepEqual([bundle.cbow, bundle.sharedNoise, bundle.threads, bundle.alpha], [true, false, 2, 0.05]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('shared noise words, checked in the form, train the sample on 2 threads and answer the planted analogies; the bundle records it', { timeout: 240_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await page.getByRole('checkbox', { name: 'Share noise words across a window', exact: true }).check();
  await showParameters(page);
  await field(page, 'Threads').fill('2');
  await button(page, 'Train').click();
  await waitUntilDone(page, 120_000);
  await assertSanityCheckPasses(page);
  const bundle = await bundleParams(page);
  assert.deepEqual([bundle.cbow, bundle.sharedNoise, bundle.threads], [false, true, 2]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a panic in a training thread ends the run with its message, and the restarted worker trains on 2 threads again', { timeout: 240_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await field(page, 'Threads').fill('2');
  await field(page, 'Epochs').fill('50');
  // Thread 1 of the pool panics in the next step. The module is built with panic=abort, so
  // the thread traps inside the step; the worker must not wait for its job for ever.
  // A deliberate panic, which no control can cause, through the worker's test request.
  await page.evaluate(() => window.explorer.worker.request('testPanic', { inThread: true }));
  await button(page, 'Train').click();
  const alert = page.getByRole('alert').filter({ hasText: 'The training worker stopped' });
  await alert.waitFor({ timeout: 30_000 });
  const notice = await alert.textContent();
  assert.match(notice, /stopped \(a training thread panicked: a deliberate panic in training thread 1, to test .* \(at src\/train\/trainer\.rs:\d+\)\)/, notice);
  assert.match(notice, /restarted/, notice);

  // The fresh worker starts a fresh pool: the sample trains on 2 threads again.
  await page.waitForSelector('#worker-status[data-state="ready"]');
  await button(page, 'Use the built-in sample').click();
  await trainSampleOnThreads(page, 2);
  assert.deepEqual(problems.filter((p) => !p.includes('deliberate panic')), []);
  await page.close();
});

test('the Threads field offers 1 to the pool size, checked like the other fields', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await showParameters(page);
  assert.equal(await field(page, 'Threads').inputValue(), String(Math.min(cores, 8)), 'the default is the cores, at most 8');
  const help = page.locator('#param-threads-help');
  for (const [value, message] of [['0', /^from 1 to \d+/], ['9', /^from 1 to \d+/], ['1.5', /^enter a whole number$/], ['', /^enter a number$/]]) {
    await showParameters(page);
    await field(page, 'Threads').fill(value);
    assert.match(await help.textContent(), message, `Threads ${JSON.stringify(value)}`);
    assert.equal(await button(page, 'Train').isDisabled(), true);
  }
  await field(page, 'Threads').fill('2');
  assert.equal(await help.textContent(), 'training threads; 1 gives the same vectors every run');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the production build served with COOP/COEP (vite preview) trains on 2 threads', { timeout: 240_000 }, async () => {
  const dist = await mkdtemp(join(tmpdir(), 'embedscope-dist-threads-'));
  try {
    await build({ logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } });
    const server = await preview({
      logLevel: 'warn',
      build: { outDir: dist },
      preview: { host: '127.0.0.1', port: await freePort(), strictPort: true },
    });
    try {
      await withChromium({}, async (context) => {
        const { page, problems } = await openPage(context);
        await page.goto(server.resolvedUrls.local[0]);
        await page.waitForSelector('#worker-status[data-state="ready"]');
        assert.equal(await page.evaluate(() => self.crossOriginIsolated), true);
        await trainSampleOnThreads(page, 2);
        assert.deepEqual(problems, []);
      });
    } finally {
      await server.close();
    }
  } finally {
    await rm(dist, { recursive: true, force: true });
  }
});
