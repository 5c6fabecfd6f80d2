// @ts-check
// The explorer's logic between the view and the worker: what is open (a text or vectors, and
// the parameters it is prepared with), where training stands as the worker reports it (its
// `state` messages, mirrored as they come: the page works none of it out), the frames the
// map shows and the link to its view. Opening what the person chooses is opening.js's, and
// preparing and training training-flow.js's; each changes what is open here. It composes the
// rest, each knowing no DOM: the map (map/map-model.js), the timeline (timeline/timeline.js),
// the queries (queries/queries.js), the benchmarks (evaluation/evaluations.js), the Export
// card's files (exports/exports.js), the Matrix card's band (matrix/matrix.js) and the
// Sampling card's numbers (sampling/sampling.js). A word selected anywhere (the map, a list,
// the matrix's rows) is selected in all of them.
import { DEFAULTS } from '../training/params.js';
import { Parameters } from '../training/parameters.js';
import { LossSeries } from '../training/loss-series.js';
import { SUPERSEDED } from '../protocol.js';
import { INITIAL_REPORT } from '../worker/session-state.js';
import { Scheduler } from '../worker/scheduler.js';
import { FrameWords } from '../map/frame-words.js';
import { MapModel } from '../map/map-model.js';
import { Link } from '../map/link.js';
import { Timeline } from '../timeline/timeline.js';
import { Queries } from '../queries/queries.js';
import { Evaluations } from '../evaluation/evaluations.js';
import { Exports } from '../exports/exports.js';
import { Matrix } from '../matrix/matrix.js';
import { Sampling } from '../sampling/sampling.js';
import { Opening } from './opening.js';
import { TrainingFlow } from './training-flow.js';

/** @typedef {import('../protocol.js').Progress} Progress */
/** @typedef {import('../protocol.js').SessionReport} SessionReport */
/** @typedef {import('../protocol.js').BpeProgress} BpeProgress */
/** @typedef {import('../protocol.js').Params} Params */

export class Controller {
  /** @param {import('./view.js').View} view @param {import('./worker-client.js').WorkerClient} worker */
  constructor(view, worker) {
    this.view = view;
    this.worker = worker;
    /** The form's parameters, checked against the threads the worker offers. */
    this.params = new Parameters(view.paramsForm);
    /** Puts their words back into the worker's frames (sent once per word list); kept across models and workers. */
    this.frameWords = new FrameWords();
    this.mapModel = new MapModel(view.map, view.mapPanel, {
      project: (settings) => this.projectFrame(settings),
      select: (word) => this.queries.select(word),
      changed: () => this.link.changed(),
      frameArrived: (frame, options) => this.timeline.arrived(frame, this.progress, options),
      trails: (words) => this.timeline.trailsOf(words),
      caption: () => this.timeline.caption(),
      findWords: async (needle, limit) => (await this.worker.request('findWords', { needle, limit }).catch(() => null))?.matches ?? null,
      density: async (ask) => (await this.worker.request('density', ask).catch(() => null))?.values ?? null,
    });
    this.timeline = new Timeline(view.timelinePanel, view.historyPanel, {
      show: (frame) => this.mapModel.displayFrame(frame),
      redraw: () => this.mapModel.redraw(),
      drawLoss: () => this.drawLoss(),
      history: async (word) => (await this.worker.request('neighbourHistory', { word, k: Math.min(10, view.queriesPanel.readK()) })).history,
      canvas: view.map.canvas,
      svg: () => view.map.svg(),
      save: (name, blob) => view.exportPanel.saveFile(name, blob),
    });
    this.link = new Link(this.mapModel, view.mapPanel, () => (this.isSample ? 'sample' : this.source?.kind === 'url' ? 'kjv' : null),
      () => this.preparedForm ?? null);
    const request = (type, fields) => this.request(type, fields);
    this.queries = new Queries(view.queriesPanel, worker, this.mapModel, this.timeline, {
      model: () => this.model,
      idle: () => !this.report.showsVectors,
      hasSource: () => Boolean(this.source),
      isBpe: () => this.tokenizer === 'bpe',
      request,
      selected: (word) => {
        this.matrix.showSelected(word);
        this.sampling.show(word);
      },
    });
    this.evaluations = new Evaluations(view.evaluationPanel, worker, { model: () => this.model, changed: () => this.showState() });
    this.exports = new Exports(view, this.mapModel, this.timeline, { request, saved: () => { this.unsaved = false; } });
    this.matrix = new Matrix(view.matrixPanel, worker, {
      model: () => (this.report.showsVectors ? this.model : null),
      version: () => this.progress?.tokensDone ?? 0,
      select: (word) => this.queries.select(word),
    });
    this.sampling = new Sampling(view.samplingPanel, worker, {
      model: () => (this.report.showsVectors ? this.model : null),
      trained: () => Boolean(this.source),
      select: (word) => this.queries.select(word),
    });
    /** What is open, as the page names it (the Text card, the notices). @type {string|null} */
    this.sourceName = null;
    /** The progress line of vectors opened from a file. */
    this.loadedText = '';
    /** The parameters the model shown was prepared with, as JSON: Train does not tokenize again with the same. @type {string|null} */
    this.preparedParams = null;
    /** The form as it was for the model prepared: a link trains the text with it again. @type {Record<string, string|boolean>|null} */
    this.preparedForm = null;
    /** Whether vectors trained here are not exported yet: closing the tab asks first. */
    this.unsaved = false;
    /** Whether the sanity check of the sample's model was shown. */
    this.sanityShown = false;
    /** @type {SessionReport} the worker's state and what follows from it, as its last `state` message said (see `mirror`) */
    this.report = INITIAL_REPORT;
    /** The page's own tasks that a newer one supersedes (an opening, a `prepare`, a training starting). */
    this.tasks = new Scheduler({ yieldToMessages: () => Promise.resolve(), now: () => performance.now() });
    this.opening = new Opening(this);
    this.training = new TrainingFlow(this);
    this.reset();
    this.bindView(view);
    this.listen(worker);
    this.paintAll();
  }

