// @ts-check
// The page's view: the only code that queries or changes the DOM and the canvases. It
// renders what the controller hands it and reports what the person does through the
// bindX(handler) methods; it never talks to the worker. Text that comes from a file (words,
// file names) is only ever set with textContent. Tokens are shown through `displayToken`
// and read from inputs through `parseTypedToken`: the view hands the controller tokens as
// they are, whitespace and all.
import { MapPanel } from './map/map-panel.js';
import { MapView } from './map/map-view.js';
import { HistoryPanel, TimelinePanel } from './timeline/timeline-panel.js';
import { readPalette } from './map/palette.js';
import { NUMBER_FIELDS } from './params.js';
import { displayToken, markToken, parseTypedToken, revealInvisible } from './tokens.js';
import { $ } from './dom.js';

/** @typedef {import('./protocol.js').CorpusStats} CorpusStats */
/** @typedef {import('./protocol.js').Progress} Progress */
/** @typedef {import('./protocol.js').Neighbour} Neighbour */
/** @typedef {import('./protocol.js').BpeProgress} BpeProgress */
/** @typedef {import('./protocol.js').TokenInfo} TokenInfo */

const integer = new Intl.NumberFormat('en');
/** Where the chosen theme is remembered. */
const THEME_KEY = 'embedscope-theme';

/** "1.2 MB" */
/**
 * The one progress bar (training, BPE merges, reading, tokenizing): `fraction` done, and a
 * `state` the stylesheet colours by.
 */
function setProgressBar(fraction, state) {
  const bar = $('progress');
  bar.setAttribute('aria-valuenow', String(Math.round(100 * fraction)));
  bar.querySelector('.bar').style.width = `${100 * fraction}%`;
  bar.dataset.state = state;
}

/**
 * `<dt>`/`<dd>` pairs for a description list, each value marked `data-{key}="{term}"` so
 * tests find it by its term. Text only: values may come from files.
 * @param {[string, string][]} rows @param {string} key
 */
function termsAndValues(rows, key) {
  return rows.flatMap(([term, value]) => {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    dd.dataset[key] = term;
    return [dt, dd];
  });
}

function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

/** How long a download's object URL lives: the browser has begun the download by then. */
const REVOKE_AFTER_MS = 1000;

/** The Export card's line of the file `name`. */
function downloadItem(name) {
  return [...$('downloads').children].find((item) => item.dataset.file === name);
}

