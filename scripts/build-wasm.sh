#!/usr/bin/env bash
# Builds the two wasm modules and their JS glue, where the page and the worker import them:
#   www/pkg          single-threaded (stable Rust, simd128): the page draws with it, and the
#                    worker trains with it where shared memory is unavailable
#   www/pkg-threads  threaded (nightly Rust, atomics over shared memory, std rebuilt): the
#                    worker trains with it on several threads when the page is cross-origin
#                    isolated (www/worker/threads.js)
# Assumes scripts/setup.sh has run. Usage: scripts/build-wasm.sh [single|threads] (default both).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

target=wasm32-unknown-unknown
which=${1:-both}
case $which in
    single|threads|both) ;;
    *) echo "usage: scripts/build-wasm.sh [single|threads]" >&2; exit 2 ;;
esac

# wasm-bindgen, then wasm-opt -O3 on the result, into $2.
bindgen_and_opt() {
    local input=$1 out_dir=$2
    local wasm=$out_dir/embedscope_bg.wasm
    section "Build: wasm-bindgen --target web into $out_dir"
    .tools/bin/wasm-bindgen --target web --out-dir "$out_dir" "$input"

    section "Build: wasm-opt -O3 ($out_dir)"
    # wasm-opt rejects instructions of features it was not told about, and rustc's default
    # set grows over time (1.95 enables bulk-memory, multivalue, mutable-globals,
    # nontrapping-fptoint, reference-types and sign-ext). The module lists its own features,
    # so take them from there rather than keep a second list that drifts. wasm-opt reads the
    # list by itself too; passing it explicitly logs it and fails loudly on a name it lacks.
    read -r -a opt_flags <<< "$(node scripts/wasm-opt-features.mjs "$wasm")"
    echo "wasm-opt -O3 ${opt_flags[*]}"
    local size_before
    size_before=$(stat -c %s "$wasm")
    node_modules/.bin/wasm-opt -O3 "${opt_flags[@]}" "$wasm" -o "$wasm"
    echo "$wasm: $size_before -> $(stat -c %s "$wasm") bytes"
}

if [[ $which != threads ]]; then
    section "Build: wasm32 release, single-threaded (simd128 from .cargo/config.toml)"
    cargo build --lib --release --target "$target"
    bindgen_and_opt "target/$target/release/embedscope.wasm" www/pkg
fi

if [[ $which != single ]]; then
    section "Build: wasm32 release-threads, threaded (nightly, atomics, build-std)"
    # A RUSTFLAGS variable replaces .cargo/config.toml's flags, so simd128 is named again.
    # atomics and bulk-memory compile the atomic instructions; std must be rebuilt with them
    # (build-std, which needs nightly and rust-src). Since Rust 1.92's nightlies atomics no
    # longer make the memory shared by themselves (rust-lang/rust#147225), so the linker is
    # told: a shared memory, imported (wasm-bindgen's glue creates it, and hands it to every
    # thread), and the thread-local storage symbols wasm-bindgen's thread start-up calls.
    # Shared memory needs a declared maximum: 4 GiB, all a wasm32 instance can address, as
    # the single-threaded module has (wasm-ld would otherwise cap it at 1 GiB). Its own
    # target dir, so the two builds' flags and compilers never invalidate each other's caches.
    threads_flags=(
        -C target-feature=+atomics,+bulk-memory,+simd128
        -C link-arg=--shared-memory -C link-arg=--import-memory -C link-arg=--max-memory=4294967296
        -C link-arg=--export=__wasm_init_tls -C link-arg=--export=__tls_size
        -C link-arg=--export=__tls_align -C link-arg=--export=__tls_base
    )
    RUSTFLAGS="${threads_flags[*]}" \
    CARGO_TARGET_DIR=target/threads \
        cargo +nightly build --lib --profile release-threads --target "$target" \
        -Z build-std=panic_abort,std
    bindgen_and_opt "target/threads/$target/release-threads/embedscope.wasm" www/pkg-threads
fi
