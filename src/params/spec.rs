//! The training parameters' table, defined once: each numeric parameter's name on the wire,
//! default and range, each model's default learning rate, the presets of the built-in
//! sample and of the King James Bible, and the parameters the page's form does not show.
//!
//! The core reads its defaults (`TrainConfig::default`, `VocabConfig::default`,
//! `BpeConfig::default`) and its checks (`TrainConfig::validate`, `VocabConfig::validate`,
//! `BpeConfig::validate`) from here; the page reads the same table from
//! `www/training/param-spec.json`, which [`super::page`] writes and a test keeps equal to it.
//!
//! Plain data, with no dependency on the rest of the crate but its [`Error`], so every room
//! can read it.

use crate::error::{Error, Result};

/// A numeric parameter: its name on the wire (the page's form, a bundle's `params`), its
/// default and the values the core takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number {
    /// The name the page's form and a bundle use (camelCase).
    pub name: &'static str,
    pub default: f64,
    /// The smallest value taken, or the bound values must be above when `above_min`.
    pub min: f64,
    pub above_min: bool,
    /// The largest value taken; `None`: no upper bound.
    pub max: Option<f64>,
    /// Whether the value is a whole number.
    pub whole: bool,
}

impl Number {
    const fn whole(name: &'static str, default: u64, min: u64, max: Option<u64>) -> Number {
        let max = match max {
            Some(max) => Some(max as f64),
            None => None,
        };
        Number { name, default: default as f64, min: min as f64, above_min: false, max, whole: true }
    }

    const fn real(name: &'static str, default: f64, min: f64, above_min: bool, max: f64) -> Number {
        Number { name, default, min, above_min, max: Some(max), whole: false }
    }

    /// Whether `value` is in range (false for NaN and infinities).
    pub fn contains(&self, value: f64) -> bool {
        let above = if self.above_min { value > self.min } else { value >= self.min };
        value.is_finite() && above && self.max.is_none_or(|max| value <= max)
    }

    /// Whether the whole number `value` is in range, compared as integers.
    pub fn contains_whole(&self, value: u64) -> bool {
        value >= self.min as u64 && self.max.is_none_or(|max| value <= max as u64)
    }

    /// Checks the whole number `value` of the field the core calls `name`; `note` follows
    /// the range in the message.
    pub fn check_whole(&self, name: &'static str, value: u64, note: &str) -> Result<()> {
        if self.contains_whole(value) { Ok(()) } else { Err(self.error(name, value.to_string(), note)) }
    }

    /// Checks `value` of the field the core calls `name`, as [`Number::check_whole`] does.
    pub fn check(&self, name: &'static str, value: f64, note: &str) -> Result<()> {
        if self.contains(value) { Ok(()) } else { Err(self.error(name, value.to_string(), note)) }
    }

    fn error(&self, name: &'static str, value: String, note: &str) -> Error {
        Error::InvalidParameter { name, value, expected: format!("{}{note}", self.expected()) }
    }

    /// The range in words, as an error message's `expected` says it: "an integer from 1 to
    /// 100", "an integer of at least 1", "a number from 0 to 1", "a number above 0 and at
    /// most 10".
    pub fn expected(&self) -> String {
        let kind = if self.whole { "an integer" } else { "a number" };
        match (self.above_min, self.max) {
            (false, Some(max)) => format!("{kind} from {} to {max}", self.min),
            (false, None) => format!("{kind} of at least {}", self.min),
            (true, Some(max)) => format!("{kind} above {} and at most {max}", self.min),
            (true, None) => format!("{kind} above {}", self.min),
        }
    }
}

/// The BPE vocabulary to learn: the text's distinct characters plus one per merge; far
/// beyond any useful BPE vocabulary at its largest.
pub const BPE_VOCAB_SIZE: Number = Number::whole("bpeVocabSize", 8_000, 1, Some(1_000_000));
/// The length of each vector.
pub const DIM: Number = Number::whole("dim", 100, 1, Some(4096));
/// The largest window radius.
pub const WINDOW: Number = Number::whole("window", 5, 1, Some(100));
/// Noise words per true pair.
pub const NEGATIVE: Number = Number::whole("negative", 5, 1, Some(100));
/// The subsampling threshold; 0 keeps every token.
pub const SAMPLE: Number = Number::real("sample", 1e-3, 0.0, false, 1.0);
/// Words seen fewer times are dropped.
pub const MIN_COUNT: Number = Number::whole("minCount", 5, 1, None);
/// Passes over the text.
pub const EPOCHS: Number = Number::whole("epochs", 5, 1, Some(1000));
/// The initial learning rate; its default is skip-gram's (see [`DEFAULT_ALPHA`]).
pub const ALPHA: Number = Number::real("alpha", 0.025, 0.0, true, 10.0);
/// The final learning rate, which the rate decays to linearly; at most `alpha` too.
pub const MIN_ALPHA: Number = Number::real("minAlpha", 0.0001, 0.0, false, 10.0);
/// The exponent applied to counts for the noise distribution.
pub const NS_EXPONENT: Number = Number::real("nsExponent", 0.75, -10.0, false, 10.0);
/// The seed of every random choice; any 64-bit value.
pub const SEED: Number = Number::whole("seed", 1, 0, None);
/// Threads that train at once.
pub const THREADS: Number = Number::whole("threads", 1, 1, Some(256));