  /** What the person does, through the view's `bindX`. @param {import('./view.js').View} view */
  bindView(view) {
    this.params.set(DEFAULTS);
    view.mapPanel.setAxes([], 0, 1);
    view.sourcePanel.bindUseSample(() => this.openSample());
    view.sourcePanel.bindFileChosen((files) => this.opening.openFiles(files));
    view.sourcePanel.bindKeepText(() => this.opening.keepOnlyText());
    view.paramsForm.bindParamsChange((name) => this.training.paramsChanged(name));
    view.progressPanel.bindTrain(() => this.training.train());
    view.progressPanel.bindPauseResume(() => this.control(this.report.state === 'paused' ? 'train' : 'pause'));
    view.progressPanel.bindStop(() => this.stop());
    view.stepPanel.bindStep((count) => this.stepUpdates(count));
    view.stepPanel.bindResume(() => this.control('train'));
    view.bindResize(() => { this.mapModel.redraw(); this.drawLoss(); });
    // Closing the tab would lose vectors trained here and not exported: the browser asks first.
    view.bindLeave(() => this.unsaved);
  }

  /** The worker's own messages. @param {import('./worker-client.js').WorkerClient} worker */
  listen(worker) {
    const view = this.view;
    /** @type {'starting'|'ready'|'unavailable'} whether the worker answers, for the line under Train */
    this.workerState = 'starting';
    worker.on('ready', ({ version, threads }) => {
      view.setWorkerStatus('ready', `Worker ready: embedscope ${version}`);
      this.workerState = 'ready';
      this.training.useThreads(threads);
      this.showState();
    });
    worker.on('unavailable', () => {
      this.workerState = 'unavailable';
      this.showState();
    });
    worker.on('state', (report) => this.mirror(report));
    worker.on('progress', ({ progress, threads }) => this.showProgress({ ...progress, threads }));
    worker.on('bpeProgress', ({ progress }) => this.training.showBpeProgress(progress));
    worker.on('loadProgress', ({ bytesDone, bytesTotal, words, rows }) => view.progressPanel.showLoadProgress(bytesDone, bytesTotal, words, rows));
    worker.on('readProgress', ({ bytesDone, bytesTotal }) => view.progressPanel.showLoadProgress(bytesDone, bytesTotal));
    worker.on('tokenizeProgress', ({ fraction }) => view.progressPanel.showTokenizeProgress(fraction));
    // The sanity check's progress is not the evaluation card's: it has its own line.
    worker.on('evalProgress', ({ done, total, purpose }) => this.evaluations.progress(done, total, purpose));
    worker.on('projection', (frame) => this.showFrame(frame));
    worker.on('error', ({ message }) => view.showNotice(`Training failed: ${message}`));
    worker.on('died', ({ message }) => {
      // The fresh worker starts in the machine's first state, and says so by no message;
      // it says 'ready' once it can train.
      this.report = INITIAL_REPORT;
      this.workerState = 'starting';
      this.reset();
      this.paintAll();
      view.showNotice(`The training worker stopped (${message}) and was restarted. Open the text again to train.`);
    });
  }

  /** The last analogy's four words (A, B, C and the answer), or null; "Show these four words on the map" isolates them. */
  get analogyWords() {
    return this.queries.analogyWords;
  }

