//! `embedscope neighbours` and `embedscope analogy`.

use embedscope::embed::{self, AnalogyMethod, Neighbour};

use crate::args::Args;
use crate::vectors::*;

pub(crate) fn print_neighbours(list: &[Neighbour]) {
    for n in list {
        println!("{:.4}\t{}", n.similarity, embed::escape_token(&n.word));
    }
}

/// A query's error as one line: unknown words are named escaped, as the user typed them.
pub(crate) fn query_error(err: embedscope::Error) -> String {
    match err {
        embedscope::Error::UnknownWords(words) => embedscope::Error::UnknownWords(
            words.iter().map(|w| embed::escape_token(w).into_owned()).collect(),
        )
        .to_string(),
        other => other.to_string(),
    }
}

pub(crate) fn neighbours(mut args: Args) -> Result<(), String> {
    let path = args.positional("VECTORS")?;
    let word = args.positional("WORD")?;
    let k = args.value("-k", 10usize)?;
    let restrict: usize = args.value("--restrict", 0)?;
    let metadata = args.take("--metadata").flatten();
    args.finish()?;
    let embeddings = load_vectors(&path, metadata.as_deref())?;
    let word = embed::unescape_token(&word).map_err(|e| e.to_string())?;
    let list = embeddings.neighbours(&word, k, (restrict > 0).then_some(restrict)).map_err(query_error)?;
    print_neighbours(&list);
    Ok(())
}

pub(crate) fn analogy(mut args: Args) -> Result<(), String> {
    let path = args.positional("VECTORS")?;
    let mut words = Vec::new();
    for what in ["A", "B", "C"] {
        words.push(embed::unescape_token(&args.positional(what)?).map_err(|e| e.to_string())?);
    }
    let k = args.value("-k", 10usize)?;
    let method = if args.switch("--cosmul") { AnalogyMethod::CosMul } else { AnalogyMethod::CosAdd };
    let restrict: usize = args.value("--restrict", 0)?;
    let metadata = args.take("--metadata").flatten();
    args.finish()?;
    let embeddings = load_vectors(&path, metadata.as_deref())?;
    let list = embeddings
        .analogy(&words[0], &words[1], &words[2], k, method, (restrict > 0).then_some(restrict))
        .map_err(query_error)?;
    print_neighbours(&list);
    Ok(())
}
