// Browser test of the wasm `Chart`: a fixture page loads the module, the test draws a PCA
// scatter of random labelled points and a loss chart at devicePixelRatio 2, and checks the
// backing store size, that pixels were drawn where `point_position` says, `hit`, the errors,
// and saves screenshots to test-results/plot.png and test-results/plot-500.png.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RESULTS, openPage, withChromium, withDevServer } from './helpers.js';

const FIXTURE = 'tests/browser/fixtures/plot.html';
// The accent colour of the selected point and of the epoch losses (`Palette::LIGHT` in src/plot/scene.rs).
const ACCENT = [0xd9, 0x48, 0x0f];

/**
 * In the page: draws a scatter of `n` seeded random points (clusters, word-like labels, a
 * few long ones) on #scatter with `options`, and returns what the test checks.
 */
function drawScatter({ n, options }) {
  // The fixture's seeded generator, so every run draws the same plot.
  const { uniform: random, gaussian } = window.seeded(12345);
  const syllables = ['an', 'ber', 'cor', 'da', 'el', 'fen', 'gal', 'hin', 'is', 'jor', 'ka', 'lem', 'mo', 'nur', 'os', 'pra', 'qui', 'ro', 'sel', 'tu'];
  const word = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]).join('');
  const centres = [[-2, 1], [1.5, 1.2], [0, -1.5], [2.5, -1], [-2.5, -1.8]];
  const coords = new Float32Array(2 * n);
  const labels = [];
  for (let i = 0; i < n; i++) {
    const [cx, cy] = centres[i % centres.length];
    coords[2 * i] = cx + 0.7 * gaussian();
    coords[2 * i + 1] = cy + 0.5 * gaussian();
    labels.push(i % 37 === 3 ? `${word()}_an_unusually_long_token_${i}` : `${word()}${i}`);
  }
  const canvas = document.getElementById('scatter');
  const chart = new window.Chart(canvas);
  chart.draw_scatter(coords, labels, options);
  window.scatter = chart;

  const context = canvas.getContext('2d');
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  let drawn = 0;
  for (let p = 0; p < data.length; p += 4) {
    if (data[p] !== 255 || data[p + 1] !== 255 || data[p + 2] !== 255) drawn++;
  }
  const positions = labels.map((_, i) => Array.from(chart.point_position(i) ?? []));
  const pixelAt = ([x, y]) => {
    const ratio = canvas.width / canvas.getBoundingClientRect().width;
    return Array.from(context.getImageData(Math.floor(x * ratio), Math.floor(y * ratio), 1, 1).data);
  };
  const selected = options.selected;
  // Around the hovered point, 16 pixels on its ring (7.5 CSS pixels out: HOVER_RING in
  // src/plot/scene.rs), and one between its dot and its ring (5.8 out), as [r, g, b, a].
  const hovered = options.hovered == null ? null : positions[options.hovered];
  const ring = hovered == null ? [] : Array.from({ length: 16 }, (_, k) => {
    const turn = (k / 16) * 2 * Math.PI;
    return pixelAt([hovered[0] + 7.5 * Math.cos(turn), hovered[1] + 7.5 * Math.sin(turn)]);
  });
  return {
    ring,
    insideRing: hovered == null ? null : pixelAt([hovered[0] + 5.8, hovered[1]]),
    backing: [canvas.width, canvas.height],
    css: [canvas.getBoundingClientRect().width, canvas.getBoundingClientRect().height],
    ratio: window.devicePixelRatio,
    drawnShare: drawn / (data.length / 4),
    positions,
    hits: positions.map(([x, y]) => chart.hit(x, y, 4) ?? null),
    selectedPixel: selected == null ? null : pixelAt(positions[selected]),
    farHits: [chart.hit(-50, -50, 10), chart.hit(3, 3, 2), chart.hit(10_000, 10_000, 30)].map((h) => h ?? null),
  };
}

