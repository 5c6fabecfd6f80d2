#!/usr/bin/env bash
# Maps of word vectors trained on the King James Bible: embedscope's PCA, t-SNE and UMAP
# (native, one thread) beside openTSNE and umap-learn (one thread), 10-nearest-neighbour
# preservation and wall time for each, at 5,000 words (vectors with the default parameters)
# and 20,000 words (min_count 1, so the vocabulary holds that many). Prints figures; asserts
# nothing, since timings depend on the machine. Run alone or as a section of scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

python=.tools/venv/bin/python
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

# Runs our three maps of the first WORDS words of VECTORS and the references beside them.
compare() {
    local vectors=$1 words=$2
    local maps=(
        "$(project pca "$vectors" "$words")"
        "$(project tsne "$vectors" "$words" --seed "$seed")"
        "$(project umap "$vectors" "$words" --seed "$seed")"
    )
    "$python" tests/bench/projection_reference.py "$vectors" "$words" "$seed" "${maps[@]}"
}

section "Maps of 5,000 words: vectors of $corpus (whitespace tokenizer, default parameters)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
# One thread: the same seed gives the same vectors, so the maps' figures compare run to run.
./target/release/embedscope train "$corpus" --tokenizer whitespace --seed "$seed" --threads 1 --out "$work/kjv.bin" --quiet 2>&1 \
    | grep -E '^trained'
compare "$work/kjv.bin" 5000

section "Maps of 20,000 words: vectors of $corpus with --min-count 1"
./target/release/embedscope train "$corpus" --tokenizer whitespace --min-count 1 --seed "$seed" --threads 1 \
    --out "$work/kjv-all.bin" --quiet 2>&1 | grep -E 'vocabulary|^trained' | sed 's/ (cut.*//'
compare "$work/kjv-all.bin" 20000
