// Composition root: load the wasm module (the page uses it to draw), start the training
// worker, and wire the view to it through the controller.
import init, * as wasm from './pkg/embedscope.js';
import { Controller } from './controller.js';
import { View } from './view.js';
import { WorkerClient } from './worker-client.js';

// Vite bundles a worker only when it is created with this exact `new URL` shape.
const createWorker = () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });

async function main() {
  await init();
  const view = new View(wasm.Chart);
  view.setModuleStatus('ready', `embedscope ${wasm.version()} — WebAssembly module loaded`);
  new Controller(view, new WorkerClient(createWorker));
}

main().catch((error) => {
  console.error(error);
  const status = document.getElementById('status');
  status.dataset.state = 'error';
  status.textContent = `Could not load the WebAssembly module: ${error.message}`;
});
