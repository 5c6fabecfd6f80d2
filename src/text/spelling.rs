//! The nearest spellings of a word a vocabulary lacks: the "did you mean" of every query.
//!
//! Two words are compared lowercased, by the optimal string alignment distance (the
//! restricted Damerau–Levenshtein distance): inserting, deleting or substituting a
//! character, or swapping two adjacent ones, is one edit. So the same word in another case
//! ("france" for "France") is 0 edits away and comes first, and "Egpyt" is one edit from
//! "Egypt". Words as near as each other come most frequent first,
//! which in a vocabulary is the lower index.
//!
//! An `n`-character word is matched within [`max_edits`]`(n)` edits, rustc's bound for its
//! own "did you mean" (`max(n, 3) / 3`: one edit up to five characters, two up to eight),
//! capped at three. A word whose length differs by more than that is skipped before any
//! distance is computed, a distance stops as soon as it exceeds the bound, and once the
//! answer is full only nearer words are measured: a search of 250,000 words takes a few
//! milliseconds, up to about twenty for a long word (three edits allowed) with few words
//! near it, where computing every distance in full took several times as long.

/// The most spellings offered for an unknown word.
pub const MAX_SUGGESTIONS: usize = 3;

/// The most edits between a word and a spelling offered for it, however long the word.
const MAX_EDITS: usize = 3;

/// The most edits between a word of `n_chars` characters and a spelling offered for it.
pub fn max_edits(n_chars: usize) -> usize {
    (n_chars.max(3) / 3).min(MAX_EDITS)
}

/// The indices of up to `limit` words of `vocabulary` spelled nearest to `word`, nearest
/// first, ties to the lower index; `word` itself is never one of them.
///
/// **Unchecked precondition:** `vocabulary` is ordered most frequent first (a vocabulary's
/// and an `Embeddings`' words are), so that ties go to the more frequent word.
pub fn nearest_spellings(word: &str, vocabulary: &[String], limit: usize) -> Vec<usize> {
    if limit == 0 {
        return Vec::new();
    }
    let wanted: Vec<char> = fold(word).collect();
    // Most words are ASCII: those are compared as bytes, lowercased without decoding.
    let wanted_bytes: Option<Vec<u8>> =
        wanted.iter().all(char::is_ascii).then(|| wanted.iter().map(|&c| c as u8).collect());
    let mut bound = max_edits(wanted.len());
    let mut osa = Osa::default();
    let (mut chars, mut bytes): (Vec<char>, Vec<u8>) = (Vec::new(), Vec::new());
    // (distance, index), ordered; at most `limit`.
    let mut nearest: Vec<(usize, usize)> = Vec::with_capacity(limit + 1);
    for (idx, spelling) in vocabulary.iter().enumerate() {
        // Lowercased, a word has at most as many characters as it has bytes, and an ASCII word
        // exactly as many: most words are skipped by their length alone.
        if spelling.len() + bound < wanted.len() || spelling == word {
            continue;
        }
        let ascii = spelling.is_ascii();
        if ascii && spelling.len() > wanted.len() + bound {
            continue;
        }
        let distance = match &wanted_bytes {
            Some(wanted_bytes) if ascii => {
                bytes.clear();
                bytes.extend(spelling.bytes().map(|b| b.to_ascii_lowercase()));
                osa.distance_within(wanted_bytes, &bytes, bound)
            }
            _ => {
                chars.clear();
                chars.extend(fold(spelling));
                osa.distance_within(&wanted, &chars, bound)
            }
        };
        let Some(distance) = distance else { continue };
        // Later words lose ties: they go after the ones as near.
        let at = nearest.partition_point(|&(d, _)| d <= distance);
        nearest.insert(at, (distance, idx));
        nearest.truncate(limit);
        if nearest.len() == limit {
            // Full: only a nearer word can still get in.
            match nearest[limit - 1].0.checked_sub(1) {
                Some(nearer) => bound = nearer,
                None => break,
            }
        }
    }
    nearest.into_iter().map(|(_, idx)| idx).collect()
}

