// The worker's t-SNE and UMAP maps, measured in Chromium: time to a finished map of 5,000
// words of King James Bible vectors (trained here, 1 epoch, dim 100) and of 20,000 generated
// words; the waits of a `neighbours` request sent every 20 ms while the map runs (worst and
// 95th percentile); inside the worker (its dev-server `layoutSlices` hook), the longest turn
// of its layout loop (a slice plus the frame it posts), the longest slice against the slice
// budget (LAYOUT_SLICE_MS) and the longest first slice of a phase, and the longest frame post;
// frames with rising iterations; and whether the 20,000-word maps fit in memory.
//
// Then the same for 50,000 generated words, every iteration (over 20,000 words the neighbours
// are NN-descent's).
//
// Usage: node scripts/bench-layout.mjs [--baseline DIR] [--rounds N]   (needs www/pkg and
// www/pkg-threads built, and data/kjv.txt)
// --baseline DIR runs everything again with the worker of DIR, a copy of www/ from another
// commit inside the project (e.g. `cp -r www target/bench-baseline/www` at that commit, with
// its pkg and pkg-threads built), and prints both side by side: one browser, one load.
// --rounds N runs each tree N times, alternating, the baseline first.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { withChromium, withDevServer } from '../tests/browser/helpers.js';

const DEFAULTS = {
  tokenizer: 'whitespace', lowercase: true, dim: 100, window: 5, negative: 5, sample: 0.001, minCount: 5,
  maxVocab: null, epochs: 1, alpha: 0.025, minAlpha: 0.0001, nsExponent: 0.75, seed: 1, keepPunctuation: false,
};
/** The worker's slice budget (www/worker/worker.js LAYOUT_SLICE_MS = CHUNK_MS / 2). */
const SLICE_BUDGET_MS = 25;

const option = (name) => { const at = process.argv.indexOf(name); return at >= 0 ? process.argv[at + 1] : null; };
const baseline = option('--baseline')?.replace(/^\.?\/?/, '').replace(/\/$/, '') ?? null;
/** Runs of each tree, alternating (the baseline first: the first suite of a browser runs slower). */
const rounds = Number(option('--rounds') ?? 1);

