#!/usr/bin/env bash
# Installs what building, serving and testing embedscope need, and nothing that is
# already there, so every `npm start` and `npm test` can run it first.
#
# Usage: scripts/setup.sh [--browser] [--kjv] [--gensim] [--fasttext] [--lm] [--spark]
#   --browser  also Chromium and chromedriver (Debian packages), for the browser tests
#   --kjv      also the King James Bible corpus in data/kjv.txt, for benchmarks
#   --gensim   also gensim in a Python venv in .tools/venv, the reference we test our
#              file formats against and benchmark our training against
#   --fasttext with --gensim, also fastText's Python package in that venv if it builds:
#              the writer of the models tests/fasttext_compat.py reads, and a further row
#              of the benchmark
#   --lm       with --gensim, also the writers of language models' files in that venv
#              (safetensors, tokenizers, llama.cpp's gguf), which the tests of src/lm/ read,
#              and pyarrow, the writer of the Parquet tables tests/parquet_compat.py reads
#   --spark    with --gensim, also PySpark and a Java runtime (Debian's default-jre-headless),
#              so tests/parquet_compat.py trains and saves a real Spark Word2VecModel
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

want_browser=false
want_kjv=false
want_gensim=false
want_fasttext=false
want_lm=false
want_spark=false
# The version whose speed and file reader docs/benchmarks.md and the tests measure against.
GENSIM_VERSION=4.4.0
FASTTEXT_VERSION=0.9.3
# The writers whose files the tests read (tests/lm/): pinned, as their output is the reference.
LM_PACKAGES=(safetensors==0.8.0 tokenizers==0.23.3 gguf==0.19.0 pyarrow==26.0.1)
# Spark's Word2VecModel, trained and saved by Spark itself (Java 17 or later).
SPARK_VERSION=4.3.0
for arg in "$@"; do
    case $arg in
        --browser) want_browser=true ;;
        --kjv) want_kjv=true ;;
        --gensim) want_gensim=true ;;
        --fasttext) want_fasttext=true ;;
        --lm) want_lm=true ;;
        --spark) want_spark=true ;;
        *) echo "usage: scripts/setup.sh [--browser] [--kjv] [--gensim] [--fasttext] [--lm] [--spark]" >&2; exit 2 ;;
    esac
done

section "Setup: Rust target wasm32-unknown-unknown"
if rustup target list --installed | grep -x wasm32-unknown-unknown >/dev/null; then
    echo "present"
else
    rustup target add wasm32-unknown-unknown
fi

section "Setup: rustfmt and clippy, for the format and lint checks of npm test"
for component in rustfmt clippy; do
    if rustup component list --installed | grep -q "^$component"; then
        echo "$component present"
    else
        rustup component add "$component"
    fi
done

section "Setup: nightly Rust with rust-src and wasm32-unknown-unknown, for the threaded module"
# The threaded module rebuilds std with atomics (-Z build-std), which only nightly allows,
# from the rust-src component (scripts/build-wasm.sh). rustup installs each piece only when
# it is missing, but asks the network even then; so look first.
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal --component rust-src --target wasm32-unknown-unknown
fi
# A nightly that was already there (installed for something else) may lack either piece;
# adding them leaves its version as it is.
if ! rustup component list --toolchain nightly --installed | grep -x rust-src >/dev/null; then
    rustup component add rust-src --toolchain nightly
fi
if ! rustup target list --toolchain nightly --installed | grep -x wasm32-unknown-unknown >/dev/null; then
    rustup target add wasm32-unknown-unknown --toolchain nightly
fi
echo "$(rustup run nightly rustc --version), with rust-src and wasm32-unknown-unknown"

section "Setup: wasm-bindgen CLI in .tools/bin"
# The CLI must match the wasm-bindgen crate exactly, or the generated glue refuses the
# module; Cargo.lock holds the one version the crate was built against.
wanted_version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [[ -z $wanted_version ]]; then
    echo "Cargo.lock names no wasm-bindgen version; run 'cargo generate-lockfile'." >&2
    exit 1
