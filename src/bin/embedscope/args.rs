//! The command line: each command's options as one table ([`Command`]), from which both the
//! parser and the help are made, and [`Args`], the parsed options a command reads by name.
//!
//! `lexopt` splits the arguments (`--name value`, `--name=value`, `-k5`, `--` before
//! positional arguments that start with `-`); the table says which options take a value, so an
//! option a command does not know is refused by name, and `COMMAND --help` lists exactly what
//! the command reads. Defaults in the help are formatted from the core's `Default`s
//! (`TsneParams::default()` and the like) or the parameters' table (`train`'s, through
//! `run_params`), never typed a second time. lexopt rather than
//! clap's derive: the commands keep their own one-line messages (`-k needs a value`, `--dim 'x'
//! is not a valid number`), which the tests and scripts rely on, and read options that depend
//! on each other (`--cbow` changes `--alpha`'s default) in order.

use std::collections::VecDeque;
use std::fmt::Write as _;

/// One option of a command.
pub(crate) struct Opt {
    /// As typed: `--dim`, or `-k`.
    pub(crate) name: String,
    /// What its value is (`N`, `FILE`, `word|whitespace|bpe`); `None` for a switch.
    pub(crate) value: Option<String>,
    /// The default, when there is one to show.
    pub(crate) default: Option<String>,
    /// What it does, one line.
    pub(crate) help: String,
}

/// An option that takes a value, with its default.
pub(crate) fn valued(
    name: impl Into<String>,
    value: impl Into<String>,
    default: impl ToString,
    help: &str,
) -> Opt {
    Opt {
        name: name.into(),
        value: Some(value.into()),
        default: Some(default.to_string()),
        help: help.into(),
    }
}

/// An option that takes a value and has no default.
pub(crate) fn optional(name: impl Into<String>, value: impl Into<String>, help: &str) -> Opt {
    Opt { name: name.into(), value: Some(value.into()), default: None, help: help.into() }
}

/// An option that takes no value.
pub(crate) fn switch(name: impl Into<String>, help: &str) -> Opt {
    Opt { name: name.into(), value: None, default: None, help: help.into() }
}

/// A command: its name, its positional arguments, its options, and what it does.
pub(crate) struct Command {
    pub(crate) name: &'static str,
    /// The synopsis before the options, e.g. `CORPUS --out VECTORS`.
    pub(crate) synopsis: &'static str,
    /// Options the synopsis already shows (`--out`), left out of its bracketed list.
    pub(crate) required: &'static [&'static str],
    pub(crate) options: Vec<Opt>,
    /// Paragraphs on what the command does, for its help.
    pub(crate) about: String,
}

/// Lines of the synopsis are wrapped before this many characters.
const WIDTH: usize = 92;

impl Command {
    fn find(&self, name: &str) -> Option<&Opt> {
        self.options.iter().find(|o| o.name == name)
    }

    /// `embedscope train CORPUS --out VECTORS [--dim 100] …`, wrapped and indented.
    pub(crate) fn synopsis(&self) -> String {
        let head = format!("  embedscope {} {}", self.name, self.synopsis);
        let indent = " ".repeat(self.name.len() + 14);
        let mut out = head.clone();
        let mut line_len = head.len();
        for opt in self.options.iter().filter(|o| !self.required.contains(&o.name.as_str())) {
            // Choices show as choices; otherwise the default, or what the value is.
            let shown = match (opt.value.as_deref(), &opt.default) {
                (None, _) => String::new(),
                (Some(v), _) if v.contains('|') => format!(" {v}"),
                (Some(_), Some(d)) => format!(" {d}"),
                (Some(v), None) => format!(" {v}"),
            };
            let item = format!("[{}{shown}]", opt.name);
            if line_len + 1 + item.len() > WIDTH {
                let _ = write!(out, "\n{indent}{item}");
                line_len = indent.len() + item.len();
            } else {
                let _ = write!(out, " {item}");
                line_len += 1 + item.len();
            }
        }
        out
    }

