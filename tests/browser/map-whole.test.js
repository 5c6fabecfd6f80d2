// A whole vocabulary on the map, in Chromium without a GPU: 250,000 generated vectors opened
// as a word2vec text file, every word shown, then the wheel zooms, a word is hovered and
// clicked, a region is selected, the map exported and matches isolated, as a person does. Functional only: the timings are
// scripts/bench-map.mjs's. A screenshot goes to test-results/map-whole.png.
//
// Run with `node --test tests/browser/map-whole.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { button, clusteredVectorsText, explorerSuite, mapCanvas, RESULTS, settleMap, stat } from './helpers.js';

const suite = explorerSuite({ before, after });

const WORDS = 250_000;
const DIMENSIONS = 8;

// Where a point is drawn and which words lie in a rectangle are pixels to a person: they are
// read from the map's own objects through `window.explorer` (the dev server's handle).

/** A drawn word well inside the plotting area, and its position in page coordinates. */
async function wordInView(page) {
  const box = await mapCanvas(page).boundingBox();
  const found = await page.evaluate(() => {
    const { map } = window.explorer.view;
    const [left, top, right, bottom] = map.chart.plot_frame();
    // The first (most frequent) word drawn away from the edges and from its neighbours, so
    // the pointer on it finds it and no other.
    const positions = [];
    for (let i = 0; i < map.scene.words.length; i += 1) {
      const p = map.chart.point_position(i);
      if (p) positions.push([i, p[0], p[1]]);
    }
    const alone = ([i, x, y]) => positions.every(([j, u, v]) => j === i || Math.hypot(u - x, v - y) > 3);
    const inside = ([, x, y]) => x > left + 40 && x < right - 40 && y > top + 40 && y < bottom - 40;
    const hit = positions.slice(0, 2000).find((p) => inside(p) && alone(p));
    return hit && { word: map.scene.words[hit[0]], x: hit[1], y: hit[2], drawn: positions.length };
  });
  assert.ok(found, 'some word is drawn inside the view, clear of the others');
  return { ...found, x: box.x + found.x, y: box.y + found.y };
}

/** How many words are drawn inside the rectangle between page positions (x0, y0) and (x1, y1). */
async function wordsInside(page, [x0, y0, x1, y1]) {
  const box = await mapCanvas(page).boundingBox();
  return page.evaluate(([l, t, r, b]) => {
    const { map } = window.explorer.view;
    let count = 0;
    for (let i = 0; i < map.scene.words.length; i += 1) {
      const p = map.chart.point_position(i);
      if (p && p[0] >= l && p[0] <= r && p[1] >= t && p[1] <= b) count += 1;
    }
    return count;
  }, [x0 - box.x, y0 - box.y, x1 - box.x, y1 - box.y]);
}

test('250,000 words: all shown, zoomed with the wheel, a word hovered and clicked, a region selected', { timeout: 300_000 }, async () => {
  const path = join(RESULTS, 'whole-vocabulary.txt');
  await writeFile(path, clusteredVectorsText(WORDS, DIMENSIONS));
  const { page, problems } = await suite.openExplorer();
  try {
    await page.getByLabel('Open a file…').setInputFiles(path);
    await stat(page, 'Vocabulary').filter({ hasText: '250,000' }).waitFor({ timeout: 120_000 });
    const wordsShown = page.getByRole('spinbutton', { name: 'Words shown' });
    assert.equal(await wordsShown.getAttribute('max'), '1000000', 'the field offers a whole vocabulary');
    await wordsShown.fill(String(WORDS));
    await wordsShown.press('Enter');
    const drawn = page.locator('#map-drawn');
    await drawn.filter({ hasText: 'Drawn on the CPU: 250,000 points' }).waitFor({ timeout: 120_000 });
    await settleMap(page);
    await mapCanvas(page).scrollIntoViewIfNeeded();

    // The wheel zooms in about the middle of the map: fewer words in view, all still on the map.
    const box = await mapCanvas(page).boundingBox();
    const span = async () => {
      const [x0, x1] = (await mapCanvas(page).getAttribute('data-range')).split(',').map(Number);
      return x1 - x0;
    };
    const home = await span();
    const drawnInView = () => page.evaluate(() => {
      const { map } = window.explorer.view;
      return map.scene.words.filter((_, i) => map.chart.point_position(i) != null).length;
    });
    assert.equal(await drawnInView(), WORDS, 'every word is drawn in the fitted view');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 6; i += 1) await page.mouse.wheel(0, -250);
    await settleMap(page);
    assert.ok(await span() < home / 4, `zoomed in: span ${await span()} of ${home}`);
    const target = await wordInView(page);
    assert.ok(target.drawn < WORDS, `fewer words in view once zoomed: ${target.drawn}`);
    assert.equal(await drawn.textContent(), 'Drawn on the CPU: 250,000 points', 'the map still holds them all');

    // Hovering a word names it; clicking it selects it (the Neighbours card answers for it).
    await page.mouse.move(target.x, target.y);
    await page.locator('#tooltip').filter({ hasText: target.word }).waitFor();
    assert.equal(await page.locator('#tooltip').textContent(), target.word);
    await page.mouse.click(target.x, target.y);
    await page.getByText(`Nearest to “${target.word}”`).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('#search').inputValue(), target.word);

    // Select region: a drag selects every word drawn inside the rectangle.
    await button(page, 'Select region').click();
    await mapCanvas(page).scrollIntoViewIfNeeded();
    const area = await mapCanvas(page).boundingBox();
    const rect = [area.x + area.width * 0.4, area.y + area.height * 0.4, area.x + area.width * 0.55, area.y + area.height * 0.55];
    const inside = await wordsInside(page, rect);
    assert.ok(inside > 1, `the rectangle covers words: ${inside}`);
    await page.mouse.move(rect[0], rect[1]);
    await page.mouse.down();
    await page.mouse.move(rect[2], rect[3], { steps: 6 });
    await page.mouse.up();
    await page.getByRole('heading', { name: `Selection: ${inside} words` }).waitFor({ timeout: 60_000 });
    await page.locator('.plot-card').screenshot({ path: join(RESULTS, 'map-whole.png') });

    // The exports of the map: the coordinates of all 250,000 words, the picture of the view.
    const inView = await drawnInView();
    const download = async (name) => {
      const [file] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), button(page, name).click()]);
      assert.equal(file.suggestedFilename(), name);
      return readFile(await file.path(), 'utf8');
    };
    const csv = (await download('projection.csv')).trimEnd().split('\n');
    assert.equal(csv.length, WORDS + 1, 'a header and a row a word');
    const svg = await download('plot.svg');
    assert.ok(svg.trimEnd().endsWith('</svg>'), 'the SVG is whole');
    const circles = svg.match(/<circle /g)?.length ?? 0;
    assert.ok(circles >= inView && inView > 100, `the SVG draws the ${inView} dots in view: ${circles} circles`);

    // Find counts its matches among all 250,000, and isolates them all, not the first 10,000.
    const matching = Array.from({ length: WORDS }, (_, i) => `v${i.toString(36)}`).filter((w) => w.includes('a')).length;
    assert.ok(matching > 10_000, `${matching} words hold an a`);
    await page.getByRole('searchbox', { name: 'Find on the map' }).fill('a');
    await page.locator('#map-find-count', { hasText: `${matching.toLocaleString('en')} matches` }).waitFor({ timeout: 60_000 });
    await button(page, 'Isolate matches').click();
    await drawn.filter({ hasText: `Drawn on the CPU: ${matching.toLocaleString('en')} points` }).waitFor({ timeout: 120_000 });
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
    await rm(path, { force: true });
  }
});