test('Chart draws a sharp, hit-testable scatter and a loss chart', { timeout: 120_000 }, async () => {
  await withDevServer((url) =>
    withChromium({ deviceScaleFactor: 2, viewport: { width: 800, height: 820 } }, async (context) => {
      const { page, problems } = await openPage(context);
      await page.goto(new URL(FIXTURE, url).href);
      await page.waitForSelector('body[data-ready="true"]');

      const options = {
        xLabel: 'PC1 (12.3 %)', yLabel: 'PC2 (8.1 %)', labelCount: 60,
        hovered: 8, selected: 5, neighbours: [12, 40, 77, 150, 201],
        arrows: [[20, 31], [22, 33]], highlighted: [100], fixedRange: null,
      };
      const scatter = await page.evaluate(drawScatter, { n: 300, options });

      assert.equal(scatter.ratio, 2);
      assert.deepEqual(scatter.backing, scatter.css.map((v) => Math.round(v * 2)), 'backing store = CSS size × 2');
      assert.deepEqual(scatter.css, [760, 520]);
      assert.ok(scatter.drawnShare > 0.03, `only ${scatter.drawnShare} of the pixels were drawn`);
      assert.ok(scatter.drawnShare < 0.6, `${scatter.drawnShare} of the pixels were drawn`);
      // The selected dot is drawn in the accent colour where point_position says it is.
      assert.deepEqual(scatter.selectedPixel.slice(0, 3), ACCENT);
      // Hitting each point's position finds it, or an earlier point drawn on the same spot.
      scatter.hits.forEach((hit, i) => {
        assert.notEqual(hit, null, `point ${i} is not hit at its own position`);
        assert.ok(hit <= i);
        assert.deepEqual(scatter.positions[hit], scatter.positions[i]);
      });
      assert.deepEqual(scatter.farHits, [null, null, null]);

      // Errors a caller can act on, not panics.
      const errors = await page.evaluate(() => {
        const attempt = (f) => { try { f(); return null; } catch (e) { return e.message; } };
        return [
          attempt(() => window.scatter.draw_scatter(new Float32Array(3), ['a', 'b'], null)),
          attempt(() => window.scatter.draw_scatter(new Float32Array(2), ['a'], { selcted: 0 })),
          attempt(() => window.scatter.draw_scatter(new Float32Array(2), ['a'], { selected: 4 })),
          attempt(() => window.scatter.draw_scatter(new Float32Array([0, NaN]), ['a'], {})),
          attempt(() => window.scatter.draw_loss(3, [1], [0.5], [], [])),
          attempt(() => window.scatter.draw_loss(3, [1], [], [1], [])),
          attempt(() => window.scatter.draw_loss(3, [1], [], [], [0.5, 1, Number.NaN])),
          attempt(() => window.scatter.draw_scatter(new Float32Array(2), ['a'], { moves: [{ point: 1, dx: 0, dy: 0 }] })),
          attempt(() => window.scatter.draw_scatter(new Float32Array(2), ['a'], { moves: [{ point: 0, dx: Number.NaN, dy: 0 }] })),
        ];
      });
      assert.match(errors[0], /2 coordinates per word: got 3 coordinates for 2 words/);
      assert.match(errors[1], /unknown scatter option `selcted`/);
      assert.match(errors[2], /point index 4 .* out of range for 1 points/);
      assert.match(errors[3], /coordinate 1 of point 0 \("a"\) is not a finite number/);
      assert.match(errors[4], /odd length 1/);
      assert.match(errors[5], /epoch_terms must be \[positive, negative, \.\.\.\] .* got lengths 1 and 0/);
      assert.match(errors[6], /not finite/);
      assert.match(errors[7], /point index 1 .* out of range for 1 points/);
      assert.match(errors[8], /move 0 must have a finite dx and dy/);

      // The loss chart: blank before, lines and epoch dots after.
      const loss = await page.evaluate(() => {
        const canvas = document.getElementById('loss');
        const chart = new window.Chart(canvas);
        const count = () => {
          const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
          let drawn = 0;
          let accent = 0;
          let arrow = 0;
          for (let p = 0; p < data.length; p += 4) {
            if (data[p + 3] !== 0 && (data[p] !== 255 || data[p + 1] !== 255 || data[p + 2] !== 255)) drawn++;
            if (data[p] === 0xd9 && data[p + 1] === 0x48 && data[p + 2] === 0x0f) accent++;
            if (data[p] === 0x5f && data[p + 1] === 0x3d && data[p + 2] === 0xc4) arrow++;
          }
          return { drawn, accent, arrow };
        };
        const before = count();
        const within = [];
        for (let x = 0.05; x < 3.5; x += 0.05) within.push(x, 2.2 + Math.exp(-x) + 0.08 * Math.sin(17 * x));
        chart.draw_loss(5, [2.95, 2.5, 2.35], within, [], []);
        const totalOnly = count();
        // The two terms: positive and negative, a pair an epoch and [x, positive, negative] within.
        const terms = within.flatMap((value, i) => (i % 2 === 0 ? [value] : [0.3 * value, 0.7 * value]));
        chart.draw_loss(5, [2.95, 2.5, 2.35], within, [0.9, 2.05, 0.75, 1.75, 0.7, 1.65], terms);
        return { before, totalOnly, after: count(), backing: [canvas.width, canvas.height] };
      });
      assert.deepEqual(loss.backing, [960, 440]);
      assert.equal(loss.before.drawn, 0, 'a new chart is blank');
      assert.ok(loss.after.drawn > 5000, `draw_loss drew only ${loss.after.drawn} pixels`);
      assert.ok(loss.after.accent > 100, 'the epoch losses are drawn in the accent colour');
      assert.equal(loss.totalOnly.arrow, 0, 'no terms, no term lines');
      assert.ok(loss.after.arrow > 100, `the negative term is drawn in the arrow colour: ${loss.after.arrow} pixels`);

      await mkdir(RESULTS, { recursive: true });
      await page.screenshot({ path: join(RESULTS, 'plot.png'), fullPage: true });

      // resize() follows the CSS size.
      const resized = await page.evaluate(() => {
        const canvas = document.getElementById('scatter');
        canvas.style.width = '600px';
        window.scatter.resize();
        const backing = [canvas.width, canvas.height];
        canvas.style.width = '';
        window.scatter.resize();
        return backing;
      });
      assert.deepEqual(resized, [1200, 1040]);

      // The crowded case the page will show: 500 points, the 60 most frequent labelled; a
      // point selected and another hovered, with no lines (so their discs and the hover's
      // ring go through the pixel buffer, not the canvas).
      const crowded = await page.evaluate(drawScatter, {
        n: 500,
        options: { xLabel: 'PC1 (12.3 %)', yLabel: 'PC2 (8.1 %)', labelCount: 60, hovered: 11, selected: 5, neighbours: [], arrows: [], highlighted: [40] },
      });
      assert.ok(crowded.drawnShare > 0.03);
      assert.deepEqual(crowded.selectedPixel.slice(0, 3), ACCENT);
      // The ring shows in the accent colour (at 0.9 over the background) where no label's
      // backdrop lies over it: most of the way round.
      const accentish = ([r, g, b]) => r > 200 && g < 140 && b < 90;
      const onRing = crowded.ring.filter(accentish).length;
      assert.ok(onRing >= 8, `only ${onRing} of 16 pixels round the hovered point are in the accent colour: ${JSON.stringify(crowded.ring)}`);
      // Inside the ring and outside the hovered dot, no accent.
      assert.ok(!accentish(crowded.insideRing), `between the hovered dot and its ring: ${crowded.insideRing}`);
      await page.locator('#scatter').screenshot({ path: join(RESULTS, 'plot-500.png') });

      assert.deepEqual(problems, []);
    }),
  );
});

