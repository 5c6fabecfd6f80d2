//! The worker's `Session`, tested where it runs: in a dedicated Web Worker in Chromium
//! (`wasm-bindgen-test-runner` with chromedriver; `scripts/test.sh` runs it).
#![cfg(target_arch = "wasm32")]

use std::collections::HashMap;

use embedscope::map::{MapSpec, NeighbourPlacement, Projection, arrow_scale, projected_shift};
use embedscope::params::spec::SAMPLE_PRESET;
use embedscope::planted::{SAMPLE_SENTENCES, planted_analogies, planted_corpus, sample_corpus};
use embedscope::text::{Corpus, VocabConfig, WhitespaceTokenizer};
use embedscope::train::{TrainConfig, Trainer, UpdateReport, unigram_probabilities};
use embedscope::{Embeddings, Session};
use js_sys::{Array, Float32Array, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_dedicated_worker);

fn field(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &key.into()).expect("an object")
}

fn number(value: &JsValue, key: &str) -> f64 {
    field(value, key).as_f64().unwrap_or_else(|| panic!("{key} is not a number"))
}

/// The built-in sample's preset (`SAMPLE_PRESET`: dim 50, window 8, no subsampling, alpha
/// 0.05), with `overrides`.
fn sample_params(overrides: &[(&str, JsValue)]) -> JsValue {
    let params = js_sys::Object::new();
    let p = SAMPLE_PRESET;
    let preset: [(&str, JsValue); 12] = [
        ("tokenizer", p.tokenizer.into()),
        ("lowercase", p.lowercase.into()),
        ("bpeVocabSize", (p.bpe_vocab_size as f64).into()),
        ("bpeMode", p.bpe_mode.into()),
        ("dim", (p.dim as f64).into()),
        ("window", (p.window as f64).into()),
        ("negative", (p.negative as f64).into()),
        ("sample", p.sample.into()),
        ("minCount", (p.min_count as f64).into()),
        ("epochs", p.epochs.into()),
        ("alpha", p.alpha.into()),
        ("seed", (p.seed as f64).into()),
    ];
    for (key, value) in preset.iter().chain(overrides) {
        Reflect::set(&params, &(*key).into(), value).unwrap();
    }
    params.into()
}

/// A plain file's head as the worker's `file_head` gives it.
fn plain_head(name: &str, head: &[u8]) -> JsValue {
    head_object(name, JsValue::NULL, &[], JsValue::NULL, name, head)
}

fn head_object(
    name: &str,
    compression: JsValue,
    entries: &[String],
    entry: JsValue,
    inner: &str,
    head: &[u8],
) -> JsValue {
    let object = js_sys::Object::new();
    let entries: Array = entries.iter().map(|e| JsValue::from_str(e)).collect();
    let fields = [
        ("name", JsValue::from_str(name)),
        ("compression", compression),
        ("entries", entries.into()),
        ("entry", entry),
        ("innerName", JsValue::from_str(inner)),
        ("head", js_sys::Uint8Array::from(head).into()),
    ];
    for (key, value) in fields {
        Reflect::set(&object, &key.into(), &value).unwrap();
    }
    object.into()
}

/// The vectors format `open_plan` gives the plain file `name` starting with `head`, or `None`
/// when it is something else (a text).
fn vectors_format(session: &Session, head: &[u8], name: &str) -> Option<String> {
    let plan = session.open_plan(vec![plain_head(name, head)], JsValue::UNDEFINED).expect("a plan");
    (field(&plan, "kind").as_string()? == "vectors").then(|| field(&plan, "format").as_string()).flatten()
}

/// Gives the session `text` as a file's bytes, then prepares it with `params`.
fn prepare(session: &mut Session, text: &str, params: JsValue) -> Result<JsValue, wasm_bindgen::JsError> {
    session.set_text(text.as_bytes().to_vec())?;
    session.prepare(params)
}

fn error_message<T: std::fmt::Debug>(result: Result<T, wasm_bindgen::JsError>) -> String {
    let err: JsValue = result.expect_err("an error").into();
    err.dyn_into::<js_sys::Error>().expect("an Error").message().into()
}

#[wasm_bindgen_test]
fn trains_the_sample_in_chunks_and_answers_queries() {
    let mut session = Session::new();
    let stats = prepare(&mut session, &sample_corpus(), sample_params(&[])).unwrap();
    assert_eq!(number(&stats, "lines"), SAMPLE_SENTENCES as f64);
    assert!(number(&stats, "vocabSize") > 50.0);

    let mut progress = session.step(5_000.0).unwrap();
    let mut steps = 1;
    while !field(&progress, "done").is_truthy() {
        progress = session.step(5_000.0).unwrap();
        steps += 1;
    }
    assert!(steps > 10, "trained in {steps} chunks");
    let losses: Vec<f64> =
        Array::from(&field(&progress, "epochLosses")).iter().map(|v| v.as_f64().unwrap()).collect();
    assert_eq!(losses.len(), 5);
    assert!(losses[4] < losses[0], "{losses:?}");
    assert!(number(&progress, "tokensPerSec") > 0.0, "the worker's clock runs");

    let analogies = planted_analogies();
    let correct = analogies
        .iter()
        .filter(|[a, b, c, d]| {
            let answer = session.analogy(a, b, c, 1).unwrap();
            let first = Array::from(&field(&answer, "cosAdd")).get(0);
            field(&first, "word").as_string().as_deref() == Some(*d)
        })
        .count();
    assert!(correct * 100 >= analogies.len() * 95, "{correct} of {}", analogies.len());

    let neighbours = Array::from(&session.neighbours("king", 5).unwrap());
    assert_eq!(neighbours.length(), 5);
    assert_ne!(field(&neighbours.get(0), "word").as_string().unwrap(), "king");
    let completions = session.complete("KI", 3).unwrap();
    assert_eq!(completions[0], "king", "the most frequent first: {completions:?}");
    assert!(completions.iter().all(|w| w.starts_with("ki")), "{completions:?}");
    // The words holding a text, any case: how many, and the most frequent with their ranks.
    let found = session.find_words("ING", 2).unwrap();
    let words = Array::from(&field(&found, "words"));
    assert!(number(&found, "count") >= 2.0 && words.length() == 2);
    let first = words.get(0);
    assert_eq!(field(&first, "word").as_string().as_deref(), Some("king"));
    let rank = number(&first, "rank") as usize;
    assert_eq!(
        session.complete("", rank + 1).unwrap()[rank],
        "king",
        "the rank is the word's place by frequency"
    );
    assert_eq!(number(&session.find_words("yeti", 5).unwrap(), "count"), 0.0);
}

