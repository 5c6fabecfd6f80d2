"""The reference side of scripts/bench.sh: gensim (and fastText, when its package is
installed) on the same corpus and parameters as embedscope, side by side with embedscope's
native runs: training times and their ratios, and top-10 neighbour agreement.

Usage: bench_gensim.py CORPUS [--native LABEL KIND SECONDS CPU_SECONDS VECTORS]... [WORD...]

Each --native names an embedscope run: a label, its model (sg or cbow), its training time
in seconds, the CPU seconds of its whole process and its vectors (word2vec binary). Each
row prints "cores": CPU time over wall time, how many cores the run actually had (on a
shared machine a run can get less than it asked for). gensim trains with word2vec defaults on
whitespace tokens (LineSentence): skip-gram with workers=1 and workers=2, skip-gram with
another seed (how far two gensim runs agree), and CBOW twice (at word2vec.c's learning
rate for it, 0.05, as embedscope; gensim's own default is 0.025). Times are train-only
(build_vocab is left out), as embedscope's are. Agreement is the mean Jaccard index of the
top-10 cosine neighbours (the whole vocabulary, the word itself left out) of the 1,000 most
frequent words, against gensim's workers=1 run of the same model kind.
"""

import argparse
import os
import sys
import tempfile
import time

import numpy as np
from gensim.models import KeyedVectors, Word2Vec
from gensim.models.word2vec import LineSentence

EPOCHS = 5
TOP_WORDS = 1000
K = 10

parser = argparse.ArgumentParser()
parser.add_argument("corpus")
parser.add_argument("words", nargs="*")
parser.add_argument("--native", nargs=5, action="append", default=[],
                    metavar=("LABEL", "KIND", "SECONDS", "CPU_SECONDS", "VECTORS"))
args = parser.parse_args()
sentences = LineSentence(args.corpus)


def gensim_run(sg, workers, seed):
    # gensim's alpha is 0.025 for both models; word2vec.c's (and embedscope's) CBOW takes 0.05.
    model = Word2Vec(vector_size=100, window=5, negative=5, sample=1e-3, min_count=5,
                     sg=sg, hs=0, workers=workers, seed=seed, alpha=0.025 if sg else 0.05)
    model.build_vocab(sentences)
    started, cpu = time.perf_counter(), time.process_time()
    model.train(sentences, total_examples=model.corpus_count, epochs=EPOCHS)
    seconds = time.perf_counter() - started
    cpu_seconds[id(model.wv)] = time.process_time() - cpu
    return model.wv, seconds, model.corpus_total_words * EPOCHS


# CPU seconds of each run, keyed by its vectors' id: with the wall time they show how many
# cores a run had, which on a shared machine tells a slow run from a starved one.
cpu_seconds = {}


def neighbour_sets(wv, words):
    """Top-K neighbours of each of `words` in `wv`, as sets of words."""
    vectors = wv.vectors / np.maximum(np.linalg.norm(wv.vectors, axis=1, keepdims=True), 1e-12)
    rows = np.array([wv.key_to_index[w] for w in words])
    sims = vectors[rows] @ vectors.T
    sims[np.arange(len(rows)), rows] = -np.inf
    top = np.argpartition(-sims, K, axis=1)[:, :K]
    return [set(wv.index_to_key[j] for j in row) for row in top]


def agreement(wv, reference):
    """Mean Jaccard index of top-K neighbours over the reference's TOP_WORDS most frequent words."""
    words = [w for w in reference.index_to_key[:TOP_WORDS] if w in wv.key_to_index]
    ours, theirs = neighbour_sets(wv, words), neighbour_sets(reference, words)
    return float(np.mean([len(a & b) / len(a | b) for a, b in zip(ours, theirs)])), len(words)


def fasttext_run(threads):
    """fastText skip-gram without subwords (minn 0, maxn 0, and so no subword buckets), or
    None and why not."""
    try:
        import fasttext
    except ImportError as err:
        return None, f"fastText is not installed in this venv ({err}); scripts/setup.sh --gensim --fasttext tries to"
    started, cpu = time.perf_counter(), time.process_time()
    try:
        model = fasttext.train_unsupervised(args.corpus, model="skipgram", dim=100, ws=5, neg=5, t=1e-3,
                                            minCount=5, epoch=EPOCHS, lr=0.025, minn=0, maxn=0,
                                            bucket=0, thread=threads, verbose=0)
    except RuntimeError as err:
        # fastText 0.9.3 stopped so on this corpus with 2 threads, and in some 1-thread runs.
        return None, f"fastText's training failed: {err}"
    seconds = time.perf_counter() - started
    # fastText's timing includes reading the vocabulary (one pass over the corpus).
    with tempfile.NamedTemporaryFile("w", suffix=".vec", delete=False) as out:
        words = model.get_words()
        out.write(f"{len(words)} {model.get_dimension()}\n")
        for word in words:
            out.write(word + " " + " ".join(f"{x:.6f}" for x in model.get_word_vector(word)) + "\n")
    wv = KeyedVectors.load_word2vec_format(out.name)
    os.unlink(out.name)
    cpu_seconds[id(wv)] = time.process_time() - cpu
    return (wv, seconds), None


