// Training on threads in the browser, for `npm run bench`: the King James Bible (whitespace
// tokens, word2vec's defaults, 5 epochs) in a Web Worker in Chromium with the single-threaded
// module on 1 thread, the threaded module on 1 thread and on 2, and with shared noise words
// (`sharedNoise`) the single-threaded module on 1 and the threaded on 2, then a 100 MB text (the KJV
// repeated, written to data/ once) on 2 threads, with its time and peak memory. Each run has
// a fresh Chromium, so memory and caches are its own; the Vite dev server makes the page
// cross-origin isolated, as the app needs for threads. The KJV runs go twice, interleaved,
// and the faster of each counts; the load average is printed beside them. Prints figures;
// asserts nothing.
// Usage: node scripts/bench-threads.mjs [--kjv-only | --big-only] [--json FILE] [CORPUS] [BIG_CORPUS]
// (defaults data/kjv.txt, data/kjv-100mb.txt). --json writes the faster round of each KJV run
// (seconds, the renderer's CPU seconds) for scripts/bench-native.sh, which prints them in one
// table with the native, gensim and fastText rows.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createServer } from 'vite';
import { launchChromium } from '../tests/browser/helpers.js';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const jsonAt = argv.indexOf('--json');
const json = jsonAt >= 0 ? argv[jsonAt + 1] : null;
const positional = argv.filter((a, i) => !a.startsWith('--') && (jsonAt < 0 || i !== jsonAt + 1));
const [corpus = 'data/kjv.txt', big = 'data/kjv-100mb.txt'] = positional;
const runKjv = !flag('--big-only');
const runBig = !flag('--kjv-only');
console.log(`load average before: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} on ${availableParallelism()} cores`);
const BIG_BYTES = 100_000_000;

/** Writes `big` once: `corpus` repeated until it holds at least BIG_BYTES. */
function writeBigCorpus() {
  if (existsSync(big) && statSync(big).size >= BIG_BYTES) return;
  const text = readFileSync(corpus);
  const copies = Math.ceil(BIG_BYTES / text.length);
  writeFileSync(big, Buffer.concat(Array.from({ length: copies }, () => text)));
  console.log(`wrote ${big}: ${copies} copies of ${corpus}, ${statSync(big).size.toLocaleString('en')} bytes`);
}

/**
 * The peak resident memory (VmHWM, bytes) and the CPU time so far (user + system, seconds)
 * of the Chromium processes started with `profile`, by process type.
 */
function processFigures(profile) {
  const peaks = {};
  const cpu = {};
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes(profile)) continue;
      const type = cmdline.match(/--type=([a-z-]+)/)?.[1] ?? 'browser';
      const kb = Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/)[1]);
      peaks[type] = Math.max(peaks[type] ?? 0, kb * 1024);
      // Fields 14 and 15 of /proc/PID/stat, after the command name in parentheses, in clock ticks (100 a second here).
      const [utime, stime] = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ').slice(11, 13).map(Number);
      cpu[type] = (cpu[type] ?? 0) + (utime + stime) / 100;
    } catch {
      // The process ended meanwhile.
    }
  }
  return { peaks, cpu };
}

/**
 * One training run in a fresh Chromium: `module` 'single' or 'threaded' on `threads` threads,
 * skip-gram with noise words drawn once a pair or, with `sharedNoise`, once a window.
 */
async function run(port, corpusPath, module, threads, sharedNoise = false) {
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    const query = new URLSearchParams({ bench: 'threads', corpus: `/${corpusPath}`, module, threads: String(threads), epochs: '5', sharedNoise: String(sharedNoise) });
    await page.goto(`http://localhost:${port}/tests/bench/browser.html?${query}`);
    await page.waitForSelector('body[data-done="true"]', { timeout: 1_800_000 });
    const result = JSON.parse(await page.textContent('#result'));
    if (result.error) throw new Error(result.error);
    return { ...result, ...processFigures(browser.profile) };
  } finally {
    await browser.close();
  }
}

