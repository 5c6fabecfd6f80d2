#!/usr/bin/env bash
# `npm run bench`: training speed and quality on the King James Bible: embedscope native
# (1 and 2 threads, skip-gram and CBOW) and in Chromium (1 and 2 threads), gensim with
# 1 and 2 workers and fastText (when its package installs), same corpus, same parameters
# (word2vec defaults, whitespace tokenizer, 5 epochs), with the speed ratios and top-10
# neighbour agreement with gensim; then 2-D maps (PCA, t-SNE,
# UMAP) beside openTSNE and umap-learn at 5,000 and 20,000 words; then neighbour-query and
# PCA-refresh times in the browser at 10k and 50k words; then loading a 100k x 300 pretrained
# file natively and in the worker, and peak memory; then training in the browser on 1 and 2
# threads, and a 100 MB text on 2; then the map's redraw at 1,000 to 1,000,000 points and a wheel zoom over 250,000 in the explorer, and
# t-SNE and UMAP maps in the worker; then a Llama-3-sized embedding matrix opened natively
# and in the page (time, peak memory, a query). Prints figures; asserts nothing,
# since timings depend on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

run_script setup.sh --browser --kjv --gensim --fasttext --lm
run_script build-wasm.sh

section "Build: native release"
cargo build --release --quiet

corpus=data/kjv.txt
out=$(mktemp -d)
trap 'rm -rf "$out"; report_failure' EXIT
words=(silver night Pharaoh drink)

# Its own sections: training on 1 and 2 threads, natively (skip-gram and CBOW) and in the
# browser, beside gensim and fastText, in one table with the ratios (and gensim's neighbours
# of the words); it leaves $out/native-1.log for the browser's comparison below.
run_script bench-native.sh "$out" "${words[@]}"
echo "embedscope's neighbours (1 thread):"
for word in "${words[@]}"; do
    printf '%-8s ' "$word"
    ./target/release/embedscope neighbours "$out/native-1.bin" "$word" -k 8 | cut -f2 | paste -sd' '
done

section "embedscope BPE, native: learning 8,000-token vocabularies on $corpus"
for mode in cross within; do
    ./target/release/embedscope train "$corpus" --tokenizer bpe --vocab-size 8000 --bpe-mode "$mode" \
        --epochs 1 --out "$out/bpe-$mode.bin" --quiet 2>&1 | grep -E '^learned|tokens;'
done

# Its own sections: PCA, t-SNE and UMAP maps beside openTSNE and umap-learn.
run_script bench-projection.sh

vectors=data/bench-100k-300.txt
section "Pretrained vectors, native: $vectors (written once, about 290 MB)"
cargo run --release --quiet --example vectors_bench -- "$vectors" 100000 300

section "embedscope (wasm in a Web Worker, Chromium): $corpus, then $vectors"
node scripts/bench-browser.mjs "/$corpus" 5 "/$vectors" > "$out/browser.json"
native_seconds=$(grep -o 'trained .* in [0-9.]* s' "$out/native-1.log" | grep -o '[0-9.]* s$' | cut -d' ' -f1)
node --input-type=module - "$out/browser.json" "$native_seconds" <<'JS'
import { readFileSync } from 'node:fs';
const [file, nativeSeconds] = process.argv.slice(2);
const { training: t, bpe, queries, vectors: v, trainingMemory, peakMemory } = JSON.parse(readFileSync(file, 'utf8'));
const words = t.stats.tokens * t.epochLosses.length;
const row = (name, s) => console.log(`${name.padEnd(28)} ${s.toFixed(2).padStart(7)} s ${Math.round(words / s).toLocaleString('en').padStart(10)} corpus words/s`);
console.log(`epoch losses in the browser: ${t.epochLosses.map((l) => l.toFixed(4)).join(' ')}`);
row('native (1 thread)', Number(nativeSeconds));
row('browser worker (wasm simd128)', t.seconds);
console.log(`browser / native speed: ${(Number(nativeSeconds) / t.seconds).toFixed(2)}`);
for (const b of bpe) {
  console.log(`BPE ${b.mode}: learned 8,000 tokens in ${b.learnSeconds.toFixed(2)} s, ` +
    `encoded ${b.tokens.toLocaleString('en')} tokens (with the vocabulary) in ${b.encodeSeconds.toFixed(2)} s`);
}
for (const q of queries) {
  console.log(`${q.words.toLocaleString('en')} words x 100 dims: neighbours ${q.neighboursMs.toFixed(2)} ms, ` +
    `PCA refresh of 300 words during training ${q.pcaRefresh300Ms.toFixed(1)} ms`);
}
const mb = (bytes) => `${Math.round(bytes / 2 ** 20).toLocaleString('en')} MB`;
console.log(`wasm memory after training and BPE learning: ${mb(trainingMemory)}`);
if (v) {
  console.log(`pretrained ${v.words.toLocaleString('en')} x ${v.dim} (${mb(v.bytes)} of ${v.format}) loaded in 4 MB slices ` +
    `in ${v.seconds.toFixed(2)} s; neighbours ${v.neighboursMs.toFixed(1)} ms; PCA of 300 words ${v.pcaMs.toFixed(1)} ms`);
}
console.log(`wasm memory at the end (its peak: wasm memory never shrinks): ${mb(peakMemory)}`);
JS

section "Training on threads in the browser (Chromium): a 100 MB text on 2 threads (the KJV rows are in the training table above)"
node scripts/bench-threads.mjs --big-only "$corpus" data/kjv-100mb.txt

section "The map's redraw in Chromium: 1,000 to 1,000,000 points, every word asking for a label; a wheel zoom over 250,000 in the explorer"
node scripts/bench-map.mjs

section "t-SNE and UMAP maps in the worker (Chromium): 5,000 KJV words, and 20,000 generated ones"
node scripts/bench-layout.mjs

section "A language model's embedding matrix, Llama 3 8B's size (128,256 x 4,096 BF16, 1 GB): opened natively and in Chromium"
node scripts/bench-model.mjs
