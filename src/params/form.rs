//! The parameters as the page's form and a bundle name them ([`Params`]), one flat list of
//! fields; [`Params`] turns them into the core's configurations.

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::io::json;
use crate::params::{RunParams, TokenizerSpec};
use crate::text::{BpeConfig, BpeMode, Tokenizer, VocabConfig, WordTokenizer};
use crate::train::TrainConfig;

/// A run's parameters, one flat list of fields: the one list of them in the crate.
///
/// The list is this type rather than a table because serde needs a type: the page's form
/// sends it (the session deserialises the form's object), a bundle's `params` is its
/// serialisation ([`RunParams::to_json`]), the fingerprint reads its fields
/// (`crate::fingerprint`), and the command line makes its flags from them. What each field
/// means to a person (its kind, range and help) is [`FIELDS`](crate::params::spec::FIELDS),
/// which a test holds to this list, name for name and in order; the page's typedef
/// (`www/protocol.js`) is checked against the field list Rust writes into
/// `www/training/param-spec.json`.
///
/// The order is a bundle's: a bundle re-opens exactly, so its keys keep the order they have.
/// A missing field takes its default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Params {
    /// "word", "whitespace" or "bpe".
    pub tokenizer: String,
    /// With "word": lowercase every word, and keep punctuation marks as tokens.
    pub lowercase: bool,
    pub keep_punctuation: bool,
    /// With "bpe": the vocabulary size to learn, and "cross" or "within".
    pub bpe_vocab_size: usize,
    pub bpe_mode: String,
    pub dim: usize,
    pub window: usize,
    pub negative: usize,
    pub sample: f64,
    pub min_count: u64,
    pub max_vocab: Option<usize>,
    pub epochs: u32,
    /// The learning rate; missing, the model's default (0.025 skip-gram, 0.05 CBOW).
    pub alpha: Option<f32>,
    pub min_alpha: f32,
    pub ns_exponent: f64,
    pub seed: u64,
    /// CBOW rather than skip-gram.
    pub cbow: bool,
    /// Skip-gram: one draw of noise words per window (`TrainConfig::shared_noise`).
    pub shared_noise: bool,
    /// Threads to train on (the worker sizes its pool to it first; 1 is bit-reproducible).
    pub threads: usize,
}

impl Default for Params {
    fn default() -> Self {
        let (t, v) = (TrainConfig::default(), VocabConfig::default());
        Params {
            tokenizer: "word".into(),
            bpe_vocab_size: BpeConfig::default().vocab_size,
            bpe_mode: BpeConfig::default().mode.name().into(),
            lowercase: false,
            keep_punctuation: false,
            dim: t.dim,
            window: t.window,
            negative: t.negative,
            sample: t.sample,
            min_count: v.min_count,
            max_vocab: v.max_vocab,
            epochs: t.epochs,
            alpha: None,
            min_alpha: t.min_alpha,
            ns_exponent: t.ns_exponent,
            seed: t.seed,
            threads: t.threads,
            cbow: t.cbow,
            shared_noise: t.shared_noise,
        }
    }
}

impl Params {
    /// The tokenizer chosen by name, with its own options from the form.
    pub fn tokenizer_spec(&self) -> Result<TokenizerSpec> {
        let word = WordTokenizer { lowercase: self.lowercase, keep_punctuation: self.keep_punctuation };
        // The BPE fields are checked only when BPE is chosen.
        let bpe = if self.tokenizer == "bpe" { self.bpe_config()? } else { BpeConfig::default() };
        TokenizerSpec::from_name(&self.tokenizer, word, bpe)
    }

    /// The word-level tokenizer, or `None` for "bpe", whose model must be learned first.
    pub fn word_tokenizer(&self) -> Result<Option<Box<dyn Tokenizer>>> {
        Ok(self.tokenizer_spec()?.ready())
    }

    pub fn bpe_config(&self) -> Result<BpeConfig> {
        let config = BpeConfig { vocab_size: self.bpe_vocab_size, mode: BpeMode::from_name(&self.bpe_mode)? };
        config.validate()?;
        Ok(config)
    }

    pub fn vocab_config(&self) -> VocabConfig {
        VocabConfig { min_count: self.min_count, max_vocab: self.max_vocab }
    }

    /// The parameters under the page's names, as the command-line tool writes them into a
    /// bundle (`RunParams::to_json`). The session keeps this for the trainer it makes, so a
    /// bundle tells how its vectors were trained, whatever the form says later.
    pub fn to_json(&self) -> Result<json::Value> {
        Ok(self.run_params()?.to_json())
    }

    /// The core's configurations these fields ask for; fails on a bad tokenizer.
    pub fn run_params(&self) -> Result<RunParams> {
        Ok(RunParams {
            tokenizer: self.tokenizer_spec()?,
            vocab: self.vocab_config(),
            train: self.train_config(),
        })
    }

    /// Every field under its name, in order, as serde writes it: a float in its shortest
    /// form (`0.025`, where an `f32` read as an `f64` would be 0.02500000037252903).
    pub fn fields(&self) -> json::Map<String, json::Value> {
        // Through the text, since serde_json's `to_value` widens an `f32` to its `f64`
        // digits; every field serialises, and serde_json keeps the order written.
        let text = serde_json::to_string(self).expect("the fields serialise");
        serde_json::from_str(&text).expect("serde_json reads what it writes")
    }

