// The step mode, in Chromium against the Vite dev server: pause the sample's training, walk
// through single updates (Step, ×10, ×100) and see each one's sentence, window, context
// words, noise words, scores and rows, for skip-gram's pairs and CBOW's windows, and on the
// map the words they moved as short arrows; then Resume trains to the end at full speed, and
// the arrows go.
//
// Run with `node --test tests/browser/step-mode.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { button, combobox, explorerSuite, field, mapCanvas, RESULTS, showParameters, stat, waitUntilDone } from './helpers.js';

const suite = explorerSuite({ before, after });

// Where the map drew its arrows is pixels to a person: the test asks the map's Chart
// (`moves_drawn`) and the scene it drew (its caption) through `window.explorer`.

/** The arrows the map drew (`{word, length, tipOnPoint}`), its caption and the legend's text. */
const mapMoves = (page) => page.evaluate(() => {
  const { map } = window.explorer.view;
  const flat = Array.from(map.chart.moves_drawn());
  const arrows = [];
  for (let i = 0; i + 5 <= flat.length; i += 5) {
    const [point, x0, y0, x1, y1] = flat.slice(i, i + 5);
    const at = map.chart.point_position(point);
    arrows.push({
      word: map.scene.words[point],
      length: Math.hypot(x1 - x0, y1 - y0),
      tipOnPoint: at != null && Math.hypot(at[0] - x1, at[1] - y1) < 0.01,
    });
  }
  return { arrows, caption: map.scene?.options.caption ?? null, legend: document.getElementById('map-legend').textContent };
});

/** What the step panel shows of the last update. */
const shown = (page) => page.evaluate(() => ({
  count: document.getElementById('step-count').textContent,
  centre: [...document.querySelectorAll('#step-sentence .centre')].map((s) => ({ word: s.textContent, inWindow: s.classList.contains('in-window') })),
  context: [...document.querySelectorAll('#step-sentence .context')].map((s) => ({ word: s.textContent, inWindow: s.classList.contains('in-window') })),
  // The window's tokens that subsampling kept, but the centre: CBOW's inputs.
  keptAround: [...document.querySelectorAll('#step-sentence .in-window:not(.subsampled):not(.centre)')].map((s) => s.textContent),
  caption: document.getElementById('step-caption').textContent,
  loss: document.getElementById('step-loss').textContent,
  pair: document.getElementById('step-pair').textContent,
  rows: [...document.querySelectorAll('#step-scores tr')].map((tr) => [...tr.cells].map((td) => td.textContent)),
  moved: document.getElementById('step-rows').textContent,
  tokensDone: window.explorer.progress.tokensDone,
}));

