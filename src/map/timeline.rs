//! The training timeline: how a run's map looked as it was learned, and each epoch's
//! nearest neighbours, so a finished run (or a bundle re-opened later) can be replayed.
//!
//! - A [`TimelineFrame`] is one frame of the map as the page received it: the coordinates
//!   of its words (a list of word ids shared by the frames that show the same words), the
//!   projection that made it (`map_spec`: method and parameters, such as t-SNE's perplexity,
//!   a JSON object) and the moment of training it shows (epoch, tokens seen).
//! - A [`NeighbourHistory`] keeps, at the end of each epoch, the [`NEIGHBOUR_K`] nearest
//!   neighbours by cosine of each of the [`NEIGHBOUR_WORDS`] most frequent words (among
//!   those words, exact, through [`Knn`]), so the page can show a word's neighbours epoch by
//!   epoch. It holds at most [`EPOCH_RECORDS`] epochs, thinned evenly, plus the newest.
//!
//! Memory: a history holds at most `(EPOCH_RECORDS + 1) × NEIGHBOUR_WORDS × NEIGHBOUR_K`
//! ids and scores of 4 bytes each, 65 × 1,000 × 10 × 8 B = 5.2 MB. The frames are the
//! page's (capped there, see `www/timeline/frames.js`); here they are only what a bundle
//! stores.
//!
//! **Architecture Invariant:** a history depends only on the vectors at each epoch end,
//! never on how training was chunked: it is recorded when a chunk ends an epoch, and a
//! chunk never runs past an epoch's end.

use super::layout::Knn;
use crate::io::json::Value;
use crate::vectors::Embeddings;

/// The most frequent words whose neighbours are kept each epoch.
pub const NEIGHBOUR_WORDS: usize = 1_000;
/// Neighbours kept per word and epoch.
pub const NEIGHBOUR_K: usize = 10;
/// Epochs a history keeps (an even number), thinned evenly when a run has more; the newest
/// epoch is kept besides.
pub const EPOCH_RECORDS: usize = 64;

/// A run's map through time and its neighbours per epoch: the optional `timeline` section
/// of a bundle.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Timeline {
    /// Lists of word ids (indices into the bundle's words) that frames show.
    pub word_lists: Vec<Vec<u32>>,
    /// The frames, oldest first.
    pub frames: Vec<TimelineFrame>,
    /// Each kept epoch's nearest neighbours, when the run was trained here.
    pub neighbours: Option<NeighbourHistory>,
}

/// One frame of the map.
#[derive(Debug, Clone, PartialEq)]
pub struct TimelineFrame {
    /// The epoch in progress (or just finished), from 1; 0 when the vectors were opened.
    pub epoch: u32,
    pub epochs: u32,
    pub tokens_done: u64,
    pub tokens_total: u64,
    /// How the frame was made: `method` ("pca", "tsne", "umap") and its parameters, a JSON object.
    pub map_spec: Value,
    /// The axes' titles as the map showed them.
    pub axis_labels: [String; 2],
    /// Which of `Timeline::word_lists` the frame shows.
    pub word_list: usize,
    /// `[x0, y0, x1, y1, …]` for the words of the list.
    pub coords: Vec<f32>,
}

/// The nearest neighbours of one epoch's end.
#[derive(Debug, Clone, PartialEq)]
pub struct EpochNeighbours {
    pub epoch: u32,
    pub tokens_done: u64,
    /// `k` neighbour ids per word, nearest first, word after word.
    pub ids: Vec<u32>,
    /// Their cosine similarities, in the same order.
    pub scores: Vec<f32>,
}

/// One word's neighbours at one epoch's end: `(epoch, tokens_done, [(id, cosine)])`.
pub type WordAtEpoch = (u32, u64, Vec<(u32, f32)>);

/// A sequence kept within `capacity` items, evenly: every `stride`-th item is kept, and when
/// `capacity` are kept, every other one is dropped (the first stays) and `stride` doubles, so
/// those kept are equally spaced in arrival order. The newest item is held besides when it
/// was not kept. The page thins its loss series and timeline frames by the same rule
/// (`www/shared/even-thinning.js`); both are tested on `tests/shared/even-thinning.json`.
#[derive(Debug, Clone, PartialEq)]
struct EvenlyThinned<T> {
    /// An even number, at least 2.
    capacity: usize,
    kept: Vec<T>,
    /// The newest item when the thinning did not keep it.
    newest: Option<T>,
    stride: usize,
    received: usize,
}

