// The map's labels by zoom, its density layer and its cluster names in Chromium: labels
// never drawn over one another, more words labelled as the view zooms in, the selected and
// found words always labelled; the Density box shading where the words crowd (estimated in
// the worker) and the SVG export holding it; k-means clusters named by their most frequent
// words while the map is seen whole. Screenshots go to test-results/map-layers-*.png.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { button, combobox, explorerSuite, legendClusters, mapCanvas, RESULTS, settleMap as settle, trainSampleOnMap as trainSample } from './helpers.js';

const suite = explorerSuite({ before, after });

// Which words carry a label and where their boxes are drawn are pixels to a person; the
// test asks the map's Chart for them through `window.explorer` (the dev server's handle).

/** The labelled words and their boxes `[left, top, right, bottom]` (CSS pixels), then the cluster names' boxes. */
const labels = (page) => page.evaluate(() => {
  const { map } = window.explorer.view;
  const words = Array.from(map.chart.labelled_points()).map((i) => map.scene.words[i]);
  const flat = Array.from(map.chart.label_boxes());
  const boxes = [];
  for (let i = 0; i + 4 <= flat.length; i += 4) boxes.push(flat.slice(i, i + 4));
  return { words, boxes };
});

/** The first pair of boxes that overlap (more than an edge), or null. */
function overlapping(boxes) {
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      const [a, b] = [boxes[i], boxes[j]];
      if (a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]) return [a, b];
    }
  }
  return null;
}

const clusterNames = (page) => page.evaluate(() => Array.from(window.explorer.view.map.chart.cluster_names_drawn()));

