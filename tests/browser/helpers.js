// Shared by the browser tests: a free port, Chromium in a throwaway profile, the Vite dev
// server, and a page that collects everything that went wrong.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
 * Starts Chromium with a fresh profile; `close()` ends it and removes the profile.
 * `options` go to playwright's launchPersistentContext (e.g. `deviceScaleFactor`, `viewport`).
 * @returns {Promise<{context: import('playwright-core').BrowserContext, close: () => Promise<void>}>}
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
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
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