const mb = (bytes) => `${Math.round(bytes / 2 ** 20).toLocaleString('en')} MB`;
const server = await createServer({ logLevel: 'error', server: { port: 0, strictPort: false } });
await server.listen();
const { port } = server.httpServer.address();
try {
  if (runKjv) await kjvRuns();
  if (runBig) await bigRun();
  console.log(`load average after: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
} finally {
  await server.close();
}

/** The KJV on 1 and 2 threads, two rounds, the faster of each. */
async function kjvRuns() {
  // Two rounds, the three runs interleaved, and the faster of each: on a shared machine a
  // run's time also measures what else ran meanwhile.
  // The last two: shared noise words (`--shared-noise`), a run of its own on each module.
  const configs = [['single', 1, false], ['threaded', 1, false], ['threaded', 2, false], ['single', 1, true], ['threaded', 2, true]];
  const shared = (sharedNoise) => (sharedNoise ? ', shared noise' : '');
  const best = configs.map(() => null);
  for (let round = 0; round < 2; round++) {
    for (const [i, [module, threads, sharedNoise]] of configs.entries()) {
      const r = await run(port, corpus, module, threads, sharedNoise);
      console.log(`  round ${round + 1}: ${module} module, ${threads} thread(s)${shared(sharedNoise)}: ${r.seconds.toFixed(2)} s `
        + `(the renderer's CPU time, page and workers, all of the run: ${r.cpu.renderer?.toFixed(1)} s)`);
      if (!best[i] || r.seconds < best[i].seconds) best[i] = r;
    }
  }
  const rows = [];
  for (const [i, [module, threads, sharedNoise]] of configs.entries()) {
    const r = best[i];
    const words = r.stats.tokens * r.epochLosses.length;
    rows.push({ module, threads, seconds: r.seconds });
    console.log(`browser, ${module === 'single' ? 'single-threaded module' : 'threaded module'}, ${threads} ${threads === 1 ? 'thread ' : 'threads'}${shared(sharedNoise)}`.padEnd(66)
      + `${r.seconds.toFixed(2).padStart(7)} s ${Math.round(words / r.seconds).toLocaleString('en').padStart(10)} corpus words/s`
      + `   (pool ${r.poolThreads}, ${r.working} threads working; epoch losses ${r.epochLosses.map((l) => l.toFixed(4)).join(' ')})`);
  }
  const [single, threaded1, threaded2, shared1, shared2] = rows.map((r) => r.seconds);
  console.log(`browser 2 threads / 1 thread (single-threaded module): ${(single / threaded2).toFixed(2)}x (target at least 1.7x)`);
  console.log(`browser 2 threads / 1 thread (threaded module): ${(threaded1 / threaded2).toFixed(2)}x; `
    + `threaded module on 1 thread / single-threaded module: ${(single / threaded1).toFixed(2)} of its speed`);
  console.log(`shared noise: 2 threads / 1 thread: ${(shared1 / shared2).toFixed(2)}x; `
    + `1 thread against per-pair noise words: ${(single / shared1).toFixed(2)}x`);
  if (json) {
    const figures = (i) => ({ seconds: best[i].seconds, cpu: best[i].cpu.renderer ?? 0 });
    writeFileSync(json, JSON.stringify({
      single1: figures(0), threaded1: figures(1), threaded2: figures(2), shared1: figures(3), shared2: figures(4),
    }));
  }
}

/** The 100 MB text on 2 threads: time and peak memory. */
async function bigRun() {
  writeBigCorpus();
  const r = await run(port, big, 'threaded', 2);
  const words = r.stats.tokens * r.epochLosses.length;
  console.log(`${big} (${mb(r.stats.bytes)}, ${r.stats.tokens.toLocaleString('en')} words, ${r.stats.vocabSize.toLocaleString('en')} in the vocabulary), `
    + `threaded module, 2 threads, 5 epochs: read and prepared in ${r.prepareSeconds.toFixed(1)} s, trained in ${r.seconds.toFixed(1)} s `
    + `(${Math.round(words / r.seconds).toLocaleString('en')} corpus words/s); epoch losses ${r.epochLosses.map((l) => l.toFixed(4)).join(' ')}`);
  console.log(`peak memory: wasm memory ${mb(r.wasmMemory)}; Chromium's renderer process (page and workers) ${mb(r.peaks.renderer ?? 0)} resident at its peak`);
}
