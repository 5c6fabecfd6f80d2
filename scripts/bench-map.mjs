// The map's redraw cost in Chromium: the wasm Chart draws N seeded points (clusters, word-
// like labels) the way the page's animation does, rasterised before the clock stops, from a
// point buffer with a fixed camera range that moves a little each frame (a glide or a pan),
// and every word asks for a label; at 1,000 and 10,000 points also with a word selected and
// the hovered one changing each frame, as when the pointer moves over the map. Prints the
// median, 95th percentile and worst of the first redraws (cold: the engine is still
// compiling the module's code to its faster tier, so they are slower) and of those that
// follow (steady: the animation as it goes on), beside their budgets (4 ms at 1,000 points,
// else 16 ms: one display frame), at 1,000, 10,000, 100,000, 250,000 and 1,000,000 points;
// then the first draw of a new list of words (set_words and the draw that follows it, as
// the page does when a frame brings other words) at 10,000 to 1,000,000, beside the budget
// of a main-thread task (50 ms), and the drawing module's wasm memory after it. Then, in
// the explorer itself: 250,000 generated vectors opened, every word shown (the time from
// asking to the map drawn), and the wheel zooming in and out over them for a few seconds:
// the animation frames that reach the page per second, the map's redraws per second, the
// longest main-thread task (a PerformanceObserver's 'longtask' entries) and the longest gap
// between two animation frames; then Find typed over them: how soon after a keystroke, and
// in which animation frame, the map draws the matches, and then their labels. Asserts nothing.
//
// Usage: node scripts/bench-map.mjs [--baseline DIR | --whole]  (--whole: only the explorer's
// 250,000 words: the wheel zoom and Find)
//   DIR (inside the project, e.g. target/map-base) holds another build of www/pkg, such as
//   the one before a change. Both modules are loaded in one page and draw the same scenes on
//   two canvases of the same size, taking turns at going first, so the machine's load falls
//   on both alike; each figure is printed for both, with their ratio.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { clusteredVectorsText, launchChromium, RESULTS, withDevServer } from '../tests/browser/helpers.js';

// Points, budget, and what is marked: nothing, or a word selected and another hovered (the
// pointer over the map, the commonest way of exploring it).
const SCENES = [
  [1_000, 4, 'plain'], [1_000, 4, 'hover'], [10_000, 16, 'plain'], [10_000, 16, 'hover'],
  [100_000, 16, 'plain'], [250_000, 16, 'plain'], [250_000, 16, 'hover'], [1_000_000, 16, 'plain'],
];
/** Cold and steady redraws: fewer of the larger maps, which take longer each. */
const redrawCounts = (n) => (n <= 10_000 ? [60, 240] : n <= 250_000 ? [30, 120] : [10, 40]);
/** New lists of words, and how many of each size. */
const NEW_LISTS = [[10_000, 12], [100_000, 6], [250_000, 4], [1_000_000, 2]];
const TASK_BUDGET = 50;
/** The explorer's whole vocabulary: words, dimensions, and how long the wheel zooms. */
const WHOLE = { words: 250_000, dim: 8, seconds: 4 };

const args = process.argv.slice(2);
const baseline = args[0] === '--baseline' ? args[1]?.replace(/^\/+|\/+$/g, '') : null;
const wholeOnly = args.length === 1 && args[0] === '--whole';
if (args.length > 0 && !baseline && !wholeOnly) {
  console.error('usage: node scripts/bench-map.mjs [--baseline DIR | --whole]');
  process.exit(2);
}

/** In the page: loads the modules and makes a canvas of the app's map size for each. */
async function setUp({ baseline }) {
  const modules = [{ name: 'this build', Chart: window.Chart }];
  if (baseline) {
    const glue = await import(`/${baseline}/embedscope.js`);
    await glue.default();
    modules.push({ name: baseline, Chart: glue.Chart });
  }
  document.getElementById('scatter').remove();
  window.benchModules = modules.map(({ name, Chart }) => {
    const canvas = document.createElement('canvas');
    // The app's map size: about 960 × 600 CSS pixels (the CSP forbids a style tag, not a style property).
    Object.assign(canvas.style, { width: '960px', height: '600px' });
    document.body.append(canvas);
    return { name, Chart, canvas };
  });
  return modules.map((m) => m.name);
}

