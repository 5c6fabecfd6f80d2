"""Writes generated word vectors with a known neighbourhood structure, for benchmarking maps
of more words than the King James Bible has (scripts/bench-projection.sh).

usage: clustered_vectors.py OUT.bin N [SEED]

N vectors of 100 dimensions as a word2vec binary file, words w0, w1, …: 500 clusters in
50 groups of 10 (a cluster's centre is its group's centre plus an offset), and within a
cluster the points spread over a 4-dimensional subspace of its own (a random 100 × 4 basis)
plus a little isotropic noise, so a point's nearest neighbours are those near it on its
cluster's 4-dimensional patch: a structure a 2-D map can keep part of, unlike isotropic
Gaussian clusters, whose nearest neighbours are random within a cluster. Word i belongs to
cluster i mod 500, so every prefix of the file (the "most frequent words") holds every
cluster.
"""

import sys

import numpy as np
from gensim.models import KeyedVectors

DIM = 100
GROUPS = 50
PER_GROUP = 10
INTRINSIC = 4


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rng = np.random.default_rng(seed)
    clusters = GROUPS * PER_GROUP
    groups = rng.standard_normal((GROUPS, DIM)) * 1.0
    centres = np.repeat(groups, PER_GROUP, axis=0) + rng.standard_normal((clusters, DIM)) * 0.5
    bases = rng.standard_normal((clusters, DIM, INTRINSIC)) * 0.15
    cluster = np.arange(n) % clusters
    z = rng.standard_normal((n, INTRINSIC))
    x = centres[cluster] + np.einsum("nij,nj->ni", bases[cluster], z) + rng.standard_normal((n, DIM)) * 0.02
    kv = KeyedVectors(DIM, dtype=np.float32)
    kv.add_vectors([f"w{i}" for i in range(n)], x.astype(np.float32))
    kv.save_word2vec_format(out, binary=True)


if __name__ == "__main__":
    main()
