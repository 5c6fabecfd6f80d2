// The progress line says where things stand for what is open, after a vectors file that
// did not open: refused as malformed, or stopped while it was read. In Chromium, against Vite.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { button, explorerSuite, RESULTS, stat, waitUntilDone } from './helpers.js';

const suite = explorerSuite({ before, after });

const progressText = (page) => page.locator('#progress-text');
const notice = (page) => page.locator('#notice');

/** `n` word2vec text lines of `dim` numbers each (no header): w0, w1, … */
const vectorLines = (n, dim, first = 0) =>
  Array.from({ length: n }, (_, i) => `w${first + i} ${Array.from({ length: dim }, (_, j) => (((i * 31 + j * 17) % 13) - 6) / 100).join(' ')}\n`).join('');

test('a refused vectors file: the line goes back to the text that stays open', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  assert.equal(await progressText(page).textContent(), 'Not started.');
  // The header promises 1,200 words; the file holds 1,000.
  const file = `1200 100\n${vectorLines(1000, 100)}`;
  await page.getByLabel('Open a file…').setInputFiles({ name: 'short.txt', mimeType: 'text/plain', buffer: Buffer.from(file) });
  await notice(page).filter({ hasText: '1200' }).waitFor();
  await page.locator('#source-name', { hasText: 'Built-in sample' }).waitFor();
  assert.equal(await progressText(page).textContent(), 'Not started.', 'the sample, prepared and not trained');

  // Trained, then a refused file: the line is the training's again.
  await button(page, 'Train').click();
  await waitUntilDone(page);
  const done = await progressText(page).textContent();
  await page.getByLabel('Open a file…').setInputFiles({ name: 'short.txt', mimeType: 'text/plain', buffer: Buffer.from(file) });
  await notice(page).filter({ hasText: '1200' }).waitFor();
  assert.equal(await progressText(page).textContent(), done);

  // Vectors open, then a refused file: the line is the vectors' again.
  await page.getByLabel('Open a file…').setInputFiles({ name: 'fine.txt', mimeType: 'text/plain', buffer: Buffer.from(`1000 100\n${vectorLines(1000, 100)}`) });
  const opened = 'Opened 1,000 vectors of 100 dimensions from fine.txt.';
  await progressText(page).filter({ hasText: opened }).waitFor();
  await page.getByLabel('Open a file…').setInputFiles({ name: 'short.txt', mimeType: 'text/plain', buffer: Buffer.from(file) });
  await notice(page).filter({ hasText: '1200' }).waitFor();
  assert.equal(await page.locator('#source-name').textContent(), 'fine.txt');
  assert.equal(await progressText(page).textContent(), opened);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a vectors file stopped while it is read: the line goes back to the text that stays open', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  // About 40 MB, read in 4 MB slices: Stop lands between two of them.
  const path = join(RESULTS, 'stopped-vectors.txt');
  const words = 100_000;
  const handle = await open(path, 'w');
  await handle.write(`${words} 80\n`);
  for (let first = 0; first < words; first += 10_000) await handle.write(vectorLines(10_000, 80, first));
  await handle.close();
  // Stop is clicked from within the page as the first slice is shown read.
  await page.evaluate(() => {
    const line = document.getElementById('progress-text');
    const observer = new MutationObserver(() => {
      if (/^Reading vectors: [1-9]/.test(line.textContent)) {
        observer.disconnect();
        window.stoppedAt = line.textContent;
        document.getElementById('stop').click();
      }
    });
    observer.observe(line, { childList: true, characterData: true, subtree: true });
  });
  await page.getByLabel('Open a file…').setInputFiles(path);
  await notice(page).filter({ hasText: 'stopped reading stopped-vectors.txt' }).waitFor();
  const stoppedAt = await page.evaluate(() => window.stoppedAt);
  assert.match(stoppedAt, /^Reading vectors: \d+ % of/);
  assert.ok(!/^Reading vectors: 100 %/.test(stoppedAt), stoppedAt);
  await page.locator('#source-name', { hasText: 'Built-in sample' }).waitFor();
  await page.waitForFunction(() => !document.getElementById('train').disabled);
  assert.equal(await progressText(page).textContent(), 'Not started.', 'the sample, prepared and not trained');
  await rm(path);
  assert.deepEqual(problems, []);
  await page.close();
});
