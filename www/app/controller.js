// @ts-check
// The explorer's logic between the view and the worker: what is loaded (a text or vectors,
// and the parameters it is prepared with), where training stands (BPE merges first, when
// that tokenizer is chosen), the frames the map shows and the link to its view. It composes
// the rest, each knowing no DOM: the map (map/map-model.js), the timeline
// (timeline/timeline.js), the queries (queries/queries.js), the benchmarks
// (evaluation/evaluations.js), the Export card's files (exports/exports.js), the Matrix
// card's band (matrix/matrix.js) and the Sampling card's numbers (sampling/sampling.js). A word
// selected anywhere (the map, a list, the matrix's rows) is selected in all of them.
import { DEFAULTS, KJV_PRESET, SAMPLE_PRESET } from '../training/params.js';
import { Parameters } from '../training/parameters.js';
import { LossSeries } from '../training/loss-series.js';
import { SUPERSEDED } from '../protocol.js';
import { capitalised } from '../shared/format.js';
import { INITIAL_STATE } from '../worker/states.js';
import { FrameWords } from '../map/frame-words.js';
import { MapModel } from '../map/map-model.js';
import { Link } from '../map/link.js';
import { Timeline } from '../timeline/timeline.js';
import { Queries } from '../queries/queries.js';
import { Evaluations } from '../evaluation/evaluations.js';
import { Exports } from '../exports/exports.js';
import { Matrix } from '../matrix/matrix.js';
import { Sampling } from '../sampling/sampling.js';

/** @typedef {import('../protocol.js').Projection} Projection */
/** @typedef {import('../protocol.js').Progress} Progress */
/** @typedef {import('../protocol.js').TrainingState} TrainingState */
/** @typedef {import('../protocol.js').BpeProgress} BpeProgress */
/** @typedef {import('../protocol.js').Params} Params */
/** @typedef {import('../protocol.js').Source} Source */

/** Which merges a set of parameters learns, to know when they are learned already. */
const bpeKey = (params) => `${params.bpeVocabSize} ${params.bpeMode}`;