QUALITY_TARGET = 0.46


def row(label, seconds, corpus_words, quality=None, target=None, cpu=None):
    text = f"{label:<34} {seconds:7.2f} s {corpus_words / seconds:>10,.0f} corpus words/s"
    if cpu is not None:
        text += f"  cores {cpu / seconds:4.2f}"
    if quality is not None:
        text += f"   top-{K} agreement {quality[0]:.3f}"
        if target is not None:
            text += f" (target >= {QUALITY_TARGET}: " + ("met" if quality[0] >= QUALITY_TARGET else "MISSED")
            text += f"; two gensim runs: {target:.3f})"
    print(text, flush=True)


import gensim  # noqa: E402  (for its version only)

print(f"gensim {gensim.__version__}; each row: train-only time, speed, and for vectors the mean "
      f"Jaccard of top-{K} neighbours of the {TOP_WORDS:,} most frequent words against gensim "
      f"workers=1 (same model kind)", flush=True)
sg1, sg1_s, corpus_words = gensim_run(sg=1, workers=1, seed=1)
row("gensim skip-gram workers=1 (ref)", sg1_s, corpus_words, cpu=cpu_seconds[id(sg1)])
sg2, sg2_s, _ = gensim_run(sg=1, workers=2, seed=1)
row("gensim skip-gram workers=2", sg2_s, corpus_words, agreement(sg2, sg1), cpu=cpu_seconds[id(sg2)])
other, other_s, _ = gensim_run(sg=1, workers=1, seed=2)
sg_seeds = agreement(other, sg1)[0]
row("gensim skip-gram workers=1 seed 2", other_s, corpus_words, (sg_seeds,), cpu=cpu_seconds[id(other)])
cbow1, cbow1_s, _ = gensim_run(sg=0, workers=1, seed=1)
row("gensim CBOW workers=1 (ref)", cbow1_s, corpus_words, cpu=cpu_seconds[id(cbow1)])
cbow2, cbow2_s, _ = gensim_run(sg=0, workers=2, seed=2)
cbow_seeds = agreement(cbow2, cbow1)[0]
row("gensim CBOW workers=2 seed 2", cbow2_s, corpus_words, (cbow_seeds,), cpu=cpu_seconds[id(cbow2)])

native = {}
for label, kind, seconds, cpu, path in args.native:
    wv = KeyedVectors.load_word2vec_format(path, binary=True)
    seconds = float(seconds)
    native[label] = seconds
    quality = agreement(wv, cbow1 if kind == "cbow" else sg1)
    # The CPU time covers the whole process (reading the corpus too), the wall time training only.
    baseline = cbow_seeds if kind == "cbow" else sg_seeds
    row(f"embedscope {label}", seconds, corpus_words, quality, baseline, cpu=float(cpu))

fasttext_seconds = {}
for threads in (1, 2):
    result, why_not = fasttext_run(threads)
    if result is None:
        print(f"fastText skip-gram minn/maxn 0, {threads} thr: skipped: {why_not}")
        continue
    wv, seconds = result
    fasttext_seconds[threads] = seconds
    row(f"fastText skip-gram minn/maxn 0, {threads} thr", seconds, corpus_words, agreement(wv, sg1),
        cpu=cpu_seconds[id(wv)])


def ratio(name, numerator, denominator, target):
    got = numerator / denominator
    verdict = "" if target is None else (f"  (target >= {target}: " + ("met" if got >= target else "MISSED") + ")")
    print(f"{name:<52} {got:5.2f}x{verdict}")


print("\nspeed ratios (time of the second over time of the first):")
one, two = native.get("1 thread"), native.get("2 threads")
if one and two:
    ratio("embedscope 2 threads vs embedscope 1 thread", one, two, 1.8)
if two:
    ratio("embedscope 2 threads vs gensim workers=2", sg2_s, two, 2)
if one:
    ratio("embedscope 1 thread vs gensim workers=1", sg1_s, one, 3)
for threads, seconds in fasttext_seconds.items():
    mine = native.get("1 thread" if threads == 1 else "2 threads")
    if mine:
        ratio(f"embedscope {threads} thread(s) vs fastText {threads} thread(s)", seconds, mine, None)
if "CBOW 1 thread" in native:
    ratio("embedscope CBOW 1 thread vs gensim CBOW workers=1", cbow1_s, native["CBOW 1 thread"], None)

if args.words:
    print("\ngensim's neighbours (workers=1):")
for word in args.words:
    print(f"{word:<8} " + " ".join(w for w, _ in sg1.most_similar(word, topn=8)))