/// Every numeric parameter, in the page's form's order (`minAlpha` and `nsExponent`, which
/// it does not show, last).
pub const NUMBERS: [Number; 12] = [
    BPE_VOCAB_SIZE,
    DIM,
    WINDOW,
    NEGATIVE,
    SAMPLE,
    MIN_COUNT,
    EPOCHS,
    ALPHA,
    SEED,
    THREADS,
    MIN_ALPHA,
    NS_EXPONENT,
];

/// The tokenizers a run may ask for by name; the first is the default.
pub const TOKENIZERS: [&str; 3] = ["word", "whitespace", "bpe"];
/// How BPE merges may span words: `cross` (the default) or `within`.
pub const BPE_MODES: [&str; 2] = ["cross", "within"];

/// What a field of [`super::Params`] holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// One of these names; the first is the default.
    Choice(&'static [&'static str]),
    /// On or off; off by default.
    Switch,
    /// A number with its range.
    Number(Number),
    /// A whole number of at least 1, or none (`null`): no limit.
    Limit,
}

impl Kind {
    /// The field's type in the page's `Params` typedef (`www/protocol.js`), as TypeScript
    /// writes it.
    pub fn typescript(&self) -> String {
        match self {
            Kind::Choice(names) => names.iter().map(|name| format!("'{name}'")).collect::<Vec<_>>().join("|"),
            Kind::Switch => "boolean".into(),
            Kind::Number(_) => "number".into(),
            Kind::Limit => "number|null".into(),
        }
    }
}

/// One field of [`super::Params`] as a person reads it: the command line's flags and help
/// and the page's typedef are made from these.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field {
    /// The field's name on the wire (camelCase), as `Params` serialises it.
    pub name: &'static str,
    pub kind: Kind,
    /// The tokenizer whose own option this is (a bundle records it only for that one);
    /// `None`: every run's.
    pub tokenizer: Option<&'static str>,
    /// What the value is called in the command line's help (`N`, `A`); empty for a
    /// switch or a choice, which shows its names.
    pub value: &'static str,
    /// What the field does, one line.
    pub help: &'static str,
}

impl Field {
    const fn new(name: &'static str, kind: Kind, value: &'static str, help: &'static str) -> Field {
        Field { name, kind, tokenizer: None, value, help }
    }

    const fn of(self, tokenizer: &'static str) -> Field {
        Field { tokenizer: Some(tokenizer), ..self }
    }

    const fn number(number: Number, value: &'static str, help: &'static str) -> Field {
        Field::new(number.name, Kind::Number(number), value, help)
    }
}

/// Every field of [`super::Params`], in its order: what each holds and does. A test in
/// `super::form` fails when `Params` and this table name different fields or kinds.
pub const FIELDS: [Field; 19] = [
    Field::new("tokenizer", Kind::Choice(&TOKENIZERS), "", "how the text is cut into tokens"),
    Field::new("lowercase", Kind::Switch, "", "word tokenizer: lowercase every word").of("word"),
    Field::new(
        "keepPunctuation",
        Kind::Switch,
        "",
        "word tokenizer: punctuation marks are tokens, not dropped",
    )
    .of("word"),
    Field::number(BPE_VOCAB_SIZE, "N", "bpe: the tokens to learn").of("bpe"),
    Field::new("bpeMode", Kind::Choice(&BPE_MODES), "", "bpe: whether merges may span words").of("bpe"),
    Field::number(DIM, "N", "the dimension of the vectors"),
    Field::number(WINDOW, "N", "the widest window radius"),
    Field::number(NEGATIVE, "N", "noise words per true pair"),
    Field::number(SAMPLE, "T", "subsampling threshold of frequent words; 0: none"),
    Field::number(MIN_COUNT, "N", "words seen fewer times are dropped"),
    Field::new("maxVocab", Kind::Limit, "N", "keep at most the N most frequent words"),
    Field::number(EPOCHS, "N", "passes over the text"),
    Field::number(ALPHA, "A", "the first learning rate"),
    Field::number(MIN_ALPHA, "A", "the last learning rate"),
    Field::number(NS_EXPONENT, "E", "the exponent of counts in the noise distribution"),
    Field::number(SEED, "N", "the seed of every random choice"),
    Field::new("cbow", Kind::Switch, "", "continuous bag of words instead of skip-gram"),
    Field::new(
        "sharedNoise",
        Kind::Switch,
        "",
        "skip-gram: one draw of noise words per window, not per pair",
    ),
    Field::number(THREADS, "N", "threads that train at once"),
];

/// The field of [`FIELDS`] called `name`.
pub fn field(name: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|field| field.name == name)
}

/// The learning rate each model starts from by default: word2vec.c's and gensim's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DefaultAlpha {
    pub skipgram: f64,
    pub cbow: f64,
}

pub const DEFAULT_ALPHA: DefaultAlpha = DefaultAlpha { skipgram: ALPHA.default, cbow: 0.05 };

