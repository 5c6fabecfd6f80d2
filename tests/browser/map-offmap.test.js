// Words the map does not show, in Chromium: Find on the map names a vocabulary word that
// is not among the words shown (and shows it on request). Screenshots go to
// test-results/offmap-*.png.
//
// Run with `node --test tests/browser/map-offmap.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { explorerSuite, RESULTS, trainSampleOnMap } from './helpers.js';

const suite = explorerSuite({ before, after });

const wordsShown = (page) => page.getByRole('spinbutton', { name: 'Words shown' });

/** Sets the Words shown field to `n`, as a person types it. */
async function showWords(page, n) {
  await wordsShown(page).fill(String(n));
  await wordsShown(page).press('Enter');
}

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
