// Shared by the browser tests: a free port, Chromium in a throwaway profile, the Vite dev
// server, and a page that collects everything that went wrong.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { createServer } from 'vite';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const RESULTS = 'test-results';

/** The package's own version, the first `version =` in Cargo.toml, which `version()` returns. */
export async function crateVersion() {
  return (await readFile('Cargo.toml', 'utf8')).match(/^version\s*=\s*"([^"]+)"/m)[1];
}

/** A port nobody listens on right now, so parallel runs and a running `npm start` don't clash. */
export async function freePort() {
  const server = createNetServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts Chromium with a fresh profile (`profile`, its directory, names its processes);
 * `close()` ends it and removes the profile.
 * `options` go to playwright's launchPersistentContext (e.g. `deviceScaleFactor`, `viewport`).
 * @returns {Promise<{context: import('playwright-core').BrowserContext, profile: string, close: () => Promise<void>}>}
 */
export async function launchChromium(options = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'embedscope-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
    ...options,
  });
  return {
    context,
    profile,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Runs `use(context)` with Chromium in a fresh profile (see `launchChromium`), then closes it. */
export async function withChromium(options, use) {
  const { context, close } = await launchChromium(options);
  try {
    return await use(context);
  } finally {
    await close();
  }
}

/** Runs `use(url)` with the Vite dev server serving the project root, then stops it. */
export async function withDevServer(use) {
  const server = await createServer({
    logLevel: 'warn',
    server: { host: '127.0.0.1', port: await freePort(), strictPort: true },
  });
  await server.listen();
  try {
    return await use(server.resolvedUrls.local[0]);
  } finally {
    await server.close();
  }
}

/**
 * Collects every console error (the page's console also carries its workers'), uncaught
 * exception, failed request and HTTP error of `page`, in one list.
 */
export function collectProblems(page) {
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    problems.push(`uncaught: ${error.message}`);
    // Where it was thrown, for the person reading a failed run.
    console.error(`uncaught in the page: ${error.stack}`);
  });
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return problems;
}

/** The context's page, with `problems` (see `collectProblems`). */
export async function openPage(context) {
  const page = context.pages()[0] ?? (await context.newPage());
  return { page, problems: collectProblems(page) };
}

/**
 * The explorer's test files share this: in node:test's `before` it starts the Vite dev
 * server on a free port and Chromium (downloads allowed, a 1400 × 1000 viewport), and stops
 * both in `after`. `openExplorer(prepare)` opens a fresh tab on the explorer, runs
 * `prepare(page)` before it loads, and waits for its worker; `problems` collects what went
 * wrong in that tab (see `collectProblems`). A file's own `before` hook that opens a tab
 * awaits `suite.ready` first: node:test does not order `before` hooks for us.
 * @param {{before: Function, after: Function}} hooks  node:test's `before` and `after`
 */