/** Runs every measurement with the worker at `workerUrl`, in a fresh worker. */
async function suite(page, workerUrl) {
  return page.evaluate(async ({ params, workerUrl, budgetMs }) => {
    const worker = new Worker(workerUrl, { type: 'module' });
    let next = 1;
    const waiting = new Map();
    const frames = [];
    worker.onmessage = ({ data }) => {
      if (data.type === 'projection') {
        frames.push({ at: performance.now(), method: data.method, ...data.layoutProgress, n: data.coords.length / 2, withWords: Array.isArray(data.words) });
      }
      const w = waiting.get(data.id);
      if (w && data.id != null) {
        waiting.delete(data.id);
        if (data.type === 'error') w.reject(new Error(data.message)); else w.resolve(data);
      }
    };
    await new Promise((resolve) => worker.addEventListener('message', ({ data }) => data.type === 'ready' && resolve()));
    const ask = (request) => new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
    // A worker from before the hook answers with an error: no slice figures for it.
    const slices = () => ask({ type: 'layoutSlices' }).then((r) => r.slices, () => null);
    const out = {};
    const memory = () => (performance.memory ? Math.round(performance.memory.usedJSHeapSize / 1e6) : null);
    const max = (xs, f) => xs.reduce((m, x) => (f(x) > f(m) ? x : m), xs[0]);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

    // A map run to its end while a neighbours request goes out every 20 ms.
    async function measure(method, nWords, word, layout = {}) {
      await slices();
      const started = performance.now();
      frames.length = 0;
      const first = ask({ type: 'project', mapSpec: { nWords, xComponent: 0, yComponent: 1, extraWords: [], method, layout } });
      let firstAt = null;
      first.then(() => { firstAt = performance.now() - started; });
      const waits = [];
      while (!frames.some((f) => f.done)) {
        const t = performance.now();
        await ask({ type: 'neighbours', word, k: 5 });
        waits.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      }
      const totalMs = performance.now() - started;
      const layoutFrames = frames.filter((f) => f.method === method);
      const gaps = layoutFrames.slice(1).map((f, i) => f.at - layoutFrames[i].at);
      waits.sort((a, b) => a - b);
      const result = {
        method, nWords: layoutFrames[0]?.n, totalMs: Math.round(totalMs), firstFrameMs: Math.round(firstAt),
        frames: layoutFrames.length, framesWithWords: layoutFrames.filter((f) => f.withWords).length,
        rising: layoutFrames.every((f, i) => i === 0 || f.iteration >= layoutFrames[i - 1].iteration),
        lastIteration: layoutFrames.at(-1)?.iteration, maxFrameGapMs: Math.round(Math.max(...gaps)),
        worstWaitMs: Math.round(waits.at(-1)), p95WaitMs: Math.round(waits[Math.floor(0.95 * (waits.length - 1))]),
        asked: waits.length,
      };
      const log = await slices();
      if (log?.length) {
        const turn = max(log, (s) => s.sliceMs + s.frameMs);
        const slice = max(log, (s) => s.sliceMs);
        const firsts = log.filter((s) => s.first);
        const firstSlice = max(firsts, (s) => s.sliceMs);
        const framed = log.filter((s) => s.posted);
        const frame = framed.length ? max(framed, (s) => s.frameMs) : null;
        const round = (x) => Math.round(10 * x) / 10;
        Object.assign(result, {
          turns: log.length,
          longestTurnMs: round(turn.sliceMs + turn.frameMs), longestTurnPhase: turn.phase,
          longestSliceMs: round(slice.sliceMs), longestSlicePhase: `${slice.phase}${slice.first ? ' (first)' : ''}${slice.ended ? ' (ended it)' : ''}`,
          // Where its time went: in how many pieces, the longest of them against what its rate foretold.
          longestSlicePieces: slice.pieces == null ? null
            : `${slice.pieces} pieces, longest ${round(slice.longestPieceMs)} ms, expected ${slice.longestExpectedMs == null ? '–' : round(slice.longestExpectedMs)}`,
          slicesOver2x: log.filter((s) => s.sliceMs > 2 * budgetMs).length,
          meanLayoutSliceMs: round(mean(log.filter((s) => s.phase === 'layout').map((s) => s.sliceMs))),
          meanPieces: log[0].pieces == null ? null : round(mean(log.map((s) => s.pieces))),
          longestFirstSliceMs: round(firstSlice.sliceMs), longestFirstSlicePhase: firstSlice.phase,
          longestFrameMs: frame ? round(frame.frameMs) : 0,
          medianFrameMs: framed.length ? round(framed.map((s) => s.frameMs).sort((a, b) => a - b)[framed.length >> 1]) : 0,
        });
      }
      return result;
    }

    const t0 = performance.now();
    await ask({ type: 'prepare', source: { kind: 'url', name: 'kjv', url: '/data/kjv.txt' }, params });
    await new Promise((resolve) => {
      const listener = ({ data }) => { if (data.type === 'state' && data.state === 'done') { worker.removeEventListener('message', listener); resolve(); } };
      worker.addEventListener('message', listener);
      worker.postMessage({ type: 'train', id: next++ });
    });
    out.trainMs = Math.round(performance.now() - t0);
    out.tsne5000 = await measure('tsne', 5000, 'the');
    out.umap5000 = await measure('umap', 5000, 'the');
    // Too few words: the core's error, at once.
    const t1 = performance.now();
    out.tooFew = await ask({ type: 'project', mapSpec: { nWords: 50, extraWords: [], method: 'tsne', layout: { perplexity: 30 } } }).then(() => 'no error', (e) => e.message);
    out.tooFewMs = Math.round(performance.now() - t1);

    // Generated words of dim 100 as a word2vec text file: 97 clusters, word i in cluster i % 97.
    const generated = (n) => {
      const lines = [`${n} 100`];
      let s = 7;
      const rnd = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648 - 0.5; };
      for (let i = 0; i < n; i++) {
        const v = Array.from({ length: 100 }, (_, t) => (rnd() + (t === i % 97 ? 2 : 0)).toFixed(4));
        lines.push(`w${i} ${v.join(' ')}`);
      }
      return new File([`${lines.join('\n')}\n`], 'big.txt');
    };
    await ask({ type: 'openFiles', files: [generated(20000)] });
    out.tsne20000 = await measure('tsne', 20000, 'w0', { iterations: 300 });
    out.umap20000 = await measure('umap', 20000, 'w0');
    // 50,000 words: the approximate neighbours (NN-descent) and every iteration.
    await ask({ type: 'openFiles', files: [generated(50000)] });
    out.tsne50000 = await measure('tsne', 50000, 'w0');
    out.umap50000 = await measure('umap', 50000, 'w0');
    out.heapMb = memory();
    worker.terminate();
    return out;
  }, { params: DEFAULTS, workerUrl, budgetMs: SLICE_BUDGET_MS });
}

