// The map's redraw cost in Chromium: the wasm Chart draws N seeded points (clusters, word-
// like labels) the way the page's animation does, rasterised before the clock stops, from a point buffer with a fixed camera
// range that moves a little each frame (a glide or a pan), and every word asks for a label.
// Prints the median, 95th percentile and worst of 60 redraws at 1,000 and 10,000 points,
// beside the budgets of issue 11 (4 ms and 16 ms: one display frame). Asserts nothing.
// Usage: node scripts/bench-map.mjs
import { launchChromium, withDevServer } from '../tests/browser/helpers.js';

const SIZES = [[1_000, 4], [10_000, 16]];
const REDRAWS = 60;

async function measure({ n, redraws }) {
  const { gaussian } = window.seeded(7);
  const syllables = ['an', 'ber', 'cor', 'da', 'el', 'fen', 'gal', 'hin', 'is', 'jor', 'ka', 'lem', 'mo', 'nur'];
  const words = Array.from({ length: n }, (_, i) => `${syllables[i % 14]}${syllables[(i * 7) % 13]}${i}`);
  const coords = new Float32Array(2 * n);
  for (let i = 0; i < n; i += 1) {
    const c = i % 9;
    coords[2 * i] = (c % 3) * 3 + gaussian();
    coords[2 * i + 1] = Math.floor(c / 3) * 3 + gaussian();
  }
  const canvas = document.getElementById('scatter');
  const chart = new window.Chart(canvas);
  const context = canvas.getContext('2d');
  chart.set_words(words);
  const styles = new Uint8Array(n).fill(255);
  const times = [];
  let labels = 0;
  // One redraw per display frame, as the page's animation draws: the browser may collect
  // garbage between them, as it does in the page.
  await new Promise((resolve) => {
    const frame = () => {
      const shift = 0.01 * times.length;
      const started = performance.now();
      chart.draw_map(coords, styles, { xLabel: 'PC1', yLabel: 'PC2', labelCount: n, fixedRange: [-3 + shift, 9 + shift, -3, 9] });
      // Reading a pixel makes the canvas carry out the drawing now: without a GPU the
      // raster work would otherwise be done later, outside the measured time.
      context.getImageData(0, 0, 1, 1);
      times.push(performance.now() - started);
      labels = chart.labels_placed();
      if (times.length < redraws) requestAnimationFrame(frame);
      else resolve();
    };
    requestAnimationFrame(frame);
  });
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p95: times[Math.floor(0.95 * times.length)], max: times.at(-1), labels };
}

await withDevServer(async (url) => {
  const browser = await launchChromium({ viewport: { width: 1200, height: 900 } });
  try {
    const page = await browser.context.newPage();
    await page.goto(new URL('tests/browser/fixtures/plot.html', url).href);
    await page.waitForSelector('body[data-ready="true"]');
    // The app's map size: about 960 × 600 CSS pixels (the CSP forbids a style tag, not a style property).
    await page.evaluate(() => Object.assign(document.getElementById('scatter').style, { width: '960px', height: '600px' }));
    for (const [n, budget] of SIZES) {
      const r = await page.evaluate(measure, { n, redraws: REDRAWS });
      console.log(`map redraw, ${n.toLocaleString('en').padStart(6)} points: median ${r.median.toFixed(2)} ms, ` +
        `95th percentile ${r.p95.toFixed(2)} ms, worst ${r.max.toFixed(2)} ms (budget ${budget} ms; ` +
        `median/budget ${(r.median / budget).toFixed(2)}), ${r.labels} labels placed`);
    }
  } finally {
    await browser.close();
  }
});
