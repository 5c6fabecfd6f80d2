use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};

use super::*;
use crate::error::Error;
use crate::fuzz::random_finite_f32;
use crate::io::json::{self, Value};
use crate::map::{EpochNeighbours, NeighbourHistory, Timeline, TimelineFrame};
use crate::vectors::Embeddings;

include!("../tricky_tokens.rs");

fn words(ws: &[&str]) -> Vec<String> {
    ws.iter().map(|w| w.to_string()).collect()
}

fn bits(emb: &Embeddings) -> Vec<u32> {
    emb.raw_rows(emb.len()).iter().map(|v| v.to_bits()).collect()
}

fn written(bundle: &Bundle) -> String {
    let mut file = Vec::new();
    write_bundle(bundle, &mut file).unwrap();
    String::from_utf8(file).unwrap()
}

/// Reads `text` back and checks it equals `bundle` to the bit.
fn assert_reads_as(text: &str, bundle: &Bundle) {
    let back = read_bundle(text).unwrap_or_else(|err| panic!("{err}\n{text}"));
    assert_eq!(back.embeddings.words(), bundle.embeddings.words());
    assert_eq!(bits(&back.embeddings), bits(&bundle.embeddings));
    let loss_bits = |b: &Bundle| b.epoch_losses.iter().map(|l| l.to_bits()).collect::<Vec<_>>();
    assert_eq!(loss_bits(&back), loss_bits(bundle));
    assert_eq!(back, *bundle);
}

fn documented_bundle() -> Bundle {
    let vectors = vec![0.1, -0.5, 0.004, 2.0, 0.0, -0.0, 1e-45, f32::MAX, -1.25];
    let embeddings = Embeddings::new(words(&["the", "from the dead", "Jesus\n"]), 3, vectors).unwrap();
    let params = json::object(vec![
        ("tokenizer".into(), "bpe".into()),
        ("dim".into(), 3u64.into()),
        ("window".into(), 5u64.into()),
        ("alpha".into(), 0.025f64.into()),
        ("seed".into(), 1u64.into()),
    ]);
    Bundle {
        counts: Some(vec![10, 4, 2]),
        params: Some(params),
        fingerprint: Some("9f0c2b1d5e6a7788".into()),
        epoch_losses: vec![2.75, 2.5],
        source: Some("kjv.txt".into()),
        ..Bundle::new(embeddings)
    }
}

#[test]
fn writes_the_documented_layout() {
    let expected = r#"{"format":"embedscope-bundle","version":1,
"fingerprint":"9f0c2b1d5e6a7788",
"source":"kjv.txt",
"params":{"tokenizer":"bpe","dim":3,"window":5,"alpha":0.025,"seed":1},
"dim":3,
"epochLosses":[2.75,2.5],
"words":[
"the",
"from the dead",
"Jesus\n"
],
"counts":[
10,
4,
2
],
"vectors":[
[0.1,-0.5,0.004],
[2.0,0.0,-0.0],
[1e-45,3.4028235e+38,-1.25]
]}
"#;
    let bundle = documented_bundle();
    assert_eq!(written(&bundle), expected);
    assert_reads_as(expected, &bundle);
    // The module documentation shows the same text.
    let doc: String = include_str!("mod.rs")
        .lines()
        .skip_while(|line| *line != "//! ```text")
        .skip(1)
        .take_while(|line| *line != "//! ```")
        .map(|line| format!("{}\n", line.strip_prefix("//! ").unwrap_or("")))
        .collect();
    assert_eq!(doc, expected);
}

#[test]
fn a_borrowed_bundle_writes_the_same_file() {
    let bundle = documented_bundle();
    let borrowed = BundleRef {
        counts: bundle.counts.as_deref(),
        params: bundle.params.as_ref(),
        fingerprint: bundle.fingerprint.as_deref(),
        epoch_losses: &bundle.epoch_losses,
        source: bundle.source.as_deref(),
        ..BundleRef::new(&bundle.embeddings)
    };
    let mut file = Vec::new();
    write_bundle(borrowed, &mut file).unwrap();
    assert_eq!(String::from_utf8(file).unwrap(), written(&bundle));
}

