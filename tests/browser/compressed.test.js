// Compressed files, as a person drops them: a text, a vectors file and a benchmark gzipped,
// bzip2-ed, xz-ed or zipped open as the file inside, also a compressed file inside a zip (a
// zip of several asks which, for a benchmark too; a zip of the Projector's pair opens as the
// pair); a corrupt archive and a zip bomb are refused with a message, and what was open stays
// open. The archives are written by Python's own gzip, bz2, lzma and zipfile modules. In
// Chromium, against Vite.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { button, combobox, evaluateFile, explorerSuite, largeVectorsText, readings, RESULTS, stat, watchReadings } from './helpers.js';

const suite = explorerSuite({ before, after });
let page;
let problems;
/** The archives, written once: name → bytes. */
const files = {};
let dir;

/** Python writes every archive, so the page reads what the usual tools write. */
const WRITE_ARCHIVES = `
import bz2, gzip, lzma, sys, zipfile
out = sys.argv[1]
text = open('data/kjv.txt', 'rb').read()[:400_000]
text = text[:text.rindex(b'\\n') + 1]
open(f'{out}/kjv.txt', 'wb').write(text)
open(f'{out}/kjv.txt.gz', 'wb').write(gzip.compress(text))
open(f'{out}/kjv.txt.bz2', 'wb').write(bz2.compress(text))
# No extension: the compression is told from the bytes.
open(f'{out}/kjv-download', 'wb').write(lzma.compress(text, format=lzma.FORMAT_XZ))
with zipfile.ZipFile(f'{out}/kjv.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('kjv/kjv.txt', text)
with zipfile.ZipFile(f'{out}/two.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('readme.md', b'not the corpus')
    z.writestr('kjv.txt', text)
vectors = sys.stdin.buffer.read()
open(f'{out}/vectors.txt.gz', 'wb').write(gzip.compress(vectors))
with zipfile.ZipFile(f'{out}/vectors.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('vectors.txt', vectors)
# A compressed file inside a zip, stored as archives of compressed files often are.
with zipfile.ZipFile(f'{out}/nested.zip', 'w', zipfile.ZIP_STORED) as z:
    z.writestr('kjv.txt.gz', gzip.compress(text))
with zipfile.ZipFile(f'{out}/vectors-nested.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('vectors.vec.bz2', bz2.compress(vectors))
# The Embedding Projector's pair in one zip.
rows = [line.split(' ') for line in vectors.decode().splitlines()[1:]]
with zipfile.ZipFile(f'{out}/projector.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('metadata.tsv', ''.join(row[0] + '\\n' for row in rows))
    z.writestr('vectors.tsv', ''.join('\\t'.join(row[1:]) + '\\n' for row in rows))
# Two benchmarks in one zip.
with zipfile.ZipFile(f'{out}/benchmarks.zip', 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('questions-words.txt', ': circle\\nw0 w1 w10 w11\\nw20 w21 w30 w31\\n')
    z.writestr('pairs.tsv.gz', gzip.compress(sys.argv[2].encode()))
bad = bytearray(bz2.compress(text))
for i in range(len(bad) // 2, len(bad) // 2 + 64):
    bad[i] ^= 0x5A
open(f'{out}/corrupt.txt.bz2', 'wb').write(bad)
# 64 MiB of zeros in 64 KiB: past 200 times its size once 16 MiB are out.
open(f'{out}/bomb.txt.gz', 'wb').write(gzip.compress(bytes(64 << 20), compresslevel=9))
`;

/** Word pairs of the circle's words scored by closeness, a similarity benchmark. */
const PAIRS = 'w0\tw1\t9\nw0\tw60\t1\nw10\tw11\t8\nw10\tw40\t3\nw10\tw70\t2\n';

/** Words on a circle, so w10's nearest neighbours are w9 and w11. */
function circleVectors(n, dim) {
  const rows = Array.from({ length: n }, (_, i) => {
    const angle = (2 * Math.PI * i) / n;
    const rest = Array.from({ length: dim - 2 }, (_, j) => (((i * 31 + j * 17) % 13) - 6) / 1000);
    return `w${i} ${[Math.cos(angle), Math.sin(angle), ...rest].join(' ')}`;
  });
  return `${n} ${dim}\n${rows.join('\n')}\n`;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'embedscope-compressed-'));
  execFileSync('.tools/venv/bin/python', ['-c', WRITE_ARCHIVES, dir, PAIRS], { input: circleVectors(120, 8) });
  for (const name of ['kjv.txt', 'kjv.txt.gz', 'kjv.txt.bz2', 'kjv-download', 'kjv.zip', 'two.zip', 'vectors.txt.gz', 'vectors.zip', 'corrupt.txt.bz2', 'bomb.txt.gz',
    'nested.zip', 'vectors-nested.zip', 'projector.zip', 'benchmarks.zip']) {
    files[name] = readFileSync(join(dir, name));
  }
  await suite.ready;
  ({ page, problems } = await suite.openExplorer());
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(problems, [], 'no console error, uncaught exception or failed request');
});

