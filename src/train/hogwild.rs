//! The one place where threads share mutable vectors: Hogwild (Recht et al. 2011), the
//! lock-free scheme of word2vec.c, gensim and fastText. Every training thread reads and
//! writes the input and output matrices at once, without locks; two threads that update
//! the same word at the same moment may lose one of the two updates.
//!
//! **Why that is acceptable.** Rust's memory model calls unsynchronised writes to the same
//! memory from two threads a data race, which it leaves undefined; nothing in safe Rust can
//! express Hogwild without making every access atomic, and atomic `f32` loads and stores
//! cannot be vectorised, which would cost more than the threads gain. What happens in
//! practice is what every Hogwild implementation relies on: on the targets embedscope
//! builds for (x86-64, aarch64, wasm32 with shared memory) an aligned 4-byte load or store
//! is one instruction that never tears, so each float holds a value some thread wrote.
//! Updates are sparse (a pair touches 1 + k of tens of thousands of rows), so collisions
//! are rare, and SGD converges through them (Recht et al. prove it for sparse problems;
//! the benchmark checks the vectors against gensim's).
//!
//! **What still holds.** Memory safety in every other sense: the matrices are neither
//! resized nor freed while a [`Hogwild`] view exists (it borrows them mutably for its
//! lifetime, and the threads are joined inside that lifetime by `rayon::scope`); every index
//! is bounds-checked against the same fixed length; each thread's buffers (scratch, noise
//! words, random generator) are its own. What is lost is determinism: with more than one
//! thread the vectors depend on timing, so only `threads == 1` is bit-reproducible.

use std::marker::PhantomData;

/// A matrix of `f32` borrowed for lock-free updates from several threads.
pub(crate) struct Hogwild<'a> {
    ptr: *mut f32,
    len: usize,
    _borrow: PhantomData<&'a mut [f32]>,
}

// SAFETY: sharing the pointer across threads is the point of the type; see the module doc
// for the races this admits and why they are accepted.
unsafe impl Send for Hogwild<'_> {}
unsafe impl Sync for Hogwild<'_> {}

impl<'a> Hogwild<'a> {
    /// Borrows `matrix` for as long as the view lives.
    pub(crate) fn new(matrix: &'a mut [f32]) -> Hogwild<'a> {
        Hogwild { ptr: matrix.as_mut_ptr(), len: matrix.len(), _borrow: PhantomData }
    }

    /// The whole matrix, for one thread's updates.
    ///
    /// # Safety
    ///
    /// Other threads may hold the same slice at the same time: the caller accepts Hogwild's
    /// races (lost or interleaved updates of single floats, see the module doc) and must not
    /// rely on a value it wrote still being there when it reads it again.
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn slice(&self) -> &'a mut [f32] {
        // SAFETY: `ptr` and `len` come from a live `&'a mut [f32]`; aliasing across threads
        // is the documented contract above.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

/// Bytes of unused capacity after each of a thread's buffers: two cache lines (adjacent-line
/// prefetchers fetch lines in pairs).
const PAD_BYTES: usize = 128;

/// A vector of `len` copies of `value` with [`PAD_BYTES`] of spare capacity after them, so
/// its elements share no cache line with another buffer allocated after it. Each thread's
/// buffers are allocated one after another on the thread that makes the trainer, and
/// without the gap one thread's writes would keep evicting the line another thread reads
/// (false sharing).
pub(crate) fn unshared_vec<T: Clone>(len: usize, value: T) -> Vec<T> {
    let pad = PAD_BYTES.div_ceil(size_of::<T>().max(1));
    let mut v = Vec::with_capacity(len + pad);
    v.resize(len, value);
    v
}
