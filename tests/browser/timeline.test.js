// The training timeline in Chromium, by role as a person uses it: the slider scrubs the
// frames of a run (keys, a screen reader's value text), the loss chart marks the moment
// shown, Play / Pause replay at a speed, a selected word leaves a trail (on the map and in
// the SVG), its neighbours through the epochs, the replay recorded as a WebM video, a bundle
// that holds the timeline and replays when opened, and the main thread's budget while
// scrubbing and playing 10,000 words. Screenshots go to test-results/timeline-*.png.
//
// Run with `node --test tests/browser/timeline.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { button, combobox, endTrace, explorerSuite, field, lossChart, mapCanvas, RESULTS, startTrace, stat, waitUntilDone, showParameters } from './helpers.js';

const suite = explorerSuite({ before, after });

const slider = (page) => page.getByRole('slider', { name: 'Moment of the training shown on the map' });
const playButton = (page) => button(page, 'Play');

/** Opens the built-in sample and trains it for `epochs` epochs. */
async function trainSample(page, epochs = 4) {
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await field(page, 'Epochs').fill(String(epochs));
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await page.waitForTimeout(400);
}

/**
 * What the timeline shows, as the line beside the slider says it ("Frame 3 of 7 (newest) ·
 * …"), and, from the page's internals, whether the map draws that frame and the exact tokens
 * of every frame kept: a person sees neither (the map is pixels; the line rounds the tokens).
 */
async function state(page) {
  // One round trip, so that a frame played in between cannot tell the two apart.
  const seen = await page.evaluate(() => {
    const { timeline, mapModel } = window.explorer;
    const i = timeline.shownIndex();
    return {
      moment: document.getElementById('timeline-moment').textContent,
      index: i,
      mapShowsIt: mapModel.frame === timeline.store.at(i) || (timeline.index == null && mapModel.frame.coords === timeline.store.at(i).coords),
      tokens: timeline.store.all().map((f) => f.tokensDone),
    };
  });
  const [, shown, frames, newest] = seen.moment.match(/^Frame (\d+) of (\d+)( \(newest\))? · /) ?? [];
  assert.ok(shown, `the timeline says which frame it shows: “${seen.moment}”`);
  assert.equal(seen.index, Number(shown) - 1, 'the line tells the frame the timeline shows');
  return { frames: Number(frames), index: seen.index, live: Boolean(newest), mapShowsIt: seen.mapShowsIt, tokens: seen.tokens };
}

/** The caption the map draws on its canvas (pixels to a person, so read from the scene). */
const mapCaption = (page) => page.evaluate(() => window.explorer.mapModel.scene.options.caption);
/** The trails the map draws, as `[x0, y0, x1, y1, …]` a trail (pixels to a person). */
const mapTrails = (page) => page.evaluate(() => window.explorer.mapModel.scene.options.trails);

async function download(page, click) {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), click()]);
  return { name: file.suggestedFilename(), bytes: await readFile(await file.path()) };
}

/** Selects `word` through the Neighbours card, as a person does. */
async function selectWord(page, word) {
  await combobox(page, 'Word').fill(word);
  await button(page, 'Find').click();
  await page.getByText(`Nearest to “${word}”`).waitFor();
}

