//! Generators for the seeded property tests ("fuzz tests") that hold the core to its
//! invariant: no input makes it panic. Each reader of user input (text decoding, the
//! tokenizers, BPE, the vectors parser, JSON and the bundle, the benchmark files) has a test
//! next to it that feeds it random and mutated inputs from here. Seeded, so a failure
//! repeats; small, so each test runs in well under a second.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt};

/// Pieces that break JSON in telling ways, for [`mutate_text`]: brackets, quotes, escapes
/// and lone surrogates, numbers out of range, half literals.
#[rustfmt::skip]
pub(crate) const JSON_PIECES: &[&str] = &[
    "{", "}", "[", "]", "\"", "\\", "\\u", "\\ud800", "\\udc00\\u", ",", ":", "-", "1e400", "0.", "-0",
    "18446744073709551616", "tru", "null", "\u{0}", "\u{feff}", "é", " ", "\n",
];

/// A random finite `f32` bit pattern: subnormals, huge values and negative zero included,
/// for round trips that must keep every bit.
pub(crate) fn random_finite_f32(rng: &mut Xoshiro256PlusPlus) -> f32 {
    loop {
        let v = f32::from_bits(rng.next_u32());
        if v.is_finite() {
            return v;
        }
    }
}

/// `len` pieces drawn from `pieces`: texts built from parts chosen to stress a reader.
pub(crate) fn from_pieces(rng: &mut Xoshiro256PlusPlus, pieces: &[&str], len: usize) -> String {
    (0..len).map(|_| pieces[rng.random_range(0..pieces.len())]).collect()
}

/// A string of `len` characters, any Unicode scalar value but weighted towards what texts
/// hold: ASCII, whitespace of every kind and line ends, punctuation, accented and combining
/// characters, other scripts, emoji, and control characters.
pub(crate) fn random_unicode(rng: &mut Xoshiro256PlusPlus, len: usize) -> String {
    const SPACES: &[char] = &[' ', ' ', '\t', '\n', '\n', '\r', '\u{a0}', '\u{2028}', '\u{3000}', '\u{feff}'];
    let mut text = String::new();
    for _ in 0..len {
        let code = match rng.random_range(0..20) {
            0..6 => rng.random_range(0x30..0x7B),
            6..9 => SPACES[rng.random_range(0..SPACES.len())] as u32,
            9..11 => rng.random_range(0x21..0x30),
            11 => rng.random_range(0x300..0x370),
            12..14 => rng.random_range(0xA0..0x500),
            14 => rng.random_range(0x3040..0x9FFF),
            15 => rng.random_range(0x1F300..0x1FAFF),
            16 => rng.random_range(0..0x20),
            17 => rng.random_range(0x7F..0xA0),
            _ => rng.random_range(0..0x11_0000),
        };
        text.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
    }
    text
}

/// `len` bytes: any value, or mostly printable ASCII with line ends, tabs and a few high
/// bytes, or bytes drawn from `alphabet`.
pub(crate) fn random_bytes(rng: &mut Xoshiro256PlusPlus, len: usize, alphabet: &[u8]) -> Vec<u8> {
    let style = rng.random_range(0..3);
    (0..len)
        .map(|_| match style {
            0 => rng.next_u32() as u8,
            1 => match rng.random_range(0..20) {
                0 => b'\n',
                1 => b'\t',
                2 => rng.random_range(0x80..=0xFF),
                _ => rng.random_range(0x20..0x7F),
            },
            _ => alphabet[rng.random_range(0..alphabet.len())],
        })
        .collect()
}

/// `bytes` after one to four random edits: a range deleted, duplicated or cut off, a byte
/// flipped, random bytes or one of `interesting` inserted.
pub(crate) fn mutate_bytes(rng: &mut Xoshiro256PlusPlus, bytes: &[u8], interesting: &[&[u8]]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for _ in 0..rng.random_range(1..5) {
        let len = out.len();
        let at = rng.random_range(0..=len);
        let end = (at + rng.random_range(0..16)).min(len);
        match rng.random_range(0..6) {
            0 => {
                out.drain(at..end);
            }
            1 => {
                let copy = out[at..end].to_vec();
                out.splice(at..at, copy);
            }
            2 => out.truncate(at),
            3 if at < len => out[at] ^= 1 << rng.random_range(0..8),
            4 if !interesting.is_empty() => {
                let piece = interesting[rng.random_range(0..interesting.len())];
                out.splice(at..at, piece.iter().copied());
            }
            _ => {
                let n = rng.random_range(1..4);
                out.splice(at..at, (0..n).map(|_| rng.next_u32() as u8));
            }
        }
    }
    out
}

/// `text` after [`mutate_bytes`], kept valid UTF-8 (a broken character becomes U+FFFD).
pub(crate) fn mutate_text(rng: &mut Xoshiro256PlusPlus, text: &str, interesting: &[&str]) -> String {
    let interesting: Vec<&[u8]> = interesting.iter().map(|s| s.as_bytes()).collect();
    String::from_utf8_lossy(&mutate_bytes(rng, text.as_bytes(), &interesting)).into_owned()
}

/// An input for a text reader: a quarter of the time random Unicode (up to 60 characters),
/// else `valid` after [`mutate_text`].
pub(crate) fn random_or_mutated(rng: &mut Xoshiro256PlusPlus, valid: &str, interesting: &[&str]) -> String {
    if rng.random_range(0..4) == 0 {
        let len = rng.random_range(0..60);
        random_unicode(rng, len)
    } else {
        mutate_text(rng, valid, interesting)
    }
}

/// `bytes` cut into consecutive slices of random lengths (empty ones included).
pub(crate) fn random_slices<'b>(rng: &mut Xoshiro256PlusPlus, bytes: &'b [u8]) -> Vec<&'b [u8]> {
    let mut slices = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let take = match rng.random_range(0..4) {
            0 => 0,
            1 => 1,
            2 => rng.random_range(1..8),
            _ => rng.random_range(1..200),
        };
        let (slice, tail) = rest.split_at(take.min(rest.len()));
        slices.push(slice);
        rest = tail;
    }
    slices
}
