// The worker's t-SNE and UMAP maps, measured in Chromium: time to a finished map of 5,000
// words of King James Bible vectors (trained here, 1 epoch, dim 100), the longest slice
// (the longest wait of a `neighbours` request sent every 20 ms while the map runs), frames
// with rising iterations, and whether a 20,000-word map (generated vectors) fits in memory.
// Usage: node scripts/bench-layout.mjs   (needs www/pkg built and data/kjv.txt)
import { withChromium, withDevServer } from '../tests/browser/helpers.js';

const DEFAULTS = {
  tokenizer: 'whitespace', lowercase: true, dim: 100, window: 5, negative: 5, sample: 0.001, minCount: 5,
  maxVocab: null, epochs: 1, alpha: 0.025, minAlpha: 0.0001, nsExponent: 0.75, seed: 1, keepPunctuation: false,
};

await withDevServer((url) => withChromium({}, async (context) => {
  const page = await context.newPage();
  page.on('console', (m) => console.log('page:', m.text()));
  await page.goto(`${url}tests/bench/browser.html`);
  const result = await page.evaluate(async (params) => {
    const worker = new Worker('/www/worker.js', { type: 'module' });
    let next = 1;
    const waiting = new Map();
    const frames = [];
    worker.onmessage = ({ data }) => {
      if (data.type === 'projection') frames.push({ at: performance.now(), id: data.id, method: data.method, ...data.layoutProgress, n: data.words.length, label: data.axisLabels[0] });
      const w = waiting.get(data.id);
      if (w && data.id != null) {
        waiting.delete(data.id);
        if (data.type === 'error') w.reject(new Error(data.message)); else w.resolve(data);
      }
    };
    await new Promise((resolve) => worker.addEventListener('message', ({ data }) => data.type === 'ready' && resolve(), { once: false }));
    const ask = (request) => new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
    const out = {};
    const memory = () => (performance.memory ? Math.round(performance.memory.usedJSHeapSize / 1e6) : null);

    // A map run to its end while a neighbours request goes out every 20 ms.
    async function measure(method, nWords, layout = {}) {
      const started = performance.now();
      frames.length = 0;
      const first = ask({ type: 'project', view: { nWords, xComponent: 0, yComponent: 1, extraWords: [], method, layout } });
      let worst = 0, asked = 0, firstAt = null;
      first.then(() => { firstAt = performance.now() - started; });
      while (!frames.some((f) => f.done)) {
        const t = performance.now();
        await ask({ type: 'neighbours', word: 'the', k: 5 }).catch(() => ask({ type: 'neighbours', word: 'w0', k: 5 }));
        worst = Math.max(worst, performance.now() - t);
        asked++;
        await new Promise((r) => setTimeout(r, 20));
      }
      const layoutFrames = frames.filter((f) => f.method === method);
      const rising = layoutFrames.every((f, i) => i === 0 || f.iteration >= layoutFrames[i - 1].iteration);
      const gaps = layoutFrames.slice(1).map((f, i) => f.at - layoutFrames[i].at);
      return {
        method, nWords: layoutFrames[0]?.n, totalMs: Math.round(performance.now() - started), firstFrameMs: Math.round(firstAt),
        frames: layoutFrames.length, rising, lastIteration: layoutFrames.at(-1)?.iteration, label: layoutFrames[0]?.label,
        maxFrameGapMs: Math.round(Math.max(...gaps)), worstNeighboursMs: Math.round(worst), neighboursAsked: asked,
      };
    }

    const t0 = performance.now();
    await ask({ type: 'prepare', source: { kind: 'url', name: 'kjv', url: '/data/kjv.txt' }, params });
    await new Promise((resolve) => {
      const listener = ({ data }) => { if (data.type === 'state' && data.state === 'done') { worker.removeEventListener('message', listener); resolve(); } };
      worker.addEventListener('message', listener);
      worker.postMessage({ type: 'train', id: next++ });
    });
    out.trainMs = Math.round(performance.now() - t0);
    out.tsne5000 = await measure('tsne', 5000);
    out.umap5000 = await measure('umap', 5000);
    // Too few words: the core's error, at once.
    const t1 = performance.now();
    out.tooFew = await ask({ type: 'project', view: { nWords: 50, method: 'tsne', layout: { perplexity: 30 } } }).then(() => 'no error', (e) => e.message);
    out.tooFewMs = Math.round(performance.now() - t1);

    // 20,000 generated words of dim 100 as a word2vec text file.
    const lines = ['20000 100'];
    let s = 7;
    const rnd = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 - 0.5; };
    for (let i = 0; i < 20000; i++) {
      const v = Array.from({ length: 100 }, (_, t) => (rnd() + (t === i % 97 ? 2 : 0)).toFixed(4));
      lines.push(`w${i} ${v.join(' ')}`);
    }
    const file = new File([lines.join('\n') + '\n'], 'big.txt');
    await ask({ type: 'openFiles', files: [file] });
    out.tsne20000 = await measure('tsne', 20000, { iterations: 300 });
    out.umap20000 = await measure('umap', 20000);
    out.heapMb = memory();
    worker.terminate();
    return out;
  }, DEFAULTS);
  console.log(JSON.stringify(result, null, 2));
}));
