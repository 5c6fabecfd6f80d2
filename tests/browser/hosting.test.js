// The production build as a static host serves it: `vite build` (what `npm run build` runs)
// into a folder of its own, checked for the test hooks the dev server has, then served by a
// plain file server (no COOP/COEP, no CSP header, no fallback to index.html) and used in
// Chromium: it loads, trains the built-in sample on one thread (the single-threaded module,
// since shared memory needs cross-origin isolation) and says why, logs no error and no
// request fails.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { build } from 'vite';
import { button, crateVersion, freePort, launchChromium, openPage, stat, waitUntilDone, showParameters } from './helpers.js';

/** The types a stock static server (nginx, `python3 -m http.server`) gives these files. */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** Serves the files under `root` as they are, and 404 for anything else. */
function staticServer(root) {
  return createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://host').pathname);
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    try {
      if (!file.startsWith(root)) throw new Error('outside the root');
      const body = await readFile(file);
      response.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('not found');
    }
  });
}

let dist;
before(async () => {
  // A folder of its own, so a smoke test building dist/ at the same time cannot clash.
  dist = await mkdtemp(join(tmpdir(), 'embedscope-dist-'));
  await build({ logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } });
});
after(async () => {
  await rm(dist, { recursive: true, force: true });
});

/** Every file of the build, as `{name, bytes}`. */
async function builtFiles() {
  const names = await readdir(dist, { recursive: true, withFileTypes: true });
  return Promise.all(names.filter((entry) => entry.isFile()).map(async (entry) => {
    const name = join(entry.parentPath ?? entry.path, entry.name);
    return { name: name.slice(dist.length + 1), bytes: await readFile(name) };
  }));
}

test('the production build holds none of the test hooks the dev server has', async () => {
  const files = await builtFiles();
  const scripts = files.filter(({ name }) => name.endsWith('.js'));
  const modules = files.filter(({ name }) => name.endsWith('.wasm'));
  assert.ok(scripts.some(({ name }) => /worker/.test(name)), 'the worker is among the scripts looked at');
  assert.ok(modules.length > 0, 'the wasm module is among the files looked at');
  for (const { name, bytes } of scripts) {
    const text = bytes.toString('utf8');
    // window.explorer (www/app/main.js), the testPanic request (www/worker/worker.js), panic_for_test (the glue).
    for (const hook of ['explorer', 'testPanic', '_for_test']) {
      assert.equal(text.includes(hook), false, `${name} mentions ${hook}`);
    }
  }
  for (const { name, bytes } of modules) {
    const exports = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
    assert.ok(exports.includes('session_new'), `${name}: the module's own exports are read`);
    // panic_for_test, and any later hook named like it (vite.config.js strips them by name).
    assert.deepEqual(exports.filter((e) => /_for_test$/.test(e)), [], `${name} exports test hooks`);
  }
});

test('dist/ from a plain static file server: loads, trains the sample, no errors, no failed requests', { timeout: 120_000 }, async () => {
  const server = staticServer(dist);
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { context, close } = await launchChromium();
  try {
    const { page, problems } = await openPage(context);
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForSelector('#worker-status:not([data-state="loading"])');
    assert.equal(await page.locator('#worker-status').textContent(), `Worker ready: embedscope ${await crateVersion()}`);
    // Truly without headers: not cross-origin isolated, and the CSP is the page's <meta> only.
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), false);
    await stat(page, 'Vocabulary').waitFor();
    // So the worker trains with the single-threaded module, and the page says why in one line.
    assert.equal(await page.locator('#threads-note').textContent(),
      'Training on 1 thread: this page is not cross-origin isolated (the server must send the COOP and COEP headers, as `npm start` and `vite preview` do).');
    assert.equal(await page.locator('#threads-note').isVisible(), true);
    await showParameters(page);
    assert.equal(await page.getByRole('textbox', { name: 'Threads', exact: true }).inputValue(), '1');
    await page.getByRole('textbox', { name: 'Threads', exact: true }).fill('2');
    assert.match(await page.locator('#param-threads-help').textContent(), /^1 only: this page is not cross-origin isolated/);
    await page.getByRole('textbox', { name: 'Threads', exact: true }).fill('1');
    await button(page, 'Train').click();
    await waitUntilDone(page);
    assert.match(await page.locator('#progress-text').textContent(), /tokens\/s · 1 thread · learning rate/);
    // This host has no King James Bible, so the page does not offer it.
    assert.equal(await button(page, 'King James Bible (4 MB)').isVisible(), false);
    assert.equal(await page.evaluate(() => 'explorer' in window), false, 'no test handle in production');
    assert.deepEqual(problems, []);
  } finally {
    await close();
    await new Promise((resolve) => server.close(resolve));
  }
});
