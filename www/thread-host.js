// @ts-check
// One thread of the training worker's pool: a worker that instantiates the threaded wasm
// module over the training worker's shared memory and then runs rayon threads for ever
// (`run_pool_thread`, src/wasm/pool.rs). www/threads.js starts it; it does nothing else.
import init, { run_pool_thread } from './pkg-threads/embedscope.js';

self.addEventListener('message', async ({ data: [module, memory] }) => {
  try {
    // The module comes compiled and the memory shared, so nothing is fetched or copied.
    await init({ module_or_path: module, memory });
  } catch (error) {
    self.postMessage({ type: 'failed', message: String(error?.message ?? error) });
    return;
  }
  self.postMessage({ type: 'ready' });
  // Blocks this worker with Atomics.wait between pools; it never returns.
  run_pool_thread();
}, { once: true });
