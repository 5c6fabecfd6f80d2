// Vectors that were not trained in this page: files in the formats other tools write,
// opened by file input; a bundle saved here and opened again exactly; benchmarks run on
// them from files; malformed files named with their line. In Chromium, against Vite.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { button, combobox, explorerSuite, largeVectorsText, lossChart, readings, RESULTS, stat, showParameters, watchReadings } from './helpers.js';

const suite = explorerSuite({ before, after });

const openFiles = (page, files) => page.getByLabel('Open a file…').setInputFiles(files);
const textFile = (name, text) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });

/**
 * Words on a circle in 2 of `dim` dimensions, so each word's nearest neighbours are the
 * words next to it: w0's are w1 and w{n-1}. The other components are small and distinct.
 */
function circleVectors(n, dim) {
  return Array.from({ length: n }, (_, i) => {
    const angle = (2 * Math.PI * i) / n;
    const rest = Array.from({ length: dim - 2 }, (_, j) => (((i * 31 + j * 17) % 13) - 6) / 1000);
    return { word: `w${i}`, vector: [Math.cos(angle), Math.sin(angle), ...rest] };
  });
}

const word2vecText = (rows) =>
  `${rows.length} ${rows[0].vector.length}\n${rows.map((r) => `${r.word} ${r.vector.join(' ')}`).join('\n')}\n`;