const open = (name) => page.getByLabel('Open a file…').setInputFiles([{ name, mimeType: 'application/octet-stream', buffer: files[name] }]);

/** The text's statistics, once `name` is the text open. */
async function textStats(name) {
  await page.locator('#source-name', { hasText: name }).waitFor({ timeout: 60_000 });
  await stat(page, 'Vocabulary').waitFor();
  const stats = {};
  for (const label of ['Lines', 'Tokens', 'Vocabulary']) stats[label] = await stat(page, label).textContent();
  return stats;
}

/** Opens the vectors file `name` and waits until the page says it opened them. */
async function openVectors(name) {
  await open(name);
  await page.locator('#progress-text', { hasText: `vectors of 8 dimensions from ${name}.` }).waitFor({ timeout: 60_000 });
  await stat(page, 'Format').filter({ hasText: 'word2vec text' }).waitFor();
}

async function neighboursOf(word) {
  await combobox(page, 'Word').fill(word);
  await button(page, 'Find').click();
  await page.getByText(`Nearest to “${word}”`).waitFor();
  return page.locator('#neighbours-list li .word').allTextContents();
}

test('a gzip, bzip2, xz or zip text opens as the text inside, with the same tokens and vocabulary', { timeout: 180_000 }, async () => {
  await open('kjv.txt');
  const plain = await textStats('kjv.txt');
  assert.notEqual(plain.Tokens, '0');
  for (const name of ['kjv.txt.gz', 'kjv.txt.bz2', 'kjv-download', 'kjv.zip']) {
    await open(name);
    assert.deepEqual(await textStats(name), plain, name);
  }
  await page.screenshot({ path: join(RESULTS, 'compressed-text.png'), fullPage: true });
});

test('a zip of several files asks which to open, and opens the one chosen', { timeout: 120_000 }, async () => {
  await open('kjv.txt');
  const plain = await textStats('kjv.txt');
  await open('two.zip');
  const chooser = page.getByRole('form', { name: 'Choose the file in the archive' });
  await chooser.waitFor();
  assert.match(await chooser.textContent(), /two\.zip holds 2 files: choose the one to open/);
  // Until the person chooses, the text open before stays.
  assert.match(await page.locator('#source-name').textContent(), /^kjv\.txt/);
  await page.screenshot({ path: join(RESULTS, 'compressed-choose-entry.png'), fullPage: true });
  await chooser.getByRole('combobox', { name: 'File' }).selectOption('kjv.txt');
  await chooser.getByRole('button', { name: 'Open this file' }).click();
  assert.deepEqual(await textStats('two.zip:kjv.txt'), plain);
  assert.equal(await chooser.isVisible(), false);
});

test('compressed vectors open and answer as the plain file', { timeout: 120_000 }, async () => {
  for (const name of ['vectors.txt.gz', 'vectors.zip']) {
    await openVectors(name);
    assert.equal(await stat(page, 'Vocabulary').textContent(), '120', name);
    assert.deepEqual((await neighboursOf('w10')).slice(0, 2).sort(), ['w11', 'w9'], name);
  }
});

test('a corrupt archive and a zip bomb are refused, and the vectors open before stay open', { timeout: 180_000 }, async () => {
  await openVectors('vectors.txt.gz');
  for (const [name, expected] of [
    ['corrupt.txt.bz2', /corrupt\.txt\.bz2: this bzip2 file is corrupt .*download it again, or test a copy with bzip2 -t/],
    ['bomb.txt.gz', /bomb\.txt\.gz: this file inflates to .* it looks like a zip bomb, so it was not read further/],
  ]) {
    await open(name);
    await page.getByRole('alert').filter({ hasText: expected }).first().waitFor({ timeout: 60_000 });
    assert.equal(await stat(page, 'Vocabulary').textContent(), '120', name);
    assert.deepEqual((await neighboursOf('w10')).slice(0, 2).sort(), ['w11', 'w9'], `${name}: the vectors still answer`);
  }
  await page.screenshot({ path: join(RESULTS, 'compressed-bomb-refused.png'), fullPage: true });
});

test('a gzipped benchmark is scored as the plain file, and the pickers offer compressed files', { timeout: 120_000 }, async () => {
  // The zip, as the gzip copy is open already: the page then says it opened another file.
  await openVectors('vectors.zip');
  const scored = (file) => evaluateFile(page, file);
  const plain = await scored({ name: 'pairs.tsv', mimeType: 'text/plain', buffer: Buffer.from(PAIRS) });
  assert.match(plain, /^Spearman [\d.]+, Pearson [\d.]+ over 5 of 5 pairs/);
  assert.equal(await scored({ name: 'pairs.tsv.gz', mimeType: 'application/gzip', buffer: gzipSync(PAIRS) }), plain);
  // A person's file picker shows the compressed files.
  for (const label of ['Open a file…', 'Open a benchmark file…']) {
    const accept = await page.getByLabel(label).getAttribute('accept');
    for (const extension of ['.gz', '.bz2', '.xz', '.zip']) assert.ok(accept.split(',').includes(extension), `${label} offers ${extension}`);
  }
});