/**
 * In the page: draws `n` seeded points on #scatter with `options`, renders the chart's SVG
 * of the same map onto a canvas of the same backing size, and returns, for each region of
 * the drawing (the plotting area, the ticks' values and titles left of it and below it), the
 * mean difference in brightness between the two pictures, and that of the canvas against a
 * blank white one (what a region holds at all), in blocks of 8 × 8 pixels.
 */
async function canvasAgainstSvg({ n, options }) {
  const { gaussian } = window.seeded(99);
  const coords = new Float32Array(2 * n);
  for (let i = 0; i < 2 * n; i++) coords[i] = gaussian();
  const canvas = document.getElementById('scatter');
  const chart = new window.Chart(canvas);
  chart.set_words(Array.from({ length: n }, (_, i) => `w${i}`));
  // As the page does: draw again while labels wait to be measured (the SVG measures them all).
  do chart.draw_map(coords, new Uint8Array(0), options); while (chart.labels_deferred());
  const { width, height } = canvas.getBoundingClientRect();
  const svg = chart.map_svg(coords, new Uint8Array(0), options, width, height);
  const image = new Image();
  image.src = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  await image.decode();
  const other = document.createElement('canvas');
  Object.assign(other, { width: canvas.width, height: canvas.height });
  other.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
  const ratio = canvas.width / width;
  const [left, top, right, bottom] = Array.from(chart.plot_frame()).slice(0, 4).map((v) => Math.round(v * ratio));
  const regions = { plot: [left, top, right, bottom], left: [0, top, left - 1, bottom], below: [left, bottom + 1, right, canvas.height] };
  // Each region's brightness in blocks of 8 × 8 pixels: text antialiased a little
  // differently, or a pixel higher, changes a block by little; a missing mark changes it whole.
  const blocks = (c, [x0, y0, x1, y1]) => {
    const { data } = c.getContext('2d').getImageData(x0, y0, x1 - x0, y1 - y0);
    const w = x1 - x0;
    const sums = new Map();
    for (let p = 0; p < data.length; p += 4) {
      const [x, y] = [(p / 4) % w, Math.floor(p / 4 / w)];
      const key = `${Math.floor(x / 8)},${Math.floor(y / 8)}`;
      sums.set(key, (sums.get(key) ?? 0) + (data[p] + data[p + 1] + data[p + 2]) / 3 / 64);
    }
    return [...sums.values()];
  };
  const out = {};
  for (const [name, region] of Object.entries(regions)) {
    const [a, b] = [blocks(canvas, region), blocks(other, region)];
    const mean = (f) => a.reduce((sum, v, i) => sum + f(v, i), 0) / a.length;
    out[name] = { svg: mean((v, i) => Math.abs(v - b[i])), blank: mean((v) => 255 - v) };
  }
  return out;
}

