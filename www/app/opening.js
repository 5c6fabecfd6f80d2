// @ts-check
// The page's opening of what the person chooses: a text (a file, the built-in sample, the King
// James Bible the server holds, a link's text), vectors trained elsewhere or a bundle saved
// here (read by the worker, which says what the files are), and the question before work
// running gives way. What is open (`source`, `vectors`, `model`, …) is the controller's; this
// part changes it. A newer opening supersedes an older one (the tokens of
// www/worker/scheduler.js): only the last has its say.
import { DEFAULTS, KJV_PRESET, SAMPLE_PRESET } from '../training/params.js';
import { SUPERSEDED } from '../protocol.js';
import { capitalised } from '../shared/format.js';

/** @typedef {import('../protocol.js').Source} Source */

/** What the Parameters summary calls a preset. */
const presetName = (preset) => {
  if (preset === SAMPLE_PRESET) return "the sample's preset";
  if (preset === KJV_PRESET) return 'the King James preset';
  return 'the defaults';
};

export class Opening {
  /** @param {import('./controller.js').Controller} host */
  constructor(host) {
    this.host = host;
    this.view = host.view;
    this.params = host.params;
    this.worker = host.worker;
    /** @type {{what: string, learning: boolean}|null} what `mayReplace` is asking about, while it asks */
    this.asking = null;
    /** Numbers the openings of files: the worker reads a file of the same opening once (`Source.key`). */
    this.fileOpenings = 0;
  }

