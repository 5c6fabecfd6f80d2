#!/usr/bin/env bash
# The check of issue 4 on the King James Bible (data/kjv.txt, fetched at set-up): trained
# over BPE tokens learned in cross mode with a few thousand merges, the neighbour lists of
# frequent words hold multi-word tokens ("s of silver", "said unto me, "). Fails otherwise.
# Usage: tests/kjv_bpe.sh   (after `cargo build --release`)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# One thread, so the check sees the same vectors every run (several threads race).
./target/release/embedscope train data/kjv.txt --tokenizer bpe --bpe-mode cross --vocab-size 4000 \
    --threads 1 --out "$out/kjv-bpe.bin" --quiet 2>&1 | grep -E '^learned|^trained'
multi_word=0
for word in 'Jesus\s' 'silver' 'LORD' 'king\s' 'said\sunto\shim,\s'; do
    neighbours=$(./target/release/embedscope neighbours "$out/kjv-bpe.bin" "$word" -k 8 | cut -f2)
    echo "$word: $(paste -sd'|' <<< "$neighbours")"
    # A token spans words when an escaped space (\s) stands between two other characters.
    multi_word=$(( multi_word + $(grep -cE '.\\s.' <<< "$neighbours" || true) ))
done
echo "multi-word tokens among these neighbours: $multi_word"
if (( multi_word < 3 )); then
    echo "expected at least 3 multi-word tokens among the neighbours of frequent words" >&2
    exit 1
fi