test('the SVG export is the picture on the canvas: frame, ticks, titles, dots and labels', { timeout: 60_000 }, async () => {
  await withDevServer((url) =>
    withChromium({ deviceScaleFactor: 2, viewport: { width: 800, height: 820 } }, async (context) => {
      const { page, problems } = await openPage(context);
      await page.goto(new URL(FIXTURE, url).href);
      await page.waitForSelector('body[data-ready="true"]');
      // A plain map (all of it through the pixel buffer), one with a selection and a hover
      // (their discs and ring through the pixel buffer too), and one with neighbour lines
      // (the backdrops and labels after them through the canvas).
      for (const [name, options] of [
        ['plain', { xLabel: 'PC1', yLabel: 'PC2', labelCount: 300 }],
        ['a selection and a hover', { xLabel: 'PC1', yLabel: 'PC2', labelCount: 300, selected: 3, highlighted: [1, 2], hovered: 7 }],
        ['neighbour lines', { xLabel: 'PC1', yLabel: 'PC2', labelCount: 300, selected: 3, neighbours: [1, 2, 9], hovered: 7 }],
      ]) {
        const regions = await page.evaluate(canvasAgainstSvg, { n: 300, options });
        console.log(`canvas against SVG, ${name}: ${JSON.stringify(regions)}`);
        for (const [name, { svg, blank }] of Object.entries(regions)) {
          assert.ok(blank > 1, `the ${name} region holds a picture (${blank})`);
          // A missing or misplaced frame, dot or label would differ by about as much as the
          // region holds.
          assert.ok(svg < 0.2 * blank, `the ${name} region: SVG differs by ${svg.toFixed(2)} a block, the picture holds ${blank.toFixed(2)}`);
        }
      }
      assert.deepEqual(problems, []);
    }),
  );
});

