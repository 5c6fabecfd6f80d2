//! How a run was asked for, defined once for the command line and the page: the tokenizer
//! chosen by name ([`TokenizerSpec`]) and the parameters under the names the page's form and
//! bundles use ([`RunParams::to_json`]), so a bundle trained by either opens in the explorer
//! with its form filled in.
//!
//! - [`spec`]: the table of the numeric parameters (name, default, range), the presets and
//!   the fixed parameters, which the core's defaults and checks read.
//! - [`Params`]: the parameters as one flat list of fields under the page's names, as the
//!   page's form sends them.
//! - [`page`]: that table as the page's `www/training/param-spec.json`.

mod form;
pub mod page;
pub mod spec;

pub use form::Params;

use crate::error::{Error, Result};
use crate::io::json::Value;
use crate::text::{BpeConfig, BpeMode, Tokenizer, VocabConfig, WhitespaceTokenizer, WordTokenizer};
use crate::train::TrainConfig;

/// The tokenizer a run asked for, by one of [`TokenizerSpec::NAMES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenizerSpec {
    /// `word`: words, with its own options.
    Word(WordTokenizer),
    /// `whitespace`: runs of non-whitespace.
    Whitespace,
    /// `bpe`: byte-pair merges learned from the text first.
    Bpe(BpeConfig),
}

impl TokenizerSpec {
    /// The names, as a message lists them.
    pub const NAMES: &'static str = "word, whitespace or bpe";

    /// The tokenizer called `name`, taking the options of its kind from `word` or `bpe`
    /// (the others are the caller's to refuse or ignore). Fails only on an unknown name;
    /// [`TokenizerSpec::validate`] checks the options.
    pub fn from_name(name: &str, word: WordTokenizer, bpe: BpeConfig) -> Result<TokenizerSpec> {
        match name {
            "word" => Ok(TokenizerSpec::Word(word)),
            "whitespace" => Ok(TokenizerSpec::Whitespace),
            "bpe" => Ok(TokenizerSpec::Bpe(bpe)),
            other => Err(Error::InvalidParameter {
                name: "tokenizer",
                value: other.to_string(),
                expected: Self::NAMES.into(),
            }),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            TokenizerSpec::Word(_) => "word",
            TokenizerSpec::Whitespace => "whitespace",
            TokenizerSpec::Bpe(_) => "bpe",
        }
    }

    pub fn validate(&self) -> Result<()> {
        match self {
            TokenizerSpec::Bpe(config) => config.validate(),
            _ => Ok(()),
        }
    }

    /// The tokenizer, when it needs nothing learned first; `None` for BPE, whose merges are
    /// learned from the text (`BpeLearner`).
    pub fn ready(&self) -> Option<Box<dyn Tokenizer>> {
        match *self {
            TokenizerSpec::Word(word) => Some(Box::new(word)),
            TokenizerSpec::Whitespace => Some(Box::new(WhitespaceTokenizer)),
            TokenizerSpec::Bpe(_) => None,
        }
    }
}

/// Everything a run was trained with.
#[derive(Debug, Clone, PartialEq)]
pub struct RunParams {
    pub tokenizer: TokenizerSpec,
    pub vocab: VocabConfig,
    pub train: TrainConfig,
}

impl RunParams {
    /// The parameters under the page's names, as a bundle's `params` holds them: the
    /// fields of [`Params`] in its order, but only the chosen tokenizer's own options.
    pub fn to_json(&self) -> Value {
        let mut fields = Params::from(self).fields();
        let chosen = self.tokenizer.name();
        fields.retain(|name, _| {
            spec::field(name).and_then(|field| field.tokenizer).is_none_or(|t| t == chosen)
        });
        Value::Object(fields)
    }
}

impl spec::Preset {
    /// The preset's tokenizer, with its own options (the word tokenizer's punctuation as
    /// [`spec::FIXED`] has it).
    pub fn tokenizer(&self) -> Result<TokenizerSpec> {
        let word =
            WordTokenizer { lowercase: self.lowercase, keep_punctuation: spec::FIXED.keep_punctuation };
        let bpe = BpeConfig { vocab_size: self.bpe_vocab_size, mode: BpeMode::from_name(self.bpe_mode)? };
        TokenizerSpec::from_name(self.tokenizer, word, bpe)
    }

    /// The vocabulary's cut under this preset.
    pub fn vocab_config(&self) -> VocabConfig {
        VocabConfig { min_count: self.min_count, max_vocab: spec::FIXED.max_vocab }
    }

