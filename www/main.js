// Composition root of the page. For now it proves the two wasm paths work: the page
// loads the module itself (it will draw the plots), and a module worker loads it too
// (it will own the model and train).
import init, { version } from './pkg/embedscope.js';

const status = document.getElementById('status');
const workerStatus = document.getElementById('worker-status');

/** Shows `text` in `element`; `state` is "ready" or "error" and drives the styling. */
function show(element, state, text) {
  element.dataset.state = state;
  element.textContent = text;
}

async function loadModule() {
  await init();
  show(status, 'ready', `embedscope ${version()} — WebAssembly module loaded`);
}

function startWorker() {
  // Vite bundles a worker only when it is created with this exact `new URL` shape.
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.addEventListener('message', ({ data }) => {
    if (data.type === 'ready') {
      show(workerStatus, 'ready', `Worker ready: embedscope ${data.version}`);
    } else if (data.type === 'error') {
      show(workerStatus, 'error', `Worker failed: ${data.message}`);
    }
  });
  worker.addEventListener('error', (event) => {
    show(workerStatus, 'error', `Worker failed: ${event.message ?? 'could not start'}`);
  });
  return worker;
}

loadModule().catch((error) => {
  console.error(error);
  show(status, 'error', `Could not load the WebAssembly module: ${error.message}`);
});
startWorker();