const CASES = ['tsne5000', 'umap5000', 'tsne20000', 'umap20000', 'tsne50000', 'umap50000'];
const FIGURES = [
  ['worstWaitMs', 'worst wait of a query, ms'],
  ['p95WaitMs', '95th percentile wait, ms'],
  ['longestTurnMs', 'longest turn (slice + frame), ms'],
  ['longestSliceMs', `longest slice, ms (budget ${SLICE_BUDGET_MS})`],
  ['slicesOver2x', `slices over twice the budget`],
  ['longestFirstSliceMs', 'longest first slice of a phase, ms'],
  ['meanLayoutSliceMs', 'mean slice moving the points, ms'],
  ['meanPieces', 'mean pieces a slice'],
  ['turns', 'turns of the layout loop'],
  ['longestFrameMs', 'longest frame post, ms'],
  ['medianFrameMs', 'median frame post, ms'],
  ['framesWithWords', 'frames carrying their words'],
  ['frames', 'frames'],
  ['firstFrameMs', 'time to the first frame, ms'],
  ['totalMs', 'time to the finished map, ms'],
];

await withDevServer((url) => withChromium({}, async (context) => {
  const page = await context.newPage();
  page.on('console', (m) => console.log('page:', m.text()));
  await page.goto(`${url}tests/bench/browser.html`);
  const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
  // The worker's entry is www/worker/worker.js; a copy of an older www/ has it at its top.
  const baselineWorker = baseline && (existsSync(`${baseline}/worker/worker.js`) ? `/${baseline}/worker/worker.js` : `/${baseline}/worker.js`);
  const trees = [...(baseline ? [{ name: baseline, url: baselineWorker }] : []), { name: 'this tree', url: '/www/worker/worker.js' }];
  const results = [];
  for (let round = 1; round <= rounds; round += 1) {
    for (const tree of trees) {
      const before = load();
      const result = await suite(page, tree.url);
      results.push({ ...tree, round, load: `${before} → ${load()}`, result });
      console.log(`${tree.name}, run ${round}:`, JSON.stringify(result, null, 2));
    }
  }
  console.log('\nLoad average (1, 5, 15 min) before → after each run:');
  for (const r of results) console.log(`  ${r.name}, run ${r.round}: ${r.load}`);
  console.log(`\nColumns: ${results.map((r) => `${r.name} (run ${r.round})`).join(', ')}${baseline ? `; the ratio is this tree's mean over ${baseline}'s` : ''}.`);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  for (const c of CASES) {
    console.log(`\n${c}:`);
    for (const [key, label] of FIGURES) {
      const values = results.map((r) => r.result[c]?.[key]);
      if (values.every((v) => v == null)) continue;
      const cells = values.map((v) => String(v ?? '–').padStart(9)).join(' ');
      const of = (name) => results.filter((r) => r.name === name).map((r) => r.result[c]?.[key]).filter((v) => typeof v === 'number');
      const [ours, theirs] = [of('this tree'), baseline ? of(baseline) : []];
      const ratio = ours.length && theirs.length && mean(theirs) > 0 ? `   ×${(mean(ours) / mean(theirs)).toFixed(2)}` : '';
      const phase = key === 'longestSliceMs'
        ? `   (${results.map((r) => [r.result[c]?.longestSlicePhase, r.result[c]?.longestSlicePieces].filter(Boolean).join(': ') || '–').join(' / ')})`
        : '';
      console.log(`  ${label.padEnd(40)}${cells}${ratio}${phase}`);
    }
  }
}));
