// A whole vocabulary on the map, in Chromium without a GPU: 250,000 generated vectors opened
// as a word2vec text file, every word shown, then the wheel zooms, a word is hovered and
// clicked, a region is selected, the map exported and matches isolated, as a person does;
// and a generated text of 250,000 words trained with all of them on the map, its frames
// replayed by the timeline with a word's trail. Functional only: the timings are
// scripts/bench-map.mjs's. Screenshots go to test-results/map-whole*.png.
//
// Run with `node --test tests/browser/map-whole.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { button, clusteredVectorsText, combobox, explorerSuite, field, mapCanvas, RESULTS, seededRandom, settleMap, showParameters, stat, waitUntilDone } from './helpers.js';

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
    // The field is wide enough to show its largest value whole.
    for (const value of ['1000000', String(WORDS)]) {
      await wordsShown.fill(value);
      const { scrollWidth, clientWidth } = await wordsShown.evaluate((input) => ({ scrollWidth: input.scrollWidth, clientWidth: input.clientWidth }));
      assert.ok(scrollWidth <= clientWidth, `“${value}” fits the field: ${scrollWidth} px of text in ${clientWidth}`);
    }
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
    // Back to the whole map: it readies a search's layer of dimmed dots while the page is
    // idle, so the first keystroke's redraw starts from it rather than laying 250,000 dots again.
    await button(page, 'Reset view').click();
    await settleMap(page);
    await page.waitForFunction(() => window.explorer.view.map.searchLayerReady, null, { timeout: 30_000 });
    const firstRedraw = await page.evaluate(() => new Promise((resolve) => {
      const { map } = window.explorer.view;
      const input = /** @type {HTMLInputElement} */ (document.getElementById('map-find'));
      const draws = map.draws;
      input.value = 'a';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const check = () => (map.draws > draws ? resolve({ fromLayer: map.chart.drew_from_underlay() }) : requestAnimationFrame(check));
      requestAnimationFrame(check);
    }));
    assert.deepEqual(firstRedraw, { fromLayer: true });
    await page.locator('#map-find-count', { hasText: `${matching.toLocaleString('en')} matches` }).waitFor({ timeout: 60_000 });
    await button(page, 'Isolate matches').click();
    await drawn.filter({ hasText: `Drawn on the CPU: ${matching.toLocaleString('en')} points` }).waitFor({ timeout: 120_000 });
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
    await rm(path, { force: true });
  }
});

/** A word of letters only (the tokenizer keeps it whole): 0 → "qa", 27 → "qbb", … */
function letters(i) {
  let word = '';
  for (let n = i; ; n = Math.floor(n / 26) - 1) {
    word = String.fromCharCode(97 + (n % 26)) + word;
    if (n < 26) break;
  }
  return `q${word}`;
}

/**
 * A text of `n` distinct words, each said `times` times, in sentences of 10 words of one of
 * 100 topics (a word's topic is its number modulo 100), shuffled with a seeded generator.
 */
function topicalText(n, times) {
  const next = seededRandom(7);
  const sentences = [];
  for (let topic = 0; topic < 100; topic += 1) {
    const said = [];
    for (let i = topic; i < n; i += 100) for (let k = 0; k < times; k += 1) said.push(letters(i));
    for (let i = said.length - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [said[i], said[j]] = [said[j], said[i]];
    }
    for (let i = 0; i < said.length; i += 10) sentences.push(said.slice(i, i + 10).join(' '));
  }
  for (let i = sentences.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [sentences[i], sentences[j]] = [sentences[j], sentences[i]];
  }
  return `${sentences.join('.\n')}.\n`;
}

/**
 * Opens the generated text at `path` and gets it ready to train with every one of its `words`
 * words on the map: min count 1, `dim` dimensions, `epochs` epochs.
 */
async function openGeneratedText(page, path, { words, dim, epochs }) {
  await page.getByLabel('Open a file…').setInputFiles(path);
  await showParameters(page);
  await field(page, 'Min count').fill('1');
  await field(page, 'Dimensions').fill(String(dim));
  await field(page, 'Epochs').fill(String(epochs));
  await stat(page, 'Vocabulary').filter({ hasText: words.toLocaleString('en') }).waitFor({ timeout: 120_000 });
  const wordsShown = page.getByRole('spinbutton', { name: 'Words shown' });
  await wordsShown.fill(String(words));
  await wordsShown.press('Enter');
}

