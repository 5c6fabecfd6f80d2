// The Matrix card in Chromium, against Vite: the embedding matrix of whatever vectors the
// page holds, trained here or opened from a file, drawn as a heatmap of a band of rows ×
// dimensions. Its size is the vocabulary × dimension the worker reports; its values are the
// vectors the Export card writes, to the bit; the buttons, the keys, the wheel and a drag
// zoom and move the band; clicking a row's token selects it; while training it follows the
// vectors, a few times a second at most, within the page's 50 ms budget. A text's trainer
// shows its output (context) matrix beside the input one; "Row of" finds a word's row and
// selects it on the page, and a word selected elsewhere brings its row into the band.
//
// Run with `node --test tests/browser/matrix.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RESULTS, button, combobox, endTrace, explorerSuite, field, showParameters, startTrace, stat, waitUntilDone } from './helpers.js';

const suite = explorerSuite({ before, after });

/** The card, a region named by its heading. */
const card = (page) => page.getByRole('region', { name: 'Matrix', exact: true });
const rangeLine = (page) => page.locator('#matrix-range');
const heatmap = (page) => page.getByRole('img', { name: /^Heatmap of the matrix/ });

/** Waits until the range line says `text` (the band asked for has been drawn). */
async function rangeIs(page, text) {
  await page.waitForFunction((wanted) => document.getElementById('matrix-range').textContent === wanted, text, { timeout: 10_000 })
    .catch(async () => assert.fail(`the range line says "${await rangeLine(page).textContent()}", not "${text}"`));
}

/** The word2vec text export's vectors: word → Float32Array (each value parsed from its shortest decimal). */
function parseWord2vec(text) {
  const [header, ...lines] = text.trimEnd().split('\n');
  const [count, dim] = header.split(' ').map(Number);
  const vectors = new Map(lines.map((line) => {
    const parts = line.split(' ');
    return [parts.slice(0, parts.length - dim).join(' '), Float32Array.from(parts.slice(-dim).map(Number))];
  }));
  return { count, dim, vectors };
}

async function exportWord2vec(page) {
  const [file] = await Promise.all([page.waitForEvent('download'), button(page, 'vectors.txt').click()]);
  return parseWord2vec((await readFile(await file.path())).toString('utf8'));
}

/** How many of the heatmap's pixels are clearly red (positive) and clearly blue (negative). */
const signedPixels = (page) => heatmap(page).evaluate((canvas) => {
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let positive = 0;
  let negative = 0;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    if (r > b + 60 && r > g + 60) positive += 1;
    if (b > r + 60 && b > g + 30) negative += 1;
  }
  return { positive, negative };
});

/** The band drawn, with its values. The page shows them rounded; exact ones only through the dev server's `window.explorer`. */
const shownBand = (page) => page.evaluate(() => {
  const band = window.explorer.matrix.shown;
  return band && { ...band, values: [...band.values], outputValues: band.outputValues && [...band.outputValues] };
});