#[test]
fn a_bare_bundle_writes_only_the_required_keys() {
    let bundle = Bundle::new(Embeddings::new(words(&["a"]), 2, vec![1.0, -2.0]).unwrap());
    let text = written(&bundle);
    assert_eq!(
        text,
        "{\"format\":\"embedscope-bundle\",\"version\":1,\n\"dim\":2,\n\"epochLosses\":[],\n\
         \"words\":[\n\"a\"\n],\n\"vectors\":[\n[1.0,-2.0]\n]}\n"
    );
    assert_reads_as(&text, &bundle);
    let empty = Bundle::new(Embeddings::new(vec![], 4, vec![]).unwrap());
    assert_reads_as(&written(&empty), &empty);
}

/// The documented bundle with a timeline: two word lists, two frames (PCA, t-SNE) and
/// two epochs of neighbours.
fn timeline_bundle() -> Bundle {
    let map_spec = |method: &str| {
        json::object(vec![("method".into(), method.into()), ("perplexity".into(), 30u64.into())])
    };
    let frame = |epoch, word_list, method: &str, coords: Vec<f32>| TimelineFrame {
        epoch,
        epochs: 2,
        tokens_done: 20 * u64::from(epoch),
        tokens_total: 40,
        map_spec: map_spec(method),
        axis_labels: ["PC1 (50.0 % of variance)".into(), "t-SNE \"2\"\n".into()],
        word_list,
        coords,
    };
    let epoch = |epoch, ids: Vec<u32>| EpochNeighbours {
        epoch,
        tokens_done: 20 * u64::from(epoch),
        ids,
        scores: vec![0.5, -0.25, 1e-45, 0.1, -0.0, 0.3],
    };
    Bundle {
        timeline: Some(Timeline {
            word_lists: vec![vec![0, 1, 2], vec![2, 0]],
            frames: vec![
                frame(1, 0, "pca", vec![0.1, -0.2, 1e-45, 3.5, -0.0, 2.0]),
                frame(2, 1, "tsne", vec![1.0, f32::MAX, -3.0, 4.0]),
            ],
            neighbours: Some(NeighbourHistory::from_epochs(
                3,
                2,
                vec![epoch(1, vec![1, 2, 0, 2, 0, 1]), epoch(2, vec![2, 1, 2, 0, 1, 0])],
            )),
        }),
        ..documented_bundle()
    }
}

#[test]
fn a_timeline_round_trips_bit_exactly_after_the_vectors() {
    let bundle = timeline_bundle();
    let text = written(&bundle);
    // The version 1 keys come first, unchanged; the section follows the vectors.
    let old = written(&documented_bundle());
    assert!(text.starts_with(old.strip_suffix("}\n").unwrap()), "{text}");
    assert!(text.contains("\n\"frames\":[\n{\"epoch\":1,\"epochs\":2,\"tokensDone\":20,\"tokensTotal\":40,\"mapSpec\":{\"method\":\"pca\",\"perplexity\":30},"), "{text}");
    assert_reads_as(&text, &bundle);
    let back = read_bundle(&text).unwrap();
    let coord_bits = |b: &Bundle| -> Vec<u32> {
        b.timeline
            .as_ref()
            .unwrap()
            .frames
            .iter()
            .flat_map(|f| f.coords.iter().map(|v| v.to_bits()))
            .collect()
    };
    assert_eq!(coord_bits(&back), coord_bits(&bundle));
    assert_eq!(written(&back), text);
}

#[test]
fn a_bundle_written_before_timelines_opens_and_writes_the_same() {
    // A version 1 file as written before the timeline section existed.
    let old = written(&documented_bundle());
    assert!(!old.contains("timeline"));
    let bundle = read_bundle(&old).unwrap();
    assert_eq!(bundle.timeline, None);
    assert_eq!(written(&bundle), old);
    // And a null section is none.
    let null = old.replacen("\"dim\":3,", "\"timeline\":null,\"dim\":3,", 1);
    assert_eq!(read_bundle(&null).unwrap().timeline, None);
}

#[test]
fn a_timeline_whose_frames_name_their_map_spec_view_reads_the_same() {
    let bundle = timeline_bundle();
    let text = written(&bundle).replace("\"mapSpec\":", "\"view\":");
    assert_eq!(text.matches("\"view\":").count(), 2, "{text}");
    assert_reads_as(&text, &bundle);
    let without = written(&bundle).replace("\"mapSpec\":{\"method\":\"pca\",\"perplexity\":30},", "");
    let message = read_bundle(&without).unwrap_err().to_string();
    assert!(message.contains("frame 1 lacks the key \"mapSpec\""), "{message}");
}

