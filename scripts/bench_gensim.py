"""The gensim side of scripts/bench.sh: word2vec defaults, one worker, whitespace tokens.

Usage: bench_gensim.py CORPUS WORD...
Prints the training time, corpus words per second and the neighbours of each WORD.
"""

import sys
import time

from gensim.models import Word2Vec
from gensim.models.word2vec import LineSentence

corpus, words = sys.argv[1], sys.argv[2:]
sentences = LineSentence(corpus)
model = Word2Vec(vector_size=100, window=5, negative=5, sample=1e-3, min_count=5,
                 sg=1, hs=0, workers=1, seed=1)
model.build_vocab(sentences)
started = time.perf_counter()
model.train(sentences, total_examples=model.corpus_count, epochs=5)
seconds = time.perf_counter() - started
corpus_words = model.corpus_total_words * 5
print(f"trained {corpus_words} corpus words (5 epochs) in {seconds:.2f} s: "
      f"{corpus_words / seconds:.0f} corpus words/s; vocabulary {len(model.wv)} words")
for word in words:
    print(f"{word:<8} " + " ".join(w for w, _ in model.wv.most_similar(word, topn=8)))