function word2vecBinary(rows) {
  const parts = [Buffer.from(`${rows.length} ${rows[0].vector.length}\n`)];
  for (const { word, vector } of rows) {
    const floats = Buffer.alloc(4 * vector.length);
    vector.forEach((v, i) => { floats.writeFloatLE(v, 4 * i); });
    parts.push(Buffer.from(`${word} `), floats, Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

/** Asks for the neighbours of `word` and returns the listed words. */
async function neighboursOf(page, word) {
  await combobox(page, 'Word').fill(word);
  await button(page, 'Find').click();
  await page.getByText(`Nearest to “${word}”`).waitFor();
  return page.locator('#neighbours-list li .word').allTextContents();
}

/** Opens `files`, waits for the vectors' statistics and checks format, size and a query. */
async function openAndQuery(page, files, format) {
  await openFiles(page, files);
  await stat(page, 'Format').filter({ hasText: format }).waitFor();
  assert.equal(await stat(page, 'Vocabulary').textContent(), '120');
  assert.equal(await stat(page, 'Dimensions').textContent(), '8');
  await page.locator('#plot-empty').waitFor({ state: 'hidden' });
  const neighbours = await neighboursOf(page, 'w10');
  assert.deepEqual(neighbours.slice(0, 2).sort(), ['w11', 'w9']);
}

test('vectors from other tools open and answer: word2vec text and binary, GloVe, Projector TSV', { timeout: 90_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const rows = circleVectors(120, 8);
  await openAndQuery(page, [textFile('vectors.txt', word2vecText(rows))], 'word2vec text');
  await openAndQuery(page, [{ name: 'vectors.bin', mimeType: 'application/octet-stream', buffer: word2vecBinary(rows) }], 'word2vec binary');
  await openAndQuery(page, [textFile('glove.6B.8d.txt', rows.map((r) => `${r.word} ${r.vector.join(' ')}`).join('\n'))], 'GloVe');
  await openAndQuery(page, [
    textFile('vectors.tsv', rows.map((r) => r.vector.join('\t')).join('\n')),
    textFile('metadata.tsv', rows.map((r) => r.word).join('\n')),
  ], 'Projector');
  // Opened vectors are analogies' material too, and nothing can be trained on them.
  assert.equal(await button(page, 'Train').isDisabled(), true);
  await page.screenshot({ path: join(RESULTS, 'vectors-opened.png'), fullPage: true });

  // A plain text still trains: it is not taken for vectors.
  await openFiles(page, [textFile('story.txt', 'the cat sat on the mat\nthe dog sat on the log\n'.repeat(50))]);
  await stat(page, 'Lines').filter({ hasText: '100' }).waitFor();
  assert.equal(await button(page, 'Train').isDisabled(), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test('vectors of one dimension open, and the map plots them along one axis', { timeout: 60_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  // Words at 1, 2, …, 40 and their negatives: cosine sorts them into two groups.
  const rows = Array.from({ length: 80 }, (_, i) => ({ word: `w${i}`, vector: [(i % 2 ? -1 : 1) * (1 + (i >> 1))] }));
  await openFiles(page, [textFile('line.txt', word2vecText(rows))]);
  await stat(page, 'Dimensions').filter({ hasText: /^1$/ }).waitFor();
  await page.locator('#plot-empty').waitFor({ state: 'hidden' });
  assert.equal(await page.locator('#notice').isVisible(), false, await page.locator('#notice').textContent());
  const neighbours = await neighboursOf(page, 'w0');
  assert.ok(neighbours.every((word) => Number(word.slice(1)) % 2 === 0), neighbours.join(' '));
  assert.deepEqual(problems, []);
  await page.close();
});

test('a wide vectors file says its dimension as the statistics do, with a thousands separator', { timeout: 60_000 }, async () => {
  // The line said "of 1200 dimensions" beside a Dimensions statistic of "1,200".
  const { page, problems } = await suite.openExplorer();
  const rows = circleVectors(12, 1200);
  await openFiles(page, [textFile('wide.txt', word2vecText(rows))]);
  await stat(page, 'Dimensions').filter({ hasText: /^1,200$/ }).waitFor();
  await page.locator('#progress-text', { hasText: 'Opened 12 vectors of 1,200 dimensions from wide.txt.' }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('words not in UTF-8 open with U+FFFD where their bytes were, and the line says how many', { timeout: 60_000 }, async () => {
  // fastText writes a word's bytes as they came: here two Latin-1 words among twelve.
  const { page, problems } = await suite.openExplorer();
  const rows = circleVectors(12, 3);
  const lines = rows.map((r, i) => Buffer.concat([
    i === 1 ? Buffer.from('clich\xe9s', 'latin1') : i === 2 ? Buffer.from([0x97]) : Buffer.from(r.word),
    Buffer.from(` ${r.vector.join(' ')}\n`),
  ]));
  const file = Buffer.concat([Buffer.from('12 3\n'), ...lines]);
  await openFiles(page, [{ name: 'latin1.vec', mimeType: 'text/plain', buffer: file }]);
  await page.locator('#progress-text', {
    hasText: 'Opened 12 vectors of 3 dimensions from latin1.vec. 2 words hold bytes that are not UTF-8 (written in another encoding), each shown as \ufffd.',
  }).waitFor();
  await combobox(page, 'Word').fill('w0');
  await button(page, 'Find').click();
  const words = page.locator('#neighbours-list li .word');
  await words.first().waitFor();
  const nearest = (await words.allTextContents()).slice(0, 2);
  assert.ok(nearest.includes('clich\ufffds'), `w0's nearest are w1 (read as clich\ufffds) and w11: ${nearest}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a large vectors file is read in slices with progress, and the page answers meanwhile', { timeout: 90_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  await watchReadings(page);
  await openFiles(page, [textFile('big.txt', largeVectorsText())]);
  await stat(page, 'Vocabulary').filter({ hasText: '20,000' }).waitFor({ timeout: 60_000 });
  const seen = await readings(page);
  assert.ok(seen.length >= 3, `progress while reading: ${JSON.stringify(seen)}`);
  assert.deepEqual((await neighboursOf(page, 'w123')).length, 10);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a malformed vectors file is refused with its line, and the page goes on', { timeout: 60_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const rows = circleVectors(20, 4);
  const lines = word2vecText(rows).split('\n');
  lines[5] = 'w4 0.5 0.25 oops 0.1';
  await openFiles(page, [textFile('broken.txt', lines.join('\n'))]);
  const notice = page.getByRole('alert');
  await notice.filter({ hasText: 'broken.txt' }).waitFor();
  assert.match(await notice.textContent(), /line 6: value 3 of 'w4' is 'oops', not a number/);

  const truncated = word2vecBinary(rows).subarray(0, 200);
  await openFiles(page, [{ name: 'cut.bin', mimeType: 'application/octet-stream', buffer: truncated }]);
  await notice.filter({ hasText: 'cut.bin' }).waitFor();
  assert.match(await notice.textContent(), /truncated|ends/);

  // The page still works: the sample trains.
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  await button(page, 'Train').click();
  await page.waitForFunction(() => document.getElementById('progress-text').textContent.startsWith('Done.'), null, { timeout: 60_000 });
  assert.deepEqual(problems, []);
  await page.close();
});

test('a header that does not match its rows is refused with the line and the fault, not taken for a text', { timeout: 60_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  const rows = word2vecText(circleVectors(120, 8)).split('\n').slice(1).join('\n');
  const notice = page.getByRole('alert');
  for (const [name, header, message] of [
    ['hdr_dim.txt', '120 10', /line 2: the header says 10 values a word, but 'w0' has 8/],
    ['neg_hdr.txt', '-5 8', /line 1: the header gives the number of words as -5; it cannot be negative/],
    ['huge_hdr.txt', '1000000000 100000', /line 2: the header says 100000 values a word, but 'w0' has 8/],
  ]) {
    await openFiles(page, [textFile(name, `${header}\n${rows}`)]);
    await notice.filter({ hasText: name }).waitFor();
    assert.match(await notice.textContent(), message);
    assert.ok(!(await page.locator('#source-name').textContent()).includes(name), 'not opened as a text');
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('vectors whose words are numbers open as vectors, also the export of a vectors.tsv opened alone', { timeout: 90_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const rows = circleVectors(120, 8);
  // Without metadata.tsv the words are the row numbers 1, 2, …
  await openFiles(page, [textFile('vectors.tsv', rows.map((r) => r.vector.join('\t')).join('\n'))]);
  await stat(page, 'Format').filter({ hasText: 'Projector' }).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'vectors.txt').click()]);
  const exported = await readFile(await download.path());
  assert.match(exported.toString('utf8', 0, 20), /^120 8\n1 /);
  const numbered = rows.map((r, i) => ({ word: String(i + 1), vector: r.vector }));
  for (const [files, format] of [
    [[{ name: 'exported.txt', mimeType: 'text/plain', buffer: exported }], 'word2vec text'],
    [[textFile('glove-numbers.txt', numbered.map((r) => `${r.word} ${r.vector.join(' ')}`).join('\n'))], 'GloVe'],
  ]) {
    await openFiles(page, files);
    await stat(page, 'Format').filter({ hasText: format }).waitFor();
    assert.equal(await stat(page, 'Vocabulary').textContent(), '120');
    assert.deepEqual((await neighboursOf(page, '11')).slice(0, 2).sort(), ['10', '12']);
  }
  // A text of integers (token ids) whose first line could be a header still trains.
  const ids = Array.from({ length: 200 }, (_, i) => `${i % 7} ${(i * 3) % 11} ${(i * 5) % 13}`);
  await openFiles(page, [textFile('ids.txt', `2 2\n${ids.join('\n')}\n`)]);
  await stat(page, 'Lines').filter({ hasText: '201' }).waitFor();
  assert.equal(await button(page, 'Train').isDisabled(), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the vectors info counts the vectors that are all zeros, and a zero vector has no neighbours, saying why', { timeout: 60_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const rows = circleVectors(40, 4);
  [3, 7, 8].forEach((i) => { rows[i].vector = [0, -0, 0, 0]; });
  await openFiles(page, [textFile('zeros.txt', word2vecText(rows))]);
  await stat(page, 'Format').waitFor();
  // The count the worker reports with the vectors, which the page keeps but does not show.
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).explorer.vectors.zeroVectors), 3);
  // A zero vector's neighbours: the card says it has no direction (it listed w0, w1, … at 0.000).
  await page.getByRole('combobox', { name: 'Word', exact: true }).fill('w3');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page.locator('#neighbours-message', { hasText: "The vector of 'w3' is all zeros: it points no way" }).waitFor();
  assert.equal(await page.locator('#neighbours-list li').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a bundle saved here opens again exactly: vectors, parameters, losses, fingerprint', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  const vocabulary = await stat(page, 'Vocabulary').textContent();
  await showParameters(page);
  await page.getByRole('textbox', { name: 'Epochs', exact: true }).fill('3');
  await button(page, 'Train').click();
  await page.waitForFunction(() => document.getElementById('progress-text').textContent.startsWith('Done.'), null, { timeout: 60_000 });
  const before = await neighbours(page, 'queen');
  const losses = await lossChart(page).getAttribute('data-epoch-losses');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    button(page, 'embedscope-bundle.json').click(),
  ]);
  const bundle = await readFile(await download.path());
  const json = JSON.parse(bundle.toString('utf8'));
  assert.equal(json.format, 'embedscope-bundle');
  assert.equal(json.params.epochs, 3);
  assert.equal(json.words.length, Number(vocabulary));
  await page.close();

  // A fresh page: the bundle alone brings everything back.
  const { page: again, problems: againProblems } = await suite.openExplorer();
  await openFiles(again, [{ name: 'run.json', mimeType: 'application/json', buffer: bundle }]);
  await stat(again, 'Format').filter({ hasText: 'embedscope bundle' }).waitFor();
  assert.equal(await stat(again, 'Vocabulary').textContent(), vocabulary);
  assert.equal(await stat(again, 'Run').textContent(), json.fingerprint);
  await showParameters(again);
  assert.equal(await again.getByRole('textbox', { name: 'Epochs', exact: true }).inputValue(), '3');
  assert.equal(await lossChart(again).getAttribute('data-epoch-losses'), losses);
  assert.deepEqual(await neighbours(again, 'queen'), before, 'the same neighbours with the same scores');
  assert.deepEqual([...problems, ...againProblems], []);
  await again.close();
});

/** The neighbours of `word` with their scores as shown. */
async function neighbours(page, word) {
  await neighboursOf(page, word);
  return page.locator('#neighbours-list li').allTextContents();
}

test('benchmarks from files: similarity scored, analogies per section, a malformed one named', { timeout: 60_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const rows = circleVectors(120, 8);
  await openFiles(page, [textFile('vectors.txt', word2vecText(rows))]);
  await stat(page, 'Format').waitFor();

  // Neighbours on the circle are more similar than words far apart, as these scores say.
  const pairs = ['word1\tword2\tscore', 'w0\tw1\t9.5', 'w0\tw30\t5', 'w0\tw60\t0.5', 'w5\tw6\t9', 'w5\tunknown\t3'].join('\n');
  await page.getByLabel('Open a benchmark file…').setInputFiles(textFile('pairs.tsv', pairs));
  await button(page, 'Evaluate').click();
  await page.locator('#evaluation-message', { hasText: /^Spearman/ }).waitFor();
  const message = await page.locator('#evaluation-message').textContent();
  assert.match(message, /over 4 of 5 pairs \(20\.0 % out of vocabulary\)/);
  assert.ok(Number(message.match(/Spearman (-?[\d.]+)/)[1]) > 0.7, message);

  // Analogies: on a circle, w0 : w1 :: w10 : w11 (a rotation), per section.
  const questions = [': rotation', 'w0 w1 w10 w11', 'w20 w21 w40 w41', ': missing', 'w0 w1 nowhere w2'].join('\n');
  await page.getByLabel('Open a benchmark file…').setInputFiles(textFile('questions-words.txt', questions));
  await button(page, 'Evaluate').click();
  await page.locator('#evaluation-table th', { hasText: 'All' }).waitFor();
  const rowsShown = await page.locator('#evaluation-table tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rowsShown.slice(1).map((r) => r.slice(0, 3)), [
    ['rotation', '2', '2 (100.0 %)'], ['missing', '1', '0 (0.0 %)'], ['All', '3', '2 (66.7 %)'],
  ]);
  assert.match(await page.locator('#evaluation-message').textContent(), /1 of 3 questions skipped/);

  await page.getByLabel('Open a benchmark file…').setInputFiles(textFile('bad.txt', ': s\nw0 w1 w2 w3\nw0 w1 w2\n'));
  await button(page, 'Evaluate').click();
  await page.locator('#evaluation-message', { hasText: 'Cannot evaluate' }).waitFor();
  assert.match(await page.locator('#evaluation-message').textContent(), /line 3/);
  assert.deepEqual(problems, []);
  await page.close();
});