test('labels by zoom: never one over another, more words as the view zooms in, the selected and found words always', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await trainSample(page);
  await mapCanvas(page).scrollIntoViewIfNeeded();
  const whole = await labels(page);
  assert.ok(whole.words.length > 10, `the map seen whole labels words: ${whole.words.length}`);
  assert.equal(whole.boxes.length, whole.words.length);
  assert.equal(overlapping(whole.boxes), null, 'no label over another');
  // The most frequent words are labelled first: the most frequent visible word has a label.
  const first = await page.evaluate(() => {
    const { map } = window.explorer.view;
    const i = map.scene.words.findIndex((_, k) => map.chart.point_position(k) != null);
    return map.scene.words[i];
  });
  assert.ok(whole.words.includes(first), `"${first}" is labelled`);

  // Zoom in where a word went unlabelled for want of room: the wheel zooms about the cursor.
  // (Zooming about the map's centre can land on a few frequent words, all labelled already.)
  const crowded = await page.evaluate((labelled) => {
    const { map } = window.explorer.view;
    const box = map.canvas.getBoundingClientRect();
    const i = map.scene.words.findIndex((word, k) => map.chart.point_position(k) != null && !labelled.includes(word));
    const [x, y] = map.chart.point_position(i);
    return { word: map.scene.words[i], x: box.left + x, y: box.top + y };
  }, whole.words);
  await page.mouse.move(crowded.x, crowded.y);
  for (let i = 0; i < 3; i += 1) await page.mouse.wheel(0, -250);
  await settle(page);
  const zoomed = await labels(page);
  assert.equal(overlapping(zoomed.boxes), null, 'no label over another, zoomed in');
  const more = zoomed.words.filter((w) => !whole.words.includes(w));
  assert.ok(more.length > 0, `zooming in on "${crowded.word}" labels words that had no room: ${zoomed.words}`);
  await button(page, 'Reset view').click();
  await settle(page);

  // A search's matches (a few: each stands out) and a selected word are labelled, whatever
  // the crowd around them, and still over no other label.
  const find = page.getByRole('searchbox', { name: 'Find on the map' });
  await find.fill('o');
  await settle(page);
  const matches = await page.evaluate(() => window.explorer.mapModel.matchedWords());
  assert.ok(matches.length > 0, 'the search finds words');
  const found = await labels(page);
  if (matches.length <= 30) {
    assert.deepEqual(matches.filter((w) => !found.words.includes(w)), [], 'every match is labelled');
  }
  assert.equal(overlapping(found.boxes), null, 'no label over another with the matches');
  await find.fill('');

  const word = found.words.at(-1);
  await page.getByRole('combobox', { name: 'Word', exact: true }).fill(word);
  await page.getByRole('combobox', { name: 'Word', exact: true }).press('Enter');
  await page.waitForFunction((w) => window.explorer.mapModel.answers.selected === w, word);
  await settle(page);
  const selected = await labels(page);
  assert.ok(selected.words.includes(word), `the selected "${word}" is labelled`);
  assert.equal(overlapping(selected.boxes), null, 'no label over another with the selection and its neighbours');
  await page.locator('.plot-card').screenshot({ path: join(RESULTS, 'map-layers-labels.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('density: the box shades where the words crowd, estimated again for a new view; the SVG holds it; cluster names while zoomed out', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await trainSample(page);
  await mapCanvas(page).scrollIntoViewIfNeeded();
  const density = page.getByRole('checkbox', { name: 'Density' });
  const layers = () => page.evaluate(() => window.explorer.mapModel.density.drawn);
  const levels = () => page.evaluate(() => Array.from(window.explorer.view.map.chart.density_levels()));
  assert.deepEqual(await levels(), [], 'no layer before the box is ticked');
  const plain = await mapCanvas(page).screenshot();

  await density.check();
  await page.waitForFunction(() => window.explorer.mapModel.density.drawn >= 1);
  await settle(page);
  const shown = await levels();
  assert.ok(shown.length >= 2 && shown.every((v, i) => i === 0 || v > shown[i - 1]), `contour levels, ascending: ${shown}`);
  assert.notDeepEqual(await mapCanvas(page).screenshot(), plain, 'the canvas shows the layer');
  await page.locator('.plot-card').screenshot({ path: join(RESULTS, 'map-layers-density.png') });

  // The export draws it over the dots and under the labels: a path a level, then the contour lines.
  const [file] = await Promise.all([page.waitForEvent('download'), button(page, 'plot.svg').click()]);
  const svg = (await readFile(await file.path())).toString('utf8');
  const layer = svg.indexOf('<g class="density">');
  assert.ok(layer > 0, 'the SVG holds the density layer');
  assert.ok(layer > svg.indexOf('<circle'), 'over the dots');
  assert.ok(layer < svg.lastIndexOf('<text'), 'under the labels');
  assert.ok(svg.match(/<g class="density">(<path [^>]*\/>)+<\/g>/), 'its regions and lines as paths');

  // A new view is estimated anew once it rests.
  await mapCanvas(page).scrollIntoViewIfNeeded();
  const before = await layers();
  for (let i = 0; i < 2; i += 1) await button(page, 'Zoom in').click();
  await page.waitForFunction((n) => window.explorer.mapModel.density.drawn > n, before);
  await button(page, 'Reset view').click();
  await settle(page);

  await density.uncheck();
  await settle(page);
  assert.deepEqual(await levels(), [], 'the layer goes with the box');

  // Coloured by clusters, each is named by its most frequent words at its densest spot,
  // with the density layer or without; zoomed in, the words' own labels take over.
  await combobox(page, 'Colour').selectOption('clusters');
  await legendClusters(page, 8);
  await page.waitForFunction(() => window.explorer.view.map.chart.cluster_names_drawn().length > 0);
  const names = await clusterNames(page);
  const words = new Set(await page.evaluate(() => window.explorer.mapModel.scene.words));
  for (const name of names) {
    const parts = name.split(' · ');
    assert.ok(parts.length >= 1 && parts.length <= 3 && parts.every((w) => words.has(w)), `"${name}" names words of the map`);
  }
  assert.equal(overlapping((await labels(page)).boxes), null, 'names and labels over none another');
  const drawnBefore = await layers();
  await density.check();
  await page.waitForFunction((n) => window.explorer.mapModel.density.drawn > n, drawnBefore);
  await settle(page);
  assert.ok((await clusterNames(page)).length > 0, 'names over the density layer too');
  await page.locator('.plot-card').screenshot({ path: join(RESULTS, 'map-layers-names.png') });
  for (let i = 0; i < 4; i += 1) await button(page, 'Zoom in').click();
  await settle(page);
  assert.deepEqual(await clusterNames(page), [], 'no names zoomed in');
  await button(page, 'Reset view').click();
  await settle(page);
  assert.ok((await clusterNames(page)).length > 0, 'the names are back, zoomed out');
  assert.deepEqual(problems, []);
  await page.close();
});
