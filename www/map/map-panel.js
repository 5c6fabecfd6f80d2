// @ts-check
// The map's controls: words shown, principal components, axes defined by words, colour,
// the search on the map and its matches, the selection, the legend, the view buttons. The
// only code that queries or changes these elements (app/view.js keeps the rest of the page);
// `bindX(handler)` for each action, `showX` / `setX` for each display.
import { displayToken, parseTypedToken } from '../shared/tokens.js';
import { css } from './palette.js';
import { $ } from '../shared/dom.js';
import { bindSuggestions, messageNodes } from '../shared/failure.js';

/** @typedef {import('../protocol.js').MessagePart} MessagePart */


/** A `<button>` showing `word`, which calls `onClick(word)`. */
function wordChip(word, onClick) {
  const item = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'chip';
  button.textContent = displayToken(word);
  button.addEventListener('click', () => onClick(word));
  item.append(button);
  return item;
}

/**
 * The search typed in "Find on the map": a regular expression, or a substring that is only
 * spaces, keeps the spaces at its ends (written as signs, which `parseTypedToken` keeps).
 * @param {string} text @param {boolean} regex
 */
export function parseFind(text, regex) {
  const keepEnds = regex || (text !== '' && text.trim() === '');
  return parseTypedToken(keepEnds ? text.replace(/^[ \n\t\r]+|[ \n\t\r]+$/g, displayToken) : text);
}

/**
 * The words the map may show: at least 10 (fewer say little), at most 1,000,000 (a whole
 * vocabulary of the sizes people open; the map draws 250,000 points within a display frame
 * on the CPU, see `Raster::dots`). A vocabulary smaller than the count shows all its words.
 * The field's own `min` and `max` are set from here.
 */
export const WORDS_SHOWN = { min: 10, max: 1_000_000 };

/** Whether `n` is a count of words the map may show. */
export const isWordsShown = (n) => Number.isInteger(n) && n >= WORDS_SHOWN.min && n <= WORDS_SHOWN.max;

/**
 * Fills the note `id` (its text in `id`-text, its button `id`-show) with `{text, show}`:
 * the button offers the `show` most frequent words, or is hidden when `show` is null. Null
 * hides the note. Frames come several times a second: the page changes only when the note does.
 */
function showNote(id, note) {
  const element = $(id);
  const key = note ? `${note.text}\n${note.show}` : '';
  if (element.dataset.key === key) return;
  element.dataset.key = key;
  element.hidden = note == null;
  if (!note) return;
  $(`${id}-text`).textContent = note.text;
  const button = $(`${id}-show`);
  button.hidden = note.show == null;
  if (note.show != null) {
    button.dataset.words = String(note.show);
    button.textContent = `Show the ${note.show.toLocaleString('en')} most frequent words`;
  }
}

export class MapPanel {
  constructor() {
    $('plot-words').setAttribute('min', String(WORDS_SHOWN.min));
    $('plot-words').setAttribute('max', String(WORDS_SHOWN.max));
    /** @type {(word: string) => void} */
    this.onMatchClick = () => {};
    /** @type {(word: string) => void} */
    this.onSelectionClick = () => {};
  }

  /** The Words shown field, or null when it holds no valid count. */
  readWordsShown() {
    const n = Math.round(Number($('plot-words').value));
    return isWordsShown(n) ? n : null;
  }

  /**
   * Fills the axes selector with every pair of components, with their explained variance.
   * Frames arrive several times a second while training: options that are there already
   * only have their text updated, and only when it changed, so a list the person has open
   * stays open under the pointer.
   */
  setAxes(explained, xComponent, yComponent, axes = { x: null, y: null }) {
    const select = $('plot-axes');
    // Word axes in use: the list shows them, and "Principal components" (beside them) goes back.
    if (axes?.x || axes?.y) {
      const axis = (words, i) => (words ? `${words[0]} → ${words[1]}` : `PC${i + 1}`);
      const text = `${axis(axes.x, xComponent)} / ${axis(axes.y, yComponent)}`;
      if (select.options.length !== 1 || select.value !== 'words' || select.options[0].text !== text) {
        select.replaceChildren(new Option(text, 'words', true, true));
      }
      select.disabled = true;
      // What the words shown go on with (`bindProjection`) while the list names the word axes.
      select.dataset.components = `${xComponent},${yComponent}`;
      return;
    }
    select.disabled = false;
    const n = Math.max(explained.length, 2);
    const percent = (v) => `${(100 * v).toFixed(0)} %`;
    const name = (i) => (explained[i] == null ? `PC${i + 1}` : `PC${i + 1} (${percent(explained[i])})`);
    const pairs = [];
    for (let x = 0; x < n; x += 1) {
      for (let y = x + 1; y < n; y += 1) pairs.push({ value: `${x},${y}`, text: `${name(x)} / ${name(y)}` });
    }
    const same = select.options.length === pairs.length && pairs.every(({ value }, i) => select.options[i].value === value);
    if (!same) select.replaceChildren(...pairs.map(({ value, text }) => new Option(text, value)));
    pairs.forEach(({ text }, i) => {
      if (select.options[i].text !== text) select.options[i].text = text;
    });
    const chosen = `${xComponent},${yComponent}`;
    if (select.value !== chosen) select.value = chosen;
  }