/// `word`'s characters lowercased.
fn fold(word: &str) -> impl Iterator<Item = char> + '_ {
    word.chars().flat_map(char::to_lowercase)
}

/// The optimal string alignment distance within a bound, its three rows kept between calls.
///
/// Written here rather than taken from `strsim` (whose `osa_distance` the tests check it
/// against): strsim fills every cell of the table and allocates its rows for each pair, several
/// times slower over 250,000 words. Within a bound `k` only the cells at most `k` off
/// the diagonal can lie on a path of cost `k`, and once a whole row exceeds `k` so does the
/// distance.
#[derive(Default)]
struct Osa {
    before: Vec<usize>,
    previous: Vec<usize>,
    current: Vec<usize>,
}

/// A cell off the band: further than any bound.
const FAR: usize = usize::MAX / 2;

impl Osa {
    /// The distance of `a` and `b` (insertions, deletions, substitutions and swaps of two
    /// adjacent characters, each substring edited once), or None when it exceeds `bound`.
    fn distance_within<T: Copy + PartialEq>(&mut self, a: &[T], b: &[T], bound: usize) -> Option<usize> {
        let (n, m) = (a.len(), b.len());
        if n.abs_diff(m) > bound {
            return None;
        }
        let Osa { before, previous, current } = self;
        // Each row is read only within the band and one cell past it, which each row writes
        // first: what the rows held before needs no clearing.
        for row in [&mut *before, &mut *previous, &mut *current] {
            if row.len() < m + 2 {
                row.resize(m + 2, FAR);
            }
        }
        // Row 0: j insertions, within the band.
        let band = m.min(bound);
        for (j, cell) in previous.iter_mut().enumerate().take(band + 1) {
            *cell = j;
        }
        previous[band + 1] = FAR;
        for i in 1..=n {
            let (lo, hi) = (i.saturating_sub(bound).max(1), (i + bound).min(m));
            current[lo - 1] = if lo == 1 && i <= bound { i } else { FAR };
            let mut row_min = current[lo - 1];
            for j in lo..=hi {
                let substitution = previous[j - 1] + usize::from(a[i - 1] != b[j - 1]);
                let mut cell = substitution.min(previous[j] + 1).min(current[j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    cell = cell.min(before[j - 2] + 1);
                }
                current[j] = cell;
                row_min = row_min.min(cell);
            }
            // The next row reads one cell past the band.
            current[hi + 1] = FAR;
            if row_min > bound {
                return None;
            }
            std::mem::swap(before, previous);
            std::mem::swap(previous, current);
        }
        Some(previous[m]).filter(|&d| d <= bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Most frequent first, as a vocabulary is.
    const VOCABULARY: &[&str] = &[
        "the",
        "of",
        "France",
        "king",
        "queen",
        "Egypt",
        "kings",
        "Queen",
        "french",
        "quern",
        "egypt",
        "Egyptians",
        "Egyptian",
        "égypte",
        "a",
        "I",
    ];

    fn check(word: &str, limit: usize, expected: &[&str]) {
        let vocabulary: Vec<String> = VOCABULARY.iter().map(|w| w.to_string()).collect();
        let found: Vec<&str> =
            nearest_spellings(word, &vocabulary, limit).into_iter().map(|i| VOCABULARY[i]).collect();
        assert_eq!(found, expected, "{word:?}, limit {limit}");
    }

    #[test]
    fn nearest_spellings_have_known_answers() {
        let cases: &[(&str, usize, &[&str])] = &[
            // Another case first, then the edits a six-letter word allows (two).
            ("france", 3, &["France", "french"]),
            ("FRANCE", 3, &["France", "french"]),
            // A swap of two letters is one edit; as near, the more frequent comes first.
            ("Egpyt", 3, &["Egypt", "egypt"]),
            ("kign", 3, &["king"]),
            // A word in another case beats a more frequent word one edit away.
            ("Kings", 3, &["kings", "king"]),
            // A nearer word beats a more frequent one further away.
            ("Egyptain", 3, &["Egyptian", "Egyptians"]),
            ("ÉGYPTE", 3, &["égypte", "Egypt", "egypt"]),
            // A four-letter word allows one edit: "quern" is two from "qeen".
            ("qeen", 3, &["queen", "Queen"]),
            ("quen", 3, &["queen", "Queen", "quern"]),
            ("quen", 2, &["queen", "Queen"]),
            ("quen", 0, &[]),
            // Nothing near.
            ("xyzzy", 3, &[]),
            ("Napoleon", 3, &[]),
            // Short words: one edit, most frequent first.
            ("b", 3, &["a", "I"]),
            // The word itself is not a spelling of it.
            ("queen", 3, &["Queen", "quern"]),
        ];
        for &(word, limit, expected) in cases {
            check(word, limit, expected);
        }
    }

    #[test]
    fn bounded_distances_have_known_answers() {
        let cases = [
            ("egypt", "egpyt", 3, Some(1)),
            ("ca", "abc", 3, Some(3)),
            ("kitten", "sitting", 3, Some(3)),
            ("kitten", "sitting", 2, None),
            ("", "abc", 3, Some(3)),
            ("abc", "", 2, None),
            ("abcdef", "badcfe", 3, Some(3)),
            ("abcdef", "badcfe", 2, None),
            ("same", "same", 0, Some(0)),
            ("same", "some", 0, None),
            // The rows are kept from pair to pair: a 0 left past the band must not count.
            ("ab", "ab", 1, Some(0)),
            ("x", "yz", 1, None),
            ("abcde", "abcde", 1, Some(0)),
            ("xy", "pqr", 1, None),
        ];
        let mut osa = Osa::default();
        for (a, b, bound, expected) in cases {
            let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            assert_eq!(osa.distance_within(&a, &b, bound), expected, "{a:?} {b:?} within {bound}");
            assert_eq!(osa.distance_within(&b, &a, bound), expected, "{b:?} {a:?} within {bound}");
        }
    }

    #[test]
    fn max_edits_grows_with_length_up_to_three() {
        let cases = [(0, 1), (1, 1), (3, 1), (5, 1), (6, 2), (8, 2), (9, 3), (11, 3), (12, 3), (40, 3)];
        for (n_chars, expected) in cases {
            assert_eq!(max_edits(n_chars), expected, "{n_chars} characters");
        }
    }

    /// Every word over four letters up to five long, and queries over five letters, some of
    /// either outside ASCII: the search (its length filter, its shrinking bound, its rows kept
    /// from word to word) answers what ranking every word does.
    #[test]
    fn nearest_spellings_equal_a_ranking_of_every_word() {
        let mut vocabulary = Vec::new();
        let mut level = vec![String::new()];
        for _ in 0..5 {
            level = level.iter().flat_map(|w| ['a', 'b', 'C', 'É'].map(|c| format!("{w}{c}"))).collect();
            vocabulary.extend(level.iter().cloned());
        }
        let mut state = 0x9e37_79b9_u32;
        for _ in 0..500 {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let len = 1 + (state >> 8) as usize % 9;
            let query: String =
                (0..len).map(|i| ['a', 'B', 'c', 'd', 'é'][(state >> (i * 3 % 24)) as usize % 5]).collect();
            let wanted = query.to_lowercase();
            let mut ranked: Vec<(usize, usize)> = (vocabulary.iter().enumerate())
                .filter(|(_, w)| **w != query)
                .map(|(i, w)| (strsim::osa_distance(&wanted, &w.to_lowercase()), i))
                .filter(|&(d, _)| d <= max_edits(len))
                .collect();
            ranked.sort();
            let expected: Vec<usize> = ranked.into_iter().take(MAX_SUGGESTIONS).map(|(_, i)| i).collect();
            assert_eq!(nearest_spellings(&query, &vocabulary, MAX_SUGGESTIONS), expected, "{query}");
        }
    }
}
