// @ts-check
// The explorer's logic between the view and the worker: what is loaded, where training
// stands (BPE merges first, when that tokenizer is chosen), what the plot shows (the
// frame, the selection, its neighbours, the analogy).
import { alphaForModel, checkParams, DEFAULTS, KJV_PRESET, presetKeepingBpe, SAMPLE_PRESET } from './params.js';
import { LossSeries } from './loss-series.js';
import { SUPERSEDED } from './protocol.js';
import { FrameWords } from './frame-words.js';
import { MapModel } from './map/map-model.js';
import { Timeline } from './timeline/timeline.js';

/** @typedef {import('./protocol.js').Projection} Projection */
/** @typedef {import('./protocol.js').Progress} Progress */
/** @typedef {import('./protocol.js').TrainingState} TrainingState */
/** @typedef {import('./protocol.js').BpeProgress} BpeProgress */
/** @typedef {import('./protocol.js').Params} Params */
/** @typedef {import('./protocol.js').Source} Source */

const COMPLETIONS = 20;
/** Lines of the text shown where a selected token occurs. */
const CONCORDANCE_LINES = 5;

/** Which merges a set of parameters learns, to know when they are learned already. */
const bpeKey = (params) => `${params.bpeVocabSize} ${params.bpeMode}`;

/**
 * The model the form's raw values name.
 * @param {Record<string, string|boolean>} raw
 * @returns {'skipgram'|'cbow'}
 */
const modelOf = (raw) => (raw.model === 'cbow' ? 'cbow' : 'skipgram');

