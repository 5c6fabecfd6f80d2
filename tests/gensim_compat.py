"""Checks that gensim reads embedscope's word2vec files exactly.

Usage:
    cargo run --example write_formats -- OUTDIR
    python tests/gensim_compat.py OUTDIR/vectors.txt OUTDIR/vectors.bin OUTDIR/expected.tsv

expected.tsv holds one line per word: the escaped word, a tab, and the float32 bit patterns
of its vector in hex. gensim must give the same keys (escaped words, in order) and the same
bits for both files. Exits non-zero on the first difference.
"""

import sys

import numpy as np
from gensim.models import KeyedVectors


def read_expected(path):
    keys, rows = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, bits = line.rstrip("\n").split("\t")
            keys.append(key)
            rows.append([int(b, 16) for b in bits.split(" ")])
    return keys, np.array(rows, dtype=np.uint32)


def check(path, binary, keys, bits):
    kv = KeyedVectors.load_word2vec_format(path, binary=binary)
    kind = "binary" if binary else "text"
    if kv.index_to_key != keys:
        diff = [(i, a, b) for i, (a, b) in enumerate(zip(kv.index_to_key, keys)) if a != b]
        sys.exit(f"{kind}: keys differ ({len(kv.index_to_key)} vs {len(keys)}); first: {diff[:3]}")
    got = np.ascontiguousarray(kv.vectors, dtype=np.float32).view(np.uint32)
    if got.shape != bits.shape:
        sys.exit(f"{kind}: shape {got.shape}, expected {bits.shape}")
    mismatched = np.argwhere(got != bits)
    if len(mismatched):
        i, j = mismatched[0]
        sys.exit(f"{kind}: {len(mismatched)} values differ; first: word {keys[i]!r} value {j}: "
                 f"{got[i, j]:08x} != {bits[i, j]:08x}")
    print(f"{kind}: gensim read {len(keys)} words x {bits.shape[1]} values, all bit-exact")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    text_path, binary_path, expected_path = sys.argv[1:]
    keys, bits = read_expected(expected_path)
    check(text_path, False, keys, bits)
    check(binary_path, True, keys, bits)


if __name__ == "__main__":
    main()
