//! `embedscope project`: a PCA, t-SNE or UMAP map of the most frequent words as CSV or the Projector's TSV pair.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use embedscope::Embeddings;
use embedscope::io;
use embedscope::map::Pca;
use embedscope::map::layout;
use embedscope::map::layout::{Layout, Tsne, TsneParams, Umap, UmapParams};

use crate::args::{Args, Command, optional, switch, valued};
use crate::now;
use crate::progress::*;
use crate::vectors::*;

/// The words `project` maps when `--words` is not given (or all, when fewer).
pub(crate) const DEFAULT_PROJECT_WORDS: usize = 5000;

/// A map's method and its parameters.
pub(crate) enum Projection {
    Pca,
    Tsne(TsneParams),
    Umap(UmapParams),
}

/// `project`'s options, with the layouts' defaults.
pub(crate) fn command() -> Command {
    let (t, u) = (TsneParams::default(), UmapParams::default());
    Command {
        name: "project",
        synopsis: "VECTORS --out FILE",
        required: &["--out"],
        options: vec![
            optional("--out", "FILE", "the map to write: CSV, or for a .tsv name the Projector's pair"),
            valued("--method", "tsne|umap|pca", "tsne", "how the words are mapped to the plane"),
            valued("--words", "N", DEFAULT_PROJECT_WORDS, "the most frequent words to map (or all, when fewer)"),
            valued("--seed", "N", t.seed, "tsne, umap: the seed of every random choice"),
            valued("--perplexity", "P", t.perplexity, "tsne: the neighbourhood's effective size"),
            valued("--learning-rate", "R", "auto", &format!("tsne: auto or a number; umap: a number ({})", u.learning_rate)),
            valued("--iterations", "N", t.iterations, "tsne: iterations in all"),
            valued("--exaggeration", "E", t.early_exaggeration, "tsne: the early exaggeration"),
            valued("--neighbors", "N", u.n_neighbours, "umap: neighbours of each word in the graph"),
            valued("--min-dist", "D", u.min_dist, "umap: how close points may pack"),
            optional("--epochs", "N", &format!(
                "umap: epochs of SGD (default {} up to {} words, else {})",
                u.epochs_for(layout::UMAP_LARGE),
                layout::UMAP_LARGE,
                u.epochs_for(layout::UMAP_LARGE + 1),
            )),
            switch("--quiet", "no progress bar"),
        ]
        .into_iter()
        .chain(Sources::options())
        .collect(),
        about: format!(
            "project maps the --words N most frequent words (default {DEFAULT_PROJECT_WORDS}, or all when fewer) to the
plane and writes one row per word with its two coordinates: CSV (word,x,y with a header,
RFC 4180 quoting), or for a .tsv name the Projector's pair (FILE the coordinates, its
metadata.tsv the words). --method tsne (default) is Barnes-Hut t-SNE as openTSNE runs it:
--perplexity, --learning-rate auto or a number (scikit-learn's scale, a quarter of
openTSNE's), --iterations, --exaggeration for the first {exaggerated}. --method umap takes
--neighbors, --min-dist, --epochs (by default {} up to {large} words, else {}) and
--learning-rate (default {}). --method pca plots the first two principal components. t-SNE
and UMAP use cosine distance and write the same file for the same --seed.",
            u.epochs_for(layout::UMAP_LARGE),
            u.epochs_for(layout::UMAP_LARGE + 1),
            u.learning_rate,
            exaggerated = layout::EARLY_ITERATIONS,
            large = layout::UMAP_LARGE,
        ),
    }
}

