// Runs tests/bench/worker.js in Chromium (through the Vite dev server, so the page is
// cross-origin isolated like the app) and prints its JSON result on stdout.
// Usage: node scripts/bench-browser.mjs CORPUS_URL_PATH [EPOCHS [VECTORS_URL_PATH]]
//   e.g. /data/kjv.txt 5 /data/bench-100k-300.txt
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { createServer } from 'vite';

const [corpus = '/data/kjv.txt', epochs = '5', vectors = ''] = process.argv.slice(2);
const server = await createServer({ logLevel: 'error', server: { port: 0, strictPort: false } });
await server.listen();
const { port } = server.httpServer.address();
const profile = mkdtempSync(join(tmpdir(), 'embedscope-bench-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  const query = new URLSearchParams({ corpus, epochs, vectors });
  await page.goto(`http://localhost:${port}/tests/bench/browser.html?${query}`);
  await page.waitForSelector('body[data-done="true"]', { timeout: 600_000 });
  const result = JSON.parse(await page.textContent('#result'));
  if (result.error) throw new Error(result.error);
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
}
