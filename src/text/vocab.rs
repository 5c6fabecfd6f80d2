//! The vocabulary and the corpus as token ids.
//!
//! [`Corpus::build`] tokenizes a text once, counts every token type, cuts the rare ones
//! (`min_count`, then `max_vocab`) and keeps the text as a stream of vocabulary ids with
//! sentence boundaries. Tokens that were cut are dropped from the stream, as word2vec.c
//! and gensim do. [`CutReport`] says exactly what was cut, so the vocabulary never
//! shrinks silently.
//!
//! **Architecture Invariant:** ids are ordered by descending count, ties by first
//! occurrence in the text, so id 0 is the most frequent word and the result is
//! deterministic.

use std::collections::HashMap;

use super::{TokenSink, Tokenizer};
use crate::error::{Error, Result};

/// How the vocabulary is cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VocabConfig {
    /// Drop token types that occur fewer than this many times (at least 1; default 5).
    pub min_count: u64,
    /// Keep at most this many types, the most frequent (after `min_count`); `None` keeps all.
    pub max_vocab: Option<usize>,
}

impl Default for VocabConfig {
    fn default() -> Self {
        VocabConfig { min_count: 5, max_vocab: None }
    }
}

impl VocabConfig {
    /// Checks every field, naming the first bad one and its valid range.
    pub fn validate(&self) -> Result<()> {
        if self.min_count == 0 {
            return Err(Error::InvalidParameter {
                name: "min_count",
                value: "0".into(),
                expected: "an integer of at least 1".into(),
            });
        }
        if self.max_vocab == Some(0) {
            return Err(Error::InvalidParameter {
                name: "max_vocab",
                value: "0".into(),
                expected: "an integer of at least 1, or no limit".into(),
            });
        }
        Ok(())
    }
}

/// What building the vocabulary cut away.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CutReport {
    /// Distinct token types in the text.
    pub types_seen: usize,
    /// Tokens in the text.
    pub tokens_seen: u64,
    /// Types (and their tokens) dropped because they occur fewer than `min_count` times.
    pub types_below_min_count: usize,
    pub tokens_below_min_count: u64,
    /// Types (and their tokens) dropped by `max_vocab`.
    pub types_over_max_vocab: usize,
    pub tokens_over_max_vocab: u64,
}

impl CutReport {
    /// Types dropped for any reason.
    pub fn types_cut(&self) -> usize {
        self.types_below_min_count + self.types_over_max_vocab
    }

    /// Tokens dropped for any reason.
    pub fn tokens_cut(&self) -> u64 {
        self.tokens_below_min_count + self.tokens_over_max_vocab
    }
}

/// The kept token types with their counts, most frequent first.
#[derive(Debug, Clone, PartialEq)]
pub struct Vocab {
    words: Vec<String>,
    counts: Vec<u64>,
    index: HashMap<String, u32>,
}

impl Vocab {
    /// Number of types.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether there are no types (never true for a built corpus).
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// All types, most frequent first.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// Count of each type, aligned with [`Vocab::words`].
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The id of `word`, if it was kept.
    pub fn id(&self, word: &str) -> Option<u32> {
        self.index.get(word).copied()
    }

    /// Probability of keeping each type under word2vec's subsampling with threshold `sample`:
    /// `(sqrt(f / t) + 1) · t / f`, capped at 1, where `f` is the type's count and
    /// `t = sample · total`. `sample = 0` keeps everything.
    pub fn keep_probabilities(&self, sample: f64) -> Vec<f64> {
        let total: u64 = self.counts.iter().sum();
        let threshold = sample * total as f64;
        self.counts
            .iter()
            .map(|&count| {
                if sample <= 0.0 {
                    return 1.0;
                }
                let f = count as f64;
                ((f / threshold).sqrt() + 1.0) * threshold / f
            })
            .map(|p| p.min(1.0))
            .collect()
    }
}

/// A text as vocabulary ids, split into sentences.
#[derive(Debug, Clone, PartialEq)]
pub struct Corpus {
    vocab: Vocab,
    ids: Vec<u32>,
    sentence_ends: Vec<usize>,
    cut: CutReport,
}