test('after training the sample, the card shows its matrix: the size the worker reports, both signs, the exported values', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await card(page).scrollIntoViewIfNeeded();
  await rangeIs(page, 'rows 1–32 of 183 · dimensions 1–50 of 50');

  const exported = await exportWord2vec(page);
  assert.equal(await stat(page, 'Vocabulary').textContent(), String(exported.count), 'the statistics and the export agree');
  assert.equal(await page.locator('#matrix-size').textContent(),
    `${exported.count} tokens × ${exported.dim} dimensions = ${(exported.count * exported.dim).toLocaleString('en')} numbers`);

  const { positive, negative } = await signedPixels(page);
  assert.ok(positive > 500 && negative > 500, `red and blue cells both drawn: ${positive} red, ${negative} blue pixels`);

  // The band's values are the vectors the export writes, row by row, to the bit; its words
  // are the vocabulary's first, most frequent first, as the export lists them. The last band
  // is asked for within REFRESH_MS of the last progress, which may come after "Done."; the
  // card asks for nothing while it is off screen, and clicking the export button may have
  // scrolled it away, so it is brought back into view first.
  const words = [...exported.vectors.keys()];
  const final = [...exported.vectors.get(words[0])];
  await card(page).scrollIntoViewIfNeeded();
  await page.waitForFunction((row) => window.explorer.matrix.shown?.values.slice(0, row.length).every((v, i) => v === row[i]), final,
    { timeout: 10_000 });
  const band = await shownBand(page);
  assert.deepEqual(band.words, words.slice(0, 32));
  for (let row = 0; row < band.rows; row += 1) {
    assert.deepEqual(band.values.slice(row * 50, row * 50 + 50), [...exported.vectors.get(band.words[row])], `row ${row} (${band.words[row]})`);
  }
  assert.equal(band.min, Math.min(...band.values));
  assert.equal(band.max, Math.max(...band.values));

  // The pointer over a cell: its token, row, dimension and value (4 significant digits).
  const { x0, y0, width, height } = await page.evaluate(() => window.explorer.view.matrixPanel.layout);
  await heatmap(page).hover({ position: { x: x0 + width * (12.5 / 50), y: y0 + height * (5.5 / 32) } });
  const tooltip = page.locator('#matrix-tooltip');
  await tooltip.waitFor();
  const [, word, row, dimension, value] = (await tooltip.textContent()).match(/^(.+) \(row (\d+)\) · input dimension (\d+)\n(.+)$/);
  assert.deepEqual([word, row, dimension], [words[5], '6', '13']);
  const expected = exported.vectors.get(word)[12];
  assert.equal(value, `${expected < 0 ? '−' : ''}${Math.abs(expected).toPrecision(4)}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('buttons, keys, the wheel and a drag zoom and move the band, as the range line says; a row\'s token selects it', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await card(page).scrollIntoViewIfNeeded();
  await rangeIs(page, 'rows 1–32 of 183 · dimensions 1–50 of 50');
  const zoomIn = button(page, 'Zoom in: fewer rows and dimensions');
  const zoomOut = button(page, 'Zoom out: more rows and dimensions');
  assert.equal(await button(page, 'Earlier rows').isDisabled(), true, 'at the first rows');

  // In about the middle: 16 rows from 0 + 16 / 2, 32 dimensions from 0 + 18 / 2.
  await zoomIn.click();
  await rangeIs(page, 'rows 9–24 of 183 · dimensions 10–41 of 50');
  await button(page, 'Later rows').click();
  await rangeIs(page, 'rows 17–32 of 183 · dimensions 10–41 of 50');
  await button(page, 'Later dimensions').click();
  await rangeIs(page, 'rows 17–32 of 183 · dimensions 19–50 of 50');
  assert.equal(await button(page, 'Later dimensions').isDisabled(), true, 'at the last dimension');
  // Out again: the 32 rows about the middle, all the dimensions.
  await zoomOut.click();
  await rangeIs(page, 'rows 9–40 of 183 · dimensions 1–50 of 50');
  // To the last level: every row of the sample (fewer than 256), which the band's words list.
  for (let i = 0; i < 3; i += 1) await zoomOut.click();
  await rangeIs(page, 'rows 1–183 of 183 · dimensions 1–50 of 50');
  assert.equal(await zoomOut.isDisabled(), true);
  assert.equal((await shownBand(page)).words.length, 183);

  // Keys on the focused heatmap: Home goes back to the first band, + zooms in, arrows move.
  await heatmap(page).focus();
  await page.keyboard.press('Home');
  await rangeIs(page, 'rows 1–32 of 183 · dimensions 1–50 of 50');
  await page.keyboard.press('ArrowDown');
  await rangeIs(page, 'rows 4–35 of 183 · dimensions 1–50 of 50');
  // + zooms in about the canvas's middle (where the labels' width puts it in the band varies).
  await page.keyboard.press('+');
  await page.waitForFunction(() => /^rows \d+–\d+ of 183 · dimensions \d+–\d+ of 50$/.test(document.getElementById('matrix-range').textContent)
    && window.explorer.matrix.shown?.rows === 16);
  const { firstRow, firstCol, cols } = await shownBand(page);
  assert.equal(cols, 32);

  // The wheel over the heatmap: up zooms in, here about its top left cell, which stays.
  const box = await heatmap(page).boundingBox();
  const { x0, y0 } = await page.evaluate(() => window.explorer.view.matrixPanel.layout);
  await page.mouse.move(box.x + x0 + 1, box.y + y0 + 1);
  await page.mouse.wheel(0, -250);
  await rangeIs(page, `rows ${firstRow + 1}–${firstRow + 8} of 183 · dimensions ${firstCol + 1}–${firstCol + 16} of 50`);

  // A drag moves the band with the pointer: up by 2.5 rows' height brings the next 2 rows.
  const { height, width } = await page.evaluate(() => window.explorer.view.matrixPanel.layout);
  const [midX, midY] = [box.x + x0 + width / 2, box.y + y0 + height / 2];
  await page.mouse.move(midX, midY);
  await page.mouse.down();
  await page.mouse.move(midX, midY - 2.5 * (height / 8), { steps: 8 });
  await page.mouse.up();
  await rangeIs(page, `rows ${firstRow + 3}–${firstRow + 10} of 183 · dimensions ${firstCol + 1}–${firstCol + 16} of 50`);

  // A click on a row's token selects it: the Neighbours card answers for it.
  const { words } = await shownBand(page);
  await page.mouse.click(box.x + x0 / 2, box.y + y0 + height * (2.5 / 8));
  await page.locator('#neighbours-message', { hasText: `Nearest to “${words[2]}”` }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('while training, the card follows the vectors a few times a second at most, and ends on the last ones', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer(async (page) => {
    await page.addInitScript(() => {
      // When each band was asked for (the worker's messages as the page sends them).
      window.bandsAsked = [];
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (message, ...rest) {
        if (message?.type === 'matrixBand') window.bandsAsked.push(performance.now());
        return post.call(this, message, ...rest);
      };
    });
  });
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await field(page, 'Epochs').fill('40');
  await card(page).scrollIntoViewIfNeeded();
  await rangeIs(page, 'rows 1–32 of 183 · dimensions 1–50 of 50');
  const before = (await shownBand(page)).values;
  const started = await page.evaluate(() => performance.now());
  await button(page, 'Train').click();
  await waitUntilDone(page, 120_000);
  const ended = await page.evaluate(() => performance.now());
  await page.waitForTimeout(1_000);
  const asked = (await page.evaluate(() => window.bandsAsked)).filter((t) => t >= started && t <= ended);
  const seconds = (ended - started) / 1000;
  assert.ok(seconds > 1, `training took ${seconds.toFixed(2)} s: too short to watch`);
  // REFRESH_MS (400 ms) apart at least, so at most 2.5 a second (plus the first); at least a few while it trains.
  assert.ok(asked.length >= 3, `${asked.length} bands asked for in ${seconds.toFixed(1)} s of training`);
  assert.ok(asked.length <= seconds / 0.4 + 2, `${asked.length} bands asked for in ${seconds.toFixed(1)} s of training`);
  for (let i = 1; i < asked.length; i += 1) assert.ok(asked[i] - asked[i - 1] >= 399, `bands ${i - 1} and ${i}: ${asked[i] - asked[i - 1]} ms apart`);

  // The last band drawn is the trained vectors', which the export writes.
  const band = await shownBand(page);
  assert.notDeepEqual(band.values, before, 'the band drawn before training changed');
  const exported = await exportWord2vec(page);
  assert.deepEqual(band.values.slice(0, 50), [...exported.vectors.get(band.words[0])]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('vectors opened from a file show their matrix: their size, their words, their numbers', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  // 20 words of 12 dimensions; the numbers are the file's, read as f32.
  const rows = Array.from({ length: 20 }, (_, i) => [`w${i}`, Array.from({ length: 12 }, (_, j) => (Math.sin(i * 7 + j * 3) / 2).toFixed(4))]);
  const text = `20 12\n${rows.map(([word, values]) => `${word} ${values.join(' ')}`).join('\n')}\n`;
  await page.getByLabel('Open a file…').setInputFiles({ name: 'small.vec', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await card(page).scrollIntoViewIfNeeded();
  await rangeIs(page, 'rows 1–20 of 20 · dimensions 1–12 of 12');
  assert.equal(await page.locator('#matrix-size').textContent(), '20 tokens × 12 dimensions = 240 numbers');
  assert.equal(await page.locator('#matrix-params').textContent(), 'One-hot 20 wide → dense 12 wide: 1.7 times narrower. Parameters: 240.');
  assert.match(await page.locator('#matrix-output').textContent(), /hold the input matrix only/);
  const band = await shownBand(page);
  assert.equal(band.output, 'opened');
  assert.equal(band.outputValues, undefined, 'no output matrix drawn');
  assert.deepEqual(band.words, rows.map(([word]) => word));
  assert.deepEqual(band.values, rows.flatMap(([, values]) => values.map((v) => Math.fround(Number(v)))));
  const { positive, negative } = await signedPixels(page);
  assert.ok(positive > 100 && negative > 100, `${positive} red, ${negative} blue pixels`);
  // Zoomed in as far as it goes, about the middle: 16 rows × 8 dimensions from (2, 2), then 8 × 8.
  const zoomIn = button(page, 'Zoom in: fewer rows and dimensions');
  await zoomIn.click();
  await rangeIs(page, 'rows 3–18 of 20 · dimensions 3–10 of 12');
  await zoomIn.click();
  await rangeIs(page, 'rows 7–14 of 20 · dimensions 3–10 of 12');
  assert.equal(await zoomIn.isDisabled(), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the output matrix beside the input one; a row found is selected everywhere, a word selected elsewhere shows its row', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  await card(page).scrollIntoViewIfNeeded();
  await rangeIs(page, 'rows 1–32 of 183 · dimensions 1–50 of 50');
  // Before training the output matrix is all zeros (word2vec's start), the input one is not.
  const untrained = await shownBand(page);
  assert.equal(untrained.output, 'trained');
  assert.equal(untrained.outputValues.length, 32 * 50);
  assert.ok(untrained.outputValues.every((v) => v === 0) && untrained.values.some((v) => v !== 0));
  assert.equal(await page.locator('#matrix-params').textContent(),
    'One-hot 183 wide → dense 50 wide: 3.7 times narrower. Parameters: 9,150 in the input matrix + 9,150 in the output matrix = 18,300.');
  assert.match(await page.locator('#matrix-output').textContent(), /output \(context\) matrix/);

  await button(page, 'Train').click();
  await waitUntilDone(page);
  await card(page).scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.explorer.matrix.shown?.outputValues?.some((v) => v !== 0));
  const trained = await shownBand(page);
  assert.notDeepEqual(trained.outputValues, trained.values, 'two matrices, not one drawn twice');
  // Both panes are painted: red and blue pixels right of the middle of the cells too.
  const { x1, width } = await page.evaluate(() => window.explorer.view.matrixPanel.layout);
  assert.ok(x1 > width, `the output matrix from x = ${x1}`);
  const tooltip = page.locator('#matrix-tooltip');
  await heatmap(page).hover({ position: { x: x1 + width * (3.5 / 50), y: 40 } });
  await tooltip.waitFor();
  assert.match(await tooltip.textContent(), /· output dimension 4\n/);
  await page.screenshot({ path: join(RESULTS, 'matrix-output.png'), clip: await card(page).boundingBox() });

  // "Row of": a word beyond the band shown moves the band to it, outlines it, and selects it on the page.
  const find = page.getByRole('searchbox', { name: 'Row of' });
  const words = await page.evaluate(() => window.explorer.worker.request('complete', { prefix: '', limit: 200 }));
  const far = words.words[150];
  await find.fill(far);
  await button(page, 'Find row').click();
  await page.locator('#neighbours-message', { hasText: `Nearest to “${far}”` }).waitFor();
  await page.waitForFunction((w) => window.explorer.matrix.shown?.words.includes(w), far);
  assert.equal(await page.evaluate(() => window.explorer.view.matrixPanel.selectedRow), 150);
  assert.equal(await page.evaluate(() => window.explorer.mapModel.answers.selected), far);
  // A word the vectors lack: said under the field, with nothing selected instead.
  await find.fill('zzzq');
  await button(page, 'Find row').click();
  await page.locator('#matrix-find-message', { hasText: /zzzq/ }).waitFor();
  assert.equal(await page.evaluate(() => window.explorer.queries.selected), far);

  // Selected elsewhere (the Neighbours card's Find): the band moves to the word's row.
  await combobox(page, 'Word').fill(words.words[3]);
  await page.locator('#neighbours-form').getByRole('button', { name: 'Find' }).click();
  await page.locator('#neighbours-message', { hasText: `Nearest to “${words.words[3]}”` }).waitFor();
  // The inspector brought the Neighbours card into view; off screen, the matrix waits to be seen.
  await card(page).scrollIntoViewIfNeeded();
  await page.waitForFunction((w) => window.explorer.matrix.shown?.words.includes(w), words.words[3]);
  assert.equal(await page.evaluate(() => window.explorer.view.matrixPanel.selectedRow), 3);
  assert.deepEqual(problems, []);
  await page.close();
});

test('with the Matrix card on screen while training, both matrices at every row, no main-thread task takes over 50 ms', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await field(page, 'Epochs').fill('40');
  await card(page).scrollIntoViewIfNeeded();
  await rangeIs(page, 'rows 1–32 of 183 · dimensions 1–50 of 50');
  // Every row of the sample, both matrices: the largest band the card draws here.
  for (let i = 0; i < 3; i += 1) await button(page, 'Zoom out: more rows and dimensions').click();
  await rangeIs(page, 'rows 1–183 of 183 · dimensions 1–50 of 50');
  const cdp = await page.context().newCDPSession(page);
  await startTrace(cdp);
  await button(page, 'Train').click();
  await waitUntilDone(page, 120_000);
  const tasks = await endTrace(cdp);
  assert.ok(tasks.length > 100, `the trace holds the page's tasks (${tasks.length})`);
  assert.deepEqual(tasks.filter((t) => t.cpuMs > 50).map((t) => Math.round(t.cpuMs)), [], 'no main-thread task over 50 ms of thread time');
  assert.deepEqual(problems, []);
  await page.close();
});
