// `npm run screenshot`: the README's picture of the explorer, docs/explorer.png, taken from
// the real page. Serves the project with Vite (as the browser tests do), opens it in Debian's
// Chromium through playwright-core, trains the built-in sample, asks for the neighbours of
// "king" so the map shows its lines, and saves the window (1400 × 900).
// Needs the wasm modules: `npm run screenshot` builds them first (scripts/build-wasm.sh).
// Usage: node scripts/screenshot.mjs [OUT.png]   (default docs/explorer.png)
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { createServer } from 'vite';

const out = process.argv[2] ?? 'docs/explorer.png';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const VIEWPORT = { width: 1400, height: 900 };

/** A port nobody listens on right now, so a running `npm start` does not clash. */
async function freePort() {
  const server = createNetServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

for (const module of ['www/pkg/embedscope.js', 'www/pkg-threads/embedscope.js']) {
  if (!existsSync(module)) {
    console.error(`${module} is missing: build the wasm modules first (bash scripts/build-wasm.sh)`);
    process.exit(1);
  }
}

const server = await createServer({
  logLevel: 'warn',
  server: { host: '127.0.0.1', port: await freePort(), strictPort: true },
});
await server.listen();
const profile = await mkdtemp(join(tmpdir(), 'embedscope-screenshot-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  viewport: VIEWPORT,
  colorScheme: 'light',
});

try {
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => console.error(`uncaught in the page: ${error.message}`));
  await page.goto(server.resolvedUrls.local[0]);
  await page.waitForSelector('#worker-status[data-state="ready"]');

  const button = (name) => page.getByRole('button', { name, exact: true });
  await button('Use the built-in sample').click();
  await page.locator('[data-stat="Vocabulary"]').waitFor();
  await button('Train').click();
  await page.waitForFunction(
    () => document.getElementById('progress-text')?.textContent?.startsWith('Done.'),
    null,
    { timeout: 120_000 },
  );

  // The neighbours of one word, drawn as lines on the map.
  const neighbours = page.getByRole('region', { name: 'Neighbours', exact: true });
  await neighbours.getByRole('combobox', { name: 'Word', exact: true }).fill('king');
  await neighbours.getByRole('button', { name: 'Find', exact: true }).click();
  await neighbours.getByRole('listitem').first().waitFor();

  // Back to the top of the page, where the map is (filling the field scrolled to its card);
  // points glide for 300 ms and the view eases after a frame: give both time to end.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(1500);
  await mkdir(dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  console.log(`wrote ${out} (${VIEWPORT.width} × ${VIEWPORT.height})`);
} finally {
  await context.close();
  await rm(profile, { recursive: true, force: true });
  await server.close();
}