#[wasm_bindgen_test]
fn projections_are_aligned_frames_and_extra_words_can_be_placed() {
    let mut session = Session::new();
    prepare(&mut session, &planted_corpus(500, 1), sample_params(&[("epochs", 2.into())])).unwrap();
    session.step(3_000.0).unwrap();
    let first = session.projection(40, 0, 1).unwrap();
    let words = words_of(&session, &first);
    let coords: Float32Array = field(&first, "coords").dyn_into().unwrap();
    assert_eq!(coords.length() as usize, words.len() * 2);
    assert_eq!(Array::from(&field(&first, "explained")).length(), 6);

    // Without training in between, the next frame is the same picture.
    let again: Float32Array = field(&session.projection(40, 0, 1).unwrap(), "coords").dyn_into().unwrap();
    let (a, b) = (coords.to_vec(), again.to_vec());
    assert!(a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-4), "{a:?} vs {b:?}");

    let placed = session.place_words(vec![words[3].clone(), "unicorn".into()]).unwrap().to_vec();
    assert!((placed[0] - a[6]).abs() < 1e-4 && (placed[1] - a[7]).abs() < 1e-4, "{placed:?}");
    assert!(placed[2].is_nan() && placed[3].is_nan());
    assert!(error_message(session.projection(40, 0, 0)).contains("two different components"));
}

#[wasm_bindgen_test]
fn bad_input_gets_a_message_naming_the_problem() {
    let mut session = Session::new();
    assert!(error_message(session.neighbours("king", 3)).contains("no text loaded"));
    assert!(error_message(prepare(&mut session, " \n ", sample_params(&[]))).contains("holds no tokens"));
    assert!(
        error_message(prepare(&mut session, "a b", sample_params(&[("dim", 0.into())])))
            .contains("invalid dim = 0")
    );
    assert!(
        error_message(prepare(&mut session, "a b", sample_params(&[("minCount", 9.into())])))
            .contains("min_count")
    );
    assert!(
        error_message(prepare(&mut session, "a b", sample_params(&[("tokenizer", "pieces".into())])))
            .contains("tokenizer")
    );
    assert!(error_message(session.check_text_size(300e6)).contains("up to 250 MB"));
    prepare(&mut session, &planted_corpus(200, 3), sample_params(&[])).unwrap();
    assert!(error_message(session.neighbours("unicorn", 3)).contains("'unicorn' is not in the vocabulary"));
    let message = error_message(session.analogy("king", "pony", "unicorn", 3));
    assert!(message.contains("'pony' and 'unicorn'"), "{message}");
    // A word in another case: the error's parts offer the spelling the vocabulary holds.
    let err: JsValue = session.neighbours("KING", 3).expect_err("an unknown word").into();
    let parts = Array::from(&field(&err, "parts"));
    let suggestion = parts.iter().find(|part| !field(part, "replaces").is_null()).expect("a suggestion");
    assert_eq!(field(&suggestion, "text").as_string().as_deref(), Some("king"));
    assert_eq!(field(&suggestion, "replaces").as_string().as_deref(), Some("KING"));
}

#[wasm_bindgen_test]
fn bpe_merges_stream_then_train_and_tokens_know_their_origin() {
    let mut session = Session::new();
    let text = planted_corpus(600, 5);
    let params =
        || sample_params(&[("tokenizer", "bpe".into()), ("bpeVocabSize", 400.into()), ("epochs", 1.into())]);
    session.set_text(text.as_bytes().to_vec()).unwrap();
    let mut progress = session.bpe_begin(params()).unwrap();
    let mut steps = 0;
    while !field(&progress, "done").is_truthy() {
        progress = session.bpe_step(25).unwrap();
        steps += 1;
    }
    assert!(steps > 3, "learned in {steps} steps");
    assert_eq!(number(&progress, "fraction"), 1.0);

    let stats = session.prepare(params()).unwrap();
    assert!(number(&stats, "vocabSize") > 50.0);
    while !field(&session.step(10_000.0).unwrap(), "done").is_truthy() {}

    // Cross mode merges across spaces: some frequent token spans words, and says so.
    let words = session.complete("", 400).unwrap();
    let phrase = words.iter().find(|w| w.trim().contains(' ')).expect("a multi-word token");
    let info = session.token_info(phrase, 3).unwrap();
    assert!(field(&info, "spansWords").is_truthy());
    let merge = field(&info, "merge");
    let (left, right) =
        (field(&merge, "left").as_string().unwrap(), field(&merge, "right").as_string().unwrap());
    assert_eq!(format!("{left}{right}"), *phrase);
    let lines = Array::from(&field(&info, "concordance"));
    assert!(lines.length() >= 1 && lines.length() <= 3);
    assert!(lines.iter().all(|l| l.as_string().unwrap().contains(phrase.trim_end())));
    assert!(session.neighbours(phrase, 3).is_ok());
    assert!(
        error_message(session.bpe_begin(sample_params(&[("bpeMode", "sideways".into())])))
            .contains("bpe_mode")
    );
}

#[wasm_bindgen_test]
fn a_diverging_run_stops_and_keeps_the_last_good_vectors() {
    let mut session = Session::new();
    prepare(
        &mut session,
        &planted_corpus(300, 4),
        sample_params(&[("alpha", 10.into()), ("dim", 300.into())]),
    )
    .unwrap();
    // Diverging before any snapshot: nothing good to keep, and the message says so.
    let mut first = None;
    for _ in 0..1000 {
        match session.step(50.0) {
            Ok(_) => {}
            Err(err) => {
                first = Some(error_message::<JsValue>(Err(err)));
                break;
            }
        }
    }
    let message = first.expect("alpha 10 diverges");
    assert!(message.contains("diverged") && message.contains("lower the learning rate"), "{message}");
    assert!(error_message(session.neighbours("king", 3)).contains("before any vectors were kept"));

    // With a snapshot taken before it diverges, queries answer from that snapshot.
    prepare(
        &mut session,
        &planted_corpus(300, 4),
        sample_params(&[("alpha", 10.into()), ("dim", 300.into())]),
    )
    .unwrap();
    session.step(1.0).unwrap();
    let before = session.neighbours("king", 3).unwrap();
    let mut diverged = false;
    for _ in 0..1000 {
        if let Err(err) = session.step(50.0) {
            let message = error_message::<JsValue>(Err(err));
            assert!(message.contains("are kept for queries"), "{message}");
            diverged = true;
            break;
        }
    }
    assert!(diverged);
    let after = session.neighbours("king", 3).unwrap();
    assert_eq!(js_sys::JSON::stringify(&after).unwrap(), js_sys::JSON::stringify(&before).unwrap());
}

#[wasm_bindgen_test]
fn vectors_stream_in_and_benchmarks_run_in_chunks() {
    let mut session = Session::new();
    let file = "4 2\nking 1 0\nqueen 0.9 0.2\nman 0.2 0.9\nwoman 0 1\n";
    let format = vectors_format(&session, file.as_bytes(), "v.txt").expect("vectors");
    session.load_begin(&format, "v.txt", None).unwrap();
    for piece in file.as_bytes().chunks(5) {
        session.load_push(piece).unwrap();
    }
    let info = session.load_finish(file.len() as f64).unwrap();
    assert_eq!(number(&info, "words"), 4.0);
    let neighbours = Array::from(&session.neighbours("king", 1).unwrap());
    assert_eq!(field(&neighbours.get(0), "word").as_string().unwrap(), "queen");

    let progress = session.eval_begin(": g\nking queen man woman\n", None, false).unwrap();
    assert_eq!(number(&progress, "total"), 1.0);
    let progress = session.eval_step(1).unwrap();
    assert_eq!(number(&progress, "done"), 1.0);
    let report = session.eval_report().unwrap();
    assert_eq!(number(&field(&report, "total"), "covered"), 1.0);
    assert!(error_message(session.eval_begin(": g\nking queen\n", None, false)).contains("line 2"));

    session.load_begin(&format, "bad.txt", None).unwrap();
    assert!(error_message(session.load_push(b"2 2\nking 1 x\n")).contains("bad.txt"));
    assert!(
        vectors_format(&session, b"In the beginning God created the heaven and the earth.\n", "kjv.txt")
            .is_none()
    );
}