test('a large compressed vectors file is read with progress in its compressed bytes', { timeout: 120_000 }, async () => {
  await watchReadings(page);
  // About 19 MB of vectors, gzipped to about 9 MB.
  const gz = gzipSync(largeVectorsText());
  await page.getByLabel('Open a file…').setInputFiles([{ name: 'big.txt.gz', mimeType: 'application/gzip', buffer: gz }]);
  await stat(page, 'Vocabulary').filter({ hasText: '20,000' }).waitFor({ timeout: 60_000 });
  const seen = await readings(page);
  assert.ok(seen.length >= 3, `progress while reading: ${JSON.stringify(seen)}`);
  const total = `of ${(gz.length / 1024 ** 2).toFixed(1)} MB`;
  assert.ok(seen.every((line) => line.includes(total)), `${total}: ${JSON.stringify(seen)}`);
  assert.equal((await neighboursOf('w123')).length, 10);
});

test('a compressed text or vectors file inside a zip opens as the plain file', { timeout: 120_000 }, async () => {
  await open('kjv.txt');
  const plain = await textStats('kjv.txt');
  await open('nested.zip');
  assert.deepEqual(await textStats('nested.zip'), plain);
  await open('vectors-nested.zip');
  await page.locator('#progress-text', { hasText: 'vectors of 8 dimensions from vectors-nested.zip.' }).waitFor({ timeout: 60_000 });
  assert.equal(await stat(page, 'Vocabulary').textContent(), '120');
  assert.deepEqual((await neighboursOf('w10')).slice(0, 2).sort(), ['w11', 'w9']);
});

test("a zip of the Projector's vectors.tsv and metadata.tsv opens as the pair, without asking which", { timeout: 120_000 }, async () => {
  await open('projector.zip');
  await page.locator('#progress-text', { hasText: 'vectors of 8 dimensions from projector.zip.' }).waitFor({ timeout: 60_000 });
  assert.equal(await page.getByRole('form', { name: 'Choose the file in the archive' }).isVisible(), false);
  assert.equal(await stat(page, 'Vocabulary').textContent(), '120');
  // The words are the metadata's, not row numbers.
  assert.deepEqual((await neighboursOf('w10')).slice(0, 2).sort(), ['w11', 'w9']);
  await page.screenshot({ path: join(RESULTS, 'compressed-projector-pair.png'), fullPage: true });
});

test('a zip of several benchmarks asks which to evaluate, and evaluates the one chosen', { timeout: 120_000 }, async () => {
  await openVectors('vectors.txt.gz');
  const plain = await evaluateFile(page, { name: 'pairs.tsv', mimeType: 'text/plain', buffer: Buffer.from(PAIRS) });
  await page.getByLabel('Open a benchmark file…').setInputFiles([{ name: 'benchmarks.zip', mimeType: 'application/zip', buffer: files['benchmarks.zip'] }]);
  await button(page, 'Evaluate').click();
  const chooser = page.getByRole('form', { name: 'Choose the benchmark in the archive' });
  await chooser.waitFor();
  assert.match(await chooser.textContent(), /benchmarks\.zip holds 2 files: choose the benchmark to evaluate/);
  assert.doesNotMatch(await page.locator('#evaluation-message').textContent(), /Cannot evaluate/);
  await page.screenshot({ path: join(RESULTS, 'compressed-choose-benchmark.png'), fullPage: true });
  const message = page.locator('#evaluation-message');
  await chooser.getByRole('combobox', { name: 'File' }).selectOption('pairs.tsv.gz');
  await chooser.getByRole('button', { name: 'Evaluate this file' }).click();
  await message.filter({ hasText: /^Spearman/ }).waitFor();
  assert.equal(await message.textContent(), plain);
  assert.equal(await chooser.isVisible(), false);
  assert.equal(await page.getByRole('combobox', { name: 'Benchmark' }).locator('option:checked').textContent(), 'Your file: benchmarks.zip:pairs.tsv.gz');
  // Evaluate again takes the file chosen; another file chosen in the zip, another benchmark.
  await message.evaluate((element) => { element.textContent = ''; });
  await button(page, 'Evaluate').click();
  await message.filter({ hasText: /^Spearman/ }).waitFor();
  assert.equal(await message.textContent(), plain);
  await page.getByLabel('Open a benchmark file…').setInputFiles([{ name: 'benchmarks.zip', mimeType: 'application/zip', buffer: files['benchmarks.zip'] }]);
  await button(page, 'Evaluate').click();
  await chooser.getByRole('combobox', { name: 'File' }).selectOption('questions-words.txt');
  await chooser.getByRole('button', { name: 'Evaluate this file' }).click();
  await message.filter({ hasText: /^3CosAdd/ }).waitFor();
});
