#!/usr/bin/env bash
# `npm start`: installs what is missing, fetches the King James Bible if it can, builds the
# wasm module, serves the app with Vite.
# Extra arguments go to Vite, e.g. `npm start -- --host 0.0.0.0 --port 8080`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

run_script setup.sh
# The King James Bible is the explorer's second text. It is optional: without it the page
# offers the built-in sample only, so a failed download warns and `npm start` goes on.
if ! run_script fetch-kjv.sh; then
    printf '\033[1;33mwarning: could not fetch the King James Bible into data/kjv.txt; the page offers the built-in sample only\033[0m\n' >&2
fi
run_script build-wasm.sh

section "Serve: Vite dev server (Ctrl-C stops it)"
exec node_modules/.bin/vite "$@"