    /// The help `embedscope COMMAND --help` prints: synopsis, every option, then `about`.
    pub(crate) fn help(&self) -> String {
        let mut out = format!("usage:\n{}\n\noptions:\n", self.synopsis());
        let width = self.options.iter().map(|o| label(o).len()).max().unwrap_or(0);
        let default_width = self.options.iter().filter_map(|o| o.default.as_ref()).map(String::len).max();
        let default_width = default_width.unwrap_or(0);
        // The defaults' column, when there is one.
        let column = |default: &str| match default_width {
            0 => String::new(),
            w => format!("{default:w$}  "),
        };
        for opt in &self.options {
            let default = column(opt.default.as_deref().unwrap_or(""));
            let _ = writeln!(out, "  {:width$}  {default}{}", label(opt), opt.help);
        }
        let _ = write!(out, "  {:width$}  {}this help\n\n{}", "-h, --help", column(""), self.about);
        out
    }
}

fn label(opt: &Opt) -> String {
    match &opt.value {
        Some(v) => format!("{} {v}", opt.name),
        None => opt.name.clone(),
    }
}

/// What the command line asked of a command.
pub(crate) enum Parsed {
    /// `--help` or `-h`: print the command's help.
    Help,
    Run(Args),
}

/// Positional arguments and the options given, consumed as the command reads them.
pub(crate) struct Args {
    positional: VecDeque<String>,
    options: Vec<(String, Option<String>)>,
}

impl Args {
    /// Splits `raw` (the arguments after the command's name) by `command`'s table.
    pub(crate) fn parse(command: &Command, raw: Vec<String>) -> Result<Parsed, String> {
        use lexopt::Arg::{Long, Short, Value};
        let try_help = format!("try 'embedscope {} --help'", command.name);
        let mut args = Args { positional: VecDeque::new(), options: Vec::new() };
        let mut parser = lexopt::Parser::from_args(raw);
        while let Some(arg) = parser.next().map_err(|e| message(e, &try_help))? {
            let name = match arg {
                Long("help") | Short('h') => return Ok(Parsed::Help),
                Long(name) => format!("--{name}"),
                Short(c) => format!("-{c}"),
                Value(value) => {
                    args.positional.push_back(utf8(value)?);
                    continue;
                }
            };
            let opt = command.find(&name).ok_or_else(|| format!("unknown option {name}; {try_help}"))?;
            let value = match &opt.value {
                Some(_) => Some(utf8(parser.value().map_err(|e| message(e, &try_help))?)?),
                None => None,
            };
            args.options.push((name, value));
        }
        Ok(Parsed::Run(args))
    }

    pub(crate) fn positional(&mut self, what: &str) -> Result<String, String> {
        self.positional.pop_front().ok_or_else(|| format!("missing {what}; try 'embedscope help'"))
    }

    /// Removes every occurrence of option `name`; the last one given wins.
    pub(crate) fn take(&mut self, name: &str) -> Option<Option<String>> {
        let mut found = None;
        self.options.retain(|(n, value)| {
            let matches = n == name;
            if matches {
                found = Some(value.clone());
            }
            !matches
        });
        found
    }

    pub(crate) fn switch(&mut self, name: &str) -> bool {
        self.take(name).is_some()
    }

    pub(crate) fn value<T: std::str::FromStr>(&mut self, name: &str, default: T) -> Result<T, String> {
        Ok(self.optional(name)?.unwrap_or(default))
    }

    /// The value of option `name` when it is given.
    pub(crate) fn optional<T: std::str::FromStr>(&mut self, name: &str) -> Result<Option<T>, String> {
        match self.take(name).flatten() {
            None => Ok(None),
            Some(text) => {
                text.parse().map(Some).map_err(|_| format!("{name} '{text}' is not a valid number"))
            }
        }
    }

    pub(crate) fn text(&mut self, name: &str, default: &str) -> String {
        self.take(name).flatten().unwrap_or_else(|| default.to_string())
    }

