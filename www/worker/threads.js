// @ts-check
// Training on several threads, for the training worker (www/worker/training.js): whether this page
// can, and the host workers that the threaded module's pool runs on (src/wasm/pool.rs).
// The pool lives only in the training worker: its threads wait with Atomics.wait, which the
// page's main thread may not do.

/** The most threads the form offers: past 8 the SGNS updates mostly collide (Hogwild) and the gain flattens. */
export const MAX_THREADS = 8;

/**
 * Whether the threaded module can run here, and if not why, as the end of the one line the
 * page shows ("Training on 1 thread: …"), saying what would change it.
 * @returns {{available: boolean, cause: string|null}}
 */
export function threadSupport() {
  // The page and its dedicated workers are isolated alike, so the page knows before its worker says.
  if (!globalThis.crossOriginIsolated) {
    return { available: false, cause: 'this page is not cross-origin isolated (the server must send the COOP and COEP headers, as `npm start` and `vite preview` do)' };
  }
  if (typeof SharedArrayBuffer !== 'function') {
    return { available: false, cause: 'this browser has no SharedArrayBuffer (a current Chrome, Edge, Firefox or Safari has)' };
  }
  return { available: true, cause: null };
}

/** The threads the form starts with: the machine's cores, at most MAX_THREADS, where the page can use them; else 1. */
export function defaultThreads() {
  return threadSupport().available ? machineThreads() : 1;
}

/** The most threads a pool here may have: the machine's cores, at most MAX_THREADS. */
export function machineThreads() {
  // `globalThis`: Node.js 20, where tests/www runs the page's modules, has no navigator.
  return Math.max(1, Math.min(globalThis.navigator?.hardwareConcurrency || 1, MAX_THREADS));
}

/**
 * The host workers of the pool, started as they are first needed and kept: a pool of n
 * threads needs n hosts, and rebuilding the pool with another size reuses them.
 */
export class ThreadHosts {
  /** @param {[WebAssembly.Module, WebAssembly.Memory]} init  the threaded module's `thread_host_init()` */
  constructor(init) {
    this.init = init;
    /** @type {Worker[]} kept referenced, or the browser may collect a worker that only waits */
    this.workers = [];
    /** @type {Promise<void>} the hosts being started; `ensure` calls run one after another */
    this.starting = Promise.resolve();
  }

  /** Resolves once at least `n` hosts run the pool's thread loop; rejects when one cannot start. */
  ensure(n) {
    this.starting = this.starting.catch(() => {}).then(async () => {
      const fresh = [];
      while (this.workers.length + fresh.length < n) fresh.push(this.startOne());
      this.workers.push(...(await Promise.all(fresh)));
    });
    return this.starting;
  }

  /** One host, resolved once it has instantiated the module. */
  startOne() {
    // Vite bundles a worker only when it is created with this exact `new URL` shape.
    const worker = new Worker(new URL('./thread-host.js', import.meta.url), { type: 'module' });
    return new Promise((resolve, reject) => {
      worker.addEventListener('message', ({ data }) => {
        if (data.type === 'ready') resolve(worker);
        else reject(new Error(`a training thread could not start: ${data.message}`));
      }, { once: true });
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        reject(new Error(`a training thread could not start: ${event.message || 'its script did not load'}`));
      }, { once: true });
      worker.postMessage(this.init);
    });
  }
}

/** Where the worker trains: the module's threads (`info`, which the page is told) and, in the threaded module, their host workers. */
export class Pool {
  /**
   * @param {import('../protocol.js').ThreadsInfo} info
   * @param {ThreadHosts|null} hosts  the pool's host workers, in the threaded module only
   */
  constructor(info, hosts) {
    this.info = info;
    this.hosts = hosts;
  }

  /**
   * Trains on `n` threads from the next `prepare` on: starts the host workers the pool needs
   * (the first time, a few hundred ms), then rebuilds the session's pool if its size changed.
   * @param {number} n @param {{use_threads: (n: number) => void}} session
   */
  async use(n, session) {
    const { max, cause } = this.info;
    if (!Number.isInteger(n) || n < 1 || n > max) {
      throw new Error(max === 1 ? `cannot train on ${n} threads: ${cause}` : `threads: from 1 to ${max} here (this machine's cores, at most 8)`);
    }
    if (n > 1) await this.hosts.ensure(n);
    session.use_threads(n);
  }
}