#[test]
fn rejects_every_fault_in_the_timeline() {
    let text = written(&timeline_bundle());
    let line_of = |text: &str, piece: &str| {
        1 + text[..text.find(piece).unwrap_or_else(|| panic!("{piece}"))].matches('\n').count()
    };
    let cases: &[(&str, &str, &str)] = &[
        ("[2,0]", "[2,7]", "word list 2 names word id 7, and the bundle has 3 words"),
        ("\"words\":1,", "\"words\":4,", "frame 2: it shows word list 5, and there are 2 word lists"),
        (
            "[1.0,3.4028235e+38,-3.0,4.0]",
            "[1.0,3.4028235e+38,-3.0]",
            "frame 2: it has 3 coordinates for 2 words",
        ),
        (
            "[1.0,3.4028235e+38,-3.0,4.0]",
            "[1.0,3.5e38,-3.0,4.0]",
            "coordinate 2 of \"coords\" of frame 2 is 3.5e38",
        ),
        ("{\"method\":\"tsne\",\"perplexity\":30}", "[\"tsne\"]", "\"mapSpec\" of frame 2 must be an object"),
        (
            "\"axisLabels\":[\"PC1 (50.0 % of variance)\",\"t-SNE \\\"2\\\"\\n\"],\"words\":1",
            "\"axisLabels\":[\"x\"],\"words\":1",
            "\"axisLabels\" of frame 2 must be two strings",
        ),
        ("\"ids\":[2,1,2,0,1,0]", "\"ids\":[2,1,2,0,1]", "neighbours of epoch 2: 5 ids and 6 scores"),
        ("\"ids\":[2,1,2,0,1,0]", "\"ids\":[2,1,2,0,1,9]", "neighbours of epoch 2: word id 9"),
        ("\"ids\":[2,1,2,0,1,0]", "\"idz\":[2,1,2,0,1,0]", "lacks the key \"ids\""),
        ("\"k\":2", "\"k\":3", "neighbours of 3 words, 3 each"),
    ];
    for &(from, to, fragment) in cases {
        assert!(text.contains(from), "{from}");
        // The fault is reported on the line of the piece changed.
        let at = text.rfind(from).unwrap();
        let broken = format!("{}{to}{}", &text[..at], &text[at + from.len()..]);
        check(&broken, line_of(&text, &text[at..]).max(line_of(&broken, &broken[at..])), fragment);
    }
    check(
        &text.replacen("\"timeline\":{", "\"timeline\":[", 1),
        line_of(&text, "\"timeline\""),
        "must be an object",
    );
}

#[test]
fn writer_rejects_a_timeline_it_could_not_read_back() {
    for broken in [
        |t: &mut Timeline| t.frames[0].coords[0] = f32::NAN,
        |t: &mut Timeline| t.frames[1].word_list = 2,
        |t: &mut Timeline| t.word_lists[0].push(3),
        |t: &mut Timeline| t.frames[0].map_spec = Value::Null,
    ] {
        let mut bundle = timeline_bundle();
        broken(bundle.timeline.as_mut().unwrap());
        let err = write_bundle(&bundle, Vec::new()).unwrap_err();
        assert!(matches!(err, Error::InvalidParameter { name: "timeline", .. }), "{err:?}");
    }
}

#[test]
fn round_trip_is_bit_exact_with_tricky_tokens() {
    let mut list = words(TRICKY);
    list.extend(words(&["", "\"quoted\"", "\u{0}nul", "\u{2029}", "\u{feff}bom", "\\u0041"]));
    let dim = 7;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
    let specials = [0.1f32, -0.0, 0.0, 1e-45, -1e-45, f32::MAX, f32::MIN, f32::MIN_POSITIVE, 1.0 / 3.0];
    let mut vectors: Vec<f32> = specials.to_vec();
    vectors.extend((specials.len()..list.len() * dim).map(|_| random_finite_f32(&mut rng)));
    let n = list.len();
    let tricky_params: Vec<(String, Value)> =
        TRICKY.iter().map(|t| (t.to_string(), Value::from(*t))).collect();
    let bundle = Bundle {
        counts: Some((0..n as u64).map(|i| u64::MAX - i).collect()),
        params: Some(json::object(vec![
            ("tokens".into(), json::object(tricky_params)),
            ("sample".into(), 1e-3f64.into()),
            ("lowercase".into(), true.into()),
            ("maxVocab".into(), Value::Null),
        ])),
        fingerprint: Some("0123456789abcdef".into()),
        epoch_losses: vec![5e-324, f64::MAX, 0.1, -0.0, 1.0 / 3.0],
        source: Some("C:\\texts\\\"bible\".txt\n".into()),
        ..Bundle::new(Embeddings::new(list, dim, vectors).unwrap())
    };
    let text = written(&bundle);
    assert!(Bundle::sniff(text.as_bytes()));
    // Every word has its own line, so a line is a word.
    assert_eq!(text.lines().count(), 6 + 3 * (n + 2));
    assert_reads_as(&text, &bundle);
    // Written, read and written again: the same bytes.
    assert_eq!(written(&read_bundle(&text).unwrap()), text);
}

