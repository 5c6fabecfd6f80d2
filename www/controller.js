// The explorer's logic between the view and the worker: what is loaded, where training
// stands, what the plot shows (the frame, the selection, its neighbours, the analogy).
import { checkParams, DEFAULTS, SAMPLE_PRESET } from './params.js';

/** @typedef {import('./protocol.js').Projection} Projection */
/** @typedef {import('./protocol.js').Progress} Progress */
/** @typedef {import('./protocol.js').TrainingState} TrainingState */

/** Words labelled on the plot: the most frequent ones (ids are in frequency order). */
const LABELLED_WORDS = 50;
const COMPLETIONS = 20;

export class Controller {
  /** @param {import('./view.js').View} view @param {import('./worker-client.js').WorkerClient} worker */
  constructor(view, worker) {
    this.view = view;
    this.worker = worker;
    this.reset();

    view.setParams(DEFAULTS);
    view.setAxes([], 0, 1);
    view.bindUseSample(() => this.open({ kind: 'sample' }, 'Built-in sample: planted royal/common people and countries'));
    view.bindFileChosen((file) => this.openFile(file));
    view.bindParamsChange((name) => this.paramsChanged(name));
    view.bindTrain(() => this.train());
    view.bindPauseResume(() => this.control(this.state === 'paused' ? 'train' : 'pause'));
    view.bindStop(() => this.control('stop'));
    view.bindPlotSettings((settings) => this.project(settings));
    view.bindPlotHover((index) => { this.hovered = index; this.redraw(); });
    view.bindPlotClick((index) => this.select(this.scene.labels[index]));
    view.bindResize(() => { this.redraw(); this.drawLoss(); });
    view.bindWordTyped((prefix) => this.complete(prefix));
    view.bindSearch((word) => this.select(word));
    view.bindResultClick((word) => this.select(word));
    view.bindAnalogy((a, b, c) => this.analogy(a, b, c));
    view.bindEvaluate(() => this.evaluate());
    view.bindExport(() => this.export());

    worker.on('ready', ({ version }) => view.setWorkerStatus('ready', `Worker ready: embedscope ${version}`));
    worker.on('state', ({ state }) => this.setState(state));
    worker.on('progress', ({ progress }) => this.showProgress(progress));
    worker.on('projection', (frame) => this.showFrame(frame));
    worker.on('error', ({ message }) => view.showNotice(`Training failed: ${message}`));
    worker.on('died', ({ message }) => {
      this.reset();
      this.paintAll();
      view.showNotice(`The training worker stopped (${message}) and was restarted. Open the text again to train.`);
    });
    this.paintAll();
  }

  /** Forgets the text, the training and the queries (a new text, or a restarted worker). */
  reset() {
    /** @type {TrainingState} */
    this.state = 'idle';
    this.source = null;
    this.isSample = false;
    /** @type {Progress|null} */
    this.progress = null;
    this.withinEpoch = [];
    /** @type {Projection|null} */
    this.frame = null;
    this.settings = { ...this.view.readPlotSettings(), extraWords: [] };
    this.hovered = null;
    this.selected = null;
    this.neighbours = [];
    this.analogyWords = null;
    this.scene = null;
  }

  paintAll() {
    this.setState(this.state);
    this.view.showProgress(this.progress, this.state);
    this.drawLoss();
    this.redraw();
  }

  // ---- text and parameters

  async openFile(file) {
    this.view.showNotice(null);
    let text;
    try {
      text = await file.text();
    } catch (error) {
      this.view.showNotice(`Cannot read ${file.name}: ${error.message}`);
      return;
    }
    // Leave the sample's preset behind when the person moves on to their own text.
    if (this.isSample) this.view.setParams(DEFAULTS);
    await this.open({ kind: 'text', name: file.name, text }, file.name);
  }

  async open(source, name) {
    this.view.showNotice(null);
    if (source.kind === 'sample') this.view.setParams(SAMPLE_PRESET);
    this.reset();
    this.source = source;
    this.sourceName = name;
    this.paintAll();
    this.view.showStats(name, null);
    await this.prepare();
  }