impl<T> EvenlyThinned<T> {
    fn new(capacity: usize) -> EvenlyThinned<T> {
        debug_assert!(capacity >= 2 && capacity.is_multiple_of(2));
        EvenlyThinned { capacity, kept: Vec::new(), newest: None, stride: 1, received: 0 }
    }

    /// Items already thinned (a bundle's), in order, none to drop.
    fn from_kept(capacity: usize, kept: Vec<T>) -> EvenlyThinned<T> {
        let received = kept.len();
        EvenlyThinned { capacity, kept, newest: None, stride: 1, received }
    }

    fn push(&mut self, item: T) {
        let keep = self.received.is_multiple_of(self.stride);
        self.received += 1;
        if !keep {
            self.newest = Some(item);
            return;
        }
        self.newest = None;
        if self.kept.len() == self.capacity {
            // Every other one goes, the first stays; the capacity is even, so the item that
            // arrives now is a multiple of the doubled stride too.
            let mut i = 0;
            self.kept.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.stride *= 2;
        }
        self.kept.push(item);
    }

    /// The items held, oldest first, the newest included.
    fn iter(&self) -> impl Iterator<Item = &T> {
        self.kept.iter().chain(&self.newest)
    }
}

/// Each epoch's neighbours of the most frequent words (see the module documentation).
///
/// Epochs are kept evenly ([`EPOCH_RECORDS`] at most, the rule of the page's loss series and
/// timeline), and the newest besides, so the last one is always there.
#[derive(Debug, Clone, PartialEq)]
pub struct NeighbourHistory {
    n_words: usize,
    k: usize,
    epochs: EvenlyThinned<EpochNeighbours>,
}

impl NeighbourHistory {
    /// An empty history of `k` neighbours for each of the `n_words` most frequent words.
    pub fn new(n_words: usize, k: usize) -> NeighbourHistory {
        NeighbourHistory { n_words, k, epochs: EvenlyThinned::new(EPOCH_RECORDS) }
    }

    /// The history for vectors of `n_vocab` words: the [`NEIGHBOUR_WORDS`] most frequent
    /// (all, when fewer), [`NEIGHBOUR_K`] neighbours each (fewer for a tiny vocabulary).
    pub fn for_vocabulary(n_vocab: usize) -> NeighbourHistory {
        let n_words = n_vocab.min(NEIGHBOUR_WORDS);
        NeighbourHistory::new(n_words, NEIGHBOUR_K.min(n_words.saturating_sub(1)))
    }

    /// A history read back from a bundle: these epochs, in order, no thinning to come.
    pub fn from_epochs(n_words: usize, k: usize, epochs: Vec<EpochNeighbours>) -> NeighbourHistory {
        NeighbourHistory { n_words, k, epochs: EvenlyThinned::from_kept(EPOCH_RECORDS, epochs) }
    }

    pub fn n_words(&self) -> usize {
        self.n_words
    }

    pub fn k(&self) -> usize {
        self.k
    }

    /// The epochs held, oldest first.
    pub fn epochs(&self) -> impl Iterator<Item = &EpochNeighbours> {
        self.epochs.iter()
    }

    /// Records the neighbours of the end of `epoch` from `emb` (whose first words are the most
    /// frequent). An epoch already recorded, or a history without neighbours to keep (a
    /// vocabulary of one word), records nothing. Costs `n_words² × dim / 2` multiply-adds
    /// (50 million at 1,000 words of 100 dimensions, about 20 ms in wasm).
    pub fn record(&mut self, emb: &Embeddings, epoch: u32, tokens_done: u64) {
        if self.k == 0 || emb.len() < self.n_words || self.epochs().last().is_some_and(|e| e.epoch >= epoch) {
            return;
        }
        let dim = emb.dim();
        let knn = Knn::cosine(&emb.unit_rows(self.n_words), dim, self.k);
        let mut ids = Vec::with_capacity(self.n_words * self.k);
        let mut scores = Vec::with_capacity(self.n_words * self.k);
        for word in 0..self.n_words {
            ids.extend_from_slice(knn.neighbours(word));
            scores.extend(knn.distances(word).iter().map(|d| 1.0 - d));
        }
        self.epochs.push(EpochNeighbours { epoch, tokens_done, ids, scores });
    }

