// The map with few words, in Chromium, as QA found it: isolating fewer words than the
// k-means clusters (the view was refused), two isolated words (a vertical axis of float noise
// with every tick "0"), t-SNE asked for with too few words or beside isolated words (the menu
// said t-SNE over a PCA map), and the search on the map with spaces at its ends (a regular
// expression lost them, so ` $` matched every word). Screenshots go to test-results/map-few-*.png.
//
// Run with `node --test tests/browser/map-few.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { button, combobox, explorerSuite, legendClusters, mapCanvas, RESULTS, settleMap as settle, trainSampleOnMap } from './helpers.js';

/** The sample trained to the end (5 epochs: enough for its people), the map settled. */
const trainSample = (page) => trainSampleOnMap(page, { epochs: 5 });

const suite = explorerSuite({ before, after });

/** Finds `query` on the map and isolates the matches; waits for the `n` words. */
async function isolateMatches(page, query, n) {
  await page.getByRole('searchbox', { name: 'Find on the map' }).fill(query);
  await button(page, 'Isolate matches').click();
  await page.getByText(`The projection is fitted on ${n} isolated words only.`).waitFor();
  await pointsDrawn(page, n);
  await settle(page);
}

/**
 * Waits until the map draws `n` words. The points are pixels on the canvas, which a person
 * cannot count, so this reads the map's scene.
 */
const pointsDrawn = (page, n) => page.waitForFunction((count) => window.explorer.mapModel.frame?.words.length === count
  && window.explorer.mapModel.scene?.words.length === count, n);

/**
 * Waits until the map draws a frame made by `method` ('pca', 'tsne'): the canvas names it only
 * in the axis labels it paints, so this reads the map's frame.
 */
const methodDrawn = (page, method) => page.waitForFunction((m) => (window.explorer.mapModel.frame?.method ?? 'pca') === m, method, { timeout: 60_000 });

/**
 * What the map card shows: the Projection menu, the line under the map, the clusters in the
 * legend; and what the canvas paints (read from the map's model, as pixels are all a person
 * gets): the method of the frame drawn and its horizontal axis label.
 */
async function mapState(page) {
  const legendEntries = await legend(page);
  const clusters = legendEntries.filter((entry) => /^cluster \d+: /.test(entry)).length;
  const drawn = await page.evaluate(() => {
    const model = window.explorer.mapModel;
    return { method: model.frame.method ?? 'pca', xLabel: model.scene.options.xLabel };
  });
  return {
    clusters: clusters || null,
    menu: await combobox(page, 'Projection').inputValue(),
    message: await page.locator('#axes-message').textContent(),
    ...drawn,
  };
}

const legend = (page) => page.getByRole('list', { name: 'Colours' }).getByRole('listitem').allTextContents();

/** Waits until the legend lists exactly `n` clusters, and the map model has as many. */
const legendOf = (page, n) => legendClusters(page, n).then(async () => assert.equal((await mapState(page)).clusters, n));

/** Sets Words shown to `n`, as a person types it and presses Enter. */
async function wordsShown(page, n) {
  const words = page.getByRole('spinbutton', { name: 'Words shown' });
  await words.fill(String(n));
  await words.press('Enter');
}

test('fewer words than k clusters: k is capped at the words shown, and the legend says so', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await trainSample(page);
  await combobox(page, 'Colour').selectOption('clusters');
  await legendOf(page, 8);

  // Two words, k = 8: each word its own cluster (QA: "Invalid clusters = 8: expected at most
  // the number of words shown, 2", and nothing isolated).
  await isolateMatches(page, 'prince', 2);
  let state = await mapState(page);
  assert.equal(state.clusters, 2, 'two clusters of one word');
  assert.equal(state.message, '');
  assert.deepEqual(await legend(page), ['cluster 1: 1 word', 'cluster 2: 1 word', 'k = 8 is capped at the 2 words shown.']);
  await page.locator('.plot-card').screenshot({ path: join(RESULTS, 'map-few-clusters.png') });
  await page.getByRole('searchbox', { name: 'Find on the map' }).fill('');
  await button(page, 'Show all words').click();
  await page.locator('#map-isolated').waitFor({ state: 'hidden' });

  // An analogy's four words, the same way.
  await combobox(page, 'A').fill('king');
  await combobox(page, 'B').fill('queen');
  await combobox(page, 'C').fill('man');
  await button(page, 'Solve').click();
  await button(page, 'Show these four words on the map').click();
  await page.getByText('The projection is fitted on 4 isolated words only.').waitFor();
  await pointsDrawn(page, 4);
  assert.equal((await mapState(page)).clusters, 4);
  await button(page, 'Show all words').click();
  await page.locator('#map-isolated').waitFor({ state: 'hidden' });

  // Words shown 10 with k = 20: ten clusters.
  const k = page.getByRole('region', { name: 'Map of the vectors' }).getByRole('spinbutton', { name: 'k' });
  await k.fill('20');
  await k.dispatchEvent('change');
  await legendOf(page, 20);
  await wordsShown(page, 10);
  await pointsDrawn(page, 10);
  state = await mapState(page);
  assert.equal(state.clusters, 10);
  assert.equal(state.message, '');
  assert.equal((await legend(page)).at(-1), 'k = 20 is capped at the 10 words shown.');
  assert.deepEqual(problems, []);
  await page.close();
});

