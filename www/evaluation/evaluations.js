// @ts-check
// Scoring the vectors on benchmarks, between EvaluationPanel and the worker: the person's
// evaluations (a built-in benchmark or their file) and the sanity check after training on
// the sample. They run one after another: the worker lets a newer evaluation replace a
// running one, and neither must replace the other. A report of vectors that gave way is not
// shown (the host says which model is current).

/** @typedef {import('./evaluation-panel.js').EvaluationPanel} EvaluationPanel */

export class Evaluations {
  /**
   * @param {EvaluationPanel} panel
   * @param {import('../app/worker-client.js').WorkerClient} worker
   * @param {{model: () => number|null, changed: () => void}} host  the controller: the current model, and
   *   what to call when an evaluation starts or ends (the Evaluate button follows `running`)
   */
  constructor(panel, worker, host) {
    this.panel = panel;
    this.worker = worker;
    this.host = host;
    /** @type {{model: number|null, choice: number}|null} an evaluation the person asked for, of `model`; null when none runs */
    this.running = null;
    /** Counts the benchmarks chosen: scores of one chosen before are not shown. */
    this.choice = 0;
    /** @type {File|null} the benchmark file the person opened */
    this.benchmarkFile = null;
    /** @type {string|undefined} the file chosen in that file, a zip of several */
    this.benchmarkEntry = undefined;
    /** @type {Promise<unknown>|null} the evaluations asked for so far, ended (one after another) */
    this.queue = null;
    panel.bindEvaluate((settings) => this.evaluate(settings));
    panel.bindBenchmarkFile((file) => {
      this.benchmarkFile = file;
      this.benchmarkEntry = undefined;
      this.chosen();
    });
    panel.bindBenchmarkChange(() => this.chosen());
  }

  /** Another benchmark is chosen: the scores on the card (or coming) are the last one's, and go. */
  chosen() {
    this.choice += 1;
    this.panel.offerBenchmarkEntries(null);
    this.panel.showEvaluationMessage(null);
    this.panel.showEvaluationReport(null);
  }

  /** Whether `running` is the person's evaluation of the vectors shown, on the benchmark chosen. */
  current(running) {
    return running?.model === this.host.model() && running.choice === this.choice;
  }

  /** An `evalProgress`: the person's evaluation of the vectors shown says how far it is (the sanity check has its own line). */
  progress(done, total, purpose) {
    if (purpose === 'benchmark' && this.current(this.running)) this.panel.showEvaluationProgress(done, total);
  }

  /**
   * Scores the vectors on a benchmark: a built-in one, or the file the person opened.
   * @param {{benchmark: string, restrict: number, ignoreCase: boolean}} settings
   */
  async evaluate({ benchmark, restrict, ignoreCase }) {
    if (this.running) return;
    if (benchmark === 'file' && !this.benchmarkFile) {
      this.panel.showEvaluationMessage('Open a benchmark file first (Open a benchmark file…, or drop it on this card).');
      return;
    }
    const source = benchmark === 'file'
      ? { kind: 'file', file: this.benchmarkFile, entry: this.benchmarkEntry }
      : { kind: 'builtin', name: benchmark };
    // The scores shown are the last benchmark's: they go, whatever this one gives.
    this.panel.offerBenchmarkEntries(null);
    this.panel.showEvaluationReport(null);
    this.panel.showEvaluationMessage('Evaluating…');
    const running = { model: this.host.model(), choice: this.choice };
    this.running = running;
    this.host.changed();
    try {
      const reply = await this.evaluation({ benchmark: source, restrict, ignoreCase, purpose: 'benchmark' });
      // Vectors that gave way meanwhile took their answers with them (see `Controller.reset`),
      // and another benchmark chosen meanwhile is not the one scored.
      if (!this.current(running)) return;
      if (!('report' in reply)) {
        // A zip of several files: the person picks the benchmark, which is then evaluated.
        this.panel.showEvaluationMessage(null);
        this.panel.offerBenchmarkEntries(reply, (name, settings) => {
          this.benchmarkEntry = name;
          this.evaluate(settings);
        });
        return;
      }
      this.panel.showEvaluationMessage(evaluationSummary(reply.report));
      this.panel.showEvaluationReport(reply.report);
    } catch (error) {
      if (this.current(running)) this.panel.showEvaluationMessage(`Cannot evaluate: ${error.message}`);
    } finally {
      this.running = null;
      this.host.changed();
    }
  }