/** The seeded scene the benchmark draws: `n` points in nine clusters and word-like labels. */
function sceneOf(n, tag) {
  const { gaussian } = window.seeded(7);
  const syllables = ['an', 'ber', 'cor', 'da', 'el', 'fen', 'gal', 'hin', 'is', 'jor', 'ka', 'lem', 'mo', 'nur'];
  const words = Array.from({ length: n }, (_, i) => `${syllables[i % 14]}${syllables[(i * 7) % 13]}${tag}${i}`);
  const coords = new Float32Array(2 * n);
  for (let i = 0; i < n; i += 1) {
    const c = i % 9;
    coords[2 * i] = (c % 3) * 3 + gaussian();
    coords[2 * i + 1] = Math.floor(c / 3) * 3 + gaussian();
  }
  return { words, coords, styles: new Uint8Array(n).fill(255) };
}

/** Sorted times as median, 95th percentile and worst. */
function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], p95: sorted[Math.floor(0.95 * sorted.length)], max: sorted.at(-1) };
}

/**
 * In the page: `cold + steady` redraws of `n` points by each module, one display frame each;
 * the first `cold` and the rest summed up apart.
 */
async function redraws({ n, cold, steady, marked, sceneOf, summary }) {
  const redraws = cold + steady;
  // biome-ignore lint/security/noGlobalEval: the page gets this script's own functions as source text (page.evaluate passes no functions)
  sceneOf = eval(`(${sceneOf})`);
  // biome-ignore lint/security/noGlobalEval: as above
  summary = eval(`(${summary})`);
  const { words, coords, styles } = sceneOf(n, '');
  const charts = window.benchModules.map(({ Chart, canvas }) => {
    const chart = new Chart(canvas);
    chart.set_words(words);
    return { chart, context: canvas.getContext('2d'), times: [], labels: 0 };
  });
  // One redraw per display frame, as the page's animation draws: the browser may collect
  // garbage between them, as it does in the page. The modules take turns at going first.
  await new Promise((resolve) => {
    let frames = 0;
    const frame = () => {
      const shift = 0.01 * frames;
      const order = frames % 2 === 0 ? charts : [...charts].reverse();
      for (const c of order) {
        const started = performance.now();
        const marks = marked === 'hover' ? { selected: 3, hovered: 1 + (frames % 50) } : {};
        c.chart.draw_map(coords, styles, { xLabel: 'PC1', yLabel: 'PC2', labelCount: n, fixedRange: [-3 + shift, 9 + shift, -3, 9], ...marks });
        // Reading a pixel makes the canvas carry out the drawing now: without a GPU the
        // raster work would otherwise be done later, outside the measured time.
        c.context.getImageData(0, 0, 1, 1);
        c.times.push(performance.now() - started);
        c.labels = c.chart.labels_placed();
      }
      frames += 1;
      if (frames < redraws) requestAnimationFrame(frame);
      else resolve();
    };
    requestAnimationFrame(frame);
  });
  return charts.map((c) => ({ cold: summary(c.times.slice(0, cold)), steady: summary(c.times.slice(cold)), labels: c.labels }));
}

/**
 * In the page: `lists` times, a new list of `n` words (none seen before) and the first
 * draw of it, as the page draws a frame that brings other words: set_words, then draw_map.
 * Times both together, and how many draws follow before every label is measured.
 */
async function newLists({ n, lists, sceneOf, summary }) {
  // biome-ignore lint/security/noGlobalEval: as in `redraws`
  sceneOf = eval(`(${sceneOf})`);
  // biome-ignore lint/security/noGlobalEval: as in `redraws`
  summary = eval(`(${summary})`);
  const charts = window.benchModules.map(({ Chart, canvas }) => ({ chart: new Chart(canvas), context: canvas.getContext('2d'), times: [], more: [] }));
  const options = { xLabel: 'PC1', yLabel: 'PC2', labelCount: n, fixedRange: [-3, 9, -3, 9] };
  for (let list = 0; list < lists; list += 1) {
    const { words, coords, styles } = sceneOf(n, `l${list}x`);
    const order = list % 2 === 0 ? charts : [...charts].reverse();
    for (const c of order) {
      await new Promise(requestAnimationFrame);
      const started = performance.now();
      c.chart.set_words(words);
      c.chart.draw_map(coords, styles, options);
      c.context.getImageData(0, 0, 1, 1);
      c.times.push(performance.now() - started);
      let more = 0;
      while (c.chart.labels_deferred() && more < 1000) {
        c.chart.draw_map(coords, styles, options);
        more += 1;
      }
      c.more.push(more);
    }
  }
  // The module's memory only grows: its size now is its peak so far.
  return charts.map((c) => ({ ...summary(c.times), more: Math.max(...c.more), memory: window.wasm.memory.buffer.byteLength }));
}

/**
 * The explorer with `WHOLE.words` generated vectors, all shown; then the wheel zooms in and
 * out about the map's middle for `WHOLE.seconds`, and the page counts its animation frames,
 * the map's redraws and its long tasks.
 */
