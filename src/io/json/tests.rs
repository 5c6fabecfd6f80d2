use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};

use super::*;

include!("../tricky_tokens.rs");

fn num(text: &str) -> Value {
    parse(text).unwrap()
}

fn string(s: &str) -> String {
    quoted(s)
}

/// An object of `members` in their order.
fn object(members: Vec<(String, Value)>) -> Value {
    Value::Object(members.into_iter().collect())
}

/// What `write` appends for `v`.
fn written<T>(write: fn(&mut Vec<u8>, T), v: T) -> String {
    let mut out = Vec::new();
    write(&mut out, v);
    String::from_utf8(out).unwrap()
}

fn f32_text(v: f32) -> String {
    written(write_f32, v)
}

fn f64_text(v: f64) -> String {
    written(write_f64, v)
}

#[test]
fn parses_known_answers() {
    let cases: Vec<(&str, Value)> = vec![
        ("null", Value::Null),
        (" true ", Value::Bool(true)),
        ("\t\r\nfalse\n", Value::Bool(false)),
        ("0", num("0")),
        ("-0", num("-0")),
        ("-12.5e+3", num("-12.5e+3")),
        ("1E-7", num("1E-7")),
        (r#""""#, Value::String(String::new())),
        (r#""a\"b\\c\/d\b\f\n\r\t""#, Value::String("a\"b\\c/d\u{8}\u{c}\n\r\t".into())),
        (r#""\u00e9\u00C9\u20ac\ud83e\udd80""#, Value::String("éÉ€🦀".into())),
        ("\"raw é 🦀 \u{7f} \u{2028}\"", Value::String("raw é 🦀 \u{7f} \u{2028}".into())),
        ("[]", Value::Array(vec![])),
        ("[ [ ] , {} ]", Value::Array(vec![Value::Array(vec![]), object(vec![])])),
        (
            r#"{"b": [1, "x", null], "a": {"": false}}"#,
            object(vec![
                ("b".into(), Value::Array(vec![Value::from(1u64), "x".into(), Value::Null])),
                ("a".into(), object(vec![(String::new(), Value::Bool(false))])),
            ]),
        ),
        ("\u{feff}[1]", Value::Array(vec![num("1")])),
    ];
    for (text, expected) in cases {
        assert_eq!(parse(text), Ok(expected), "{text:?}");
    }
}

/// Checks that `text` fails at `line`:`column` with a message containing `fragment`.
fn check_rejected(text: &str, line: usize, column: usize, fragment: &str) {
    match parse(text) {
        Err(err) => {
            assert_eq!((err.line, err.column), (line, column), "{text:?}: {err}");
            assert!(err.message.contains(fragment), "{text:?}: '{}' lacks '{fragment}'", err.message);
        }
        Ok(value) => panic!("{text:?} was accepted as {value:?}"),
    }
}

#[test]
fn rejects_every_fault_naming_line_and_column() {
    // Table: (text, line, column, serde_json's message or this module's). serde_json places a
    // fault at the last byte it read, so a column may lie past the character at fault.
    let cases: &[(&str, usize, usize, &str)] = &[
        ("", 1, 1, "EOF while parsing a value"),
        ("   \n  ", 2, 2, "EOF while parsing a value"),
        ("nul", 1, 3, "EOF while parsing a value"),
        ("truex", 1, 5, "trailing characters"),
        ("NaN", 1, 1, "expected value"),
        ("[Infinity]", 1, 2, "expected value"),
        ("'a'", 1, 1, "expected value"),
        ("[1,]", 1, 4, "trailing comma"),
        ("{\"a\":1,\n }", 2, 2, "trailing comma"),
        ("[,1]", 1, 2, "expected value"),
        ("[1 2]", 1, 4, "expected `,` or `]`"),
        ("[1", 1, 2, "EOF while parsing a list"),
        ("{\"a\" 1}", 1, 6, "expected `:`"),
        ("{\"a\":1 \"b\":2}", 1, 8, "expected `,` or `}`"),
        ("{a:1}", 1, 2, "key must be a string"),
        ("{,}", 1, 2, "key must be a string"),
        ("{\"a\":}", 1, 6, "expected value"),
        ("{\"a\":1,\"b\":2,\"a\":3}", 1, 14, "the key \"a\" occurs twice in this object"),
        ("[1] x", 1, 5, "trailing characters"),
        ("{} {}", 1, 4, "trailing characters"),
        ("\"abc", 1, 4, "EOF while parsing a string"),
        ("[\"ab\\", 1, 5, "EOF while parsing a string"),
        ("\n  \"a\nb\"", 3, 1, "control character (\\u0000-\\u001F) found while parsing a string"),
        ("\"a\tb\"", 1, 3, "control character (\\u0000-\\u001F) found while parsing a string"),
        ("\"\0\"", 1, 2, "control character (\\u0000-\\u001F) found while parsing a string"),
        ("\"\\x\"", 1, 3, "invalid escape"),
        ("\"\\é\"", 1, 3, "invalid escape"),
        ("\"\\u12\"", 1, 6, "EOF while parsing a string"),
        ("\"\\u12g4\"", 1, 7, "invalid escape"),
        ("\"é\\ud800\"", 1, 9, "unexpected end of hex escape"),
        ("\"\\ud800\\u0041\"", 1, 13, "lone leading surrogate in hex escape"),
        ("\"\\ud800\\ud800\"", 1, 13, "lone leading surrogate in hex escape"),
        ("\"\\ud800x\"", 1, 8, "unexpected end of hex escape"),
        ("\"\\udc00\"", 1, 7, "lone leading surrogate in hex escape"),
        ("\"\\uDFFF\\uD800\"", 1, 7, "lone leading surrogate in hex escape"),
        ("-", 1, 1, "EOF while parsing a value"),
        ("-a", 1, 2, "invalid number"),
        ("+1", 1, 1, "expected value"),
        ("01", 1, 2, "invalid number"),
        ("-012", 1, 3, "invalid number"),
        ("1.", 1, 2, "EOF while parsing a value"),
        (".5", 1, 1, "expected value"),
        ("1.e3", 1, 3, "invalid number"),
        ("1e", 1, 2, "EOF while parsing a value"),
        ("1e+", 1, 3, "EOF while parsing a value"),
        ("0x10", 1, 2, "trailing characters"),
        ("[1] // c", 1, 5, "trailing characters"),
        ("\u{a0}1", 1, 1, "expected value"),
        ("[\n\"日本\" ,\n 🦀]", 3, 2, "expected value"),
        ("\u{feff}\u{feff}1", 1, 1, "expected value"),
    ];
    for &(text, line, column, fragment) in cases {
        check_rejected(text, line, column, fragment);
    }
}

#[test]
fn nesting_is_limited_without_overflowing_the_stack() {
    let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    assert!(parse(&nested(MAX_DEPTH)).is_ok());
    // Placed just after the bracket that goes too deep (and its closing one, when next).
    check_rejected(
        &nested(MAX_DEPTH + 1),
        1,
        MAX_DEPTH + 2,
        "arrays and objects nest deeper than 128 levels",
    );
    check_rejected(&"[".repeat(100_000), 1, MAX_DEPTH + 1, "nest deeper");
    check_rejected(&"{\"a\":".repeat(100_000), 1, 5 * MAX_DEPTH + 1, "nest deeper");
    check_rejected(&"[{\"\":".repeat(50_000), 1, 5 * (MAX_DEPTH / 2) + 1, "nest deeper");
}

#[test]
fn write_string_known_answers() {
    let cases = [
        ("plain", r#""plain""#),
        ("", r#""""#),
        ("say \"hi\"\\", r#""say \"hi\"\\""#),
        ("a\nb\rc\td\u{8}e\u{c}", r#""a\nb\rc\td\be\f""#),
        ("\u{0}\u{1}\u{1f}", r#""\u0000\u0001\u001f""#),
        ("\u{7f}/é", "\"\u{7f}/é\""),
        ("x\u{85}y\u{2028}z\u{2029}🦀", "\"x\u{85}y\u{2028}z\u{2029}🦀\""),
    ];
    for (s, json) in cases {
        assert_eq!(string(s), json, "{s:?}");
        assert_eq!(parse(json), Ok(Value::String(s.into())), "{json:?}");
    }
}

#[test]
fn strings_round_trip_tricky_tokens_and_every_control_character() {
    let controls: String =
        (0u32..0x20).chain([0x7f, 0x85, 0x2028, 0x2029]).filter_map(char::from_u32).collect();
    for s in TRICKY.iter().copied().chain([controls.as_str(), "🦀👩‍👩‍👧\u{fe0f}", "\u{10ffff}\u{e000}"])
    {
        let json = string(s);
        assert!(!json.bytes().any(|b| b < 0x20), "{json:?} holds a raw control character");
        assert_eq!(json.lines().count(), 1, "{json:?}");
        assert_eq!(parse(&json), Ok(Value::String(s.to_string())), "{s:?}");
    }
}

#[test]
fn random_strings_survive_write_and_parse() {
    let alphabet =
        ['"', '\\', '/', 'u', 'd', '8', '0', '\n', '\u{0}', '\u{1f}', '\u{85}', '\u{2028}', 'é', '🦀'];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8259);
    for _ in 0..5000 {
        let len = rng.random_range(0..16);
        let s: String = (0..len)
            .map(|_| {
                // Mostly the awkward alphabet, sometimes any scalar value.
                if rng.random_range(0..4) == 0 {
                    char::from_u32(rng.random_range(0..0x11_0000)).unwrap_or('\u{fffd}')
                } else {
                    alphabet[rng.random_range(0..alphabet.len())]
                }
            })
            .collect();
        let json = string(&s);
        assert_eq!(parse(&json), Ok(Value::String(s.clone())), "{s:?} as {json:?}");
        // Inside an array and as a key too.
        let wrapped = format!("[{{{json}:{json}}}]");
        let expected = Value::Array(vec![object(vec![(s.clone(), Value::String(s))])]);
        assert_eq!(parse(&wrapped), Ok(expected));
    }
}

#[test]
fn f32_written_reads_back_bit_exact() {
    let specials = [0.0f32, -0.0, 0.1, 1.0 / 3.0, 1e-45, -1e-45, f32::MIN_POSITIVE, f32::MAX, f32::MIN, 1e10];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(32);
    let random = (0..100_000).map(|_| f32::from_bits(rng.next_u32())).filter(|v| v.is_finite());
    for v in specials.into_iter().chain(random) {
        let text = f32_text(v);
        assert_eq!(text.parse::<f32>().unwrap().to_bits(), v.to_bits(), "{v:e} written as {text}");
        assert_eq!(parse(&text).map(|n| Kind::of(&n)), Ok(Kind::Number), "{text}");
    }
}

#[test]
fn f64_written_reads_back_bit_exact() {
    let specials = [0.0, -0.0, 0.1, 5e-324, f64::MAX, f64::MIN_POSITIVE, 1e21, 123456.0, 1234567.0];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(64);
    let random = (0..100_000).map(|_| f64::from_bits(rng.next_u64())).filter(|v| v.is_finite());
    for v in specials.into_iter().chain(random) {
        let text = f64_text(v);
        assert_eq!(text.parse::<f64>().unwrap().to_bits(), v.to_bits(), "{v:e} written as {text}");
        // serde_json (float_roundtrip) reads it back to the bit too.
        let back = parse(&text).unwrap();
        assert_eq!(back.as_f64().map(f64::to_bits), Some(v.to_bits()), "{text}");
        assert_eq!(back, number(v), "{text}");
    }
}

#[test]
fn float_known_answers() {
    // serde_json's shortest round-trip forms: a fraction or an exponent always, so a float
    // reads back as a float.
    assert_eq!(f32_text(0.1), "0.1");
    assert_eq!(f32_text(-0.0), "-0.0");
    assert_eq!(f32_text(2.0), "2.0");
    assert_eq!(f32_text(1e-45), "1e-45");
    assert_eq!(f32_text(f32::MAX), "3.4028235e+38");
    assert_eq!(f32_text(0.000125), "0.000125");
    assert_eq!(f32_text(-1.2e7), "-12000000.0");
    assert_eq!(f64_text(1e21), "1e+21");
    assert_eq!(f32_text(f32::NAN), "null");
    assert_eq!(number(f64::INFINITY), Value::Null);
    assert_eq!(to_json(&number(f64::NAN)), "null");
    assert_eq!(f32_text(f32::NEG_INFINITY), "null");
    assert_eq!(to_json(&number_f32(0.025)), "0.025");
}

#[test]
fn f32_is_rounded_once_from_the_text() {
    // Just above the midpoint between 1 and the next f32 up: correctly rounded it is
    // the upper one, but through f64 it lands on the midpoint and ties to even, down.
    // This is why the readers of f32s parse the number's text, not serde_json's f64.
    let text = "1.00000005960464477539062500000001";
    assert_eq!(text.parse::<f32>().unwrap(), 1.0 + f32::EPSILON);
    assert_eq!(parse(text).unwrap().as_f64().unwrap() as f32, 1.0);
    assert_eq!("1e39".parse::<f32>().unwrap(), f32::INFINITY);
    assert_eq!("-1e-50".parse::<f32>().unwrap().to_bits(), (-0.0f32).to_bits());
}

#[test]
fn numbers_read_back_equal_to_themselves() {
    // A float stays a float and an integer an integer, so equality survives a round trip.
    for (v, text) in
        [(2.0, "2.0"), (-3.0, "-3.0"), (1e3, "1000.0"), (-0.0, "-0.0"), (0.025, "0.025"), (1e-3, "0.001")]
    {
        assert_eq!(to_json(&number(v)), text);
        assert_eq!(parse(text), Ok(number(v)), "{text}");
    }
    assert_eq!(parse("3"), Ok(Value::from(3u64)));
    assert_eq!(parse("18446744073709551615"), Ok(Value::from(u64::MAX)));
    assert_eq!(to_json(&Value::from(u64::MAX)), "18446744073709551615");
    assert_eq!(to_json(&Value::from(-5i64)), "-5");
    // Integers beyond u64 are f64s, as serde_json reads them.
    assert_eq!(to_json(&parse("18446744073709551616").unwrap()), "1.8446744073709552e+19");
    check_rejected("[1e400]", 1, 6, "number out of range");
}

#[test]
fn values_round_trip_through_to_json() {
    let text = concat!(
        r#"{"tokenizer":"bpe","dim":100,"alpha":0.025,"sample":1e-3,"lower":true,"max":null,"#,
        r#""w":["a\nb","\u0000",[],{}],"nested":{"x":[-0,1.5e10]}}"#
    );
    let value = parse(text).unwrap();
    let written = to_json(&value);
    assert_eq!(written, text.replace("1e-3", "0.001").replace("-0,1.5e10", "-0.0,15000000000.0"));
    assert_eq!(parse(&to_json(&value)), Ok(value.clone()));
    assert_eq!(value.get("dim").and_then(Value::as_u64), Some(100));
    assert_eq!(value.get("tokenizer").and_then(Value::as_str), Some("bpe"));
    assert_eq!(value.get("lower").and_then(Value::as_bool), Some(true));
    assert_eq!(value.get("w").and_then(Value::as_array).map(Vec::len), Some(4));
    assert_eq!(value.get("max").map(Kind::of), Some(Kind::Null));
    assert_eq!(value.get("missing"), None);
    assert_eq!(Value::Null.get("dim"), None);
    // Whitespace goes, everything else stays; numbers take their shortest form.
    let spaced = "[ 1 ,\n\t{ \"a\" : \"b c\" }, 1.5E+10, 1e-3 ]";
    assert_eq!(to_json(&parse(spaced).unwrap()), r#"[1,{"a":"b c"},15000000000.0,0.001]"#);
    // What was written writes the same again.
    assert_eq!(to_json(&parse(&written).unwrap()), written);
}

#[test]
fn kinds_and_positions() {
    let text = "{\"n\": [1, 2.5],\n \"s\": \"é\", \"x\": {\"deep\": [null]}}";
    let at = |piece: &str| text.find(piece).unwrap();
    assert_eq!(Kind::at(text, 0), Some(Kind::Object));
    assert_eq!(Kind::at(text, at("[1")), Some(Kind::Array));
    assert_eq!(Kind::at(text, at("2.5")), Some(Kind::Number));
    assert_eq!(Kind::at(text, at("\"é")), Some(Kind::String));
    assert_eq!(Kind::at(text, at(": [")), None);
    assert_eq!(Kind::at(text, usize::MAX), None);
    assert_eq!(Kind::at("tru", 0), None);
    assert_eq!(Kind::at("false", 0), Some(Kind::Bool));
    assert_eq!(Kind::at("null", 0), Some(Kind::Null));
    assert_eq!(line_column(text, at("{\"deep")), (2, 17));
    assert_eq!(line_column(text, at("é") + 1), (2, 8)); // Inside the 'é'.
    assert_eq!(line_column(text, usize::MAX), (2, 34));
    let members: std::collections::HashMap<&str, &RawValue> = serde_json::from_str(text).unwrap();
    let raw = members["x"];
    assert_eq!(offset_in(text, raw.get()), at("{\"deep"));
    assert_eq!(to_json(&strict_value(text, raw, 1).unwrap()), r#"{"deep":[null]}"#);
    // Placed in the whole text, nesting counted from its start.
    let err = strict_value(text, raw, MAX_DEPTH - 1).unwrap_err();
    assert_eq!((err.line, err.column), (2, 26), "{err}");
    assert!(err.message.contains("nest deeper than 128"), "{err}");
}

#[test]
fn random_and_mutated_json_never_panics() {
    let document = concat!(
        r#"{"tokenizer":"bpe","dim":100,"alpha":0.025,"sample":1e-3,"lower":true,"max":null,"#,
        r#""w":["a\nb","\u0000","\ud83e\udd80",[],{}],"nested":{"x":[-0,1.5E+10,[[{"y":"z"}]]]}}"#
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
    let mut parsed = 0;
    for _ in 0..3_000 {
        let text = crate::fuzz::random_or_mutated(&mut rng, document, crate::fuzz::JSON_PIECES);
        match parse(&text) {
            Ok(value) => {
                parsed += 1;
                assert_eq!(parse(&to_json(&value)), Ok(value), "{text:?}");
            }
            Err(err) => assert!(!err.to_string().is_empty()),
        }
    }
    assert!(parsed > 100, "{parsed}");
}
