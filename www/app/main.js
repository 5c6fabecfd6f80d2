// @ts-check
// Composition root: load the wasm module (the page uses it to draw), start the training
// worker, wire the view to it through the controller, open the built-in sample, and offer the
// King James Bible when the server has it.
import init, * as wasm from '../pkg/embedscope.js';
import { Controller } from './controller.js';
import { explainLoadFailure } from './load-failure.js';
import { View } from './view.js';
import { WorkerClient } from './worker-client.js';

/**
 * The optional texts the server holds, beside index.html: `{"kjv": "data/kjv.txt"}` when it
 * has the King James Bible, `{}` when not. It always exists (vite.config.js answers it on
 * the dev server and writes it into dist/), so asking costs no 404 in the console, as
 * probing for data/kjv.txt itself did on a host without it.
 */
const TEXTS_URL = new URL('texts.json', document.baseURI).href;

/** The KJV's address when texts.json lists it, else null (also when texts.json cannot be read). */
async function kjvUrl() {
  try {
    const response = await fetch(TEXTS_URL, { cache: 'no-store' });
    const { kjv } = response.ok ? await response.json() : {};
    return typeof kjv === 'string' ? new URL(kjv, TEXTS_URL).href : null;
  } catch {
    return null;
  }
}

// Vite bundles a worker only when it is created with this exact `new URL` shape.
const createWorker = () => new Worker(new URL('../worker/worker.js', import.meta.url), { type: 'module' });

async function main() {
  await init();
  const view = new View(wasm.Chart);
  view.setModuleStatus('ready', `embedscope ${wasm.version()} — WebAssembly module loaded`);
  const worker = new WorkerClient(createWorker);
  worker.on('unavailable', ({ message }) => {
    view.setWorkerStatus('error', message);
    view.showNotice(message);
  });
  const controller = new Controller(view, worker);
  // A handle for the console and the browser tests (which use it to make the worker panic),
  // on the dev server only: Vite replaces import.meta.env.DEV with false in `npm run build`,
  // and the bundler drops the branch.
  if (import.meta.env.DEV) /** @type {any} */ (window).explorer = controller;
  // A link to a view ("Copy link") names a built-in text and the map's state in its hash.
  const link = new URLSearchParams(location.hash.slice(1));
  if (link.has('text')) {
    const kjv = await kjvUrl();
    if (kjv) controller.offerKjv(kjv);
    await controller.restoreLink(link, kjv);
    return;
  }
  const opened = controller.openSample();
  const kjv = await kjvUrl();
  if (kjv) controller.offerKjv(kjv);
  await opened;
}

main().catch((error) => {
  console.error(error);
  const status = document.getElementById('status');
  status.dataset.state = 'error';
  status.textContent = explainLoadFailure('Could not load the WebAssembly module', error.message);
  // The worker is started only once the page has the module; say so rather than "Starting…".
  const workerStatus = document.getElementById('worker-status');
  if (workerStatus.dataset.state === 'loading') {
    workerStatus.dataset.state = 'error';
    workerStatus.textContent = 'The training worker was not started, since the page could not load the module.';
  }
});