test('the slider scrubs the frames of a run by keys, says where it is, and the loss chart marks the moment', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await trainSample(page, 4);
  const s = slider(page);
  await s.waitFor();
  const before = await state(page);
  assert.ok(before.frames >= 5, `${before.frames} frames kept`);
  assert.ok(before.live, 'after training the newest frame is shown');
  // Frames come in training order, the first before any token.
  assert.equal(before.tokens[0], 0);
  assert.ok(before.tokens.every((t, i) => i === 0 || t >= before.tokens[i - 1]), `${before.tokens}`);
  assert.equal(await s.getAttribute('max'), String(before.frames - 1));
  assert.match(await s.getAttribute('aria-valuetext'), new RegExp(`^frame ${before.frames} of ${before.frames}, epoch 4 of 4, [\\d.,]+( k| M)? tokens$`));

  await s.focus();
  await page.keyboard.press('Home');
  await page.waitForTimeout(100);
  let now = await state(page);
  assert.equal(now.index, 0);
  assert.ok(!now.live && now.mapShowsIt, 'the map shows the first frame');
  assert.equal(await s.getAttribute('aria-valuetext'), `frame 1 of ${before.frames}, before training`);
  // The map says which moment it shows (a recorded video does too).
  assert.equal(await mapCaption(page), 'before training');
  // Before training there is no moment of the loss to mark.
  assert.equal(await lossChart(page).getAttribute('data-marker'), '');
  await page.screenshot({ path: join(RESULTS, 'timeline-first-frame.png') });

  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(100);
  now = await state(page);
  assert.equal(now.index, 2);
  assert.ok(now.mapShowsIt);
  assert.match(await page.locator('#timeline-moment').textContent(), new RegExp(`^Frame 3 of ${before.frames} · epoch`));
  await mapCanvas(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(RESULTS, 'timeline-scrubbed.png') });
  // A frame of training in the middle: the loss chart marks a moment of training (not the
  // start, which has none), and not its end (checked below).
  const middle = await lossChart(page).getAttribute('data-marker');
  assert.match(middle, /^epoch [1-4], [\d.,]+( k| M)? tokens$/);

  // End goes back to the newest frame, which the map then follows again.
  await page.keyboard.press('End');
  await page.waitForTimeout(100);
  now = await state(page);
  assert.ok(now.live && now.index === before.frames - 1);
  assert.equal(await mapCaption(page), null, 'the newest frame needs no caption');
  const end = await lossChart(page).getAttribute('data-marker');
  assert.match(end, /^epoch 4, /);
  assert.notEqual(middle, end, 'frame 3 is marked before the end of training');
  assert.deepEqual(problems, []);
  await page.close();
});

test('Play replays the frames at the chosen speed and Pause stops there', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await trainSample(page, 6);
  const { frames } = await state(page);
  await slider(page).focus();
  await page.keyboard.press('Home');
  // 3 frames a second, so the 7 frames take over 2 s.
  await combobox(page, 'Speed').selectOption('0.5');
  await playButton(page).click();
  assert.equal(await playButton(page).getAttribute('aria-pressed'), 'true');
  await page.waitForTimeout(700);
  const during = (await state(page)).index;
  // About 2 frames in 0.7 s (a busy machine may draw fewer).
  assert.ok(during >= 1 && during <= 4, `at frame ${during} after 0.7 s`);
  await playButton(page).click();
  assert.equal(await playButton(page).getAttribute('aria-pressed'), 'false');
  const paused = (await state(page)).index;
  await page.waitForTimeout(500);
  assert.equal((await state(page)).index, paused, 'Pause holds the frame');
  assert.ok((await state(page)).mapShowsIt);

  // Faster, to the end: the replay stops at the newest frame, which is then followed again.
  await combobox(page, 'Speed').selectOption('4');
  await playButton(page).click();
  await page.waitForFunction(() => document.getElementById('timeline-play').getAttribute('aria-pressed') === 'false', null, { timeout: 30_000 });
  const end = await state(page);
  assert.ok(end.live && end.index === frames - 1, JSON.stringify(end));
  assert.deepEqual(problems, []);
  await page.close();
});