test('a label new to the map is measured once: for its width and its mask together', { timeout: 60_000 }, async () => {
  await withDevServer((url) =>
    withChromium({ viewport: { width: 800, height: 820 } }, async (context) => {
      const { page, problems } = await openPage(context);
      await page.goto(new URL(FIXTURE, url).href);
      await page.waitForSelector('body[data-ready="true"]');
      const calls = await page.evaluate(() => {
        // Twenty words far apart, so every one is labelled.
        const n = 20;
        const words = Array.from({ length: n }, (_, i) => `word${i}`);
        const coords = new Float32Array(Array.from({ length: n }, (_, i) => [(i % 5) * 10, Math.floor(i / 5) * 10]).flat());
        const chart = new window.Chart(document.getElementById('scatter'));
        chart.set_words(words);
        const range = [-5, 45, -5, 35];
        const measure = CanvasRenderingContext2D.prototype.measureText;
        let count = 0;
        CanvasRenderingContext2D.prototype.measureText = function counted(text) {
          count += 1;
          return measure.call(this, text);
        };
        try {
          // The frame's texts first (ticks, titles), the same in both maps.
          chart.draw_map(coords, new Uint8Array(0), { xLabel: 'x', yLabel: 'y', labelCount: 0, fixedRange: range });
          count = 0;
          chart.draw_map(coords, new Uint8Array(0), { xLabel: 'x', yLabel: 'y', labelCount: n, fixedRange: range });
          const first = { measured: count, labelled: chart.labels_placed() };
          count = 0;
          chart.draw_map(coords, new Uint8Array(0), { xLabel: 'x', yLabel: 'y', labelCount: n, fixedRange: range });
          const again = count;
          // A resize resets the canvas's state, its text alignment with it: the ink measured
          // with the labels' widths no longer fits their masks, which measure their own.
          const canvas = document.getElementById('scatter');
          canvas.style.width = `${canvas.getBoundingClientRect().width - 10}px`;
          chart.resize();
          chart.set_words(words.map((w) => `${w}x`));
          count = 0;
          chart.draw_map(coords, new Uint8Array(0), { xLabel: 'x', yLabel: 'y', labelCount: n, fixedRange: range });
          const resized = count;
          chart.set_words(words.map((w) => `${w}y`));
          count = 0;
          chart.draw_map(coords, new Uint8Array(0), { xLabel: 'x', yLabel: 'y', labelCount: n, fixedRange: range });
          // set_words drops every mask, the frame's texts' too: both draws measure those
          // again; the first also measures each word a second time, for its mask.
          return { ...first, again, measuredAgainAfterResize: resized - count };
        } finally {
          CanvasRenderingContext2D.prototype.measureText = measure;
        }
      });
      assert.deepEqual(calls, { measured: 20, labelled: 20, again: 0, measuredAgainAfterResize: 20 });
      assert.deepEqual(problems, []);
    }),
  );
});