  /** Tokenizes with the form's parameters and shows the statistics; true when it worked. */
  async prepare() {
    const params = this.checkedParams();
    if (!params || !this.source) return false;
    try {
      const reply = await this.worker.request('prepare', { source: this.source, params });
      this.isSample = reply.isSample;
      this.view.showStats(this.sourceName, reply.stats);
      this.progress = null;
      this.withinEpoch = [];
      this.setState('prepared');
      this.view.showNotice(null);
      return true;
    } catch (error) {
      this.setState('idle');
      this.view.showStats(this.sourceName, null, 'Not prepared: the parameters were rejected (see the message above).');
      this.view.showNotice(`Cannot use these parameters: ${error.message}`);
      return false;
    }
  }

  checkedParams() {
    const { params, errors } = checkParams(this.view.readParams());
    this.view.showParamErrors(errors);
    return params;
  }

  paramsChanged() {
    const valid = this.checkedParams() != null;
    this.setState(this.state);
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

  async train() {
    clearTimeout(this.prepareTimer);
    if (!(await this.prepare())) return;
    this.settings.extraWords = [];
    this.paintAll();
    await this.control('train');
  }

  /** 'train' (start or resume), 'pause' or 'stop'; the worker replies with its new state. */
  async control(type) {
    const reply = await this.request(type);
    if (reply) this.setState(reply.state);
  }

  async request(type, fields) {
    try {
      return await this.worker.request(type, fields);
    } catch (error) {
      this.view.showNotice(error.message);
      return null;
    }
  }

  /** @param {TrainingState} state */
  setState(state) {
    this.state = state;
    const formValid = checkParams(this.view.readParams()).params != null;
    const busy = state === 'training' || state === 'paused';
    const hasVectors = state !== 'idle' && this.progress != null;
    this.view.setControls({
      canTrain: Boolean(this.source) && formValid && !busy,
      trainLabel: state === 'done' || state === 'stopped' ? 'Train again' : 'Train',
      canPause: busy,
      paused: state === 'paused',
      canStop: busy,
      canExport: hasVectors,
      canEvaluate: this.isSample && hasVectors,
    });
    if (this.progress) this.view.showProgress(this.progress, state);
  }

  /** @param {Progress} progress */
  showProgress(progress) {
    this.progress = progress;
    if (progress.loss > 0) {
      const at = progress.done ? progress.epochs : progress.epoch - 1 + progress.epochTokensDone / progress.epochTokens;
      this.withinEpoch.push(at, progress.loss);
    }
    if (this.state === 'prepared') this.setState('training');
    this.view.showProgress(progress, this.state);
    this.drawLoss();
  }

  drawLoss() {
    const p = this.progress;
    this.view.drawLoss(p ? p.epochs : 1, p ? p.epochLosses : [], this.withinEpoch);
  }

  // ---- the plot

  async project(settings) {
    this.settings = { ...this.settings, ...settings };
    if (this.state === 'idle') return;
    const frame = await this.request('project', { view: this.settings });
    if (frame) this.showFrame(frame);
  }

  /** @param {Projection} frame */
  showFrame(frame) {
    this.frame = frame;
    this.view.setAxes(frame.explained, frame.xComponent, frame.yComponent);
    this.redraw();
  }

  /** Words the plot needs that are not among the frequent ones it shows. */
  wantedExtraWords() {
    const plotted = new Set(this.frame?.words ?? []);
    const wanted = [this.selected, ...this.neighbours.map((n) => n.word), ...(this.analogyWords ?? [])];
    return [...new Set(wanted.filter((word) => word != null && !plotted.has(word)))];
  }

  /** Asks for a new frame when the selection or analogy needs words the frame lacks. */
  placeExtraWords() {
    const extra = this.wantedExtraWords();
    const current = this.settings.extraWords;
    if (extra.length === current.length && extra.every((w, i) => w === current[i])) {
      this.redraw();
      return;
    }
    this.project({ extraWords: extra });
  }

  redraw() {
    this.scene = this.frame ? this.buildScene(this.frame) : null;
    this.view.drawPlot(this.scene);
  }

  /** The chart's input: frequent words, then the extra words that could be placed. */
  buildScene(frame) {
    const labels = [...frame.words];
    const coords = Array.from(frame.coords);
    frame.extraWords.forEach((word, i) => {
      const [x, y] = [frame.extraCoords[2 * i], frame.extraCoords[2 * i + 1]];
      if (Number.isFinite(x) && Number.isFinite(y)) {
        labels.push(word);
        coords.push(x, y);
      }
    });
    const index = new Map(labels.map((word, i) => [word, i]));
    const at = (word) => index.get(word);
    const known = (i) => i != null;
    const a = this.analogyWords?.map(at) ?? [];
    const arrows = a.length === 4 ? [[a[0], a[1]], [a[2], a[3]]].filter(([f, t]) => known(f) && known(t)) : [];
    const name = (i) => `PC${i + 1}` + (frame.explained[i] != null ? ` (${(100 * frame.explained[i]).toFixed(1)} % of variance)` : '');
    return {
      labels,
      coords: new Float32Array(coords),
      options: {
        xLabel: name(frame.xComponent),
        yLabel: name(frame.yComponent),
        labelCount: Math.min(LABELLED_WORDS, frame.words.length),
        hovered: this.hovered != null && this.hovered < labels.length ? this.hovered : null,
        selected: at(this.selected) ?? null,
        neighbours: this.neighbours.map((n) => at(n.word)).filter(known),
        arrows,
        highlighted: a.filter(known),
        fixedRange: null,
      },
    };
  }

  // ---- queries

  async complete(prefix) {
    if (!prefix || this.state === 'idle') return;
    const reply = await this.worker.request('complete', { prefix, limit: COMPLETIONS }).catch(() => null);
    if (reply) this.view.setCompletions(reply.words);
  }

  /** Selects `word`: lists its neighbours and draws them on the plot. */
  async select(word) {
    this.view.setSearch(word);
    const reply = await this.request('neighbours', { word, k: this.view.readK() });
    if (!reply) return;
    this.selected = word;
    this.neighbours = reply.neighbours;
    this.view.showNeighbours(word, reply.neighbours);
    this.placeExtraWords();
  }

  async analogy(a, b, c) {
    try {
      const reply = await this.worker.request('analogy', { a, b, c, k: 5 });
      this.view.showAnalogy(a, b, c, reply.cosAdd, reply.cosMul);
      this.analogyWords = reply.cosAdd.length ? [a, b, c, reply.cosAdd[0].word] : null;
    } catch (error) {
      this.view.showAnalogyMessage(`${error.message[0].toUpperCase()}${error.message.slice(1)}.`);
      this.analogyWords = null;
    }
    this.placeExtraWords();
  }

  async evaluate() {
    const reply = await this.request('evaluate');
    if (!reply) return;
    const share = (n) => `${n} of ${reply.total} (${((100 * n) / reply.total).toFixed(1)} %)`;
    this.view.showEvaluation(`Planted analogies answered: 3CosAdd ${share(reply.correctCosAdd)}, 3CosMul ${share(reply.correctCosMul)}.`);
  }

  async export() {
    const [word2vec, projector, png] = await Promise.all([
      this.request('export', { format: 'word2vec' }),
      this.request('export', { format: 'projector' }),
      this.view.plotPng(),
    ]);
    if (!word2vec || !projector) return;
    const text = (file) => new Blob([file.text], { type: 'text/plain' });
    this.view.showDownloads([
      { name: 'vectors.txt', blob: text(word2vec.files[0]), description: 'word2vec text format' },
      { name: 'vectors.tsv', blob: text(projector.files[0]), description: 'Embedding Projector vectors' },
      { name: 'metadata.tsv', blob: text(projector.files[1]), description: 'Embedding Projector words' },
      ...(png ? [{ name: 'plot.png', blob: png, description: 'the plot as drawn' }] : []),
    ]);
  }
}
