//! The bounded heaps of NN-descent: each word's best neighbours so far, and each word's
//! candidates of a round.

use super::MAX_CANDIDATES;

/// Each word's `k` best neighbours found so far, as a bounded max-heap (worst on top), with a
/// flag for those new since the word's candidates were last drawn.
pub(super) struct Heaps {
    pub(super) k: usize,
    pub(super) len: Vec<u32>,
    pub(super) indices: Vec<u32>,
    pub(super) distances: Vec<f32>,
    pub(super) fresh: Vec<bool>,
    /// Each row's worst distance kept (infinity until its heap is full), side by side: most
    /// offers are turned away without reading the heaps (a cache miss each at 50,000 words).
    pub(super) worst: Vec<f32>,
}

/// Whether `a` ranks after `b`: farther, or as far with a higher index.
#[inline]
fn worse(a: (f32, u32), b: (f32, u32)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 > b.1)
}

impl Heaps {
    pub(super) fn new(n: usize, k: usize) -> Heaps {
        Heaps {
            k,
            len: vec![0; n],
            indices: vec![0; n * k],
            distances: vec![0.0; n * k],
            fresh: vec![false; n * k],
            worst: vec![f32::INFINITY; n],
        }
    }

    /// Offers `index` at `distance` to `row`, as a new neighbour; true when it entered.
    #[inline]
    pub(super) fn offer(&mut self, row: usize, index: u32, distance: f32) -> bool {
        // Ties are decided by index in `insert`.
        distance <= self.worst[row] && self.insert(row, index, distance)
    }

    #[inline(never)]
    fn insert(&mut self, row: usize, index: u32, distance: f32) -> bool {
        let k = self.k;
        let len = self.len[row] as usize;
        let base = row * k;
        if len == k && !worse((self.distances[base], self.indices[base]), (distance, index)) {
            return false;
        }
        if self.indices[base..base + len].contains(&index) {
            return false;
        }
        let (d, ix, fresh) = (
            &mut self.distances[base..base + k],
            &mut self.indices[base..base + k],
            &mut self.fresh[base..base + k],
        );
        let candidate = (distance, index);
        if len < k {
            let mut at = len;
            self.len[row] += 1;
            while at > 0 {
                let parent = (at - 1) / 2;
                if !worse(candidate, (d[parent], ix[parent])) {
                    break;
                }
                d[at] = d[parent];
                ix[at] = ix[parent];
                fresh[at] = fresh[parent];
                at = parent;
            }
            d[at] = distance;
            ix[at] = index;
            fresh[at] = true;
            if len + 1 == k {
                self.worst[row] = d[0];
            }
            return true;
        }
        let mut at = 0;
        loop {
            let left = 2 * at + 1;
            if left >= k {
                break;
            }
            let right = left + 1;
            let child =
                if right < k && worse((d[right], ix[right]), (d[left], ix[left])) { right } else { left };
            if !worse((d[child], ix[child]), candidate) {
                break;
            }
            d[at] = d[child];
            ix[at] = ix[child];
            fresh[at] = fresh[child];
            at = child;
        }
        d[at] = distance;
        ix[at] = index;
        fresh[at] = true;
        self.worst[row] = d[0];
        true
    }
}

/// Each word's candidates of a round: up to [`MAX_CANDIDATES`] words with the smallest
/// random priorities drawn for them (a max-heap on the priority).
pub(super) struct Candidates {
    pub(super) len: Vec<u8>,
    pub(super) indices: Vec<u32>,
    pub(super) priorities: Vec<f32>,
}

impl Candidates {
    pub(super) fn new(n: usize) -> Candidates {
        Candidates {
            len: vec![0; n],
            indices: vec![0; n * MAX_CANDIDATES],
            priorities: vec![0.0; n * MAX_CANDIDATES],
        }
    }

    pub(super) fn of(&self, row: usize) -> &[u32] {
        &self.indices[row * MAX_CANDIDATES..][..usize::from(self.len[row])]
    }

    pub(super) fn push(&mut self, row: usize, index: u32, priority: f32) {
        let len = usize::from(self.len[row]);
        let base = row * MAX_CANDIDATES;
        let (p, ix) = (
            &mut self.priorities[base..base + MAX_CANDIDATES],
            &mut self.indices[base..base + MAX_CANDIDATES],
        );
        if len == MAX_CANDIDATES && priority >= p[0] {
            return;
        }
        if ix[..len].contains(&index) {
            return;
        }
        if len < MAX_CANDIDATES {
            let mut at = len;
            self.len[row] += 1;
            while at > 0 {
                let parent = (at - 1) / 2;
                if priority <= p[parent] {
                    break;
                }
                p[at] = p[parent];
                ix[at] = ix[parent];
                at = parent;
            }
            p[at] = priority;
            ix[at] = index;
            return;
        }
        let mut at = 0;
        loop {
            let left = 2 * at + 1;
            if left >= MAX_CANDIDATES {
                break;
            }
            let right = left + 1;
            let child = if right < MAX_CANDIDATES && p[right] > p[left] { right } else { left };
            if p[child] <= priority {
                break;
            }
            p[at] = p[child];
            ix[at] = ix[child];
            at = child;
        }
        p[at] = priority;
        ix[at] = index;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heap_keeps_the_k_nearest_ties_to_the_lower_index() {
        let mut heaps = Heaps::new(1, 3);
        for (index, d) in [(5, 0.5), (1, 0.9), (2, 0.1), (7, 0.5), (3, 0.5), (2, 0.1)] {
            heaps.offer(0, index, d);
        }
        let mut kept: Vec<(f32, u32)> = (0..3).map(|i| (heaps.distances[i], heaps.indices[i])).collect();
        kept.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(kept, [(0.1, 2), (0.5, 3), (0.5, 5)]);
        assert_eq!(heaps.worst[0], 0.5);
        assert!(!heaps.offer(0, 9, 0.6), "farther than the worst kept");
    }

    #[test]
    fn candidates_keep_the_smallest_priorities() {
        let mut candidates = Candidates::new(1);
        for index in 0..(2 * MAX_CANDIDATES as u32) {
            candidates.push(0, index, (2 * MAX_CANDIDATES) as f32 - index as f32);
        }
        candidates.push(0, 47, 0.0);
        let mut kept = candidates.of(0).to_vec();
        kept.sort();
        let want: Vec<u32> = (MAX_CANDIDATES as u32..2 * MAX_CANDIDATES as u32).collect();
        assert_eq!(kept, want);
    }
}
