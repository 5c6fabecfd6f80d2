"""Checks that embedscope opens a vectors file whose words are not all UTF-8 as gensim does
with `unicode_errors='replace'`: the same words (each byte that does not decode as U+FFFD),
the same neighbours with the same scores, and a note saying how many words were touched.

Usage:
    python tests/gensim_encoding.py EMBEDSCOPE

The file is gensim's own test file `pang_lee_polarity_fasttext.vec`, written by fastText,
which holds five Latin-1 words among 1,694. Exits non-zero on the first difference.
"""

import os
import subprocess
import sys

import gensim
from gensim.models import KeyedVectors

DATA = os.path.join(os.path.dirname(gensim.__file__), "test", "test_data")


def neighbours(embedscope, path, word, k):
    """embedscope's neighbours of `word`: (word, score) pairs, and what it said on stderr."""
    run = subprocess.run([embedscope, "neighbours", path, word, "-k", str(k)], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"embedscope neighbours {word!r} failed: {run.stderr}")
    pairs = [line.split("\t") for line in run.stdout.splitlines()]
    return [(w, float(s)) for s, w in pairs], run.stderr


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    embedscope = sys.argv[1]
    path = os.path.join(DATA, "pang_lee_polarity_fasttext.vec")
    kv = KeyedVectors.load_word2vec_format(path, unicode_errors="replace")
    replaced = [w for w in kv.index_to_key if "\ufffd" in w]
    if len(replaced) != 5:
        sys.exit(f"gensim read {len(replaced)} words with U+FFFD, expected 5: {replaced}")
    for word in replaced + ["film", "movie", "story"]:
        got, stderr = neighbours(embedscope, path, word, 10)
        want = [(w, float(s)) for w, s in kv.most_similar(word, topn=10)]
        if [w for w, _ in got] != [w for w, _ in want]:
            sys.exit(f"neighbours of {word!r}: embedscope {got}, gensim {want}")
        for (w, s), (_, t) in zip(got, want):
            if abs(s - t) > 1e-4:
                sys.exit(f"neighbours of {word!r}: {w!r} scores {s} in embedscope, {t} in gensim")
        if "5 words hold bytes that are not UTF-8" not in stderr:
            sys.exit(f"embedscope said nothing of the words not in UTF-8: {stderr!r}")
    print(f"{len(replaced)} words not in UTF-8 read as gensim reads them (U+FFFD); neighbours of 8 words equal gensim's")


if __name__ == "__main__":
    main()