test('a selected word leaves a fading trail on the map and in the SVG; its neighbours through the epochs', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  // 60 words shown: "king" (the 49th) is among them, some of its neighbours are not.
  await page.getByRole('spinbutton', { name: 'Words shown' }).fill('60');
  await page.getByRole('spinbutton', { name: 'Words shown' }).press('Enter');
  await trainSample(page, 4);
  const framesBefore = (await state(page)).frames;
  await selectWord(page, 'king');
  // The map places the neighbours that were not among its 60 words (a person sees them
  // appear, but cannot tell them from the rest on the canvas).
  await page.waitForFunction(() => window.explorer.mapModel.frame.extraWords.length > 0);
  await page.waitForTimeout(300);
  // The map drawn again with the neighbours placed is the same moment, not a new frame.
  assert.equal((await state(page)).frames, framesBefore);
  const trail = await mapTrails(page);
  assert.equal(trail.length, 1, 'one trail, the selected word’s');
  const frames = (await state(page)).frames;
  assert.ok(trail[0].length >= 2 * Math.min(frames - 1, 5), `a trail of ${trail[0].length / 2} points over ${frames} frames`);
  await mapCanvas(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(RESULTS, 'timeline-trail-light.png') });

  // The SVG holds the trail: segments in the palette's trail colour, fading (several opacities).
  const svg = (await download(page, () => button(page, 'Trail picture (SVG)').click())).bytes.toString('utf8');
  // The theme's trail colour, which the page keeps in its palette (no control shows it).
  const trailColour = await page.evaluate(() => window.explorer.view.map.palette.trail.slice(0, 3).join(','));
  const opacities = new Set([...svg.matchAll(new RegExp(`stroke="rgba\\(${trailColour},([\\d.]+)\\)"`, 'g'))].map((m) => m[1]));
  assert.ok(opacities.size >= 3, `trail strokes in ${opacities.size} opacities`);

  // Scrubbed back, the trail ends at the frame shown and is shorter.
  await slider(page).focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(150);
  const earlier = await mapTrails(page);
  assert.ok(earlier.length === 1 && earlier[0].length === 6, `3 points at frame 3: ${JSON.stringify(earlier)}`);
  // Trails off: none.
  await page.getByRole('checkbox', { name: 'Trails of the selected words' }).uncheck();
  assert.deepEqual(await mapTrails(page), []);
  await page.getByRole('checkbox', { name: 'Trails of the selected words' }).check();

  // Neighbours through time: a column per epoch, the last one the neighbours of now.
  const table = page.getByRole('table', { name: 'Nearest neighbours of king at the end of each epoch' });
  await table.waitFor();
  const heads = await table.locator('thead th').allTextContents();
  assert.deepEqual(heads, ['rank', 'epoch 1', 'epoch 2', 'epoch 3', 'epoch 4']);
  const lastColumn = await table.locator('tbody tr td:last-child').allTextContents();
  const listed = await page.locator('#neighbours-list .word').allTextContents();
  assert.deepEqual(lastColumn.slice(0, 3), listed.slice(0, 3), 'the last epoch’s neighbours are those of the vectors now');
  const firstColumn = await table.locator('tbody tr td:nth-child(2)').allTextContents();
  assert.notDeepEqual(firstColumn, lastColumn, 'the neighbours changed as training went');
  await page.locator('#history').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(RESULTS, 'timeline-history.png') });

  // The dark theme draws trails in its own colour.
  await combobox(page, 'Theme').selectOption('dark');
  await mapCanvas(page).scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(RESULTS, 'timeline-trail-dark.png') });
  const dark = await page.evaluate(() => window.explorer.view.map.palette.trail.slice(0, 3).join(','));
  assert.notEqual(dark, trailColour);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the replay is recorded as a WebM video', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await trainSample(page, 3);
  await combobox(page, 'Speed').selectOption('4');
  const video = await download(page, () => button(page, 'Record video (WebM)').click());
  assert.equal(video.name, 'embedscope-timeline.webm');
  // EBML magic: a Matroska / WebM file.
  assert.deepEqual([...video.bytes.subarray(0, 4)], [0x1a, 0x45, 0xdf, 0xa3]);
  assert.ok(video.bytes.length > 2000, `${video.bytes.length} bytes`);
  assert.ok(video.bytes.includes(Buffer.from('webm')), 'the DocType is webm');
  assert.equal(await button(page, 'Record video (WebM)').isEnabled(), true, 'ready for another');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a bundle saved after training holds the timeline, and re-opened it replays', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await trainSample(page, 3);
  // Then a t-SNE map of the trained vectors: its frames are kept with their parameters.
  await combobox(page, 'Projection').selectOption('tsne');
  await page.locator('#layout-progress').filter({ hasText: 't-SNE: done after 750 iterations.' }).waitFor({ timeout: 60_000 });
  await page.waitForTimeout(300);
  const { frames } = await state(page);
  // The frames' coordinates, bit for bit, which no control shows.
  const kept = await page.evaluate(() => window.explorer.timeline.store.all().map((f) => [f.tokensDone, f.mapSpec.method, Array.from(f.coords.subarray(0, 4))]));
  const bundle = await download(page, () => button(page, 'embedscope-bundle.json').click());
  const json = JSON.parse(bundle.bytes.toString('utf8'));
  assert.equal(json.timeline.frames.length, frames);
  assert.deepEqual(json.timeline.frames.map((f) => f.tokensDone), kept.map((k) => k[0]));
  // Each frame says how it was made: PCA's components while training, then t-SNE's parameters.
  const pca = json.timeline.frames.filter((f) => f.mapSpec.method === 'pca');
  const tsne = json.timeline.frames.filter((f) => f.mapSpec.method === 'tsne');
  assert.ok(pca.length >= 4 && pca.every((f) => f.mapSpec.xComponent === 0 && f.mapSpec.yComponent === 1 && f.axisLabels[0].startsWith('PC1')));
  assert.ok(tsne.length >= 1, 'the t-SNE frames are kept');
  assert.ok(tsne.every((f) => f.mapSpec.layout.perplexity === 30 && f.mapSpec.layout.iterations === 750 && f.axisLabels[0] === 't-SNE 1'), JSON.stringify(tsne[0]?.mapSpec));
  assert.equal(pca.length + tsne.length, frames);
  assert.equal(json.timeline.neighbours.epochs.length, 3);
  // Every frame showed the sample's words, PCA's while training and t-SNE's after: the worker
  // sent them with the first frame only (www/map/frame-words.js), and all share the array the
  // page put back into each.
  // How many lists arrived and how many arrays hold them: memory a person cannot see.
  const lists = await page.evaluate(() => ({
    received: window.explorer.frameWords.received,
    arrays: new Set(window.explorer.timeline.store.all().map((f) => f.words)).size,
  }));
  assert.deepEqual(lists, { received: 1, arrays: 1 }, `${frames} frames`);
  assert.equal(json.timeline.wordLists.length, 1);

  // Opened in a fresh tab: the frames come back, and Play replays them.
  const { page: other, problems: otherProblems } = await suite.openExplorer();
  await other.getByLabel('Open a file…').setInputFiles({ name: 'run.json', mimeType: 'application/json', buffer: bundle.bytes });
  assert.equal(await stat(other, 'Format').textContent(), 'embedscope bundle');
  await slider(other).waitFor();
  const opened = await other.evaluate(() => window.explorer.timeline.store.all().map((f) => [f.tokensDone, f.mapSpec.method, Array.from(f.coords.subarray(0, 4))]));
  // The bundle's frames, bit for bit, then the frame of the vectors as opened.
  assert.deepEqual(opened.slice(0, frames), kept);
  assert.equal(opened.length, frames + 1);
  await slider(other).focus();
  await other.keyboard.press('Home');
  await playButton(other).click();
  await other.waitForFunction(() => document.getElementById('timeline-play').getAttribute('aria-pressed') === 'false', null, { timeout: 30_000 });
  assert.ok((await state(other)).live);
  await selectWord(other, 'king');
  const table = other.getByRole('table', { name: 'Nearest neighbours of king at the end of each epoch' });
  await table.waitFor();
  assert.equal(await table.locator('thead th').count(), 4);
  assert.deepEqual(problems, []);
  assert.deepEqual(otherProblems, []);
  await other.close();
  await page.close();
});