#[test]
fn generated_bundles_round_trip() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    for round in 0..40 {
        let n = rng.random_range(0..30);
        let dim = rng.random_range(1..12);
        let mut list: Vec<String> = Vec::new();
        while list.len() < n {
            let len = rng.random_range(0..6);
            let word: String =
                (0..len).map(|_| char::from_u32(rng.random_range(0..0x11_0000)).unwrap_or('?')).collect();
            if !list.contains(&word) {
                list.push(word);
            }
        }
        let vectors: Vec<f32> = (0..n * dim).map(|_| random_finite_f32(&mut rng)).collect();
        let bundle = Bundle {
            counts: rng.random_bool(0.5).then(|| (0..n).map(|_| rng.next_u64()).collect()),
            epoch_losses: (0..rng.random_range(0..4)).map(|_| rng.random::<f64>() * 10.0).collect(),
            ..Bundle::new(Embeddings::new(list, dim, vectors).unwrap())
        };
        let text = written(&bundle);
        let back = read_bundle(&text).unwrap_or_else(|err| panic!("round {round}: {err}"));
        assert_eq!(bits(&back.embeddings), bits(&bundle.embeddings), "round {round}");
        assert_eq!(back, bundle, "round {round}");
        assert_eq!(written(&back), text, "round {round}");
    }
}

