// Words the map does not show, in Chromium: a selected word's neighbours outside a UMAP
// map's words stay off it (the page says how many, and lays them out on request), a trail
// joins only the frames of the map shown, and Find on the map names a vocabulary word that
// is not among the words shown (and shows it on request). Screenshots go to
// test-results/offmap-*.png.
//
// Run with `node --test tests/browser/map-offmap.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { button, combobox, explorerSuite, field, mapCanvas, RESULTS, settleMap, trainSampleOnMap, waitUntilDone } from './helpers.js';

const suite = explorerSuite({ before, after });

const wordsShown = (page) => page.getByRole('spinbutton', { name: 'Words shown' });

/** Sets the Words shown field to `n`, as a person types it. */
async function showWords(page, n) {
  await wordsShown(page).fill(String(n));
  await wordsShown(page).press('Enter');
}

/** Selects `word` through the Neighbours card, as a person does. */
async function selectWord(page, word) {
  await combobox(page, 'Word').fill(word);
  await button(page, 'Find').click();
  await page.getByText(`Nearest to “${word}”`).waitFor();
}

/** Chooses `method` ('tsne' or 'umap') and waits until its layout is done. */
async function layOut(page, method) {
  await combobox(page, 'Projection').selectOption(method);
  const name = { tsne: 't-SNE', umap: 'UMAP' }[method];
  await page.locator('#layout-progress').filter({ hasText: new RegExp(`^${name}: done after`) }).waitFor({ timeout: 120_000 });
  await settleMap(page);
}

// The map is a canvas: the words drawn on it and the neighbours' frequency ranks are read from
// the page's own objects (`window.explorer`, the dev server's handle); the rest goes through
// the controls and the text around the map.

/** The words the map draws, the words its layout placed (the frame's), and the neighbours with their ranks. */
const mapState = (page) => page.evaluate(() => {
  const { mapModel } = window.explorer;
  return {
    drawn: mapModel.scene.words,
    laidOut: mapModel.frame.words.length,
    neighbours: mapModel.answers.neighbours.map(({ word, rank }) => ({ word, rank })),
  };
});

