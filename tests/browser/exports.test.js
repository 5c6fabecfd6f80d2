// The Export card in Chromium, against Vite: each file is built when its button is
// pressed, one request to the worker for one file, and let go of after the download; a
// bundle of vectors trained here records the parameters they were trained with, not what
// the form says later; closing the tab asks first until the vectors are exported.
//
// Run with `node --test tests/browser/exports.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { button, explorerSuite, field, lossChart, stat, waitUntilDone, showParameters } from './helpers.js';

const suite = explorerSuite({ before, after });

const openFiles = (page, files) => page.getByLabel('Open a file…').setInputFiles(files);

/**
 * Opens the explorer with a record of what the page asks of the worker (`window.sent`, the
 * type and format of each message) and of the object URLs it holds (`window.liveUrls`).
 */
function openRecorded() {
  return suite.openExplorer(async (page) => {
    await page.addInitScript(() => {
      window.sent = [];
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (message, ...rest) {
        window.sent.push(message?.format ? `${message.type} ${message.format}` : message?.type);
        return post.call(this, message, ...rest);
      };
      window.liveUrls = new Set();
      const create = URL.createObjectURL;
      const revoke = URL.revokeObjectURL;
      URL.createObjectURL = (blob) => {
        const url = create(blob);
        window.liveUrls.add(url);
        return url;
      };
      URL.revokeObjectURL = (url) => {
        window.liveUrls.delete(url);
        revoke(url);
      };
    });
  });
}

/** Presses the button of the file `name` and returns the downloaded bytes. */
async function download(page, name) {
  const [file] = await Promise.all([page.waitForEvent('download'), button(page, name).click()]);
  assert.equal(file.suggestedFilename(), name);
  return readFile(await file.path());
}

/** Whether closing or reloading the tab now would ask first. */
const wouldAsk = (page) => page.evaluate(() => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
});

/** Trains the built-in sample for `epochs` epochs, leaving its other preset parameters. */
async function trainSample(page, epochs) {
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await field(page, 'Epochs').fill(String(epochs));
  await button(page, 'Train').click();
  await waitUntilDone(page);
}

/**
 * The built-in sample's preset (www/training/params.js) as the session records it, with `epochs`, on
 * `threads` threads (the form's default: the cores, at most 8).
 */
const samplePreset = (epochs, threads) => ({
  tokenizer: 'whitespace', dim: 50, window: 8, negative: 5, sample: 0, minCount: 5, maxVocab: null,
  epochs, alpha: 0.05, minAlpha: 0.0001, nsExponent: 0.75, seed: 1, cbow: false, sharedNoise: false, threads,
});

test('a bundle records the parameters the vectors were trained with, not the form edited since', { timeout: 120_000 }, async () => {
  const { page, problems } = await openRecorded();
  await trainSample(page, 3);
  await showParameters(page);
  const threads = Number(await field(page, 'Threads').inputValue());
  const losses = JSON.parse(await lossChart(page).getAttribute('data-epoch-losses'));
  // The person edits the form after training; the vectors stay those of the run.
  await showParameters(page);
  await field(page, 'Epochs').fill('9');
  await field(page, 'Window').fill('2');
  await field(page, 'Dimensions').fill('20');
  const bundle = await download(page, 'embedscope-bundle.json');
  const json = JSON.parse(bundle.toString('utf8'));
  assert.deepEqual(json.params, samplePreset(3, threads));
  assert.equal(json.dim, 50);
  assert.deepEqual(json.epochLosses, losses);

  // Opened again, the bundle's vectors keep the bundle's parameters: the form shows them,
  // locked (nothing to train), whatever it said before.
  await openFiles(page, [{ name: 'run.json', mimeType: 'application/json', buffer: bundle }]);
  await stat(page, 'Format').filter({ hasText: 'embedscope bundle' }).waitFor();
  assert.equal(await field(page, 'Epochs').inputValue(), '3');
  assert.equal(await field(page, 'Epochs').isDisabled(), true);
  const again = JSON.parse((await download(page, 'embedscope-bundle.json')).toString('utf8'));
  assert.deepEqual(again.params, samplePreset(3, threads));
  assert.equal(again.fingerprint, json.fingerprint);

  // Vectors from a word2vec file have no parameters to record.
  const word2vec = '3 2\nalpha 1 0\nbeta 0 1\ngamma 0.5 0.5\n';
  await openFiles(page, [{ name: 'small.txt', mimeType: 'text/plain', buffer: Buffer.from(word2vec) }]);
  await stat(page, 'Format').filter({ hasText: 'word2vec' }).waitFor();
  const plain = JSON.parse((await download(page, 'embedscope-bundle.json')).toString('utf8'));
  assert.equal(plain.params, undefined);
  assert.deepEqual(plain.words, ['alpha', 'beta', 'gamma']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('each file is built when its button is pressed, and let go of after the download', { timeout: 120_000 }, async () => {
  const { page, problems } = await openRecorded();
  await trainSample(page, 2);
  const exportsSent = () => page.evaluate(() => window.sent.filter((type) => type.startsWith('export')));
  assert.deepEqual(await exportsSent(), [], 'nothing is built before it is asked for');

  // One press, one file built by the worker; its bytes come as bytes, not a string.
  const text = (await download(page, 'vectors.txt')).toString('utf8');
  assert.match(text, /^\d+ 50\n/);
  assert.deepEqual(await exportsSent(), ['export word2vec']);
  const metadata = (await download(page, 'metadata.tsv')).toString('utf8').trimEnd().split('\n');
  assert.deepEqual(await exportsSent(), ['export word2vec', 'export projectorMetadata']);
  assert.equal(metadata.length, Number(await stat(page, 'Vocabulary').textContent()));
  // The plot's files are made on the page: no request to the worker.
  await download(page, 'plot.png');
  await download(page, 'projection.csv');
  assert.equal((await exportsSent()).length, 2);

  // The object URLs the downloads used are revoked; the page holds no file afterwards.
  await page.waitForFunction(() => window.liveUrls.size === 0, null, { timeout: 5_000 });
  // The line of a file says how large it was.
  assert.match(await page.locator('#downloads li', { hasText: 'vectors.txt' }).textContent(), /word2vec text format, [\d.]+ (KB|MB)/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('closing the tab asks until the trained vectors are exported in a vectors format', { timeout: 120_000 }, async () => {
  const { page, problems } = await openRecorded();
  assert.equal(await wouldAsk(page), false, 'nothing trained, nothing to lose');
  await trainSample(page, 2);
  assert.equal(await wouldAsk(page), true, 'trained vectors not exported');
  // The words alone, or a picture of the plot, do not keep the vectors.
  await download(page, 'metadata.tsv');
  await download(page, 'plot.svg');
  assert.equal(await wouldAsk(page), true, 'the words and the plot do not save the vectors');
  await download(page, 'vectors.bin');
  assert.equal(await wouldAsk(page), false, 'the vectors are saved');
  // Training again makes new vectors to lose (three epochs, to know when this run is done).
  await showParameters(page);
  await field(page, 'Epochs').fill('3');
  await button(page, 'Train again').click();
  await page.locator('#progress-text', { hasText: /^Done\. Epoch 3 of 3/ }).waitFor();
  assert.equal(await wouldAsk(page), true, 'the new vectors are not exported');
  await download(page, 'vectors.tsv');
  assert.equal(await wouldAsk(page), false);
  assert.deepEqual(problems, []);
  await page.close();
});
