// Browser smoke test: serve the app with Vite (dev server, then a production build),
// open it in Chromium, and check that the page and its worker both loaded the wasm
// module, the page is cross-origin isolated, and nothing logged an error.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { build, createServer, preview } from 'vite';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const RESULTS = 'test-results';
// The first `version =` in Cargo.toml is the package's own, which `version()` returns.
const crateVersion = (await readFile('Cargo.toml', 'utf8')).match(/^version\s*=\s*"([^"]+)"/m)[1];

/** A port nobody listens on right now, so parallel runs and a running `npm start` don't clash. */
async function freePort() {
  const server = createNetServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Opens `url` in a fresh Chromium profile, checks the page, saves a screenshot as `name`. */
async function checkPage(url, name) {
  const profile = await mkdtemp(join(tmpdir(), 'embedscope-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    // Everything that went wrong, in one list; the page's console also carries the worker's.
    const problems = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });

    await page.goto(url);
    const status = page.locator('#status');
    const workerStatus = page.locator('#worker-status');
    // Wait for either outcome, so a failure shows its message instead of a timeout.
    await page.waitForSelector('#status:not([data-state="loading"])');
    await page.waitForSelector('#worker-status:not([data-state="loading"])');
    await mkdir(RESULTS, { recursive: true });
    await page.screenshot({ path: join(RESULTS, `${name}.png`), fullPage: true });

    assert.equal(await status.textContent(), `embedscope ${crateVersion} — WebAssembly module loaded`);
    assert.equal(await workerStatus.textContent(), `Worker ready: embedscope ${crateVersion}`);
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), true, 'COOP/COEP headers are sent');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

test('page and worker load the wasm module from the Vite dev server', { timeout: 120_000 }, async () => {
  const server = await createServer({
    logLevel: 'warn',
    server: { host: '127.0.0.1', port: await freePort(), strictPort: true },
  });
  await server.listen();
  try {
    await checkPage(server.resolvedUrls.local[0], 'smoke-dev');
  } finally {
    await server.close();
  }
});

test('page and worker load the wasm module from a production build', { timeout: 120_000 }, async () => {
  await build({ logLevel: 'warn' });
  const server = await preview({
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port: await freePort(), strictPort: true },
  });
  try {
    await checkPage(server.resolvedUrls.local[0], 'smoke-build');
  } finally {
    await server.close();
  }
});