test('250,000 words trained: the map follows training, the timeline replays its frames and a trail joins them', { timeout: 600_000 }, async () => {
  const path = join(RESULTS, 'whole-vocabulary-text.txt');
  await writeFile(path, topicalText(WORDS, 3));
  const { page, problems } = await suite.openExplorer();
  try {
    await openGeneratedText(page, path, { words: WORDS, dim: 8, epochs: 3 });
    await button(page, 'Train').click();
    // Frames of every word come while training, not only at its end.
    const drawn = page.locator('#map-drawn');
    await drawn.filter({ hasText: 'Drawn on the CPU: 250,000 points' }).waitFor({ timeout: 120_000 });
    const during = await page.evaluate(() => window.explorer.timeline.store.all().length);
    await waitUntilDone(page, 300_000);
    await settleMap(page);
    const kept = await page.evaluate(() => window.explorer.timeline.store.all().map((f) => ({ tokens: f.tokensDone, words: f.words.length })));
    assert.ok(kept.length >= 4, `frames kept: ${kept.length} (${during} while training)`);
    assert.ok(kept.every((f) => f.words === WORDS), `every frame shows all the words: ${kept.map((f) => f.words)}`);
    assert.ok(kept.every((f, i) => i === 0 || f.tokens >= kept[i - 1].tokens), 'in training order');

    // A word selected leaves a trail through the frames; scrubbed back, the map shows the
    // first frame, every word of it drawn, and the trail ends there.
    const word = letters(4242);
    await combobox(page, 'Word').fill(word);
    await button(page, 'Find').click();
    await page.getByText(`Nearest to “${word}”`).waitFor({ timeout: 60_000 });
    await settleMap(page);
    const trails = () => page.evaluate(() => window.explorer.mapModel.scene.options.trails);
    const trail = await trails();
    assert.equal(trail.length, 1, 'one trail, the selected word’s');
    assert.ok(trail[0].length >= 2 * Math.min(kept.length - 1, 5), `a trail of ${trail[0].length / 2} points over ${kept.length} frames`);
    await mapCanvas(page).scrollIntoViewIfNeeded();
    await page.locator('.plot-card').screenshot({ path: join(RESULTS, 'map-whole-trail.png') });
    const [file] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), button(page, 'Trail picture (SVG)').click()]);
    const svg = await readFile(await file.path(), 'utf8');
    const trailColour = await page.evaluate(() => window.explorer.view.map.palette.trail.slice(0, 3).join(','));
    assert.ok(svg.includes(`stroke="rgba(${trailColour},`), 'the trail picture draws the trail');

    const slider = page.getByRole('slider', { name: 'Moment of the training shown on the map' });
    await slider.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await settleMap(page);
    const moment = await page.evaluate(() => {
      const { timeline, mapModel } = window.explorer;
      return { index: timeline.shownIndex(), shows: mapModel.frame === timeline.store.at(1), trails: mapModel.scene.options.trails };
    });
    assert.equal(moment.index, 1);
    assert.ok(moment.shows, 'the map shows the second frame');
    assert.ok(moment.trails.length === 1 && moment.trails[0].length === 4, `2 points at frame 2: ${JSON.stringify(moment.trails)}`);
    assert.equal(await drawn.textContent(), 'Drawn on the CPU: 250,000 points');
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
    await rm(path, { force: true });
  }
});

// t-SNE and UMAP maps of 50,000 words in the worker, following training: the map is laid out
// once, then training goes on and the map warm-starts from where it stands as the vectors
// move (its graph found again for them), frame after frame, while the training runs.
const LAYOUT_WORDS = 50_000;
for (const [method, name] of [['umap', 'UMAP'], ['tsne', 't-SNE']]) {
  test(`50,000 words: the ${name} map in the worker follows training`, { timeout: 1_800_000 }, async () => {
    const path = join(RESULTS, `layout-${method}-text.txt`);
    await writeFile(path, topicalText(LAYOUT_WORDS, 6));
    const { page, problems } = await suite.openExplorer();
    try {
      await openGeneratedText(page, path, { words: LAYOUT_WORDS, dim: 16, epochs: 1 });
      await button(page, 'Train').click();
      await waitUntilDone(page, 120_000);
      // The map's first frame (of the vectors as they stand) is enough to go on from.
      await combobox(page, 'Projection').selectOption(method);
      await page.waitForFunction((m) => window.explorer.timeline.store.all().some((f) => f.mapSpec.method === m), method,
        { timeout: 600_000, polling: 1000 });

      // Trained on for long enough that the map cannot finish first; stopped once it has
      // followed the vectors twice.
      await field(page, 'Epochs').fill('1000');
      await button(page, 'Train again').click();
      const followed = () => page.evaluate(([m, n]) => window.explorer.timeline.store.all()
        .filter((f) => f.mapSpec.method === m && f.layoutProgress?.warm && f.words.length === n && f.tokensDone > 0)
        .map((f) => f.tokensDone), [method, LAYOUT_WORDS]);
      const deadline = Date.now() + 900_000;
      let tokens = [];
      while (new Set(tokens).size < 2) {
        assert.ok(Date.now() < deadline, `the ${name} map followed training ${new Set(tokens).size} times in 15 minutes`);
        await page.waitForTimeout(1000);
        tokens = await followed();
      }
      const training = await page.locator('#progress-text').textContent();
      assert.ok(!training.startsWith('Done.'), `still training: ${training}`);
      await button(page, 'Stop').click();
      assert.ok(tokens.every((t, i) => i === 0 || t >= tokens[i - 1]), `frames of later and later vectors: ${tokens}`);
      await mapCanvas(page).scrollIntoViewIfNeeded();
      await page.locator('.plot-card').screenshot({ path: join(RESULTS, `map-whole-${method}.png`) });
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
      await rm(path, { force: true });
    }
  });
}