/// What a text's preset puts in the form: the tokenizer and its options, the vocabulary's
/// cut and training's numbers. The person's own choices (the model, threads, shared noise)
/// are no preset's; `alpha` is skip-gram's rate (CBOW's is [`DEFAULT_ALPHA`]'s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preset {
    /// `word`, `whitespace` or `bpe`.
    pub tokenizer: &'static str,
    pub lowercase: bool,
    pub bpe_vocab_size: usize,
    /// `cross` or `within`.
    pub bpe_mode: &'static str,
    pub dim: usize,
    pub window: usize,
    pub negative: usize,
    pub sample: f64,
    pub min_count: u64,
    pub epochs: u32,
    pub alpha: f64,
    pub seed: u64,
}

/// word2vec.c's and gensim's defaults, on words.
pub const DEFAULTS: Preset = Preset {
    tokenizer: "word",
    lowercase: false,
    bpe_vocab_size: BPE_VOCAB_SIZE.default as usize,
    bpe_mode: "cross",
    dim: DIM.default as usize,
    window: WINDOW.default as usize,
    negative: NEGATIVE.default as usize,
    sample: SAMPLE.default,
    min_count: MIN_COUNT.default as u64,
    epochs: EPOCHS.default as u32,
    alpha: ALPHA.default,
    seed: SEED.default as u64,
};

/// What the built-in sample (`crate::planted::sample_corpus`) needs to answer its planted
/// analogies: wider windows and no subsampling, since its few words are all frequent. With
/// BPE, 800 tokens on the sample's 28 letters give its phrases ("the king ", " and also ").
pub const SAMPLE_PRESET: Preset = Preset {
    tokenizer: "whitespace",
    bpe_vocab_size: 800,
    dim: 50,
    window: 8,
    sample: 0.0,
    alpha: 0.05,
    ..DEFAULTS
};

/// The King James Bible (`data/kjv.txt`, one verse a line): word2vec's defaults on its
/// words as the whitespace splits them.
pub const KJV_PRESET: Preset = Preset { tokenizer: "whitespace", ..DEFAULTS };

/// The parameters the page's form does not show, at the core's defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fixed {
    /// Keep every word above `min_count`.
    pub max_vocab: Option<usize>,
    pub min_alpha: f64,
    pub ns_exponent: f64,
    /// The word tokenizer drops punctuation.
    pub keep_punctuation: bool,
}

pub const FIXED: Fixed = Fixed {
    max_vocab: None,
    min_alpha: MIN_ALPHA.default,
    ns_exponent: NS_EXPONENT.default,
    keep_punctuation: false,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_as_the_core_says_them() {
        let cases = [
            (WINDOW, "an integer from 1 to 100"),
            (MIN_COUNT, "an integer of at least 1"),
            (SAMPLE, "a number from 0 to 1"),
            (ALPHA, "a number above 0 and at most 10"),
            (NS_EXPONENT, "a number from -10 to 10"),
        ];
        for (number, expected) in cases {
            assert_eq!(number.expected(), expected, "{}", number.name);
        }
    }

    #[test]
    fn ranges_hold_their_bounds_and_refuse_what_is_past_them() {
        // (parameter, a value, whether it is in range)
        let cases = [
            (ALPHA, 0.0, false),
            (ALPHA, 1e-9, true),
            (ALPHA, 10.0, true),
            (ALPHA, 10.5, false),
            (ALPHA, f64::NAN, false),
            (ALPHA, f64::INFINITY, false),
            (SAMPLE, 0.0, true),
            (SAMPLE, 1.0, true),
            (SAMPLE, -0.1, false),
            (MIN_COUNT, 1e300, true),
        ];
        for (number, value, inside) in cases {
            assert_eq!(number.contains(value), inside, "{} = {value}", number.name);
        }
        assert!(SEED.contains_whole(u64::MAX));
        assert!(DIM.contains_whole(4096) && !DIM.contains_whole(4097) && !DIM.contains_whole(0));
    }

    #[test]
    fn every_default_is_in_its_range_and_every_preset_in_the_ranges() {
        for number in NUMBERS {
            assert!(number.contains(number.default), "{}", number.name);
            assert!(!number.whole || number.default.fract() == 0.0, "{}", number.name);
        }
        for preset in [DEFAULTS, SAMPLE_PRESET, KJV_PRESET] {
            let values = [
                (BPE_VOCAB_SIZE, preset.bpe_vocab_size as f64),
                (DIM, preset.dim as f64),
                (WINDOW, preset.window as f64),
                (NEGATIVE, preset.negative as f64),
                (SAMPLE, preset.sample),
                (MIN_COUNT, preset.min_count as f64),
                (EPOCHS, preset.epochs as f64),
                (ALPHA, preset.alpha),
                (SEED, preset.seed as f64),
            ];
            for (number, value) in values {
                assert!(number.contains(value), "{preset:?}: {} = {value}", number.name);
            }
        }
        const { assert!(DEFAULT_ALPHA.cbow >= FIXED.min_alpha && DEFAULT_ALPHA.skipgram >= FIXED.min_alpha) };
    }
}
