"""Checks that `embedscope eval` gives gensim's own benchmark figures on the same vectors.

Usage:
    python tests/gensim_eval.py EMBEDSCOPE VECTORS

EMBEDSCOPE is the CLI binary, VECTORS a word2vec text file (most frequent word first). The
benchmarks are the copies shipped inside gensim (gensim/test/test_data): wordsim353.tsv and
simlex999.txt, which open with `#` comment lines, and questions-words.txt; plus SimLex-999
with an uncommented header line, which gensim skips as a line that is not a pair.

Each setting of `embedscope eval --json` is run against the gensim call it stands for:
KeyedVectors.evaluate_word_pairs (Spearman, Pearson, OOV ratio) and evaluate_word_analogies
(3CosAdd accuracy per section and overall, and the questions covered). Every figure must
agree within 0.001, and counts exactly. Exits non-zero on the first difference.

The settings are run twice: on VECTORS, and on a copy with 26,000 filler words (random
vectors) in front, so that the benchmarks' words rank beyond 30,000 and the defaults'
restrictions (30,000 and 300,000 words) decide what is covered.
"""

import json
import os
import subprocess
import sys
import tempfile

import gensim
import numpy as np
from gensim.models import KeyedVectors
from gensim.test.utils import datapath

TOLERANCE = 1e-3
N_FILLER = 26_000

WORDSIM = datapath("wordsim353.tsv")
SIMLEX = datapath("simlex999.txt")
QUESTIONS = datapath("questions-words.txt")


def settings(n_words, cut):
    """(name, embedscope flags, gensim keyword arguments for pairs, for analogies)."""
    return [
        # Our defaults: case-sensitive; analogies within 30,000 words, pairs within all.
        ("embedscope's defaults", [],
         dict(case_insensitive=False, restrict_vocab=n_words),
         dict(case_insensitive=False, restrict_vocab=30000)),
        # --gensim must be gensim's defaults, so gensim is called without arguments.
        ("--gensim", ["--gensim"], {}, {}),
        # A restriction that cuts the vocabulary, ignoring case.
        (f"--restrict {cut} --ignore-case", ["--restrict", str(cut), "--ignore-case"],
         dict(case_insensitive=True, restrict_vocab=cut),
         dict(case_insensitive=True, restrict_vocab=cut)),
    ]


def embedscope_eval(binary, vectors, flags, analogies=None, similarity=None):
    args = [binary, "eval", vectors, "--json", *flags]
    if analogies:
        args += ["--analogies", analogies]
    if similarity:
        args += ["--similarity", similarity]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"embedscope eval failed: {' '.join(args)}\n{run.stderr.strip()}")
    return json.loads(run.stdout)


class Comparison:
    def __init__(self):
        self.failures = []
        self.largest = 0.0

    def figure(self, label, ours, theirs, tolerance=TOLERANCE):
        ok = ours is not None and theirs is not None and abs(ours - theirs) <= tolerance
        if ok:
            self.largest = max(self.largest, abs(ours - theirs))
        print(f"  {label:70} embedscope {fmt(ours):>9}   gensim {fmt(theirs):>9}   {'ok' if ok else 'DIFFERS'}")
        if not ok:
            self.failures.append(label)

    def enough(self, label, count, least):
        """Guards against a comparison that agrees because it compares nothing."""
        if count < least:
            print(f"  {label}: only {count}, the comparison needs at least {least}")
            self.failures.append(label)


def fmt(value):
    return "none" if value is None else f"{value:.4f}"


def compare_pairs(check, kv, binary, vectors, name, flags, kwargs, path):
    ours = embedscope_eval(binary, vectors, flags, similarity=path)["similarity"]
    pearson, spearman, oov_percent = kv.evaluate_word_pairs(path, **kwargs)
    label = f"{name}: {os.path.basename(path)}"
    check.enough(f"{label}: pairs found", ours["found"], 20)
    check.figure(f"{label}: Spearman", ours["spearman"], float(spearman.statistic))
    check.figure(f"{label}: Pearson", ours["pearson"], float(pearson.statistic))
    check.figure(f"{label}: OOV ratio", ours["oovRatio"], oov_percent / 100)


