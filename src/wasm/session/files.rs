//! Files: what a dropped file is, vectors files read a slice at a time, bundles opened and
//! written, and the vectors exported in word2vec and Projector formats.

use std::rc::Rc;

use js_sys::{JSON, Object};
use wasm_bindgen::prelude::*;

use super::{Opened, Session, Source, js_error, set, to_js};
use crate::Embeddings;
use crate::error::Error;
use crate::io;
use serde::Serialize;

use crate::io::fasttext::{self, FastTextReader, Limits};
use crate::io::{BundleRef, VectorFormat, VectorsParser, json, open};
use crate::wasm::dto::{OpenOptionsDto, OpenPlanDto, VectorsInfo, file_head_from_js, format_id};

#[wasm_bindgen]
impl Session {
    /// What the files dropped together are and how to open them (`io::open::plan`):
    /// `files` are their heads (`FileHeadDto[]`, as `file_head` reads them), `options`
    /// which options came with them (`OpenOptionsDto`). Returns `OpenPlanDto`; a refusal
    /// throws the message the page shows.
    pub fn open_plan(&self, files: Vec<JsValue>, options: JsValue) -> Result<JsValue, JsError> {
        let heads = files.iter().map(file_head_from_js).collect::<Result<Vec<_>, _>>()?;
        let options: OpenOptionsDto = if options.is_undefined() || options.is_null() {
            OpenOptionsDto::default()
        } else {
            serde_wasm_bindgen::from_value(options)
                .map_err(|e| JsError::new(&format!("bad open options: {e}")))?
        };
        let plan = open::plan(&heads, &options.into()).map_err(|refused| JsError::new(&refused.0))?;
        let serializer = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
        OpenPlanDto::new(plan).serialize(&serializer).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Starts reading the vectors file `name` in `format` (as `open_plan` names it); `metadata`
    /// is the text of a Projector `metadata.tsv` that goes with a `vectors.tsv`. `load_push`
    /// then takes the file a slice at a time, so the worker can report progress.
    pub fn load_begin(&mut self, format: &str, name: &str, metadata: Option<String>) -> Result<(), JsError> {
        let format = VectorFormat::ALL
            .into_iter()
            .find(|f| format_id(*f) == format)
            .ok_or_else(|| JsError::new(&format!("unknown vectors format '{format}'")))?;
        let parser = match metadata {
            Some(text) if format == VectorFormat::ProjectorTsv => {
                VectorsParser::with_metadata(&text).map_err(|e| js_error_in("metadata.tsv", e))?
            }
            _ => VectorsParser::new(format),
        };
        self.loading = Some((name.to_string(), Loading::Vectors(parser)));
        Ok(())
    }

    /// Starts reading the fastText model `name` of `file_len` bytes (`open_plan`'s `"fasttext"`),
    /// keeping its `max_words` most frequent words (by default
    /// `fasttext::DEFAULT_PAGE_WORDS`) and its n-gram buckets if memory allows. `load_push`
    /// then takes the file a slice at a time, while `load_wants_more`, and `load_finish`
    /// makes it the vectors queried.
    pub fn fasttext_begin(&mut self, name: &str, file_len: f64, max_words: Option<usize>) {
        let max_words = Some(max_words.unwrap_or(fasttext::DEFAULT_PAGE_WORDS));
        let reader = FastTextReader::new(Limits { max_words, ..Limits::PAGE }, file_len as u64);
        self.loading = Some((name.to_string(), Loading::FastText(reader)));
    }

    /// Whether the file being read needs more slices (a fastText model's end, its output
    /// matrix, is not read).
    pub fn load_wants_more(&self) -> bool {
        match &self.loading {
            Some((_, Loading::FastText(reader))) => reader.wants_more(),
            Some((_, Loading::Vectors(_))) => true,
            None => false,
        }
    }

    /// Parses the next slice of the file; returns the number of words read so far. A
    /// malformed file fails here, naming the line.
    pub fn load_push(&mut self, bytes: &[u8]) -> Result<usize, JsError> {
        let (name, parser) =
            self.loading.as_mut().ok_or_else(|| JsError::new("no vectors file is being read"))?;
        let pushed = match parser {
            Loading::Vectors(parser) => parser.push(bytes).map(|()| parser.words_read()),
            Loading::FastText(reader) => reader.push(bytes).map(|()| reader.words_read()),
        };
        match pushed {
            Ok(words) => Ok(words),
            Err(err) => {
                let error = js_error_in(name, err);
                self.loading = None;
                Err(error)
            }
        }
    }

    /// Forgets a vectors file being read.
    pub fn load_cancel(&mut self) {
        self.loading = None;
    }

    /// Finishes reading the vectors file and makes its vectors the ones queried, replacing
    /// any text and training (`VectorsInfo`, with `zeroVectors`: see `info_js`).
    pub fn load_finish(&mut self, bytes: f64) -> Result<JsValue, JsError> {
        let (name, parser) =
            self.loading.take().ok_or_else(|| JsError::new("no vectors file is being read"))?;
        let parser = match parser {
            Loading::Vectors(parser) => parser,
            Loading::FastText(reader) => return self.fasttext_finish(&name, reader, bytes),
        };
        let format = parser.format().name();
        let note = parser.non_utf8_note();
        let embeddings = parser.finish().map_err(|e| js_error_in(&name, e))?;
        let info = VectorsInfo { note, ..VectorsInfo::new(format, &embeddings, bytes, false, None) };
        let info = info_js(&info, &embeddings)?;
        self.open(Opened::vectors(embeddings));
        Ok(info)
    }

    /// Opens a bundle (as `export_bundle` writes) and makes its vectors the ones queried.
    /// Returns `{ info: VectorsInfo, params, epochLosses, timeline }`, `params` being the
    /// training parameters the bundle holds (or null), `timeline` its frames (`TimelineData`
    /// in www/protocol.js, or null).
    pub fn open_bundle(&mut self, text: &str, name: &str, bytes: f64) -> Result<JsValue, JsError> {
        let bundle = io::read_bundle(text).map_err(|e| js_error_in(name, e))?;
        let info = VectorsInfo::new(
            "embedscope bundle",
            &bundle.embeddings,
            bytes,
            bundle.counts.is_some(),
            bundle.fingerprint.clone(),
        );
        let out = JsValue::from(Object::new());
        set(&out, "info", &info_js(&info, &bundle.embeddings)?)?;
        let params = match &bundle.params {
            Some(params) => JSON::parse(&json::to_json(params))
                .map_err(|_| JsError::new("the bundle's parameters are not JSON"))?,
            None => JsValue::NULL,
        };
        set(&out, "params", &params)?;
        set(&out, "epochLosses", &to_js(&bundle.epoch_losses)?)?;
        let timeline = match &bundle.timeline {
            Some(timeline) => crate::wasm::timeline::to_js(timeline, &bundle.embeddings)?,
            None => JsValue::NULL,
        };
        set(&out, "timeline", &timeline)?;
        self.open(Opened {
            embeddings: Rc::new(bundle.embeddings),
            counts: bundle.counts,
            params: bundle.params,
            fingerprint: bundle.fingerprint,
            epoch_losses: bundle.epoch_losses,
            timeline: bundle.timeline,
            model: None,
        });
        Ok(out)
    }

    /// The vectors with their counts, parameters, fingerprint and losses as an embedscope
    /// bundle (JSON bytes), which `open_bundle` re-opens exactly. Trained vectors carry the
    /// parameters they were trained with; opened ones keep what their file held (none for a
    /// word2vec or GloVe file). The vectors are written from where they are, not copied.
    /// `timeline` is the page's frames (`TimelineData` in www/protocol.js, or null); the
    /// bundle holds them with the neighbours of each epoch the session kept.
    pub fn export_bundle(&mut self, timeline: JsValue) -> Result<Vec<u8>, JsError> {
        let embeddings = self.embeddings()?;
        let timeline = crate::wasm::timeline::from_js(&timeline, &embeddings, self.kept_history())?;
        let mut bundle = BundleRef { timeline: timeline.as_ref(), ..BundleRef::new(&embeddings) };
        if let Source::Opened(opened) = self.core.source() {
            bundle = BundleRef {
                counts: opened.counts.as_deref(),
                params: opened.params.as_ref(),
                fingerprint: opened.fingerprint.as_deref(),
                epoch_losses: &opened.epoch_losses,
                ..bundle
            };
        } else if let Some(training) = self.training() {
            bundle = BundleRef {
                counts: Some(training.trainer.corpus().vocab().counts()),
                params: Some(&training.params),
                fingerprint: Some(&training.fingerprint),
                epoch_losses: training.trainer.epoch_losses(),
                ..bundle
            };
        }
        let mut out = Vec::new();
        io::write_bundle(bundle, &mut out).map_err(js_error)?;
        Ok(out)
    }

    /// The vectors in word2vec text format (UTF-8 bytes: the page makes a file of them, so
    /// they are never decoded into a JavaScript string).
    pub fn export_word2vec(&mut self) -> Result<Vec<u8>, JsError> {
        self.export_with(|emb, out| io::write_word2vec_text(emb, out))
    }

    /// The vectors in word2vec binary format.
    pub fn export_word2vec_binary(&mut self) -> Result<Vec<u8>, JsError> {
        self.export_with(|emb, out| io::write_word2vec_binary(emb, out))
    }

    /// The TensorFlow Embedding Projector's `vectors.tsv` (UTF-8 bytes).
    pub fn export_projector_vectors(&mut self) -> Result<Vec<u8>, JsError> {
        self.export_with(|emb, out| io::write_projector_vectors(emb, out))
    }

    /// The TensorFlow Embedding Projector's `metadata.tsv`, the words (UTF-8 bytes).
    pub fn export_projector_metadata(&mut self) -> Result<Vec<u8>, JsError> {
        self.export_with(|emb, out| io::write_projector_metadata(emb, out))
    }
}

impl Session {
    /// Makes the fastText model `reader` read the vectors queried, with its counts: its
    /// `VectorsInfo` says what was kept, `fastText` what the model is, and `fastTextWords`
    /// how many words it holds.
    fn fasttext_finish(
        &mut self,
        name: &str,
        reader: FastTextReader,
        bytes: f64,
    ) -> Result<JsValue, JsError> {
        let model = reader.finish().map_err(|e| js_error_in(name, e))?;
        let note = match model.info.non_utf8_note() {
            Some(encoding) => format!("{}; {encoding}", model.info.kept()),
            None => model.info.kept(),
        };
        let info = VectorsInfo {
            note: Some(note),
            ..VectorsInfo::new("fastText", &model.embeddings, bytes, true, None)
        };
        let out = info_js(&info, &model.embeddings)?;
        set(&out, "fastText", &JsValue::from_str(&model.info.settings()))?;
        set(&out, "fastTextWords", &JsValue::from(model.info.words as f64))?;
        self.open(Opened { counts: Some(model.counts), ..Opened::vectors(model.embeddings) });
        Ok(out)
    }

