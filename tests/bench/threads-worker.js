// The browser side of scripts/bench-threads.mjs: one training run in a module worker, as the
// app's worker trains: the single-threaded module (www/pkg) on one thread, or the threaded one
// (www/pkg-threads) on a pool of `threads` host workers (www/worker/threads.js). Times the training
// steps only, like the native CLI, and reports the wasm memory at the end, which never
// shrinks, so it is the peak of the wasm heap.
import { ThreadHosts } from '../../www/worker/threads.js';

self.onmessage = async ({ data }) => {
  try {
    const threads = Number(data.threads ?? 1);
    const epochs = Number(data.epochs ?? 5);
    const threaded = data.module === 'threaded';
    const module = threaded ? await import('../../www/pkg-threads/embedscope.js') : await import('../../www/pkg/embedscope.js');
    const wasm = await module.default();
    const session = new module.Session();
    if (threaded) {
      await new ThreadHosts(module.thread_host_init()).ensure(threads);
      session.use_threads(threads);
    }
    const bytes = new Uint8Array(await (await fetch(data.corpus)).arrayBuffer());
    let started = performance.now();
    session.set_text(bytes);
    const stats = session.prepare({ tokenizer: 'whitespace', epochs, threads, cbow: data.cbow === 'true', sharedNoise: data.sharedNoise === 'true' });
    const prepareSeconds = (performance.now() - started) / 1000;
    let progress;
    started = performance.now();
    do progress = session.step(100_000 * threads);
    while (!progress.done);
    const seconds = (performance.now() - started) / 1000;
    self.postMessage({
      module: data.module, threads, poolThreads: session.threads(), working: session.threads_working(),
      stats, prepareSeconds, seconds, tokensPerSec: progress.tokensPerSec, epochLosses: progress.epochLosses,
      // The instance's memory (shared by its threads): its size is the peak of the wasm heap.
      wasmMemory: wasm.memory.buffer.byteLength,
    });
  } catch (error) {
    self.postMessage({ error: String(error?.message ?? error) });
  }
};