async function wholeVocabulary(browser, url) {
  const path = join(RESULTS, 'bench-whole-vocabulary.txt');
  // A fresh checkout has no results folder until the tests have run.
  await mkdir(RESULTS, { recursive: true });
  await writeFile(path, clusteredVectorsText(WHOLE.words, WHOLE.dim));
  const page = await browser.context.newPage();
  try {
    await page.goto(url);
    await page.waitForSelector('#worker-status[data-state="ready"]');
    const words = WHOLE.words.toLocaleString('en');
    await page.getByLabel('Open a file…').setInputFiles(path);
    await page.locator('[data-stat="Vocabulary"]').filter({ hasText: words }).waitFor({ timeout: 300_000 });
    const field = page.getByRole('spinbutton', { name: 'Words shown' });
    await field.fill(String(WHOLE.words));
    const asked = Date.now();
    await field.press('Enter');
    await page.locator('#map-drawn').filter({ hasText: `Drawn on the CPU: ${words} points` }).waitFor({ timeout: 300_000 });
    const shownMs = Date.now() - asked;
    await page.waitForTimeout(1000);
    const canvas = page.locator('#plot');
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // A wheel event at the map's middle on every animation frame (as a trackpad sends them),
    // zooming in for a second, then out, and so on; the page counts its frames, the map's
    // redraws and the long tasks meanwhile.
    await page.evaluate((seconds) => new Promise((resolve) => {
      const bench = { frames: [], long: [], draws: window.explorer.view.map.draws, notches: 0 };
      window.bench = bench;
      new PerformanceObserver((list) => bench.long.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
      const canvas = document.getElementById('plot');
      const { left, top, width, height } = canvas.getBoundingClientRect();
      const [clientX, clientY] = [left + width / 2, top + height / 2];
      const tick = (t) => {
        bench.frames.push(t);
        const elapsed = t - bench.frames[0];
        if (elapsed > seconds * 1000) return resolve();
        const inwards = Math.floor(elapsed / 1000) % 2 === 0;
        canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: inwards ? -40 : 40, clientX, clientY, bubbles: true, cancelable: true }));
        bench.notches += 1;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }), WHOLE.seconds);
    const r = await page.evaluate(() => {
      const { bench } = window;
      const { map } = window.explorer.view;
      const gaps = bench.frames.slice(1).map((t, i) => t - bench.frames[i]);
      const seconds = (bench.frames.at(-1) - bench.frames[0]) / 1000;
      return {
        fps: (bench.frames.length - 1) / seconds,
        redraws: (map.draws - bench.draws) / seconds,
        longest: Math.max(0, ...bench.long),
        longTasks: bench.long.length,
        gap: Math.max(...gaps),
        drawMedian: [...map.drawTimes].sort((a, b) => a - b)[map.drawTimes.length >> 1],
        drawMax: Math.max(...map.drawTimes),
        heap: performance.memory?.usedJSHeapSize ?? 0,
        notches: bench.notches,
      };
    });
    // Find typed over every label: from the keystroke to the end of the animation frame in
    // which the map first drew the matches (its scripts done: the frame then goes to the
    // screen), the count shown; which frame after the keystroke that was; the handler's and
    // that redraw's times, and whether the redraw started from a kept layer of dots. The
    // first search comes a second after the wheel stopped (a hand going from the wheel to
    // the search box), each of the others 400 ms after the one before.
    const finds = [];
    for (const query of ['a', 'ab', 'b', 'zz', 'v1', '', 'b', '', 'v1', '']) {
      await page.waitForTimeout(query === 'a' ? 1000 : 400);
      finds.push(await page.evaluate((q) => new Promise((resolve) => {
        const input = document.getElementById('map-find');
        const count = document.getElementById('map-find-count');
        const before = count.textContent;
        const started = performance.now();
        input.value = q;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        const handled = performance.now() - started;
        const { map } = window.explorer.view;
        const draws = map.draws;
        // Called after the map's redraw in each animation frame (both asked for one in this
        // task, the map first), until a frame has drawn the matches.
        // Over 50,000 points the labels come with the redraw after (map-view.js's
        // labelNextFrame): when, and how many.
        let frames = 0;
        let found = null;
        const check = () => {
          frames += 1;
          if (!found && (count.textContent !== before || q === '') && map.draws > draws) {
            found = { query: q, handled, answered: performance.now() - started, count: count.textContent,
              drawn: map.drawTimes.at(-1), reused: map.chart.drew_from_underlay(), frames, draws: map.draws };
            // No redraw to come: the labels came with the matches.
            if (!map.pending) return resolve({ ...found, labelled: found.answered, labelledFrames: frames, labels: map.chart.labels_placed() });
          } else if (found && map.draws > found.draws) {
            return resolve({ ...found, labelled: performance.now() - started, labelledFrames: frames, labels: map.chart.labels_placed() });
          }
          requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }), query));
    }
    console.log(`the explorer, ${words} words of ${WHOLE.dim} dimensions: every word shown and drawn ${(shownMs / 1000).toFixed(2)} s after asking (the worker's PCA, the words' list, the first draw)`);
    console.log(`wheel zoom over ${words} points for ${WHOLE.seconds} s (a wheel event each animation frame, ${r.notches} in all): ${r.fps.toFixed(1)} animation frames/s ` +
      `(at least 45 wanted), ${r.redraws.toFixed(1)} redraws/s (redraw median ${r.drawMedian.toFixed(1)} ms, worst ${r.drawMax.toFixed(1)} ms), ` +
      `longest main-thread task ${r.longest.toFixed(0)} ms (${r.longTasks} over 50 ms; none wanted), longest gap between frames ${r.gap.toFixed(0)} ms; ` +
      `page JS heap ${Math.round(r.heap / 2 ** 20)} MB`);
    console.log(`Find over ${words} labels, from the keystroke to the end of the animation frame that drew the matches: ` +
      `${finds.map((f) => `${f.query === '' ? 'cleared' : `“${f.query}”`} ${f.answered.toFixed(0)} ms, in animation frame ${f.frames} after the keystroke ` +
        `(${f.count || 'no count'}; its handler ${f.handled.toFixed(0)} ms, the map's redraw ${f.drawn.toFixed(0)} ms${f.reused ? ', from a kept layer of dots' : ''}; ` +
        `${f.labels} labels in frame ${f.labelledFrames}, ${f.labelled.toFixed(0)} ms)`).join(', ')}; ` +
      `a frame is 16.7 ms`);
  } finally {
    await page.close();
    await rm(path, { force: true });
  }
}

await withDevServer(async (url) => {
  const browser = await launchChromium({ viewport: { width: 1200, height: 1500 } });
  try {
    if (wholeOnly) {
      await wholeVocabulary(browser, url);
      return;
    }
    const page = await browser.context.newPage();
    await page.goto(new URL('tests/browser/fixtures/plot.html', url).href);
    await page.waitForSelector('body[data-ready="true"]');
    const names = await page.evaluate(setUp, { baseline });
    const fns = { sceneOf: sceneOf.toString(), summary: summary.toString() };
    const ratios = (results, keys) => {
      if (results.length < 2) return;
      const parts = Object.entries(keys).map(([key, name]) => `${name} ${(results[0][key] / results[1][key]).toFixed(2)}`);
      console.log(`  this build / ${names[1]}: ${parts.join(', ')}`);
    };
    for (const [n, budget, marked] of SCENES) {
      const [cold, steady] = redrawCounts(n);
      const results = await page.evaluate(redraws, { n, cold, steady, marked, ...fns });
      for (const [phase, count] of [['cold', cold], ['steady', steady]]) {
        const figures = results.map((r) => r[phase]);
        figures.forEach((r, i) => {
          console.log(`map redraw, ${n.toLocaleString('en').padStart(9)} points, ${marked.padEnd(5)}, ${phase.padEnd(6)} (${count} redraws), ${names[i]}: ` +
            `median ${r.median.toFixed(2)} ms, 95th percentile ${r.p95.toFixed(2)} ms, worst ${r.max.toFixed(2)} ms ` +
            `(budget ${budget} ms; median/budget ${(r.median / budget).toFixed(2)}), ${results[i].labels} labels placed`);
        });
        ratios(figures, { median: 'median', p95: '95th percentile' });
      }
    }
    for (const [n, lists] of NEW_LISTS) {
      const results = await page.evaluate(newLists, { n, lists, ...fns });
      results.forEach((r, i) => {
        console.log(`first draw of a new list of ${n.toLocaleString('en').padStart(9)} words (set_words + draw_map), ${names[i]}: ` +
          `median ${r.median.toFixed(1)} ms, worst ${r.max.toFixed(1)} ms of ${lists} (a main-thread task's budget ${TASK_BUDGET} ms; ` +
          `median/budget ${(r.median / TASK_BUDGET).toFixed(2)}); ${r.more} more draws until every label is measured; ` +
          `wasm memory ${Math.round(r.memory / 2 ** 20)} MB`);
      });
      ratios(results, { median: 'median', max: 'worst' });
    }
    await wholeVocabulary(browser, url);
  } finally {
    await browser.close();
  }
});