    /// The queried vectors written by `write`, one of the core's writers, into bytes.
    fn export_with(
        &mut self,
        write: impl FnOnce(&Embeddings, &mut Vec<u8>) -> Result<(), Error>,
    ) -> Result<Vec<u8>, JsError> {
        let mut out = Vec::new();
        write(&*self.embeddings()?, &mut out).map_err(js_error)?;
        Ok(out)
    }
}

/// `info` for the page, with `zeroVectors`, how many of the opened vectors are all zeros:
/// a zero vector has no direction, so its cosine with any word is undefined and its
/// "neighbours" would be arbitrary words at 0. Files hold them for padding or unknown words.
pub(super) fn info_js(info: &VectorsInfo, embeddings: &Embeddings) -> Result<JsValue, JsError> {
    let out = to_js(info)?;
    let zero = (0..embeddings.len()).filter(|&word_idx| embeddings.is_zero(word_idx)).count();
    set(&out, "zeroVectors", &JsValue::from(zero as f64))?;
    Ok(out)
}

/// A vectors file being read: a text or binary vectors file, or a fastText model.
pub(super) enum Loading {
    Vectors(VectorsParser),
    FastText(FastTextReader),
}

/// An error about a file, naming it: "vectors.txt: malformed vectors file, line 7: …".
pub(super) fn js_error_in(name: &str, err: Error) -> JsError {
    JsError::new(&format!("{name}: {err}"))
}