  /** After training on the built-in sample: how many of its planted analogies come out. */
  async sanityCheck() {
    const model = this.host.model();
    try {
      const reply = await this.evaluation({
        benchmark: { kind: 'builtin', name: 'planted-analogies' }, restrict: null, ignoreCase: false, purpose: 'sanity',
      });
      // A built-in benchmark is one file: its reply is a report.
      if (this.host.model() === model && 'report' in reply) this.panel.showSanity(`Sanity check on the planted analogies: ${evaluationSummary(reply.report)}`);
    } catch (error) {
      if (this.host.model() === model) this.panel.showSanity(`The sanity check failed: ${error.message}`);
    }
  }

  /**
   * Runs an `evaluate` request once the evaluations asked for before it have ended (its reply
   * a report, or a zip's files to choose the benchmark from): the
   * worker lets a newer evaluation replace a running one, and the sanity check must not
   * replace one the person started (nor the other way round).
   */
  evaluation(fields) {
    /** @type {Promise<import('../protocol.js').EvaluateReply>} */
    const run = (this.queue ?? Promise.resolve()).then(() => this.worker.request('evaluate', fields));
    this.queue = run.catch(() => {});
    return run;
  }
}

/**
 * One line on a benchmark's result, saying how many of its words a fastText model built from
 * their n-grams. @param {import('../protocol.js').EvaluationReport} report
 */
export function evaluationSummary(report) {
  return `${scores(report)}${builtWords(report.builtFromNgrams)}`;
}

/** The benchmark's words built from n-grams, as the CLI's eval says them; '' for none. @param {number} n */
function builtWords(n) {
  if (!n) return '';
  return ` ${n.toLocaleString('en')} of the benchmark's words ${n === 1 ? 'is' : 'are'} not in the vocabulary: built from n-grams.`;
}

/** The scores' part of `evaluationSummary`. @param {import('../protocol.js').EvaluationReport} report */
function scores(report) {
  const share = (n, of) => `${n.toLocaleString('en')} of ${of.toLocaleString('en')} (${of ? ((100 * n) / of).toFixed(1) : '0.0'} %)`;
  if (report.kind === 'analogies') {
    const t = report.total;
    const skipped = t.questions - t.covered;
    return `3CosAdd ${share(t.correctCosAdd, t.covered)}, 3CosMul ${share(t.correctCosMul, t.covered)} correct` +
      (skipped ? `; ${skipped.toLocaleString('en')} of ${t.questions.toLocaleString('en')} questions skipped: a word is not among the most frequent.` : '.');
  }
  const over = `over ${report.found.toLocaleString('en')} of ${report.pairs.toLocaleString('en')} pairs` +
    (report.found < report.pairs ? ` (${(100 * report.oovRatio).toFixed(1)} % out of vocabulary)` : '');
  // A correlation needs two pairs and scores or cosines that vary (null from the worker otherwise).
  if (report.spearman == null || report.pearson == null) {
    const r = (value) => (value == null ? 'not defined' : value.toFixed(3));
    return `Spearman ${r(report.spearman)}, Pearson ${r(report.pearson)} ${over}: a correlation needs at least 2 pairs found, with scores that vary.`;
  }
  return `Spearman ${report.spearman.toFixed(3)}, Pearson ${report.pearson.toFixed(3)} ${over}.`;
}