export function explorerSuite({ before, after }) {
  let started;
  const suite = {
    server: null,
    browser: null,
    /** Resolves once the server and Chromium run (for a file's own `before` hooks). */
    ready: new Promise((resolve) => { started = resolve; }),
    /** The explorer's address on the dev server. */
    url: () => suite.server.resolvedUrls.local[0],
    async openExplorer(prepare = async () => {}) {
      const page = await suite.browser.context.newPage();
      const problems = collectProblems(page);
      await prepare(page);
      await page.goto(suite.url());
      await page.waitForSelector('#worker-status[data-state="ready"]');
      return { page, problems };
    },
  };
  before(async () => {
    suite.server = await createServer({
      logLevel: 'warn',
      server: { host: '127.0.0.1', port: await freePort(), strictPort: true },
    });
    await suite.server.listen();
    suite.browser = await launchChromium({ acceptDownloads: true, viewport: { width: 1400, height: 1000 } });
    await mkdir(RESULTS, { recursive: true });
    started();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}

// The controls of the explorer by role and accessible name, as a person finds them.
export const button = (page, name) => page.getByRole('button', { name, exact: true });
export const field = (page, name) => page.getByRole('textbox', { name, exact: true });
export const combobox = (page, name) => page.getByRole('combobox', { name, exact: true });
/** The map's canvas, an image named for what it shows and how to use it. */
export const mapCanvas = (page) => page.getByRole('img', { name: /^Map of the words/ });
/** The loss chart's canvas, an image named for the losses it shows ("Loss per epoch: 1: 2.3321, …"). */
export const lossChart = (page) => page.getByRole('img', { name: /^Loss per epoch/ });
/** A statistic of the opened text or vectors, by its term ("Vocabulary", "Lines", …). */
export const stat = (page, name) => page.locator(`[data-stat="${name}"]`);

/**
 * Numbers in [0, 1) from `seed`, the same on every run: mulberry32, in 32-bit integer steps (a
 * multiplication in doubles would lose bits).
 * @param {number} seed @returns {() => number}
 */
export function seededRandom(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A word2vec text file of `n` words in 12 seeded clusters of `dim` dimensions (word i is `v`
 * and i in base 36): whole vocabularies for the map's tests and benchmark.
 */
export function clusteredVectorsText(n, dim) {
  const next = seededRandom(11);
  const centres = Array.from({ length: 12 }, () => Array.from({ length: dim }, () => 4 * next() - 2));
  const lines = [`${n} ${dim}`];
  for (let i = 0; i < n; i += 1) {
    const values = centres[i % centres.length].map((c) => (c + next() + next() - 1).toFixed(4));
    lines.push(`v${i.toString(36)} ${values.join(' ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Waits until the map's legend (the list named "Colours") lists exactly `n` clusters, and
 * returns their lines. Exactly: a legend still showing more clusters (k lowered) must not pass.
 */
export async function legendClusters(page, n, timeout = 20_000) {
  const entries = page.getByRole('list', { name: 'Colours' }).getByRole('listitem').filter({ hasText: /^cluster \d+: / });
  const deadline = Date.now() + timeout;
  for (;;) {
    const lines = await entries.allTextContents();
    if (lines.length === n) return lines;
    if (Date.now() > deadline) throw new Error(`the legend lists ${lines.length} clusters, not ${n}: ${lines.join(' | ')}`);
    await page.waitForTimeout(50);
  }
}

/** Waits until training has finished (the progress line starts with "Done."). */
export async function waitUntilDone(page, timeout = 60_000) {
  await page.waitForFunction(() => document.getElementById('progress-text').textContent.startsWith('Done.'), null, { timeout });
}

/** Starts tracing every task of the page's renderer (the `toplevel` category). */
export async function startTrace(cdp) {
  await cdp.send('Tracing.start', { categories: 'toplevel', transferMode: 'ReturnAsStream' });
}

/**
 * Ends the trace and returns the tasks of the renderer's main thread (`CrRendererMain`),
 * each with its wall-clock and its thread (CPU) time in ms.
 */
export async function endTrace(cdp) {
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  const { stream } = await complete;
  const chunks = [];
  for (;;) {
    const { data, eof, base64Encoded } = await cdp.send('IO.read', { handle: stream, size: 1 << 22 });
    chunks.push(base64Encoded ? Buffer.from(data, 'base64').toString('utf8') : data);
    if (eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(chunks.join(''));
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const main = new Set(events
    .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
    .map((e) => `${e.pid}:${e.tid}`));
  return events
    // A task is one complete event, named 'RunTask' or, in newer Chromium, 'ThreadControllerImpl::RunTask'.
    .filter((e) => /(^|::)RunTask$/.test(e.name) && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`))
    // Without thread time (a platform that lacks it) a task counts by its wall-clock length.
    .map((e) => ({ wallMs: e.dur / 1000, cpuMs: (e.tdur ?? e.dur) / 1000, threadTimed: e.tdur != null }));
}

/**
 * Waits until the map has stopped moving (no glide, no easing, no redraw pending). The page
 * shows no sign of it but the canvas, so this asks the map itself.
 */
export async function settleMap(page) {
  await page.waitForTimeout(100);
  await page.waitForFunction(() => {
    const map = window.explorer.view.map;
    const now = performance.now();
    return !map.pending && !map.glide.moving(now) && !map.camera.easing(now);
  });
}

/** Opens the built-in sample, trains it to the end (`epochs`, else the form's) and waits for the map to settle. */
export async function trainSampleOnMap(page, { epochs } = {}) {
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  if (epochs) {
    await showParameters(page);
    await field(page, 'Epochs').fill(String(epochs));
  }
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await settleMap(page);
}

/** Opens the Parameters disclosure (closed on landing) so its fields can be read and filled. */
export async function showParameters(page) {
  const panel = page.locator('#params-panel');
  if (!(await panel.evaluate((details) => details.open))) await page.getByText('Parameters', { exact: true }).click();
}

/** Opens `file` on the evaluation card, presses Evaluate and returns the result's message. */
export async function evaluateFile(page, file) {
  // Clear the last result, so the wait below sees this file's.
  await page.locator('#evaluation-message').evaluate((message) => { message.textContent = ''; });
  await page.getByLabel('Open a benchmark file…').setInputFiles(file);
  await button(page, 'Evaluate').click();
  const message = page.locator('#evaluation-message', { hasText: /^(Spearman|3CosAdd|Cannot evaluate)/ });
  await message.waitFor();
  return message.textContent();
}

/** Collects every "Reading vectors" text of the progress line from now on; `readings(page)` returns them. */
export async function watchReadings(page) {
  await page.evaluate(() => {
    window.readingTexts = new Set();
    const text = document.getElementById('progress-text');
    new MutationObserver(() => {
      if (text.textContent.startsWith('Reading vectors')) window.readingTexts.add(text.textContent);
    }).observe(text, { childList: true, characterData: true, subtree: true });
  });
}

/** The texts `watchReadings` collected. @returns {Promise<string[]>} */
export const readings = (page) => page.evaluate(() => [...window.readingTexts]);

/** 20,000 words × 100 values with 6 decimals in word2vec text: about 19 MB, five 4 MB slices. */
export function largeVectorsText() {
  const lines = ['20000 100'];
  for (let i = 0; i < 20_000; i++) {
    lines.push(`w${i} ${Array.from({ length: 100 }, (_, j) => (Math.sin(i * 100 + j) / 2).toFixed(6)).join(' ')}`);
  }
  return `${lines.join('\n')}\n`;
}
