#!/usr/bin/env bash
# Builds the wasm module and its JS glue into www/pkg, where the page and the worker
# import it. Assumes scripts/setup.sh has run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

target=wasm32-unknown-unknown
wasm=www/pkg/embedscope_bg.wasm

section "Build: wasm32 release (simd128 from .cargo/config.toml)"
cargo build --lib --release --target "$target"

section "Build: wasm-bindgen --target web into www/pkg"
.tools/bin/wasm-bindgen --target web --out-dir www/pkg "target/$target/release/embedscope.wasm"

section "Build: wasm-opt -O3"
# wasm-opt rejects instructions of features it was not told about, and rustc's default
# set grows over time (1.95 enables bulk-memory, multivalue, mutable-globals,
# nontrapping-fptoint, reference-types and sign-ext). The module lists its own features,
# so take them from there rather than keep a second list that drifts. wasm-opt reads the
# list by itself too; passing it explicitly logs it and fails loudly on a name it lacks.
read -r -a opt_flags <<< "$(node scripts/wasm-opt-features.mjs "$wasm")"
echo "wasm-opt -O3 ${opt_flags[*]}"
size_before=$(stat -c %s "$wasm")
node_modules/.bin/wasm-opt -O3 "${opt_flags[@]}" "$wasm" -o "$wasm"
echo "$wasm: $size_before -> $(stat -c %s "$wasm") bytes"