export class Controller {
  /** @param {import('./view.js').View} view @param {import('./worker-client.js').WorkerClient} worker */
  constructor(view, worker) {
    this.view = view;
    this.worker = worker;
    /** The exports being built, by file name: a second press of the same button does nothing. */
    this.exporting = new Set();
    /** Puts their words back into the worker's frames (sent once per word list); kept across models and workers. */
    this.frameWords = new FrameWords();
    this.mapModel = new MapModel(view.map, view.mapPanel, {
      project: (settings) => this.projectFrame(settings),
      select: (word) => this.select(word),
      changed: () => this.linkChanged(),
      frameArrived: (frame, options) => this.timeline.arrived(frame, this.progress, options),
      trails: (words) => this.timeline.trailsOf(words),
      caption: () => this.timeline.caption(),
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
    this.reset();

    /** @type {import('./protocol.js').ThreadsInfo|null} where the worker trains (its `ready` says) */
    this.threads = null;
    this.setParams(DEFAULTS);
    view.mapPanel.setAxes([], 0, 1);
    view.sourcePanel.bindUseSample(() => this.openSample());
    view.sourcePanel.bindFileChosen((files) => this.openFiles(files));
    view.paramsForm.bindParamsChange((name) => this.paramsChanged(name));
    view.progressPanel.bindTrain(() => this.train());
    view.progressPanel.bindPauseResume(() => this.control(this.state === 'paused' ? 'train' : 'pause'));
    view.progressPanel.bindStop(() => this.control('stop'));
    view.bindResize(() => { this.mapModel.redraw(); this.drawLoss(); });
    view.queriesPanel.bindShowAnalogy(() => this.analogyWords && this.mapModel.isolate(this.analogyWords));
    view.mapPanel.bindCopyLink(() => this.copyLink());
    view.queriesPanel.bindWordTyped((prefix) => this.complete(prefix));
    view.queriesPanel.bindSearch((word) => this.search(word));
    view.queriesPanel.bindResultClick((word) => this.select(word));
    view.queriesPanel.bindAnalogy((a, b, c) => this.analogy(a, b, c));
    view.evaluationPanel.bindEvaluate((settings) => this.evaluate(settings));
    view.evaluationPanel.bindBenchmarkFile((file) => { this.benchmarkFile = file; });
    view.exportPanel.bindExport(EXPORTS, (name) => this.export(name));
    // Closing the tab would lose vectors trained here and not exported: the browser asks first.
    view.bindLeave(() => this.unsaved);

    worker.on('ready', ({ version, threads }) => {
      view.setWorkerStatus('ready', `Worker ready: embedscope ${version}`);
      this.useThreads(threads);
    });
    worker.on('state', ({ state }) => this.setState(state));
    worker.on('progress', ({ progress, threads }) => this.showProgress({ ...progress, threads }));
    worker.on('bpeProgress', ({ progress }) => this.showBpeProgress(progress));
    worker.on('loadProgress', ({ bytesDone, bytesTotal, words }) => view.progressPanel.showLoadProgress(bytesDone, bytesTotal, words));
    worker.on('readProgress', ({ bytesDone, bytesTotal }) => view.progressPanel.showLoadProgress(bytesDone, bytesTotal));
    worker.on('tokenizeProgress', ({ fraction }) => view.progressPanel.showTokenizeProgress(fraction));
    // The sanity check's progress is not the evaluation card's: it has its own line.
    worker.on('evalProgress', ({ done, total, purpose }) => {
      if (purpose === 'benchmark' && this.evaluating?.model === this.model) view.evaluationPanel.showEvaluationProgress(done, total);
    });
    worker.on('projection', (frame) => this.showFrame(frame));
    worker.on('error', ({ message }) => view.showNotice(`Training failed: ${message}`));
    worker.on('died', ({ message }) => {
      this.reset();
      this.paintAll();
      view.showNotice(`The training worker stopped (${message}) and was restarted. Open the text again to train.`);
    });
    this.paintAll();
  }

  /** Offers the King James Bible, which the server holds at `url` (main.js checked). */
  offerKjv(url) {
    this.view.sourcePanel.offerKjv(() => this.open({ kind: 'url', name: 'King James Bible', url }, 'King James Bible (data/kjv.txt)', KJV_PRESET));
  }

  /** Forgets the text, the training and the queries (a new text, or a restarted worker). */
  reset() {
    /** @type {TrainingState} */
    this.state = 'idle';
    this.source = null;
    this.isSample = false;
    /** @type {import('./protocol.js').VectorsInfo|null} vectors opened from a file, not trained here */
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
    /** The worker's name for the model shown (see worker.js `model`); frames of another are dropped. */
    this.model = null;
    this.sanityShown = false;
    // The answers on screen belong to the model that gives way.
    this.view.clearAnswers();
    this.selected = null;
    this.analogyWords = null;
    this.mapModel.clear();
    this.timeline.clear();
  }

  paintAll() {
    this.setState(this.state);
    this.paintProgress();
    this.drawLoss();
    this.mapModel.redraw();
  }

  // ---- text and parameters

  /**
   * Opens what the person dropped or chose: vectors trained elsewhere (or a bundle saved
   * here) are read by the worker and explored as they are; anything else is a text to train on.
   * @param {File[]} files  one file, or a Projector `vectors.tsv` with its `metadata.tsv`
   */
  async openFiles(files) {
    this.view.showNotice(null);
    const names = files.map((f) => f.name).join(' + ');
    if (!(await this.mayReplace(names))) return;
    /** Counts what was opened, so a slower earlier `prepare` does not overwrite this one. */
    const opened = (this.opened = (this.opened ?? 0) + 1);
    const previous = this.state;
    this.setState('loading');
    const reply = await this.request('openFiles', { files });
    // Something opened meanwhile (after stopping this read) has the last word.
    if (this.opened !== opened) return;
    if (!reply) {
      this.setState(previous === 'loading' ? 'idle' : previous);
      return;
    }
    if (reply.kind === 'text') {
      this.setState(previous === 'loading' ? 'idle' : previous);
      const [file] = files;
      // Leave a preset behind when the person moves on to their own text.
      await this.open({ kind: 'file', name: file.name, file }, file.name, this.source?.kind === 'file' ? null : DEFAULTS);
      return;
    }
    this.reset();
    this.model = reply.model;
    this.vectors = reply.info;
    if (reply.params) this.setParams(reply.params);
    this.progress = reply.epochLosses?.length
      ? { ...EMPTY_PROGRESS, epoch: reply.epochLosses.length, epochs: reply.epochLosses.length, epochLosses: reply.epochLosses, done: true }
      : null;
    this.sourceName = names;
    // A bundle saved after training holds its timeline: it replays.
    this.timeline.load(reply.timeline);
    this.view.sourcePanel.showVectorsStats(names, reply.info);
    this.loadedText = `Opened ${reply.info.words.toLocaleString('en')} vectors of ${reply.info.dim} dimensions from ${names}.`;
    this.setState('loaded');
    this.paintAll();
    await this.mapModel.sendView();
  }

  /** Whether training or BPE learning is under way (running or paused): work a new text would cancel. */
  get working() {
    return this.state === 'training' || this.state === 'paused' || this.state === 'learning';
  }

  /**
   * Before something replaces the text or the vectors: while training (or learning BPE
   * merges) asks whether to stop, so nothing is cancelled by accident; false when the
   * person keeps training. A vectors file being read is simply stopped.
   */
  async mayReplace(what) {
    if (this.state === 'loading') {
      await this.control('stop');
      return true;
    }
    if (!this.working) return true;
    const going = { training: 'Training is running', paused: 'Training is paused', learning: 'BPE merges are being learned' }[this.state];
    const stop = await this.view.confirm(
      `${going}. Stop it and open ${what}? What was learned so far gives way to it.`,
      `Stop and open ${what}`,
      'Keep training',
    );
    if (stop && this.working) await this.control('stop');
    return stop;
  }

  /**
   * Opens a link's view: its built-in text (the sample, or the King James Bible when the
   * server has it at `kjv`), trained with the preset's seed, so the same vectors come back,
   * with the map's settings applied before training, so every frame shows the view.
   * @param {URLSearchParams} state @param {string|null} kjv
   */
  async restoreLink(state, kjv) {
    if (state.get('text') === 'kjv' && kjv) {
      await this.open({ kind: 'url', name: 'King James Bible', url: kjv }, 'King James Bible (data/kjv.txt)', KJV_PRESET);
    } else {
      await this.openSample();
    }
    if (this.state !== 'prepared') return;
    await this.train();
    await this.mapModel.restore(state);
  }

  /** Opens the built-in sample: the page starts on it, so training is one click away. */
  openSample() {
    return this.open({ kind: 'sample' }, 'Built-in sample: planted royal/common people and countries', SAMPLE_PRESET);
  }

  async open(source, name, preset) {
    this.view.showNotice(null);
    if (!(await this.mayReplace(name))) return;
    if (preset) this.setParams(presetKeepingBpe(preset, String(this.view.paramsForm.readParams().tokenizer)));
    this.reset();
    this.source = source;
    this.sourceName = name;
    this.paintAll();
    this.view.sourcePanel.showStats(name, null);
    await this.prepare();
  }

  /**
   * Tokenizes with the form's parameters and shows the statistics; true when it worked.
   * With BPE, only once the merges are learned (`train` learns them first).
   */
  async prepare() {
    const params = this.checkedParams();
    if (!params || !this.source) return false;
    if (params.tokenizer === 'bpe' && this.learnedBpe !== bpeKey(params)) {
      this.view.sourcePanel.showStats(this.sourceName, null, 'BPE counts its tokens once its merges are learned: press Train.');
      return false;
    }
    const source = this.source;
    const opened = this.opened;
    const mine = (this.preparations = (this.preparations ?? 0) + 1);
    try {
      const reply = await this.worker.request('prepare', { source, params });
      // A file opened meanwhile (dropped while the sample loads) has the last word.
      if (this.source !== source || this.opened !== opened || this.preparations !== mine) return false;
      this.isSample = reply.isSample;
      this.model = reply.model;
      this.tokenizer = params.tokenizer;
      // Another tokenizer replaces the worker's BPE model.
      if (params.tokenizer !== 'bpe') this.learnedBpe = null;
      this.view.sourcePanel.showStats(this.sourceName, reply.stats, undefined, reply.text);
      this.progress = null;
      this.learning = null;
      this.withinEpoch = new LossSeries();
      this.timeline.clear();
      this.preparedParams = JSON.stringify(params);
      this.setState('prepared');
      // The progress line said how the text was read and tokenized: now it says where training stands.
      this.paintProgress();
      this.view.showNotice(null);
      return true;
    } catch (error) {
      // A newer text or newer parameters have the last word.
      if (this.source !== source || this.opened !== opened || this.preparations !== mine) return false;
      this.setState('idle');
      this.view.sourcePanel.showStats(this.sourceName, null, 'Not prepared: see the message above.');
      this.view.showNotice(`Cannot prepare ${this.sourceName}: ${error.message}`);
      return false;
    }
  }

  checkedParams() {
    const { params, errors } = checkParams(this.view.paramsForm.readParams(), this.threadLimits());
    this.view.paramsForm.showParamErrors(errors);
    return params;
  }

  /**
   * Puts `values` into the form, and remembers the model they leave chosen (see
   * `paramsChanged`). Threads beyond what this page offers (a bundle trained on 16 by the
   * command-line tool) become the most it offers.
   */
  setParams(values) {
    const max = this.threads?.max;
    if (max != null && values.threads > max) values = { ...values, threads: max };
    this.view.paramsForm.setParams(values);
    this.modelShown = modelOf(this.view.paramsForm.readParams());
  }

  /** The threads the worker offers, for `checkParams` (every thread until the worker says). */
  threadLimits() {
    return this.threads ? { maxThreads: this.threads.max, whyOneThread: this.threads.cause } : {};
  }

  /**
   * The worker says where it trains: a pool of up to `max` threads, or one thread and why.
   * The Threads field (by default the machine's cores) is brought within that, and a page on
   * one thread says why in one line under the progress.
   * @param {import('./protocol.js').ThreadsInfo} threads
   */
  useThreads(threads) {
    this.threads = threads;
    this.view.showThreadsNote(threads.max === 1 && threads.cause ? `Training on 1 thread: ${threads.cause}.` : null);
    // The page's default agrees with the worker but where the threaded module failed to load.
    if (Number(this.view.paramsForm.readParams().threads) > threads.max) {
      this.setParams({ threads: threads.max });
      this.paramsChanged();
    }
  }

  /** @param {string} [name]  the field that changed */
  paramsChanged(name) {
    // A model change takes the new model's default learning rate, unless the person set one.
    if (name === 'model') {
      const raw = this.view.paramsForm.readParams();
      const model = modelOf(raw);
      this.view.paramsForm.setParams({ alpha: alphaForModel(String(raw.alpha), this.modelShown, model) });
      this.modelShown = model;
    }
    const valid = this.checkedParams() != null;
    this.setState(this.state);
    // Training goes on with the parameters it started with.
    this.view.paramsForm.showParamsPending(this.working);
    if (!valid) return;
    // Before training, the statistics follow the parameters (min count, tokenizer).
    clearTimeout(this.prepareTimer);
    if (this.state === 'prepared' || (this.state === 'idle' && this.source)) {
      this.prepareTimer = setTimeout(() => {
        if (this.state === 'prepared' || this.state === 'idle') this.prepare();
      }, 250);
    }
  }

  // ---- training

  /** Starts training; a second press while it starts (a double click) does nothing. */
  async train() {
    if (this.starting) return;
    this.starting = true;
    try {
      clearTimeout(this.prepareTimer);
      const params = this.checkedParams();
      if (!params || !this.source) return;
      if (params.tokenizer === 'bpe' && this.learnedBpe !== bpeKey(params) && !(await this.learnBpe(params))) return;
      // Prepared already with these parameters (the statistics follow the form): a large
      // text is not tokenized twice.
      const ready = this.state === 'prepared' && this.preparedParams === JSON.stringify(params);
      if (!ready && !(await this.prepare())) return;
      this.view.paramsForm.showParamsPending(false);
      this.paintAll();
      // The worker starts each model on the plain view: the frames while training show this one.
      await this.mapModel.sendView();
      await this.control('train');
      this.unsaved = true;
    } finally {
      this.starting = false;
    }
  }

  /**
   * Learns the BPE merges, with progress, until done (true) or stopped or failed (false).
   * @param {Params} params
   */
  async learnBpe(params) {
    this.learning = null;
    this.view.sourcePanel.showStats(this.sourceName, null, 'BPE counts its tokens once its merges are learned.');
    const reply = await this.request('learnBpe', { source: this.source, params });
    if (!reply) return false;
    this.learning = { progress: reply.progress, stopped: !reply.done };
    this.paintProgress();
    if (reply.done) this.learnedBpe = bpeKey(params);
    return reply.done;
  }

  /** @param {BpeProgress} progress */
  showBpeProgress(progress) {
    this.learning = { progress, stopped: false };
    this.paintProgress();
  }

  /** The progress area: merges being learned (or where they were stopped), else training. */
  paintProgress() {
    if (this.state === 'loaded') this.view.progressPanel.showProgressText(this.loadedText, this.progress);
    else if (this.learning) this.view.progressPanel.showBpeProgress(this.learning.progress, this.learning.stopped);
    else this.view.progressPanel.showProgress(this.progress, this.state);
  }

  /** 'train' (start or resume), 'pause' or 'stop'; the worker replies with its new state. */
  async control(type) {
    const reply = await this.request(type);
    if (reply) this.setState(reply.state);
  }

  /** The worker's reply, or null after showing why it failed (a request that a newer one replaced fails silently). */
  async request(type, fields) {
    try {
      return await this.worker.request(type, fields);
    } catch (error) {
      if (error.message !== SUPERSEDED) this.view.showNotice(error.message);
      return null;
    }
  }

  /** @param {TrainingState} state */
  setState(state) {
    this.state = state;
    const formValid = checkParams(this.view.paramsForm.readParams(), this.threadLimits()).params != null;
    const busy = state === 'training' || state === 'paused';
    const learning = state === 'learning' || state === 'loading';
    const hasVectors = state === 'loaded' || (state !== 'idle' && state !== 'loading' && this.progress != null);
    this.view.setControls({
      canTrain: Boolean(this.source) && formValid && !busy && !learning,
      trainLabel: state === 'done' || state === 'stopped' ? 'Train again' : 'Train',
      canPause: busy,
      paused: state === 'paused',
      canStop: busy || learning,
      canExport: hasVectors,
      canEvaluate: hasVectors && !this.evaluating,
    });
    if (state !== 'loaded' && state !== 'loading' && (this.progress || this.learning)) this.paintProgress();
    if (state === 'done' && this.isSample && !this.sanityShown) {
      this.sanityShown = true;
      this.sanityCheck();
    }
  }

  /** @param {Progress} progress */
  showProgress(progress) {
    const epochEnded = progress.epochLosses.length !== (this.progress?.epochLosses.length ?? 0);
    this.progress = progress;
    if (epochEnded) this.timeline.epochEnded();
    if (progress.loss > 0) {
      const at = progress.done ? progress.epochs : progress.epoch - 1 + progress.epochTokensDone / progress.epochTokens;
      this.withinEpoch.push(at, progress.loss);
    }
    if (this.state === 'prepared') this.setState('training');
    this.view.progressPanel.showProgress(progress, this.state);
    this.drawLoss();
  }

  drawLoss() {
    const p = this.progress;
    this.view.drawLoss(p ? p.epochs : 1, p ? p.epochLosses : [], this.withinEpoch.points(), this.timeline.marker());
  }

  // ---- the map (www/map/map-model.js has the rest)

  /**
   * A frame of the current model with these view settings, or null when there are no
   * vectors (or they gave way meanwhile). A bad setting (an unknown axis word) throws.
   */
  async projectFrame(settings) {
    if (this.state === 'idle') return null;
    const model = this.model;
    // The reply is read before the worker's next message (its continuation runs first), so
    // its words are in order too.
    const frame = this.frameWords.attach(await this.worker.request('project', { view: settings }));
    return frame && frame.model === this.model && model === this.model ? frame : null;
  }

  /** @param {import('./protocol.js').ProjectionMessage} message */
  showFrame(message) {
    // Even a frame that is not drawn may bring the words the next ones name.
    const frame = this.frameWords.attach(message);
    // A frame of a model that gave way (sent before the worker heard of the new text) is not drawn.
    if (!frame || frame.model !== this.model) return;
    this.mapModel.showFrame(frame);
  }

  /** The link's state: the built-in text shown, and the map's view of it. */
  linkState() {
    const state = this.mapModel.linkState();
    const text = this.isSample ? 'sample' : this.source?.kind === 'url' ? 'kjv' : null;
    if (!text) return null;
    state.set('text', text);
    return state;
  }

  /** Keeps the address's hash on the view (built-in texts only: others cannot be reopened by a link). */
  linkChanged() {
    clearTimeout(this.linkTimer);
    this.linkTimer = setTimeout(() => {
      const state = this.linkState();
      const hash = state ? `#${state}` : '';
      if (location.hash !== hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
    }, 200);
  }

  async copyLink() {
    const state = this.linkState();
    if (!state) {
      this.view.mapPanel.showLinkCopied('A link can restore the view of a built-in text only: this text is your own file.');
      return;
    }
    const url = `${location.origin}${location.pathname}${location.search}#${state}`;
    try {
      await navigator.clipboard.writeText(url);
      this.view.mapPanel.showLinkCopied('Link copied: it opens this text, trains it with the same seed and shows this view.');
    } catch {
      this.view.mapPanel.showLinkCopied(`Copy this link: ${url}`);
    }
  }

  // ---- queries

  async complete(prefix) {
    if (!prefix || this.state === 'idle') return;
    const model = this.model;
    const reply = await this.worker.request('complete', { prefix, limit: COMPLETIONS }).catch(() => null);
    if (reply && this.model === model) this.view.queriesPanel.setCompletions(reply.words);
  }

  /**
   * Selects what the person typed. A BPE token often ends in whitespace ("the king "), which
   * a search box drops at its ends: when the token as typed is unknown, the most frequent
   * one that differs from it only by whitespace at the end is taken instead.
   */
  async search(token) {
    if (await this.select(token, { quiet: true })) return;
    // Only whitespace (which the box shows as ·) that is no token: nothing was typed, really.
    if (!token.trim()) {
      this.view.queriesPanel.showNeighboursMessage('Type a word to see its nearest neighbours.');
      return;
    }
    const reply = await this.worker.request('complete', { prefix: token, limit: COMPLETIONS }).catch(() => null);
    const padded = reply?.words.find((word) => word !== token && word.trimEnd() === token.trimEnd());
    await this.select(padded ?? token);
  }

  /**
   * Selects `word`: lists its neighbours and where it came from, and draws them on the
   * plot. False when the worker could not answer (an unknown word); `quiet` then says nothing.
   */
  async select(word, { quiet = false } = {}) {
    this.view.queriesPanel.setSearch(word);
    const k = this.view.queriesPanel.readK();
    const model = this.model;
    const reply = quiet
      ? await this.worker.request('neighbours', { word, k }).catch(() => null)
      : await this.request('neighbours', { word, k });
    // An answer of vectors that gave way meanwhile is not shown.
    if (!reply || this.model !== model) return false;
    this.selected = word;
    this.view.queriesPanel.showNeighbours(word, reply.neighbours);
    this.mapModel.setAnswers({ selected: word, neighbours: reply.neighbours });
    this.timeline.showHistory(word);
    if (!this.source) return true;
    const info = await this.request('tokenInfo', { token: word, maxLines: CONCORDANCE_LINES });
    if (info && this.selected === word && this.model === model) this.view.queriesPanel.showTokenInfo(info.info, this.tokenizer === 'bpe');
    return true;
  }

  async analogy(a, b, c) {
    const model = this.model;
    try {
      const reply = await this.worker.request('analogy', { a, b, c, k: 5 });
      if (this.model !== model) return;
      this.view.queriesPanel.showAnalogy(a, b, c, reply.cosAdd, reply.cosMul);
      this.analogyWords = reply.cosAdd.length ? [a, b, c, reply.cosAdd[0].word] : null;
    } catch (error) {
      if (this.model !== model) return;
      this.view.queriesPanel.showAnalogyMessage(`${error.message[0].toUpperCase()}${error.message.slice(1)}.`);
      this.analogyWords = null;
    }
    this.mapModel.setAnswers({ analogyWords: this.analogyWords });
  }

  /**
   * Scores the vectors on a benchmark: a built-in one, or the file the person opened.
   * @param {{benchmark: string, restrict: number, ignoreCase: boolean}} settings
   */
  async evaluate({ benchmark, restrict, ignoreCase }) {
    if (this.evaluating) return;
    if (benchmark === 'file' && !this.benchmarkFile) {
      this.view.evaluationPanel.showEvaluationMessage('Open a benchmark file first.');
      return;
    }
    const source = benchmark === 'file' ? { kind: 'file', file: this.benchmarkFile } : { kind: 'builtin', name: benchmark };
    const model = this.model;
    this.view.evaluationPanel.showEvaluationMessage('Evaluating…');
    /** An evaluation the person asked for, of `model`; null when none runs. */
    this.evaluating = { model };
    this.setState(this.state);
    try {
      const report = await this.evaluation({ benchmark: source, restrict, ignoreCase, purpose: 'benchmark' });
      // Vectors that gave way meanwhile took their answers with them (see `reset`).
      if (this.model !== model) return;
      this.view.evaluationPanel.showEvaluationMessage(evaluationSummary(report));
      this.view.evaluationPanel.showEvaluationReport(report);
    } catch (error) {
      if (this.model === model) this.view.evaluationPanel.showEvaluationMessage(`Cannot evaluate: ${error.message}`);
    } finally {
      this.evaluating = null;
      this.setState(this.state);
    }
  }

  /** After training on the built-in sample: how many of its planted analogies come out. */
  async sanityCheck() {
    const model = this.model;
    try {
      const report = await this.evaluation({
        benchmark: { kind: 'builtin', name: 'planted-analogies' }, restrict: null, ignoreCase: false, purpose: 'sanity',
      });
      if (this.model === model) this.view.evaluationPanel.showSanity(`Sanity check on the planted analogies: ${evaluationSummary(report)}`);
    } catch (error) {
      if (this.model === model) this.view.evaluationPanel.showSanity(`The sanity check failed: ${error.message}`);
    }
  }

  /**
   * Runs an `evaluate` request once the evaluations asked for before it have ended: the
   * worker lets a newer evaluation replace a running one, and the sanity check must not
   * replace one the person started (nor the other way round).
   */
  evaluation(fields) {
    const run = (this.evaluations ?? Promise.resolve()).then(() => this.worker.request('evaluate', fields));
    this.evaluations = run.catch(() => {});
    return run.then(({ report }) => report);
  }

/**
   * Builds the one file `name` of the Export card when its button is pressed and hands it to
   * the browser; nothing is kept afterwards. A second press while it builds does nothing.
   * Exporting the vectors in any format saves them, as far as closing the tab goes.
   */
  async export(name) {
    if (this.exporting.has(name)) return;
    const file = EXPORTS.find((f) => f.name === name);
    this.exporting.add(name);
    this.view.exportPanel.showExporting(name, true);
    try {
      const blob = await this.exportBlob(file);
      if (!blob) return;
      if (file.savesVectors) this.unsaved = false;
      this.view.exportPanel.saveFile(name, blob);
    } finally {
      this.exporting.delete(name);
      this.view.exportPanel.showExporting(name, false);
    }
  }

  /** The file's contents: vectors from the worker, the plot from the page; null when there are none. */
  async exportBlob(file) {
    if (file.format) {
      // A bundle holds the timeline too, so it replays when opened.
      const timeline = file.format === 'bundle' ? this.timeline.forBundle() : undefined;
      const reply = await this.request('export', { format: file.format, timeline });
      // The blob takes the bytes; the transferred buffer is let go with the reply.
      return reply && new Blob([reply.bytes], { type: file.type });
    }
    const scene = this.mapModel.scene;
    if (!scene) {
      this.view.showNotice('There is no plot yet to export: train or open vectors first.');
      return null;
    }
    if (file.name === 'projection.csv') return new Blob([projectionCsv(scene)], { type: file.type });
    if (file.name === 'plot.png') return this.view.map.png();
    return new Blob([this.view.map.svg()], { type: 'image/svg+xml' });
  }
}

/**
 * The Export card's files, each built when asked for: the vectors by the worker in its
 * `format` (`savesVectors`: the trained vectors are then kept outside the tab), the plot and
 * its coordinates by the page.
 */
const EXPORTS = [
  { name: 'embedscope-bundle.json', format: 'bundle', type: 'application/json', savesVectors: true, description: 'vectors, counts, parameters and fingerprint; open it here again' },
  { name: 'vectors.txt', format: 'word2vec', type: 'text/plain', savesVectors: true, description: 'word2vec text format' },
  { name: 'vectors.bin', format: 'word2vecBinary', type: 'application/octet-stream', savesVectors: true, description: 'word2vec binary format' },
  { name: 'vectors.tsv', format: 'projectorVectors', type: 'text/plain', savesVectors: true, description: 'Embedding Projector vectors' },
  { name: 'metadata.tsv', format: 'projectorMetadata', type: 'text/plain', description: 'Embedding Projector words' },
  { name: 'projection.csv', type: 'text/csv', description: 'the plotted words and their 2-D coordinates' },
  { name: 'plot.png', description: 'the plot as drawn' },
  { name: 'plot.svg', description: 'the plot as drawn, as vector graphics' },
];

/** A finished run's progress, for vectors re-opened from a bundle with their losses. */
const EMPTY_PROGRESS = { epoch: 0, epochs: 0, epochTokensDone: 0, epochTokens: 0, tokensDone: 0, tokensTotal: 0, alpha: 0, loss: 0, tokensPerSec: 0, done: true, epochLosses: [] };

/** One line on a benchmark's result. @param {import('./protocol.js').EvaluationReport} report */
export function evaluationSummary(report) {
  const share = (n, of) => `${n.toLocaleString('en')} of ${of.toLocaleString('en')} (${of ? ((100 * n) / of).toFixed(1) : '0.0'} %)`;
  if (report.kind === 'analogies') {
    const t = report.total;
    const skipped = t.questions - t.covered;
    return `3CosAdd ${share(t.correctCosAdd, t.covered)}, 3CosMul ${share(t.correctCosMul, t.covered)} correct` +
      (skipped ? `; ${skipped.toLocaleString('en')} of ${t.questions.toLocaleString('en')} questions skipped: a word is not among the most frequent.` : '.');
  }
  const r = (value) => (value == null ? 'undefined' : value.toFixed(3));
  return `Spearman ${r(report.spearman)}, Pearson ${r(report.pearson)} over ${report.found.toLocaleString('en')} of ${report.pairs.toLocaleString('en')} pairs` +
    (report.found < report.pairs ? ` (${(100 * report.oovRatio).toFixed(1)} % out of vocabulary).` : '.');
}

/**
 * The plotted words with their coordinates on the map's axes, as CSV (RFC 4180: a field
 * holding a comma, a quote or a line break is quoted, quotes doubled). Words are written
 * exactly, whitespace and all.
 */
export function projectionCsv(scene) {
  const field = (text) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const { xLabel, yLabel } = scene.options;
  // A t-SNE or UMAP map names how it was made in its column titles: a CSV has nowhere else.
  const made = scene.method ? ` (${scene.method})` : '';
  const rows = [['word', `${xLabel}${made}`, `${yLabel}${made}`].map(field).join(',')];
  scene.words.forEach((word, i) => rows.push(`${field(word)},${scene.coords[2 * i]},${scene.coords[2 * i + 1]}`));
  return rows.join('\r\n') + '\r\n';
}