fi
installed_version=$(.tools/bin/wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [[ $installed_version == "$wanted_version" ]]; then
    echo "wasm-bindgen $installed_version present"
else
    echo "want wasm-bindgen $wanted_version, found '${installed_version:-none}'; building it (about 3 minutes)"
    cargo install --root .tools wasm-bindgen-cli --version "=$wanted_version" --force
fi

section "Setup: npm packages"
# npm writes node_modules/.package-lock.json on every install; when package.json or the
# lock file is newer, node_modules is stale.
installed_marker=node_modules/.package-lock.json
if [[ ! -f $installed_marker || package.json -nt $installed_marker || package-lock.json -nt $installed_marker ]]; then
    npm install --no-audit --no-fund
    # A no-op install may leave the marker untouched; without this we would reinstall every run.
    touch "$installed_marker"
else
    echo "node_modules up to date"
fi

if $want_browser; then
    section "Setup: Chromium and chromedriver"
    if [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then
        chromium --version
    else
        if (( EUID != 0 )); then
            echo "Chromium is missing and installing it needs root: sudo apt-get install -y chromium chromium-driver" >&2
            exit 1
        fi
        export DEBIAN_FRONTEND=noninteractive
        # Refresh the package lists only when they are too old to know the packages.
        if ! apt-get install -y --no-install-recommends chromium chromium-driver; then
            apt-get update
            apt-get install -y --no-install-recommends chromium chromium-driver
        fi
    fi
fi

if $want_kjv; then
    run_script fetch-kjv.sh
fi

if $want_gensim; then
    section "Setup: gensim $GENSIM_VERSION in .tools/venv"
    if .tools/venv/bin/python -c "import gensim, sys; sys.exit(gensim.__version__ != '$GENSIM_VERSION')" 2>/dev/null; then
        echo "present"
    else
        python3 -m venv .tools/venv
        .tools/venv/bin/pip install --quiet "gensim==$GENSIM_VERSION"
    fi
fi

if $want_fasttext; then
    section "Setup: fastText's Python package in .tools/venv (optional: a further benchmark row)"
    if .tools/venv/bin/python -c "import fasttext" 2>/dev/null; then
        echo "present"
    elif ! .tools/venv/bin/pip install --quiet "fasttext==$FASTTEXT_VERSION"; then
        # It builds from source (a C++ compiler and pybind11); without it the benchmark's row
        # is skipped, and tests/fasttext_compat.py says it is missing.
        echo "fastText did not install (above: why); the benchmark goes on without it, tests/fasttext_compat.py fails"
    fi
fi

if $want_lm; then
    section "Setup: the writers of language models' files in .tools/venv (${LM_PACKAGES[*]})"
    if .tools/venv/bin/python - "${LM_PACKAGES[@]}" <<'PY' 2>/dev/null; then
import sys
from importlib.metadata import version
sys.exit(any(version(name) != wanted for name, wanted in (p.split("==") for p in sys.argv[1:])))
PY
        echo "present"
    else
        .tools/venv/bin/pip install --quiet "${LM_PACKAGES[@]}"
    fi
fi

if $want_spark; then
    section "Setup: PySpark $SPARK_VERSION and a Java runtime, for Spark's own Word2VecModel"
    if command -v java >/dev/null; then
        echo "java present"
    else
        if (( EUID != 0 )); then
            echo "Java is missing and installing it needs root: sudo apt-get install -y default-jre-headless" >&2
            exit 1
        fi
        export DEBIAN_FRONTEND=noninteractive
        if ! apt-get install -y --no-install-recommends default-jre-headless; then
            apt-get update
            apt-get install -y --no-install-recommends default-jre-headless
        fi
    fi
    if .tools/venv/bin/python -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$SPARK_VERSION')" 2>/dev/null; then
        echo "pyspark present"
    else
        .tools/venv/bin/pip install --quiet "pyspark==$SPARK_VERSION"
    fi
fi