    /// The neighbours of word `word_idx` at each epoch held, as `(epoch, tokens_done,
    /// [(id, cosine)])`; None when the word is not among the `n_words` kept.
    pub fn of_word(&self, word_idx: usize) -> Option<Vec<WordAtEpoch>> {
        if word_idx >= self.n_words {
            return None;
        }
        let range = word_idx * self.k..(word_idx + 1) * self.k;
        let rows = self.epochs().map(|e| {
            let pairs = e.ids[range.clone()].iter().copied().zip(e.scores[range.clone()].iter().copied());
            (e.epoch, e.tokens_done, pairs.collect())
        });
        Some(rows.collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words on a circle at `angles` (radians), 2 dimensions: cosine is the angle's cosine.
    fn circle(angles: &[f32]) -> Embeddings {
        let words = (0..angles.len()).map(|i| format!("w{i}")).collect();
        let vectors = angles.iter().flat_map(|a| [a.cos(), a.sin()]).collect();
        Embeddings::new(words, 2, vectors).unwrap()
    }

    #[test]
    fn records_each_epochs_nearest_neighbours() {
        let mut history = NeighbourHistory::new(4, 2);
        history.record(&circle(&[0.0, 0.1, 0.3, 3.0]), 1, 100);
        // In epoch 2, w3 has come next to w0.
        history.record(&circle(&[0.0, 1.0, 2.0, 0.05]), 2, 200);
        let rows = history.of_word(0).unwrap();
        assert_eq!(rows.iter().map(|r| (r.0, r.1)).collect::<Vec<_>>(), [(1, 100), (2, 200)]);
        assert_eq!(rows[0].2.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(rows[1].2.iter().map(|p| p.0).collect::<Vec<_>>(), [3, 1]);
        assert!((rows[1].2[0].1 - 0.05f32.cos()).abs() < 1e-5);
        assert!(history.of_word(4).is_none());
        // The same epoch twice (a chunk after the end) is recorded once.
        history.record(&circle(&[0.0, 1.0, 2.0, 0.05]), 2, 200);
        assert_eq!(history.epochs().count(), 2);
    }

    #[test]
    fn keeps_epochs_evenly_within_its_bound_and_always_the_newest() {
        let emb = circle(&[0.0, 0.5, 1.0]);
        let mut history = NeighbourHistory::for_vocabulary(emb.len());
        assert_eq!((history.n_words(), history.k()), (3, 2));
        for epoch in 1..=1000 {
            history.record(&emb, epoch, u64::from(epoch));
            let epochs: Vec<u32> = history.epochs().map(|e| e.epoch).collect();
            assert!(epochs.len() <= EPOCH_RECORDS + 1, "{} epochs held", epochs.len());
            assert_eq!(*epochs.last().unwrap(), epoch, "the newest is held");
            // Those kept are equally spaced from the first.
            let kept = &epochs[..history.epochs.kept.len()];
            assert_eq!(kept[0], 1);
            assert!(kept.windows(2).all(|w| w[1] - w[0] == kept[1.min(kept.len() - 1)] - kept[0]));
        }
        assert!(history.epochs().count() > EPOCH_RECORDS / 2);
    }

    #[test]
    fn thins_the_shared_cases_as_the_page_does() {
        // tests/shared/even-thinning.json: after `n` items 0, 1, 2, … into a sequence of
        // `capacity`, those `held`; tests/www/even-thinning.test.js checks the page's rule on it.
        let shared: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/shared/even-thinning.json")).unwrap();
        let as_usize = |v: &serde_json::Value| v.as_u64().unwrap() as usize;
        for case in shared["cases"].as_array().unwrap() {
            let mut thinned = EvenlyThinned::new(as_usize(&case["capacity"]));
            (0..as_usize(&case["n"])).for_each(|i| thinned.push(i));
            let held: Vec<usize> = thinned.iter().copied().collect();
            let expected: Vec<usize> = case["held"].as_array().unwrap().iter().map(as_usize).collect();
            assert_eq!(held, expected, "{case}");
        }
    }

    #[test]
    fn a_vocabulary_of_one_word_keeps_nothing() {
        let mut history = NeighbourHistory::for_vocabulary(1);
        history.record(&circle(&[0.0]), 1, 1);
        assert_eq!(history.epochs().count(), 0);
    }
}
