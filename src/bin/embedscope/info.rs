//! `embedscope info`: what a vectors file or a language model's embedding matrix is.

use embedscope::io::VectorFormat;

use crate::args::{Args, Command};
use crate::vectors::*;

/// `info`'s options.
pub(crate) fn command() -> Command {
    Command {
        name: "info",
        synopsis: "VECTORS",
        required: &[],
        options: Sources::options(),
        about: "info says what VECTORS holds: for a language model's file (.safetensors, a sharded model's
model.safetensors.index.json, .gguf) the tensor read as its token embeddings, the vocabulary
and dimension, the parameters and their share of the file, the dtype, how the rows are kept in
memory and where the tokens' names come from; for other vectors, their words and dimension."
            .into(),
    }
}

pub(crate) fn info(mut args: Args) -> Result<(), String> {
    let path = args.positional("VECTORS")?;
    let sources = Sources::take(&mut args);
    args.finish()?;
    let head = crate::input::read_head(&path, VectorFormat::SNIFF_LEN)?;
    if !is_model(&path, &head) {
        let embeddings = load_vectors(&path, &sources)?;
        println!("words\t{}", embeddings.len());
        println!("dimension\t{}", embeddings.dim());
        return Ok(());
    }
    let (_, info) = load_model(&path, &sources, false)?;
    for (label, value) in info.lines() {
        println!("{label}\t{value}");
    }
    Ok(())
}
