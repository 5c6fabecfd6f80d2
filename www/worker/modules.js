// @ts-check
// Which wasm module the training worker runs: the threaded one (www/pkg-threads) where the
// page is cross-origin isolated and has SharedArrayBuffer, else, or when it fails to load,
// the single-threaded one (www/pkg), with the reason the page is told. The module loaded is
// `wasm`, set once by `loadModule` before the worker reads its first request and never
// replaced: the pieces that read files call its free functions through it.
import { machineThreads, threadSupport } from './threads.js';

// Each module is imported with its exports named, as the bundler drops only the unnamed
// ones from the build (`panic_for_test` among them, which only the dev server's hook names).

/** The threaded module (www/pkg-threads), loaded and started. */
async function loadThreaded() {
  const { default: init, Session, CompressedFile, compression_of, file_head, benchmark_text, default_map_spec, density_grid, version, thread_host_init } = await import('../pkg-threads/embedscope.js');
  const { memory } = await init();
  return { Session, CompressedFile, compression_of, file_head, benchmark_text, default_map_spec, density_grid, version, thread_host_init, memory };
}

/** The single-threaded module (www/pkg), loaded and started. */
async function loadSingle() {
  const { default: init, Session, CompressedFile, compression_of, file_head, benchmark_text, default_map_spec, density_grid, version } = await import('../pkg/embedscope.js');
  const { memory } = await init();
  return { Session, CompressedFile, compression_of, file_head, benchmark_text, default_map_spec, density_grid, version, thread_host_init: null, memory };
}

/**
 * The wasm module's exports: the threaded build (www/pkg-threads) or the single-threaded one
 * (www/pkg), once `loadModule` has loaded it.
 * @type {any}
 */
export let wasm = null;

/**
 * Loads the threaded module where the page can use shared memory, else (or when it fails to
 * load) the single-threaded one, as `wasm`; returns what the page is told.
 * @returns {Promise<import('../protocol.js').ThreadsInfo>}
 */
export async function loadModule() {
  const { module, info } = await chooseModule();
  wasm = module;
  return info;
}

/** @returns {Promise<{module: object, info: import('../protocol.js').ThreadsInfo}>} */
async function chooseModule() {
  const support = threadSupport();
  if (support.available) {
    try {
      return { module: await loadThreaded(), info: { module: 'threaded', max: machineThreads(), cause: null } };
    } catch (error) {
      const cause = `the threaded WebAssembly module did not load (${error?.message ?? error}); reload the page to try again`;
      console.warn(`Training on 1 thread: ${cause}`);
      return { module: await loadSingle(), info: { module: 'single', max: 1, cause } };
    }
  }
  return { module: await loadSingle(), info: { module: 'single', max: 1, cause: support.cause } };
}
