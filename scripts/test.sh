#!/usr/bin/env bash
# `npm test` and CI: every check, from a fresh machine if need be. Exits non-zero on the
# first failure and says which step it was.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
started=$SECONDS

run_script setup.sh --browser

section "Test: cargo test --release (native)"
cargo test --release

# The core must never stop compiling for the browser, so every test run builds it.
run_script build-wasm.sh

section "Test: browser smoke test (Chromium via playwright-core)"
node --test --test-reporter=spec tests/browser/

section "All tests passed in $(( SECONDS - started )) s"
