"""The reference side of scripts/bench.sh: gensim (and fastText, when its package is
installed) on the same corpus and parameters as embedscope, side by side with embedscope's
native runs: training times and their ratios, and top-10 neighbour agreement.

Usage: bench_gensim.py CORPUS [--native LABEL KIND SECONDS CPU_SECONDS VECTORS]...
                        [--browser LABEL SECONDS CPU_SECONDS]... [WORD...]

Each --native names an embedscope run: a label, its model (sg or cbow), its training time
in seconds, the CPU seconds of its whole process and its vectors (word2vec binary). Each
--browser names a run in Chromium (scripts/bench-threads.mjs): a label ("1 thread", "2
threads", ...), its training time and the CPU seconds of the renderer over the whole run
(page and workers, reading and preparing the text too). Each
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
import subprocess
import sys
import tempfile
import time

EPOCHS = 5


def fasttext_child(threads, vec_path, corpus):
    """One fastText training in this (fresh) process: writes the vectors to `vec_path` and
    prints the train time and this process's CPU seconds."""
    import fasttext
    # fasttext-wheel's training stops at random with "Encountered NaN" on the same corpus and
    # settings (a defect of the wheel, see tests/fasttext_compat.py): a run that meets it is
    # run again, and only the run that made the model is timed.
    for attempt in range(1, 11):
        started, cpu = time.perf_counter(), time.process_time()
        try:
            model = fasttext.train_unsupervised(corpus, model="skipgram", dim=100, ws=5, neg=5, t=1e-3,
                                                minCount=5, epoch=EPOCHS, lr=0.025, minn=0, maxn=0,
                                                bucket=0, thread=threads, verbose=0)
            break
        except RuntimeError as error:
            if "NaN" not in str(error) or attempt == 10:
                raise
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    with open(vec_path, "w") as out:
        words = model.get_words()
        out.write(f"{len(words)} {model.get_dimension()}\n")
        for word in words:
            out.write(word + " " + " ".join(f"{x:.6f}" for x in model.get_word_vector(word)) + "\n")
    print(seconds, cpu)


if len(sys.argv) == 5 and sys.argv[1] == "--fasttext-child":
    fasttext_child(int(sys.argv[2]), sys.argv[3], sys.argv[4])
    sys.exit(0)

import numpy as np  # noqa: E402
from gensim.models import KeyedVectors, Word2Vec  # noqa: E402
from gensim.models.word2vec import LineSentence  # noqa: E402
TOP_WORDS = 1000
K = 10

parser = argparse.ArgumentParser()
parser.add_argument("corpus")
parser.add_argument("words", nargs="*")
parser.add_argument("--native", nargs=5, action="append", default=[],
                    metavar=("LABEL", "KIND", "SECONDS", "CPU_SECONDS", "VECTORS"))
parser.add_argument("--browser", nargs=3, action="append", default=[],
                    metavar=("LABEL", "SECONDS", "CPU_SECONDS"))
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


FASTTEXT_ATTEMPTS = 3


def fasttext_run(threads):
    """fastText skip-gram without subwords (minn 0, maxn 0, and so no subword buckets), each
    attempt in a fresh process: ((vectors, seconds, failed attempts), None), or (None, why not).

    fastText 0.9.3's Python package stops with "Encountered NaN." in some runs on this corpus
    (most 1-thread runs inside this script, right at the start: a second training in one
    process failed within 0.5 s where the first had trained). The NaN check is fastText's own
    (`DenseMatrix::dotRow`); what produces the NaN is inside fastText, not in its input: the
    same call trains in a fresh process. So each attempt gets one, up to FASTTEXT_ATTEMPTS,
    and the row says how many failed."""
    try:
        import fasttext  # noqa: F401
    except ImportError as err:
        return None, f"fastText is not installed in this venv ({err}); scripts/setup.sh --gensim --fasttext tries to"
    failures = []
    for _ in range(FASTTEXT_ATTEMPTS):
        with tempfile.TemporaryDirectory() as tmp:
            vec = os.path.join(tmp, "fasttext.vec")
            child = subprocess.run([sys.executable, __file__, "--fasttext-child", str(threads), vec, args.corpus],
                                   capture_output=True, text=True)
            if child.returncode == 0:
                # fastText's timing includes reading the vocabulary (one pass over the corpus).
                seconds, cpu = map(float, child.stdout.split())
                wv = KeyedVectors.load_word2vec_format(vec)
                cpu_seconds[id(wv)] = cpu
                return (wv, seconds, len(failures)), None
            lines = child.stderr.strip().splitlines()
            failures.append(lines[-1] if lines else f"exit status {child.returncode}")
    return None, f"fastText's training failed in {len(failures)} fresh processes: {failures[-1]}"


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