/// The bundle's `params` as a JSON object.
fn bundle_params(bytes: &[u8]) -> JsValue {
    let json = js_sys::JSON::parse(std::str::from_utf8(bytes).expect("UTF-8")).expect("JSON");
    field(&json, "params")
}

#[wasm_bindgen_test]
fn a_bundle_records_the_parameters_its_vectors_were_trained_with() {
    let mut session = Session::new();
    prepare(&mut session, &planted_corpus(200, 5), sample_params(&[("epochs", 2.into())])).unwrap();
    while !field(&session.step(50_000.0).unwrap(), "done").is_truthy() {}
    // Every parameter the trainer got, under the page's names, defaults included.
    let params = bundle_params(&session.export_bundle(JsValue::NULL).unwrap());
    let expected = [
        ("dim", 50.0),
        ("window", 8.0),
        ("sample", 0.0),
        ("alpha", 0.05),
        ("epochs", 2.0),
        ("negative", 5.0),
    ];
    for (key, value) in expected {
        assert_eq!(number(&params, key), value, "{key}");
    }
    assert_eq!(field(&params, "tokenizer").as_string().unwrap(), "whitespace");
    assert!(field(&params, "maxVocab").is_null());

    // A new trainer, made with other parameters, is what a bundle then tells of.
    session.prepare(sample_params(&[("epochs", 3.into()), ("tokenizer", "word".into())])).unwrap();
    let params = bundle_params(&session.export_bundle(JsValue::NULL).unwrap());
    assert_eq!(number(&params, "epochs"), 3.0);
    assert_eq!(field(&params, "lowercase").as_bool(), Some(false));

    // Vectors from a word2vec file come with no parameters.
    let file = "2 2\nking 1 0\nqueen 0.9 0.2\n";
    session.load_begin("word2vec-text", "v.txt", None).unwrap();
    session.load_push(file.as_bytes()).unwrap();
    session.load_finish(file.len() as f64).unwrap();
    assert!(bundle_params(&session.export_bundle(JsValue::NULL).unwrap()).is_undefined());
}

/// A JS value (a `MapSpec`, a timeline) from its JSON.
fn from_json(json: &str) -> JsValue {
    js_sys::JSON::parse(json).expect("JSON")
}

fn strings(value: &JsValue) -> Vec<String> {
    Array::from(value).iter().map(|v| v.as_string().expect("a string")).collect()
}

/// The words of `frame`, the session's last: the list its `wordsId` names.
fn words_of(session: &Session, frame: &JsValue) -> Vec<String> {
    session.frame_words(number(frame, "wordsId") as u32).expect("the list of the last frame")
}

/// A frame's `clusters`, widened: rustc 1.95 fails to compile (LLVM "Cannot select"
/// setcc) a search of a `u16` slice vectorised for simd128.
fn cluster_labels(frame: &JsValue) -> Vec<u32> {
    let labels = field(frame, "clusters").dyn_into::<js_sys::Uint16Array>().expect("a Uint16Array");
    labels.to_vec().into_iter().map(u32::from).collect()
}

