// fastText .bin models dropped on the page: gensim's test models (one an older fastText wrote
// without a magic number, named without its extension), their neighbours the CLI's for a
// word of the vocabulary and for a misspelling built from n-grams, marked so; a supervised
// model and a cut one refused, the model open before staying open. In Chromium, against Vite.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh and cargo build --release
// (the CLI, whose neighbours tests/fasttext_compat.py checks against gensim); `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { button, combobox, explorerSuite, RESULTS, stat } from './helpers.js';

const suite = explorerSuite({ before, after });

const EMBEDSCOPE = './target/release/embedscope';
const lib = '.tools/venv/lib';
const TEST_DATA = join(lib, readdirSync(lib).find((d) => d.startsWith('python')) ?? 'python3', 'site-packages/gensim/test/test_data');

/** The CLI's neighbours of `word` in the model at `path`: the words, best first. */
function cliNeighbours(path, word, k) {
  const out = execFileSync(EMBEDSCOPE, ['neighbours', path, word, '-k', String(k)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return out.trim().split('\n').map((line) => line.split('\t')[1]);
}

/** Asks the page for the neighbours of `word`; returns the message and the listed words. */
async function neighboursOf(page, word) {
  await combobox(page, 'Word').fill(word);
  await button(page, 'Find').click();
  const message = page.getByText(`Nearest to “${word}”`);
  await message.waitFor();
  return { message: await message.textContent(), words: await page.locator('#neighbours-list li .word').allTextContents() };
}

const model = async (file, name) => ({ name, mimeType: 'application/octet-stream', buffer: await readFile(join(TEST_DATA, file)) });

test('a fastText model opens: neighbours of known words and of misspellings built from n-grams; classifiers and cut models refused', { timeout: 120_000 }, async () => {
  assert.ok(existsSync(EMBEDSCOPE), `${EMBEDSCOPE} is built (cargo build --release)`);
  assert.ok(existsSync(join(TEST_DATA, 'crime-and-punishment.bin')), `gensim's test models in ${TEST_DATA} (scripts/setup.sh --gensim)`);
  const { page, problems } = await suite.openExplorer();
  const open = (files) => page.getByLabel('Open a file…').setInputFiles(files);

  // Named without .bin: told by its first bytes.
  await open([await model('crime-and-punishment.bin', 'crime-and-punishment')]);
  await stat(page, 'Format').filter({ hasText: 'fastText' }).waitFor();
  assert.equal(await stat(page, 'Vocabulary').textContent(), '291');
  assert.match(await stat(page, 'Model').textContent(), /skipgram .*dim 5, n-grams 3–6 in 100 buckets/);
  assert.equal(await stat(page, 'Kept').textContent(), 'kept all 291 words; 100 n-gram buckets kept');
  await page.locator('#plot-empty').waitFor({ state: 'hidden' });
  const k = Number(await page.locator('#neighbours-k').inputValue());
  const path = join(TEST_DATA, 'crime-and-punishment.bin');
  for (const word of ['landlady', 'даже']) {
    const { message, words } = await neighboursOf(page, word);
    assert.doesNotMatch(message, /n-grams/);
    assert.deepEqual(words, cliNeighbours(path, word, k), word);
  }
  for (const word of ['lnadlady', 'джае']) {
    const { message, words } = await neighboursOf(page, word);
    assert.match(message, /not in the vocabulary: built from n-grams/);
    assert.deepEqual(words, cliNeighbours(path, word, k), word);
  }
  await page.screenshot({ path: join(RESULTS, 'fasttext-ngrams.png'), fullPage: true });

  // An older fastText's model, without a magic number.
  await open([await model('lee_fasttext.bin', 'lee_fasttext.bin')]);
  await stat(page, 'Vocabulary').filter({ hasText: '1,762' }).waitFor();
  const lee = join(TEST_DATA, 'lee_fasttext.bin');
  assert.deepEqual((await neighboursOf(page, 'nihgt')).words, cliNeighbours(lee, 'nihgt', k));

  // A classifier and a cut model are refused saying what they are; the model open stays.
  const notice = page.getByRole('alert');
  await open([await model('pang_lee_polarity_fasttext.bin', 'pang_lee_polarity_fasttext.bin')]);
  await notice.filter({ hasText: 'a supervised fastText model (a text classifier' }).first().waitFor();
  const whole = await readFile(lee);
  await open([{ name: 'cut.bin', mimeType: 'application/octet-stream', buffer: whole.subarray(0, whole.length >> 1) }]);
  await notice.filter({ hasText: 'the fastText model is cut short' }).first().waitFor();
  assert.equal(await stat(page, 'Vocabulary').textContent(), '1,762');
  assert.deepEqual((await neighboursOf(page, 'night')).words, cliNeighbours(lee, 'night', k));
  assert.deepEqual(problems, []);
  await page.close();
});