  /** Offers the King James Bible, which the server holds at `url` (main.js checked). */
  offerKjv(url) {
    this.view.sourcePanel.offerKjv(() => this.open({ kind: 'url', name: 'King James Bible', url }, 'King James Bible (data/kjv.txt)', KJV_PRESET));
  }

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
    const token = this.begin();
    this.fileOpenings += 1;
    const key = this.fileOpenings;
    // The worker says 'loading' once it knows the file holds vectors, and where it stands after.
    const reply = await this.host.request('openFiles', { files, tensor, columns, maxWords, entry });
    // Something opened meanwhile (after stopping this read) has the last word.
    if (token.cancelled) return;
    if (!reply) {
      // Refused or stopped: the line said how far the file was read; now it says where what
      // stays open stands (the notice says what happened to the file).
      this.host.paintProgress();
      return;
    }
    if (reply.kind === 'chooseTensor') {
      // A model file whose matrix has no name we know: what was open stays, and the person picks.
      this.host.paintProgress();
      this.view.sourcePanel.offerTensors(reply, (name) => this.openFiles(files, name));
      return;
    }
    if (reply.kind === 'chooseColumns') {
      // A table of several candidate columns: what was open stays, and the person picks.
      this.host.paintProgress();
      this.view.sourcePanel.offerColumns(reply, (chosen) => this.openFiles(files, undefined, chosen));
      return;
    }
    if (reply.kind === 'chooseEntry') {
      // A zip of several files: what was open stays, and the person picks one.
      this.host.paintProgress();
      this.view.sourcePanel.offerEntries(reply, (name) => this.openFiles(files, undefined, undefined, undefined, name));
      return;
    }
    if (reply.kind === 'text') {
      const [file] = files;
      const name = entry ? `${file.name}:${entry}` : file.name;
      // Leave a preset behind when the person moves on to their own text.
      await this.open({ kind: 'file', name, file, key, entry }, name, this.host.source?.kind === 'file' ? null : DEFAULTS);
      return;
    }
    await this.showVectors(files, names, reply);
  }

  /**
   * Vectors opened from `files` (called `names`): what was open gives way to them.
   * @param {File[]} files @param {string} names
   * @param {Extract<import('../protocol.js').OpenFilesReply, {kind: 'vectors'}>} reply
   */
  async showVectors(files, names, reply) {
    this.host.reset();
    this.host.model = reply.model;
    this.host.vectors = reply.info;
    this.view.sourcePanel.offerWords(reply.info, (n) => this.openFiles(files, undefined, undefined, n));
    this.view.matrixPanel.showModel(reply.info.model ?? null);
    const facts = reply.info.model;
    this.view.queriesPanel.markSpecialFrom(facts && facts.special > 0 ? facts.rows - facts.special : null);
    // The form shows what the file says of the vectors: a bundle's parameters, else the dimension.
    this.params.set(reply.params ?? { dim: reply.info.dim });
    this.view.paramsForm.showOpenedVectors(reply.params ? 'bundle' : 'vectors');
    this.view.queriesPanel.showTokenSigns(reply.info.tokensWithWhitespace > 0);
    this.host.progress = reply.epochLosses?.length
      ? { ...EMPTY_PROGRESS, epoch: reply.epochLosses.length, epochs: reply.epochLosses.length, epochLosses: reply.epochLosses, done: true }
      : null;
    this.host.sourceName = names;
    // A bundle saved after training holds its timeline: it replays.
    this.host.timeline.load(reply.timeline);
    this.view.sourcePanel.showVectorsStats(names, reply.info);
    const model = reply.info.model;
    this.host.loadedText = model
      ? `Opened the token embeddings of ${model.file}: ${reply.info.words.toLocaleString('en')} tokens × ${reply.info.dim.toLocaleString('en')} dimensions (${model.tensor}, ${model.dtype}).`
      : `Opened ${reply.info.words.toLocaleString('en')} vectors of ${reply.info.dim.toLocaleString('en')} dimensions from ${names}.`
        + (reply.info.note ? ` ${capitalised(reply.info.note)}.` : '');
    this.host.paintAll();
    await this.host.mapModel.sendMapSpec();
  }

  /**
   * Before something replaces the text or the vectors: while training (or learning BPE
   * merges) asks whether to stop, so nothing is cancelled by accident; false when the
   * person keeps training. A vectors file being read is simply stopped.
   */
  async mayReplace(what) {
    const { state, working } = this.host.report;
    if (state === 'loading') {
      await this.host.stop();
      return true;
    }
    if (!working) return true;
    const going = { training: 'Training is running', paused: 'Training is paused', learning: 'BPE merges are being learned' }[state];
    const asking = { what, learning: state === 'learning' };
    this.asking = asking;
    const question = this.view.confirm(
      `${going}. Stop it and open ${what}? What was learned so far gives way to it.`,
      `Stop and open ${what}`,
      'Keep training',
    );
    const stop = await question.finally(() => {
      if (this.asking === asking) this.asking = null;
    });
    if (stop && this.host.report.working) await this.host.stop();
    return stop;
  }

  /**
   * The work that `mayReplace` asked about ended before the person answered: the question
   * says so, instead of asking to stop what no longer runs.
   */
  retitleQuestion() {
    if (!this.asking || this.host.report.working) return;
    const { what, learning } = this.asking;
    const ended = learning ? 'The BPE merges are learned' : this.host.report.state === 'done' ? 'Training has finished' : 'Training has stopped';
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
        if (!(await this.host.prepare())) return;
      }
    } catch {
      // A link with broken parameters trains with the text's preset.
    }
    if (this.host.report.state !== 'prepared') return;
    await this.host.train();
    await this.host.mapModel.restore(state);
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
    const token = this.begin();
    this.view.sourcePanel.showReading(name);
    try {
      await this.worker.request('readText', { source });
    } catch (error) {
      // Something opened meanwhile has the last word.
      if (token.cancelled || error.message === SUPERSEDED) return;
      this.view.sourcePanel.restore();
      this.refused(name, error.message);
      return;
    }
    if (token.cancelled) return;
    if (preset) this.params.usePreset(preset, presetName(preset));
    this.host.reset();
    this.host.source = source;
    this.host.sourceName = name;
    this.host.paintAll();
    this.view.sourcePanel.showStats(name, null);
    await this.host.prepare(this.params.checked(), true);
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
    this.host.showState();
    this.host.paintProgress();
    if (this.host.source && !this.host.vectors) this.view.progressPanel.addNote(`${this.host.sourceName} is still open: Train uses it.`);
  }

  /** Keeps only the text of the XML or HTML text open, and prepares that in its place. */
  async keepOnlyText() {
    const { source, sourceName } = this.host;
    if (!source || !(await this.mayReplace(`only the text of ${sourceName}`))) return;
    this.view.showNotice(null);
    this.view.sourcePanel.showRefusal(null);
    this.begin();
    const reply = await this.host.request('stripMarkup');
    if (!reply || this.host.source !== source) return;
    // A new text: nothing learned from the markup stays.
    this.host.reset();
    this.host.source = source;
    this.host.sourceName = sourceName;
    this.host.paintAll();
    this.view.sourcePanel.showStats(sourceName, null, 'Reading…', reply.text);
    await this.host.prepare(this.params.checked(), true);
  }

  /**
   * An opening starts: it supersedes the one before, and a `prepare` still running (of the
   * text that gives way) has no say any more.
   */
  begin() {
    this.host.tasks.cancel(['prepare']);
    return this.host.tasks.begin('open');
  }
}

/** A finished run's progress, for vectors re-opened from a bundle with their losses. */
const EMPTY_PROGRESS = {
  epoch: 0, epochs: 0, epochTokensDone: 0, epochTokens: 0, tokensDone: 0, tokensTotal: 0, alpha: 0, loss: 0, positiveLoss: 0, negativeLoss: 0,
  tokensPerSec: 0, done: true, epochLosses: [], epochPositiveLosses: [], epochNegativeLosses: [],
};
