//! Writers for the four formats of the [`io` module](super). Every writer escapes words with
//! [`escape_token`] and rejects the empty word, which no format can hold, before writing
//! anything.

use std::io::{BufWriter, Write};

use super::escape::escape_token;
use crate::error::{Error, Result};
use crate::vectors::Embeddings;

/// Writes `emb` in the word2vec text format, words escaped.
///
/// Fails with [`Error::InvalidParameter`] (before writing anything) when a word is empty,
/// and with [`Error::Io`] when writing fails.
pub fn write_word2vec_text(emb: &Embeddings, writer: impl Write) -> Result<()> {
    check_words_storable(emb)?;
    let mut w = BufWriter::new(writer);
    writeln!(w, "{} {}", emb.len(), emb.dim())?;
    write_word_lines(emb, &mut w)?;
    w.flush()?;
    Ok(())
}

/// Writes `emb` in GloVe's text format: the word2vec text format without its header line.
///
/// Fails like [`write_word2vec_text`].
pub fn write_glove(emb: &Embeddings, writer: impl Write) -> Result<()> {
    check_words_storable(emb)?;
    let mut w = BufWriter::new(writer);
    write_word_lines(emb, &mut w)?;
    w.flush()?;
    Ok(())
}

/// Writes `emb` in the word2vec binary format, words escaped.
///
/// Fails like [`write_word2vec_text`].
pub fn write_word2vec_binary(emb: &Embeddings, writer: impl Write) -> Result<()> {
    check_words_storable(emb)?;
    let mut w = BufWriter::new(writer);
    writeln!(w, "{} {}", emb.len(), emb.dim())?;
    for (word_idx, word) in emb.words().iter().enumerate() {
        w.write_all(escape_token(word).as_bytes())?;
        w.write_all(b" ")?;
        for v in emb.vector(word_idx).iter() {
            w.write_all(&v.to_le_bytes())?;
        }
        w.write_all(b"\n")?;
    }
    w.flush()?;
    Ok(())
}

/// Writes the TensorFlow Embedding Projector's pair of files: `vectors` gets one line of
/// tab-separated values per word, `metadata` one escaped word per line (a single column, so
/// no header line, as the Projector expects). Escaping keeps a token with a tab or a
/// newline on its own line. [`write_projector_vectors`] and [`write_projector_metadata`]
/// write one file of the pair each.
///
/// Fails like [`write_word2vec_text`].
pub fn write_projector_tsv(emb: &Embeddings, vectors: impl Write, metadata: impl Write) -> Result<()> {
    check_words_storable(emb)?;
    write_projector_vectors(emb, vectors)?;
    write_projector_metadata(emb, metadata)
}

/// The Projector's `vectors.tsv` alone (see [`write_projector_tsv`]).
pub fn write_projector_vectors(emb: &Embeddings, vectors: impl Write) -> Result<()> {
    check_words_storable(emb)?;
    let mut v = BufWriter::new(vectors);
    for word_idx in 0..emb.len() {
        for (i, x) in emb.vector(word_idx).iter().enumerate() {
            write!(v, "{}{x}", if i == 0 { "" } else { "\t" })?;
        }
        v.write_all(b"\n")?;
    }
    v.flush()?;
    Ok(())
}

/// The Projector's `metadata.tsv` alone (see [`write_projector_tsv`]).
pub fn write_projector_metadata(emb: &Embeddings, metadata: impl Write) -> Result<()> {
    check_words_storable(emb)?;
    let mut m = BufWriter::new(metadata);
    for word in emb.words() {
        writeln!(m, "{}", escape_token(word))?;
    }
    m.flush()?;
    Ok(())
}

/// One line per word, `word v1 … vdim\n`: the body of the word2vec text and GloVe formats.
/// Values use Rust's shortest round-trip formatting, so reading them back gives the same bits.
fn write_word_lines(emb: &Embeddings, w: &mut impl Write) -> Result<()> {
    for (word_idx, word) in emb.words().iter().enumerate() {
        w.write_all(escape_token(word).as_bytes())?;
        for v in emb.vector(word_idx).iter() {
            write!(w, " {v}")?;
        }
        w.write_all(b"\n")?;
    }
    Ok(())
}

fn check_words_storable(emb: &Embeddings) -> Result<()> {
    match emb.words().iter().position(String::is_empty) {
        Some(word_idx) => Err(Error::InvalidParameter {
            name: "word",
            value: format!("\"\" (word {})", word_idx + 1),
            expected: "a non-empty word: vector files cannot hold an empty one".into(),
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writers_reject_the_empty_word() {
        let emb = Embeddings::new(vec!["a".into(), String::new()], 1, vec![1.0, 2.0]).unwrap();
        let mut out = Vec::new();
        let rejected =
            |result: Result<()>| matches!(result, Err(Error::InvalidParameter { name: "word", .. }));
        assert!(rejected(write_word2vec_text(&emb, &mut out)));
        assert!(rejected(write_word2vec_binary(&emb, &mut out)));
        assert!(rejected(write_glove(&emb, &mut out)));
        let mut metadata = Vec::new();
        assert!(rejected(write_projector_tsv(&emb, &mut out, &mut metadata)));
        assert!(rejected(write_projector_vectors(&emb, &mut out)));
        assert!(rejected(write_projector_metadata(&emb, &mut metadata)));
        assert!(out.is_empty() && metadata.is_empty());
    }

    #[test]
    fn text_writers_escape_words_and_glove_has_no_header() {
        let words = vec!["a\tb".to_string(), "x y".to_string()];
        let emb = Embeddings::new(words, 2, vec![1.0, -0.5, 0.25, 2.0]).unwrap();
        let (mut text, mut glove) = (Vec::new(), Vec::new());
        write_word2vec_text(&emb, &mut text).unwrap();
        write_glove(&emb, &mut glove).unwrap();
        assert_eq!(String::from_utf8(text).unwrap(), "2 2\na\\tb 1 -0.5\nx\\sy 0.25 2\n");
        assert_eq!(String::from_utf8(glove).unwrap(), "a\\tb 1 -0.5\nx\\sy 0.25 2\n");
    }

    #[test]
    fn projector_tsv_has_one_line_per_word_and_escapes_tokens() {
        let words = vec!["a\tb".to_string(), "x y".to_string()];
        let emb = Embeddings::new(words, 2, vec![1.0, -0.5, 0.25, 2.0]).unwrap();
        let (mut vectors, mut metadata) = (Vec::new(), Vec::new());
        write_projector_tsv(&emb, &mut vectors, &mut metadata).unwrap();
        assert_eq!(String::from_utf8(vectors).unwrap(), "1\t-0.5\n0.25\t2\n");
        assert_eq!(String::from_utf8(metadata).unwrap(), "a\\tb\nx\\sy\n");
        // Each file of the pair alone is the same file (the explorer builds one per click).
        let (mut alone_vectors, mut alone_metadata) = (Vec::new(), Vec::new());
        write_projector_vectors(&emb, &mut alone_vectors).unwrap();
        write_projector_metadata(&emb, &mut alone_metadata).unwrap();
        assert_eq!(String::from_utf8(alone_vectors).unwrap(), "1\t-0.5\n0.25\t2\n");
        assert_eq!(String::from_utf8(alone_metadata).unwrap(), "a\\tb\nx\\sy\n");
    }
}
