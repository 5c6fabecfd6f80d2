"""The reference side of scripts/bench-projection.sh: openTSNE and umap-learn on the same
vectors as embedscope's maps, and one measure for every map.

usage: projection_reference.py VECTORS N SEED [NAME=MAP.csv:SECONDS ...]

VECTORS is a word2vec binary file, most frequent word first (as `embedscope train` writes
it); the N first words are mapped. Each NAME=MAP.csv:SECONDS is one of embedscope's maps
(`embedscope project` CSV, word,x,y) and the seconds it took. The script runs openTSNE
(perplexity 30, cosine, the seed, one thread) and umap-learn (15 neighbours, min_dist 0.1,
cosine, the seed, which makes it single-threaded), then prints for every map the share of
each word's 10 nearest neighbours by cosine in the vectors that are among its 10 nearest on
the map (Euclidean), and its time, with the ratios of embedscope's maps to the reference of
the same method. One measure for all maps, so the comparison is like for like.
"""

import csv
import os
import sys
import time
import warnings

# One thread everywhere, as embedscope's CLI uses one: BLAS, numba and openTSNE alike.
for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ[variable] = "1"

# umap-learn warns that a seed makes it single-threaded, which is what is wanted here.
warnings.filterwarnings("ignore", category=UserWarning)

import numpy as np  # noqa: E402
from gensim.models import KeyedVectors  # noqa: E402

K = 10


def top_k(distances_of, n, k):
    """The k nearest of each row (itself left out), in blocks of rows to bound memory."""
    out = np.empty((n, k), dtype=np.int64)
    for start in range(0, n, 2048):
        d = distances_of(start, min(n, start + 2048))
        rows = np.arange(start, min(n, start + 2048))
        d[rows - start, rows] = np.inf
        part = np.argpartition(d, k, axis=1)[:, :k]
        out[start : start + len(rows)] = part
    return out


def cosine_neighbours(x, k):
    unit = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-30)
    return top_k(lambda a, b: 1.0 - unit[a:b] @ unit.T, len(x), k)


def map_neighbours(y, k):
    y = y.astype(np.float64)
    sq = (y * y).sum(axis=1)
    return top_k(lambda a, b: sq[a:b, None] + sq[None, :] - 2.0 * y[a:b] @ y.T, len(y), k)


def preservation(truth, coords):
    found = map_neighbours(coords, K)
    kept = sum(len(set(t) & set(f)) for t, f in zip(truth, found))
    return kept / (len(truth) * K)


def read_map(path, words):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["word", "x", "y"], rows[0]
    assert [r[0] for r in rows[1:]] == words, f"{path}: the words differ from the vectors' first {len(words)}"
    return np.array([[float(r[1]), float(r[2])] for r in rows[1:]])


def main():
    vectors_path, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    ours = [arg.split("=", 1) for arg in sys.argv[4:]]
    kv = KeyedVectors.load_word2vec_format(vectors_path, binary=True)
    words = kv.index_to_key[:n]
    x = kv.vectors[:n].astype(np.float32)
    print(f"{n:,} words x {x.shape[1]} dims from {vectors_path}")
    truth = cosine_neighbours(x, K)

    from openTSNE import TSNE

    started = time.perf_counter()
    tsne = TSNE(perplexity=30, metric="cosine", random_state=seed, n_jobs=1).fit(x)
    tsne_seconds = time.perf_counter() - started

    import umap

    # numba compiles umap-learn on its first fit in a process; a fit of random points first
    # keeps that out of the timing and reports it apart. Over 4,096 points, so it compiles the
    # NN-descent path that umap-learn takes for the real data too.
    started = time.perf_counter()
    noise = np.random.default_rng(seed).standard_normal((4500, x.shape[1])).astype(np.float32)
    umap.UMAP(n_neighbors=15, min_dist=0.1, metric="cosine", random_state=seed, n_epochs=5).fit_transform(noise)
    jit_seconds = time.perf_counter() - started
    started = time.perf_counter()
    umap_coords = umap.UMAP(n_neighbors=15, min_dist=0.1, metric="cosine", random_state=seed).fit_transform(x)
    umap_seconds = time.perf_counter() - started

    reference = {
        "tsne": ("openTSNE", preservation(truth, np.asarray(tsne)), tsne_seconds),
        "umap": ("umap-learn", preservation(truth, umap_coords), umap_seconds),
    }
    print(f"{'map':<22} {'10-NN kept':>10} {'seconds':>8}   ours / reference")
    for name, (label, kept, seconds) in reference.items():
        print(f"{label:<22} {kept:>10.3f} {seconds:>8.2f}")
    print(f"{'(umap-learn warm-up':<22} {'':>10} {jit_seconds:>8.2f}   numba compiling, in a first fit, not counted)")
    for name, value in ours:
        path, seconds = value.rsplit(":", 1)
        kept, seconds = preservation(truth, read_map(path, words)), float(seconds)
        line = f"{'embedscope ' + name:<22} {kept:>10.3f} {seconds:>8.2f}"
        if name in reference:
            label, ref_kept, ref_seconds = reference[name]
            line += f"   preservation {kept / ref_kept:.2f}x {label}'s, time {seconds / ref_seconds:.2f}x"
        print(line)


if __name__ == "__main__":
    main()