  /** `handler({nWords, xComponent, yComponent})` when the words shown or the components change. */
  bindProjection(handler) {
    const read = () => {
      const select = $('plot-axes');
      const value = select.value === 'words' ? select.dataset.components : select.value;
      const [xComponent, yComponent] = (value || '0,1').split(',').map(Number);
      const nWords = this.readWordsShown();
      $('plot-words').setAttribute('aria-invalid', String(nWords == null));
      if (nWords != null) handler({ nWords, xComponent, yComponent });
    };
    $('plot-axes').addEventListener('change', read);
    $('plot-words').addEventListener('change', read);
  }

  /** Shows `n` in the Words shown field. */
  setWordsShown(n) {
    $('plot-words').value = String(n);
  }

  /** Shows restored settings in the fields. */
  setProjection({ nWords, axes }) {
    this.setWordsShown(nWords);
    const show = (id, word) => { $(id).value = word == null ? '' : displayToken(word); };
    show('axis-x-from', axes.x?.[0]);
    show('axis-x-to', axes.x?.[1]);
    show('axis-y-from', axes.y?.[0]);
    show('axis-y-to', axes.y?.[1]);
    if (axes.x || axes.y) $('word-axes').open = true;
  }

  /**
   * `handler({x: [from, to]|null, y: [from, to]|null})` when word axes are asked for; an
   * axis with either word empty stays a principal component. "Principal components" clears both.
   * A spelling suggested for an unknown axis word, clicked, replaces it and asks again.
   */
  bindWordAxes(handler) {
    const ids = ['axis-x-from', 'axis-x-to', 'axis-y-from', 'axis-y-to'];
    const word = (id) => parseTypedToken($(id).value).trim();
    const axis = (from, to) => (word(from) && word(to) ? [word(from), word(to)] : null);
    const ask = () => {
      const axes = { x: axis('axis-x-from', 'axis-x-to'), y: axis('axis-y-from', 'axis-y-to') };
      if (!axes.x && !axes.y) {
        this.showAxesMessage('Give both words of an axis: from one word to another.');
        return;
      }
      handler(axes);
    };
    $('word-axes-form').addEventListener('submit', (event) => {
      event.preventDefault();
      ask();
    });
    bindSuggestions($('axes-message'), (suggested, replaces) => {
      // Only an axis word is typed here (isolated words come from the map or a link).
      const replaced = ids.filter((id) => word(id) === replaces);
      if (!replaced.length) return;
      for (const id of replaced) $(id).value = displayToken(suggested);
      $(replaced[0]).focus();
      ask();
    });
    $('axes-clear').addEventListener('click', () => {
      for (const id of ids) $(id).value = '';
      handler({ x: null, y: null });
    });
  }

  /** Text under the map's settings, or a failure's parts with its suggested spellings as buttons. @param {string|MessagePart[]} message */
  showAxesMessage(message) {
    $('axes-message').replaceChildren(...messageNodes(message));
  }

  /**
   * `handler({method, layout})` when the projection or its parameters change: 'pca', 'tsne'
   * or 'umap', and the parameters of the form (`layout` null when a field is invalid: the
   * field is marked and nothing is sent).
   */
  bindMethod(handler) {
    const send = () => {
      const method = $('map-method').value;
      this.showMethod(method);
      const layout = this.readLayout();
      if (layout) handler({ method, layout });
    };
    $('map-method').addEventListener('change', send);
    $('layout-form').addEventListener('submit', (event) => {
      event.preventDefault();
      send();
    });
    // A corrected field loses its mark as it is typed.
    $('layout-form').addEventListener('input', () => this.readLayout());
  }

  /**
   * The projection the menu shows and its parameters, `{method, layout}`; `{}` when a
   * parameter is out of range (it is marked), so the settings keep theirs.
   * @returns {{method?: string, layout?: object}}
   */
  readMethod() {
    const layout = this.readLayout();
    return layout ? { method: $('map-method').value, layout } : {};
  }