impl Corpus {
    /// Tokenizes `text`, builds the vocabulary and the id stream.
    ///
    /// Fails with [`Error::EmptyCorpus`] when the text has no token, and with
    /// [`Error::EmptyVocabulary`] when `min_count` cuts every type.
    pub fn build(text: &str, tokenizer: &dyn Tokenizer, config: &VocabConfig) -> Result<Corpus> {
        config.validate()?;
        let mut interner = Interner::default();
        tokenizer.tokenize(text, &mut interner);
        interner.end_sentence();
        let Interner { types, counts, stream, sentence_ends, .. } = interner;
        if stream.is_empty() {
            return Err(Error::EmptyCorpus);
        }

        // Order by descending count; the stable sort keeps first-occurrence order on ties.
        let mut order: Vec<u32> = (0..types.len() as u32).collect();
        order.sort_by(|&a, &b| counts[b as usize].cmp(&counts[a as usize]));

        let mut cut =
            CutReport { types_seen: types.len(), tokens_seen: stream.len() as u64, ..CutReport::default() };
        let above_min = order.iter().take_while(|&&t| counts[t as usize] >= config.min_count).count();
        let kept = config.max_vocab.map_or(above_min, |max| above_min.min(max));
        for &t in &order[kept..above_min] {
            cut.types_over_max_vocab += 1;
            cut.tokens_over_max_vocab += counts[t as usize];
        }
        for &t in &order[above_min..] {
            cut.types_below_min_count += 1;
            cut.tokens_below_min_count += counts[t as usize];
        }
        if kept == 0 {
            return Err(Error::EmptyVocabulary {
                types_cut: cut.types_cut(),
                tokens_cut: cut.tokens_cut(),
                min_count: config.min_count,
                max_count: counts[order[0] as usize],
            });
        }

        let mut new_id = vec![u32::MAX; types.len()];
        for (id, &t) in order[..kept].iter().enumerate() {
            new_id[t as usize] = id as u32;
        }
        let mut ids = Vec::with_capacity(stream.len() - cut.tokens_cut() as usize);
        let mut ends = Vec::new();
        let mut start = 0;
        for end in sentence_ends {
            ids.extend(stream[start..end].iter().map(|&t| new_id[t as usize]).filter(|&id| id != u32::MAX));
            if ends.last() != Some(&ids.len()) && !ids.is_empty() {
                ends.push(ids.len());
            }
            start = end;
        }

        let mut words_by_raw: Vec<Option<String>> = types.into_iter().map(Some).collect();
        let words: Vec<String> = order[..kept]
            .iter()
            .map(|&t| words_by_raw[t as usize].take().expect("each type is kept once"))
            .collect();
        let counts = order[..kept].iter().map(|&t| counts[t as usize]).collect();
        let index = words.iter().enumerate().map(|(i, w)| (w.clone(), i as u32)).collect();
        Ok(Corpus { vocab: Vocab { words, counts, index }, ids, sentence_ends: ends, cut })
    }

    /// The vocabulary.
    pub fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    /// What was cut while building the vocabulary.
    pub fn cut(&self) -> &CutReport {
        &self.cut
    }

    /// Number of kept tokens (the tokens training walks over in each epoch).
    pub fn n_tokens(&self) -> usize {
        self.ids.len()
    }

    /// Number of non-empty sentences.
    pub fn n_sentences(&self) -> usize {
        self.sentence_ends.len()
    }

    /// All token ids in text order.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// The exclusive end of each sentence in [`Corpus::ids`]; the last equals `n_tokens()`.
    pub fn sentence_ends(&self) -> &[usize] {
        &self.sentence_ends
    }
}

/// Interns tokens in first-occurrence order while recording the raw id stream.
#[derive(Default)]
struct Interner {
    lookup: HashMap<Box<str>, u32>,
    types: Vec<String>,
    counts: Vec<u64>,
    stream: Vec<u32>,
    sentence_ends: Vec<usize>,
}