#[test]
fn key_order_does_not_matter_and_unknown_keys_are_ignored() {
    let bundle = documented_bundle();
    let Ok(Value::Object(members)) = json::parse(&written(&bundle)) else { panic!("not an object") };
    let mut members: Vec<(String, Value)> = members.into_iter().collect();
    members.reverse();
    let reversed = json::to_json(&json::object(members.clone()));
    assert!(reversed.starts_with("{\"vectors\":[[0.1,-0.5,0.004],"), "{reversed}");
    assert_reads_as(&reversed, &bundle);

    members.insert(3, ("comment".into(), json::parse(r#"{"any":[1,{"thing":null}],"vectors":7}"#).unwrap()));
    members.push(("trainedOn".into(), "a laptop".into()));
    let text = json::to_json(&json::object(members)).replace(",", " ,\r\n\t");
    assert_reads_as(&text, &bundle);

    // Optional keys may be null, and a byte order mark is skipped.
    let nulls = "\u{feff}{\"format\":\"embedscope-bundle\",\"version\":1,\"fingerprint\":null,\
                 \"source\":null,\"params\":null,\"counts\":null,\"epochLosses\":null,\
                 \"dim\":1,\"words\":[\"a\"],\"vectors\":[[0.5]]}";
    assert_reads_as(nulls, &Bundle::new(Embeddings::new(words(&["a"]), 1, vec![0.5]).unwrap()));
}

/// Checks that reading `text` fails on `line` with a message containing `fragment`.
fn check(text: &str, line: usize, fragment: &str) {
    match read_bundle(text) {
        Err(Error::Format { line: got, message }) => {
            assert_eq!(got, line, "{text:?}: {message}");
            assert!(message.contains(fragment), "{text:?}: '{message}' lacks '{fragment}'");
        }
        other => panic!("{text:?}: expected a format error on line {line} ('{fragment}'), got {other:?}"),
    }
}

#[test]
fn rejects_files_that_are_not_bundles_or_lack_keys() {
    let bundle = |keys: &str| format!(r#"{{"format":"embedscope-bundle",{keys}}}"#);
    // Table: (text, line, part of the message).
    let cases: Vec<(String, usize, &str)> = vec![
        ("".into(), 1, "not a valid bundle: invalid JSON at column 1: EOF while parsing a value"),
        ("2 3\nthe 1 2 3\n".into(), 1, "it starts with a number, not a JSON object"),
        ("[1, 2]".into(), 1, "not an embedscope bundle: it starts with an array"),
        ("the 1 2".into(), 1, "not a valid bundle: invalid JSON at column 2: expected ident"),
        (bundle("\n\"version\":1,\n\"dim\":2,,"), 3, "column 9: key must be a string"),
        (r#"{"name":"package","version":1}"#.into(), 0, "not an embedscope bundle: it has no \"format\""),
        (r#"{"format":"word2vec"}"#.into(), 1, "not an embedscope bundle: \"format\" is \"word2vec\""),
        (r#"{"format":7}"#.into(), 1, "\"format\" is 7, not"),
        (bundle(r#""version":2,"dim":"?""#), 1, "version 2, newer than version 1"),
        (bundle(r#""version":"1""#), 1, "\"version\" is a string, not a number"),
        (bundle(r#""version":1.0"#), 1, "\"version\" must be a whole number, found 1.0"),
        (bundle(r#""version":0"#), 1, "\"version\" must be at least 1"),
        (bundle(r#""dim":1,"words":[],"vectors":[]"#), 0, "lacks the key \"version\""),
        (bundle(r#""version":1,"words":[],"vectors":[]"#), 0, "lacks the key \"dim\""),
        (bundle(r#""version":1,"dim":2,"vectors":[]"#), 0, "lacks the key \"words\""),
        (bundle(r#""version":1,"dim":2,"words":[]"#), 0, "lacks the key \"vectors\""),
        (bundle(r#""version":1,"dim":0"#), 1, "\"dim\" must be at least 1, found 0"),
        (bundle(r#""version":1,"dim":-2"#), 1, "\"dim\" must be a whole number"),
    ];
    for (text, line, fragment) in &cases {
        check(text, *line, fragment);
    }
}

#[test]
fn rejects_every_fault_in_the_keys() {
    let bundle = |keys: &str| format!(r#"{{"format":"embedscope-bundle","version":1,"dim":2,{keys}}}"#);
    // The keys after "dim", all on line 1. Table: (keys, part of the message).
    let cases: &[(&str, &str)] = &[
        // Invalid JSON.
        (r#""words":["a"],"vectors":[[1,2]]} x"#, "column 84: trailing characters"),
        (r#""words":["a",],"vectors":[[1,2]]"#, "trailing comma"),
        (r#""words":["a"],"vectors":[[1,NaN]]"#, "column 79: expected value"),
        (r#""words":["a"],"vectors":[[1,2]],"x":"#, "expected value"),
        (r#""words":["a"],"vectors":[[1,-]]"#, "column 80: invalid number"),
        (r#""words":["a"],"vectors":[[1,01]]"#, "column 80: invalid number"),
        // Repeated and mistyped keys.
        (r#""dim":3,"words":[],"vectors":[]"#, "the key \"dim\" occurs twice"),
        (r#""words":"a b","vectors":[]"#, "\"words\" must be an array of strings, not a string"),
        (r#""words":["a",["b"]],"vectors":[]"#, "word 2 is an array, not a string"),
        (r#""vectors":{}"#, "\"vectors\" must be an array of arrays of numbers, not an object"),
        (r#""fingerprint":12,"words":[],"vectors":[]"#, "\"fingerprint\" must be a string, not a number"),
        (r#""source":["a"],"words":[],"vectors":[]"#, "\"source\" must be a string, not an array"),
        (r#""params":[1],"words":[],"vectors":[]"#, "\"params\" must be an object, not an array"),
        // Vectors.
        (r#""words":["a","b"],"vectors":[[1,2]]"#, "there are 2 words but 1 vectors"),
        (r#""words":["a"],"vectors":[[1,2],[3,4]]"#, "there are 1 words but 2 vectors"),
        (r#""words":["a","b"],"vectors":[[1,2],[3]]"#, "the vector of \"b\" has 1 value; \"dim\" is 2"),
        (r#""words":["a\n"],"vectors":[[1,2,3]]"#, "the vector of \"a\\n\" has 3 values"),
        (r#""words":["a","b"],"vectors":[[1,2],7]"#, "the vector of \"b\" is a number, not an array"),
        (r#""words":["a"],"vectors":[[1,"2"]]"#, "value 2 of the vector of \"a\" is a string, not"),
        (r#""words":["a"],"vectors":[[null,2]]"#, "value 1 of the vector of \"a\" is null, not a number"),
        (r#""vectors":[[1,2],[true,2]],"words":["a","b"]"#, "value 1 of vector 2 is true or false"),
        (r#""words":["a"],"vectors":[[1,1e39]]"#, "value 2 of the vector of \"a\" is 1e39, beyond"),
        (r#""words":["a"],"vectors":[[-3.5e38,1]]"#, "is -3.5e38, beyond the range of f32"),
        // Counts and losses.
        (r#""words":["a","b"],"counts":[3],"vectors":[[1,2],[3,4]]"#, "2 words, 1 counts"),
        (r#""words":["a"],"counts":[1.5],"vectors":[[1,2]]"#, "count 1 (of \"a\") must be a whole"),
        (r#""counts":[-1],"words":["a"],"vectors":[[1,2]]"#, "count 1 must be a whole number from 0"),
        (r#""words":["a"],"counts":["1"],"vectors":[[1,2]]"#, "count 1 (of \"a\") is a string"),
        (r#""words":["a"],"counts":7,"vectors":[[1,2]]"#, "\"counts\" must be an array of whole numbers"),
        (r#""epochLosses":[1,"x"],"words":[],"vectors":[]"#, "epoch loss 2 is a string, not a number"),
        (r#""epochLosses":[1e400],"words":[],"vectors":[]"#, "epoch loss 1 is 1e400, beyond the range"),
        // Words that repeat.
        (r#""words":["a","a"],"vectors":[[1,2],[3,4]]"#, "the word \"a\" occurs twice (words 1 and 2)"),
    ];
    for &(keys, fragment) in cases {
        check(&bundle(keys), 1, fragment);
    }
    let deep = format!(r#"{{"format":"embedscope-bundle","x":{}"#, "[".repeat(200));
    check(&deep, 1, "nest deeper than 128");
}

#[test]
fn vector_components_are_rounded_once_from_their_text() {
    // Just above the midpoint between 1 and the next f32 up: read through f64 (as
    // serde_json would give it) it lands on the midpoint and ties to even, down.
    let text = r#"{"format":"embedscope-bundle","version":1,"dim":2,"words":["a"],
            "vectors":[[1.00000005960464477539062500000001,-1e-50]]}"#;
    let bundle = read_bundle(text).unwrap();
    assert_eq!(bits(&bundle.embeddings), [(1.0f32 + f32::EPSILON).to_bits(), (-0.0f32).to_bits()]);
}

#[test]
fn trees_in_a_bundle_are_read_strictly() {
    let bundle = |keys: &str| {
        format!(
            r#"{{"format":"embedscope-bundle","version":1,"dim":1,"words":["a"],"vectors":[[1]],{keys}}}"#
        )
    };
    // serde_json would keep the last of two equal keys.
    check(&bundle(r#""params":{"seed":1,"seed":2}"#), 1, "the key \"seed\" occurs twice in this object");
    check(&bundle(r#""x":[{"a":{},"a":[]}]"#), 1, "the key \"a\" occurs twice in this object");
    check(&bundle(r#""params":{"x":1e400}"#), 1, "column 99: number out of range");
    // 128 levels in all are read (the bundle, params and 126 arrays), 129 are not;
    // serde_json's own limit would stop at 127.
    let nested = |depth: usize| format!(r#""params":{{"x":{}{}}}"#, "[".repeat(depth), "]".repeat(depth));
    assert!(read_bundle(&bundle(&nested(126))).is_ok());
    check(&bundle(&nested(127)), 1, "arrays and objects nest deeper than 128 levels");
    // Columns count characters, not bytes.
    let text = bundle(r#""source":"日本語 🦀","x":[1,-]"#);
    let at = text.find("-]").unwrap() + 1;
    let column = text[..at].chars().count() + 1;
    assert!(column < at + 1);
    check(&text, 1, &format!("not a valid bundle: invalid JSON at column {column}: invalid number"));
}

#[test]
fn faults_name_the_line_they_are_on() {
    let text = written(&documented_bundle());
    // The line of `from`'s first non-blank character.
    let line_of = |from: &str| {
        let at = text.find(from).unwrap() + from.len() - from.trim_start().len();
        text[..at].matches('\n').count() + 1
    };
    let cases = [
        ("[2.0,0.0,-0.0]", "[2.0,0.0]", "the vector of \"from the dead\" has 2 values; \"dim\" is 3"),
        ("[2.0,0.0,-0.0]", "[2.0,0.0,\"-0\"]", "value 3 of the vector of \"from the dead\" is a string"),
        (
            "[2.0,0.0,-0.0]",
            "[2.0,0.0,-0.0,]",
            "not a valid bundle: invalid JSON at column 15: trailing comma",
        ),
        ("\"Jesus\\n\"", "\"the\"", "the word \"the\" occurs twice (words 1 and 3)"),
        ("\"kjv.txt\"", "\"kjv.txt", "control character (\\u0000-\\u001F) found while parsing a string"),
        ("\n\"dim\":3", "\n\"dim\":3.5", "\"dim\" must be a whole number, found 3.5"),
        ("\"counts\":[", "\"counts\":[\n1,", "\"counts\" must hold one count per word: 3 words, 4 counts"),
    ];
    for (from, to, fragment) in cases {
        let line = line_of(from);
        check(&text.replacen(from, to, 1), line, fragment);
    }
}

#[test]
fn writer_rejects_what_it_could_not_read_back() {
    let emb = Embeddings::new(words(&["a", "b"]), 1, vec![1.0, 2.0]).unwrap();
    let cases = [
        (Bundle { counts: Some(vec![1]), ..Bundle::new(emb.clone()) }, "counts"),
        (Bundle { params: Some(Value::from("word")), ..Bundle::new(emb.clone()) }, "params"),
        (Bundle { epoch_losses: vec![1.0, f64::NAN], ..Bundle::new(emb.clone()) }, "epoch_losses"),
        (Bundle { epoch_losses: vec![f64::INFINITY], ..Bundle::new(emb.clone()) }, "epoch_losses"),
    ];
    for (bundle, field) in cases {
        let mut out = Vec::new();
        match write_bundle(&bundle, &mut out) {
            Err(Error::InvalidParameter { name, .. }) => assert_eq!(name, field),
            other => panic!("{field}: {other:?}"),
        }
        assert!(out.is_empty());
    }
}

#[test]
fn sniff_recognises_bundles_only() {
    let text = written(&documented_bundle());
    assert!(Bundle::sniff(text.as_bytes()));
    assert!(Bundle::sniff(&text.as_bytes()[..60]));
    assert!(Bundle::sniff(format!("\u{feff} \r\n\t{text}").as_bytes()));
    let far = format!("{{\"x\":\"{}\",\"format\":\"embedscope-bundle\"}}", " ".repeat(600));
    let cases: [&[u8]; 7] = [
        b"",
        b"{",
        b"2 3\nthe 1 2 3\n",
        b"[\"embedscope-bundle\"]",
        b"{\"format\":\"embedscope-bundles\"}",
        b"x{\"format\":\"embedscope-bundle\"}",
        far.as_bytes(),
    ];
    for head in cases {
        assert!(!Bundle::sniff(head), "{:?}", String::from_utf8_lossy(head));
    }
    // That last one is still a JSON text read_bundle reads as far as its keys go.
    check(&far, 0, "lacks the key \"version\"");
}

#[test]
fn random_and_mutated_bundles_never_panic() {
    let keys =
        ["\"words\"", "\"vectors\"", "\"counts\"", "\"dim\"", "\"version\"", "-1", "\"coords\"", "\"ids\""];
    let interesting = [crate::fuzz::JSON_PIECES, &keys].concat();
    // The bundle as before, and one with a timeline (longer, so fewer of its mutations read).
    for (document, seed, least) in
        [(written(&documented_bundle()), 41, 100), (written(&timeline_bundle()), 42, 60)]
    {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut read = 0;
        for _ in 0..2_000 {
            let text = crate::fuzz::random_or_mutated(&mut rng, &document, &interesting);
            let _ = Bundle::sniff(text.as_bytes());
            match read_bundle(&text) {
                // What was read writes out and reads back the same.
                Ok(bundle) => {
                    read += 1;
                    assert_reads_as(&written(&bundle), &bundle);
                }
                Err(err) => assert!(matches!(err, Error::Format { .. }), "{err:?}"),
            }
        }
        assert!(read > least, "{read}");
    }
}
