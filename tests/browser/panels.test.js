// The panels around the map say what holds for what is open: the evaluation card's scores
// belong to the benchmark chosen, its planted benchmarks to the built-in sample; the
// parameters of opened vectors are the file's, and Train says why it cannot train; the
// whitespace signs are explained only for a vocabulary that has them, and are drawn with
// glyphs the page has. In Chromium, against Vite.
//
// Run with `node --test tests/browser/panels.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { button, collectProblems, combobox, explorerSuite, field, showParameters, stat, waitUntilDone } from './helpers.js';

const suite = explorerSuite({ before, after });

const textFile = (name, text) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
const openFiles = (page, files) => page.getByLabel('Open a file…').setInputFiles(files);
const openBenchmark = (page, file) => page.getByLabel('Open a benchmark file…').setInputFiles(file);

/** Pairs of the built-in sample's words. */
const PAIRS = ['king\tqueen\t8.6', 'man\twoman\t8.3', 'boy\tgirl\t8.1', 'paris\tfrance\t7.4', 'king\tgirl\t3.2'];

/** `n` words of `dim` dimensions in the word2vec text format, words w0, w1, …. */
function word2vecText(n, dim) {
  const rows = Array.from({ length: n }, (_, i) =>
    `w${i} ${Array.from({ length: dim }, (_, j) => (Math.sin(i * 7 + j * 3) / 2).toFixed(4)).join(' ')}`);
  return `${n} ${dim}\n${rows.join('\n')}\n`;
}

/** A small text to train on that is not the sample: enough words for a vocabulary. */
const OWN_TEXT = Array.from({ length: 200 }, (_, i) => `the cat ${i % 7} sat on the mat of dog ${i % 5} and bird ${i % 3}`).join('\n');

/** The options of the Benchmark choice: value, whether enabled, and the chosen one. */
const benchmarkChoice = (page) => combobox(page, 'Benchmark').evaluate((select) => ({
  value: select.value,
  enabled: [...select.options].filter((o) => !o.disabled).map((o) => o.value),
}));

