//! The command line: its usage text and `Args`, the options each command takes as it reads them.

use std::collections::VecDeque;

pub(crate) const USAGE: &str = "\
usage:
  embedscope train CORPUS --out VECTORS [--format text|binary|glove|tsv|bundle]
                   [--tokenizer word|whitespace|bpe] [--lowercase] [--keep-punctuation]
                   [--vocab-size 8000] [--bpe-mode cross|within]
                   [--dim 100] [--window 5] [--negative 5] [--sample 1e-3]
                   [--min-count 5] [--max-vocab N] [--epochs 5] [--alpha 0.025]
                   [--min-alpha 0.0001] [--ns-exponent 0.75] [--seed 1] [--cbow]
                   [--threads N] [--quiet]
  embedscope neighbours VECTORS WORD [-k 10] [--restrict N] [--metadata FILE]
  embedscope analogy VECTORS A B C [-k 10] [--cosmul] [--restrict N] [--metadata FILE]
  embedscope eval VECTORS [--analogies FILE] [--similarity FILE] [--restrict N]
                  [--ignore-case] [--gensim] [-k/--worst N] [--json] [--metadata FILE]
  embedscope project VECTORS --out FILE [--method tsne|umap|pca] [--words 5000] [--seed 1]
                     [--perplexity 30] [--learning-rate auto] [--iterations 750] [--exaggeration 12]
                     [--neighbors 15] [--min-dist 0.1] [--epochs N] [--quiet] [--metadata FILE]

VECTORS files may be word2vec text or binary, GloVe, a Projector vectors.tsv, or an
embedscope bundle (.json, saved by the explorer); the
format is told from the file's first bytes, else from its name (.bin binary, .tsv
vectors.tsv) or its first line. A vectors.tsv takes its words from
--metadata FILE, by default from the metadata.tsv next to it (x-vectors.tsv: x-metadata.tsv);
without one its words are the row numbers 1, 2, ...
train writes word2vec text, or with --format (by default from the name: .bin binary,
.tsv a vectors.tsv plus its metadata.tsv, .json a bundle) binary, GloVe, Projector TSV or an
embedscope bundle, which also holds the counts, parameters, losses and fingerprint and opens
in the explorer as it was.
Tokens holding whitespace are stored escaped (\\s for a space, \\n for a newline);
give WORD escaped the same way, e.g. 'Jesus\\s' or 'from\\sthe\\sdead'.

train learns skip-gram vectors, or with --cbow continuous bag of words (the mean of a
window predicts its centre; --alpha then defaults to 0.05, as in word2vec.c). --threads N
trains on N threads at once (default: this machine's cores), lock-free as word2vec.c and
gensim do; only --threads 1 gives bit-identical vectors for the same text, parameters and
seed, and the output says which a run was.

--tokenizer bpe learns byte-pair merges from CORPUS up to --vocab-size tokens; with
--bpe-mode cross (default) tokens may span words within a line, with within they stay
inside a word and the whitespace after it.

eval scores VECTORS on benchmarks (give one or both): --analogies FILE in the
questions-words.txt format (': section' lines, then 'a b c d' per line), answered by 3CosAdd
and 3CosMul; --similarity FILE of 'word1 word2 score' lines (WordSim-353, SimLex-999; a
header line names the score column), scored by Spearman's and Pearson's correlation. In
both, lines starting with '#' are comments, as in gensim's copies of these benchmarks.
Only the --restrict N most frequent words count (default: 30000 for analogies, as word2vec's
compute-accuracy, and the whole vocabulary for similarity; 0 means the whole vocabulary);
--ignore-case matches words case-insensitively. Questions and pairs with a word outside
them are left out, and counted in the coverage and the OOV ratio. --gensim takes the
defaults of gensim's evaluate_word_analogies and evaluate_word_pairs instead: ignoring case,
the 300000 most frequent words for both (an explicit --restrict still applies).
-k/--worst N lists the N worst-answered questions (default 20) and pairs (default 10).

project maps the --words N most frequent words (default 5000, or all when fewer) to the
plane and writes one row per word with its two coordinates: CSV (word,x,y with a header,
RFC 4180 quoting), or for a .tsv name the Projector's pair (FILE the coordinates, its
metadata.tsv the words). --method tsne (default) is Barnes-Hut t-SNE as openTSNE runs it:
--perplexity, --learning-rate auto or a number (scikit-learn's scale, a quarter of
openTSNE's), --iterations, --exaggeration for the first 250. --method umap takes
--neighbors, --min-dist, --epochs (by default 500 up to 10000 words, else 200) and
--learning-rate (default 1). --method pca plots the first two principal components. t-SNE
and UMAP use cosine distance and write the same file for the same --seed.";

/// Positional arguments and `--flag value` options, consumed as the command reads them,
/// so anything left over is reported as unknown.
pub(crate) struct Args {
    positional: VecDeque<String>,
    options: Vec<(String, Option<String>)>,
}

/// Options that take no value.
pub(crate) const SWITCHES: &[&str] = &[
    "--lowercase",
    "--keep-punctuation",
    "--quiet",
    "--cosmul",
    "--ignore-case",
    "--gensim",
    "--json",
    "--cbow",
];

/// Options that take a value; each command reads the ones it knows.
pub(crate) const VALUED: &[&str] = &[
    "--out",
    "--format",
    "--tokenizer",
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
    "--threads",
    "-k",
    "--restrict",
    "--metadata",
    "--analogies",
    "--similarity",
    "--worst",
    "--method",
    "--words",
    "--perplexity",
    "--learning-rate",
    "--iterations",
    "--exaggeration",
    "--neighbors",
    "--min-dist",
];

impl Args {
    pub(crate) fn parse(mut raw: VecDeque<String>) -> Result<Args, String> {
        let mut args = Args { positional: VecDeque::new(), options: Vec::new() };
        while let Some(arg) = raw.pop_front() {
            if arg.starts_with('-') && arg.len() > 1 && arg.parse::<f64>().is_err() {
                let (name, inline) = match arg.split_once('=') {
                    Some((name, value)) => (name.to_string(), Some(value.to_string())),
                    None => (arg, None),
                };
                let value = if SWITCHES.contains(&name.as_str()) {
                    inline
                } else if VALUED.contains(&name.as_str()) {
                    Some(inline.or_else(|| raw.pop_front()).ok_or_else(|| format!("{name} needs a value"))?)
                } else {
                    return Err(format!("unknown option {name}; try 'embedscope help'"));
                };
                args.options.push((name, value));
            } else {
                args.positional.push_back(arg);
            }
        }
        Ok(args)
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

    /// Fails on anything no command asked for.
    pub(crate) fn finish(self) -> Result<(), String> {
        if let Some(extra) = self.positional.front() {
            return Err(format!("unexpected argument '{extra}'"));
        }
        if let Some((name, _)) = self.options.first() {
            return Err(format!("unknown option {name}; try 'embedscope help'"));
        }
        Ok(())
    }
}
