// @ts-check
// One thread of the training worker's pool: a worker that instantiates the threaded wasm
// module over the training worker's shared memory and then runs rayon threads for ever
// (`run_pool_thread`, src/wasm/pool.rs). www/worker/threads.js starts it; it does nothing else.
import init, { run_pool_thread } from '../pkg-threads/embedscope.js';

self.addEventListener('message', async ({ data: [module, memory] }) => {
  try {
    // The module comes compiled and the memory shared, so nothing is fetched or copied.
    await init({ module_or_path: module, memory });
  } catch (error) {
    self.postMessage({ type: 'failed', message: String(error?.message ?? error) });
    return;
  }
  self.postMessage({ type: 'ready' });
  try {
    // Blocks this worker with Atomics.wait between pools; it returns only by a trap.
    run_pool_thread();
  } catch (error) {
    // A panic on this thread trapped it (the module is built with panic=abort). The panic
    // hook has already sent its message to the console and to the training worker
    // (src/wasm/pool.rs), which reports it and closes, ending this host too: the trap adds
    // nothing, and left uncaught it would be a second, message-less error.
    if (!(error instanceof WebAssembly.RuntimeError)) throw error;
  }
}, { once: true });
