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

use std::sync::Arc;

use super::{TokenSink, Tokenizer, Words};
use crate::error::{Error, Result};
use crate::params::spec;

/// How the vocabulary is cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VocabConfig {
    /// Drop token types that occur fewer than this many times (at least 1; default 5: see
    /// [`spec::MIN_COUNT`]).
    pub min_count: u64,
    /// Keep at most this many types, the most frequent (after `min_count`); at least 2;
    /// `None` keeps all.
    pub max_vocab: Option<usize>,
}

impl Default for VocabConfig {
    fn default() -> Self {
        VocabConfig { min_count: spec::MIN_COUNT.default as u64, max_vocab: spec::FIXED.max_vocab }
    }
}

impl VocabConfig {
    /// Checks every field, naming the first bad one and its valid range.
    pub fn validate(&self) -> Result<()> {
        spec::MIN_COUNT.check_whole("min_count", self.min_count, "")?;
        if let Some(max_vocab @ 0..2) = self.max_vocab {
            // Embeddings of a single word mean nothing.
            return Err(Error::InvalidParameter {
                name: "max_vocab",
                value: max_vocab.to_string(),
                expected: "an integer of at least 2, or no limit".into(),
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
    /// Shared with the embeddings trained on this vocabulary (`Trainer::to_embeddings`).
    words: Arc<Words>,
    counts: Vec<u64>,
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
        self.words.as_slice()
    }

    /// The words' table, to share with embeddings of this vocabulary.
    pub fn table(&self) -> &Arc<Words> {
        &self.words
    }

    /// Count of each type, aligned with [`Vocab::words`].
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The id of `word`, if it was kept.
    pub fn id(&self, word: &str) -> Option<u32> {
        self.words.id(word)
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
    /// Tokenizes `text`, builds the vocabulary and the id stream: a [`CorpusBuilder`] fed
    /// the whole text at once.
    ///
    /// Fails like [`CorpusBuilder::finish`], and checks `config` before tokenizing.
    pub fn build(text: &str, tokenizer: &dyn Tokenizer, config: &VocabConfig) -> Result<Corpus> {
        config.validate()?;
        let mut builder = CorpusBuilder::new(tokenizer);
        builder.push(text, true);
        builder.finish(config)
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

/// Non-space characters kept from the start of the text for [`Error::NoWords`].
const SAMPLE_CHARS: usize = 12;

/// Builds a [`Corpus`] from a text fed a piece at a time, so a caller can tokenize a large
/// text in pieces and report progress in between. The `Corpus` is the same however the
/// text is cut into pieces, and the same as [`Corpus::build`] gives.
///
/// Pieces may be cut anywhere between characters. The builder tokenizes the text up to the
/// last line boundary it has seen, a `\n` followed by a character other than `\n` or
/// `\r`, and holds back the rest until the next piece: every tokenizer splits a text at
/// such a boundary as it splits the two halves (see [`Tokenizer`]). So pieces that end at
/// line boundaries are tokenized at once, and a text of one long line is held back whole
/// until [`CorpusBuilder::finish`].
///
/// The tokenizer is owned (`T` may be a reference, a `Box` or an `Rc`), so a builder can be
/// kept between calls while a worker feeds it.
pub struct CorpusBuilder<T> {
    tokenizer: T,
    interner: Interner,
    /// The text after the last line boundary, not tokenized yet.
    pending: String,
    /// Up to [`SAMPLE_CHARS`] non-space characters from the start of the text.
    sample: String,
    bytes_fed: u64,
}

impl<T: Tokenizer> CorpusBuilder<T> {
    /// A builder that tokenizes with `tokenizer`.
    pub fn new(tokenizer: T) -> CorpusBuilder<T> {
        CorpusBuilder {
            tokenizer,
            interner: Interner::default(),
            pending: String::new(),
            sample: String::new(),
            bytes_fed: 0,
        }
    }

    /// Tokenizes the next piece of the text, up to its last line boundary.
    pub fn feed(&mut self, piece: &str) {
        self.push(piece, false);
    }

    /// Bytes of text fed so far.
    pub fn bytes_fed(&self) -> u64 {
        self.bytes_fed
    }

    /// Tokens made so far (the text held back is not tokenized yet).
    pub fn tokens_seen(&self) -> u64 {
        self.interner.stream.len() as u64
    }

    /// Tokenizes what was held back, counts every token type, cuts the rare ones (by
    /// `min_count`, then `max_vocab`) and gives the corpus.
    ///
    /// Fails with [`Error::EmptyCorpus`] when the text has no token (empty or only
    /// whitespace), [`Error::NoWords`] when it is not blank but the tokenizer made no token
    /// of it (only punctuation, with the word tokenizer), [`Error::EmptyVocabulary`] when
    /// `min_count` cuts every type, and [`Error::SingleWord`] when one type is left.
    pub fn finish(mut self, config: &VocabConfig) -> Result<Corpus> {
        config.validate()?;
        let pending = std::mem::take(&mut self.pending);
        self.tokenizer.tokenize(&pending, &mut self.interner);
        self.interner.end_sentence();
        let Interner { types, counts, stream, sentence_ends } = self.interner;
        let types = types.into_vec();
        if stream.is_empty() {
            return Err(if self.sample.is_empty() {
                Error::EmptyCorpus
            } else {
                Error::NoWords { sample: self.sample }
            });
        }

        // Order by descending count; the stable sort keeps first-occurrence order on ties.
        let mut order: Vec<u32> = (0..types.len() as u32).collect();
        order.sort_by(|&a, &b| counts[b as usize].cmp(&counts[a as usize]));
        let count_at = |rank: usize| order.get(rank).map_or(0, |&t| counts[t as usize]);

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
        if types.len() == 1 || kept == 1 {
            // `max_vocab` is at least 2, so only `min_count` can leave a single type.
            return Err(Error::SingleWord {
                word: types[order[0] as usize].clone(),
                types_cut: types.len() - 1,
                min_count: config.min_count,
                second_count: count_at(1),
            });
        }
        if kept == 0 {
            return Err(Error::EmptyVocabulary {
                types_cut: cut.types_cut(),
                tokens_cut: cut.tokens_cut(),
                min_count: config.min_count,
                max_count: count_at(0),
                second_count: count_at(1),
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
        let words = Arc::new(Words::from_vec(words).expect("interned types are distinct"));
        Ok(Corpus { vocab: Vocab { words, counts }, ids, sentence_ends: ends, cut })
    }

    /// Tokenizes `piece` up to its last line boundary, or whole when it is the `last` piece.
    fn push(&mut self, piece: &str, last: bool) {
        self.bytes_fed += piece.len() as u64;
        let missing = SAMPLE_CHARS - self.sample.chars().count();
        if missing > 0 {
            // Only the text's first few non-space characters are kept.
            self.sample.extend(piece.chars().filter(|c| !c.is_whitespace()).take(missing));
        }
        let bytes = piece.as_bytes();
        let after_break = self.pending.ends_with('\n');
        let is_boundary = |at: usize| {
            let before_is_break = if at == 0 { after_break } else { bytes[at - 1] == b'\n' };
            before_is_break && !matches!(bytes[at], b'\n' | b'\r')
        };
        let (first, last_boundary) = if last {
            (piece.len(), piece.len())
        } else {
            match (0..bytes.len()).find(|&at| is_boundary(at)) {
                None => {
                    self.pending.push_str(piece);
                    return;
                }
                Some(first) => {
                    (first, (first..bytes.len()).rev().find(|&at| is_boundary(at)).unwrap_or(first))
                }
            }
        };
        if !self.pending.is_empty() {
            self.pending.push_str(&piece[..first]);
            self.tokenizer.tokenize(&self.pending, &mut self.interner);
            self.pending.clear();
            self.tokenizer.tokenize(&piece[first..last_boundary], &mut self.interner);
        } else {
            self.tokenizer.tokenize(&piece[..last_boundary], &mut self.interner);
        }
        self.pending.push_str(&piece[last_boundary..]);
    }
}

/// Interns tokens in first-occurrence order while recording the raw id stream.
#[derive(Default)]
struct Interner {
    types: Words,
    counts: Vec<u64>,
    stream: Vec<u32>,
    sentence_ends: Vec<usize>,
}

impl TokenSink for Interner {
    fn token(&mut self, token: &str) {
        let id = self.types.intern(token);
        if id as usize == self.counts.len() {
            self.counts.push(0);
        }
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
    use crate::fuzz::from_pieces;
    use crate::text::{BpeConfig, BpeLearner, BpeMode, BpeTokenizer, WhitespaceTokenizer, WordTokenizer};
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

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
        let corpus = build("a b\nrare\nb a", 2, None).unwrap();
        assert_eq!(corpus.sentence_ends(), &[2, 4]);
        assert_eq!(corpus.n_sentences(), 2);
    }

    #[test]
    fn degenerate_texts_are_errors_that_say_what_to_do() {
        let words = WordTokenizer::default();
        let punctuation = WordTokenizer { lowercase: false, keep_punctuation: true };
        let config = |min_count| VocabConfig { min_count, max_vocab: None };
        // (text, tokenizer, min_count, the error, a fragment of its message)
        let cases: Vec<(&str, &dyn Tokenizer, u64, Error, &str)> = vec![
            ("", &WhitespaceTokenizer, 1, Error::EmptyCorpus, "empty or only whitespace; choose a file"),
            (" \n\t\r\n\u{a0}", &words, 1, Error::EmptyCorpus, "holds no tokens"),
            (
                "!!! ... \n ,;— ?",
                &words,
                1,
                Error::NoWords { sample: "!!!...,;—?".into() },
                "only punctuation and symbols (such as '!!!...,;—?'), which the word tokenizer drops: \
                 turn on keep punctuation, or use the whitespace tokenizer",
            ),
            (
                "word word\nword",
                &WhitespaceTokenizer,
                1,
                Error::SingleWord { word: "word".into(), types_cut: 0, min_count: 1, second_count: 0 },
                "the text holds only one distinct word, 'word': embeddings need at least two distinct words",
            ),
            (
                "Yes! yes.",
                &WordTokenizer { lowercase: true, keep_punctuation: false },
                3,
                Error::SingleWord { word: "yes".into(), types_cut: 0, min_count: 3, second_count: 0 },
                "only one distinct word, 'yes'",
            ),
            (
                "a a a b c b",
                &WhitespaceTokenizer,
                3,
                Error::SingleWord { word: "a".into(), types_cut: 2, min_count: 3, second_count: 2 },
                "only one word, 'a', occurs at least min_count = 3 times (the other 2 distinct words were \
                 cut): embeddings need at least two distinct words, so try min_count <= 2",
            ),
            (
                "a b c a",
                &WhitespaceTokenizer,
                5,
                Error::EmptyVocabulary {
                    types_cut: 3,
                    tokens_cut: 4,
                    min_count: 5,
                    max_count: 2,
                    second_count: 1,
                },
                "all 3 distinct words (4 tokens) were cut by min_count = 5; the most frequent word occurs \
                 2 times and the next 1 time, so try min_count <= 1",
            ),
            (
                "a b a b",
                &WhitespaceTokenizer,
                3,
                Error::EmptyVocabulary {
                    types_cut: 2,
                    tokens_cut: 4,
                    min_count: 3,
                    max_count: 2,
                    second_count: 2,
                },
                "the most frequent word occurs 2 times, so try min_count <= 2",
            ),
        ];
        for (text, tokenizer, min_count, expected, message) in cases {
            let err = Corpus::build(text, tokenizer, &config(min_count)).unwrap_err();
            assert_eq!(err, expected, "{text:?}");
            assert!(err.to_string().contains(message), "{text:?}: {err}");
        }
        // Keeping punctuation makes tokens of it.
        let corpus = Corpus::build("!!! ... ,", &punctuation, &config(1)).unwrap();
        assert_eq!(corpus.vocab().words(), &["!", ".", ","]);
        assert!(build("a", 0, None).is_err());
        let err = build("a b", 1, Some(1)).unwrap_err();
        assert_eq!(err.to_string(), "invalid max_vocab = 1: expected an integer of at least 2, or no limit");
    }

    /// Texts made of pieces that stress line handling: every kind of line end, blank lines,
    /// stray carriage returns, words the tokenizers split differently.
    fn random_text(rng: &mut Xoshiro256PlusPlus, len: usize) -> String {
        const PIECES: &[&str] = &[
            "a", "b", "the", "don't", "café", "e\u{301}", "東京", "🦀", ",", ".", "!", " ", " ", "  ", "\t",
            "\u{a0}", "\n", "\n", "\r\n", "\r", "\n\n", "\n\r", "\r\n\r\n", "-",
        ];
        from_pieces(rng, PIECES, len)
    }

    /// Cuts `text` at random character boundaries (any, or only right after a `\n`).
    fn random_pieces<'t>(
        rng: &mut Xoshiro256PlusPlus,
        text: &'t str,
        only_after_newline: bool,
    ) -> Vec<&'t str> {
        let mut pieces = Vec::new();
        let mut start = 0;
        for (at, _) in text.char_indices().skip(1) {
            let allowed = !only_after_newline || text[..at].ends_with('\n');
            if allowed && rng.random_range(0..4) == 0 {
                pieces.push(&text[start..at]);
                start = at;
            }
        }
        pieces.push(&text[start..]);
        pieces
    }

    #[test]
    fn feeding_pieces_gives_the_same_corpus_as_the_whole_text() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let training = random_text(&mut rng, 3_000);
        let mut bpe = Vec::new();
        for mode in [BpeMode::Cross, BpeMode::Within] {
            let mut learner = BpeLearner::new(&training, &BpeConfig { vocab_size: 80, mode }).unwrap();
            learner.step(usize::MAX);
            bpe.push(BpeTokenizer::new(learner.into_model()));
        }
        let tokenizers: Vec<&dyn Tokenizer> = vec![
            &WhitespaceTokenizer,
            &WordTokenizer { lowercase: false, keep_punctuation: false },
            &WordTokenizer { lowercase: true, keep_punctuation: true },
            &bpe[0],
            &bpe[1],
        ];
        for case in 0..150 {
            let len = rng.random_range(0..80);
            let text = random_text(&mut rng, len);
            for tokenizer in &tokenizers {
                let config = VocabConfig { min_count: 1 + case % 2, max_vocab: None };
                let whole = Corpus::build(&text, *tokenizer, &config);
                for only_after_newline in [false, true] {
                    let mut builder = CorpusBuilder::new(*tokenizer);
                    let mut tokens_seen = 0;
                    for piece in random_pieces(&mut rng, &text, only_after_newline) {
                        builder.feed(piece);
                        assert!(builder.tokens_seen() >= tokens_seen);
                        tokens_seen = builder.tokens_seen();
                    }
                    assert_eq!(builder.bytes_fed(), text.len() as u64);
                    let pieces = builder.finish(&config);
                    assert_eq!(pieces, whole, "{} on {text:?}", tokenizer.describe());
                }
            }
        }
    }

    #[test]
    fn line_aligned_pieces_are_tokenized_as_they_come() {
        let mut builder = CorpusBuilder::new(WhitespaceTokenizer);
        builder.feed("a b\nc");
        // "c" may go on in the next piece; "a b" is done.
        assert_eq!(builder.tokens_seen(), 2);
        builder.feed("d\n\n");
        // A run of line ends may go on too.
        assert_eq!(builder.tokens_seen(), 2);
        builder.feed("e\n");
        assert_eq!(builder.tokens_seen(), 3);
        let corpus = builder.finish(&VocabConfig { min_count: 1, max_vocab: None }).unwrap();
        assert_eq!(corpus.vocab().words(), &["a", "b", "cd", "e"]);
        assert_eq!(corpus.sentence_ends(), &[2, 3, 4]);
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
