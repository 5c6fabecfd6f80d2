#!/usr/bin/env bash
# `npm run build`: the static site in dist/, ready for any file server.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

run_script setup.sh
run_script build-wasm.sh

section "Build: Vite production bundle into dist/"
node_modules/.bin/vite build