/** "1 min 05 s" */
function formatSeconds(seconds) {
  if (!Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** "1st", "2nd", "23rd", "111th" */
function ordinal(n) {
  const suffix = new Intl.PluralRules('en', { type: 'ordinal' }).select(n);
  return `${integer.format(n)}${{ one: 'st', two: 'nd', few: 'rd' }[suffix] ?? 'th'}`;
}

function percent(ratio, digits = 1) {
  return `${(100 * ratio).toFixed(digits)} %`;
}

export class View {
  /** @param {typeof import('./pkg/embedscope.js').Chart} Chart  the wasm chart class */
  constructor(Chart) {
    this.form = $('params');
    this.buildNumberFields();
    this.lossCanvas = $('loss-chart');
    this.lossChart = new Chart(this.lossCanvas);
    this.map = new MapView(Chart, { canvas: $('plot'), tooltip: $('tooltip'), region: $('map-region-box'), empty: $('plot-empty') });
    this.mapPanel = new MapPanel();
    this.timelinePanel = new TimelinePanel();
    this.historyPanel = new HistoryPanel();
    this.onResize = () => {};
    this.setUpTheme();
    // The charts size their backing store from the CSS size, so a resize needs a redraw.
    new ResizeObserver(() => {
      this.map.resize();
      this.lossChart.resize();
      this.onResize();
    }).observe($('plot'));
  }

  /**
   * The theme: the system's (`prefers-color-scheme`) unless the person chose one, which is
   * remembered. The stylesheet holds the colours; the charts read them again on a change.
   */
  setUpTheme() {
    const root = document.documentElement;
    const apply = (theme) => {
      if (theme === 'auto') delete root.dataset.theme;
      else root.dataset.theme = theme;
      this.lossChart.set_palette(readPalette(this.lossCanvas.parentElement));
      this.map.applyPalette();
      this.mapPanel.setPalette(this.map.palette);
      this.onResize();
    };
    let stored = 'auto';
    try {
      stored = localStorage.getItem(THEME_KEY) ?? 'auto';
    } catch {
      // Storage may be refused (a private window's settings): the theme is then not kept.
    }
    const theme = ['auto', 'light', 'dark'].includes(stored) ? stored : 'auto';
    this.mapPanel.setTheme(theme);
    apply(theme);
    this.mapPanel.bindTheme((chosen) => {
      try {
        localStorage.setItem(THEME_KEY, chosen);
      } catch {
        // As above.
      }
      apply(chosen);
    });
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => apply(this.mapPanel.readTheme()));
  }

  /** Builds the numeric fields; one that belongs to a tokenizer goes into its slot in the form. */
  buildNumberFields() {
    for (const { name, label, min, max, integer: whole, help, tokenizer } of NUMBER_FIELDS) {
      const field = document.createElement('div');
      field.className = 'field';
      const id = `param-${name}`;
      const labelElement = document.createElement('label');
      labelElement.htmlFor = id;
      labelElement.textContent = label;
      const input = document.createElement('input');
      Object.assign(input, { id, name, type: 'text', inputMode: whole ? 'numeric' : 'decimal' });
      input.setAttribute('aria-describedby', `${id}-help`);
      input.dataset.min = String(min);
      input.dataset.max = String(max);
      const note = document.createElement('small');
      note.id = `${id}-help`;
      note.className = 'help';
      note.dataset.help = help;
      note.textContent = help;
      field.append(labelElement, input, note);
      if (tokenizer) {
        field.dataset.forTokenizer = tokenizer;
        this.form.querySelector(`[data-field-slot="${name}"]`).replaceWith(field);
      } else {
        this.form.append(field);
      }
    }
  }

  /** Shows only the fields that apply to the chosen tokenizer (lowercase: words; BPE's own). */
  showTokenizerFields() {
    const tokenizer = this.form.elements.namedItem('tokenizer').value;
    for (const field of this.form.querySelectorAll('[data-for-tokenizer]')) {
      field.hidden = field.dataset.forTokenizer !== tokenizer;
    }
  }

  // ---- status and notices

  /** @param {'loading'|'ready'|'error'} state */
  setModuleStatus(state, text) {
    Object.assign($('status'), { textContent: text });
    $('status').dataset.state = state;
  }

  setWorkerStatus(state, text) {
    $('worker-status').textContent = text;
    $('worker-status').dataset.state = state;
  }

  /** Why training runs on one thread here (a sentence that says what to do), or null to hide the line. */
  showThreadsNote(text) {
    $('threads-note').hidden = text == null;
    $('threads-note').textContent = text ?? '';
  }

  /** A message that needs attention (an error, a restarted worker); null hides it. */
  showNotice(text) {
    $('notice').hidden = text == null;
    // Messages quote file names and tokens: reordering characters in them are shown, not applied.
    $('notice').textContent = revealInvisible(text ?? '');
  }

  /**
   * Asks before something that would cancel work in progress; resolves true when the
   * person chooses `yes`. A newer question answers the older one with false.
   */
  confirm(text, yes, no) {
    this.pendingConfirm?.(false);
    $('confirm-text').textContent = revealInvisible(text);
    $('confirm-yes').textContent = yes;
    $('confirm-no').textContent = no;
    $('confirm').hidden = false;
    $('confirm-yes').focus();
    return new Promise((resolve) => {
      const answer = (value) => {
        this.pendingConfirm = null;
        $('confirm').hidden = true;
        $('confirm-yes').onclick = null;
        $('confirm-no').onclick = null;
        resolve(value);
      };
      this.pendingConfirm = answer;
      $('confirm-yes').onclick = () => answer(true);
      $('confirm-no').onclick = () => answer(false);
    });
  }

  /** Says that changed parameters wait for the next training. */
  showParamsPending(pending) {
    $('params-pending').hidden = !pending;
  }

  // ---- opening a text

  bindUseSample(handler) {
    $('use-sample').addEventListener('click', () => handler());
  }

  /** Shows the King James Bible button; `handler()` when it is clicked. */
  offerKjv(handler) {
    $('use-kjv').hidden = false;
    $('use-kjv').addEventListener('click', () => handler());
  }

  /** `handler(file)` for a file chosen in the input or dropped anywhere on the page. */
  bindFileChosen(handler) {
    $('file-input').addEventListener('change', (event) => {
      const files = [...event.target.files];
      if (files.length) handler(files);
      event.target.value = '';
    });
    const overlay = $('drop-overlay');
    const hasFiles = (event) => event.dataTransfer?.types.includes('Files');
    // A drop target inside the page (the evaluation card) takes its drags itself and says so
    // with preventDefault, letting them reach the document: over it the overlay hides (it
    // would promise to open the file as a text), and its drop still ends the overlay.
    document.addEventListener('dragover', (event) => {
      if (!hasFiles(event)) return;
      overlay.hidden = event.defaultPrevented;
      event.preventDefault();
    });
    document.addEventListener('dragleave', (event) => {
      if (event.relatedTarget == null) overlay.hidden = true;
    });
    document.addEventListener('drop', (event) => {
      if (!hasFiles(event)) return;
      overlay.hidden = true;
      if (event.defaultPrevented) return;
      event.preventDefault();
      const files = [...event.dataTransfer.files];
      if (files.length) handler(files);
    });
  }

  /**
   * A text's statistics before training, or `note` while there are none. `text` says how
   * the file was read; a note about its encoding is shown above the cut.
   * @param {string} name
   * @param {CorpusStats|null} stats  null while reading, or when the text was rejected
   * @param {string} [note]  what to say instead of the statistics
   * @param {import('./protocol.js').TextInfo|null} [text]
   */
  showStats(name, stats, note = 'Reading…', text = null) {
    $('stats').hidden = false;
    $('source-name').textContent = revealInvisible(name);
    const list = $('stats-list');
    list.replaceChildren();
    if (!stats) {
      $('cut-note').textContent = note;
      return;
    }
    /** @type {[string, string][]} */
    const rows = [
      ['Size', formatBytes(stats.bytes)],
      ['Lines', integer.format(stats.lines)],
      ['Tokens', integer.format(stats.tokens)],
      ['Distinct words', integer.format(stats.types)],
      ['Vocabulary', integer.format(stats.vocabSize)],
      ['Tokens per epoch', integer.format(stats.trainingTokens)],
    ];
    list.replaceChildren(...termsAndValues(rows, 'stat'));
    const dropped = stats.tokens ? stats.tokensBelowMinCount / stats.tokens : 0;
    let cut = `Min count ${integer.format(stats.minCount)} dropped ${integer.format(stats.typesBelowMinCount)} ` +
      `rare words (${integer.format(stats.tokensBelowMinCount)} tokens, ${percent(dropped)}).`;
    if (stats.typesOverMaxVocab) {
      cut += ` The vocabulary limit dropped ${integer.format(stats.typesOverMaxVocab)} more.`;
    }
    $('cut-note').textContent = text?.note ? `${text.note[0].toUpperCase()}${text.note.slice(1)}. ${cut}` : cut;
    $('stats').dataset.encoding = text?.encoding ?? '';
  }

  /**
   * What a vectors file held, in place of a text's statistics.
   * @param {string} name @param {import('./protocol.js').VectorsInfo} info
   */
  showVectorsStats(name, info) {
    $('stats').hidden = false;
    $('source-name').textContent = revealInvisible(name);
    /** @type {[string, string][]} */
    const rows = [
      ['Format', info.format],
      ['Size', formatBytes(info.bytes)],
      ['Vocabulary', integer.format(info.words)],
      ['Dimensions', integer.format(info.dim)],
    ];
    if (info.fingerprint) rows.push(['Run', info.fingerprint]);
    $('stats-list').replaceChildren(...termsAndValues(rows, 'stat'));
    $('cut-note').textContent = info.counts
      ? 'Vectors with their word counts: explore, evaluate or export them.'
      : 'Vectors only, most frequent word first as the file lists them: explore, evaluate or export them.';
  }

  /** Reading a file: `done` of `total` bytes; for vectors, `words` parsed so far. */
  showLoadProgress(done, total, words = null) {
    const fraction = total ? done / total : 0;
    setProgressBar(fraction, 'learning');
    $('progress-text').textContent = words == null
      ? `Reading the text: ${percent(fraction, 0)} of ${formatBytes(total)}`
      : `Reading vectors: ${percent(fraction, 0)} of ${formatBytes(total)}, ${integer.format(words)} words`;
  }

  // ---- parameters

  /** @param {Record<string, string|number|boolean>} values  (a bundle's `cbow` sets the Model choice) */
  setParams(values) {
    if (typeof values.cbow === 'boolean') values = { ...values, model: values.cbow ? 'cbow' : 'skipgram' };
    for (const [name, value] of Object.entries(values)) {
      const input = this.form.elements.namedItem(name);
      if (!input) continue;
      if (input.type === 'checkbox') input.checked = Boolean(value);
      else input.value = String(value);
    }
    this.showTokenizerFields();
  }

  /** @returns {Record<string, string|boolean>} the form's raw values */
  readParams() {
    const raw = {};
    for (const input of this.form.elements) {
      if (input.name) raw[input.name] = input.type === 'checkbox' ? input.checked : input.value;
    }
    return raw;
  }

  /** Puts each message next to its field and marks the field invalid; `{}` clears them. */
  showParamErrors(errors) {
    for (const { name } of NUMBER_FIELDS) {
      const input = this.form.elements.namedItem(name);
      const note = $(`param-${name}-help`);
      const message = errors[name];
      input.setAttribute('aria-invalid', String(Boolean(message)));
      note.textContent = message ?? note.dataset.help;
      note.classList.toggle('error', Boolean(message));
    }
  }

  /** `handler(name)` whenever a field changes. */
  bindParamsChange(handler) {
    this.form.addEventListener('input', (event) => {
      this.showTokenizerFields();
      handler(event.target.name);
    });
    this.form.addEventListener('submit', (event) => event.preventDefault());
  }

  // ---- training

  bindTrain(handler) {
    $('train').addEventListener('click', () => handler());
  }

  /** The pause button says Pause or Resume; `handler()` either way. */
  bindPauseResume(handler) {
    $('pause').addEventListener('click', () => handler());
  }

  bindStop(handler) {
    $('stop').addEventListener('click', () => handler());
  }

  /**
   * Enables the buttons that make sense now.
   * @param {{canTrain: boolean, trainLabel: string, canPause: boolean, paused: boolean,
   *   canStop: boolean, canExport: boolean, canEvaluate: boolean}} controls
   */
  setControls(controls) {
    $('train').disabled = !controls.canTrain;
    $('train').textContent = controls.trainLabel;
    $('pause').disabled = !controls.canPause;
    $('pause').textContent = controls.paused ? 'Resume' : 'Pause';
    $('stop').disabled = !controls.canStop;
    this.enableDownloads(controls.canExport);
    $('evaluate').disabled = !controls.canEvaluate;
  }

  /** @param {(Progress & {threads?: number})|null} progress  with the threads it trains on @param {string} state */
  showProgress(progress, state) {
    const fraction = progress && progress.tokensTotal ? progress.tokensDone / progress.tokensTotal : 0;
    setProgressBar(fraction, state);
    if (!progress) {
      $('progress-text').textContent = 'Not started.';
      return;
    }
    const left = progress.tokensPerSec ? (progress.tokensTotal - progress.tokensDone) / progress.tokensPerSec : NaN;
    const parts = [
      `Epoch ${progress.epoch} of ${progress.epochs}`,
      percent(fraction, 0),
      `${integer.format(Math.round(progress.tokensPerSec))} tokens/s`,
      ...(progress.threads ? [`${progress.threads} ${progress.threads === 1 ? 'thread' : 'threads'}`] : []),
      `learning rate ${progress.alpha.toFixed(4)}`,
    ];
    if (state === 'training') parts.push(`${formatSeconds(left)} left`);
    const label = { training: '', paused: 'Paused. ', stopped: 'Stopped. ', done: 'Done. ' }[state] ?? '';
    $('progress-text').textContent = `${label}${parts.join(' · ')}`;
  }

  /** Tokenizing a text: `fraction` of it done. */
  showTokenizeProgress(fraction) {
    setProgressBar(fraction, 'learning');
    $('progress-text').textContent = `Tokenizing the text: ${percent(fraction, 0)}`;
  }

  /** A line in place of training progress (vectors opened, not trained here). */
  showProgressText(text, progress) {
    setProgressBar(progress?.done ? 1 : 0, 'done');
    $('progress-text').textContent = text;
  }

  /**
   * "Learning BPE merges: N of M", on the same bar as training.
   * @param {BpeProgress} progress @param {boolean} stopped  learning was cancelled
   */
  showBpeProgress(progress, stopped) {
    setProgressBar(progress.fraction, stopped ? 'stopped' : 'learning');
    const merges = integer.format(progress.mergesDone);
    const target = integer.format(Math.max(0, progress.targetVocabSize - progress.alphabetSize));
    $('progress-text').textContent = stopped
      ? `Stopped learning BPE merges at ${merges} of ${target}.`
      : `Learning BPE merges: ${merges} of ${target}`;
  }

  /**
   * @param {number} epochs
   * @param {number[]} epochLosses
   * @param {Float64Array} withinEpoch  flat [fractional epoch, loss, …], bounded (see LossSeries)
   * @param {{at: number, label: string}|null} marker  the moment the map shows (the timeline's)
   */
  drawLoss(epochs, epochLosses, withinEpoch, marker = null) {
    this.lossChart.draw_loss(epochs, new Float64Array(epochLosses), withinEpoch, marker?.at, marker?.label);
    this.lossCanvas.dataset.marker = marker ? marker.label : '';
    this.lossCanvas.setAttribute('aria-label', epochLosses.length
      ? `Loss per epoch: ${epochLosses.map((loss, i) => `${i + 1}: ${loss.toFixed(4)}`).join(', ')}`
      : 'Loss per epoch: none finished yet');
    this.lossCanvas.dataset.epochLosses = JSON.stringify(epochLosses);
  }

  /** `handler()` after the canvases changed size or colours: everything must be drawn again. */
  bindResize(handler) {
    this.onResize = handler;
  }

  // ---- queries

  /**
   * `handler(prefix)` as a word is typed into any word input (for completions). Whitespace
   * typed turns into its sign as it is typed, so the input matches the completions, which
   * are shown the same way (the browser filters them by what the input holds).
   */
  bindWordTyped(handler) {
    for (const id of ['search', 'analogy-a', 'analogy-b', 'analogy-c']) {
      $(id).addEventListener('input', (event) => {
        const input = event.target;
        const shown = displayToken(input.value);
        if (shown !== input.value) {
          // Each sign is one UTF-16 unit, like the character it replaces: the caret stays.
          const { selectionStart, selectionEnd } = input;
          input.value = shown;
          input.setSelectionRange(selectionStart, selectionEnd);
        }
        handler(parseTypedToken(input.value));
      });
    }
  }

  /** @param {string[]} words */
  setCompletions(words) {
    $('vocab-completions').replaceChildren(...words.map((word) => {
      const option = document.createElement('option');
      option.value = displayToken(word);
      return option;
    }));
  }

  /** `handler(word, k)` when the neighbours form is submitted (`word` may be empty). */
  bindSearch(handler) {
    $('neighbours-form').addEventListener('submit', (event) => {
      event.preventDefault();
      handler(parseTypedToken($('search').value), this.readK());
    });
  }

  readK() {
    const k = Math.round(Number($('neighbours-k').value));
    return Number.isFinite(k) ? Math.min(100, Math.max(1, k)) : 10;
  }

  setSearch(word) {
    $('search').value = displayToken(word);
  }

  /** @param {string} word @param {Neighbour[]} neighbours */
  showNeighbours(word, neighbours) {
    $('neighbours-message').textContent = `Nearest to “${displayToken(word)}” by cosine similarity:`;
    $('neighbours-list').replaceChildren(...neighbours.map((n) => this.resultItem(n, true)));
  }

  /**
   * Clears every answer about the vectors (neighbours, token facts, analogy, evaluation,
   * sanity check, completions): they belong to a model that gave way to another.
   */
  clearAnswers() {
    this.showNeighboursMessage('');
    this.showTokenInfo(null, false);
    this.showAnalogyMessage('');
    this.showSanity(null);
    this.showEvaluationMessage(null);
    $('evaluation-results').hidden = true;
    $('evaluation-table').replaceChildren();
    $('evaluation-worst-title').textContent = '';
    $('evaluation-worst').replaceChildren();
    $('vocab-completions').replaceChildren();
  }

  showNeighboursMessage(text) {
    $('neighbours-message').textContent = revealInvisible(text);
    $('neighbours-list').replaceChildren();
  }

  /** One result: the word (a button that selects it, when `selectable`) and its score. */
  resultItem({ word, score }, selectable) {
    const item = document.createElement('li');
    const label = document.createElement(selectable ? 'button' : 'span');
    label.className = 'word';
    label.textContent = displayToken(word);
    if (label instanceof HTMLButtonElement) {
      label.type = 'button';
      label.dataset.word = word;
    }
    const value = document.createElement('span');
    value.className = 'score';
    value.textContent = score.toFixed(3);
    item.append(label, value);
    return item;
  }

  /** `handler(word)` when a word in a result list is clicked. */
  bindResultClick(handler) {
    for (const id of ['neighbours-list', 'analogy-cosadd', 'analogy-cosmul']) {
      $(id).addEventListener('click', (event) => {
        const button = event.target.closest('button[data-word]');
        if (button) handler(button.dataset.word);
      });
    }
  }

  /** `handler(a, b, c)` when the analogy form is submitted with three words. */
  bindAnalogy(handler) {
    $('analogy-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const [a, b, c] = ['analogy-a', 'analogy-b', 'analogy-c'].map((id) => parseTypedToken($(id).value));
      if (a && b && c) handler(a, b, c);
      else this.showAnalogyMessage('Fill in A, B and C.');
    });
  }

  /** @param {Neighbour[]} cosAdd @param {Neighbour[]} cosMul */
  /** `handler()` for "Show these four words on the map". */
  bindShowAnalogy(handler) {
    $('analogy-show').addEventListener('click', handler);
  }

  showAnalogy(a, b, c, cosAdd, cosMul) {
    $('analogy-show').hidden = cosAdd.length === 0;
    const [shownA, shownB, shownC] = [a, b, c].map(displayToken);
    const answer = cosAdd[0] ? displayToken(cosAdd[0].word) : '?';
    $('analogy-message').textContent = `${shownA} is to ${shownB} as ${shownC} is to ${answer}`;
    $('analogy-results').hidden = false;
    $('analogy-cosadd').replaceChildren(...cosAdd.map((n) => this.resultItem(n, true)));
    $('analogy-cosmul').replaceChildren(...cosMul.map((n) => this.resultItem(n, true)));
  }

  showAnalogyMessage(text) {
    $('analogy-message').textContent = revealInvisible(text);
    $('analogy-results').hidden = true;
    $('analogy-show').hidden = true;
    $('analogy-cosadd').replaceChildren();
    $('analogy-cosmul').replaceChildren();
  }

  /**
   * Where the selected token came from, beside its neighbours: its count and frequency
   * rank; for BPE the merge that made it and whether it spans words; lines of the text
   * where it occurs, the token marked. Null hides it.
   * @param {TokenInfo|null} info @param {boolean} isBpe
   */
  showTokenInfo(info, isBpe) {
    $('token-info').hidden = info == null;
    if (!info) return;
    const shown = displayToken(info.token);
    $('token-info-title').textContent = `Where “${shown}” comes from`;
    /** @type {[string, string][]} */
    const rows = [
      ['Count', integer.format(info.count)],
      ['Frequency rank', integer.format(info.rank + 1)],
    ];
    if (isBpe) {
      const { merge } = info;
      rows.push(merge
        ? ['Merge', `${displayToken(merge.left)} + ${displayToken(merge.right)}`]
        : ['Merge', 'none: a character of the text']);
      if (merge) {
        rows.push(['Merge rank', `${integer.format(merge.rank + 1)} (learned ${ordinal(merge.rank + 1)})`]);
        rows.push(['Pair count', `${integer.format(merge.pairCount)} when merged`]);
      }
      rows.push(['Spans words', info.spansWords ? 'yes: it joins words' : 'no']);
    }
    $('token-info-facts').replaceChildren(...termsAndValues(rows, 'fact'));
    $('token-info-lines-title').textContent = info.concordance.length
      ? `In the text (${info.concordance.length === 1 ? 'the first line' : `the first ${info.concordance.length} lines`}):`
      : 'Not found in the text as written (lowercased or split differently).';
    $('token-info-lines').replaceChildren(...info.concordance.map((line) => {
      const item = document.createElement('li');
      item.append(...markToken(line, info.token).map(({ text, marked }) => {
        if (!marked) return document.createTextNode(revealInvisible(text));
        const mark = document.createElement('mark');
        mark.textContent = revealInvisible(text);
        return mark;
      }));
      return item;
    }));
  }

  // ---- evaluation

  /**
   * `handler({benchmark, restrict, ignoreCase})` when Evaluate is pressed; `benchmark` is a
   * built-in name or 'file' (the file opened with `bindBenchmarkFile`).
   */
  bindEvaluate(handler) {
    $('evaluation-form').addEventListener('submit', (event) => {
      event.preventDefault();
      handler({
        benchmark: $('benchmark').value,
        restrict: Math.max(1, Math.floor(Number($('eval-restrict').value) || 30000)),
        ignoreCase: $('eval-ignore-case').checked,
      });
    });
  }

  /**
   * `handler(file)` when a benchmark file is opened, or dropped on the evaluation card (a
   * drop anywhere else opens a text or vectors); the choice then names it.
   */
  bindBenchmarkFile(handler) {
    const chosen = (file) => {
      const option = $('benchmark').querySelector('option[value="file"]');
      option.disabled = false;
      option.textContent = `Your file: ${revealInvisible(file.name)}`;
      $('benchmark').value = 'file';
      handler(file);
    };
    $('benchmark-file').addEventListener('change', (event) => {
      const [file] = event.target.files;
      event.target.value = '';
      if (file) chosen(file);
    });
    const card = $('evaluation-form').closest('section');
    // preventDefault marks the drag as the card's; it goes on to the document, whose
    // handler (bindFileChosen) then hides the page's overlay instead of opening the file.
    card.addEventListener('dragover', (event) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      card.classList.add('drop-target');
    });
    card.addEventListener('dragleave', () => card.classList.remove('drop-target'));
    card.addEventListener('drop', (event) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      card.classList.remove('drop-target');
      const [file] = event.dataTransfer.files;
      if (file) chosen(file);
    });
  }

  /** The built-in check after training on the sample, or null to hide it. */
  showSanity(text) {
    $('sanity').hidden = text == null;
    $('sanity').textContent = text ?? '';
  }

  showEvaluationMessage(text) {
    $('evaluation-message').textContent = revealInvisible(text ?? '');
  }

  /**
   * A benchmark's scores: per section for analogies, the correlations for similarity, and
   * the worst-answered items. Everything from files is set as text.
   * @param {import('./protocol.js').EvaluationReport} report
   */
  showEvaluationReport(report) {
    $('evaluation-results').hidden = false;
    const cell = (tag, text) => {
      const element = document.createElement(tag);
      element.textContent = text;
      return element;
    };
    const row = (tag, values) => {
      const tr = document.createElement('tr');
      tr.append(...values.map((value) => cell(tag, value)));
      return tr;
    };
    const accuracy = (correct, covered) => (covered ? percent(correct / covered) : '–');
    const table = $('evaluation-table');
    const worst = $('evaluation-worst');
    if (report.kind === 'analogies') {
      const line = (s) => [s.name, integer.format(s.questions), `${integer.format(s.covered)} (${percent(s.questions ? s.covered / s.questions : 0)})`,
        accuracy(s.correctCosAdd, s.covered), accuracy(s.correctCosMul, s.covered)];
      const body = report.sections.map((section) => row('td', line(section)));
      const total = row('th', line({ ...report.total, name: 'All' }));
      table.replaceChildren(
        cell('caption', 'Analogy accuracy over the questions whose four words are among the most frequent words'),
        row('th', ['Section', 'Questions', 'Covered', '3CosAdd', '3CosMul']),
        ...body,
        total,
      );
      $('evaluation-worst-title').textContent = report.worst.length ? 'Worst-answered questions (3CosAdd)' : '';
      worst.replaceChildren(...report.worst.map((q) => cell('li',
        `${q.words.slice(0, 3).map(displayToken).join(' : ')} :: ${displayToken(q.words[3])} — answered ${q.answer == null ? 'nothing' : displayToken(q.answer)}, expected word ranked ${integer.format(q.rank)}`)));
    } else {
      const number = (value) => (value == null ? 'not defined (fewer than 2 pairs, or no variation)' : value.toFixed(3));
      table.replaceChildren(
        cell('caption', 'Word-pair similarity: correlation of cosine similarity with the human scores'),
        row('th', ['Pairs', 'Found', 'Out of vocabulary', 'Spearman', 'Pearson']),
        row('td', [integer.format(report.pairs), integer.format(report.found), percent(report.oovRatio), number(report.spearman), number(report.pearson)]),
      );
      $('evaluation-worst-title').textContent = report.worst.length ? 'Pairs ranked most differently from the human scores' : '';
      worst.replaceChildren(...report.worst.map((p) => cell('li',
        `${displayToken(p.a)} – ${displayToken(p.b)}: score ${p.gold}, cosine ${p.cosine.toFixed(3)}`)));
    }
  }

  /** Evaluating: `done` of `total` questions. */
  showEvaluationProgress(done, total) {
    $('evaluation-message').textContent = `Evaluating: ${integer.format(done)} of ${integer.format(total)} questions…`;
  }

  // ---- export

  /** Asks before the page is closed or reloaded while `hasUnsavedWork()` is true. */
  bindLeave(hasUnsavedWork) {
    window.addEventListener('beforeunload', (event) => {
      if (hasUnsavedWork()) event.preventDefault();
    });
  }