def compare_analogies(check, kv, binary, vectors, name, flags, kwargs):
    ours = embedscope_eval(binary, vectors, flags, analogies=QUESTIONS)["analogies"]
    score, sections = kv.evaluate_word_analogies(QUESTIONS, **kwargs)
    # With dummy4unknown every question counts, so its accuracy is correct / questions.
    _, with_unknown = kv.evaluate_word_analogies(QUESTIONS, dummy4unknown=True, **kwargs)
    *theirs, total = sections
    label = f"{name}: questions-words.txt"
    if [s["section"] for s in theirs] != [s["name"] for s in ours["sections"]]:
        check.failures.append(f"{label}: section names")
        print(f"  {label}: sections differ: {[s['section'] for s in theirs]} vs {ours['sections']}")
        return
    check.enough(f"{label}: questions covered", ours["overall"]["covered"], 100)
    for mine, their, unknown in zip([*ours["sections"], ours["overall"]], [*theirs, total], with_unknown):
        covered = len(their["correct"]) + len(their["incorrect"])
        questions = len(unknown["correct"]) + len(unknown["incorrect"])
        if (mine["covered"], mine["questions"]) != (covered, questions):
            check.failures.append(f"{label}: {mine['name']} counts")
            print(f"  {label}: {mine['name']}: covered/questions {mine['covered']}/{mine['questions']}, "
                  f"gensim {covered}/{questions}")
            continue
        if covered == 0:
            continue  # Neither has an accuracy (gensim reports 0.0, embedscope null).
        check.figure(f"{label}: {mine['name']} 3CosAdd accuracy",
                     mine["accuracyCosAdd"], len(their["correct"]) / covered)
    check.figure(f"{label}: overall, the score gensim returns", ours["overall"]["accuracyCosAdd"], score)
    # The README says: gensim's dummy4unknown=True accuracy is our accuracy times coverage.
    overall = ours["overall"]
    check.figure(f"{label}: accuracy x coverage vs dummy4unknown=True",
                 overall["accuracyCosAdd"] * overall["coverage"],
                 len(with_unknown[-1]["correct"]) / overall["questions"])


def write_padded(vectors, path):
    """VECTORS behind N_FILLER words with seeded random vectors, in word2vec text format."""
    with open(vectors, encoding="utf-8") as src:
        n_words, dim = map(int, src.readline().split())
        rows = src.readlines()
    filler = np.random.default_rng(7).standard_normal((N_FILLER, dim), dtype=np.float32)
    with open(path, "w", encoding="utf-8") as dst:
        dst.write(f"{N_FILLER + n_words} {dim}\n")
        for i, row in enumerate(filler):
            dst.write(f"filler{i:05} {' '.join(f'{x:.6f}' for x in row)}\n")
        dst.writelines(rows)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, vectors = sys.argv[1:]
    check = Comparison()
    with tempfile.TemporaryDirectory() as tmp:
        # SimLex-999 with a header that is not a comment, as in the file from its authors.
        headed = os.path.join(tmp, "simlex999-header.txt")
        with open(SIMLEX, encoding="utf-8") as src, open(headed, "w", encoding="utf-8") as dst:
            dst.write("word1\tword2\tSimLex999\n")
            dst.writelines(line for line in src if not line.startswith("#"))
        padded = os.path.join(tmp, "padded.txt")
        write_padded(vectors, padded)
        # The cut keeps the 2,000 most frequent trained words.
        for path, cut in [(vectors, 2_000), (padded, N_FILLER + 2_000)]:
            kv = KeyedVectors.load_word2vec_format(path)
            print(f"== {len(kv)} words from {os.path.basename(path)}")
            for name, flags, pair_kwargs, analogy_kwargs in settings(len(kv), cut):
                name = f"{os.path.basename(path)} {name}"
                print(f"{name} (gensim: pairs {pair_kwargs or 'defaults'}, "
                      f"analogies {analogy_kwargs or 'defaults'})")
                for pairs in [WORDSIM, SIMLEX, headed]:
                    compare_pairs(check, kv, binary, path, name, flags, pair_kwargs, pairs)
                compare_analogies(check, kv, binary, path, name, flags, analogy_kwargs)
    if check.failures:
        sys.exit(f"{len(check.failures)} figures differ from gensim's: {check.failures}")
    print(f"embedscope eval agrees with gensim {gensim.__version__} on every figure within {TOLERANCE} "
          f"(largest difference {check.largest:.1e})")


if __name__ == "__main__":
    main()
