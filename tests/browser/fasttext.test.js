// fastText .bin models dropped on the page: gensim's test models (one an older fastText wrote
// without a magic number, named without its extension), their neighbours the CLI's for a
// word of the vocabulary and for a misspelling built from n-grams, marked so, and the
// benchmark's words built so counted on the Evaluation card as the CLI counts them; a supervised
// model and a cut one refused, the model open before staying open. In Chromium, against Vite.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh and cargo build --release
// (the CLI, whose neighbours tests/fasttext_compat.py checks against gensim); `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { button, combobox, evaluateFile, explorerSuite, RESULTS, stat } from './helpers.js';

const suite = explorerSuite({ before, after });
/** Where the benchmarks the CLI reads are written. */
const scratch = mkdtempSync(join(tmpdir(), 'embedscope-fasttext-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

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

/**
 * A skipgram model as fastText saves it, of `nwords` words `w0`, `w1`, … (most frequent
 * first) and `bucket` n-gram rows of `dim` values, its output matrix after them.
 */
function fastTextModel(nwords, bucket, dim) {
  const i32 = (...values) => Buffer.from(new Int32Array(values).buffer);
  const i64 = (...values) => Buffer.from(new BigInt64Array(values.map(BigInt)).buffer);
  const parts = [i32(793712314, 12, dim, 5, 1, 1, 5, 1, 2, 2, bucket, 3, 4, 100), Buffer.from(new Float64Array([1e-4]).buffer)];
  parts.push(i32(nwords, nwords, 0), i64(nwords * 10, -1));
  for (let i = 0; i < nwords; i += 1) parts.push(Buffer.from(`w${i}\0`), i64(nwords - i), Buffer.from([0]));
  const rows = nwords + bucket;
  const values = new Float32Array(rows * dim).map((_, j) => Math.sin(j * 12.9898) * 2);
  parts.push(Buffer.from([0]), i64(rows, dim), Buffer.from(values.buffer));
  parts.push(Buffer.from([0]), i64(nwords, dim), Buffer.alloc(nwords * dim * 4));
  return Buffer.concat(parts);
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

  // A benchmark's words the model lacks are built from n-grams: the Evaluation card says how
  // many, in the CLI's words.
  for (const [name, benchmark, option] of [
    ['pairs.txt', 'landlady lnadlady 9\nдаже джае 8\nlandlady даже 2\nlnadlady джае 1\nлнадлады landlady 3\n', '--similarity'],
    ['questions.txt', ': misspelt\nlnadlady landlady джае даже\nlandlady lnadlady даже джае\n', '--analogies'],
  ]) {
    const summary = await evaluateFile(page, { name, mimeType: 'text/plain', buffer: Buffer.from(benchmark) });
    const benchmarkPath = join(scratch, name);
    writeFileSync(benchmarkPath, benchmark);
    const cli = execFileSync(EMBEDSCOPE, ['eval', path, option, benchmarkPath], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const built = cli.split('\n').find((line) => line.endsWith('built from n-grams'));
    assert.match(built ?? '', /^\d of the benchmark's words (is|are) not in the vocabulary: built from n-grams$/, cli);
    assert.ok(summary.endsWith(` ${built}.`), `${name}: ${summary}`);
  }
  // An analogy table wider than the inspector scrolls inside the card, which keeps to the inspector.
  const card = page.getByRole('region', { name: 'Evaluation' });
  assert.ok(await card.evaluate((section) => section.scrollWidth <= section.clientWidth), 'the Evaluation card fits the inspector');
  await page.screenshot({ path: join(RESULTS, 'fasttext-evaluation.png'), fullPage: true });

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

test('a large fastText model keeps its 200,000 most frequent words and says so, or as many as the person asks; a word past them is built from n-grams', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const buffer = fastTextModel(210_000, 1_000, 4);
  await page.getByLabel('Open a file…').setInputFiles([{ name: 'large.bin', mimeType: 'application/octet-stream', buffer }]);
  await stat(page, 'Format').filter({ hasText: 'fastText' }).waitFor({ timeout: 60_000 });
  assert.equal(await stat(page, 'Vocabulary').textContent(), '200,000');
  assert.equal(await stat(page, 'Kept').textContent(), 'kept 200,000 of 210,000 words; 1,000 n-gram buckets kept');
  assert.doesNotMatch((await neighboursOf(page, 'w199999')).message, /n-grams/);
  assert.match((await neighboursOf(page, 'w205000')).message, /not in the vocabulary: built from n-grams/);
  // The person keeps more words: the model opens again with them.
  await page.getByRole('spinbutton', { name: 'Words to keep' }).fill('205000');
  await button(page, 'Open again').click();
  await stat(page, 'Vocabulary').filter({ hasText: '205,000' }).waitFor({ timeout: 60_000 });
  assert.equal(await stat(page, 'Kept').textContent(), 'kept 205,000 of 210,000 words; 1,000 n-gram buckets kept');
  assert.doesNotMatch((await neighboursOf(page, 'w204999')).message, /n-grams/);
  assert.deepEqual(problems, []);
  await page.close();
});
