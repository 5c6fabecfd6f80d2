//! A training thread's own copy of the output rows of the most frequent words, written in
//! its own cache and merged into the shared matrix after every few updates of a row.
//!
//! **Why.** With plain Hogwild every thread writes the shared rows directly, and the output
//! rows of the words drawn as noise (by count^0.75, so the top thousand words of the King
//! James Bible take 64 % of all draws, each pair writing five) are written by every thread
//! all the time. Each such write takes the cache line from the other core, so on two
//! threads a token costs up to twice the CPU time of one thread, and far more where the two
//! cores sit far apart. A thread that writes its own copy of a row, and hands its changes
//! over once every [`MERGE_AFTER`] updates, takes the line across once where it took it up to
//! that many times.
//!
//! **The merge.** For each replicated row a thread keeps its copy (`local`), the shared
//! row's value when it last took it (`base`), and how many updates it made since
//! (`pending`). A merge adds `local - base`, this thread's changes, to the shared row and
//! takes the result, every thread's changes so far, as both `local` and `base`: no change
//! is lost or counted twice (they are added, not averaged). A row with no pending update
//! is taken afresh from the shared matrix before it is read ([`Replicated::fetch`]), so a
//! thread sees the others' changes at most one merge late, counted in its own updates of
//! that row. Rows still pending are merged every 10,000 tokens a thread and at the end of
//! each step, so the shared matrix holds everything between steps.
//!
//! **Why these constants.** Merging after 32 updates keeps the top-10 agreement with
//! gensim's neighbours within noise of plain Hogwild's on the King James Bible; merging
//! rarer loses agreement, and a private copy of the whole output matrix merged once a step
//! loses much more: hot rows must be merged often, which counting each row's updates does.
//! The copies themselves cost time (the merges, and the cold fetches after them), which is
//! why only the most frequent rows are copied.

use super::hogwild::unshared_vec;
use crate::linalg::Rows;

/// A replicated row is merged after this many updates by its thread, in skip-gram.
pub(crate) const MERGE_AFTER: u16 = 32;

/// The same for CBOW, which moves the output rows once a centre word where skip-gram moves
/// them once a (context, centre) pair, about five times as often: after 32 updates its rows
/// were as stale as skip-gram's after about 160, and 2 threads agreed with gensim's CBOW at
/// 0.411 to 0.413 where one thread does 0.423; after 8 at 0.420 to 0.422 (0.80 s for
/// the KJV against 0.75 s), after 2 at 0.423 to 0.425 but slower than one thread (1.07 s).
pub(crate) const MERGE_AFTER_CBOW: u16 = 8;

/// Bytes of copies (`local` and `base`) per thread: the first rows that fit are replicated,
/// the rest are written in the shared matrix directly. 16 MiB holds every row of the King
/// James Bible's 8,378 words at dim 100 (10.7 MB), and 21,000 rows of a larger vocabulary.
pub(crate) const REPLICA_BYTES: usize = 16 << 20;

/// How many rows of `n_words` a thread replicates at dimension `dim`.
pub(crate) fn replicated_rows(n_words: usize, dim: usize) -> usize {
    (REPLICA_BYTES / (2 * size_of::<f32>() * dim.max(1))).min(n_words)
}

/// One thread's copy of the first rows of a matrix.
#[derive(Debug, Clone)]
pub(crate) struct Replica {
    local: Vec<f32>,
    base: Vec<f32>,
    /// Each row's updates since it was last taken from the shared matrix; 0 means `local`
    /// is to be taken afresh before its next read.
    pending: Vec<u16>,
    /// A row is merged after this many updates ([`MERGE_AFTER`], [`MERGE_AFTER_CBOW`]).
    merge_after: u16,
}

impl Replica {
    /// A copy of the first `rows` rows of a matrix of `dim` floats a row, each merged after
    /// `merge_after` updates (at least 1).
    pub(crate) fn new(rows: usize, dim: usize, merge_after: u16) -> Replica {
        Replica {
            merge_after: merge_after.max(1),
            local: unshared_vec(rows * dim, 0.0),
            base: unshared_vec(rows * dim, 0.0),
            pending: unshared_vec(rows, 0),
        }
    }

    /// The matrix as this thread sees it: its copy for the first rows, `shared` for the rest.
    pub(crate) fn over<'a>(&'a mut self, shared: &'a mut [f32]) -> Replicated<'a> {
        assert!(self.local.len() <= shared.len(), "a replica is longer than its matrix");
        let dim = if self.pending.is_empty() { 0 } else { self.local.len() / self.pending.len() };
        let merge_after = self.merge_after;
        Replicated {
            local: &mut self.local,
            base: &mut self.base,
            pending: &mut self.pending,
            dim,
            merge_after,
            shared,
        }
    }
}

impl Replica {
    /// How many rows it copies.
    #[cfg(test)]
    pub(crate) fn rows(&self) -> usize {
        self.pending.len()
    }

    /// After how many updates a row is merged.
    #[cfg(test)]
    pub(crate) fn merge_after(&self) -> u16 {
        self.merge_after
    }

    /// Whether some row has changes not yet merged.
    #[cfg(test)]
    pub(crate) fn has_pending(&self) -> bool {
        self.pending.iter().any(|&p| p > 0)
    }
}

/// A matrix seen through one thread's [`Replica`] of its first rows.
pub(crate) struct Replicated<'a> {
    local: &'a mut [f32],
    base: &'a mut [f32],
    pending: &'a mut [u16],
    dim: usize,
    merge_after: u16,
    shared: &'a mut [f32],
}

