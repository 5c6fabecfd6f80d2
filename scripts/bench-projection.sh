#!/usr/bin/env bash
# Maps of word vectors: embedscope's PCA, t-SNE and UMAP (native) beside openTSNE and
# umap-learn, 10-nearest-neighbour preservation and wall time for each: vectors trained on the
# King James Bible at 5,000 words (default parameters) and 20,000 words (min_count 1, so the
# vocabulary holds that many), both sides on one thread; then generated vectors of known
# structure (tests/bench/clustered_vectors.py) at 50,000 words, both sides as they run out of
# the box (openTSNE n_jobs=1, umap-learn on every core, embedscope's t-SNE iterations on every
# core through rayon), and at 250,000 words, embedscope's maps only (openTSNE took over 7
# minutes at 50,000 words on this machine). Prints figures; asserts nothing, since timings
# depend on the machine. Run alone or as a section of scripts/bench.sh.
# REFERENCE_PYTHON names a Python with openTSNE, umap-learn and gensim (default the project's
# .tools/venv); SKIP_LARGE=1 leaves out the 50,000 and 250,000-word sections.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

python=${REFERENCE_PYTHON:-.tools/venv/bin/python}
if ! "$python" -c 'import openTSNE, umap' 2>/dev/null; then
    section "Setup: openTSNE and umap-learn (reference implementations, not dependencies of the app)"
    "$python" -m pip install --quiet openTSNE umap-learn
fi
cargo build --release --quiet

corpus=data/kjv.txt
seed=1
work=$(mktemp -d)
trap 'rm -rf "$work"; report_failure' EXIT

# Runs `embedscope project` and prints NAME=FILE:SECONDS for the reference script, the
# seconds being the time the command reports (the map alone, not reading the vectors).
project() {
    local name=$1 vectors=$2 words=$3
    shift 3
    local log
    log=$(./target/release/embedscope project "$vectors" --method "$name" --words "$words" \
        --out "$work/$name-$words.csv" --quiet "$@" 2>&1)
    echo "$log" >&2
    echo "$name=$work/$name-$words.csv:$(grep -o 'in [0-9.]* s; wrote' <<<"$log" | cut -d' ' -f2)"
}

# Runs our three maps of the first WORDS words of VECTORS and the references beside them;
# OPTIONS go to the reference script (--threads, --no-reference).
compare() {
    local vectors=$1 words=$2
    shift 2
    local maps=(
        "$(project pca "$vectors" "$words")"
        "$(project tsne "$vectors" "$words" --seed "$seed")"
        "$(project umap "$vectors" "$words" --seed "$seed")"
    )
    "$python" tests/bench/projection_reference.py "$@" "$vectors" "$words" "$seed" "${maps[@]}"
}

section "Maps of 5,000 words: vectors of $corpus (whitespace tokenizer, default parameters)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
# One thread: the same seed gives the same vectors, so the maps' figures compare run to run.
./target/release/embedscope train "$corpus" --tokenizer whitespace --seed "$seed" --threads 1 --out "$work/kjv.bin" --quiet 2>&1 \
    | grep -E '^trained'
RAYON_NUM_THREADS=1 compare "$work/kjv.bin" 5000

section "Maps of 20,000 words: vectors of $corpus with --min-count 1"
./target/release/embedscope train "$corpus" --tokenizer whitespace --min-count 1 --seed "$seed" --threads 1 \
    --out "$work/kjv-all.bin" --quiet 2>&1 | grep -E 'vocabulary|^trained' | sed 's/ (cut.*//'
RAYON_NUM_THREADS=1 compare "$work/kjv-all.bin" 20000

[[ ${SKIP_LARGE:-0} == 1 ]] && exit 0
section "Maps of 50,000 words: generated vectors (500 clusters on 4-dimensional patches, 100 dims)"
"$python" tests/bench/clustered_vectors.py "$work/clustered.bin" 250000 "$seed"
compare "$work/clustered.bin" 50000 --threads default

section "Maps of 250,000 words: the same vectors, embedscope only"
compare "$work/clustered.bin" 250000 --no-reference
