//! The bundle's writer: checks what it could not read back, then streams the layout line
//! by line (the module documentation of `src/io/bundle/mod.rs` shows it).

use std::io::{BufWriter, Write};

use super::timeline::{timeline_fault, write_timeline};
use super::{BUNDLE_VERSION, BundleRef, FORMAT, WRITE_CHUNK};
use crate::error::{Error, Result};
use crate::io::json::{self, Kind};

/// Writes `bundle` (a `&Bundle` or a [`BundleRef`]) as one JSON file in the bundle layout
/// (the module documentation of `src/io/bundle/mod.rs` shows it, with an example).
///
/// Fails with [`Error::InvalidParameter`] (before writing anything) when `counts` does not
/// hold one count per word, when `params` is not an object, or when a loss is NaN or
/// infinite; and with [`Error::Io`] when writing fails.
pub fn write_bundle<'a>(bundle: impl Into<BundleRef<'a>>, writer: impl Write) -> Result<()> {
    let bundle = bundle.into();
    check_writable(&bundle)?;
    // Written line by hand, each piece with serde_json's escaping and `json`'s float form,
    // rather than by serializing a struct: serde_json's compact form would put the whole
    // file on one line, and its pretty form every number on a line of its own, where the
    // layout holds one word, count or vector per line (for diffs) and `format` and
    // `version` on the first (for `Bundle::sniff`); and the text goes out in chunks, so a
    // large bundle is never in memory twice.
    let emb = bundle.embeddings;
    let mut w = BufWriter::new(writer);
    let mut out = Vec::with_capacity(WRITE_CHUNK + 4096);
    out.extend_from_slice(b"{\"format\":");
    json::write_string(&mut out, FORMAT);
    let _ = writeln!(&mut out, ",\"version\":{BUNDLE_VERSION},");
    for (key, text) in [("fingerprint", bundle.fingerprint), ("source", bundle.source)] {
        if let Some(text) = text {
            let _ = write!(out, "\"{key}\":");
            json::write_string(&mut out, text);
            out.extend_from_slice(b",\n");
        }
    }
    if let Some(params) = bundle.params {
        out.extend_from_slice(b"\"params\":");
        json::write_value(&mut out, params);
        out.extend_from_slice(b",\n");
    }
    let _ = write!(out, "\"dim\":{},\n\"epochLosses\":[", emb.dim());
    for (i, &loss) in bundle.epoch_losses.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        json::write_f64(&mut out, loss);
    }
    out.extend_from_slice(b"],\n");
    write_rows(&mut w, &mut out, "words", emb.len(), |out, word_idx| {
        json::write_string(out, emb.word(word_idx))
    })?;
    out.extend_from_slice(b",\n");
    if let Some(counts) = bundle.counts {
        write_rows(&mut w, &mut out, "counts", counts.len(), |out, word_idx| {
            let _ = write!(out, "{}", counts[word_idx]);
        })?;
        out.extend_from_slice(b",\n");
    }
    write_rows(&mut w, &mut out, "vectors", emb.len(), |out, word_idx| {
        out.push(b'[');
        for (i, &v) in emb.vector(word_idx).iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            json::write_f32(out, v);
        }
        out.push(b']');
    })?;
    if let Some(timeline) = bundle.timeline {
        out.extend_from_slice(b",\n");
        write_timeline(&mut w, &mut out, timeline)?;
    }
    out.extend_from_slice(b"}\n");
    w.write_all(&out)?;
    w.flush()?;
    Ok(())
}

fn check_writable(bundle: &BundleRef<'_>) -> Result<()> {
    let n_words = bundle.embeddings.len();
    if let Some(counts) = bundle.counts.filter(|counts| counts.len() != n_words) {
        return Err(Error::InvalidParameter {
            name: "counts",
            value: format!("{} counts", counts.len()),
            expected: format!("one count per word ({n_words})"),
        });
    }
    if let Some(params) = bundle.params.filter(|params| Kind::of(params) != Kind::Object) {
        return Err(Error::InvalidParameter {
            name: "params",
            value: json::to_json(params),
            expected: "a JSON object".into(),
        });
    }
    if let Some((epoch, loss)) = bundle.epoch_losses.iter().enumerate().find(|(_, loss)| !loss.is_finite()) {
        return Err(Error::InvalidParameter {
            name: "epoch_losses",
            value: format!("{loss} (epoch {})", epoch + 1),
            expected: "finite numbers".into(),
        });
    }
    if let Some((_, message)) = bundle.timeline.and_then(|t| timeline_fault(t, n_words)) {
        return Err(Error::InvalidParameter {
            name: "timeline",
            value: message,
            expected: "a timeline of this bundle's words, with finite coordinates".into(),
        });
    }
    Ok(())
}

/// Appends `"key":[` and `n` rows, one per line, then `]`, writing `out` out whenever it
/// fills, so a large bundle never sits in memory twice.
pub(super) fn write_rows(
    w: &mut impl Write,
    out: &mut Vec<u8>,
    key: &str,
    n: usize,
    mut row: impl FnMut(&mut Vec<u8>, usize),
) -> Result<()> {
    let _ = write!(out, "\"{key}\":[");
    for i in 0..n {
        out.extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
        row(out, i);
        if out.len() >= WRITE_CHUNK {
            w.write_all(out)?;
            out.clear();
        }
    }
    out.extend_from_slice(b"\n]");
    Ok(())
}