#[wasm_bindgen_test]
fn projections_take_word_axes_isolated_words_and_clusters() {
    let mut session = Session::new();
    prepare(&mut session, &planted_corpus(500, 1), sample_params(&[("epochs", 2.into())])).unwrap();
    while !field(&session.step(50_000.0).unwrap(), "done").is_truthy() {}

    // x from man to woman, y a principal component beside it, four colours.
    let frame = session
        .project(from_json(
            r#"{"nWords": 1000, "xComponent": 0, "yComponent": 1, "extraWords": [],
                "axes": {"x": ["man", "woman"], "y": null}, "isolate": null, "clusters": 4}"#,
        ))
        .unwrap();
    let words = words_of(&session, &frame);
    // The sample's entity words are rarer than its predicates: all words are shown.
    assert_eq!(words.len(), session.vocab_size());
    assert_eq!(strings(&field(&field(&frame, "axes"), "x")), ["man", "woman"]);
    assert!(field(&field(&frame, "axes"), "y").is_null());
    assert_eq!(field(&frame, "isolated").as_bool(), Some(false));
    let labels = strings(&field(&frame, "axisLabels"));
    assert_eq!(labels[0], "man → woman");
    assert!(labels[1].starts_with("PC2 ⊥ man → woman ("), "{labels:?}");
    let coords = field(&frame, "coords").dyn_into::<Float32Array>().unwrap().to_vec();
    let x_of = |word: &str| coords[2 * words.iter().position(|w| w == word).unwrap()];
    // A cosine with the direction from man to woman: woman lies further along it than man.
    assert!(x_of("woman") > x_of("man"), "{} vs {}", x_of("woman"), x_of("man"));
    assert!(coords.iter().step_by(2).all(|x| (-1.0..=1.0).contains(x)));
    let clusters = cluster_labels(&frame);
    assert_eq!(clusters.len(), words.len());
    assert!(clusters.iter().all(|&c| c < 4) && (0..4).all(|c| clusters.contains(&c)), "{clusters:?}");
    // The same map spec again: the word axis stays, the clusters keep their numbers.
    let again = session
        .project(from_json(r#"{"nWords": 1000, "axes": {"x": ["man", "woman"], "y": null}, "clusters": 4}"#))
        .unwrap();
    assert_eq!(cluster_labels(&again), clusters);
    let placed = session.place_words(vec!["woman".into()]).unwrap().to_vec();
    assert!((placed[0] - x_of("woman")).abs() < 1e-5, "{placed:?}");

    // Isolated words, in frequency order, with PCA fitted on them alone.
    let isolated = session
        .project(from_json(
            r#"{"nWords": 1000, "isolate": ["woman", "king", "queen", "man"], "clusters": 0}"#,
        ))
        .unwrap();
    let mut expected = words.clone();
    expected.retain(|w| ["king", "queen", "man", "woman"].contains(&w.as_str()));
    let isolated_words = words_of(&session, &isolated);
    assert_eq!(isolated_words, expected);
    assert_eq!(field(&isolated, "isolated").as_bool(), Some(true));
    assert!(field(&isolated, "clusters").is_null());
    assert!(strings(&field(&isolated, "axisLabels"))[0].starts_with("PC1 ("));

    // A map spec that fails names the problem and leaves the last frame in place.
    let bad = [
        (
            r#"{"nWords": 1000, "axes": {"x": ["man", "pony"], "y": ["unicorn", "king"]}}"#,
            "'pony' and 'unicorn' are not",
        ),
        (r#"{"nWords": 1000, "isolate": ["king", "yeti"]}"#, "'yeti' is not in the vocabulary"),
        (r#"{"nWords": 1000, "isolate": ["king"]}"#, "at least 2 words"),
        (r#"{"nWords": 1000, "clusters": 1}"#, "invalid clusters = 1"),
        (r#"{"nWords": 1000, "clusters": 51}"#, "invalid clusters = 51"),
        (r#"{"nWords": "many"}"#, "bad map settings"),
    ];
    for (json, message) in bad {
        let got = error_message(session.project(from_json(json)));
        assert!(got.contains(message), "{json}: {got}");
    }
    let placed = session.place_words(vec!["king".into()]).unwrap().to_vec();
    let isolated_coords = field(&isolated, "coords").dyn_into::<Float32Array>().unwrap().to_vec();
    let king = isolated_words.iter().position(|w| w == "king").unwrap();
    assert!((placed[0] - isolated_coords[2 * king]).abs() < 1e-5, "{placed:?}");

    // An old page's map spec: principal components of the most frequent words, no colours.
    let old = session
        .project(from_json(r#"{"nWords": 1000, "xComponent": 1, "yComponent": 0, "extraWords": []}"#))
        .unwrap();
    assert!(field(&field(&old, "axes"), "x").is_null() && field(&old, "clusters").is_null());
    assert_eq!(number(&old, "xComponent"), 1.0);
    assert!(strings(&field(&old, "axisLabels"))[0].starts_with("PC2 ("));

    // More clusters than words shown: each word gets its own (k is capped at the words).
    let few = session.project(from_json(r#"{"nWords": 3, "clusters": 4}"#)).unwrap();
    let mut labels = cluster_labels(&few);
    labels.sort_unstable();
    assert_eq!(labels, [0, 1, 2]);
}

#[wasm_bindgen_test]
fn frames_of_the_same_words_name_their_list_and_carry_no_words() {
    let mut session = Session::new();
    prepare(&mut session, &planted_corpus(500, 1), sample_params(&[("epochs", 2.into())])).unwrap();
    session.step(3_000.0).unwrap();
    let id = |frame: &JsValue| {
        assert!(field(frame, "words").is_undefined(), "a frame hands over its words' number, not the words");
        number(frame, "wordsId") as u32
    };

    // PCA frames while training show the same words: one list.
    let first = session.projection(40, 0, 1).unwrap();
    let top = words_of(&session, &first);
    assert_eq!(top.len(), 40);
    session.step(3_000.0).unwrap();
    let trained = session.projection(40, 1, 0).unwrap();
    assert_eq!(id(&trained), id(&first), "other vectors and axes, the same words");
    // Other words: another list; the old one's words are no longer to be had.
    let isolated = session.project(from_json(r#"{"nWords": 40, "isolate": ["king", "queen"]}"#)).unwrap();
    assert_ne!(id(&isolated), id(&first));
    let mut isolated_words = words_of(&session, &isolated);
    isolated_words.sort();
    assert_eq!(isolated_words, ["king", "queen"]);
    assert!(error_message(session.frame_words(id(&first))).contains("gave way"));

    // Every frame of a t-SNE run, and of its warm start, is of the 40 most frequent words.
    let settings =
        from_json(r#"{"nWords": 40, "method": "tsne", "layout": {"perplexity": 5, "iterations": 60}}"#);
    session.layout_begin(settings.clone(), false).unwrap();
    let mut ids = Vec::new();
    loop {
        let progress = session.layout_step(0.0).unwrap();
        let frame = session.layout_frame().unwrap();
        if !frame.is_null() {
            ids.push(id(&frame));
        }
        if field(&progress, "done").is_truthy() {
            break;
        }
    }
    session.layout_begin(settings, true).unwrap();
    ids.push(id(&session.layout_frame().unwrap()));
    assert!(ids.len() > 5, "{} frames", ids.len());
    assert!(ids.iter().all(|&i| i == ids[0]), "{ids:?}");
    assert_ne!(ids[0], id(&isolated));
    let last = session.layout_frame().unwrap();
    assert_eq!(words_of(&session, &last), top);

    // A new model of the same words (the text prepared again) keeps the number: the page has them.
    prepare(&mut session, &planted_corpus(500, 1), sample_params(&[("epochs", 3.into())])).unwrap();
    session.step(3_000.0).unwrap();
    assert_eq!(id(&session.projection(40, 0, 1).unwrap()), ids[0]);
}

/// Steps the map to its end in slices of `budget_ms` (0: a single piece each); returns the
/// phases seen, in order, and the number of slices.
fn run_layout(session: &mut Session, budget_ms: f64) -> (Vec<String>, usize) {
    let mut phases: Vec<String> = Vec::new();
    let mut slices = 0;
    loop {
        let progress = session.layout_step(budget_ms).unwrap();
        slices += 1;
        let now = field(&progress, "phase").as_string().unwrap();
        if phases.last() != Some(&now) {
            phases.push(now);
        }
        if field(&progress, "done").is_truthy() {
            assert_eq!(number(&progress, "iteration"), number(&progress, "iterations"));
            return (phases, slices);
        }
        assert!(slices < 100_000, "the map never ends");
    }
}

#[wasm_bindgen_test]
fn tsne_and_umap_maps_are_built_in_slices_and_warm_start() {
    let mut session = Session::new();
    prepare(&mut session, &planted_corpus(500, 1), sample_params(&[("epochs", 2.into())])).unwrap();
    while !field(&session.step(50_000.0).unwrap(), "done").is_truthy() {}
    let n = session.vocab_size();
    assert!(n > 40, "{n} words");

    let cases = [
        ("tsne", r#"{"perplexity": 5, "iterations": 300}"#, "t-SNE 1", 300.0),
        ("umap", r#"{"neighbours": 10, "epochs": 120}"#, "UMAP 1", 120.0),
    ];
    for (method, layout, label, iterations) in cases {
        let settings = format!(r#"{{"nWords": 1000, "method": "{method}", "layout": {layout}}}"#);
        let started = session.layout_begin(from_json(&settings), false).unwrap();
        assert_eq!(field(&started, "phase").as_string().as_deref(), Some("neighbours"));
        assert_eq!(number(&started, "iterations"), iterations);
        assert!(!field(&started, "warm").is_truthy(), "{method}: a cold start says so");
        assert!(
            session.layout_frame().unwrap().is_null(),
            "{method}: no coordinates before the graph is built"
        );
        let (phases, slices) = run_layout(&mut session, 0.0);
        assert_eq!(
            phases,
            ["neighbours", "affinities", "start", "layout"],
            "{method}: a cold start places its points by PCA"
        );
        assert!(slices > 10, "{method}: {slices} slices");

        let frame = session.layout_frame().unwrap();
        let words = words_of(&session, &frame);
        assert_eq!(words.len(), n);
        assert_eq!(strings(&field(&frame, "axisLabels"))[0], label);
        assert_eq!(field(&frame, "method").as_string().as_deref(), Some(method));
        assert!(
            Array::from(&field(&frame, "explained")).length() == 0 && field(&frame, "clusters").is_null()
        );
        let progress = field(&frame, "layoutProgress");
        assert!(field(&progress, "done").is_truthy() && number(&progress, "iteration") == iterations);
        let coords = field(&frame, "coords").dyn_into::<Float32Array>().unwrap().to_vec();
        assert_eq!(coords.len(), 2 * n);
        assert!(coords.iter().all(|c| c.is_finite()) && coords.iter().any(|&c| c != coords[0]));
        let king = words.iter().position(|w| w == "king").unwrap();
        let placed = session.layout_place_words(vec!["king".into(), "yeti".into()]).unwrap().to_vec();
        assert_eq!(placed[..2], coords[2 * king..2 * king + 2]);
        assert!(placed[2].is_nan());

        // A warm start goes on from these coordinates, with the warm parameters.
        let warm = session.layout_begin(from_json(&settings), true).unwrap();
        let warm_iterations = if method == "tsne" { 250.0 } else { 100.0 };
        assert_eq!(number(&warm, "iterations"), warm_iterations);
        assert!(field(&warm, "warm").is_truthy(), "{method}: a warm start says so");
        let shown =
            field(&session.layout_frame().unwrap(), "coords").dyn_into::<Float32Array>().unwrap().to_vec();
        assert_eq!(shown, coords, "{method}: the map stays while the warm start builds");
        run_layout(&mut session, 1000.0);
    }

    // Too few words for the parameters: the core's message, and the map before stays.
    let few = from_json(r#"{"nWords": 40, "method": "tsne", "layout": {"perplexity": 30}}"#);
    let got = error_message(session.layout_begin(few, false));
    assert!(got.contains("at least 91 words for perplexity 30"), "{got}");
    let got = error_message(session.layout_begin(from_json(r#"{"nWords": 10, "method": "umap"}"#), false));
    assert!(got.contains("at least 15 words for 15 neighbours"), "{got}");
    let got = error_message(
        session.layout_begin(from_json(r#"{"method": "tsne", "layout": {"perplexity": 0}}"#), false),
    );
    assert!(got.contains("perplexity"), "{got}");
    let got = error_message(session.layout_begin(from_json(r#"{"method": "mds"}"#), false));
    assert!(got.contains("'pca', 'tsne' or 'umap'"), "{got}");
    assert!(error_message(session.project(from_json(r#"{"method": "tsne"}"#))).contains("layout_begin"));
    let frame = session.layout_frame().unwrap();
    assert_eq!(field(&frame, "method").as_string().as_deref(), Some("umap"));
}

#[wasm_bindgen_test]
fn neighbours_through_time_and_the_timeline_survive_a_bundle() {
    let mut session = Session::new();
    prepare(&mut session, &planted_corpus(200, 5), sample_params(&[("epochs", 3.into())])).unwrap();
    // Chunks of any size: each epoch's end is seen once.
    while !field(&session.step(7_777.0).unwrap(), "done").is_truthy() {}
    let history = session.neighbour_history("the", 4).unwrap();
    let epochs = Array::from(&field(&history, "epochs"));
    assert_eq!(epochs.iter().map(|e| number(&e, "epoch")).collect::<Vec<_>>(), [1.0, 2.0, 3.0]);
    let last = Array::from(&field(&epochs.get(2), "neighbours"));
    assert_eq!(last.length(), 4);
    // The last epoch's neighbours are the vectors' own neighbours (among the kept words).
    let now = Array::from(&session.neighbours("the", 4).unwrap());
    let word = |v: JsValue| field(&v, "word").as_string().unwrap();
    assert_eq!(word(last.get(0)), word(now.get(0)));

    // A timeline of two frames goes into the bundle and comes back from it.
    let timeline = from_json(
        r#"{"wordLists": [["the", "a"]], "frames": [
        {"words": 0, "epoch": 1, "epochs": 3, "tokensDone": 10, "tokensTotal": 30, "axisLabels": ["PC1", "PC2"],
         "mapSpec": {"method": "pca", "xComponent": 0, "yComponent": 1}},
        {"words": 0, "epoch": 3, "epochs": 3, "tokensDone": 30, "tokensTotal": 30, "axisLabels": ["t-SNE 1", "t-SNE 2"],
         "mapSpec": {"method": "tsne", "layout": {"perplexity": 5}}}]}"#,
    );
    Reflect::set(
        &timeline,
        &"coords".into(),
        &Float32Array::from(&[0.5f32, 1.0, -2.0, 0.25, 3.0, 4.0, 5.0, 6.0][..]),
    )
    .unwrap();
    let bytes = session.export_bundle(timeline).unwrap();
    let text = std::str::from_utf8(&bytes).unwrap();
    let opened = session.open_bundle(text, "run.json", bytes.len() as f64).unwrap();
    let back = field(&opened, "timeline");
    assert_eq!(
        Array::from(&field(&back, "wordLists"))
            .get(0)
            .dyn_into::<Array>()
            .unwrap()
            .get(1)
            .as_string()
            .unwrap(),
        "a"
    );
    let frames = Array::from(&field(&back, "frames"));
    assert_eq!(frames.length(), 2);
    let perplexity = field(&field(&field(&frames.get(1), "mapSpec"), "layout"), "perplexity");
    assert_eq!(perplexity.as_f64(), Some(5.0));
    assert_eq!(number(&frames.get(1), "tokensDone"), 30.0);
    let coords: Float32Array = field(&back, "coords").dyn_into().unwrap();
    assert_eq!(coords.to_vec(), [0.5, 1.0, -2.0, 0.25, 3.0, 4.0, 5.0, 6.0]);
    // The opened bundle answers neighbours through time too.
    let reopened = session.neighbour_history("the", 4).unwrap();
    assert_eq!(Array::from(&field(&reopened, "epochs")).length(), 3);

    // Vectors from a word2vec file have no history: null, not an error.
    let file = "2 2\nking 1 0\nqueen 0.9 0.2\n";
    session.load_begin("word2vec-text", "v.txt", None).unwrap();
    session.load_push(file.as_bytes()).unwrap();
    session.load_finish(file.len() as f64).unwrap();
    assert!(session.neighbour_history("king", 4).unwrap().is_null());

    // A frame naming a word the vectors lack is refused.
    let bad = from_json(
        r#"{"wordLists": [["no-such-word"]], "frames": [{"words": 0, "epoch": 1, "epochs": 1,
        "tokensDone": 0, "tokensTotal": 1, "axisLabels": ["x", "y"], "mapSpec": {}}]}"#,
    );
    Reflect::set(&bad, &"coords".into(), &Float32Array::from(&[0.0f32, 0.0][..])).unwrap();
    assert!(error_message(session.export_bundle(bad)).contains("no-such-word"));
}

#[wasm_bindgen_test]
fn a_band_of_the_matrix_is_cut_at_its_edges() {
    let mut session = Session::new();
    assert!(error_message(session.matrix_band(0, 8, 0, 8)).contains("no text loaded"));
    let file = "4 3\nking 1 -2 3\nqueen -4 5 -6\nman 7 -8 9\nwoman -10 11 -12.5\n";
    let format = vectors_format(&session, file.as_bytes(), "v.txt").expect("vectors");
    session.load_begin(&format, "v.txt", None).unwrap();
    session.load_push(file.as_bytes()).unwrap();
    session.load_finish(file.len() as f64).unwrap();

    // Rows 1..3 and columns 1..3 of the 4 × 3 matrix: asked for more, cut at the edges.
    let band = session.matrix_band(1, 2, 1, 5).unwrap();
    let dims: Vec<f64> = ["firstRow", "rows", "firstCol", "cols", "totalRows", "dim"]
        .iter()
        .map(|key| number(&band, key))
        .collect();
    assert_eq!(dims, [1.0, 2.0, 1.0, 2.0, 4.0, 3.0]);
    assert_eq!(strings(&field(&band, "words")), ["queen", "man"]);
    let values = field(&band, "values").dyn_into::<Float32Array>().expect("a Float32Array").to_vec();
    assert_eq!(values, [5.0, -6.0, -8.0, 9.0]);
    assert_eq!((number(&band, "min"), number(&band, "max")), (-8.0, 9.0));

    // The whole matrix, however much more is asked for.
    let band = session.matrix_band(0, usize::MAX, 0, usize::MAX).unwrap();
    let values = field(&band, "values").dyn_into::<Float32Array>().unwrap().to_vec();
    assert_eq!(values, [1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0, -8.0, 9.0, -10.0, 11.0, -12.5]);
    assert_eq!((number(&band, "min"), number(&band, "max")), (-12.5, 11.0));

    // A band that starts beyond the last row or column is empty, its extremes 0.
    let band = session.matrix_band(9, 4, 0, 3).unwrap();
    assert_eq!((number(&band, "firstRow"), number(&band, "rows"), number(&band, "min")), (4.0, 0.0, 0.0));
    assert_eq!(field(&band, "values").dyn_into::<Float32Array>().unwrap().length(), 0);
    let band = session.matrix_band(0, 4, 3, 3).unwrap();
    assert_eq!((number(&band, "cols"), number(&band, "max")), (0.0, 0.0));
}

/// `value[key]` as numbers.
fn numbers(value: &JsValue, key: &str) -> Vec<f64> {
    Array::from(&field(value, key)).iter().map(|v| v.as_f64().expect("a number")).collect()
}

/// The trainer the session makes of `text` with `sample_params` and subsampling at `sample`,
/// `epochs` epochs on one thread, made here from the core's own parts to check the
/// session's answers against.
fn reference_trainer(text: &str, sample: f64, epochs: u32) -> Trainer {
    let p = SAMPLE_PRESET;
    let vocab = VocabConfig { min_count: p.min_count, ..VocabConfig::default() };
    let corpus = Corpus::build(text, &WhitespaceTokenizer, &vocab).unwrap();
    let config = TrainConfig {
        dim: p.dim,
        window: p.window,
        negative: p.negative,
        sample,
        alpha: p.alpha as f32,
        epochs,
        seed: p.seed,
        threads: 1,
        ..TrainConfig::default()
    };
    Trainer::new(corpus, config, || 0.0).unwrap()
}

/// `sample_params` with subsampling at `sample`, `epochs` epochs, one thread.
fn reference_params(sample: f64, epochs: u32) -> JsValue {
    sample_params(&[("sample", sample.into()), ("epochs", epochs.into()), ("threads", 1.into())])
}

#[wasm_bindgen_test]
fn matrix_rows_are_the_vocabulary_ids() {
    let mut session = Session::new();
    assert!(error_message(session.matrix_row("king")).contains("no text loaded"));
    let text = sample_corpus();
    prepare(&mut session, &text, reference_params(1e-3, 1)).unwrap();
    let trainer = reference_trainer(&text, 1e-3, 1);
    let words = trainer.corpus().vocab().words();
    for (id, word) in words.iter().enumerate() {
        assert_eq!(session.matrix_row(word).unwrap(), id, "{word}");
    }
    // The row is the one the Matrix card draws for the word.
    let row = session.matrix_row("queen").unwrap();
    let band = session.matrix_band(row, 1, 0, usize::MAX).unwrap();
    assert_eq!(strings(&field(&band, "words")), ["queen"]);
    // A word the vocabulary lacks: the error offers the spelling it has.
    let message = error_message(session.matrix_row("quen"));
    assert!(message.contains("quen") && message.contains("queen"), "{message}");
}

#[wasm_bindgen_test]
fn a_words_sampling_is_the_trainers_own() {
    let mut session = Session::new();
    assert!(error_message(session.word_sampling("king", 5)).contains("no text loaded"));
    let text = sample_corpus();
    let sample = 1e-3;
    prepare(&mut session, &text, reference_params(sample, 1)).unwrap();
    let trainer = reference_trainer(&text, sample, 1);
    let vocab = trainer.corpus().vocab();
    let counts = vocab.counts();
    let total: u64 = counts.iter().sum();
    let noise = unigram_probabilities(counts, trainer.config().ns_exponent);
    let first = vocab.words()[0].clone();
    let last = vocab.words()[vocab.len() - 1].clone();
    for word in [first.as_str(), "king", last.as_str()] {
        let id = vocab.id(word).unwrap();
        let got = session.word_sampling(word, 5).unwrap();
        assert_eq!(number(&got, "rank"), f64::from(id), "{word}");
        assert_eq!(number(&got, "count"), counts[id as usize] as f64, "{word}");
        assert_eq!(number(&got, "frequency"), counts[id as usize] as f64 / total as f64, "{word}");
        assert_eq!(number(&got, "keep"), trainer.keep_probability(id), "{word}");
        assert_eq!(number(&got, "noise"), noise[id as usize], "{word}");
        assert_eq!(number(&got, "window"), SAMPLE_PRESET.window as f64);
        assert_eq!(
            (number(&got, "sample"), number(&got, "nsExponent")),
            (sample, trainer.config().ns_exponent)
        );
    }
    // Subsampling keeps fewer of the most frequent word's tokens than of the rarest's.
    let keep = |word: &str| number(&session.word_sampling(word, 0).unwrap(), "keep");
    assert!(keep(&first) < 0.9 && keep(&last) == 1.0, "{} {}", keep(&first), keep(&last));

    // The window partners, counted here by brute force: every token within the window of
    // one of "king" in its sentence (the sample's sentences are shorter than a segment).
    let king = vocab.id("king").unwrap();
    let ids = trainer.corpus().ids();
    let mut expected: HashMap<String, u64> = HashMap::new();
    let mut start = 0;
    for &end in trainer.corpus().sentence_ends() {
        for at in (start..end).filter(|&at| ids[at] == king) {
            let window = SAMPLE_PRESET.window;
            for other in
                (at.saturating_sub(window).max(start)..(at + window + 1).min(end)).filter(|&o| o != at)
            {
                *expected.entry(vocab.words()[ids[other] as usize].clone()).or_default() += 1;
            }
        }
        start = end;
    }
    let partners = Array::from(&field(&session.word_sampling("king", 100_000).unwrap(), "partners"));
    let got: Vec<(String, u64)> = partners
        .iter()
        .map(|p| (field(&p, "word").as_string().unwrap(), number(&p, "count") as u64))
        .collect();
    assert_eq!(got.len(), expected.len());
    assert!(got.windows(2).all(|w| w[0].1 >= w[1].1), "most frequent first: {got:?}");
    for (word, count) in &got {
        assert_eq!(Some(count), expected.get(word), "{word}");
    }
    let few = Array::from(&field(&session.word_sampling("king", 3).unwrap(), "partners"));
    assert_eq!(few.length(), 3);
    assert_eq!(field(&few.get(0), "word").as_string().unwrap(), got[0].0);

    let message = error_message(session.word_sampling("kingg", 5));
    assert!(message.contains("kingg") && message.contains("king"), "{message}");
}

#[wasm_bindgen_test]
fn the_zipf_curve_is_the_trainers_probabilities_at_log_spaced_ranks() {
    let mut session = Session::new();
    assert!(error_message(session.zipf_curve(40)).contains("no text loaded"));
    let text = sample_corpus();
    prepare(&mut session, &text, reference_params(1e-3, 1)).unwrap();
    let trainer = reference_trainer(&text, 1e-3, 1);
    let vocab = trainer.corpus().vocab();
    let counts = vocab.counts();
    let total: u64 = counts.iter().sum();
    let noise = unigram_probabilities(counts, trainer.config().ns_exponent);
    let zipf = session.zipf_curve(40).unwrap();
    assert_eq!(number(&zipf, "vocabSize"), vocab.len() as f64);
    let ranks: Vec<usize> = numbers(&zipf, "ranks").into_iter().map(|r| r as usize).collect();
    assert!(ranks.len() > 10 && ranks.len() <= 40, "{ranks:?}");
    assert_eq!((ranks[0], ranks[ranks.len() - 1]), (0, vocab.len() - 1));
    assert!(ranks.windows(2).all(|w| w[0] < w[1]), "{ranks:?}");
    // Evenly spread on a log scale: the gaps between ranks grow.
    assert!(ranks[ranks.len() - 1] - ranks[ranks.len() - 2] > ranks[2] - ranks[1], "{ranks:?}");
    let (got_counts, frequency, keep, got_noise) = (
        numbers(&zipf, "counts"),
        numbers(&zipf, "frequency"),
        numbers(&zipf, "keep"),
        numbers(&zipf, "noise"),
    );
    for (i, &rank) in ranks.iter().enumerate() {
        assert_eq!(got_counts[i], counts[rank] as f64, "rank {rank}");
        assert_eq!(frequency[i], counts[rank] as f64 / total as f64, "rank {rank}");
        assert_eq!(keep[i], trainer.keep_probability(rank as u32), "rank {rank}");
        assert_eq!(got_noise[i], noise[rank], "rank {rank}");
    }

    // Vectors opened from a file were sampled elsewhere.
    let file = "2 2\nking 1 0\nqueen 0 1\n";
    let format = vectors_format(&session, file.as_bytes(), "v.txt").expect("vectors");
    session.load_begin(&format, "v.txt", None).unwrap();
    session.load_push(file.as_bytes()).unwrap();
    session.load_finish(file.len() as f64).unwrap();
    assert!(error_message(session.zipf_curve(40)).contains("sampled elsewhere"));
    assert!(error_message(session.word_sampling("king", 5)).contains("sampled elsewhere"));
}

/// Checks the session's `UpdateDto` against the trainer's own report of the same update.
fn check_update(got: &JsValue, expected: &UpdateReport, words: &[String]) {
    let word = |id: u32| words[id as usize].clone();
    assert_eq!(
        strings(&field(got, "inputWords")),
        expected.input_words.iter().map(|&w| word(w)).collect::<Vec<_>>()
    );
    assert_eq!(
        strings(&field(got, "outputWords")),
        expected.output_words.iter().map(|&w| word(w)).collect::<Vec<_>>()
    );
    assert_eq!(numbers(got, "scoresBefore"), expected.scores_before);
    assert_eq!(numbers(got, "scoresAfter"), expected.scores_after);
    assert_eq!(numbers(got, "lossTerms"), expected.loss_terms);
    assert_eq!(number(got, "centreAt"), expected.centre_at as f64);
    assert_eq!(
        numbers(got, "contextsAt"),
        expected.contexts_at.iter().map(|&at| at as f64).collect::<Vec<_>>()
    );
    assert_eq!(number(got, "epoch"), f64::from(expected.epoch));
    assert_eq!(number(got, "alpha"), f64::from(expected.alpha));
    assert_eq!(number(got, "positiveLoss"), f64::from(expected.loss.positive));
    assert_eq!(number(got, "negativeLoss"), f64::from(expected.loss.negative));
}

#[wasm_bindgen_test]
fn single_updates_are_the_trainers_and_training_goes_on_from_them_to_the_same_vectors() {
    let mut session = Session::new();
    assert!(error_message(session.step_updates(1)).contains("no text loaded"));
    let text = planted_corpus(300, 3);
    prepare(&mut session, &text, reference_params(1e-3, 2)).unwrap();
    let mut reference = reference_trainer(&text, 1e-3, 2);
    let words = reference.corpus().vocab().words().to_vec();

    let one = session.step_updates(1).unwrap();
    assert_eq!(number(&one, "updates"), 1.0);
    check_update(&field(&one, "update"), &reference.step_update().unwrap().unwrap(), &words);
    // Ten more: the last is the trainer's tenth next update.
    let ten = session.step_updates(10).unwrap();
    assert_eq!(number(&ten, "updates"), 10.0);
    let last = (0..10).map(|_| reference.step_update().unwrap().unwrap()).last().unwrap();
    check_update(&field(&ten, "update"), &last, &words);
    let progress = field(&ten, "progress");
    assert_eq!(number(&progress, "tokensDone"), reference.progress().tokens_done as f64);
    assert!(number(&progress, "tokensDone") > 0.0);

    // Training on at full speed ends with the vectors of a run never stepped one update at a time.
    while !field(&session.step(1_000.0).unwrap(), "done").is_truthy() {}
    let mut whole = reference_trainer(&text, 1e-3, 2);
    while !whole.step(u64::MAX).unwrap().done {}
    let band = session.matrix_band(0, usize::MAX, 0, usize::MAX).unwrap();
    let values = field(&band, "values").dyn_into::<Float32Array>().unwrap().to_vec();
    let expected = whole.to_embeddings().unwrap();
    assert_eq!(values, expected.raw_rows(expected.len()).to_vec());

    // Once training is done, no update is left.
    let none = session.step_updates(5).unwrap();
    assert!(field(&none, "update").is_null() || field(&none, "update").is_undefined());
    assert_eq!(number(&none, "updates"), 0.0);
}

/// The larger side of the box around `coords`, as the session measures a map.
fn extent(coords: &[f32]) -> f64 {
    let (xs, ys): (Vec<f64>, Vec<f64>) =
        coords.chunks_exact(2).map(|p| (f64::from(p[0]), f64::from(p[1]))).unzip();
    let span = |v: &[f64]| {
        v.iter().copied().fold(f64::NEG_INFINITY, f64::max) - v.iter().copied().fold(f64::INFINITY, f64::min)
    };
    span(&xs).max(span(&ys))
}

/// The words whose input rows `updates` single updates of `trainer` move, each once in the
/// order first moved, with the vectors from before them.
fn moved_by(trainer: &mut Trainer, updates: usize) -> (Vec<usize>, Embeddings) {
    let before = trainer.to_embeddings().unwrap();
    let mut moved = Vec::new();
    for _ in 0..updates {
        for word in trainer.step_update().unwrap().unwrap().input_words {
            if !moved.contains(&(word as usize)) {
                moved.push(word as usize);
            }
        }
    }
    (moved, before)
}

#[wasm_bindgen_test]
fn the_moves_of_single_updates_are_their_rows_shifts_on_the_map() {
    let mut session = Session::new();
    let text = planted_corpus(300, 3);
    prepare(&mut session, &text, reference_params(1e-3, 2)).unwrap();
    let mut reference = reference_trainer(&text, 1e-3, 2);
    session.step(3_000.0).unwrap();
    reference.step(3_000).unwrap();
    assert!(error_message(session.step_moves("pca")).contains("no single updates"));

    // On principal components: the frame fitted here on the vectors after the updates (the
    // session's first frame, aligned to none) places both rows of each moved word.
    session.step_updates(20).unwrap();
    let (moved, before) = moved_by(&mut reference, 20);
    let after = reference.to_embeddings().unwrap();
    session.projection(300, 0, 1).unwrap();
    let moves = session.step_moves("pca").unwrap();
    let frame = Projection::fit(&after, &MapSpec::components(300, 0, 1), None).unwrap();
    let shifts: Vec<[f64; 2]> =
        moved.iter().map(|&w| projected_shift(&frame, &before.vector(w), &after.vector(w))).collect();
    let scale = arrow_scale(&shifts, extent(frame.coords()));
    assert_eq!(number(&moves, "scale"), scale);
    assert_eq!(number(&moves, "updates"), 20.0);
    assert_eq!(
        strings(&field(&moves, "words")),
        moved.iter().map(|&w| after.word(w).to_string()).collect::<Vec<_>>()
    );
    assert_eq!(
        numbers(&moves, "shifts"),
        shifts.iter().flat_map(|[x, y]| [x * scale, y * scale]).collect::<Vec<_>>()
    );
    assert!(!field(&moves, "estimated").is_truthy());
    assert_eq!(number(&moves, "offMap"), 0.0);
    // Words the map does not show are counted, not drawn.
    session.projection(2, 0, 1).unwrap();
    let few = session.step_moves("pca").unwrap();
    let shown = moved.iter().filter(|&&w| w < 2).count();
    assert_eq!(strings(&field(&few, "words")).len(), shown);
    assert_eq!(number(&few, "offMap"), (moved.len() - shown) as f64);

    // On a t-SNE map: both rows placed among the laid-out words nearest the row after.
    assert!(error_message(session.step_moves("tsne")).contains("no t-SNE or UMAP map"));
    let spec =
        from_json(r#"{"nWords": 60, "method": "tsne", "layout": {"perplexity": 5, "iterations": 100}}"#);
    session.layout_begin(spec, false).unwrap();
    run_layout(&mut session, 50.0);
    session.step_updates(20).unwrap();
    let (moved, before) = moved_by(&mut reference, 20);
    let after = reference.to_embeddings().unwrap();
    let coords =
        field(&session.layout_frame().unwrap(), "coords").dyn_into::<Float32Array>().unwrap().to_vec();
    let moves = session.step_moves("tsne").unwrap();
    let unit = after.unit_rows(60);
    let placement = NeighbourPlacement::new(&unit, after.dim(), &coords);
    let laid_out: Vec<usize> = moved.into_iter().filter(|&w| w < 60).collect();
    assert!(!laid_out.is_empty());
    let shifts: Vec<[f64; 2]> =
        laid_out.iter().map(|&w| placement.shift(&before.vector(w), &after.vector(w), Some(w))).collect();
    let scale = arrow_scale(&shifts, extent(&coords));
    assert_eq!(
        strings(&field(&moves, "words")),
        laid_out.iter().map(|&w| after.word(w).to_string()).collect::<Vec<_>>()
    );
    assert_eq!(
        numbers(&moves, "shifts"),
        shifts.iter().flat_map(|[x, y]| [x * scale, y * scale]).collect::<Vec<_>>()
    );
    assert!(field(&moves, "estimated").is_truthy());
    assert!(numbers(&moves, "shifts").iter().any(|&v| v != 0.0));
    assert!(error_message(session.step_moves("mds")).contains("'pca', 'tsne' or 'umap'"));

    // Training on at full speed takes them away.
    session.step(100.0).unwrap();
    assert!(error_message(session.step_moves("pca")).contains("no single updates"));
}

/// The table of files of `io::open` (tests/shared/open-plans.json, written from it by the
/// native test): the page's export gives each case the plan or the message the core gives.
#[wasm_bindgen_test]
fn the_page_opens_every_file_of_the_table_as_the_core_does() {
    let cases: serde_json::Value =
        serde_json::from_str(include_str!("shared/open-plans.json")).expect("the fixture is JSON");
    let session = Session::new();
    let text = |value: &serde_json::Value| value.as_str().map_or(JsValue::NULL, JsValue::from_str);
    for case in cases.as_array().expect("a list") {
        let files: Vec<JsValue> = case["files"]
            .as_array()
            .expect("files")
            .iter()
            .map(|file| {
                let hex = file["head"].as_str().expect("hex");
                let head: Vec<u8> = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect();
                let entries: Vec<String> = file["entries"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e.as_str().unwrap().to_string())
                    .collect();
                let name = file["name"].as_str().unwrap();
                head_object(
                    name,
                    text(&file["compression"]),
                    &entries,
                    text(&file["entry"]),
                    file["innerName"].as_str().unwrap(),
                    &head,
                )
            })
            .collect();
        let options = js_sys::JSON::parse(&case["options"].to_string()).unwrap();
        let got = match session.open_plan(files, options) {
            Ok(plan) => {
                serde_json::json!({ "plan": serde_json::from_str::<serde_json::Value>(&js_sys::JSON::stringify(&plan).unwrap().as_string().unwrap()).unwrap() })
            }
            Err(err) => serde_json::json!({ "refused": error_message::<()>(Err(err)) }),
        };
        assert_eq!(got, case["expected"], "{}", case["files"]);
    }
}
