"""The reference side of scripts/bench-projection.sh: openTSNE and umap-learn on the same
vectors as embedscope's maps, and one measure for every map.

usage: projection_reference.py [--threads 1|default] [--no-reference] VECTORS N SEED [NAME=MAP.csv:SECONDS ...]

VECTORS is a word2vec binary file, most frequent word first (as `embedscope train` writes
it); the N first words are mapped. Each NAME=MAP.csv:SECONDS is one of embedscope's maps
(`embedscope project` CSV, word,x,y) and the seconds it took. The script runs openTSNE
(perplexity 30, cosine, the seed) and umap-learn (15 neighbours, min_dist 0.1, cosine), then
prints for every map the share of each word's 10 nearest neighbours by cosine in the vectors
that are among its 10 nearest on the map (Euclidean), and its time, with the ratios of
embedscope's maps to the reference of the same method. One measure for all maps, so the
comparison is like for like. Over 50,000 words the share is measured on a sample of 10,000
words (every N/10,000-th; their neighbours among all N, in the vectors and on the map).

--threads 1 (the default) runs both on one thread: BLAS, numba and openTSNE, and umap-learn
with the seed (which makes it single-threaded). --threads default runs them as they run out
of the box: openTSNE with its default n_jobs=1 and the seed, umap-learn without a seed, so
numba's parallel loops use every core. --no-reference measures embedscope's maps only.
"""

import csv
import os
import sys
import time
import warnings

ARGS = sys.argv[1:]
THREADS = "1"
if ARGS[:1] == ["--threads"]:
    THREADS, ARGS = ARGS[1], ARGS[2:]
REFERENCE = True
if ARGS[:1] == ["--no-reference"]:
    REFERENCE, ARGS = False, ARGS[1:]
if THREADS == "1":
    # One thread everywhere, as embedscope's CLI uses one: BLAS, numba and openTSNE alike.
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
        os.environ[variable] = "1"

# umap-learn warns that a seed makes it single-threaded, which is what is wanted here.
warnings.filterwarnings("ignore", category=UserWarning)

import numpy as np  # noqa: E402
from gensim.models import KeyedVectors  # noqa: E402

K = 10
# Maps of more words are measured on a sample of this many.
SAMPLE = 10_000


def top_k(distances_of, rows, n, k):
    """The k nearest of each of `rows` among all `n` (itself left out), in blocks of rows to
    bound memory: about 50 million distances a block (400 MB of float64 for the map's)."""
    out = np.empty((len(rows), k), dtype=np.int64)
    step = max(64, min(1024, 50_000_000 // n))
    for start in range(0, len(rows), step):
        block = rows[start : start + step]
        d = distances_of(block)
        d[np.arange(len(block)), block] = np.inf
        out[start : start + len(block)] = np.argpartition(d, k, axis=1)[:, :k]
    return out


def cosine_neighbours(x, rows, k):
    unit = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-30)
    return top_k(lambda block: 1.0 - unit[block] @ unit.T, rows, len(x), k)


def map_neighbours(y, rows, k):
    y = y.astype(np.float64)
    sq = (y * y).sum(axis=1)
    return top_k(lambda block: sq[block, None] + sq[None, :] - 2.0 * y[block] @ y.T, rows, len(y), k)


def preservation(truth, rows, coords):
    found = map_neighbours(coords, rows, K)
    kept = sum(len(set(t) & set(f)) for t, f in zip(truth, found))
    return kept / (len(truth) * K)


def read_map(path, words):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["word", "x", "y"], rows[0]
    assert [r[0] for r in rows[1:]] == words, f"{path}: the words differ from the vectors' first {len(words)}"
    return np.array([[float(r[1]), float(r[2])] for r in rows[1:]])


def main():
    vectors_path, n, seed = ARGS[0], int(ARGS[1]), int(ARGS[2])
    ours = [arg.split("=", 1) for arg in ARGS[3:]]
    kv = KeyedVectors.load_word2vec_format(vectors_path, binary=True)
    words = kv.index_to_key[:n]
    x = kv.vectors[:n].astype(np.float32)
    rows = np.arange(n) if n <= 50_000 else np.arange(SAMPLE) * n // SAMPLE
    sampled = "" if len(rows) == n else f", 10-NN measured on {len(rows):,} of them"
    print(f"{n:,} words x {x.shape[1]} dims from {vectors_path}{sampled}")
    truth = cosine_neighbours(x, rows, K)
    reference = run_references(x, seed, rows, truth) if REFERENCE else {}
    print(f"{'map':<22} {'10-NN kept':>10} {'seconds':>8}   ours / reference")
    for name, (label, kept, seconds) in reference.items():
        print(f"{label:<22} {kept:>10.3f} {seconds:>8.2f}")
    for name, value in ours:
        path, seconds = value.rsplit(":", 1)
        kept, seconds = preservation(truth, rows, read_map(path, words)), float(seconds)
        line = f"{'embedscope ' + name:<22} {kept:>10.3f} {seconds:>8.2f}"
        if name in reference:
            label, ref_kept, ref_seconds = reference[name]
            line += f"   preservation {kept / ref_kept:.2f}x {label}'s, time {seconds / ref_seconds:.2f}x"
        print(line)


def run_references(x, seed, rows, truth):
    """openTSNE's and umap-learn's maps of `x`: {method: (label, kept, seconds)}."""
    threads = os.cpu_count() if THREADS == "default" else 1
    print(f"threads: openTSNE 1 (n_jobs=1), umap-learn {threads}")

    from openTSNE import TSNE

    started = time.perf_counter()
    tsne = TSNE(perplexity=30, metric="cosine", random_state=seed, n_jobs=1).fit(x)
    tsne_seconds = time.perf_counter() - started
    print(f"openTSNE: {tsne_seconds:.2f} s", flush=True)

    import umap

    # numba compiles umap-learn on its first fit in a process; a fit of random points first
    # keeps that out of the timing and reports it apart. Over 4,096 points, so it compiles the
    # NN-descent path that umap-learn takes for the real data too.
    started = time.perf_counter()
    noise = np.random.default_rng(seed).standard_normal((4500, x.shape[1])).astype(np.float32)
    umap_seed = {} if THREADS == "default" else {"random_state": seed}
    umap.UMAP(n_neighbors=15, min_dist=0.1, metric="cosine", n_epochs=5, **umap_seed).fit_transform(noise)
    jit_seconds = time.perf_counter() - started
    started = time.perf_counter()
    umap_coords = umap.UMAP(n_neighbors=15, min_dist=0.1, metric="cosine", **umap_seed).fit_transform(x)
    umap_seconds = time.perf_counter() - started
    print(f"(umap-learn warm-up {jit_seconds:.2f} s: numba compiling, in a first fit, not counted)")
    return {
        "tsne": ("openTSNE", preservation(truth, rows, np.asarray(tsne)), tsne_seconds),
        "umap": ("umap-learn", preservation(truth, rows, umap_coords), umap_seconds),
    }


if __name__ == "__main__":
    main()