impl TokenSink for Interner {
    fn token(&mut self, token: &str) {
        let id = match self.lookup.get(token) {
            Some(&id) => id,
            None => {
                let id = self.types.len() as u32;
                self.lookup.insert(token.into(), id);
                self.types.push(token.to_string());
                self.counts.push(0);
                id
            }
        };
        self.counts[id as usize] += 1;
        self.stream.push(id);
    }

    fn end_sentence(&mut self) {
        if self.sentence_ends.last().copied().unwrap_or(0) != self.stream.len() {
            self.sentence_ends.push(self.stream.len());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::WhitespaceTokenizer;

    fn build(text: &str, min_count: u64, max_vocab: Option<usize>) -> Result<Corpus> {
        Corpus::build(text, &WhitespaceTokenizer, &VocabConfig { min_count, max_vocab })
    }

    #[test]
    fn counts_orders_and_cuts() {
        let corpus = build("b a b c\na b\n\nd a b", 2, None).unwrap();
        assert_eq!(corpus.vocab().words(), &["b", "a"]);
        assert_eq!(corpus.vocab().counts(), &[4, 3]);
        // "c" and "d" are dropped from the stream; sentences keep their boundaries.
        assert_eq!(corpus.ids(), &[0, 1, 0, 1, 0, 1, 0]);
        assert_eq!(corpus.sentence_ends(), &[3, 5, 7]);
        assert_eq!(
            *corpus.cut(),
            CutReport {
                types_seen: 4,
                tokens_seen: 9,
                types_below_min_count: 2,
                tokens_below_min_count: 2,
                types_over_max_vocab: 0,
                tokens_over_max_vocab: 0
            }
        );
    }

    #[test]
    fn max_vocab_keeps_the_most_frequent_and_ties_follow_first_occurrence() {
        let corpus = build("x y z z y x w", 1, Some(2)).unwrap();
        assert_eq!(corpus.vocab().words(), &["x", "y"]);
        assert_eq!(corpus.cut().types_over_max_vocab, 2);
        assert_eq!(corpus.cut().tokens_over_max_vocab, 3);
        assert_eq!(corpus.vocab().id("z"), None);
    }

    #[test]
    fn a_sentence_of_only_cut_words_disappears() {
        let corpus = build("a a\nrare\na", 2, None).unwrap();
        assert_eq!(corpus.sentence_ends(), &[2, 3]);
        assert_eq!(corpus.n_sentences(), 2);
    }

    #[test]
    fn empty_inputs_are_errors_that_say_what_to_do() {
        assert_eq!(build(" \n\t\n", 1, None), Err(Error::EmptyCorpus));
        let err = build("a b c a", 5, None).unwrap_err();
        assert_eq!(err, Error::EmptyVocabulary { types_cut: 3, tokens_cut: 4, min_count: 5, max_count: 2 });
        assert!(err.to_string().contains("min_count <= 2"), "{err}");
        assert!(build("a", 0, None).is_err());
        assert!(build("a", 1, Some(0)).is_err());
    }

    #[test]
    fn keep_probabilities_follow_word2vec() {
        // Counts 900 and 100 of 1000 tokens, sample 0.01: t = 10.
        let corpus = build(&format!("{}{}", "a ".repeat(900), "b ".repeat(100)), 1, None).unwrap();
        let keep = corpus.vocab().keep_probabilities(0.01);
        let expected = |f: f64| ((f / 10.0).sqrt() + 1.0) * 10.0 / f;
        assert!((keep[0] - expected(900.0)).abs() < 1e-12);
        assert!((keep[1] - expected(100.0)).abs() < 1e-12);
        assert!((keep[0] - 0.1165).abs() < 1e-3, "{}", keep[0]);
        assert_eq!(corpus.vocab().keep_probabilities(0.0), vec![1.0, 1.0]);
        // A rare word is always kept.
        assert_eq!(corpus.vocab().keep_probabilities(0.5), vec![1.0, 1.0]);
    }
}