/** What the Parameters summary calls a preset. */
const presetName = (preset) => {
  if (preset === SAMPLE_PRESET) return "the sample's preset";
  if (preset === KJV_PRESET) return 'the King James preset';
  return 'the defaults';
};

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
      idle: () => !this.showsModel,
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
      model: () => (this.showsModel ? this.model : null),
      version: () => this.progress?.tokensDone ?? 0,
      select: (word) => this.queries.select(word),
    });
    this.sampling = new Sampling(view.samplingPanel, worker, {
      model: () => (this.showsModel ? this.model : null),
      trained: () => Boolean(this.source),
      select: (word) => this.queries.select(word),
    });
    /** @type {TrainingState} the worker's state, as its last `state` message said (see `mirror`) */
    this.state = INITIAL_STATE;
    this.reset();

    /** @type {{what: string, learning: boolean}|null} what `mayReplace` is asking about, while it asks */
    this.asking = null;
    this.params.set(DEFAULTS);
    view.mapPanel.setAxes([], 0, 1);
    view.sourcePanel.bindUseSample(() => this.openSample());
    view.sourcePanel.bindFileChosen((files) => this.openFiles(files));
    view.sourcePanel.bindKeepText(() => this.keepOnlyText());
    view.paramsForm.bindParamsChange((name) => this.paramsChanged(name));
    view.progressPanel.bindTrain(() => this.train());
    view.progressPanel.bindPauseResume(() => this.control(this.state === 'paused' ? 'train' : 'pause'));
    view.progressPanel.bindStop(() => this.stop());
    view.stepPanel.bindStep((count) => this.stepUpdates(count));
    view.stepPanel.bindResume(() => this.control('train'));
    view.bindResize(() => { this.mapModel.redraw(); this.drawLoss(); });
    // Closing the tab would lose vectors trained here and not exported: the browser asks first.
    view.bindLeave(() => this.unsaved);

    /** @type {'starting'|'ready'|'unavailable'} whether the worker answers, for the line under Train */
    this.workerState = 'starting';
    worker.on('ready', ({ version, threads }) => {
      view.setWorkerStatus('ready', `Worker ready: embedscope ${version}`);
      this.workerState = 'ready';
      this.useThreads(threads);
      this.showState();
    });
    worker.on('unavailable', () => {
      this.workerState = 'unavailable';
      this.showState();
    });
    worker.on('state', ({ state }) => this.mirror(state));
    worker.on('progress', ({ progress, threads }) => this.showProgress({ ...progress, threads }));
    worker.on('bpeProgress', ({ progress }) => this.showBpeProgress(progress));
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
      this.state = INITIAL_STATE;
      this.workerState = 'starting';
      this.reset();
      this.paintAll();
      view.showNotice(`The training worker stopped (${message}) and was restarted. Open the text again to train.`);
    });
    this.paintAll();
  }

  /** The last analogy's four words (A, B, C and the answer), or null; "Show these four words on the map" isolates them. */
  get analogyWords() {
    return this.queries.analogyWords;
  }

  /** Offers the King James Bible, which the server holds at `url` (main.js checked). */
  offerKjv(url) {
    this.view.sourcePanel.offerKjv(() => this.open({ kind: 'url', name: 'King James Bible', url }, 'King James Bible (data/kjv.txt)', KJV_PRESET));
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

  // ---- text and parameters

  /**
   * Opens what the person dropped or chose: vectors trained elsewhere (or a bundle saved
   * here) are read by the worker and explored as they are; anything else is a text to train on.
   * @param {File[]} files  one file, a Projector `vectors.tsv` with its `metadata.tsv`, or a
   *   language model's files (a `.safetensors` or `.gguf`, a sharded model's index and shards,
   *   its `tokenizer.json`)
   * @param {string} [tensor]  the model's tensor the person chose, when none has a known name
   * @param {{word: string, vector: string}} [columns]  a Parquet table's columns the person chose
   * @param {number} [maxWords]  the most frequent words of a fastText model to keep (the page's default when undefined)
   * @param {string} [entry]  the file the person chose in a zip that holds several
   */
  async openFiles(files, tensor, columns, maxWords, entry) {
    this.view.showNotice(null);
    this.view.sourcePanel.offerTensors(null);
    this.view.sourcePanel.offerColumns(null);
    this.view.sourcePanel.offerWords(null);
    this.view.sourcePanel.offerEntries(null);
    // A dropped folder (a Spark model's) brings its checksums and markers: they are not named.
    const named = files.filter((f) => !/^[._]/.test(f.name));
    const names = named.length > 3 ? `${named[0].name} and ${named.length - 1} more files` : (named.length ? named : files).map((f) => f.name).join(' + ');
    if (!(await this.mayReplace(names))) return;
    /** Counts what was opened, so a slower earlier `prepare` does not overwrite this one. */
    this.opened = (this.opened ?? 0) + 1;
    const opened = this.opened;
    // The worker says 'loading' once it knows the file holds vectors, and where it stands after.
    const reply = await this.request('openFiles', { files, tensor, columns, maxWords, entry });
    // Something opened meanwhile (after stopping this read) has the last word.
    if (this.opened !== opened) return;
    if (!reply) {
      // Refused or stopped: the line said how far the file was read; now it says where what
      // stays open stands (the notice says what happened to the file).
      this.paintProgress();
      return;
    }
    if (reply.kind === 'chooseTensor') {
      // A model file whose matrix has no name we know: what was open stays, and the person picks.
      this.paintProgress();
      this.view.sourcePanel.offerTensors(reply, (name) => this.openFiles(files, name));
      return;
    }
    if (reply.kind === 'chooseColumns') {
      // A table of several candidate columns: what was open stays, and the person picks.
      this.paintProgress();
      this.view.sourcePanel.offerColumns(reply, (chosen) => this.openFiles(files, undefined, chosen));
      return;
    }
    if (reply.kind === 'chooseEntry') {
      // A zip of several files: what was open stays, and the person picks one.
      this.paintProgress();
      this.view.sourcePanel.offerEntries(reply, (name) => this.openFiles(files, undefined, undefined, undefined, name));
      return;
    }
    if (reply.kind === 'text') {
      const [file] = files;
      const name = entry ? `${file.name}:${entry}` : file.name;
      // Leave a preset behind when the person moves on to their own text.
      await this.open({ kind: 'file', name, file, key: opened, entry }, name, this.source?.kind === 'file' ? null : DEFAULTS);
      return;
    }
    this.reset();
    this.model = reply.model;
    this.vectors = reply.info;
    this.view.sourcePanel.offerWords(reply.info, (n) => this.openFiles(files, undefined, undefined, n));
    this.view.matrixPanel.showModel(reply.info.model ?? null);
    const facts = reply.info.model;
    this.view.queriesPanel.markSpecialFrom(facts && facts.special > 0 ? facts.rows - facts.special : null);
    // The form shows what the file says of the vectors: a bundle's parameters, else the dimension.
    this.params.set(reply.params ?? { dim: reply.info.dim });
    this.view.paramsForm.showOpenedVectors(reply.params ? 'bundle' : 'vectors');
    this.view.queriesPanel.showTokenSigns(reply.info.tokensWithWhitespace > 0);
    this.progress = reply.epochLosses?.length
      ? { ...EMPTY_PROGRESS, epoch: reply.epochLosses.length, epochs: reply.epochLosses.length, epochLosses: reply.epochLosses, done: true }
      : null;
    this.sourceName = names;
    // A bundle saved after training holds its timeline: it replays.
    this.timeline.load(reply.timeline);
    this.view.sourcePanel.showVectorsStats(names, reply.info);
    const model = reply.info.model;
    this.loadedText = model
      ? `Opened the token embeddings of ${model.file}: ${reply.info.words.toLocaleString('en')} tokens × ${reply.info.dim.toLocaleString('en')} dimensions (${model.tensor}, ${model.dtype}).`
      : `Opened ${reply.info.words.toLocaleString('en')} vectors of ${reply.info.dim.toLocaleString('en')} dimensions from ${names}.`
        + (reply.info.note ? ` ${capitalised(reply.info.note)}.` : '');
    this.paintAll();
    await this.mapModel.sendMapSpec();
  }

  /**
   * Whether the page shows a model the worker holds: a prepared text (trained or not) or
   * opened vectors. Not after a new text is chosen, until the worker has tokenized it: the
   * worker's state then still describes the model that gives way (a BPE text reaches the
   * worker only when its merges are learned, at Train).
   */
  get showsModel() {
    return this.model != null && this.state !== 'idle';
  }

  /** Whether the statistics may follow the form: a prepared text, or a text chosen and not yet tokenized, with nothing running. */
  get mayPrepare() {
    if (this.working || this.state === 'loading' || !this.source) return false;
    return this.state === 'prepared' || !this.showsModel;
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
      await this.stop();
      return true;
    }
    if (!this.working) return true;
    const going = { training: 'Training is running', paused: 'Training is paused', learning: 'BPE merges are being learned' }[this.state];
    const asking = { what, learning: this.state === 'learning' };
    this.asking = asking;
    const question = this.view.confirm(
      `${going}. Stop it and open ${what}? What was learned so far gives way to it.`,
      `Stop and open ${what}`,
      'Keep training',
    );
    const stop = await question.finally(() => {
      if (this.asking === asking) this.asking = null;
    });
    if (stop && this.working) await this.stop();
    return stop;
  }

  /**
   * The work that `mayReplace` asked about ended before the person answered: the question
   * says so, instead of asking to stop what no longer runs.
   */
  retitleQuestion() {
    if (!this.asking || this.working) return;
    const { what, learning } = this.asking;
    const ended = learning ? 'The BPE merges are learned' : this.state === 'done' ? 'Training has finished' : 'Training has stopped';
    const given = learning ? 'The merges give way to it.' : 'The vectors it learned give way to it.';
    this.view.retitleConfirm(`${ended}. Open ${what}? ${given}`, `Open ${what}`, learning ? 'Keep this text' : 'Keep these vectors');
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
    // The parameters the view's model was trained with: only the form's own fields are
    // taken (`setParams` passes over other names), and the form checks them as typed ones.
    try {
      const params = JSON.parse(state.get('params') ?? 'null');
      if (params && typeof params === 'object' && !Array.isArray(params)) {
        const fields = Object.keys(this.params.form.readParams());
        this.params.set(Object.fromEntries(Object.entries(params).filter(([name, value]) => fields.includes(name) && ['string', 'number', 'boolean'].includes(typeof value))));
        if (!(await this.prepare())) return;
      }
    } catch {
      // A link with broken parameters trains with the text's preset.
    }
    if (this.state !== 'prepared') return;
    await this.train();
    await this.mapModel.restore(state);
  }

  /** Opens the built-in sample: the page starts on it, so training is one click away. */
  openSample() {
    return this.open({ kind: 'sample' }, 'Built-in sample: planted royal/common people and countries', SAMPLE_PRESET);
  }

  /**
   * Opens a text: the worker reads it first, and only a text it takes replaces what is open.
   * A file it refuses (not text, too large) leaves the text or vectors from before, and says
   * why in the card of the text (see `refused`).
   * @param {Source} source @param {string} name @param {object|null} preset
   */
  async open(source, name, preset) {
    this.view.showNotice(null);
    this.view.sourcePanel.showRefusal(null);
    if (!(await this.mayReplace(name))) return;
    this.opened = (this.opened ?? 0) + 1;
    const opened = this.opened;
    this.view.sourcePanel.showReading(name);
    try {
      await this.worker.request('readText', { source });
    } catch (error) {
      // Something opened meanwhile has the last word.
      if (this.opened !== opened || error.message === SUPERSEDED) return;
      this.view.sourcePanel.restore();
      this.refused(name, error.message);
      return;
    }
    if (this.opened !== opened) return;
    if (preset) this.params.usePreset(preset, presetName(preset));
    this.reset();
    this.source = source;
    this.sourceName = name;
    this.paintAll();
    this.view.sourcePanel.showStats(name, null);
    await this.prepare(this.params.checked(), true);
  }

  /**
   * The worker refused the text `name` (`message` says why) and kept what it held: the Text
   * card and the notice say why, and the progress line and Train stay true to what is open.
   * @param {string} name @param {string} message
   */
  refused(name, message) {
    const why = `Cannot open ${name}: ${message}`;
    this.view.showNotice(why);
    this.view.sourcePanel.showRefusal(why);
    this.showState();
    this.paintProgress();
    if (this.source && !this.vectors) this.view.progressPanel.addNote(`${this.sourceName} is still open: Train uses it.`);
  }

  /** Keeps only the text of the XML or HTML text open, and prepares that in its place. */
  async keepOnlyText() {
    const { source, sourceName } = this;
    if (!source || !(await this.mayReplace(`only the text of ${sourceName}`))) return;
    this.view.showNotice(null);
    this.view.sourcePanel.showRefusal(null);
    this.opened = (this.opened ?? 0) + 1;
    const reply = await this.request('stripMarkup');
    if (!reply || this.source !== source) return;
    // A new text: nothing learned from the markup stays.
    this.reset();
    this.source = source;
    this.sourceName = sourceName;
    this.paintAll();
    this.view.sourcePanel.showStats(sourceName, null, 'Reading…', reply.text);
    await this.prepare(this.params.checked(), true);
  }

  /**
   * Tokenizes with the form's parameters (or `params`, those a training starts with) and
   * shows the statistics; true when it worked. `opening`: the text was just opened, so a
   * failure is the text's refusal, said in the card of the text too. With BPE, only once the merges are learned
   * (`train` learns them first).
   */
  async prepare(params = this.params.checked(), opening = false) {
    if (!params || !this.source) return false;
    if (params.tokenizer === 'bpe' && this.learnedBpe !== bpeKey(params)) {
      this.view.sourcePanel.showStats(this.sourceName, null, 'BPE counts its tokens once its merges are learned: press Train.');
      return false;
    }
    const source = this.source;
    const opened = this.opened;
    this.preparations = (this.preparations ?? 0) + 1;
    const mine = this.preparations;
    try {
      const reply = await this.worker.request('prepare', { source, params });
      // A file opened meanwhile (dropped while the sample loads) has the last word.
      if (this.source !== source || this.opened !== opened || this.preparations !== mine) return false;
      this.isSample = reply.isSample;
      // A new model of this text (trained again, or other parameters before training): no
      // answer of the one before stays.
      if (reply.model !== this.model) this.clearAnswers();
      this.model = reply.model;
      this.tokenizer = params.tokenizer;
      this.view.queriesPanel.showTokenSigns(reply.stats.tokensWithWhitespace > 0);
      // Another tokenizer replaces the worker's BPE model.
      if (params.tokenizer !== 'bpe') this.learnedBpe = null;
      this.view.sourcePanel.showStats(this.sourceName, reply.stats, undefined, reply.text);
      this.progress = null;
      this.learning = null;
      this.withinEpoch = new LossSeries();
      this.view.stepPanel.clear();
      this.timeline.clear();
      this.preparedParams = JSON.stringify(params);
      /** The form as it was for the model prepared: a link trains the text with it again. */
      this.preparedForm = this.params.form.readParams();
      this.showState();
      // The progress line said how the text was read and tokenized: now it says where training stands.
      this.paintProgress();
      this.view.showNotice(null);
      this.view.sourcePanel.showRefusal(null);
      return true;
    } catch (error) {
      // A newer text or newer parameters have the last word; Stop cancels a text being
      // tokenized for training (see `stop`).
      if (this.source !== source || this.opened !== opened || this.preparations !== mine || error.message === SUPERSEDED) return false;
      // Train again refused (min count too high, nothing to learn): the worker keeps the
      // model trained before, so the page keeps it too, exports and queries included.
      this.showState();
      if (this.showsModel && (this.state === 'done' || this.state === 'stopped')) {
        this.view.showNotice(`Cannot train ${this.sourceName} again: ${error.message}. The vectors trained before are kept.`);
        return false;
      }
      this.view.sourcePanel.showStats(this.sourceName, null, 'Not prepared: see the message above.');
      this.view.showNotice(`Cannot prepare ${this.sourceName}: ${error.message}`);
      if (opening) this.view.sourcePanel.showRefusal(`Cannot prepare ${this.sourceName}: ${error.message}`);
      return false;
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
    this.showState();
    // Training goes on with the parameters it started with.
    this.view.paramsForm.showParamsPending(this.working);
    if (!valid) return;
    // Before training, the statistics follow the parameters (min count, tokenizer).
    clearTimeout(this.prepareTimer);
    if (this.mayPrepare) {
      this.prepareTimer = setTimeout(() => {
        if (this.mayPrepare) this.prepare();
      }, 250);
    }
  }

  // ---- training

  /**
   * Starts training; a second press while it starts (a double click) does nothing. With BPE
   * it learns the merges first and tokenizes the text with them: Stop at any point of that
   * stops it before anything trains (see `stop`).
   */
  async train() {
    if (this.starting) return;
    this.starting = true;
    this.startStopped = false;
    try {
      clearTimeout(this.prepareTimer);
      const params = this.params.checked();
      if (!params || !this.source) return;
      if (params.tokenizer === 'bpe' && this.learnedBpe !== bpeKey(params) && !(await this.learnBpe(params))) return;
      // Prepared already with these parameters (the statistics follow the form): a large
      // text is not tokenized twice. The form may have changed while the merges were
      // learned: training goes on with the parameters it started with, as it does when the
      // form changes while it runs, and the note says the change waits.
      const ready = this.state === 'prepared' && this.preparedParams === JSON.stringify(params);
      if (this.stoppedBeforeTraining()) return;
      if (!ready && !(await this.prepare(params))) {
        this.stoppedBeforeTraining();
        return;
      }
      if (this.stoppedBeforeTraining()) return;
      this.view.paramsForm.showParamsPending(JSON.stringify(this.params.checked()) !== JSON.stringify(params));
      this.paintAll();
      // The worker starts each model on the plain view: the frames while training show this one.
      await this.mapModel.sendMapSpec();
      if (this.stoppedBeforeTraining()) return;
      await this.control('train');
      this.unsaved = true;
    } finally {
      this.starting = false;
    }
  }

  /**
   * Whether Stop was pressed while `train` was starting; if so the progress line says so:
   * where the merges stood (learned, when they were), or "Not started." once the text was
   * tokenized with them.
   */
  stoppedBeforeTraining() {
    if (!this.startStopped) return false;
    if (this.learning) {
      this.learning = { ...this.learning, stopped: true };
      if (this.learning.progress.done) this.view.sourcePanel.showStats(this.sourceName, null, 'The BPE merges are learned: their tokens are counted when you press Train.');
    }
    this.paintProgress();
    return true;
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
    if (!this.source && !this.vectors) this.view.progressPanel.showProgressText('No text is open: open a file or use the built-in sample to train.', null);
    else if (this.state === 'loaded' && this.vectors) this.view.progressPanel.showProgressText(this.loadedText, this.progress);
    else if (this.learning) this.view.progressPanel.showBpeProgress(this.learning.progress, this.learning.stopped);
    else this.view.progressPanel.showProgress(this.progress, this.state);
  }

  /**
   * Stop: ends training, BPE learning or the reading of a vectors file. While `train` is
   * starting (the merges just learned, the text being tokenized with them, where the page
   * still says 'learning') it also keeps training from starting; the worker cancels the
   * tokenizing.
   */
  stop() {
    if (this.starting) this.startStopped = true;
    return this.control('stop');
  }

  /** 'train' (start or resume), 'pause' or 'stop'; the worker replies with its new state. */
  async control(type) {
    const reply = await this.request(type);
    if (reply) this.mirror(reply.state);
  }

  /** The step mode's `count` single updates of the paused training (the worker sends their progress). */
  async stepUpdates(count) {
    const reply = await this.request('stepUpdates', { count });
    if (!reply) return;
    this.view.stepPanel.show(reply);
    this.mapModel.showMoves(reply.moves);
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

  /**
   * The worker's state changed (a `state` message, or the reply to train, pause or stop):
   * the page takes it as it is, and shows it.
   * @param {TrainingState} state
   */
  mirror(state) {
    this.state = state;
    // The step mode's moves belong to a paused training: going on at full speed moves every row.
    if (state !== 'paused') this.mapModel.showMoves(null);
    this.showState();
  }

  /** The controls, the progress line and the question to stop, as the state and the form say. */
  showState() {
    const state = this.state;
    const formValid = this.params.valid();
    const busy = state === 'training' || state === 'paused';
    const learning = state === 'learning' || state === 'loading';
    const hasVectors = this.showsModel && (state === 'loaded' || (state !== 'idle' && state !== 'loading' && this.progress != null));
    // Train needs a worker that answers: until then a click would wait unseen, or fail.
    const canTrain = this.workerState === 'ready' && Boolean(this.source) && formValid && !busy && !learning;
    this.view.setControls({
      canTrain,
      whyNoTrain: canTrain ? null : this.whyNoTrain(formValid),
      trainLabel: this.showsModel && (state === 'done' || state === 'stopped') ? 'Train again' : 'Train',
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
    this.retitleQuestion();
    this.matrix.update();
    this.sampling.update();
    if (state === 'done' && this.isSample && !this.sanityShown) {
      this.sanityShown = true;
      this.sanityCheck();
    }
  }

  /** Why Train is disabled, in a line a person can act on. */
  whyNoTrain(formValid) {
    const state = this.state;
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
    this.view.progressPanel.showProgress(progress, this.state);
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

  // ---- the map (www/map/map-model.js has the rest)

  /**
   * A frame of the current model with these view settings, or null when there are no
   * vectors (or they gave way meanwhile). A bad setting (an unknown axis word) throws.
   */
  async projectFrame(settings) {
    if (!this.showsModel) return null;
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
}

/** A finished run's progress, for vectors re-opened from a bundle with their losses. */
const EMPTY_PROGRESS = {
  epoch: 0, epochs: 0, epochTokensDone: 0, epochTokens: 0, tokensDone: 0, tokensTotal: 0, alpha: 0, loss: 0, positiveLoss: 0, negativeLoss: 0,
  tokensPerSec: 0, done: true, epochLosses: [], epochPositiveLosses: [], epochNegativeLosses: [],
};
