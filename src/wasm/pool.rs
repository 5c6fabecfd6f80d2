//! The training worker's thread pool, in the threaded build (`+atomics`, shared memory).
//!
//! WebAssembly has no threads of its own: a thread is a Web Worker that instantiates the
//! same module over the same shared memory (www/worker/threads.js starts them, as "hosts"). Each
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
//!
//! **A panic on a pool thread.** The threaded module is built with `panic=abort` (wasm has
//! no unwinding there), so a panicking pool thread traps its host, and the job it ran never
//! finishes: a caller blocked in `install` would wait for ever, and the page with it.
//! Training therefore goes through [`Pool::step`], which hands the trainer to the pool and
//! waits on a signal of its own that a panic hook also raises; on a panic it throws a
//! `WebAssembly.RuntimeError` carrying the panic's message, which the worker treats as any
//! trap (www/worker/worker.js: a `fatal` message, then it closes, its hosts with it), so the page
//! says what happened and starts a fresh worker. The instance cannot go on: the dead
//! thread's job, and the other threads waiting on it, never finish.

use wasm_bindgen::prelude::*;

#[cfg(target_feature = "atomics")]
mod threaded {
    use std::collections::VecDeque;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Condvar, Mutex, Once};

    use rayon::{ThreadBuilder, ThreadPool, ThreadPoolBuilder};
    use wasm_bindgen::prelude::*;

    use crate::error::Result as CoreResult;
    use crate::train::{Progress, Trainer};

    /// The message of the first panic on a pool thread, and the signal that a pool job ended
    /// or a pool thread panicked: what [`Pool::step`] waits on.
    static SIGNAL: (Mutex<Option<String>>, Condvar) = (Mutex::new(None), Condvar::new());

    /// Test hook: the next threaded step makes training thread 1 panic.
    static PANIC_NEXT_STEP: AtomicBool = AtomicBool::new(false);

    /// Makes training thread 1 panic in the next step on several threads. Nothing in the app
    /// calls it: the browser tests do (the worker's `testPanic` request with `inThread`), to
    /// check that the page says so and recovers instead of waiting for ever.
    #[wasm_bindgen]
    pub fn panic_in_training_thread_for_test() {
        PANIC_NEXT_STEP.store(true, Ordering::Relaxed);
    }

    /// Adds to the panic hook (once): a panic on a pool thread is recorded and signalled
    /// before the thread traps, so the caller of [`Pool::step`] wakes up.
    fn watch_pool_panics() {
        static WATCH: Once = Once::new();
        WATCH.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                if rayon::current_thread_index().is_some() {
                    let (panicked, signal) = &SIGNAL;
                    let mut first = panicked.lock().unwrap_or_else(|e| e.into_inner());
                    first.get_or_insert_with(|| {
                        let message = info.payload_as_str().unwrap_or("no message");
                        let place = info.location().map(|l| format!(" (at {}:{})", l.file(), l.line()));
                        format!("a training thread panicked: {message}{}", place.unwrap_or_default())
                    });
                    signal.notify_all();
                }
                previous(info);
            }));
        });
    }

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
        /// `run_pool_thread` (www/worker/threads.js starts them before asking), else `install`
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
            watch_pool_panics();
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

        /// Runs `f` with this pool as rayon's current pool. For jobs that cannot panic; training
        /// goes through [`Pool::step`].
        pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
            match &self.0 {
                Some(pool) => pool.install(f),
                None => f(),
            }
        }

        /// `Trainer::step` of `trainer`, on the pool; gives the trainer back with the result.
        /// The trainer is moved to the pool's job and back, so the wait is this module's own
        /// and a panic on a pool thread ends it: this then throws a `WebAssembly.RuntimeError`
        /// with the panic's message and never returns (the trainer is lost with the thread).
        pub fn step(&self, mut trainer: Trainer, max_tokens: u64) -> (Trainer, CoreResult<Progress>) {
            let Some(pool) = &self.0 else {
                let stepped = trainer.step(max_tokens);
                return (trainer, stepped);
            };
            if PANIC_NEXT_STEP.swap(false, Ordering::Relaxed) {
                trainer.panic_in_thread_for_test(1);
            }
            let finished: Arc<Mutex<Option<(Trainer, CoreResult<Progress>)>>> = Arc::default();
            let reply = Arc::clone(&finished);
            pool.spawn(move || {
                let stepped = trainer.step(max_tokens);
                *reply.lock().unwrap_or_else(|e| e.into_inner()) = Some((trainer, stepped));
                // Taking the signal's lock orders this after the waiter's check: no lost wake-up.
                let _signalled = SIGNAL.0.lock().unwrap_or_else(|e| e.into_inner());
                SIGNAL.1.notify_all();
            });
            let (panicked, signal) = &SIGNAL;
            let mut panic = panicked.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(done) = finished.lock().unwrap_or_else(|e| e.into_inner()).take() {
                    return done;
                }
                if let Some(message) = panic.as_ref() {
                    wasm_bindgen::throw_val(js_sys::WebAssembly::RuntimeError::new(message).into());
                }
                panic = signal.wait(panic).unwrap_or_else(|e| e.into_inner());
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

        /// `Trainer::step` of `trainer`, on the caller's thread (a panic traps the instance,
        /// which the worker reports as it does any trap); gives the trainer back with the result.
        pub fn step(
            &self,
            mut trainer: crate::train::Trainer,
            max_tokens: u64,
        ) -> (crate::train::Trainer, crate::error::Result<crate::train::Progress>) {
            let stepped = trainer.step(max_tokens);
            (trainer, stepped)
        }
    }
}

pub use threaded::*;

/// Whether this is the threaded build (compiled with `+atomics`, over shared memory).
#[wasm_bindgen]
pub fn threaded_build() -> bool {
    cfg!(target_feature = "atomics")
}