  /** Forgets the text, the training and the queries (a new text, or a restarted worker). */
  reset() {
    // A model's facts go with the vectors they describe (openFiles shows a new model's).
    this.view.matrixPanel.showModel(null);
    this.view.queriesPanel.markSpecialFrom(null);
    this.source = null;
    this.isSample = false;
    /** @type {import('../protocol.js').VectorsInfo|null} vectors opened from a file, not trained here */
    this.vectors = null;
    /** The tokenizer of the prepared text. */
    this.tokenizer = null;
    /** `bpeKey` of the merges the worker holds for this text, if any. */
    this.learnedBpe = null;
    /** @type {{progress: BpeProgress, stopped: boolean}|null} merges being learned, or cancelled */
    this.learning = null;
    /** @type {Progress|null} */
    this.progress = null;
    /** The loss within epochs, thinned to a bounded number of points. */
    this.withinEpoch = new LossSeries();
    /** The worker's name for the model shown (see worker/worker.js `model`); frames of another are dropped. */
    this.model = null;
    // The form now belongs to what opens next: no change waits for a training.
    this.view.paramsForm.showParamsPending(false);
    this.view.paramsForm.showOpenedVectors(null);
    this.view.queriesPanel.showTokenSigns(false);
    this.clearAnswers();
    this.mapModel.clear();
    this.timeline.clear();
  }

  /**
   * Clears every answer on screen and on the map (neighbours, token facts, analogy,
   * evaluation, sanity check): they belong to the model that gives way, to another text or
   * vectors, or to another model of the same text (trained again). The words asked about
   * stay in their boxes, to ask the next model.
   */
  clearAnswers() {
    this.view.clearAnswers();
    this.queries.clear();
    this.mapModel.clearAnswers();
    // The next model of the sample is checked in its turn.
    this.sanityShown = false;
  }

  paintAll() {
    this.showState();
    this.paintProgress();
    this.drawLoss();
    this.mapModel.redraw();
  }

  /** The progress area: merges being learned (or where they were stopped), else training. */
  paintProgress() {
    if (!this.source && !this.vectors) this.view.progressPanel.showProgressText('No text is open: open a file or use the built-in sample to train.', null);
    else if (this.report.state === 'loaded' && this.vectors) this.view.progressPanel.showProgressText(this.loadedText, this.progress);
    else if (this.learning) this.view.progressPanel.showBpeProgress(this.learning.progress, this.learning.stopped);
    else this.view.progressPanel.showProgress(this.progress, this.report.state);
  }

  /**
   * 'train' (start or resume), 'pause' or 'stop'; the worker replies with its new state.
   * @param {'train'|'pause'|'stop'} type
   */
  async control(type) {
    const reply = await this.request(type);
    if (reply) this.mirror(reply);
  }

  /** The step mode's `count` single updates of the paused training (the worker sends their progress). */
  async stepUpdates(count) {
    const reply = await this.request('stepUpdates', { count });
    if (!reply) return;
    this.view.stepPanel.show(reply);
    this.mapModel.showMoves(reply.moves);
  }

  /**
   * The worker's reply, or null after showing why it failed (a request that a newer one replaced fails silently).
   * @template {keyof import('../protocol.js').Requests} T
   * @param {T} type @param {import('../protocol.js').Fields<import('../protocol.js').Requests[T]['request']>} [fields]
   * @returns {Promise<import('../protocol.js').Requests[T]['reply']|null>}
   */
  async request(type, fields) {
    try {
      return await this.worker.request(type, fields);
    } catch (error) {
      if (error.message !== SUPERSEDED) this.view.showNotice(error.message);
      return null;
    }
  }

  /**
   * The worker's state changed (a `state` message, or the reply to train, pause or stop):
   * the page takes it and what follows from it as they are, and shows them.
   * @param {SessionReport} report
   */
  mirror({ state, showsVectors, hasVectors, mayPrepare, working }) {
    this.report = { state, showsVectors, hasVectors, mayPrepare, working };
    // The step mode's moves belong to a paused training: going on at full speed moves every row.
    if (state !== 'paused') this.mapModel.showMoves(null);
    this.showState();
  }

  /** The controls, the progress line and the question to stop, as the state and the form say. */
  showState() {
    const { state, showsVectors, hasVectors } = this.report;
    const formValid = this.params.valid();
    const busy = state === 'training' || state === 'paused';
    const learning = state === 'learning' || state === 'loading';
    // Train needs a worker that answers: until then a click would wait unseen, or fail.
    const canTrain = this.workerState === 'ready' && Boolean(this.source) && formValid && !busy && !learning;
    this.view.setControls({
      canTrain,
      whyNoTrain: canTrain ? null : this.whyNoTrain(formValid),
      trainLabel: showsVectors && (state === 'done' || state === 'stopped') ? 'Train again' : 'Train',
      canPause: busy,
      paused: state === 'paused',
      canStop: busy || learning,
      canExport: hasVectors,
      canEvaluate: hasVectors && !this.evaluations.running,
    });
    this.view.stepPanel.enable(state === 'paused');
    // The sample is known as such before the worker has prepared it (then `isSample`).
    this.view.evaluationPanel.offerPlanted(this.isSample || this.source?.kind === 'sample');
    if (state !== 'loaded' && state !== 'loading' && (this.progress || this.learning)) this.paintProgress();
    this.opening.retitleQuestion();
    this.matrix.update();
    this.sampling.update();
    if (state === 'done' && this.isSample && !this.sanityShown) {
      this.sanityShown = true;
      this.sanityCheck();
    }
  }

