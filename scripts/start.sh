#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the wasm module, serves the app with Vite.
# Extra arguments go to Vite, e.g. `npm start -- --host 0.0.0.0 --port 8080`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

run_script setup.sh
run_script build-wasm.sh

section "Serve: Vite dev server (Ctrl-C stops it)"
exec node_modules/.bin/vite "$@"
