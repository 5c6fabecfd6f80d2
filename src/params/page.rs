//! The parameters' table as the page reads it: `www/training/param-spec.json`, which
//! `www/training/params.js` imports to build its form and check it. Rust writes the file
//! ([`spec_json`]); a test fails when the committed file differs from what Rust writes, and
//! `UPDATE_PARAM_SPEC=1 cargo test --lib param_spec` rewrites it.
//!
//! A file rather than a message from the worker, so the page's parameter checks run (and
//! are tested under node:test) without the wasm module.

use serde_json::{Value, json};

use super::spec::{
    DEFAULT_ALPHA, DEFAULTS, FIELDS, FIXED, KJV_PRESET, NUMBERS, Number, Preset, SAMPLE_PRESET,
};

/// Where the page's copy lives, from the repository's root.
pub const SPEC_PATH: &str = "www/training/param-spec.json";

/// The table as JSON, pretty-printed with a final newline: the fields of `Params` in order
/// with their TypeScript types (which `tests/www/params-typedef.test.js` holds the page's
/// typedef to), each number's range under its wire name, each model's default rate, the
/// form's defaults, the presets and the fixed parameters.
pub fn spec_json() -> String {
    let fields: serde_json::Map<String, Value> =
        FIELDS.iter().map(|field| (field.name.to_string(), json!(field.kind.typescript()))).collect();
    let numbers: serde_json::Map<String, Value> =
        NUMBERS.iter().map(|number| (number.name.to_string(), range(number))).collect();
    let defaults = {
        let mut values = preset(&DEFAULTS);
        let own = json!({ "model": "skipgram", "sharedNoise": false, "threads": whole(super::spec::THREADS.default) });
        values.as_object_mut().expect("an object").extend(own.as_object().expect("an object").clone());
        values
    };
    let spec = json!({
        "fields": fields,
        "numbers": numbers,
        "defaultAlpha": { "skipgram": DEFAULT_ALPHA.skipgram, "cbow": DEFAULT_ALPHA.cbow },
        "defaults": defaults,
        "presets": { "sample": preset(&SAMPLE_PRESET), "kjv": preset(&KJV_PRESET) },
        "fixed": {
            "maxVocab": FIXED.max_vocab,
            "minAlpha": FIXED.min_alpha,
            "nsExponent": FIXED.ns_exponent,
            "keepPunctuation": FIXED.keep_punctuation,
        },
    });
    serde_json::to_string_pretty(&spec).expect("the table serialises") + "\n"
}

fn range(number: &Number) -> Value {
    let value = |x: f64| if number.whole { whole(x) } else { json!(x) };
    json!({
        "default": value(number.default),
        "min": value(number.min),
        "aboveMin": number.above_min,
        "max": number.max.map(value),
        "whole": number.whole,
    })
}

/// A whole number written without a fraction (`100`, not `100.0`).
fn whole(x: f64) -> Value {
    json!(x as i64)
}

fn preset(preset: &Preset) -> Value {
    json!({
        "tokenizer": preset.tokenizer,
        "lowercase": preset.lowercase,
        "bpeVocabSize": preset.bpe_vocab_size,
        "bpeMode": preset.bpe_mode,
        "dim": preset.dim,
        "window": preset.window,
        "negative": preset.negative,
        "sample": preset.sample,
        "minCount": preset.min_count,
        "epochs": preset.epochs,
        "alpha": preset.alpha,
        "seed": preset.seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_param_spec_the_page_reads_is_what_rust_writes() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SPEC_PATH);
        let written = spec_json();
        if std::env::var_os("UPDATE_PARAM_SPEC").is_some() {
            std::fs::write(&path, &written).expect("writes the page's copy");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == written,
            "{SPEC_PATH} differs from the table in src/params/spec.rs; rewrite it with\n\n    \
             UPDATE_PARAM_SPEC=1 cargo test --lib param_spec\n\nand commit it. Rust writes:\n{written}"
        );
    }

    #[test]
    fn the_spec_names_each_number_once_with_its_range() {
        let spec: Value = serde_json::from_str(&spec_json()).unwrap();
        let dim = &spec["numbers"]["dim"];
        assert_eq!(dim, &json!({ "default": 100, "min": 1, "aboveMin": false, "max": 4096, "whole": true }));
        assert_eq!(spec["numbers"]["seed"]["max"], Value::Null);
        assert_eq!(spec["numbers"]["alpha"]["aboveMin"], true);
        assert_eq!(spec["presets"]["sample"]["dim"], 50);
        assert_eq!(spec["defaults"]["model"], "skipgram");
        assert_eq!(spec["numbers"].as_object().unwrap().len(), NUMBERS.len());
        assert_eq!(spec["fields"]["tokenizer"], "'word'|'whitespace'|'bpe'");
        assert_eq!(spec["fields"]["maxVocab"], "number|null");
        assert_eq!(spec["fields"]["cbow"], "boolean");
        assert_eq!(spec["fields"].as_object().unwrap().len(), FIELDS.len());
    }
}
