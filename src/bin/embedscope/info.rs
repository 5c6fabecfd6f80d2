//! `embedscope info`: what a vectors file or a language model's embedding matrix is.

use embedscope::io::OpenPlan;

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
memory and where the tokens' names come from; for a fastText .bin model its settings and what
was kept; for other vectors, their words and dimension."
            .into(),
    }
}

pub(crate) fn info(mut args: Args) -> Result<(), String> {
    let path = args.positional("VECTORS")?;
    let sources = Sources::take(&mut args);
    args.finish()?;
    match plan_for(&path, &sources)? {
        OpenPlan::Table { .. } => return parquet_info(&path, &sources),
        OpenPlan::FastText { .. } => {
            let model = load_fasttext(&path, &sources, false)?;
            println!("model\t{}", model.info.settings());
            println!("kept\t{}", model.info.kept());
            println!("words\t{}", model.embeddings.len());
            println!("dimension\t{}", model.embeddings.dim());
            return Ok(());
        }
        OpenPlan::Model { .. } => {}
        _ => {
            let embeddings = load_vectors(&path, &sources)?;
            println!("words\t{}", embeddings.len());
            println!("dimension\t{}", embeddings.dim());
            return Ok(());
        }
    }
    let (_, info) = load_model(&path, &sources, false)?;
    for (label, value) in info.lines() {
        println!("{label}\t{value}");
    }
    Ok(())
}

/// A Parquet table's words, dimension and columns.
fn parquet_info(path: &str, sources: &Sources) -> Result<(), String> {
    let (embeddings, info) = load_parquet(path, sources, false)?;
    println!("words\t{}", embeddings.len());
    println!("dimension\t{}", embeddings.dim());
    println!("files\t{}", info.files);
    println!("columns\t{} (words), {} (vectors)", info.columns.word, info.columns.vector);
    if let Some(spark) = &info.spark {
        println!("spark\t{}", spark.class);
    }
    Ok(())
}
