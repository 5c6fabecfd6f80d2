//! The names of a fastText model's words whose bytes are not UTF-8.

/// Names by their bytes (as gensim does, `errors='backslashreplace'`) every word of `raw`
/// (its index in `words` and its bytes) when two of them read alike with U+FFFD, and says
/// whether it did.
pub(super) fn name_clashes_by_bytes(words: &mut [String], raw: &[(usize, Vec<u8>)]) -> bool {
    if raw.is_empty() {
        return false;
    }
    let names: std::collections::HashSet<&str> = raw.iter().map(|(i, _)| words[*i].as_str()).collect();
    let mut times = std::collections::HashMap::new();
    for word in words.iter().filter(|w| names.contains(w.as_str())) {
        *times.entry(word.as_str()).or_insert(0usize) += 1;
    }
    let clash = times.values().any(|&n| n > 1);
    if clash {
        for (i, bytes) in raw {
            words[*i] = backslash_replace(bytes);
        }
    }
    clash
}

/// `raw` as UTF-8 where it is, each other byte as `\xNN`.
fn backslash_replace(raw: &[u8]) -> String {
    let mut out = String::new();
    for chunk in raw.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_alike_with_u_fffd_are_named_by_their_bytes() {
        let mut words = vec!["a".to_string(), "u\u{fffd}t".to_string(), "u\u{fffd}t".to_string()];
        let raw = vec![(1, b"u\xfft".to_vec()), (2, b"u\xfet".to_vec())];
        assert!(name_clashes_by_bytes(&mut words, &raw));
        assert_eq!(words, ["a", "u\\xfft", "u\\xfet"]);
        let mut apart = vec!["u\u{fffd}t".to_string(), "v".to_string()];
        assert!(!name_clashes_by_bytes(&mut apart, &[(0, b"u\xfft".to_vec())]));
        assert_eq!(apart, ["u\u{fffd}t", "v"]);
        assert_eq!(backslash_replace("é\u{0}".as_bytes()), "é\u{0}");
    }
}