  /** The layout parameters of the form, or null when one is out of range (it is marked). */
  readLayout() {
    const read = (id, min, max, { integer = false, auto = false } = {}) => {
      const input = $(id);
      const text = input.value.trim();
      if (auto && (text === '' || text.toLowerCase() === 'auto')) {
        input.setAttribute('aria-invalid', 'false');
        return null;
      }
      const value = Number(text);
      const valid = text !== '' && Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value));
      input.setAttribute('aria-invalid', String(!valid));
      return valid ? value : undefined;
    };
    const layout = {
      perplexity: read('tsne-perplexity', 2, 100),
      learningRate: read('tsne-learning-rate', 1e-3, 1e5, { auto: true }),
      iterations: read('tsne-iterations', 50, 5000, { integer: true }),
      exaggeration: read('tsne-exaggeration', 1, 50),
      neighbours: read('umap-neighbours', 2, 200, { integer: true }),
      minDist: read('umap-min-dist', 0, 1),
      epochs: read('umap-epochs', 1, 5000, { integer: true, auto: true }),
      seed: read('layout-seed', 0, 2 ** 32 - 1, { integer: true }),
    };
    return Object.values(layout).includes(undefined) ? null : layout;
  }

  /** Shows the controls of `method`: the components for PCA, the parameters for the others. */
  showMethod(method) {
    $('plot-axes-label').hidden = method !== 'pca';
    $('word-axes').hidden = method !== 'pca';
    $('layout-params').hidden = method === 'pca';
    for (const fieldset of $('layout-form').querySelectorAll('fieldset[data-method]')) fieldset.hidden = fieldset.dataset.method !== method;
    if (method === 'pca') this.showLayoutProgress('');
  }

  /** Shows restored projection settings in the form. */
  setMethod(method, layout) {
    $('map-method').value = method;
    const show = (id, value) => { $(id).value = value == null ? 'auto' : String(value); };
    show('tsne-perplexity', layout.perplexity);
    show('tsne-learning-rate', layout.learningRate);
    show('tsne-iterations', layout.iterations);
    show('tsne-exaggeration', layout.exaggeration);
    show('umap-neighbours', layout.neighbours);
    show('umap-min-dist', layout.minDist);
    show('umap-epochs', layout.epochs);
    show('layout-seed', layout.seed);
    this.showMethod(method);
  }

  /** Where a t-SNE or UMAP layout stands ("t-SNE: iteration 120 of 750"), or nothing. */
  showLayoutProgress(text) {
    if ($('layout-progress').textContent !== text) $('layout-progress').textContent = text;
  }

  /** `handler({kind, k})` when the colouring changes. */
  bindColour(handler) {
    const read = () => {
      const kind = $('map-colour').value;
      $('map-k-label').hidden = kind !== 'clusters';
      const k = Math.round(Number($('map-k').value));
      const valid = Number.isFinite(k) && k >= 2 && k <= 50;
      $('map-k').setAttribute('aria-invalid', String(!valid));
      if (valid || kind !== 'clusters') handler({ kind, k: valid ? k : 8 });
    };
    $('map-colour').addEventListener('change', read);
    $('map-k').addEventListener('change', read);
  }

  setColour({ kind, k }) {
    $('map-colour').value = kind;
    $('map-k').value = String(k);
    $('map-k-label').hidden = kind !== 'clusters';
  }

  /**
   * The legend: `{entries: [{style, text}], note?}`; the swatches take the palette's colours.
   * An entry with `line` (a class of `.line-swatch`) stands for a kind of mark, the moves' arrows.
   * @param {{entries: {style?: number, line?: string, text: string}[], note?: string}} legend
   */
  showLegend({ entries, note }, palette = this.palette) {
    const legend = $('map-legend');
    const key = JSON.stringify([entries, note]);
    if (legend.dataset.key === key) return;
    legend.dataset.key = key;
    const colourOf = (style) => (style >= 254 ? palette?.point : palette?.classes[style]);
    legend.replaceChildren(...entries.map(({ style, line, text }) => {
      const item = document.createElement('li');
      const swatch = document.createElement('span');
      // A line (`line-swatch`, coloured by its class in style.css) stands for a kind of mark, a dot for a colour.
      swatch.className = line ? `line-swatch ${line}` : 'swatch';
      const colour = line ? null : colourOf(style);
      if (colour) swatch.style.background = css(colour);
      item.append(swatch, document.createTextNode(text));
      return item;
    }));
    if (note) {
      const item = document.createElement('li');
      item.textContent = note;
      legend.append(item);
    }
  }

  /** The palette the legend's swatches use (the map's). */
  setPalette(palette) {
    this.palette = palette;
    delete $('map-legend').dataset.key;
  }

  /**
   * `handler(query, regex)` as the search on the map is typed, with the signs of whitespace
   * (· ¶ → ←) read as the characters. A substring search drops spaces at its ends, as every
   * word box does (a stray space), unless it is nothing but spaces; a regular expression is
   * searched as typed, since a space in it is part of the pattern (`^the ` finds BPE tokens
   * starting "the ", and ` $` those ending in a space, not every word).
   */
  bindFind(handler) {
    const read = () => handler(parseFind($('map-find').value, $('map-regex').checked), $('map-regex').checked);
    $('map-find').addEventListener('input', read);
    $('map-regex').addEventListener('change', read);
    $('map-find-form').addEventListener('submit', (event) => {
      event.preventDefault();
      read();
    });
  }

  setFind(query, regex) {
    $('map-find').value = displayToken(query);
    $('map-regex').checked = regex;
  }

  /** The search's result: `count` matches (null: no search), the first ones, or an error. */
  showMatches(count, listed, error) {
    const text = error || (count == null ? '' : `${count.toLocaleString('en')} ${count === 1 ? 'match' : 'matches'}`);
    if ($('map-find-count').textContent !== text) $('map-find-count').textContent = text;
    $('map-find').setAttribute('aria-invalid', String(Boolean(error)));
    $('map-isolate-matches').disabled = !(count >= 2);
    const list = $('map-matches');
    const key = listed.join('\n');
    if (list.dataset.key === key) return;
    list.dataset.key = key;
    list.replaceChildren(...listed.map((word) => wordChip(word, (w) => this.onMatchClick(w))));
  }

  bindMatchClick(handler) { this.onMatchClick = handler; }
  bindIsolateMatches(handler) { $('map-isolate-matches').addEventListener('click', handler); }

  showSelection(words) {
    $('map-selection').hidden = words.length === 0;
    $('selection-title').textContent = `Selection: ${words.length} ${words.length === 1 ? 'word' : 'words'}`;
    $('selection-isolate').disabled = words.length < 2;
    const shown = words.slice(0, 200);
    $('selection-list').replaceChildren(...shown.map((word) => wordChip(word, (w) => this.onSelectionClick(w))));
    if (words.length > shown.length) {
      const more = document.createElement('li');
      more.textContent = `and ${words.length - shown.length} more`;
      $('selection-list').append(more);
    }
  }

  bindSelectionClick(handler) { this.onSelectionClick = handler; }
  bindSelectionClear(handler) { $('selection-clear').addEventListener('click', handler); }
  bindIsolateSelection(handler) { $('selection-isolate').addEventListener('click', handler); }

  /** Says the map shows only `count` isolated words (null: all of them). */
  showIsolated(count) {
    $('map-isolated').hidden = count == null;
    if (count != null) $('map-isolated-text').textContent = `The projection is fitted on ${count} isolated words only.`;
  }

  bindShowAll(handler) { $('map-show-all').addEventListener('click', handler); }

  /**
   * Says which neighbours of the selected word a t-SNE or UMAP map leaves off, `{text, show}`
   * (null: none), with a button that shows the `show` most frequent words (none when null).
   */
  showOffMapNeighbours(note) {
    showNote('map-offmap', note);
  }

  /**
   * Says where a search that matches none of the words shown stands in the vocabulary,
   * `{text, show}` (null: nothing to say), with a button that shows the `show` most frequent words.
   */
  showElsewhere(note) {
    showNote('map-elsewhere', note);
  }

  /** `handler(n)` when a note's button asks for the `n` most frequent words. */
  bindShowMostFrequent(handler) {
    for (const id of ['map-offmap', 'map-elsewhere']) {
      $(`${id}-show`).addEventListener('click', () => handler(Number($(`${id}-show`).dataset.words)));
    }
  }

  /** `handler(factor)` for the zoom buttons, `handler(null)` for Reset view. */
  bindZoom(handler) {
    $('map-zoom-in').addEventListener('click', () => handler(1.5));
    $('map-zoom-out').addEventListener('click', () => handler(1 / 1.5));
    $('map-reset').addEventListener('click', () => handler(null));
  }

  /** `handler(on)` when the region tool is switched. */
  /** `handler(on)` when the Density box is ticked or cleared. */
  bindDensity(handler) {
    $('map-density').addEventListener('change', () => handler($('map-density').checked));
  }

  /** Shows whether the density layer is on (a restored link). */
  setDensity(on) {
    $('map-density').checked = on;
  }

  bindRegionTool(handler) {
    const button = $('map-region');
    button.addEventListener('click', () => {
      const on = button.getAttribute('aria-pressed') !== 'true';
      button.setAttribute('aria-pressed', String(on));
      handler(on);
    });
  }

  /** `handler()` for Copy link. */
  bindCopyLink(handler) { $('map-copy-link').addEventListener('click', handler); }

  /** Says the link was copied (or how to copy it by hand). */
  showLinkCopied(text) {
    $('axes-message').textContent = text;
  }

  /** `handler(theme)` when the theme is chosen: 'auto', 'light' or 'dark'. */
  bindTheme(handler) { $('theme').addEventListener('change', () => handler($('theme').value)); }
  setTheme(theme) { $('theme').value = theme; }
  readTheme() { return $('theme').value; }
}