pub(crate) fn project(mut args: Args) -> Result<(), String> {
    let path = args.positional("VECTORS")?;
    let out = args.take("--out").flatten().ok_or("project needs --out FILE")?;
    let n_words: Option<usize> = args.optional("--words")?;
    let method_name = args.text("--method", "tsne");
    let method = match method_name.as_str() {
        "pca" => Projection::Pca,
        "tsne" => {
            let d = TsneParams::default();
            let learning_rate = match args.take("--learning-rate").flatten() {
                None => None,
                Some(text) if text == "auto" => None,
                Some(text) => Some(
                    text.parse()
                        .map_err(|_| format!("--learning-rate '{text}' is not 'auto' or a valid number"))?,
                ),
            };
            Projection::Tsne(TsneParams {
                perplexity: args.value("--perplexity", d.perplexity)?,
                learning_rate,
                iterations: args.value("--iterations", d.iterations)?,
                early_exaggeration: args.value("--exaggeration", d.early_exaggeration)?,
                seed: args.value("--seed", d.seed)?,
            })
        }
        "umap" => {
            let d = UmapParams::default();
            Projection::Umap(UmapParams {
                n_neighbours: args.value("--neighbors", d.n_neighbours)?,
                min_dist: args.value("--min-dist", d.min_dist)?,
                epochs: args.optional("--epochs")?,
                learning_rate: args.value("--learning-rate", d.learning_rate)?,
                seed: args.value("--seed", d.seed)?,
            })
        }
        other => return Err(format!("--method '{other}' is not tsne, umap or pca")),
    };
    // Options of another method would be silently ignored; say so instead.
    let belongs = [
        ("--perplexity", "tsne"),
        ("--iterations", "tsne"),
        ("--exaggeration", "tsne"),
        ("--neighbors", "umap"),
        ("--min-dist", "umap"),
        ("--epochs", "umap"),
        ("--learning-rate", "tsne or umap"),
        ("--seed", "tsne or umap"),
    ];
    for (option, methods) in belongs {
        if args.switch(option) {
            return Err(format!("{option} only applies to --method {methods}"));
        }
    }
    let sources = Sources::take(&mut args);
    let quiet = args.switch("--quiet");
    args.finish()?;
    // Check parameters before reading a large file.
    match &method {
        Projection::Pca => Ok(()),
        Projection::Tsne(params) => params.validate(),
        Projection::Umap(params) => params.validate(),
    }
    .map_err(|e| e.to_string())?;

    let embeddings = load_vectors(&path, &sources)?;
    let n = n_words.unwrap_or(DEFAULT_PROJECT_WORDS.min(embeddings.len()));
    let started = now();
    let bar = Bar::new(quiet, "map");
    let (coords, summary) = match method {
        Projection::Pca => (pca_map(&embeddings, n)?, "PCA".to_string()),
        Projection::Tsne(params) => {
            let layout = Tsne::new(&embeddings, n, params).map_err(|e| e.to_string())?;
            run_layout(layout, "t-SNE", "iterations", now() - started, &bar)
        }
        Projection::Umap(params) => {
            let layout = Umap::new(&embeddings, n, params).map_err(|e| e.to_string())?;
            run_layout(layout, "UMAP", "epochs", now() - started, &bar)
        }
    };
    let seconds = now() - started;
    let words = embeddings.words()[..n].to_vec();
    let written = if out.to_ascii_lowercase().ends_with(".tsv") {
        let map = Embeddings::new(words, 2, coords).map_err(|e| e.to_string())?;
        let metadata = metadata_path_for(&out);
        let create = |p: &Path| {
            File::create(p).map(BufWriter::new).map_err(|e| format!("cannot create {}: {e}", p.display()))
        };
        io::write_projector_tsv(&map, create(Path::new(&out))?, create(&metadata)?)
            .map(|()| format!("{out} and {}", metadata.display()))
    } else {
        let file = File::create(&out).map(BufWriter::new).map_err(|e| format!("cannot create {out}: {e}"))?;
        write_map_csv(&words, &coords, file).map(|()| out.clone()).map_err(embedscope::Error::from)
    };
    let written = written.map_err(|e| format!("cannot write {out}: {e}"))?;
    bar.line(&format!("{summary} of {n} words in {seconds:.2} s; wrote {written}"));
    Ok(())
}

/// The first two principal coordinates of the `n` most frequent words; vectors of one
/// dimension have one axis, so they lie on y = 0.
pub(crate) fn pca_map(embeddings: &Embeddings, n: usize) -> Result<Vec<f32>, String> {
    if n > embeddings.len() {
        return Err(format!("--words {n} is more than the {} words of the vectors", embeddings.len()));
    }
    let components = embeddings.dim().min(2);
    let pca = Pca::fit(embeddings, Some(n), components).map_err(|e| e.to_string())?;
    let coords = pca.project_words(embeddings, n);
    Ok(if components == 2 { coords } else { coords.iter().flat_map(|&x| [x, 0.0]).collect() })
}

/// Steps `layout` to the end in slices, drawing `bar`; returns its coordinates and a summary
/// naming the time it took to build (`built` seconds: the neighbours and affinities).
pub(crate) fn run_layout(
    mut layout: impl Layout,
    name: &str,
    unit: &str,
    built: f64,
    bar: &Bar,
) -> (Vec<f32>, String) {
    loop {
        let p = layout.step(10);
        bar.set(
            p.iteration as u64,
            p.iterations as u64,
            format!("{name} {}/{} {unit}", p.iteration, p.iterations),
        );
        if p.is_done() {
            let summary = format!("{name} ({} {unit}; neighbours and affinities {built:.2} s)", p.iterations);
            return (layout.coords().to_vec(), summary);
        }
    }
}

/// Writes `word,x,y` rows under a header, fields quoted as RFC 4180 asks.
pub(crate) fn write_map_csv(words: &[String], coords: &[f32], mut out: impl Write) -> std::io::Result<()> {
    writeln!(out, "word,x,y")?;
    for (word, p) in words.iter().zip(coords.chunks_exact(2)) {
        writeln!(out, "{},{},{}", csv_field(word), p[0], p[1])?;
    }
    out.flush()
}

/// A CSV field: quoted, with quotes doubled, when it holds a comma, a quote or a line break.
pub(crate) fn csv_field(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text.into()
    }
}