test('a search on a still map starts from the dimmed dots kept from the last search or readied while idle, to the same pixels as drawing them again', { timeout: 60_000 }, async () => {
  await withDevServer((url) =>
    withChromium({ viewport: { width: 800, height: 820 } }, async (context) => {
      const { page, problems } = await openPage(context);
      await page.goto(new URL(FIXTURE, url).href);
      await page.waitForSelector('body[data-ready="true"]');
      const got = await page.evaluate(() => {
        // 30,000 clustered points, enough for the chart to keep their layer.
        const { gaussian } = window.seeded(7);
        const n = 30_000;
        const words = Array.from({ length: n }, (_, i) => `w${i}`);
        const coords = new Float32Array(2 * n);
        for (let i = 0; i < n; i++) {
          coords[2 * i] = (i % 3) + 0.6 * gaussian();
          coords[2 * i + 1] = (i % 2) + 0.5 * gaussian();
        }
        // Two searches: the words of each that do not match are dimmed (254).
        const search = (keep) => Uint8Array.from(words, (_, i) => (keep(i) ? 255 : 254));
        const one = search((i) => i % 7 === 0);
        const other = search((i) => i % 5 === 1);
        const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('scatter'));
        const pixels = () => canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        const options = (range, moving = false, marks = {}) => ({ xLabel: 'x', yLabel: 'y', labelCount: 40, fixedRange: range, moving, ...marks });
        const still = [-1.5, 3.5, -1.5, 2.5];
        const moved = [-1.2, 3.2, -1.4, 2.6];
        const away = [-0.8, 2.8, -1.0, 2.0];
        // The same map drawn by a chart that has drawn nothing before.
        const fresh = (styles, range, marks) => {
          const chart = new window.Chart(canvas);
          chart.set_words(words);
          do chart.draw_map(coords, styles, options(range, false, marks)); while (chart.labels_deferred());
          return pixels();
        };
        const differing = (a, b) => a.reduce((count, v, i) => count + (v !== b[i] ? 1 : 0), 0);
        const chart = new window.Chart(canvas);
        chart.set_words(words);
        const draw = (styles, range, moving, marks) => {
          chart.draw_map(coords, styles, options(range, moving, marks));
          const reused = chart.drew_from_underlay();
          while (chart.labels_deferred()) chart.draw_map(coords, styles, options(range, moving, marks));
          return { reused, pixels: pixels() };
        };
        const none = new Uint8Array(0);
        // Found words drawn emphasised, one hovered: discs over the same dimmed dots.
        const marked = { highlighted: [0, 7, 14], hovered: 21 };
        const steps = [
          ['first search', one, still, false],
          ['another search, same camera', other, still, false],
          ['the first again', one, still, false],
          ['the first with its matches emphasised and one hovered', one, still, false, marked],
          ['the camera moved', one, moved, true],
          ['drawn while moving, then still there', one, moved, false],
          ['no search', none, moved, false],
          ['a search again', other, moved, false],
          ['no search again', none, moved, false],
          ['no search, a word hovered and fewer labelled', none, moved, false, { hovered: 3, labelCount: 10 }],
          ['the camera moved again, no search', none, away, false],
          ['a search there, readied while idle', one, away, false, {}, true],
        ];
        return steps.map(([name, styles, range, moving, marks = {}, ready = false]) => {
          const readied = ready ? chart.prepare_search(coords, options(range, moving, marks)) : null;
          const drawn = draw(styles, range, moving, marks);
          return { name, reused: drawn.reused, readied, differing: differing(drawn.pixels, fresh(styles, range, marks)) };
        });
      });
      assert.deepEqual(
        got.map(({ name, reused }) => [name, reused]),
        [
          ['first search', false],
          ['another search, same camera', true],
          ['the first again', true],
          ['the first with its matches emphasised and one hovered', true],
          ['the camera moved', false],
          // Not kept while moving: the still redraw lays the layer again and keeps it.
          ['drawn while moving, then still there', false],
          ['no search', false],
          // The search's layer and the map's own are both kept.
          ['a search again', true],
          ['no search again', true],
          // Every point's dot first, whatever is labelled or hovered.
          ['no search, a word hovered and fewer labelled', true],
          ['the camera moved again, no search', false],
          ['a search there, readied while idle', true],
        ],
      );
      assert.equal(got.at(-1).readied, true);
      for (const { name, differing } of got) assert.equal(differing, 0, `${name}: ${differing} bytes differ from a fresh drawing`);
      assert.deepEqual(problems, []);
    }),
  );
});
