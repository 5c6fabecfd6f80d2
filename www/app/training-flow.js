// @ts-check
// The page's side of training: the text prepared (its statistics follow the form), BPE merges
// learned first when that tokenizer is chosen, training started, and Stop, which also keeps a
// training that is starting from starting. A newer `prepare` supersedes an older one, and so
// does a newer opening (the tokens of www/worker/scheduler.js): only the last has its say.
import { LossSeries } from '../training/loss-series.js';
import { SUPERSEDED } from '../protocol.js';

/** @typedef {import('../protocol.js').Params} Params */
/** @typedef {import('../protocol.js').BpeProgress} BpeProgress */

/** Which merges a set of parameters learns, to know when they are learned already. */
const bpeKey = (params) => `${params.bpeVocabSize} ${params.bpeMode}`;

export class TrainingFlow {
  /** @param {import('./controller.js').Controller} host */
  constructor(host) {
    this.host = host;
    this.view = host.view;
    this.params = host.params;
    this.worker = host.worker;
    /** The timer of a `prepare` that follows the form once it rests. */
    this.prepareTimer = undefined;
  }

  /**
   * Tokenizes with the form's parameters (or `params`, those a training starts with) and
   * shows the statistics; true when it worked. `opening`: the text was just opened, so a
   * failure is the text's refusal, said in the card of the text too. With BPE, only once the merges are learned
   * (`train` learns them first).
   */
  async prepare(params = this.params.checked(), opening = false) {
    if (!params || !this.host.source) return false;
    if (params.tokenizer === 'bpe' && this.host.learnedBpe !== bpeKey(params)) {
      this.view.sourcePanel.showStats(this.host.sourceName, null, 'BPE counts its tokens once its merges are learned: press Train.');
      return false;
    }
    const source = this.host.source;
    // A newer `prepare`, or anything opened meanwhile, cancels this one's say.
    const token = this.host.tasks.begin('prepare');
    try {
      const reply = await this.worker.request('prepare', { source, params });
      // A file opened meanwhile (dropped while the sample loads) has the last word.
      if (this.host.source !== source || token.cancelled) return false;
      this.host.isSample = reply.isSample;
      // A new model of this text (trained again, or other parameters before training): no
      // answer of the one before stays.
      if (reply.model !== this.host.model) this.host.clearAnswers();
      this.host.model = reply.model;
      this.host.tokenizer = params.tokenizer;
      this.view.queriesPanel.showTokenSigns(reply.stats.tokensWithWhitespace > 0);
      // Another tokenizer replaces the worker's BPE model.
      if (params.tokenizer !== 'bpe') this.host.learnedBpe = null;
      this.view.sourcePanel.showStats(this.host.sourceName, reply.stats, undefined, reply.text);
      this.host.progress = null;
      this.host.learning = null;
      this.host.withinEpoch = new LossSeries();
      this.view.stepPanel.clear();
      this.host.timeline.clear();
      this.host.preparedParams = JSON.stringify(params);
      this.host.preparedForm = this.params.form.readParams();
      this.host.showState();
      // The progress line said how the text was read and tokenized: now it says where training stands.
      this.host.paintProgress();
      this.view.showNotice(null);
      this.view.sourcePanel.showRefusal(null);
      return true;
    } catch (error) {
      // A newer text or newer parameters have the last word; Stop cancels a text being
      // tokenized for training (see `stop`).
      if (this.host.source !== source || token.cancelled || error.message === SUPERSEDED) return false;
      // Train again refused (min count too high, nothing to learn): the worker keeps the
      // model trained before, so the page keeps it too, exports and queries included.
      this.host.showState();
      const { showsVectors, state } = this.host.report;
      if (showsVectors && (state === 'done' || state === 'stopped')) {
        this.view.showNotice(`Cannot train ${this.host.sourceName} again: ${error.message}. The vectors trained before are kept.`);
        return false;
      }
      this.view.sourcePanel.showStats(this.host.sourceName, null, 'Not prepared: see the message above.');
      this.view.showNotice(`Cannot prepare ${this.host.sourceName}: ${error.message}`);
      if (opening) this.view.sourcePanel.showRefusal(`Cannot prepare ${this.host.sourceName}: ${error.message}`);
      return false;
    } finally {
      token.end();
    }
  }