test('UMAP: neighbours outside the words laid out stay off the map, the page says how many, and a button lays them out', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  // 60 words shown: "king" (the 49th) is among them, several of its neighbours are not.
  await showWords(page, 60);
  await trainSampleOnMap(page, { epochs: 3 });
  // UMAP (15 neighbours a word) lays out 60 words; t-SNE's perplexity 30 asks for more.
  await layOut(page, 'umap');
  await selectWord(page, 'king');
  await page.waitForTimeout(500);
  await settleMap(page);
  const before = await mapState(page);
  assert.equal(before.laidOut, 60);
  const outside = before.neighbours.filter((n) => n.rank >= 60);
  assert.ok(outside.length > 0, `some of king's neighbours are not among the 60 words: ${JSON.stringify(before.neighbours)}`);
  const drawnOutside = outside.filter((n) => before.drawn.includes(n.word));
  assert.deepEqual(drawnOutside, [], 'no neighbour outside the layout is drawn (it would sit on another word’s point)');

  const note = page.getByRole('status', { name: 'Neighbours not on the map' });
  await note.waitFor();
  assert.equal(await note.locator('span').textContent(),
    `${outside.length} of the ${before.neighbours.length} neighbours of “king” are not among the 60 words laid out by UMAP.`);
  await note.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(RESULTS, 'offmap-neighbours.png') });
  const needed = Math.max(...outside.map((n) => n.rank)) + 1;
  await note.getByRole('button', { name: `Show the ${needed} most frequent words` }).click();
  assert.equal(await wordsShown(page).inputValue(), String(needed));
  await page.locator('#layout-progress').filter({ hasText: /^UMAP: done after/ }).waitFor({ timeout: 120_000 });
  await settleMap(page);
  const after = await mapState(page);
  assert.equal(after.laidOut, needed);
  for (const { word } of outside) {
    const at = after.drawn.indexOf(word);
    assert.ok(at >= 0 && at < after.laidOut, `${word} is laid out by UMAP now`);
  }
  await note.waitFor({ state: 'hidden' });

  // Principal components place every word: the neighbours come back as placed words, and nothing is said.
  await combobox(page, 'Projection').selectOption('pca');
  await showWords(page, 60);
  await page.waitForFunction(() => window.explorer.mapModel.frame.method == null && window.explorer.mapModel.frame.words.length === 60);
  await page.waitForFunction(() => window.explorer.mapModel.frame.extraWords.length > 0);
  const pca = await mapState(page);
  for (const { word } of outside) assert.ok(pca.drawn.includes(word), `${word} is placed on principal components`);
  assert.equal(await note.isVisible(), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a trail joins only the frames of the map shown: none from the PCA start of a t-SNE map, and live ones while it follows training', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await trainSampleOnMap(page, { epochs: 3 });
  await selectWord(page, 'king');
  await settleMap(page);
  const trails = () => page.evaluate(() => window.explorer.mapModel.scene.options.trails);
  const pca = await trails();
  assert.ok(pca.length === 1 && pca[0].length >= 4, `a trail over the PCA frames of the training: ${JSON.stringify(pca)}`);

  // A t-SNE map of vectors that no longer move: its frames show the layout finding its
  // shape from where PCA put the words, not a path the word travelled.
  await layOut(page, 'tsne');
  assert.deepEqual(await trails(), [], 'no trail from the layout’s start across the map');
  await mapCanvas(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(RESULTS, 'offmap-trail-tsne.png') });

  // Trained again with the t-SNE map on, the map warm-starts from where it stands as the
  // vectors move: a trail joins those frames, each one of this map, none of its cold start.
  await field(page, 'Epochs').fill('6');
  await button(page, 'Train again').click();
  await page.waitForFunction(() => !document.getElementById('progress-text').textContent.startsWith('Done.'));
  await waitUntilDone(page);
  await page.locator('#layout-progress').filter({ hasText: /^t-SNE: done after/ }).waitFor({ timeout: 120_000 });
  // The answers of the model before went with it: king is asked of this one.
  await selectWord(page, 'king');
  await settleMap(page);
  const check = await page.evaluate(() => {
    const { timeline, mapModel } = window.explorer;
    const shown = timeline.shown();
    const w = shown.words.indexOf('king');
    // Where king was in each frame of this t-SNE map that followed the vectors (not its cold start).
    const moving = timeline.store.all()
      .filter((f) => f.mapSpec.method === 'tsne' && f.layoutProgress?.warm)
      .map((f) => `${f.coords[2 * w]},${f.coords[2 * w + 1]}`);
    const trail = mapModel.scene.options.trails[0] ?? [];
    const points = [];
    for (let i = 0; i < trail.length; i += 2) points.push(`${trail[i]},${trail[i + 1]}`);
    return { points, moving, last: `${shown.coords[2 * w]},${shown.coords[2 * w + 1]}` };
  });
  assert.ok(check.moving.length >= 2, `the t-SNE map warm-started as the vectors moved: ${check.moving.length} frames`);
  assert.ok(check.points.length >= 2, `a trail while the map followed training: ${check.points.length} points`);
  assert.equal(check.points.at(-1), check.last, 'the trail ends at the frame shown');
  for (const point of check.points.slice(0, -1)) assert.ok(check.moving.includes(point), `trail point ${point} is king in a frame that followed the vectors`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('find on the map: a vocabulary word not among the words shown is named with its rank, and a button shows it', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await showWords(page, 60);
  await trainSampleOnMap(page, { epochs: 2 });
  const rank = await page.evaluate(async () => {
    const reply = await window.explorer.worker.request('neighbours', { word: 'king', k: 100 });
    return reply.neighbours.find((n) => n.word === 'queen').rank;
  });
  assert.ok(rank >= 60, `queen (rank ${rank}) is not among the 60 words shown`);
  await page.getByRole('searchbox', { name: 'Find on the map' }).fill('queen');
  await page.locator('#map-find-count').filter({ hasText: /^0 matches$/ }).waitFor();
  const elsewhere = page.getByRole('status', { name: 'Matches beyond the words shown' });
  await elsewhere.waitFor();
  const ordinal = new Intl.PluralRules('en', { type: 'ordinal' }).select(rank + 1);
  const suffix = { one: 'st', two: 'nd', few: 'rd', other: 'th' }[ordinal];
  assert.equal(await elsewhere.locator('span').textContent(),
    `“queen” is not among the 60 words shown: it is the ${rank + 1}${suffix} most frequent word.`);
  await elsewhere.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(RESULTS, 'offmap-find.png') });
  await elsewhere.getByRole('button', { name: `Show the ${rank + 1} most frequent words` }).click();
  await page.locator('#map-find-count').filter({ hasText: /^1 match$/ }).waitFor();
  assert.equal(await wordsShown(page).inputValue(), String(rank + 1));
  await elsewhere.waitFor({ state: 'hidden' });

  // A text no word of the vocabulary holds is said to be nowhere.
  await page.getByRole('searchbox', { name: 'Find on the map' }).fill('qxz');
  await page.locator('#map-find-count').filter({ hasText: /^0 matches$/ }).waitFor();
  await elsewhere.filter({ hasText: 'No word of the vocabulary holds “qxz”.' }).waitFor();
  assert.equal(await elsewhere.getByRole('button').isVisible(), false);
  assert.deepEqual(problems, []);
  await page.close();
});
