// Composition root: load the wasm module (the page uses it to draw), start the training
// worker, wire the view to it through the controller, open the built-in sample, and offer the King James Bible when
// the server has it.
import init, * as wasm from './pkg/embedscope.js';
import { Controller } from './controller.js';
import { explainLoadFailure } from './load-failure.js';
import { View } from './view.js';
import { WorkerClient } from './worker-client.js';

/** Where `npm start` puts the King James Bible, beside index.html. */
const KJV_URL = new URL('data/kjv.txt', document.baseURI).href;

/**
 * Whether the server holds a text at `url`, asking for its first two bytes. The Vite dev
 * server answers a missing file with index.html (status 200), so the type must be plain
 * text too. Not HEAD: Chromium reports a HEAD of a large file as aborted.
 */
async function servesText(url) {
  try {
    const response = await fetch(url, { headers: { Range: 'bytes=0-1' }, cache: 'no-store' });
    await response.arrayBuffer();
    return response.ok && Boolean(response.headers.get('content-type')?.startsWith('text/plain'));
  } catch {
    return false;
  }
}

// Vite bundles a worker only when it is created with this exact `new URL` shape.
const createWorker = () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });

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
  // A handle for the console and the browser tests (which use it to make the worker panic).
  window.explorer = controller;
  const opened = controller.openSample();
  if (await servesText(KJV_URL)) controller.offerKjv(KJV_URL);
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