test('paused training walks through single updates, then resumes to the end', async () => {
  const { page, problems } = await suite.openExplorer();
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await field(page, 'Epochs').fill('40');
  await page.getByText('One update at a time', { exact: true }).click();
  assert.ok(await button(page, 'Step').isDisabled(), 'no step before training');

  await button(page, 'Train').click();
  await page.waitForFunction(() => (window.explorer.progress?.tokensDone ?? 0) > 0);
  assert.ok(await button(page, 'Step ×10').isDisabled(), 'no step while training runs');
  assert.match(await page.locator('#step-why').textContent(), /Pause training/);
  await button(page, 'Pause').click();
  await page.waitForFunction(() => document.getElementById('progress-text').textContent.startsWith('Paused.'));
  assert.ok(!(await button(page, 'Step').isDisabled()), 'steps offered while paused');

  await button(page, 'Step').click();
  await page.locator('#step-update').waitFor();
  const one = await shown(page);
  assert.equal(one.count, 'One update; the last one:');
  assert.equal(one.centre.length, 1);
  assert.equal(one.context.length, 1);
  assert.ok(one.centre[0].inWindow && one.context[0].inWindow, 'centre and context lie in the window');
  assert.match(one.pair, new RegExp(`context word “${one.context[0].word}” predicts the centre word “${one.centre[0].word}”, against \\d noise words`));
  assert.match(one.pair, /learning rate 0\.0\d{4}/);
  // The pair, then its noise words: scores are probabilities, shares add up to about 100 %.
  assert.ok(one.rows.length >= 2 && one.rows.length <= 6, `${one.rows.length} rows`);
  assert.deepEqual(one.rows[0].slice(0, 2), [one.centre[0].word, 'text']);
  assert.ok(one.rows.slice(1).every((row) => row[1] === 'noise'));
  for (const row of one.rows) {
    for (const cell of [row[2], row[3]]) assert.ok(Number(cell) > 0 && Number(cell) < 1, `score ${cell}`);
  }
  const shares = one.rows.reduce((sum, row) => sum + Number.parseFloat(row[4]), 0);
  assert.ok(Math.abs(shares - 100) <= one.rows.length, `shares add up to ${shares} %`);
  assert.match(one.moved, new RegExp(`Rows moved: “${one.context[0].word}” in the input matrix; “${one.centre[0].word}”`));

  await button(page, 'Step ×10').click();
  await page.waitForFunction(() => document.getElementById('step-count').textContent.startsWith('10 updates'));
  // The context words the ten updates moved, as arrows ending at their points, scaled and said so.
  await page.waitForFunction(() => window.explorer.view.map.chart.moves_drawn().length > 0);
  const ten = await mapMoves(page);
  assert.ok(ten.arrows.length >= 1 && ten.arrows.length <= 10, `${ten.arrows.length} arrows`);
  assert.ok(ten.arrows.every((a) => a.tipOnPoint), 'each arrow ends at its word');
  assert.ok(ten.arrows.every((a) => a.length > 1 && a.length <= 56.01), `short arrows: ${ten.arrows.map((a) => a.length.toFixed(1))}`);
  assert.ok(ten.arrows.some((a) => a.length > 8), 'a visible one');
  // Drawn as they are when they are large enough to see (the sample's high learning rate),
  // else larger by a round factor.
  const [, scale] = ten.caption.match(/^Arrows \(?(to scale|×[125](?:,?0)*)\)?: context words moved by the last 10 updates$/) ?? [];
  assert.ok(scale, ten.caption);
  assert.ok(ten.legend.includes(`input row moved by the step mode, drawn ${scale}`), ten.legend);
  await button(page, 'Step ×100').click();
  await page.waitForFunction(() => document.getElementById('step-count').textContent.startsWith('100 updates'));
  const hundred = await shown(page);
  assert.ok(hundred.tokensDone > one.tokensDone, `a hundred updates walk on: ${one.tokensDone} → ${hundred.tokensDone}`);
  assert.match(await page.locator('#progress-text').textContent(), /^Paused\./);
  await page.locator('#step-panel').screenshot({ path: join(RESULTS, 'step-mode.png') });
  await page.waitForFunction(() => /the last 100 updates/.test(window.explorer.view.map.scene?.options.caption ?? ''));
  const moved = await mapMoves(page);
  assert.ok(moved.arrows.length > ten.arrows.length, `a hundred updates move more words: ${moved.arrows.length}`);
  await page.setViewportSize({ width: 1400, height: 900 });
  await mapCanvas(page).scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.explorer.view.map.chart.moves_drawn().length > 0);
  await page.screenshot({ path: join(RESULTS, 'step-mode-map.png') });

  await button(page, 'Resume at full speed').click();
  await page.waitForFunction(() => !document.getElementById('progress-text').textContent.startsWith('Paused.'));
  assert.ok(await button(page, 'Step').isDisabled(), 'no step once training runs again');
  await page.waitForFunction(() => window.explorer.view.map.chart.moves_drawn().length === 0);
  const resumed = await mapMoves(page);
  assert.equal(resumed.caption, null);
  assert.doesNotMatch(resumed.legend, /moved by the step mode/);
  await waitUntilDone(page, 120_000);
  const losses = JSON.parse(await page.locator('#loss-chart').getAttribute('data-epoch-losses'));
  assert.equal(losses.length, 40);
  assert.deepEqual(problems, []);
  await page.close();
});

