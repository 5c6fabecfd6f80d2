//! `train`'s run parameters on the command line: one flag for each field of
//! [`Params`] (`--min-count` sets `minCount`), with its help and default from the
//! parameters' table ([`spec::FIELDS`]), read back into a `Params` through its serde
//! derive. A field added to `Params` and its table is a flag with nothing written here.

use serde::Deserialize;
use serde::de::value::{Error as DeError, MapDeserializer};
use serde::de::{IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

use embedscope::params::spec::{self, Field, Kind};
use embedscope::params::{Params, RunParams, TokenizerSpec};

use crate::args::{Args, Opt, optional, switch, valued};

/// Flags whose names differ from their field's: `--vocab-size` sets `bpeVocabSize`.
const RENAMED: [(&str, &str); 1] = [("bpeVocabSize", "--vocab-size")];

/// The flag of `field`: its name in kebab case (`minCount`: `--min-count`), or its
/// [`RENAMED`] one.
pub(crate) fn flag(field: &Field) -> String {
    if let Some((_, flag)) = RENAMED.iter().find(|(name, _)| *name == field.name) {
        return (*flag).to_string();
    }
    let mut flag = String::from("--");
    for c in field.name.chars() {
        if c.is_ascii_uppercase() {
            flag.push('-');
        }
        flag.push(c.to_ascii_lowercase());
    }
    flag
}

/// The machine's cores: the default of `--threads`.
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(embedscope::train::MAX_THREADS)
}

/// A number's default as the help shows it: `100`, `0.025`.
fn default(number: &spec::Number) -> String {
    if number.whole { (number.default as u64).to_string() } else { number.default.to_string() }
}

/// The options of every field, in the order of `Params`. The command line differs from the
/// table in two defaults: `--threads` is the machine's cores, `--alpha` the model's rate.
pub(crate) fn options() -> Vec<Opt> {
    let option = |field: &Field| {
        let name = flag(field);
        match field.kind {
            Kind::Choice(names) => valued(name, names.join("|"), names[0], field.help),
            Kind::Switch => switch(name, field.help),
            Kind::Limit => optional(name, field.value, field.help),
            Kind::Number(n) if n == spec::THREADS => {
                let help = format!("{} (default: the machine's cores, here {})", field.help, cores());
                optional(name, field.value, &help)
            }
            Kind::Number(n) if n == spec::ALPHA => {
                let help = format!("{} ({} with --cbow)", field.help, spec::DEFAULT_ALPHA.cbow);
                valued(name, field.value, default(&n), &help)
            }
            Kind::Number(n) => valued(name, field.value, default(&n), field.help),
        }
    };
    spec::FIELDS.iter().map(option).collect()
}

/// The run the flags ask for, checked as far as it can be without the text: the tokenizer
/// and its own options, and skip-gram for shared noise. Ranges are the core's to check
/// (`TrainConfig::validate`).
pub(crate) fn read(args: &mut Args) -> Result<RunParams, String> {
    let mut given = Vec::new();
    for field in &spec::FIELDS {
        let flag = flag(field);
        let value = match field.kind {
            Kind::Switch => args.switch(&flag).then_some(Given::Switch(true)),
            _ => match args.take(&flag).flatten() {
                Some(text) => Some(parse(field, &flag, text)?),
                None if field.name == spec::THREADS.name => Some(Given::Whole(cores() as u64)),
                None => None,
            },
        };
        given.extend(value.map(|value| (field, value)));
    }
    let fields = given.iter().map(|(field, value)| (field.name, value.clone()));
    let params =
        Params::deserialize(MapDeserializer::<_, DeError>::new(fields)).map_err(|e| e.to_string())?;
    if !spec::TOKENIZERS.contains(&params.tokenizer.as_str()) {
        return Err(format!("--tokenizer '{}' is not {}", params.tokenizer, TokenizerSpec::NAMES));
    }
    // Options of another tokenizer would be silently ignored; say so instead.
    let foreign = given.iter().find_map(|(field, _)| {
        field.tokenizer.filter(|&kind| kind != params.tokenizer).map(|kind| (field, kind))
    });
    if let Some((field, kind)) = foreign {
        return Err(format!("{} only applies to --tokenizer {kind}", flag(field)));
    }
    if params.cbow && params.shared_noise {
        return Err(
            "--shared-noise only applies to skip-gram: CBOW already draws noise words once a window".into()
        );
    }
    params.run_params().map_err(|e| e.to_string())
}