  /**
   * The worker says where it trains: a pool of up to `max` threads, or one thread and why.
   * The Threads field is brought within that (see `Parameters.useThreads`), and a page on
   * one thread says why in one line under the progress.
   * @param {import('../protocol.js').ThreadsInfo} threads
   */
  useThreads(threads) {
    this.view.showThreadsNote(threads.max === 1 && threads.cause ? `Training on 1 thread: ${threads.cause}.` : null);
    if (this.params.useThreads(threads)) this.paramsChanged();
  }

  /** @param {string} [name]  the field that changed */
  paramsChanged(name) {
    // A model change takes the new model's default learning rate, unless the person set one.
    if (name === 'model') this.params.followModel();
    const valid = this.params.checked() != null;
    this.host.showState();
    // Training goes on with the parameters it started with.
    this.view.paramsForm.showParamsPending(this.host.report.working);
    if (!valid) return;
    // Before training, the statistics follow the parameters (min count, tokenizer).
    clearTimeout(this.prepareTimer);
    if (this.host.report.mayPrepare) {
      this.prepareTimer = setTimeout(() => {
        if (this.host.report.mayPrepare) this.prepare();
      }, 250);
    }
  }

  /**
   * Starts training; a second press while it starts (a double click) does nothing. With BPE
   * it learns the merges first and tokenizes the text with them: Stop at any point of that
   * stops it before anything trains (see `stop`).
   */
  async train() {
    if (this.host.tasks.current('train')) return;
    // Stop cancels it while it starts.
    const token = this.host.tasks.begin('train');
    try {
      clearTimeout(this.prepareTimer);
      const params = this.params.checked();
      if (!params || !this.host.source) return;
      if (params.tokenizer === 'bpe' && this.host.learnedBpe !== bpeKey(params) && !(await this.learnBpe(params))) return;
      // Prepared already with these parameters (the statistics follow the form): a large
      // text is not tokenized twice. The form may have changed while the merges were
      // learned: training goes on with the parameters it started with, as it does when the
      // form changes while it runs, and the note says the change waits.
      const ready = this.host.report.state === 'prepared' && this.host.preparedParams === JSON.stringify(params);
      if (this.stoppedBeforeTraining(token)) return;
      if (!ready && !(await this.prepare(params))) {
        this.stoppedBeforeTraining(token);
        return;
      }
      if (this.stoppedBeforeTraining(token)) return;
      this.view.paramsForm.showParamsPending(JSON.stringify(this.params.checked()) !== JSON.stringify(params));
      this.host.paintAll();
      // The worker starts each model on the plain view: the frames while training show this one.
      await this.host.mapModel.sendMapSpec();
      if (this.stoppedBeforeTraining(token)) return;
      await this.host.control('train');
      this.host.unsaved = true;
    } finally {
      token.end();
    }
  }

  /**
   * Whether Stop was pressed while `train` was starting; if so the progress line says so:
   * where the merges stood (learned, when they were), or "Not started." once the text was
   * tokenized with them.
   * @param {import('../worker/scheduler.js').Token} token  the start's
   */
  stoppedBeforeTraining(token) {
    if (!token.cancelled) return false;
    if (this.host.learning) {
      this.host.learning = { ...this.host.learning, stopped: true };
      if (this.host.learning.progress.done) this.view.sourcePanel.showStats(this.host.sourceName, null, 'The BPE merges are learned: their tokens are counted when you press Train.');
    }
    this.host.paintProgress();
    return true;
  }

  /**
   * Learns the BPE merges, with progress, until done (true) or stopped or failed (false).
   * @param {Params} params
   */
  async learnBpe(params) {
    this.host.learning = null;
    this.view.sourcePanel.showStats(this.host.sourceName, null, 'BPE counts its tokens once its merges are learned.');
    const reply = await this.host.request('learnBpe', { source: this.host.source, params });
    if (!reply) return false;
    this.host.learning = { progress: reply.progress, stopped: !reply.done };
    this.host.paintProgress();
    if (reply.done) this.host.learnedBpe = bpeKey(params);
    return reply.done;
  }

  /** @param {BpeProgress} progress */
  showBpeProgress(progress) {
    this.host.learning = { progress, stopped: false };
    this.host.paintProgress();
  }

  /**
   * Stop: ends training, BPE learning or the reading of a vectors file. While `train` is
   * starting (the merges just learned, the text being tokenized with them, where the page
   * still says 'learning') it also keeps training from starting; the worker cancels the
   * tokenizing.
   */
  stop() {
    this.host.tasks.cancel(['train']);
    return this.host.control('stop');
  }
}