native, native_cpu = {}, {}
for label, kind, seconds, cpu, path in args.native:
    native_cpu[label] = float(cpu)
    wv = KeyedVectors.load_word2vec_format(path, binary=True)
    seconds = float(seconds)
    native[label] = seconds
    quality = agreement(wv, cbow1 if kind == "cbow" else sg1)
    # The CPU time covers the whole process (reading the corpus too), the wall time training only.
    baseline = cbow_seeds if kind == "cbow" else sg_seeds
    row(f"embedscope {label}", seconds, corpus_words, quality, baseline, cpu=float(cpu))

browser = {}
for label, seconds, cpu in args.browser:
    browser[label] = float(seconds)
    row(f"browser {label}", float(seconds), corpus_words, cpu=float(cpu))

fasttext_seconds = {}
for threads in (1, 2):
    result, why_not = fasttext_run(threads)
    if result is None:
        print(f"fastText skip-gram minn/maxn 0, {threads} thr: skipped: {why_not}")
        continue
    wv, seconds, failed = result
    fasttext_seconds[threads] = seconds
    row(f"fastText skip-gram minn/maxn 0, {threads} thr", seconds, corpus_words, agreement(wv, sg1),
        cpu=cpu_seconds[id(wv)])
    if failed:
        print(f"  (after {failed} attempt(s) that stopped with \"Encountered NaN.\" or another error)")


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
    # Under load a run's wall time also counts what else ran; its CPU time counts only its
    # own work (embedscope's covers its whole process, reading the corpus too).
    ratio("  the same by CPU time (user + system)", cpu_seconds[id(sg1)], native_cpu["1 thread"], 3)
for threads, seconds in fasttext_seconds.items():
    mine = native.get("1 thread" if threads == 1 else "2 threads")
    if mine:
        ratio(f"embedscope {threads} thread(s) vs fastText {threads} thread(s)", seconds, mine, None)
s_one, s_two = native.get("shared noise 1 thread"), native.get("shared noise 2 threads")
if s_one and s_two:
    ratio("shared noise: 2 threads vs 1 thread", s_one, s_two, None)
if s_one and one:
    ratio("shared noise 1 thread vs embedscope 1 thread", one, s_one, None)
    ratio("shared noise 1 thread vs gensim workers=1", sg1_s, s_one, None)
if s_two:
    ratio("shared noise 2 threads vs gensim workers=2", sg2_s, s_two, None)
if "CBOW 1 thread" in native:
    ratio("embedscope CBOW 1 thread vs gensim CBOW workers=1", cbow1_s, native["CBOW 1 thread"], None)
b_one, b_two = browser.get("1 thread"), browser.get("2 threads")
if b_one and b_two:
    ratio("browser 2 threads vs browser 1 thread", b_one, b_two, 1.7)
if b_two:
    ratio("browser 2 threads vs gensim workers=2", sg2_s, b_two, 1)
if b_one and one:
    ratio("browser 1 thread vs embedscope native 1 thread", one, b_one, None)
bs_one, bs_two = browser.get("shared noise 1 thread"), browser.get("shared noise 2 threads")
if bs_one and bs_two:
    ratio("browser shared noise: 2 threads vs 1 thread", bs_one, bs_two, None)
if bs_two:
    ratio("browser shared noise 2 threads vs gensim workers=2", sg2_s, bs_two, None)

if args.words:
    print("\ngensim's neighbours (workers=1):")
for word in args.words:
    print(f"{word:<8} " + " ".join(w for w, _ in sg1.most_similar(word, topn=8)))