/// The value `text` of `field`'s `flag`, as a value its type in `Params` takes.
fn parse(field: &Field, flag: &str, text: String) -> Result<Given, String> {
    if let Kind::Choice(_) = field.kind {
        return Ok(Given::Name(text));
    }
    let not_a_number = || format!("{flag} '{text}' is not a valid number");
    let value = match field.kind {
        Kind::Choice(_) | Kind::Switch => Given::Switch(true),
        Kind::Number(number) if !number.whole => Given::Real(text.parse().map_err(|_| not_a_number())?),
        Kind::Number(_) => Given::Whole(text.parse().map_err(|_| not_a_number())?),
        // 0: no limit.
        Kind::Limit => match text.parse().map_err(|_| not_a_number())? {
            0 => Given::Nothing,
            n => Given::Whole(n),
        },
    };
    // A whole number past its field's type (`--epochs 5000000000`, a u32) is no number of it.
    let alone = MapDeserializer::<_, DeError>::new(std::iter::once((field.name, value.clone())));
    match Params::deserialize(alone) {
        Ok(_) => Ok(value),
        Err(_) => Err(not_a_number()),
    }
}

/// A value given on the command line, as serde hands it to a field of `Params`.
#[derive(Debug, Clone)]
enum Given {
    Name(String),
    Whole(u64),
    Real(f64),
    Switch(bool),
    /// `null`: no limit.
    Nothing,
}

impl<'de> serde::Deserializer<'de> for Given {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Given::Name(name) => visitor.visit_string(name),
            Given::Whole(n) => visitor.visit_u64(n),
            Given::Real(x) => visitor.visit_f64(x),
            Given::Switch(on) => visitor.visit_bool(on),
            Given::Nothing => visitor.visit_none(),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self {
            Given::Nothing => visitor.visit_none(),
            given => visitor.visit_some(given),
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

impl IntoDeserializer<'_, DeError> for Given {
    type Deserializer = Given;

    fn into_deserializer(self) -> Given {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Command, Parsed};
    use embedscope::text::{BpeConfig, BpeMode, VocabConfig, WordTokenizer};
    use embedscope::train::TrainConfig;

    fn read_from(raw: &[&str]) -> Result<RunParams, String> {
        let command =
            Command { name: "t", synopsis: "", required: &[], options: options(), about: String::new() };
        match Args::parse(&command, raw.iter().map(|s| s.to_string()).collect())? {
            Parsed::Run(mut args) => read(&mut args),
            Parsed::Help => Err("help".into()),
        }
    }

    #[test]
    fn flags_set_their_fields_and_the_others_keep_the_cores_defaults() {
        let threads = TrainConfig { threads: cores(), ..TrainConfig::default() };
        let defaults = RunParams {
            tokenizer: TokenizerSpec::Word(WordTokenizer::default()),
            vocab: VocabConfig::default(),
            train: threads,
        };
        assert_eq!(read_from(&[]), Ok(defaults.clone()));
        let raw = [
            "--tokenizer",
            "bpe",
            "--vocab-size",
            "300",
            "--bpe-mode",
            "within",
            "--max-vocab",
            "0",
            "--min-count",
            "2",
            "--cbow",
            "--alpha",
            "0.01",
            "--threads",
            "3",
        ];
        let run = read_from(&raw).unwrap();
        assert_eq!(run.tokenizer, TokenizerSpec::Bpe(BpeConfig { vocab_size: 300, mode: BpeMode::Within }));
        assert_eq!(run.vocab, VocabConfig { min_count: 2, max_vocab: None });
        assert_eq!(run.train, TrainConfig { cbow: true, alpha: 0.01, threads: 3, ..TrainConfig::default() });
        // CBOW's own rate when none is given.
        assert_eq!(read_from(&["--cbow"]).unwrap().train.alpha, TrainConfig::CBOW_ALPHA);
        assert_eq!(read_from(&["--max-vocab", "7"]).unwrap().vocab.max_vocab, Some(7));
        assert_eq!(read_from(&["--seed", "-1"]), Err("--seed '-1' is not a valid number".into()));
    }

    #[test]
    fn flags_are_the_fields_names_in_kebab_case() {
        let flags: Vec<String> = spec::FIELDS.iter().map(flag).collect();
        let expected = [
            "--tokenizer",
            "--lowercase",
            "--keep-punctuation",
            "--vocab-size",
            "--bpe-mode",
            "--dim",
            "--window",
            "--negative",
            "--sample",
            "--min-count",
            "--max-vocab",
            "--epochs",
            "--alpha",
            "--min-alpha",
            "--ns-exponent",
            "--seed",
            "--cbow",
            "--shared-noise",
            "--threads",
        ];
        assert_eq!(flags, expected);
    }
}