    pub fn train_config(&self) -> TrainConfig {
        TrainConfig {
            dim: self.dim,
            window: self.window,
            negative: self.negative,
            sample: self.sample,
            alpha: self.alpha(),
            min_alpha: self.min_alpha,
            epochs: self.epochs,
            ns_exponent: self.ns_exponent,
            seed: self.seed,
            threads: self.threads,
            cbow: self.cbow,
            shared_noise: self.shared_noise,
        }
    }

    /// The learning rate asked for, or the model's default.
    fn alpha(&self) -> f32 {
        self.alpha.unwrap_or(TrainConfig::default_alpha(self.cbow))
    }
}

/// The fields of a run as the core configured it: the learning rate resolved, the options
/// of the other tokenizers at their defaults.
impl From<&RunParams> for Params {
    fn from(run: &RunParams) -> Params {
        let (t, v) = (&run.train, &run.vocab);
        let mut params = Params {
            tokenizer: run.tokenizer.name().into(),
            dim: t.dim,
            window: t.window,
            negative: t.negative,
            sample: t.sample,
            min_count: v.min_count,
            max_vocab: v.max_vocab,
            epochs: t.epochs,
            alpha: Some(t.alpha),
            min_alpha: t.min_alpha,
            ns_exponent: t.ns_exponent,
            seed: t.seed,
            cbow: t.cbow,
            shared_noise: t.shared_noise,
            threads: t.threads,
            ..Params::default()
        };
        match run.tokenizer {
            TokenizerSpec::Word(word) => {
                params.lowercase = word.lowercase;
                params.keep_punctuation = word.keep_punctuation;
            }
            TokenizerSpec::Bpe(bpe) => {
                params.bpe_vocab_size = bpe.vocab_size;
                params.bpe_mode = bpe.mode.name().into();
            }
            TokenizerSpec::Whitespace => {}
        }
        params
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::json::Value;
    use crate::params::spec::{self, FIELDS, Kind};

    #[test]
    fn the_table_describes_each_field_of_params_in_order() {
        let params = Params { alpha: Some(0.025), max_vocab: Some(10), ..Params::default() };
        let fields = params.fields();
        let names: Vec<&str> = fields.keys().map(String::as_str).collect();
        let described: Vec<&str> = FIELDS.iter().map(|field| field.name).collect();
        assert_eq!(names, described, "Params and spec::FIELDS must list the same fields in the same order");
        for (field, value) in FIELDS.iter().zip(fields.values()) {
            let fits = match field.kind {
                Kind::Choice(names) => value.as_str().is_some_and(|name| names.contains(&name)),
                Kind::Switch => value.is_boolean(),
                Kind::Number(number) => value.as_f64().is_some_and(|x| number.contains(x)),
                Kind::Limit => value.is_null() || value.as_u64().is_some(),
            };
            assert!(fits, "{}: {value} is not a {:?}", field.name, field.kind);
        }
    }

    #[test]
    fn the_tables_names_and_defaults_are_the_cores() {
        let defaults = Params::default().fields();
        for field in &FIELDS {
            match field.kind {
                Kind::Choice(names) => assert_eq!(defaults[field.name], names[0], "{}", field.name),
                Kind::Switch => assert_eq!(defaults[field.name], false, "{}", field.name),
                Kind::Number(number) if field.name == "alpha" => {
                    assert_eq!(defaults[field.name], Value::Null);
                    assert_eq!(number.default, spec::DEFAULT_ALPHA.skipgram);
                }
                Kind::Number(number) => {
                    let x = defaults[field.name].as_f64().unwrap();
                    assert!((x - number.default).abs() <= number.default.abs() * 1e-7, "{}", field.name);
                    assert!(spec::NUMBERS.contains(&number), "{}", field.name);
                }
                Kind::Limit => assert_eq!(defaults[field.name], Value::Null),
            }
        }
        let numbers = FIELDS.iter().filter(|field| matches!(field.kind, Kind::Number(_))).count();
        assert_eq!(numbers, spec::NUMBERS.len());
        for name in spec::TOKENIZERS {
            let params = Params { tokenizer: name.into(), ..Params::default() };
            assert_eq!(params.tokenizer_spec().map(|t| t.name()), Ok(name));
        }
        for mode in spec::BPE_MODES {
            assert_eq!(BpeMode::from_name(mode).map(|m| m.name()), Ok(mode));
        }
        for field in FIELDS.iter().filter_map(|field| field.tokenizer) {
            assert!(spec::TOKENIZERS.contains(&field), "{field}");
        }
    }

    #[test]
    fn params_read_back_what_they_write_and_take_defaults_for_what_is_missing() {
        let run = RunParams {
            tokenizer: TokenizerSpec::Bpe(BpeConfig { vocab_size: 300, mode: BpeMode::Within }),
            vocab: VocabConfig { min_count: 2, max_vocab: Some(50) },
            train: TrainConfig { alpha: 0.0251, seed: 9, threads: 3, ..TrainConfig::default() },
        };
        let params = Params::from(&run);
        let text = serde_json::to_string(&params).unwrap();
        let back: Params = serde_json::from_str(&text).unwrap();
        assert_eq!(back, params);
        assert_eq!(back.run_params(), Ok(run));
        let partial: Params = serde_json::from_str(r#"{"dim": 7, "cbow": true}"#).unwrap();
        assert_eq!(partial, Params { dim: 7, cbow: true, ..Params::default() });
        assert_eq!(partial.train_config().alpha, TrainConfig::CBOW_ALPHA);
    }
}