/** A text of about 12,000 distinct words, each several times, in short lines (seeded). */
function manyWords() {
  let seed = 7;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
  const lines = [];
  for (let i = 0; i < 12_000; i += 1) {
    for (let r = 0; r < 3; r += 1) {
      const words = [`w${i}`];
      for (let j = 0; j < 7; j += 1) words.push(`w${Math.floor(random() * 12_000)}`);
      lines.push(words.join(' '));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The word of `text` seen fewest times (the first such in the text). */
function rarestWord(text) {
  const counts = new Map();
  for (const word of text.split(/\s+/).filter(Boolean)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return [...counts].reduce((rarest, entry) => (entry[1] < rarest[1] ? entry : rarest))[0];
}

test('scrubbing and playing 10,000 words: no main-thread task over 50 ms', { timeout: 240_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await page.getByLabel('Open a file…').setInputFiles({ name: 'many.txt', mimeType: 'text/plain', buffer: Buffer.from(manyWords()) });
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await field(page, 'Min count').fill('1');
  await field(page, 'Epochs').fill('3');
  await field(page, 'Dimensions').fill('32');
  await page.getByRole('spinbutton', { name: 'Words shown' }).fill('10000');
  await page.getByRole('spinbutton', { name: 'Words shown' }).press('Enter');
  await page.waitForTimeout(500);
  await button(page, 'Train').click();
  await waitUntilDone(page, 200_000);
  await page.waitForTimeout(500);
  const { frames } = await state(page);
  // The frames hold all 10,000 words shown (points on the canvas, which a person cannot count).
  const words = await page.evaluate(() => window.explorer.timeline.store.last().words.length);
  assert.equal(words, 10_000);
  assert.ok(frames >= 4, `${frames} frames`);
  // Neighbours through time are kept for the 1,000 most frequent words only, and it says so
  // of the text's rarest word.
  const rare = rarestWord(manyWords());
  await selectWord(page, rare);
  await page.locator('#history-message').filter({ hasText: /kept for the 1000 most frequent words/ }).waitFor();
  await selectWord(page, 'w1');

  // How often the map drew, counted by the page (a person sees the map move, not a count).
  const drawsBefore = await page.evaluate(() => window.explorer.view.map.draws);
  const cdp = await page.context().newCDPSession(page);
  await startTrace(cdp);
  await slider(page).focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < Math.min(frames, 12); i += 1) {
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(60);
  }
  // Dragging the thumb across sends a burst of input events.
  const box = await slider(page).boundingBox();
  await page.mouse.move(box.x + 4, box.y + box.height / 2);
  await page.mouse.down();
  for (let x = 0; x <= 20; x += 1) await page.mouse.move(box.x + 4 + (x / 20) * (box.width - 8), box.y + box.height / 2);
  await page.mouse.up();
  await page.keyboard.press('Home');
  await combobox(page, 'Speed').selectOption('4');
  await playButton(page).click();
  await page.waitForFunction(() => document.getElementById('timeline-play').getAttribute('aria-pressed') === 'false', null, { timeout: 60_000 });
  await page.waitForTimeout(400);
  const tasks = await endTrace(cdp);
  const draws = (await page.evaluate(() => window.explorer.view.map.draws)) - drawsBefore;
  const longest = Math.max(...tasks.map((t) => t.cpuMs));
  console.log(`timeline at 10,000 words, ${frames} frames: ${draws} draws, longest main-thread task ${longest.toFixed(1)} ms of thread time`);
  assert.ok(draws > 2 * frames, `the map drew the frames scrubbed and played (${draws} draws)`);
  assert.ok(tasks.length > 50, `the trace holds the page's tasks (${tasks.length})`);
  assert.deepEqual(tasks.filter((t) => t.cpuMs > 50).map((t) => Math.round(t.cpuMs)), [], 'no main-thread task over 50 ms of thread time');
  assert.deepEqual(problems, []);
  await page.close();
});

test('vectors trained elsewhere have no timeline to replay and no neighbours through time', { timeout: 60_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const rows = ['king 1 0 0', 'queen 0.9 0.2 0', 'man 0.5 0.5 0.1', 'woman 0.4 0.6 0.2', 'prince 0.8 0.1 0.3'];
  const file = `${rows.length} 3\n${rows.join('\n')}\n`;
  await page.getByLabel('Open a file…').setInputFiles({ name: 'vectors.txt', mimeType: 'text/plain', buffer: Buffer.from(file) });
  await stat(page, 'Vocabulary').filter({ hasText: /^5$/ }).waitFor();
  await selectWord(page, 'king');
  await page.waitForTimeout(300);
  assert.equal(await page.locator('#history').isHidden(), true, 'no neighbours through time');
  assert.equal(await page.locator('#timeline').isHidden(), true, 'one frame: nothing to scrub');
  assert.deepEqual(problems, []);
  await page.close();
});
