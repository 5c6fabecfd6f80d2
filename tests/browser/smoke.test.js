// Browser smoke test: serve the app with Vite (dev server, then a production build),
// open it in Chromium, and check that the page and its worker both loaded the wasm
// module, the page is cross-origin isolated, and nothing logged an error.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { build, preview } from 'vite';
import { RESULTS, crateVersion, freePort, openPage, withChromium, withDevServer } from './helpers.js';

const version = await crateVersion();

/** Opens `url` in a fresh Chromium profile, checks the page, saves a screenshot as `name`. */
async function checkPage(url, name) {
  await withChromium({}, async (context) => {
    const { page, problems } = await openPage(context);
    await page.goto(url);
    const status = page.locator('#status');
    const workerStatus = page.locator('#worker-status');
    // Wait for either outcome, so a failure shows its message instead of a timeout.
    await page.waitForSelector('#status:not([data-state="loading"])');
    await page.waitForSelector('#worker-status:not([data-state="loading"])');
    await mkdir(RESULTS, { recursive: true });
    await page.screenshot({ path: join(RESULTS, `${name}.png`), fullPage: true });

    assert.equal(await status.textContent(), `embedscope ${version} — WebAssembly module loaded`);
    assert.equal(await workerStatus.textContent(), `Worker ready: embedscope ${version}`);
    assert.equal(await page.evaluate(() => self.crossOriginIsolated), true, 'COOP/COEP headers are sent');
    assert.deepEqual(problems, []);
  });
}

test('page and worker load the wasm module from the Vite dev server', { timeout: 120_000 }, async () => {
  await withDevServer((url) => checkPage(url, 'smoke-dev'));
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