test('two isolated words: the flat axis gets the other axis\'s scale, and its ticks mean something', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await trainSample(page);
  await mapCanvas(page).scrollIntoViewIfNeeded();
  await isolateMatches(page, 'prince', 2);
  // Two words span one dimension: PC2 is float noise (QA: y from −4e−9 to 9e−8).
  const [x0, x1, y0, y1] = (await mapCanvas(page).getAttribute('data-range')).split(',').map(Number);
  // The words' coordinates and where the chart draws them, which the canvas shows only as pixels.
  const spread = await page.evaluate(() => {
    const { coords } = window.explorer.mapModel.scene;
    return { x: Math.abs(coords[2] - coords[0]), y: Math.abs(coords[3] - coords[1]) };
  });
  assert.ok(spread.y < 1e-4 * spread.x, `PC2 of two words is nil: ${JSON.stringify(spread)}`);
  assert.ok(Math.abs((y1 - y0) - (x1 - x0)) < 1e-6 * (x1 - x0), `y spans as much as x: ${[x0, x1, y0, y1]}`);
  // The two words on one line across the middle, not in opposite corners.
  const drawn = await page.evaluate(() => [0, 1].map((i) => Array.from(window.explorer.view.map.chart.point_position(i))));
  assert.ok(Math.abs(drawn[0][1] - drawn[1][1]) < 1, `the words at one height: ${JSON.stringify(drawn)}`);
  const f = await page.evaluate(() => Array.from(window.explorer.view.map.chart.plot_frame()));
  near(drawn[0][1], (f[1] + f[3]) / 2, 2, 'the words in the middle of the plot');
  await page.locator('.plot-card').screenshot({ path: join(RESULTS, 'map-few-two-words.png') });
  // The SVG's y ticks read differently (QA: "0 | 0 | 0 | 0 | 0").
  const [file] = await Promise.all([page.waitForEvent('download'), button(page, 'plot.svg').click()]);
  const svg = (await readFile(await file.path())).toString('utf8');
  const yTicks = [...svg.matchAll(/text-anchor="end" dominant-baseline="middle"[^>]*>([^<]*)</g)].map((m) => m[1]);
  assert.ok(yTicks.length >= 3 && new Set(yTicks).size === yTicks.length, `distinct y ticks: ${yTicks.join(' | ')}`);
  assert.deepEqual(problems, []);
  await page.close();
});

function near(a, b, tolerance, message) {
  assert.ok(Math.abs(a - b) <= tolerance, `${message}: ${a} vs ${b}`);
}

test('t-SNE refused for too few words, or beside isolated words: the page says what the map shows', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await trainSample(page);
  await wordsShown(page, 10);
  await pointsDrawn(page, 10);
  await combobox(page, 'Projection').selectOption('tsne');
  await page.locator('#axes-message').getByText(/perplexity 30/).waitFor();
  let state = await mapState(page);
  assert.equal(state.menu, 'tsne', 'the menu keeps t-SNE, whose parameters may be changed');
  assert.equal(state.method, 'pca');
  assert.match(state.message, /The map still shows principal components\.$/);
  // More words bring the t-SNE the menu shows (QA: another PCA frame under "t-SNE").
  await wordsShown(page, 300);
  await methodDrawn(page, 'tsne');
  assert.equal((await mapState(page)).message, '');

  // Isolated words go on principal components, and the menu and a line say so.
  await isolateMatches(page, 'prince', 2);
  state = await mapState(page);
  assert.equal(state.method, 'pca');
  assert.equal(state.menu, 'pca');
  assert.match(state.xLabel, /^PC1/);
  assert.equal(state.message, 't-SNE maps the most frequent words only: isolated words are shown on principal components.');
  await page.locator('.plot-card').screenshot({ path: join(RESULTS, 'map-few-tsne-isolated.png') });
  // Show all words brings the t-SNE map back.
  await button(page, 'Show all words').click();
  await methodDrawn(page, 'tsne');
  state = await mapState(page);
  assert.equal(state.menu, 'tsne');
  assert.equal(state.message, '');
  assert.deepEqual(problems, []);
  await page.close();
});