test("another benchmark chosen takes the scores of the one before off the card", { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await page.locator('#sanity', { hasText: 'Sanity check' }).waitFor();

  await openBenchmark(page, textFile('pairs.tsv', PAIRS.join('\n')));
  await button(page, 'Evaluate').click();
  await page.locator('#evaluation-message', { hasText: /^Spearman/ }).waitFor();
  const results = page.locator('#evaluation-results');
  assert.equal(await results.isVisible(), true);

  // A second file opened: the first one's scores go until Evaluate is pressed again.
  await openBenchmark(page, textFile('other.tsv', PAIRS.slice(0, 3).join('\n')));
  assert.equal(await results.isHidden(), true, "the first file's scores are gone");
  assert.equal(await page.locator('#evaluation-message').textContent(), '');
  await button(page, 'Evaluate').click();
  await page.locator('#evaluation-message', { hasText: /over 3 of 3 pairs/ }).waitFor();
  assert.equal(await results.isVisible(), true);

  // A built-in benchmark chosen instead: likewise.
  await combobox(page, 'Benchmark').selectOption('planted-similarity');
  assert.equal(await results.isHidden(), true, "the file's scores are gone");
  assert.equal(await page.locator('#evaluation-message').textContent(), '');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the planted benchmarks are offered for the built-in sample only', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  assert.deepEqual(await benchmarkChoice(page), { value: 'planted-analogies', enabled: ['planted-analogies', 'planted-similarity'] });
  const note = page.getByText('The planted benchmarks are made for the built-in sample');
  assert.equal(await note.isHidden(), true);

  // A text of one's own: they are disabled, and the card says why.
  await openFiles(page, [textFile('own.txt', OWN_TEXT)]);
  await page.locator('#source-name', { hasText: 'own.txt' }).waitFor();
  await stat(page, 'Vocabulary').waitFor();
  assert.deepEqual(await benchmarkChoice(page), { value: 'file', enabled: [] });
  await note.waitFor();

  // Vectors opened from a file: the same, and Evaluate says what to do.
  await openFiles(page, [textFile('ten.vec', word2vecText(40, 10))]);
  await stat(page, 'Format').waitFor();
  assert.deepEqual(await benchmarkChoice(page), { value: 'file', enabled: [] });
  await button(page, 'Evaluate').click();
  await page.locator('#evaluation-message', { hasText: 'Open a benchmark file first' }).waitFor();
  assert.equal(await page.locator('#evaluation-results').isHidden(), true);
  // A file opened is the choice, and is scored.
  await openBenchmark(page, textFile('w.tsv', 'w0\tw1\t5\nw1\tw2\t4\nw2\tw9\t1\n'));
  assert.deepEqual(await benchmarkChoice(page), { value: 'file', enabled: ['file'] });
  await button(page, 'Evaluate').click();
  await page.locator('#evaluation-message', { hasText: /^Spearman/ }).waitFor();

  // Back on the sample, the planted benchmarks are offered again; the file stays chosen.
  await button(page, 'Use the built-in sample').click();
  await page.locator('#source-name', { hasText: 'Built-in sample' }).waitFor();
  await stat(page, 'Vocabulary').waitFor();
  assert.deepEqual(await benchmarkChoice(page), { value: 'file', enabled: ['planted-analogies', 'planted-similarity', 'file'] });
  assert.equal(await note.isHidden(), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test("opened vectors: the parameters are the file's and locked, and the page says why Train is disabled", { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  const why = page.locator('#train-why');
  const train = button(page, 'Train');
  assert.equal(await train.isEnabled(), true);
  assert.equal(await why.isHidden(), true, 'Train works: nothing to explain');

  // A parameter that is not valid: Train is disabled, and the line says why.
  await showParameters(page);
  await field(page, 'Dimensions').fill('1');
  await page.waitForFunction(() => document.getElementById('train').disabled);
  assert.equal(await why.textContent(), 'A parameter is not valid: see the message next to it.');
  assert.equal(await why.isVisible(), true);
  await field(page, 'Dimensions').fill('50');
  await page.waitForFunction(() => !document.getElementById('train').disabled);
  assert.equal(await why.isHidden(), true);

  // Training runs, then is paused: the line says what to do instead.
  await field(page, 'Epochs').fill('1000');
  await train.click();
  await page.waitForFunction(() => document.getElementById('progress-text').textContent.startsWith('Epoch '));
  assert.equal(await why.textContent(), 'Training runs: Pause or Stop it to change course.');
  await button(page, 'Pause').click();
  await page.locator('#train-why', { hasText: 'Training is paused: Resume or Stop it.' }).waitFor();
  await button(page, 'Stop').click();
  await page.waitForFunction(() => !document.getElementById('train').disabled);
  assert.equal(await why.isHidden(), true, 'Train again works');

  await openFiles(page, [textFile('ten.vec', word2vecText(40, 10))]);
  await stat(page, 'Format').waitFor();
  assert.equal(await train.isDisabled(), true);
  assert.equal(await why.textContent(), 'These vectors were opened from a file: open a text to train.');
  assert.equal(await why.isVisible(), true);
  assert.equal(await train.getAttribute('aria-describedby'), 'train-why');
  assert.equal(await page.locator('#params-summary').textContent(), '10 dims (from the file)');
  await showParameters(page);
  assert.equal(await field(page, 'Dimensions').inputValue(), '10', "the file's dimension");
  assert.equal(await field(page, 'Dimensions').isDisabled(), true);
  assert.equal(await combobox(page, 'Tokenizer').isDisabled(), true);
  assert.equal(await field(page, 'Epochs').isDisabled(), true);

  // A text opened again: the parameters are the person's to change.
  await button(page, 'Use the built-in sample').click();
  await page.locator('#source-name', { hasText: 'Built-in sample' }).waitFor();
  await stat(page, 'Vocabulary').waitFor();
  assert.equal(await field(page, 'Dimensions').isEnabled(), true);
  assert.equal(await combobox(page, 'Tokenizer').isEnabled(), true);
  await page.waitForFunction(() => !document.getElementById('train').disabled);
  assert.equal(await why.isHidden(), true);
  assert.deepEqual(problems, []);
  await page.close();
});

/** Whether `worker` is the training worker (www/worker/worker.js), not a thread of its pool. */
const isTrainingWorker = (worker) => new URL(worker.url()).pathname.endsWith('/worker.js');

test('while the worker starts, and when it cannot, Train is disabled and the line under it says why', { timeout: 90_000 }, async () => {
  // The training worker's wasm module is held back until `release()`; with `refuse` it is
  // refused (404) on every start. The page's own request for it passes: no worker exists yet then.
  const openHeld = async (refuse) => {
    const page = await suite.browser.context.newPage();
    const problems = collectProblems(page);
    let workers = 0;
    let release;
    const released = new Promise((resolve) => { release = resolve; });
    page.on('worker', (worker) => { if (isTrainingWorker(worker)) workers += 1; });
    await page.route('**/embedscope_bg*.wasm', async (route) => {
      if (workers === 0) return route.continue();
      if (refuse) return route.fulfill({ status: 404, contentType: 'text/plain', body: 'not here' });
      await released;
      return route.continue();
    });
    await page.goto(suite.url());
    return { page, problems, release };
  };
  const why = (page) => page.locator('#train-why');

  const held = await openHeld(false);
  await held.page.locator('#source-name', { hasText: 'Built-in sample' }).waitFor();
  await held.page.waitForTimeout(500);
  assert.equal(await button(held.page, 'Train').isDisabled(), true);
  assert.equal(await why(held.page).textContent(), 'The training worker is starting…');
  held.release();
  await held.page.waitForSelector('#worker-status[data-state="ready"]');
  await held.page.waitForFunction(() => !document.getElementById('train').disabled);
  assert.equal(await why(held.page).isHidden(), true);
  assert.deepEqual(held.problems, []);
  await held.page.close();

  const refused = await openHeld(true);
  await refused.page.waitForSelector('#worker-status[data-state="error"]', { timeout: 30_000 });
  assert.equal(await button(refused.page, 'Train').isDisabled(), true);
  assert.equal(await why(refused.page).textContent(), 'The training worker could not start: see the message above.');
  await refused.page.close();
});

test('the whitespace signs are explained only for a vocabulary with tokens that hold whitespace', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  const hint = page.getByText('BPE tokens may hold whitespace');
  assert.equal(await hint.isHidden(), true, 'words split at spaces hold none');

  // BPE whose merges cross spaces makes tokens such as "the king ".
  await showParameters(page);
  await combobox(page, 'Tokenizer').selectOption('bpe');
  await combobox(page, 'BPE merges').selectOption('cross');
  await button(page, 'Train').click();
  await waitUntilDone(page, 120_000);
  await hint.waitFor();

  // Vectors whose words hold no whitespace.
  await openFiles(page, [textFile('ten.vec', word2vecText(40, 10))]);
  await stat(page, 'Format').waitFor();
  assert.equal(await hint.isHidden(), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('each whitespace sign is drawn with a glyph, in the page and on the map, never as the missing-glyph box', { timeout: 60_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const results = await page.evaluate(async () => {
    const { WHITESPACE_SIGNS } = await import('/www/shared/tokens.js');
    const kbd = document.querySelector('#token-signs kbd');
    const pageFont = getComputedStyle(kbd).font;
    // The map's labels are drawn in this family (FONT_FAMILY in src/plot/scene.rs).
    const mapFont = '400 12px sans-serif';
    const canvas = new OffscreenCanvas(64, 64);
    const context = canvas.getContext('2d', { willReadFrequently: true });
    /** The pixels of `text` drawn in `font`. */
    const pixels = (text, font) => {
      context.clearRect(0, 0, 64, 64);
      context.font = font;
      context.fillText(text, 8, 40);
      return context.getImageData(0, 0, 64, 64).data.join(',');
    };
    await document.fonts.ready;
    // No font has a glyph for an unassigned code point: it is drawn as the missing-glyph box.
    const missing = '\u0378';
    return WHITESPACE_SIGNS.flatMap(([, sign]) => [pageFont, mapFont].map((font) => ({
      sign, font, box: pixels(sign, font) === pixels(missing, font), blank: pixels(sign, font) === pixels('', font),
    })));
  });
  assert.equal(results.length, 8);
  for (const { sign, font, box, blank } of results) {
    assert.equal(box, false, `${sign} is the missing-glyph box in ${font}`);
    assert.equal(blank, false, `${sign} draws nothing in ${font}`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});
