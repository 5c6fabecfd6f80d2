// @ts-check
// The questions the worker answers about the vectors it holds (neighbours, analogies, the
// vocabulary, a token's facts, the matrix, sampling, Zipf, the history of neighbours), the
// map's density layer, and evaluations on a benchmark, scored in slices: a newer evaluation
// supersedes one still running (the scheduler's 'evaluate' token).
import { post } from './messages.js';
import { wasm } from './modules.js';
import { fileText } from './file-bytes.js';
import { fileHead } from './opening.js';
import { Chunk } from './scheduler.js';

/** @typedef {import('../protocol.js').Handlers} Handlers */
/**
 * @typedef {'neighbours'|'analogy'|'complete'|'findWords'|'tokenInfo'|'density'|'matrixBand'|'matrixRow'
 *   |'wordSampling'|'zipf'|'neighbourHistory'|'evaluate'} QueryType
 */

/**
 * The handlers of the questions about the vectors.
 * @param {import('../pkg/embedscope.js').Session} session @param {import('./scheduler.js').Scheduler} scheduler
 * @returns {Pick<Handlers, QueryType>}
 */
export function queryHandlers(session, scheduler) {
  return {
    neighbours: ({ word, k }) => ({ word, neighbours: session.neighbours(word, k), built: session.built_from_ngrams(word) }),
    analogy: ({ a, b, c, k }) => {
      const { cosAdd, cosMul } = session.analogy(a, b, c, k);
      return { cosAdd, cosMul, built: [a, b, c].filter((word) => session.built_from_ngrams(word)) };
    },
    complete: ({ prefix, limit }) => ({ prefix, words: session.complete(prefix, limit) }),
    findWords: ({ needle, limit }) => ({ matches: session.find_words(needle, limit) }),
    tokenInfo: ({ token, maxLines }) => ({ info: session.token_info(token, maxLines) }),
    /**
     * The density layer of the map's points on a grid (src/plot/density.rs): here, off the
     * page's main thread; its values transferred, not copied.
     */
    density: ({ id, coords, columns, rows, range: [x0, x1, y0, y1], bandwidth }) => {
      const values = wasm.density_grid(coords, columns, rows, x0, x1, y0, y1, bandwidth);
      post({ type: 'density', id, values }, [values.buffer]);
    },
    /** A band of the vectors' matrix, for the Matrix card; its values transferred, not copied. */
    matrixBand: ({ id, firstRow, rows, firstCol, cols }) => {
      const band = session.matrix_band(firstRow, rows, firstCol, cols);
      post({ type: 'matrixBand', id, ...band }, band.outputValues ? [band.values.buffer, band.outputValues.buffer] : [band.values.buffer]);
    },
    matrixRow: ({ word }) => ({ row: session.matrix_row(word) }),
    wordSampling: ({ word, partners }) => ({ sampling: session.word_sampling(word, partners) }),
    zipf: ({ points }) => ({ zipf: session.zipf_curve(points) }),
    /** A word's neighbours at the end of each epoch (the session keeps them as it trains). */
    neighbourHistory: ({ word, k }) => ({ history: session.neighbour_history(word, k) }),
    evaluate: (request) => evaluate(session, scheduler, request),
  };
}

/**
 * Scores the vectors on a benchmark, in slices, posting `evalProgress` between them. A newer
 * evaluation replaces one still running, which then fails saying so. A benchmark file that is
 * a zip of several, none named, is answered with its files to choose from.
 * @param {import('../pkg/embedscope.js').Session} session @param {import('./scheduler.js').Scheduler} scheduler
 * @param {import('../protocol.js').EvaluateRequest} request
 */
async function evaluate(session, scheduler, { benchmark, restrict, ignoreCase, purpose }) {
  const token = scheduler.begin('evaluate');
  try {
    if (benchmark.kind === 'file' && benchmark.entry == null) {
      const plan = session.open_plan([fileHead(benchmark.file)], {});
      if (plan.kind === 'chooseEntry') return { entries: plan.entries, file: benchmark.file.name };
    }
    const text = benchmark.kind === 'file' ? await fileText(benchmark.file, benchmark.entry) : wasm.benchmark_text(benchmark.name);
    let progress = session.eval_begin(text, restrict ?? undefined, ignoreCase);
    const chunk = new Chunk(16, 1, 1_000_000);
    while (progress.done < progress.total) {
      post({ type: 'evalProgress', purpose, done: progress.done, total: progress.total });
      await scheduler.slice(token);
      progress = scheduler.timed(chunk, (questions) => session.eval_step(questions)).result;
    }
    return { report: session.eval_report() };
  } finally {
    token.end();
  }
}