test('CBOW: a step is a window, its context words all inputs, and training resumes to the end', async () => {
  const { page, problems } = await suite.openExplorer();
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await combobox(page, 'Model').selectOption('cbow');
  await field(page, 'Epochs').fill('40');
  await page.getByText('One update at a time', { exact: true }).click();
  await button(page, 'Train').click();
  await page.waitForFunction(() => (window.explorer.progress?.tokensDone ?? 0) > 0);
  await button(page, 'Pause').click();
  await page.waitForFunction(() => document.getElementById('progress-text').textContent.startsWith('Paused.'));
  assert.ok(!(await button(page, 'Step').isDisabled()), 'CBOW is stepped too');
  assert.equal(await page.locator('#step-why').textContent(), '');

  await button(page, 'Step ×10').click();
  await page.waitForFunction(() => document.getElementById('step-count').textContent.startsWith('10 updates'));
  // A window near a sentence's end, or thinned by subsampling, may hold one context word:
  // step on until one holds several (the sample's windows mostly do).
  let update = await shown(page);
  for (let i = 0; i < 30 && update.context.length < 2; i++) {
    // The count line is written with each update shown: blanked, it says when the next is.
    await page.evaluate(() => { document.getElementById('step-count').textContent = ''; });
    await button(page, 'Step').click();
    await page.waitForFunction(() => document.getElementById('step-count').textContent === 'One update; the last one:');
    update = await shown(page);
  }
  assert.ok(update.context.length >= 2, `a window with several context words: ${JSON.stringify(update)}`);
  assert.equal(update.centre.length, 1);
  assert.ok(update.context.every((c) => c.inWindow), 'the context words lie in the window');
  // Every word the window kept, but the centre, is an input.
  assert.deepEqual(update.context.map((c) => c.word), update.keptAround);
  assert.match(update.pair, new RegExp(`the mean of the ${update.context.length} context words .* \\(CBOW\\) predicts the centre word “${update.centre[0].word}”, against \\d noise words`));
  assert.match(update.caption, /context words' mean h/);
  assert.match(update.loss, /^Loss of the window /);
  // The centre word scored as the text's word, then the noise words: probabilities and shares.
  assert.ok(update.rows.length >= 2 && update.rows.length <= 6, `${update.rows.length} rows`);
  assert.deepEqual(update.rows[0].slice(0, 2), [update.centre[0].word, 'text']);
  assert.ok(update.rows.slice(1).every((row) => row[1] === 'noise'));
  for (const row of update.rows) {
    for (const cell of [row[2], row[3]]) assert.ok(Number(cell) > 0 && Number(cell) < 1, `score ${cell}`);
  }
  const shares = update.rows.reduce((sum, row) => sum + Number.parseFloat(row[4]), 0);
  assert.ok(Math.abs(shares - 100) <= update.rows.length, `shares add up to ${shares} %`);
  // Every context word's input row moved, and the centre's output row.
  for (const { word } of update.context) assert.ok(update.moved.includes(`“${word}”`), `${word} in ${update.moved}`);
  assert.match(update.moved, new RegExp(`in the input matrix, each by the whole gradient of the mean; “${update.centre[0].word}”`));
  await page.locator('#step-panel').screenshot({ path: join(RESULTS, 'step-mode-cbow.png') });

  await button(page, 'Resume at full speed').click();
  await page.waitForFunction(() => !document.getElementById('progress-text').textContent.startsWith('Paused.'));
  await waitUntilDone(page, 120_000);
  const losses = JSON.parse(await page.locator('#loss-chart').getAttribute('data-epoch-losses'));
  assert.equal(losses.length, 40);
  assert.deepEqual(problems, []);
  await page.close();
});
