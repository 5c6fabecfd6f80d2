#!/usr/bin/env bash
# Training speed and quality on the King James Bible, every row side by side in
# one run: embedscope natively on 1 and 2 threads, skip-gram and CBOW; embedscope in a Web
# Worker in Chromium on 1 and 2 threads (scripts/bench-threads.mjs --kjv-only); gensim with
# workers=1 and 2; fastText skip-gram without subwords when its package is installed; the
# speed ratios and the top-10 neighbour agreement with gensim (scripts/bench_gensim.py).
# Same corpus and parameters everywhere: word2vec defaults, whitespace tokens, 5 epochs.
# Part of `npm run bench`; alone: scripts/bench-native.sh [OUT_DIR [WORD...]] (after
# setup.sh --kjv --gensim, --fasttext for its row, --browser and build-wasm.sh for the
# browser's; BENCH_BROWSER=0 leaves the browser out); gensim's neighbours of each WORD are
# printed too. The native runs go BENCH_ROUNDS times (default 3), taking turns, and the
# median round of each is the one compared, left in OUT_DIR as NAME.bin and NAME.log
# (native-1, native-2, native-cbow, native-cbow-2, native-shared-1, native-shared-2;
# scripts/bench.sh reads native-1). Prints
# figures and the load average; asserts nothing, since timings depend on the machine and
# its load.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

# BENCH_CORPUS: another text (npm test runs the script on a slice of the KJV, so the
# benchmark cannot stop working unnoticed).
corpus=${BENCH_CORPUS:-data/kjv.txt}
out=${1:-$(mktemp -d)}
words=("${@:2}")
mkdir -p "$out"

section "Build: native release"
cargo build --release --quiet

section "embedscope (native: 1 and 2 threads, skip-gram and CBOW): $corpus"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs);" \
    "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# name | label | model | flags; each run writes $out/NAME.bin and $out/NAME.log.
runs=(
    "native-1|1 thread|sg|--threads 1"
    "native-2|2 threads|sg|--threads 2"
    "native-cbow|CBOW 1 thread|cbow|--threads 1 --cbow"
    "native-cbow-2|CBOW 2 threads|cbow|--threads 2 --cbow"
    "native-shared-1|shared noise 1 thread|sg|--threads 1 --shared-noise"
    "native-shared-2|shared noise 2 threads|sg|--threads 2 --shared-noise"
)
# Three rounds, the runs taking turns, and the median round of each run is what the table
# shows: on a shared 2-core machine one run of 2 threads can take twice another's time, and
# the median of three lets one such run pass. Every round's time is printed.
ROUNDS=${BENCH_ROUNDS:-3}
declare -A times
for round in $(seq 1 "$ROUNDS"); do
    for run in "${runs[@]}"; do
        IFS='|' read -r name label kind flags <<< "$run"
        # The process's CPU seconds (user + system), to tell how many cores it had.
        TIMEFORMAT='%3U %3S'
        # shellcheck disable=SC2086 # the flags are separate words on purpose
        cpu=$( { time ./target/release/embedscope train "$corpus" --tokenizer whitespace --out "$out/$name-$round.bin" \
            --quiet $flags > "$out/$name-$round.log" 2>&1; } 2>&1 | awk '{ print $1 + $2 }')
        seconds=$(grep -o 'trained .* in [0-9.]* s' "$out/$name-$round.log" | grep -o '[0-9.]* s$' | cut -d' ' -f1)
        echo "round $round, $label: $seconds s (CPU $cpu s)"
        times[$name]+="$seconds $cpu $round"$'\n'
    done
done
compare=()
for run in "${runs[@]}"; do
    IFS='|' read -r name label kind flags <<< "$run"
    # The median round by time: its seconds, CPU seconds and vectors.
    read -r seconds cpu round < <(printf '%s' "${times[$name]}" | sort -n | sed -n "$(( (ROUNDS + 1) / 2 ))p")
    # The median round's files under the run's own name, which scripts/bench.sh reads.
    cp "$out/$name-$round.bin" "$out/$name.bin"
    cp "$out/$name-$round.log" "$out/$name.log"
    grep -E '^trained' "$out/$name.log"
    compare+=(--native "$label" "$kind" "$seconds" "$cpu" "$out/$name.bin")
done

browser=()
if [[ ${BENCH_BROWSER:-1} != 0 ]]; then
    section "embedscope in a Web Worker (Chromium): $corpus on 1 and 2 threads"
    node scripts/bench-threads.mjs --kjv-only --json "$out/browser-threads.json" "$corpus"
    # The single-threaded module is what a page without threads runs: the 1-thread row.
    read -r -a figures < <(node -e '
        const { single1: one, threaded2: two, shared1, shared2 } = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        console.log(one.seconds, one.cpu, two.seconds, two.cpu, shared1.seconds, shared1.cpu, shared2.seconds, shared2.cpu);
    ' "$out/browser-threads.json")
    browser=(--browser "1 thread" "${figures[0]}" "${figures[1]}" --browser "2 threads" "${figures[2]}" "${figures[3]}"
        --browser "shared noise 1 thread" "${figures[4]}" "${figures[5]}"
        --browser "shared noise 2 threads" "${figures[6]}" "${figures[7]}")
fi

section "gensim $(.tools/venv/bin/python -c 'import gensim; print(gensim.__version__)') and fastText beside embedscope: $corpus"
.tools/venv/bin/python scripts/bench_gensim.py "$corpus" "${words[@]}" "${compare[@]}" "${browser[@]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