/**
   * Offers a button per file, named by the file; `handler(name)` builds that one file when
   * its button is pressed.
   * @param {{name: string, description: string}[]} files
   */
  bindExport(files, handler) {
    $('downloads').replaceChildren(...files.map(({ name, description }) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = name;
      button.disabled = true;
      button.addEventListener('click', () => handler(name));
      const note = document.createElement('span');
      note.className = 'hint';
      note.dataset.description = description;
      note.textContent = ` ${description}`;
      const item = document.createElement('li');
      item.dataset.file = name;
      item.append(button, note);
      return item;
    }));
  }

  /** The download buttons work while there are vectors; one whose file is being built waits. */
  enableDownloads(enabled) {
    this.downloadsEnabled = enabled;
    for (const item of $('downloads').children) {
      item.querySelector('button').disabled = !enabled || item.dataset.busy === 'true';
    }
  }

  /** While the file `name` is built (seconds for large vectors) its line says so. */
  showExporting(name, busy) {
    const item = downloadItem(name);
    const button = item.querySelector('button');
    const note = item.querySelector('.hint');
    item.dataset.busy = String(busy);
    button.disabled = busy || !this.downloadsEnabled;
    button.setAttribute('aria-busy', String(busy));
    if (busy) note.textContent = ` ${note.dataset.description}: preparing…`;
    else if (note.textContent.endsWith('preparing…')) note.textContent = ` ${note.dataset.description}`;
  }

  /**
   * Hands `blob` to the browser as the download `name` and lets go of it: the object URL is
   * revoked once the download has begun, and the browser holds the bytes it saves.
   */
  saveFile(name, blob) {
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
    // The timeline's recordings are saved here too, and have no line in the Export card.
    const note = downloadItem(name)?.querySelector('.hint');
    if (note) note.textContent = ` ${note.dataset.description}, ${formatBytes(blob.size)}`;
  }
}
