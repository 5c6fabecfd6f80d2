// The browser side of `npm run bench`: everything runs in a module worker, as in the app.
// 1. Trains on a corpus (fetched from the dev server) with the given parameters, timing
//    only the training steps, like the native CLI does.
// 2. Learns 8,000-token BPE vocabularies on the same corpus in both modes, in chunks of
//    merges as the app does, and times the learning and the encoding.
// 3. Times neighbour queries and PCA refreshes on synthetic vocabularies of 10k and 50k
//    words × 100 dimensions (the timings do not depend on what the vectors hold).
// 4. Loads a large pretrained file (100k × 300 by default) as the app does, in 4 MB slices,
//    and times that, a neighbour query and a PCA on it; reports the wasm memory, which
//    never shrinks, so its size is the peak of the wasm heap.
import init, { Session } from '../../www/pkg/embedscope.js';
import { LOAD_SLICE_BYTES, SNIFF_BYTES } from '../../www/protocol.js';

const time = (f) => {
  const start = performance.now();
  const result = f();
  return [performance.now() - start, result];
};

/** A session holding `text`, given as a file's bytes like the app gives it. */
function sessionWith(text) {
  const session = new Session();
  session.set_text(new TextEncoder().encode(text));
  return session;
}

function trainCorpus(text, epochs) {
  const session = sessionWith(text);
  const stats = session.prepare({ tokenizer: 'whitespace', epochs });
  let progress;
  const [ms] = time(() => {
    do progress = session.step(100_000);
    while (!progress.done);
  });
  session.free();
  return { stats, seconds: ms / 1000, tokensPerSec: progress.tokensPerSec, epochLosses: progress.epochLosses };
}

function learnBpe(text, mode) {
  const session = sessionWith(text);
  const params = { tokenizer: 'bpe', bpeVocabSize: 8000, bpeMode: mode, epochs: 1 };
  const [learnMs] = time(() => {
    let progress = session.bpe_begin(params);
    while (!progress.done) progress = session.bpe_step(500);
  });
  // prepare() reuses the learned merges, so this is encoding plus the vocabulary.
  const [encodeMs, stats] = time(() => session.prepare(params));
  session.free();
  return { mode, learnSeconds: learnMs / 1000, encodeSeconds: encodeMs / 1000, tokens: stats.tokens };
}

/** A text in which each of `n` distinct words occurs once, ten words a line. */
function syntheticText(n) {
  const lines = [];
  for (let i = 0; i < n; i += 10) {
    lines.push(Array.from({ length: Math.min(10, n - i) }, (_, j) => `w${i + j}`).join(' '));
  }
  return lines.join('\n');
}

function queryTimes(n) {
  const session = sessionWith(syntheticText(n));
  session.prepare({ tokenizer: 'whitespace', minCount: 1, dim: 100, epochs: 1 });
  const repeat = (count, f) => {
    let total = 0;
    for (let i = 0; i < count; i++) total += time(() => f(i))[0];
    return total / count;
  };
  // A refresh during training: the trainer moved on, so the vectors are copied out first.
  const refresh = repeat(5, () => {
    session.step(1);
    session.projection(300, 0, 1);
  });
  const neighbours = repeat(20, (i) => session.neighbours(`w${(i * 7919) % n}`, 10));
  session.free();
  return { words: n, neighboursMs: neighbours, pcaRefresh300Ms: refresh };
}

async function loadVectors(url) {
  const blob = await (await fetch(url)).blob();
  const session = new Session();
  const started = performance.now();
  const head = new Uint8Array(await blob.slice(0, SNIFF_BYTES).arrayBuffer());
  // A plain vectors file: its head as `file_head` gives a plain file's.
  const plan = session.open_plan([{ name: url, compression: null, entries: [], entry: null, innerName: url, head }], {});
  const format = plan.format;
  session.load_begin(format, url, undefined);
  for (let offset = 0; offset < blob.size; offset += LOAD_SLICE_BYTES) {
    session.load_push(new Uint8Array(await blob.slice(offset, offset + LOAD_SLICE_BYTES).arrayBuffer()));
  }
  const info = session.load_finish(blob.size);
  const seconds = (performance.now() - started) / 1000;
  const repeat = (count, f) => {
    const start = performance.now();
    for (let i = 0; i < count; i++) f(i);
    return (performance.now() - start) / count;
  };
  const neighboursMs = repeat(10, (i) => session.neighbours(`w${(i * 7919) % info.words}`, 10));
  const pcaMs = repeat(3, () => session.projection(300, 0, 1));
  session.free();
  return { ...info, seconds, neighboursMs, pcaMs };
}

self.onmessage = async ({ data }) => {
  try {
    const wasm = await init();
    const text = await (await fetch(data.corpus)).text();
    const training = trainCorpus(text, Number(data.epochs ?? 5));
    const bpe = ['cross', 'within'].map((mode) => learnBpe(text, mode));
    const trainingMemory = wasm.memory.buffer.byteLength;
    const queries = [10_000, 50_000].map(queryTimes);
    const vectors = data.vectors ? await loadVectors(data.vectors) : null;
    self.postMessage({
      training, bpe, queries, vectors, trainingMemory, peakMemory: wasm.memory.buffer.byteLength, userAgent: navigator.userAgent,
    });
  } catch (error) {
    self.postMessage({ error: String(error?.message ?? error) });
  }
};