impl Replicated<'_> {
    /// Merges every row with updates pending.
    pub(crate) fn merge(&mut self) {
        for id in 0..self.pending.len() {
            if self.pending[id] > 0 {
                self.merge_row(id);
            }
        }
    }

    /// Adds this thread's changes to row `id` into the shared row; the copy is taken
    /// afresh at its next read.
    fn merge_row(&mut self, id: usize) {
        let rows = self.span(id);
        let changes = self.local[rows.clone()].iter().zip(&self.base[rows.clone()]);
        for (shared, (local, base)) in self.shared[rows].iter_mut().zip(changes) {
            *shared += local - base;
        }
        self.pending[id] = 0;
    }

    fn span(&self, id: usize) -> std::ops::Range<usize> {
        id * self.dim..(id + 1) * self.dim
    }
}

impl Rows for Replicated<'_> {
    #[inline]
    fn row(&self, id: usize, dim: usize) -> &[f32] {
        let at = id * dim;
        if at < self.local.len() { &self.local[at..at + dim] } else { &self.shared[at..at + dim] }
    }

    #[inline]
    fn row_mut(&mut self, id: usize, dim: usize) -> &mut [f32] {
        let at = id * dim;
        if at < self.local.len() { &mut self.local[at..at + dim] } else { &mut self.shared[at..at + dim] }
    }

    /// Takes afresh the copies of `ids` with no update pending.
    #[inline]
    fn fetch(&mut self, ids: &[u32]) {
        for &id in ids {
            let id = id as usize;
            if self.pending.get(id) == Some(&0) {
                let rows = self.span(id);
                self.local[rows.clone()].copy_from_slice(&self.shared[rows.clone()]);
                self.base[rows.clone()].copy_from_slice(&self.shared[rows]);
            }
        }
    }

    #[inline]
    fn updated(&mut self, id: usize) {
        if let Some(pending) = self.pending.get_mut(id) {
            *pending += 1;
            if *pending >= self.merge_after {
                self.merge_row(id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads row `id` the way a training step does: fetched, then read.
    fn read(seen: &mut Replicated, id: u32) -> Vec<f32> {
        seen.fetch(&[id]);
        seen.row(id as usize, 2).to_vec()
    }

    /// Adds `delta` to the first float of row `id`, as a training step does.
    fn update(seen: &mut Replicated, id: u32, delta: f32) {
        seen.fetch(&[id]);
        seen.row_mut(id as usize, 2)[0] += delta;
        seen.updated(id as usize);
    }

    #[test]
    fn rows_come_from_the_copy_then_from_the_shared_matrix() {
        let mut shared: Vec<f32> = (0..8).map(|v| v as f32).collect();
        let mut replica = Replica::new(2, 2, MERGE_AFTER);
        let mut seen = replica.over(&mut shared);
        update(&mut seen, 0, 10.0);
        update(&mut seen, 3, 20.0);
        assert_eq!(read(&mut seen, 0), [10.0, 1.0]);
        assert_eq!(read(&mut seen, 1), [2.0, 3.0]);
        // Row 0 changed in the copy only, row 3 (not replicated) in the shared matrix.
        assert_eq!(shared, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 26.0, 7.0]);
        replica.over(&mut shared).merge();
        assert_eq!(shared, [10.0, 1.0, 2.0, 3.0, 4.0, 5.0, 26.0, 7.0]);
    }

    #[test]
    fn merges_add_every_threads_changes_once() {
        let mut shared = vec![1.0f32, 1.0, 5.0, 5.0];
        let (mut a, mut b) = (Replica::new(1, 2, MERGE_AFTER), Replica::new(1, 2, MERGE_AFTER));
        update(&mut a.over(&mut shared), 0, 0.5);
        update(&mut b.over(&mut shared), 0, 0.25);
        update(&mut b.over(&mut shared), 0, 0.25);
        // Neither thread sees the other's changes before they are merged.
        assert_eq!(read(&mut a.over(&mut shared), 0), [1.5, 1.0]);
        a.over(&mut shared).merge();
        assert_eq!(shared[..2], [1.5, 1.0]);
        b.over(&mut shared).merge();
        assert_eq!(shared[..2], [2.0, 1.0]);
        // A merged row is taken afresh at its next read; merging again with nothing pending adds nothing.
        assert_eq!(read(&mut a.over(&mut shared), 0), [2.0, 1.0]);
        a.over(&mut shared).merge();
        b.over(&mut shared).merge();
        assert_eq!(shared, [2.0, 1.0, 5.0, 5.0]);
    }

    #[test]
    fn a_row_merges_by_itself_after_its_updates() {
        for merge_after in [MERGE_AFTER, MERGE_AFTER_CBOW, 1] {
            let mut shared = vec![0.0f32; 4];
            let mut replica = Replica::new(2, 2, merge_after);
            let mut seen = replica.over(&mut shared);
            for _ in 0..merge_after - 1 {
                update(&mut seen, 1, 1.0);
            }
            assert_eq!(shared, [0.0; 4], "not merged before its {merge_after}th update");
            update(&mut replica.over(&mut shared), 1, 1.0);
            assert_eq!(shared, [0.0, 0.0, merge_after as f32, 0.0], "merged at its {merge_after}th update");
        }
    }

    #[test]
    fn the_replicated_rows_fit_their_bytes() {
        assert_eq!(replicated_rows(8_378, 100), 8_378);
        assert_eq!(replicated_rows(1_000_000, 100), REPLICA_BYTES / 800);
        assert!(replicated_rows(1_000_000, 300) * 300 * 8 <= REPLICA_BYTES);
        assert_eq!(replicated_rows(10, 0), 10);
    }
}
