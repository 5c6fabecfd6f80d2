//! The training worker's thread pool, in the threaded build (`+atomics`, shared memory).
//!
//! WebAssembly has no threads of its own: a thread is a Web Worker that instantiates the
//! same module over the same shared memory (www/threads.js starts them, as "hosts"). Each
//! host calls [`run_pool_thread`], which blocks until this module hands it a rayon
//! `ThreadBuilder`, runs that thread's loop, and when its pool is dropped waits for the next
//! one. So a pool of any size can be built, and rebuilt with another size, without starting
//! workers again: [`Pool::resize`] queues the new pool's threads for the hosts.
//!
//! `Pool::install` runs a closure with the pool as rayon's current pool, so the trainer's
//! `rayon` calls split its work over the pool's threads; the calling thread (the training
//! worker) waits with `Atomics.wait`, which a worker may do and the page may not: the pool
//! must only ever be used from the training worker.
//!
//! In the single-threaded build `Pool` is a stand-in of one thread, and `install` just runs
//! the closure: rayon then works on the calling thread.

use wasm_bindgen::prelude::*;

#[cfg(target_feature = "atomics")]
mod threaded {
    use std::collections::VecDeque;
    use std::sync::{Condvar, Mutex};

    use rayon::{ThreadBuilder, ThreadPool, ThreadPoolBuilder};
    use wasm_bindgen::prelude::*;

    /// Threads of built pools that no host has taken yet, and the signal that one was added.
    static WAITING: (Mutex<VecDeque<ThreadBuilder>>, Condvar) = (Mutex::new(VecDeque::new()), Condvar::new());

    /// Runs rayon threads for ever, one after another: called by each host worker once it
    /// has instantiated the module, and never returns. Blocks with `Atomics.wait` between
    /// pools, so a host is a worker that does nothing else.
    #[wasm_bindgen]
    pub fn run_pool_thread() {
        let (queue, added) = &WAITING;
        loop {
            let thread = {
                let mut waiting = queue.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    match waiting.pop_front() {
                        Some(thread) => break thread,
                        None => waiting = added.wait(waiting).unwrap_or_else(|e| e.into_inner()),
                    }
                }
            };
            // Returns when the pool it belongs to is dropped.
            thread.run();
        }
    }

    /// What a host worker needs to become a thread of this instance: the compiled module
    /// and the shared memory.
    #[wasm_bindgen]
    pub fn thread_host_init() -> js_sys::Array {
        js_sys::Array::of2(&wasm_bindgen::module(), &wasm_bindgen::memory())
    }

    /// A rayon pool whose threads run on host workers; `None` is one thread, the caller's.
    #[derive(Default)]
    pub struct Pool(Option<ThreadPool>);

    impl Pool {
        /// Replaces the pool with one of `threads` threads (1: none, the caller's thread).
        /// **Unchecked precondition:** at least `threads` host workers run
        /// `run_pool_thread` (www/threads.js starts them before asking), else `install`
        /// waits for ever for the threads no host takes.
        pub fn resize(&mut self, threads: usize) -> Result<(), String> {
            if threads == self.threads() {
                return Ok(());
            }
            // Dropping the old pool ends its threads, which frees their hosts for the new one.
            self.0 = None;
            if threads <= 1 {
                return Ok(());
            }
            let pool = ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("embedscope training {i}"))
                .spawn_handler(|thread| {
                    let (queue, added) = &WAITING;
                    queue.lock().unwrap_or_else(|e| e.into_inner()).push_back(thread);
                    added.notify_one();
                    Ok(())
                })
                .build()
                .map_err(|e| format!("cannot start {threads} training threads: {e}"))?;
            self.0 = Some(pool);
            Ok(())
        }

        pub fn threads(&self) -> usize {
            self.0.as_ref().map_or(1, ThreadPool::current_num_threads)
        }

        /// Runs `f` with this pool as rayon's current pool.
        pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
            match &self.0 {
                Some(pool) => pool.install(f),
                None => f(),
            }
        }
    }
}

#[cfg(not(target_feature = "atomics"))]
mod threaded {
    /// The single-threaded build's pool: the caller's thread alone.
    #[derive(Default)]
    pub struct Pool;

    impl Pool {
        pub fn resize(&mut self, threads: usize) -> Result<(), String> {
            match threads {
                0 | 1 => Ok(()),
                _ => Err(format!(
                    "cannot train on {threads} threads: this is the single-threaded module (the page is not cross-origin isolated)"
                )),
            }
        }

        pub fn threads(&self) -> usize {
            1
        }

        pub fn install<R>(&self, f: impl FnOnce() -> R) -> R {
            f()
        }
    }
}

pub use threaded::*;

/// Whether this is the threaded build (compiled with `+atomics`, over shared memory).
#[wasm_bindgen]
pub fn threaded_build() -> bool {
    cfg!(target_feature = "atomics")
}