    /// Skip-gram on one thread under this preset, the other parameters at their defaults.
    pub fn train_config(&self) -> TrainConfig {
        TrainConfig {
            dim: self.dim,
            window: self.window,
            negative: self.negative,
            sample: self.sample,
            alpha: self.alpha as f32,
            epochs: self.epochs,
            seed: self.seed,
            ..TrainConfig::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::json;

    #[test]
    fn the_tables_defaults_are_the_cores_defaults_and_every_preset_is_valid() {
        let defaults = spec::DEFAULTS;
        assert_eq!(defaults.train_config(), TrainConfig::default());
        assert_eq!(defaults.vocab_config(), VocabConfig::default());
        assert_eq!(defaults.tokenizer(), Ok(TokenizerSpec::Word(WordTokenizer::default())));
        let bpe = spec::Preset { tokenizer: "bpe", ..defaults };
        assert_eq!(bpe.tokenizer(), Ok(TokenizerSpec::Bpe(BpeConfig::default())));
        assert_eq!(TrainConfig::default_alpha(true), spec::DEFAULT_ALPHA.cbow as f32);
        for preset in [spec::DEFAULTS, spec::SAMPLE_PRESET, spec::KJV_PRESET] {
            for tokenizer in ["word", "whitespace", "bpe"] {
                let preset = spec::Preset { tokenizer, ..preset };
                assert_eq!(preset.tokenizer().and_then(|t| t.validate()), Ok(()), "{preset:?}");
            }
            assert_eq!(preset.vocab_config().validate(), Ok(()), "{preset:?}");
            assert_eq!(preset.train_config().validate(), Ok(()), "{preset:?}");
            assert_eq!(TrainConfig { cbow: true, ..preset.train_config() }.validate(), Ok(()));
        }
    }

    #[test]
    fn names_choose_the_tokenizer_and_its_own_options() {
        let word = WordTokenizer { lowercase: true, keep_punctuation: false };
        let bpe = BpeConfig { vocab_size: 300, mode: BpeMode::Within };
        for name in ["word", "whitespace", "bpe"] {
            assert_eq!(TokenizerSpec::from_name(name, word, bpe).unwrap().name(), name);
        }
        assert_eq!(TokenizerSpec::from_name("bpe", word, bpe).unwrap(), TokenizerSpec::Bpe(bpe));
        assert!(TokenizerSpec::from_name("bpe", word, bpe).unwrap().ready().is_none());
        let ready = TokenizerSpec::from_name("word", word, bpe).unwrap().ready().unwrap();
        assert_eq!(ready.describe(), word.describe());
        let err = TokenizerSpec::from_name("chars", word, bpe).unwrap_err().to_string();
        assert!(err.contains("chars") && err.contains("word, whitespace or bpe"), "{err}");
        let bad = TokenizerSpec::Bpe(BpeConfig { vocab_size: 0, mode: BpeMode::Cross });
        assert!(bad.validate().is_err());
    }

    /// The JSON a bundle holds, to the digit and in its order: bundles re-open exactly.
    #[test]
    fn params_json_known_answers() {
        let varied = RunParams {
            tokenizer: TokenizerSpec::Bpe(BpeConfig { vocab_size: 800, mode: BpeMode::Within }),
            vocab: VocabConfig { min_count: 3, max_vocab: Some(1000) },
            train: TrainConfig {
                dim: 16,
                sample: 1e-5,
                alpha: 0.0251,
                min_alpha: 1e-5,
                ns_exponent: -0.5,
                seed: u64::MAX,
                threads: 4,
                cbow: true,
                ..TrainConfig::default()
            },
        };
        let defaults = RunParams {
            tokenizer: TokenizerSpec::Word(WordTokenizer::default()),
            vocab: VocabConfig::default(),
            train: TrainConfig { shared_noise: true, ..TrainConfig::default() },
        };
        let whitespace = RunParams { tokenizer: TokenizerSpec::Whitespace, ..defaults.clone() };
        let cases = [
            (
                varied,
                r#"{"tokenizer":"bpe","bpeVocabSize":800,"bpeMode":"within","dim":16,"window":5,"negative":5,"sample":0.00001,"minCount":3,"maxVocab":1000,"epochs":5,"alpha":0.0251,"minAlpha":0.00001,"nsExponent":-0.5,"seed":18446744073709551615,"cbow":true,"sharedNoise":false,"threads":4}"#,
            ),
            (
                defaults,
                r#"{"tokenizer":"word","lowercase":false,"keepPunctuation":false,"dim":100,"window":5,"negative":5,"sample":0.001,"minCount":5,"maxVocab":null,"epochs":5,"alpha":0.025,"minAlpha":0.0001,"nsExponent":0.75,"seed":1,"cbow":false,"sharedNoise":true,"threads":1}"#,
            ),
            (
                whitespace,
                r#"{"tokenizer":"whitespace","dim":100,"window":5,"negative":5,"sample":0.001,"minCount":5,"maxVocab":null,"epochs":5,"alpha":0.025,"minAlpha":0.0001,"nsExponent":0.75,"seed":1,"cbow":false,"sharedNoise":true,"threads":1}"#,
            ),
        ];
        for (params, expected) in cases {
            assert_eq!(json::to_json(&params.to_json()), expected);
        }
    }

    #[test]
    fn params_carry_the_page_names_and_only_the_tokenizers_own_settings() {
        let params = |tokenizer| RunParams {
            tokenizer,
            vocab: VocabConfig { min_count: 3, max_vocab: None },
            train: TrainConfig { dim: 7, ..TrainConfig::default() },
        };
        let keys = |value: Value| -> Vec<String> {
            value.as_object().unwrap().iter().map(|(k, _)| k.clone()).collect()
        };
        let word = params(TokenizerSpec::Word(WordTokenizer::default())).to_json();
        assert_eq!(word.get("dim").and_then(Value::as_number).map(|n| n.as_u64()), Some(Some(7)));
        assert_eq!(word.get("maxVocab"), Some(&Value::Null));
        assert_eq!(
            keys(word),
            [
                "tokenizer",
                "lowercase",
                "keepPunctuation",
                "dim",
                "window",
                "negative",
                "sample",
                "minCount",
                "maxVocab",
                "epochs",
                "alpha",
                "minAlpha",
                "nsExponent",
                "seed",
                "cbow",
                "sharedNoise",
                "threads"
            ]
        );
        let bpe = keys(params(TokenizerSpec::Bpe(BpeConfig::default())).to_json());
        assert_eq!(bpe[..3], ["tokenizer", "bpeVocabSize", "bpeMode"]);
        assert_eq!(keys(params(TokenizerSpec::Whitespace).to_json())[..2], ["tokenizer", "dim"]);
    }
}
