// Parquet tables opened in the page, as pyarrow writes them (tests/parquet/write_tables.py):
// a Spark Word2VecModel's files dropped together (its metadata, three snappy part files of
// several row groups, Spark's _SUCCESS and .crc files) open in the parts' order with the
// neighbours computed here from the rows written; a table of many columns offers its
// candidates to choose from; a Spark model's metadata alone and a zstd table are refused by
// name and the vectors open before stay. In Chromium.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { button, combobox, explorerSuite, stat } from './helpers.js';

const suite = explorerSuite({ before, after });
const dir = mkdtempSync(join(tmpdir(), 'embedscope-parquet-'));
let expected;
before(() => {
  execFileSync('.tools/venv/bin/python', ['tests/parquet/write_tables.py', dir], { stdio: 'ignore' });
  expected = JSON.parse(readFileSync(join(dir, 'rows.json'), 'utf8'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The files of a folder (those named `only`, if given) as the file input gives them. */
const filesOf = (folder, only) =>
  readdirSync(folder)
    .filter((name) => !only || only === name)
    .map((name) => ({ name, mimeType: 'application/octet-stream', buffer: readFileSync(join(folder, name)) }));

const openFiles = (page, files) => page.getByLabel('Open a file…').setInputFiles(files);

/** The `k` words nearest to word `query` by cosine (itself left out), with their cosines. */
function nearest(query, k) {
  const { words, rows } = expected;
  const norm = (v) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));
  const q = rows[query];
  return rows
    .map((v, i) => ({ word: words[i], cos: i === query ? -Infinity : v.reduce((a, x, j) => a + x * q[j], 0) / (norm(v) * norm(q)) }))
    .sort((a, b) => b.cos - a.cos)
    .slice(0, k);
}

/** The page shows a score with 3 decimals: the cosine so rounded, with slack for float32. */
const SHOWN_ROUNDING = 5e-4 + 1e-6;

/** Asks for the neighbours of `word` and checks them against the rows written. */
async function checkNeighbours(page, query) {
  await page.evaluate(() => document.getElementById('neighbours-list').replaceChildren());
  await combobox(page, 'Word').fill(expected.words[query]);
  await button(page, 'Find').click();
  await page.getByText(/^Nearest to “/).waitFor();
  const items = page.locator('#neighbours-list li .word');
  const words = (await items.evaluateAll((buttons) => buttons.map((b) => b.dataset.word))).slice(0, 5);
  const scores = (await page.locator('#neighbours-list li .score').allTextContents()).map(Number).slice(0, 5);
  const want = nearest(query, 5);
  assert.deepEqual(words, want.map(({ word }) => word), `the neighbours of ${expected.words[query]}`);
  for (const [i, score] of scores.entries()) {
    assert.ok(Math.abs(score - want[i].cos) <= SHOWN_ROUNDING, `${words[i]}: ${score} vs ${want[i].cos}`);
  }
}

/** Drops `files` on the page together, as a person drops the files selected in a file manager. */
async function dropFiles(page, files) {
  const encoded = files.map(({ name, buffer }) => ({ name, base64: buffer.toString('base64') }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const { name, base64 } of list) {
      transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name));
    }
    return transfer;
  }, encoded);
  await page.dispatchEvent('body', 'drop', { dataTransfer });
}

test('a Spark Word2VecModel\'s files dropped together open in the parts\' order, with the neighbours of the rows written', { timeout: 90_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const model = join(dir, 'model');
  // Shuffled: the page orders the parts by name.
  const files = [...filesOf(join(model, 'data')).reverse(), ...filesOf(join(model, 'metadata'))];
  await dropFiles(page, files);
  await page.getByText(/Opened 240 vectors of 12 dimensions from part-\d{5}-1f2e-c000\.snappy\.parquet and 3 more files\. Spark's Word2VecModel of 3 files/).waitFor();
  assert.equal(await stat(page, 'Format').textContent(), 'Spark Word2VecModel (Parquet)');
  assert.equal(await stat(page, 'Vocabulary').textContent(), '240');
  for (const query of [0, 99, 100, 239]) await checkNeighbours(page, query);
  assert.deepEqual(problems.filter((p) => !p.startsWith('console:')), []);
  await page.close();
});

test('a table of many columns offers its candidates; a zstd table is refused and the vectors open before stay', { timeout: 90_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await openFiles(page, filesOf(dir, 'many.parquet'));
  const choice = page.getByRole('form', { name: 'Choose the columns' });
  await choice.waitFor();
  assert.deepEqual(await choice.getByLabel('Words').locator('option').allTextContents(), ['token (string)', 'source (string)']);
  assert.deepEqual(await choice.getByLabel('Vectors').locator('option').allTextContents(), ['small (list<float>)', 'embedding (list<float>)']);
  await choice.getByLabel('Words').selectOption('token');
  await choice.getByLabel('Vectors').selectOption('embedding');
  await choice.getByRole('button', { name: 'Open these columns' }).click();
  await page.getByText(/Opened 240 vectors of 12 dimensions from many\.parquet\. A Parquet table of 1 file: words from 'token', vectors from 'embedding'/).waitFor();
  await checkNeighbours(page, 17);

  await openFiles(page, filesOf(join(dir, 'model', 'metadata'), 'part-00000'));
  await page.locator('#notice', { hasText: "part-00000 is a Spark model's metadata: open it together with the model's data/ part files" }).waitFor();
  assert.equal(await stat(page, 'Format').textContent(), 'Parquet table', 'the table opened before stays');

  await openFiles(page, filesOf(dir, 'zstd.parquet'));
  await page.locator('#notice', { hasText: /zstd\.parquet: the column 'word' is compressed with zstd, which embedscope does not read/ }).waitFor();
  assert.equal(await stat(page, 'Format').textContent(), 'Parquet table', 'the table opened before stays');
  await checkNeighbours(page, 17);
  assert.deepEqual(problems.filter((p) => !p.startsWith('console:')), []);
  await page.close();
});
