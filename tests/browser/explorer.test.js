// The explorer as a person uses it, in Chromium against the Vite dev server: open the
// built-in sample or a file, train in the worker, watch progress and loss, query the
// vectors (plot clicks, search, analogies), export, and pause, resume and stop.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { button, combobox, endTrace, explorerSuite, field, lossChart, mapCanvas, RESULTS, startTrace, stat, waitUntilDone, showParameters } from './helpers.js';

const suite = explorerSuite({ before, after });

const progressbar = (page) => page.getByRole('progressbar', { name: 'Training progress' });

/** Clicks the built-in sample and waits for its statistics. */
async function openSample(page) {
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
}

/** Records every aria-valuenow the progress bar takes, from now on. */
async function recordProgress(page) {
  await page.evaluate(() => {
    window.progressSeen = [];
    const bar = document.getElementById('progress');
    new MutationObserver(() => window.progressSeen.push(Number(bar.getAttribute('aria-valuenow'))))
      .observe(bar, { attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  return () => page.evaluate(() => window.progressSeen);
}

/**
 * Finds a point of the plot the way a pointer would: sweeps pointermove events over the canvas
 * inside the page (one round trip instead of thousands) until the tooltip names a word, then
 * moves the real mouse there and checks the tooltip again. Returns the word and where.
 */
async function findPlottedWord(page) {
  // The real pointer can only reach what is on screen.
  await mapCanvas(page).scrollIntoViewIfNeeded();
  const found = await page.evaluate(() => {
    const canvas = document.getElementById('plot');
    const tooltip = document.getElementById('tooltip');
    const box = canvas.getBoundingClientRect();
    for (let y = 20; y < box.height - 20; y += 4) {
      for (let x = 20; x < box.width - 20; x += 4) {
        const at = { clientX: box.left + x, clientY: box.top + y, bubbles: true };
        canvas.dispatchEvent(new PointerEvent('pointermove', { ...at, pointerType: 'mouse' }));
        if (!tooltip.hidden) return { x: at.clientX, y: at.clientY };
      }
    }
    return null;
  });
  if (!found) throw new Error('no point of the plot answers the pointer');
  await page.mouse.move(found.x, found.y);
  const tooltip = page.locator('#tooltip');
  await tooltip.waitFor({ state: 'visible' });
  return { word: await tooltip.textContent(), ...found };
}

/** How many distinct colours the plot canvas holds: a blank canvas has one. */
function plotColours(page) {
  return page.evaluate(() => {
    const canvas = document.getElementById('plot');
    const copy = document.createElement('canvas');
    Object.assign(copy, { width: canvas.width, height: canvas.height });
    const context = copy.getContext('2d');
    context.drawImage(canvas, 0, 0);
    const { data } = context.getImageData(0, 0, copy.width, copy.height);
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4 * 7) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return colours.size;
  });
}

test('the built-in sample trains, and the plot, neighbours and analogies answer', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await openSample(page);
  assert.equal(await stat(page, 'Lines').textContent(), '2,000');
  assert.match(await stat(page, 'Tokens').textContent(), /^\d{2},\d{3}$/);
  assert.match(await page.locator('#cut-note').textContent(), /^Min count 5 dropped \d+ rare words/);
  // The sample's preset fills the form.
  await showParameters(page);
  assert.equal(await field(page, 'Dimensions').inputValue(), '50');
  assert.equal(await field(page, 'Learning rate').inputValue(), '0.05');

  await showParameters(page);
  await field(page, 'Epochs').fill('10');
  const progressSeen = await recordProgress(page);
  await button(page, 'Train').click();
  await waitUntilDone(page);
  const seen = await progressSeen();
  const between = new Set(seen.filter((value) => value > 0 && value < 100));
  assert.ok(between.size >= 3, `progress arrived during training: ${seen.join(', ')}`);
  assert.equal(await progressbar(page).getAttribute('aria-valuenow'), '100');
  assert.match(await page.locator('#progress-text').textContent(), /Epoch 10 of 10 · 100 % · [\d,]+ tokens\/s/);

  const losses = JSON.parse(await lossChart(page).getAttribute('data-epoch-losses'));
  assert.equal(losses.length, 10);
  assert.ok(losses.at(-1) < losses[0], `the loss falls: ${losses.join(', ')}`);
  assert.ok((await plotColours(page)) > 5, 'the plot is drawn');

  // Search with completion.
  await combobox(page, 'Word').fill('ki');
  await page.waitForFunction(() => [...document.querySelectorAll('#vocab-completions option')].some((o) => o.value === 'king'));
  await combobox(page, 'Word').fill('king');
  await button(page, 'Find').click();
  await page.getByText('Nearest to “king”').waitFor();
  const neighbours = page.locator('#neighbours-list button');
  assert.equal(await neighbours.count(), 10);
  // Clicking a neighbour selects it.
  const second = await neighbours.nth(1).textContent();
  await neighbours.nth(1).click();
  await page.getByText(`Nearest to “${second}”`).waitFor();

  // Clicking a point of the plot selects its word.
  const point = await findPlottedWord(page);
  await page.mouse.click(point.x, point.y);
  await page.getByText(`Nearest to “${point.word}”`).waitFor();
  assert.equal(await combobox(page, 'Word').inputValue(), point.word);

  await combobox(page, 'A').fill('king');
  await combobox(page, 'B').fill('queen');
  await combobox(page, 'C').fill('man');
  await button(page, 'Solve').click();
  await page.getByText('king is to queen as man is to woman').waitFor();
  assert.equal(await page.locator('#analogy-cosadd li .word').first().textContent(), 'woman');
  assert.equal(await page.locator('#analogy-cosmul li .word').first().textContent(), 'woman');

  // After training on the sample, its planted analogies are scored by themselves...
  const sanity = page.locator('#sanity');
  await sanity.filter({ hasText: 'Sanity check' }).waitFor();
  const [, correct, total] = (await sanity.textContent()).match(/3CosAdd ([\d,]+) of ([\d,]+)/).map((n) => Number(n.replaceAll(',', '')));
  assert.ok(total === 296 && correct / total >= 0.9, await sanity.textContent());

  // ...and the evaluation panel gives them per section, and the planted similarity.
  await combobox(page, 'Benchmark').selectOption('planted-analogies');
  await button(page, 'Evaluate').click();
  const table = page.locator('#evaluation-table');
  await table.locator('th', { hasText: 'All' }).waitFor();
  const rows = await table.locator('tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows.slice(1).map((r) => r[0]), ['status', 'gender', 'age', 'country', 'capital-country', 'All']);
  assert.deepEqual(rows.at(-1).slice(1, 3), ['296', '296 (100.0 %)']);
  assert.ok(parseFloat(rows.at(-1)[3]) >= 90, rows.at(-1).join(' | '));
  await combobox(page, 'Benchmark').selectOption('planted-similarity');
  await button(page, 'Evaluate').click();
  await page.locator('#evaluation-message', { hasText: /^Spearman/ }).waitFor();
  const spearman = Number((await page.locator('#evaluation-message').textContent()).match(/Spearman (-?[\d.]+)/)[1]);
  assert.ok(spearman > 0.6, `Spearman ${spearman}`);

  await page.screenshot({ path: join(RESULTS, 'explorer-sample.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('an unknown word in an analogy is named', { timeout: 60_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await openSample(page);
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await combobox(page, 'A').fill('king');
  await combobox(page, 'B').fill('qween');
  await combobox(page, 'C').fill('man');
  await button(page, 'Solve').click();
  await page.getByText("'qween' is not in the vocabulary").waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('an unknown word in Neighbours is named on the card, and the next word found clears it', { timeout: 60_000 }, async () => {
  // It was a page-wide notice that stayed up after the next, known word was found.
  const { page, problems } = await suite.openExplorer();
  await openSample(page);
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await combobox(page, 'Word').fill('qween');
  await button(page, 'Find').click();
  await page.locator('#neighbours-message', { hasText: "'qween' is not in the vocabulary." }).waitFor();
  await combobox(page, 'Word').fill('queen');
  await button(page, 'Find').click();
  await page.getByText('Nearest to “queen”').waitFor();
  assert.equal(await page.getByText("'qween' is not in the vocabulary").count(), 0, 'no word of the unknown one is left');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the form checks parameters, and the core rejects what the form cannot know', { timeout: 60_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await openSample(page);
  await showParameters(page);
  await field(page, 'Dimensions').fill('abc');
  assert.equal(await field(page, 'Dimensions').getAttribute('aria-invalid'), 'true');
  await page.locator('#param-dim-help', { hasText: 'enter a number' }).waitFor();
  assert.equal(await button(page, 'Train').isDisabled(), true);
  await field(page, 'Dimensions').fill('50');
  assert.equal(await field(page, 'Dimensions').getAttribute('aria-invalid'), 'false');
  assert.equal(await button(page, 'Train').isDisabled(), false);

  // No word of the sample occurs a million times: the vocabulary would be empty.
  await field(page, 'Min count').fill('1000000');
  await button(page, 'Train').click();
  await page.getByRole('alert').filter({ hasText: 'Cannot prepare' }).waitFor();
  await page.screenshot({ path: join(RESULTS, 'explorer-invalid.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

/** A small text where "cat" and "dog" share contexts. */
function smallText(lines) {
  const pets = ['cat', 'dog'];
  const verbs = ['sleeps', 'eats', 'runs', 'plays'];
  const places = ['garden', 'house', 'yard', 'kitchen'];
  return Array.from({ length: lines }, (_, i) =>
    `The ${pets[i % 2]} ${verbs[(i >> 1) % 4]} in the ${places[(i >> 3) % 4]}.`).join('\n');
}

test('a file from the file input or dropped on the page trains', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await page.getByLabel('Open a file…').setInputFiles({
    name: 'pets.txt', mimeType: 'text/plain', buffer: Buffer.from(smallText(400)),
  });
  await page.locator('#source-name', { hasText: 'pets.txt' }).waitFor();
  await stat(page, 'Vocabulary').waitFor();
  assert.equal(await stat(page, 'Lines').textContent(), '400');
  // Word2vec's defaults, not the sample's preset.
  await showParameters(page);
  assert.equal(await field(page, 'Dimensions').inputValue(), '100');
  await showParameters(page);
  await field(page, 'Dimensions').fill('20');
  await field(page, 'Epochs').fill('3');
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await combobox(page, 'Word').fill('cat');
  await button(page, 'Find').click();
  await page.getByText('Nearest to “cat”').waitFor();
  assert.ok((await page.locator('#neighbours-list li').count()) > 0);

  // Dropping a file anywhere opens it too; the name is shown as text, never as markup.
  const dataTransfer = await page.evaluateHandle((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], '<b>dropped</b>.txt', { type: 'text/plain' }));
    return transfer;
  }, smallText(100));
  await page.dispatchEvent('body', 'drop', { dataTransfer });
  await page.locator('#source-name', { hasText: '<b>dropped</b>.txt' }).waitFor();
  await page.waitForFunction(() => document.querySelector('[data-stat="Lines"]')?.textContent === '100');
  assert.equal(await page.locator('#source-name b').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('exports parse: word2vec text and binary, Projector TSV, projection CSV, PNG and SVG', { timeout: 60_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await openSample(page);
  await button(page, 'Train').click();
  await waitUntilDone(page);
  const vocabSize = Number(await stat(page, 'Vocabulary').textContent());

  // Each file is built when its button is pressed.
  const download = async (name) => {
    const [file] = await Promise.all([page.waitForEvent('download'), button(page, name).click()]);
    assert.equal(file.suggestedFilename(), name);
    return readFile(await file.path());
  };
  const word2vec = (await download('vectors.txt')).toString('utf8').trimEnd().split('\n');
  assert.equal(word2vec[0], `${vocabSize} 50`);
  assert.equal(word2vec.length, vocabSize + 1);
  assert.equal(word2vec[1].split(' ').length, 51);
  const vectors = (await download('vectors.tsv')).toString('utf8').trimEnd().split('\n');
  const metadata = (await download('metadata.tsv')).toString('utf8').trimEnd().split('\n');
  assert.equal(vectors.length, vocabSize);
  assert.equal(metadata.length, vocabSize);
  assert.equal(vectors[0].split('\t').length, 50);
  const png = await download('plot.png');
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  // Binary: the same header, then per word its name, a space and 50 little-endian floats.
  const binary = await download('vectors.bin');
  const header = `${vocabSize} 50\n`;
  assert.equal(binary.subarray(0, header.length).toString('latin1'), header);
  const words = word2vec.slice(1).map((line) => line.split(' ')[0]);
  const wordBytes = words.reduce((sum, word) => sum + Buffer.byteLength(word) + 1, 0);
  assert.equal(binary.length, header.length + wordBytes + vocabSize * (50 * 4 + 1));
  const firstValue = binary.readFloatLE(header.length + Buffer.byteLength(words[0]) + 1);
  assert.equal(firstValue, Math.fround(Number(word2vec[1].split(' ')[1])));

  // The projection: a header, then each plotted word with two finite coordinates.
  const csv = (await download('projection.csv')).toString('utf8').trimEnd().split('\r\n');
  assert.match(csv[0], /^word,PC1 \([\d.]+ % of variance\),PC2 /);
  assert.equal(csv.length - 1, Math.min(vocabSize, Number(await page.getByRole('spinbutton', { name: 'Words shown' }).inputValue())));
  for (const row of csv.slice(1)) {
    const [word, x, y] = row.split(',');
    assert.ok(words.includes(word), `${word} is in the vocabulary`);
    assert.ok(Number.isFinite(Number(x)) && Number.isFinite(Number(y)), row);
  }

  // The SVG: a whole document with a dot per plotted word and the labels as text.
  const svg = (await download('plot.svg')).toString('utf8');
  assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.ok(svg.trimEnd().endsWith('</svg>'));
  assert.ok((svg.match(/<circle /g) ?? []).length >= csv.length - 1, 'a dot per plotted word');
  assert.match(svg, new RegExp(`>${csv[1].split(',')[0]}</text>`), 'the most frequent word is labelled');
  const svgPage = await suite.browser.context.newPage();
  await svgPage.setContent(svg);
  assert.equal(await svgPage.locator('svg text').count() > 10, true, 'the SVG parses as a document with labels');
  await svgPage.close();
  assert.deepEqual(problems, []);
  await page.close();
});

test('pause, resume and stop; queries answer during training and after stopping', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await openSample(page);
  await showParameters(page);
  await field(page, 'Epochs').fill('1000');
  await button(page, 'Train').click();
  const valueNow = async () => Number(await progressbar(page).getAttribute('aria-valuenow'));
  await page.waitForFunction(() => document.getElementById('progress-text').textContent.startsWith('Epoch 3 '));

  // A query between two chunks.
  await combobox(page, 'Word').fill('queen');
  await button(page, 'Find').click();
  await page.getByText('Nearest to “queen”').waitFor();
  assert.match(await page.locator('#progress-text').textContent(), /^Epoch \d+ of 1000/);

  await button(page, 'Pause').click();
  await button(page, 'Resume').waitFor();
  await page.locator('#progress-text', { hasText: /^Paused\./ }).waitFor();
  const pausedText = await page.locator('#progress-text').textContent();
  await page.waitForTimeout(600);
  assert.equal(await page.locator('#progress-text').textContent(), pausedText, 'nothing moves while paused');

  await button(page, 'Resume').click();
  await button(page, 'Pause').waitFor();
  await page.waitForFunction((before) => document.getElementById('progress-text').textContent !== before
    && !document.getElementById('progress-text').textContent.startsWith('Paused'), pausedText);
  await page.screenshot({ path: join(RESULTS, 'explorer-training.png'), fullPage: true });

  await button(page, 'Stop').click();
  await page.locator('#progress-text', { hasText: /^Stopped\./ }).waitFor();
  const stoppedAt = await valueNow();
  assert.ok(stoppedAt < 100);
  assert.equal(await button(page, 'Train again').isDisabled(), false);
  assert.equal(await button(page, 'Pause').isDisabled(), true);
  // The vectors stay for queries.
  await combobox(page, 'Word').fill('king');
  await button(page, 'Find').click();
  await page.getByText('Nearest to “king”').waitFor();
  await page.waitForTimeout(300);
  assert.equal(await valueNow(), stoppedAt);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the page stays responsive while training: progress 4+ times a second, no main-thread task over 50 ms', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await openSample(page);
  await showParameters(page);
  await field(page, 'Epochs').fill('60');
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => e.duration)))
      .observe({ type: 'longtask' });
    window.progressTimes = [];
    const bar = document.getElementById('progress');
    new MutationObserver(() => window.progressTimes.push(performance.now()))
      .observe(bar, { attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  // Tasks are judged by their thread time: the other test files run beside this one, and a
  // task the machine paused counts its pause in wall-clock time (those are printed).
  const cdp = await page.context().newCDPSession(page);
  await startTrace(cdp);
  await button(page, 'Train').click();
  await waitUntilDone(page, 110_000);
  const tasks = await endTrace(cdp);
  const { longTasks, progressTimes } = await page.evaluate(() => ({
    longTasks: window.longTasks,
    progressTimes: window.progressTimes,
  }));
  const seconds = (progressTimes.at(-1) - progressTimes[0]) / 1000;
  const perSecond = (progressTimes.length - 1) / seconds;
  const longest = Math.max(...tasks.map((t) => t.cpuMs));
  console.log(`training: ${seconds.toFixed(1)} s, ${perSecond.toFixed(1)} progress updates/s, ` +
    `longest main-thread task ${longest.toFixed(1)} ms of thread time, wall-clock long tasks: ${JSON.stringify(longTasks)}`);
  assert.ok(seconds > 1, `training long enough to judge (${seconds} s)`);
  assert.ok(perSecond >= 4, `${perSecond.toFixed(1)} progress updates a second`);
  assert.ok(tasks.length > 100, `the trace holds the page's tasks (${tasks.length})`);
  assert.deepEqual(tasks.filter((t) => t.cpuMs > 50).map((t) => Math.round(t.cpuMs)), [], 'no main-thread task over 50 ms of thread time');
  assert.deepEqual(problems, []);
});

test('the page opens on the built-in sample, so training is one click away', { timeout: 60_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  assert.equal(await stat(page, 'Lines').textContent(), '2,000');
  await showParameters(page);
  assert.equal(await field(page, 'Dimensions').inputValue(), '50', 'the sample preset is filled in');
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await combobox(page, 'Word').fill('king');
  await button(page, 'Find').click();
  await page.getByText('Nearest to “king”').waitFor();
  assert.deepEqual(problems, []);
});
