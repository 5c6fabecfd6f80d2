#!/usr/bin/env bash
# `npm run bench`: training speed and quality on the King James Bible, embedscope's native
# build against gensim's single worker, same corpus, same parameters (word2vec defaults,
# whitespace tokenizer). Prints figures; asserts nothing, since timings depend on the machine.
#
# Usage: scripts/bench.sh [--epochs N]   (extra arguments go to `embedscope train`)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

run_script setup.sh --kjv --gensim

section "Build: native release"
cargo build --release --quiet

corpus=data/kjv.txt
out=$(mktemp -d)
trap 'rm -rf "$out"; report_failure' EXIT
words=(silver night Pharaoh drink)

section "embedscope (native, 1 thread): $corpus"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
./target/release/embedscope train "$corpus" --tokenizer whitespace --out "$out/kjv.bin" --quiet "$@"
for word in "${words[@]}"; do
    printf '%-8s ' "$word"
    ./target/release/embedscope neighbours "$out/kjv.bin" "$word" -k 8 | cut -f2 | paste -sd' '
done

section "gensim $(.tools/venv/bin/python -c 'import gensim; print(gensim.__version__)') (workers=1): $corpus"
.tools/venv/bin/python scripts/bench_gensim.py "$corpus" "${words[@]}"