  /** Why Train is disabled, in a line a person can act on. */
  whyNoTrain(formValid) {
    const state = this.report.state;
    if (this.workerState === 'unavailable') return 'The training worker could not start: see the message above.';
    if (state === 'training') return 'Training runs: Pause or Stop it to change course.';
    if (state === 'paused') return 'Training is paused: Resume or Stop it.';
    if (state === 'learning') return 'The BPE merges are being learned: Stop cancels them.';
    if (state === 'loading') return 'A file is being read: Stop cancels it.';
    if (this.vectors && !this.source) return 'These vectors were opened from a file: open a text to train.';
    if (this.workerState === 'starting') return 'The training worker is starting…';
    if (!this.source) return 'Open a text, or use the built-in sample, to train.';
    if (!formValid) return 'A parameter is not valid: see the message next to it.';
    return null;
  }

  /** @param {Progress} progress */
  showProgress(progress) {
    const epochEnded = progress.epochLosses.length !== (this.progress?.epochLosses.length ?? 0);
    this.progress = progress;
    if (epochEnded) this.timeline.epochEnded();
    if (progress.loss > 0) {
      const at = progress.done ? progress.epochs : progress.epoch - 1 + progress.epochTokensDone / progress.epochTokens;
      this.withinEpoch.push(at, progress.loss, progress.positiveLoss, progress.negativeLoss);
    }
    this.view.progressPanel.showProgress(progress, this.report.state);
    this.drawLoss();
    this.matrix.update();
  }

  /** After training on the built-in sample: how many of its planted analogies come out (see Evaluations). */
  sanityCheck() {
    return this.evaluations.sanityCheck();
  }

  drawLoss() {
    const p = this.progress;
    // Vectors opened from a bundle bring their epochs' losses without the two terms.
    const terms = { epochs: p?.epochPositiveLosses.flatMap((positive, i) => [positive, p.epochNegativeLosses[i]]) ?? [], within: this.withinEpoch.termPoints() };
    this.view.drawLoss(p ? p.epochs : 1, p ? p.epochLosses : [], this.withinEpoch.points(), this.timeline.marker(), terms);
  }

  /**
   * A frame of the current model with these view settings, or null when there are no
   * vectors (or they gave way meanwhile). A bad setting (an unknown axis word) throws.
   */
  async projectFrame(settings) {
    if (!this.report.showsVectors) return null;
    const model = this.model;
    // The reply is read before the worker's next message (its continuation runs first), so
    // its words are in order too.
    const frame = this.frameWords.attach(await this.worker.request('project', { mapSpec: settings }));
    return frame && frame.model === this.model && model === this.model ? frame : null;
  }

  /** @param {import('../protocol.js').ProjectionMessage} message */
  showFrame(message) {
    // Even a frame that is not drawn may bring the words the next ones name.
    const frame = this.frameWords.attach(message);
    // A frame of a model that gave way (sent before the worker heard of the new text) is not drawn.
    if (!frame || frame.model !== this.model) return;
    this.mapModel.showFrame(frame);
  }

  // ---- what main.js, the view and the parts ask of the whole (opening.js, training-flow.js)

  /** Offers the King James Bible, which the server holds at `url` (main.js checked). */
  offerKjv(url) {
    this.opening.offerKjv(url);
  }

  /** Opens the built-in sample: the page starts on it, so training is one click away. */
  openSample() {
    return this.opening.openSample();
  }

  /** Opens a link's view (see `Opening.restoreLink`). @param {URLSearchParams} state @param {string|null} kjv */
  restoreLink(state, kjv) {
    return this.opening.restoreLink(state, kjv);
  }

  /** Tokenizes the text (see `TrainingFlow.prepare`). @param {Params} [params] @param {boolean} [opening] */
  prepare(params, opening) {
    return this.training.prepare(params, opening);
  }

  /** Starts training (see `TrainingFlow.train`). */
  train() {
    return this.training.train();
  }

  /** Stop (see `TrainingFlow.stop`). */
  stop() {
    return this.training.stop();
  }

}