    /// Fails on a positional argument the command did not ask for. An option left unread
    /// is a command that forgot to read an option of its own table: a bug, named as such.
    pub(crate) fn finish(self) -> Result<(), String> {
        if let Some(extra) = self.positional.front() {
            return Err(format!("unexpected argument '{extra}'"));
        }
        if let Some((name, _)) = self.options.first() {
            return Err(format!("internal error: option {name} was accepted but not read"));
        }
        Ok(())
    }
}

fn utf8(value: std::ffi::OsString) -> Result<String, String> {
    value.into_string().map_err(|v| format!("the argument {v:?} is not valid UTF-8"))
}

/// lexopt's errors in the words of the rest of the command line.
fn message(error: lexopt::Error, try_help: &str) -> String {
    match error {
        lexopt::Error::MissingValue { option: Some(option) } => format!("{option} needs a value"),
        lexopt::Error::UnexpectedValue { option, .. } => format!("{option} takes no value"),
        other => format!("{other}; {try_help}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command() -> Command {
        Command {
            name: "demo",
            synopsis: "FILE --out OUT",
            required: &["--out"],
            options: vec![
                optional("--out", "OUT", "where to write"),
                valued("--dim", "N", 100, "the dimension"),
                valued("--mode", "a|b", "a", "the mode"),
                optional("-k", "N", "how many"),
                switch("--quiet", "say less"),
            ],
            about: "Demo.".into(),
        }
    }

    fn parse(raw: &[&str]) -> Result<Args, String> {
        match Args::parse(&command(), raw.iter().map(|s| s.to_string()).collect())? {
            Parsed::Run(args) => Ok(args),
            Parsed::Help => Err("help".into()),
        }
    }

    #[test]
    fn values_inline_or_next_switches_and_positionals() {
        let mut args =
            parse(&["in.txt", "--dim=3", "-k5", "--out", "o", "--quiet", "--", "--weird"]).unwrap();
        assert_eq!(args.value("--dim", 0usize), Ok(3));
        assert_eq!(args.value("-k", 0usize), Ok(5));
        assert_eq!(args.text("--out", ""), "o");
        assert!(args.switch("--quiet"));
        assert_eq!(args.positional("FILE").as_deref(), Ok("in.txt"));
        assert_eq!(args.positional("X").as_deref(), Ok("--weird"));
        assert!(args.finish().is_ok());
        // A value may start with '-'.
        assert_eq!(parse(&["--dim", "-1"]).unwrap().text("--dim", ""), "-1");
    }

    #[test]
    fn faults_are_named() {
        let err = |raw: &[&str]| parse(raw).err().unwrap();
        assert_eq!(err(&["--colour"]), "unknown option --colour; try 'embedscope demo --help'");
        assert_eq!(err(&["-k"]), "-k needs a value");
        assert_eq!(err(&["--quiet=yes"]), "--quiet takes no value");
        assert_eq!(err(&["--help"]), "help");
        assert_eq!(err(&["x", "-h"]), "help");
        let mut extra = parse(&["a", "b"]).unwrap();
        extra.positional("FILE").unwrap();
        assert_eq!(extra.finish(), Err("unexpected argument 'b'".into()));
        assert_eq!(
            parse(&["--dim", "x"]).unwrap().value("--dim", 0usize),
            Err("--dim 'x' is not a valid number".into())
        );
    }

    #[test]
    fn help_shows_defaults_choices_and_every_option() {
        let c = command();
        assert_eq!(
            c.synopsis(),
            "  embedscope demo FILE --out OUT [--dim 100] [--mode a|b] [-k N] [--quiet]"
        );
        let help = c.help();
        assert!(help.contains("\n  --dim N     100  the dimension\n"), "{help}");
        assert!(help.contains("\n  --quiet          say less\n"), "{help}");
        assert!(help.ends_with("this help\n\nDemo."), "{help}");
    }
}
