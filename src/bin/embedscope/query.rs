//! `embedscope neighbours` and `embedscope analogy`.

use embedscope::vectors::{AnalogyMethod, Neighbour};
use embedscope::{UnknownWord, io};

use crate::args::{Args, Command, Opt, switch, valued};
use crate::vectors::*;

/// The neighbours a query lists when `-k` is not given.
const DEFAULT_K: usize = 10;

/// The options both queries take.
fn query_options() -> Vec<Opt> {
    let mut options = vec![
        valued("-k", "N", DEFAULT_K, "how many words to list"),
        valued("--restrict", "N", 0, "only the N most frequent words are candidates; 0: all"),
    ];
    options.extend(Sources::options());
    options
}

/// `neighbours`' options.
pub(crate) fn neighbours_command() -> Command {
    Command {
        name: "neighbours",
        synopsis: "VECTORS WORD",
        required: &[],
        options: query_options(),
        about: "neighbours lists the words nearest to WORD by cosine similarity, most similar first.".into(),
    }
}

/// `vector`'s options.
pub(crate) fn vector_command() -> Command {
    Command {
        name: "vector",
        synopsis: "VECTORS WORD",
        required: &[],
        options: Sources::options(),
        about: "vector prints WORD's vector, its values separated by spaces (a fastText model's word it
lacks: the vector its character n-grams build)."
            .into(),
    }
}

pub(crate) fn vector(mut args: Args) -> Result<(), String> {
    let path = args.positional("VECTORS")?;
    let word = io::unescape_token(&args.positional("WORD")?).map_err(|e| e.to_string())?;
    let sources = Sources::take(&mut args);
    args.finish()?;
    let embeddings = load_vectors(&path, &sources)?;
    note_built(&embeddings, &[&word]);
    let values = match embeddings.index_of(&word) {
        Some(idx) => embeddings.vector(idx).into_owned(),
        None => embeddings
            .built_vector(&word)
            .ok_or_else(|| query_error(embedscope::Error::UnknownWords(vec![embeddings.unknown(&word)])))?,
    };
    let shown: Vec<String> = values.iter().map(f32::to_string).collect();
    println!("{}", shown.join(" "));
    Ok(())
}

/// `analogy`'s options.
pub(crate) fn analogy_command() -> Command {
    let mut options = query_options();
    options.insert(1, switch("--cosmul", "3CosMul (Levy and Goldberg 2014) instead of 3CosAdd"));
    Command {
        name: "analogy",
        synopsis: "VECTORS A B C",
        required: &[],
        options,
        about: "analogy answers A is to B as C is to ?: the words nearest to B - A + C (3CosAdd), or
with --cosmul the words x that maximise cos(x, B) cos(x, C) / cos(x, A) (3CosMul); A, B and C
are never answers."
            .into(),
    }
}

/// Says on stderr which of `words` the vocabulary lacks and are queried by the vector their
/// character n-grams build (a fastText model's).
pub(crate) fn note_built(embeddings: &embedscope::Embeddings, words: &[&str]) {
    for word in words {
        if embeddings.built_from_ngrams(word) {
            eprintln!(
                "note: '{}' is not in the vocabulary: its vector is built from n-grams",
                io::escape_token(word)
            );
        }
    }
}

pub(crate) fn print_neighbours(list: &[Neighbour]) {
    for n in list {
        println!("{:.4}\t{}", n.similarity, io::escape_token(&n.word));
    }
}

/// A query's error as one line: unknown words and their suggested spellings are named
/// escaped, as the user would type them.
pub(crate) fn query_error(err: embedscope::Error) -> String {
    let escape = |word: &str| io::escape_token(word).into_owned();
    match err {
        embedscope::Error::UnknownWords(words) => embedscope::Error::UnknownWords(
            (words.iter())
                .map(|w| UnknownWord {
                    word: escape(&w.word),
                    suggestions: w.suggestions.iter().map(|s| escape(s)).collect(),
                })
                .collect(),
        )
        .to_string(),
        other => other.to_string(),
    }
}

pub(crate) fn neighbours(mut args: Args) -> Result<(), String> {
    let path = args.positional("VECTORS")?;
    let word = args.positional("WORD")?;
    let k = args.value("-k", DEFAULT_K)?;
    let restrict: usize = args.value("--restrict", 0)?;
    let sources = Sources::take(&mut args);
    args.finish()?;
    let embeddings = load_vectors(&path, &sources)?;
    let word = io::unescape_token(&word).map_err(|e| e.to_string())?;
    note_built(&embeddings, &[&word]);
    let list = embeddings.neighbours(&word, k, (restrict > 0).then_some(restrict)).map_err(query_error)?;
    print_neighbours(&list);
    Ok(())
}

pub(crate) fn analogy(mut args: Args) -> Result<(), String> {
    let path = args.positional("VECTORS")?;
    let mut words = Vec::new();
    for what in ["A", "B", "C"] {
        words.push(io::unescape_token(&args.positional(what)?).map_err(|e| e.to_string())?);
    }
    let k = args.value("-k", DEFAULT_K)?;
    let method = if args.switch("--cosmul") { AnalogyMethod::CosMul } else { AnalogyMethod::CosAdd };
    let restrict: usize = args.value("--restrict", 0)?;
    let sources = Sources::take(&mut args);
    args.finish()?;
    let embeddings = load_vectors(&path, &sources)?;
    note_built(&embeddings, &words.iter().map(String::as_str).collect::<Vec<_>>());
    let list = embeddings
        .analogy(&words[0], &words[1], &words[2], k, method, (restrict > 0).then_some(restrict))
        .map_err(query_error)?;
    print_neighbours(&list);
    Ok(())
}