test('find on the map: a regular expression keeps the spaces typed at its ends', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await trainSample(page);
  const find = page.getByRole('searchbox', { name: 'Find on the map' });
  /** Waits until the count beside the box reads `text` (a string or a pattern). */
  const counted = (text) => page.locator('#map-find-count', { hasText: text }).waitFor();
  const firstMatches = page.getByRole('list', { name: 'First matches' }).getByRole('listitem');
  await page.getByRole('checkbox', { name: 'regular expression' }).check();
  // Each step's count differs from the one before, so a count not yet updated cannot pass.
  await find.fill('^the$');
  await counted(/^1 match$/);
  // The sample's words hold no space: ` $` matches none of them (QA: `$`, every word).
  await find.fill(' $');
  await counted(/^0 matches$/);
  await find.fill('^the$');
  await counted(/^1 match$/);
  // `^the ` keeps its space, so it matches nothing (`^the` would match “the”).
  await find.fill('^the ');
  await counted(/^0 matches$/);
  assert.equal(await firstMatches.count(), 0);
  // A substring search drops a stray space at its ends, but not one that is all it holds.
  await page.getByRole('checkbox', { name: 'regular expression' }).uncheck();
  await find.fill(' king ');
  await counted(/^[1-9][\d,]* match/);
  assert.ok((await firstMatches.allTextContents()).some((word) => word.includes('king')), 'king is among the first matches');
  await find.fill(' ');
  await counted(/^0 matches$/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('word axes: the same pair on both axes is refused, and the Axes list shows the word axes in use', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await trainSample(page);
  const axes = combobox(page, 'Axes');
  assert.match(await axes.locator('option:checked').textContent(), /^PC1 \(\d+ %\) \/ PC2/);
  await page.getByText('Axes defined by words').click();
  const axisWord = (axis, end) => page.getByRole('group', { name: axis }).getByRole('combobox', { name: end, exact: true });
  const useAxes = async (x0, x1, y0, y1) => {
    await axisWord('Horizontal', 'from').fill(x0);
    await axisWord('Horizontal', 'to').fill(x1);
    await axisWord('Vertical', 'from').fill(y0);
    await axisWord('Vertical', 'to').fill(y1);
    await button(page, 'Use these axes').click();
  };
  /** Waits until the Axes list shows `text` as the axes in use. */
  const axesShown = (text) => axes.locator('option:checked', { hasText: text }).waitFor({ state: 'attached' });
  await useAxes('man', 'woman', 'man', 'king');
  await axesShown(/^man → woman \/ man → king$/);
  assert.equal(await axes.isDisabled(), true, 'no principal components to choose while both axes are words');
  // The same pair twice drew a diagonal line (QA); refused, and the axes before stay.
  await useAxes('king', 'queen', 'king', 'queen');
  await page.locator('#axes-message').getByText(/king → queen on both axes/).waitFor();
  assert.equal(await axes.locator('option:checked').textContent(), 'man → woman / man → king');
  // The map painted the axes before, not the refused ones (its axis labels are canvas pixels).
  assert.equal(await page.evaluate(() => window.explorer.mapModel.scene.options.yLabel), 'man → king');
  // One word axis beside a component, then principal components again.
  await useAxes('man', 'woman', '', '');
  await axesShown(/^man → woman \/ PC2$/);
  // Words shown go on with the word axis and the component beside it.
  await wordsShown(page, 50);
  await pointsDrawn(page, 50);
  assert.equal(await axes.locator('option:checked').textContent(), 'man → woman / PC2');
  assert.equal(await page.evaluate(() => window.explorer.mapModel.scene.options.xLabel), 'man → woman');
  await button(page, 'Principal components').click();
  await axesShown(/^PC1 \(\d+ %\) \/ PC2/);
  assert.equal(await axes.isDisabled(), false);
  assert.match(await axes.locator('option:checked').textContent(), /^PC1 \(\d+ %\) \/ PC2/);
  assert.deepEqual(problems, []);
  await page.close();
});
