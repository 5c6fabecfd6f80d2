// @ts-check
// What the map shows and why: the worker's frame, the person's marks on it (hover, the
// selected word and its neighbours, a selection of several words, a search, an analogy)
// and how points are coloured, turned into the scene `MapView` draws. It also holds the
// map spec that the worker projects with (words shown, axes, isolation, clusters)
// and reads and writes them as the link's state (`map-link-state.js`).
//
// The controller owns the queries (neighbours, analogies) and the model; this class owns
// the map's side of them. It never touches the DOM: `MapView` draws, `MapPanel` shows the
// controls.
import { cluster_name_places, default_map_spec } from '../pkg/embedscope.js';
import { DensityLayer } from './density.js';
import { displayToken } from '../shared/tokens.js';
import { ColourClasses, colourLegend, pointStyles } from './colouring.js';
import { CATEGORIES } from './palette.js';
import { METHOD_NAMES, componentNames, layoutProgressText, methodDescription, moveCaption, moveLegend, plural } from './map-texts.js';
import { integer, ordinal } from '../shared/format.js';
import { WORDS_SHOWN } from './map-panel.js';
import { failureParts } from '../shared/failure.js';
import { eachMatch, prepareSearch } from './search.js';
import { linkState, restoreLinkState } from './map-link-state.js';

/** Matches listed by name under the search box. */
const LISTED_MATCHES = 12;
/** Words of a selection or search drawn emphasised (with a label always); the rest are coloured. */
const EMPHASISED = 30;
/** Search matches labelled before the frequent words, where their labels fit. */
const PREFERRED = 400;
/** Matches kept in order for the lists and the labels placed first. */
const FIRST_MATCHES = Math.max(LISTED_MATCHES, PREFERRED);
/** Most words a selection or search may isolate: as many as the map may show. */
export const MAX_ISOLATE = WORDS_SHOWN.max;


/** The settings that change where the map puts a word (a new colouring or extra words do not). */
const MAP_CHANGES = ['method', 'layout', 'nWords', 'xComponent', 'yComponent', 'axes', 'isolate'];

/** Vocabulary words a search that the words shown do not answer asks the worker for. */
const VOCAB_MATCHES = 5;

/**
 * What a search matches among `words` (`count`, null without a search), as the indices of
 * the words it matches in order (`indices`, for the map's styles), and the first few of them
 * (`first`, for the lists), or what is wrong with the expression (`error`, '' when nothing
 * is). Worked out once a search and word list, and read at every redraw: 250,000 words must
 * not be walked again per frame.
 * @param {string[]} words @param {string} query @param {boolean} regex
 * @returns {{count: number|null, indices: Uint32Array|null, first: number[], error: string}}
 */
function findMatches(words, query, regex) {
  if (!query) return { count: null, indices: null, first: [], error: '' };
  const indices = new Uint32Array(words.length);
  let count = 0;
  try {
    eachMatch(words, query, regex, (i) => {
      indices[count] = i;
      count += 1;
    });
  } catch (error) {
    return { count: null, indices: null, first: [], error: `Not a regular expression: ${error.message}` };
  }
  return { count, indices: indices.subarray(0, count), first: Array.from(indices.subarray(0, Math.min(count, FIRST_MATCHES))), error: '' };
}

export class MapModel {
  /**
   * @param {import('./map-view.js').MapView} map
   * @param {import('./map-panel.js').MapPanel} panel
   * @param {{project: (settings: object) => Promise<object|null>, select: (word: string) => void,
   *   changed: () => void, frameArrived: (frame: object, options: {live: boolean}) => boolean,
   *   trails: (words: string[]) => number[][], caption: () => string|null,
   *   findWords: (needle: string, limit: number) => Promise<import('../protocol.js').VocabMatches|null>,
   *   density: (ask: import('./density.js').DensityAsk) => Promise<Float32Array|null>}} host
   *   asks the worker for a frame; selects a word
   *   (its neighbours); hears that the link's state changed; hands each frame to the timeline,
   *   which says whether to show it now (not while it replays an earlier one; `live` brings
   *   it back); gives the paths of words up to the frame shown, and the line the map writes in
   *   its corner (the moment a replay shows); finds a search's text in the whole vocabulary;
   *   estimates the density layer in the worker
   */
  constructor(map, panel, host) {
    this.map = map;
    this.panel = panel;
    this.host = host;
    /** The map a model starts with (the wasm module's `default_map_spec`); the link leaves out what equals it. */
    this.defaults = default_map_spec();
    /** @type {import('../protocol.js').MapSpec} the map spec the worker projects with */
    this.settings = {
      ...this.defaults, extraWords: [], layout: panel.readLayout(),
    };
    panel.setWordsShown(this.defaults.nWords);
    this.colour = { kind: 'none', k: 8 };
    /** The colour classes of the frame last coloured by frequency or clusters. */
    this.colourClasses = new ColourClasses();
    this.search = { query: '', regex: false };
    /** The t-SNE or UMAP map isolating words left for principal components, which "Show all words" brings back. */
    this.methodBeforeIsolating = null;
    /** A line the next frame shows under the axes (why the map shows what it shows), or null. */
    this.note = null;
    /** Where the words crowd, shaded over them when the Density box is ticked. */
    this.density = new DensityLayer(map, host.density);
    this.clear();

    map.bindHover((index) => { this.hovered = index; this.redraw(); });
    map.bindPick((index, { add }) => this.pick(this.scene.words[index], { add }));
    map.bindRegion((indices, { add }) => this.selectWords(indices.map((i) => this.scene.words[i]), { add }));
    map.bindEscape(() => this.selectWords([], { add: false }));
    map.bindCamera(() => {
      this.density.viewMoved();
      host.changed();
    });
    // The words shown go with the projection the menu shows: after a t-SNE the map refused
    // (too few words), more words bring it, rather than another PCA frame under a menu saying t-SNE.
    panel.bindProjection((settings) => this.project({ ...settings, ...panel.readMethod() }, { refit: true }));
    panel.bindWordAxes((axes) => this.project({ axes }, { refit: true }));
    panel.bindMethod(({ method, layout }) => this.project({ method, layout }, { refit: true }));
    panel.bindColour((colour) => this.setColour(colour));
    panel.bindFind((query, regex) => this.find(query, regex));
    panel.bindMatchClick((word) => this.pick(word, { add: false }));
    panel.bindSelectionClick((word) => host.select(word));
    panel.bindIsolateMatches(() => this.isolate(this.matchedWords()));
    panel.bindSelectionClear(() => this.selectWords([], { add: false }));
    panel.bindIsolateSelection(() => this.isolate(this.selection));
    panel.bindShowAll(() => this.showAll());
    panel.bindShowMostFrequent((n) => this.showMostFrequent(n));
    panel.bindZoom((factor) => (factor ? map.zoomBy(factor) : map.resetView()));
    panel.bindRegionTool((on) => map.setRegionTool(on));
    panel.bindDensity((on) => {
      this.density.setOn(on);
      host.changed();
    });
  }

  /**
   * Forgets the frame and every mark: new vectors are coming. The words shown, the
   * components, the word axes and the colouring stay (`sendMapSpec` tries them on the new
   * vectors); isolated words, which name words of the old ones, go.
   */
  clear() {
    this.frame = null;
    this.scene = null;
    this.hovered = null;
    /** @type {import('../protocol.js').StepMoves|null} the rows the step mode's last updates moved, drawn as arrows */
    this.moves = null;
    /** The selected word (its neighbours are listed) and the answers drawn with it. */
    this.answers = { selected: null, neighbours: [], analogyWords: null };
    /** Words selected together (shift-click, a region), in the order chosen. */
    this.selection = [];
    /** The vocabulary's answer to a search the words shown do not answer: `{query, matches}`, matches null while asked. */
    this.vocabSearch = null;
    this.settings = { ...this.settings, extraWords: [], isolate: null };
    // Isolated words go, and with them the principal components they were shown on.
    const method = this.leaveIsolation();
    if (method) Object.assign(this.settings, { method });
    this.map.refit();
    this.panel.showSelection([]);
    this.panel.showIsolated(null);
    this.redraw();
  }

  /**
   * Forgets the answers drawn (the selected word, its neighbours, the analogy's arrows):
   * another model replaces theirs. The selection, the search and the view stay; the next
   * frame places only the words they need.
   */
  clearAnswers() {
    const { selected, neighbours, analogyWords } = this.answers;
    if (selected == null && neighbours.length === 0 && analogyWords == null) return;
    this.answers = { selected: null, neighbours: [], analogyWords: null };
    // Another model may have another vocabulary.
    this.vocabSearch = null;
    this.settings = { ...this.settings, extraWords: this.wantedExtraWords() };
    this.redraw();
    this.host.changed();
  }

  /** The answers of the controller's queries, drawn on the map. */
  setAnswers(answers) {
    this.answers = { ...this.answers, ...answers };
    this.placeExtraWords();
  }

  /**
   * Draws the input rows the step mode's last updates moved as short arrows, each from where
   * its word's row was (its move scaled by `moves.scale`) to where it is; null takes them away.
   * @param {import('../protocol.js').StepMoves|null} moves
   */
  showMoves(moves) {
    if (moves === this.moves) return;
    this.moves = moves;
    this.redraw();
  }

  /**
   * Asks the worker for a frame with `changes` to the settings; `refit` lets the camera fit
   * the new frame (another projection, other words). An error (an unknown axis word) is
   * shown by the panel, and the settings before it stay.
   */
  async project(changes, { refit = false } = {}) {
    const previous = this.settings;
    this.settings = { ...this.settings, ...changes };
    // Moves were measured on the map before: another projection or other words would misplace them.
    if (MAP_CHANGES.some((key) => key in changes)) this.moves = null;
    // Another map may place other words (a t-SNE map places no neighbour it did not lay out).
    if ('method' in changes || 'nWords' in changes || 'isolate' in changes) this.settings.extraWords = this.wantedExtraWords();
    try {
      await this.fetchFrame(refit);
      this.panel.showAxesMessage(this.note ?? '');
    } catch (error) {
      this.settings = previous;
      // A projection the menu shows but the map could not draw: say what the map shows instead.
      const wanted = METHOD_NAMES[changes.method];
      const instead = wanted && changes.method !== previous.method
        ? ` The map still shows ${METHOD_NAMES[previous.method] ?? 'principal components'}.`
        : '';
      this.panel.showAxesMessage([...failureParts(error), ...(instead ? [{ text: instead, replaces: null }] : [])]);
    }
    this.note = null;
    this.panel.showIsolated(this.settings.isolate ? this.settings.isolate.length : null);
    this.host.changed();
  }

  /**
   * Sends the map spec to the worker for new vectors (a new model starts from the plain one):
   * when its word axes name words the new vocabulary lacks, they give way to principal
   * components, and the panel says why.
   */
  async sendMapSpec() {
    try {
      await this.fetchFrame(true);
      this.panel.showAxesMessage('');
    } catch (error) {
      this.settings = { ...this.settings, axes: { x: null, y: null }, isolate: null };
      this.panel.showAxesMessage(failureParts(error, 'Back to principal components: '));
      await this.fetchFrame(true).catch(() => {});
    }
    this.panel.showIsolated(null);
  }

  /**
   * Asks the worker for a frame of the settings and shows it; `refit` lets the camera fit it.
   * Other settings (a projection, other words: `refit`) bring a replay back to the newest frame.
   */
  async fetchFrame(refit) {
    const frame = await this.host.project(this.settings);
    if (refit) this.map.refit();
    if (frame) this.showFrame(frame, { live: refit });
  }

  /** A frame of the model shown (the controller checked): the timeline keeps it, and says whether it is drawn now. */
  showFrame(frame, { live = false } = {}) {
    if (this.host.frameArrived(frame, { live })) this.displayFrame(frame);
  }

  /** Draws `frame`: the newest, or one the timeline replays. */
  displayFrame(frame) {
    this.frame = frame;
    this.prepareSearch(frame.words);
    this.panel.setAxes(frame.explained, frame.xComponent, frame.yComponent, frame.axes);
    this.panel.showLayoutProgress(layoutProgressText(frame));
    this.redraw();
  }

  /**
   * Readies Find over `words` when the page is next idle (once a list: the frames of one
   * list share its array), so that the first search of 250,000 words answers as fast as the
   * next ones.
   */
  prepareSearch(words) {
    if (this.searchPrepared === words) return;
    this.searchPrepared = words;
    const whenIdle = globalThis.requestIdleCallback ?? ((callback) => setTimeout(callback, 0));
    whenIdle(() => {
      if (this.frame?.words === words) prepareSearch(words);
    });
  }

  /**
   * Isolates `words`: the projection is fitted on them alone. t-SNE and UMAP map the most
   * frequent words only, so isolated words go on principal components, the menu says so, and
   * "Show all words" brings the t-SNE or UMAP map back.
   */
  isolate(words) {
    if (words.length < 2) {
      this.panel.showAxesMessage('Isolating needs at least two words: select or find more.');
      return;
    }
    const changes = { isolate: words.slice(0, MAX_ISOLATE) };
    const { method } = this.panel.readMethod();
    if (METHOD_NAMES[method]) {
      this.methodBeforeIsolating = method;
      this.panel.setMethod('pca', this.settings.layout ?? {});
      this.note = `${METHOD_NAMES[method]} maps the most frequent words only: isolated words are shown on principal components.`;
      Object.assign(changes, { method: 'pca' });
    }
    this.project(changes, { refit: true });
  }

  /** Back from isolated words to the words shown, with the t-SNE or UMAP map isolating left. */
  showAll() {
    const method = this.leaveIsolation();
    this.project({ isolate: null, ...(method ? { method } : {}) }, { refit: true });
  }

  /**
   * Shows the `n` most frequent words (a neighbour or a search outside the words shown asked
   * for them): the Words shown field says so, and a t-SNE or UMAP map is laid out again.
   */
  showMostFrequent(n) {
    this.panel.setWordsShown(n);
    this.project({ nWords: n, ...this.panel.readMethod() }, { refit: true });
  }

  /** The t-SNE or UMAP map that isolating words left, back in the menu; null when there was none. */
  leaveIsolation() {
    const method = this.methodBeforeIsolating;
    this.methodBeforeIsolating = null;
    if (method && this.settings.layout) this.panel.setMethod(method, this.settings.layout);
    return method;
  }

  setColour(colour) {
    const clusters = colour.kind === 'clusters' ? colour.k : 0;
    this.colour = colour;
    if (clusters !== this.settings.clusters) this.project({ clusters });
    else this.redraw();
    this.host.changed();
  }

  find(query, regex) {
    this.search = { query, regex };
    this.map.labelNextFrame();
    this.redraw();
    this.host.changed();
  }

  /** A click on a word: it becomes the selection (and its neighbours are asked), or with `add` joins it. */
  pick(word, { add }) {
    if (add) {
      const at = this.selection.indexOf(word);
      this.selection = at < 0 ? [...this.selection, word] : this.selection.filter((w) => w !== word);
    } else {
      this.selection = [word];
      this.host.select(word);
    }
    this.panel.showSelection(this.selection);
    this.redraw();
    this.host.changed();
  }

  selectWords(words, { add }) {
    const chosen = add ? [...new Set([...this.selection, ...words])] : words;
    this.selection = chosen;
    this.panel.showSelection(chosen);
    this.redraw();
    this.host.changed();
  }

  /**
   * What the search matches among the plotted words (`{count, mask, first}`, see
   * findMatches), or null without a search (a bad expression says so). Every redraw asks, and a wheel's zoom redraws each frame: the answer is kept for
   * the same words and search, since testing 250,000 words takes about 17 ms.
   */
  matches() {
    const words = this.frame?.words ?? [];
    const { query, regex } = this.search;
    const kept = this.matchesKept;
    if (kept?.words !== words || kept.query !== query || kept.regex !== regex) {
      this.matchesKept = { words, query, regex, ...findMatches(words, query, regex) };
    }
    const found = this.matchesKept;
    if (found.count == null) {
      this.panel.showMatches(null, [], found.error);
      return null;
    }
    const listed = found.first.slice(0, LISTED_MATCHES).map((i) => words[i]);
    this.panel.showMatches(found.count, listed, '');
    this.showVocabMatches(found.count === 0 && !this.search.regex && this.frame ? this.search.query : null);
    return found;
  }

  /**
   * Says where a search that matches none of the words shown stands in the whole vocabulary
   * (asked of the worker once a query): the most frequent word holding it and its rank, with
   * a button that shows that many words; null hides it. Regular expressions are matched on
   * the map only.
   */
  showVocabMatches(query) {
    if (query == null) {
      this.panel.showElsewhere(null);
      return;
    }
    if (this.vocabSearch?.query !== query) {
      const search = { query, matches: null };
      this.vocabSearch = search;
      this.host.findWords(query, VOCAB_MATCHES).then((matches) => {
        if (this.vocabSearch !== search) return;
        search.matches = matches;
        this.redraw();
      });
    }
    const { matches } = this.vocabSearch;
    if (!matches) {
      this.panel.showElsewhere(null);
      return;
    }
    const quoted = `“${displayToken(query)}”`;
    if (matches.count === 0) {
      this.panel.showElsewhere({ text: `No word of the vocabulary holds ${quoted}.`, show: null });
      return;
    }
    const lower = query.toLocaleLowerCase();
    const best = matches.words.find(({ word }) => word.toLocaleLowerCase() === lower) ?? matches.words[0];
    const isolated = this.settings.isolate?.length;
    const shown = isolated ? `the ${plural(isolated, 'isolated word')}` : `the ${plural(this.frame.words.length, 'word')} shown`;
    const place = `the ${ordinal(best.rank + 1)} most frequent word`;
    const more = matches.count - 1;
    const others = more ? ` ${plural(more, 'other word')} of the vocabulary ${more === 1 ? 'holds' : 'hold'} it too.` : '';
    const text = best.word.toLocaleLowerCase() === lower
      ? `“${displayToken(best.word)}” is not among ${shown}: it is ${place}.${others}`
      : `No word among ${shown} holds ${quoted}; “${displayToken(best.word)}”, ${place}, does.${others}`;
    const fits = best.rank < WORDS_SHOWN.max;
    const limit = fits ? '' : ` The map shows at most ${integer.format(WORDS_SHOWN.max)} words.`;
    this.panel.showElsewhere({ text: text + limit, show: fits && !isolated ? best.rank + 1 : null });
  }

  matchedWords() {
    const found = this.matches();
    const words = this.frame?.words ?? [];
    return found ? Array.from(found.indices, (i) => words[i]) : [];
  }

  /**
   * Words the map needs that the frame lacks (the selection's neighbours, analogy words). The
   * words shown are the most frequent ones, so a neighbour's rank tells whether the map of the
   * settings shows it; a t-SNE or UMAP map has no place for one it did not lay out.
   */
  wantedExtraWords() {
    const plotted = new Set(this.frame?.words ?? []);
    const { selected, neighbours, analogyWords } = this.answers;
    const { isolate, method, nWords } = this.settings;
    const lacking = isolate
      ? neighbours.filter((n) => !plotted.has(n.word))
      : neighbours.filter((n) => n.rank >= nWords && !METHOD_NAMES[method]);
    const lacks = (word) => word != null && !plotted.has(word);
    return [...new Set([
      ...[selected].filter(lacks), ...lacking.map((n) => n.word), ...[...(analogyWords ?? []), ...this.selection].filter(lacks),
    ])];
  }

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
    this.map.show(this.scene);
    this.density.setPoints(this.frame?.coords ?? null);
  }

  /**
   * The names of `frame`'s clusters (its three most frequent words, "the · and · of") where
   * their points crowd most (src/plot/labels.rs, `cluster_places`), largest cluster first:
   * worked out once a frame. None unless the map is coloured by clusters, so a name always
   * goes with the colour it names.
   */
  clusterNames(frame) {
    if (this.colour.kind !== 'clusters' || !frame.clusters) return [];
    if (this.namesOf === frame) return this.names;
    const flat = cluster_name_places(frame.coords, frame.clusters);
    const names = [];
    for (let at = 0; at + 7 <= flat.length; at += 7) {
      const members = Array.from(flat.subarray(at + 4, at + 7)).filter((i) => i >= 0);
      const text = members.map((i) => displayToken(frame.words[i])).join(' · ');
      names.push({ text, x: flat[at + 1], y: flat[at + 2], style: flat[at] % CATEGORIES, count: flat[at + 3] });
    }
    names.sort((a, b) => b.count - a.count);
    this.names = names.map(({ text, x, y, style }) => ({ text, x, y, style }));
    this.namesOf = frame;
    return this.names;
  }

  /** The scene of `frame` with the marks on it; see MapScene in map-view.js. */
  buildScene(frame) {
    const { selected, neighbours, analogyWords } = this.answers;
    // A t-SNE or UMAP map has no place for a neighbour it did not lay out (the worker would
    // put it on the point of its nearest word laid out): it is left off, and the page says so.
    const layout = METHOD_NAMES[frame.method];
    const offMap = layout ? neighbours.filter((n) => n.rank >= frame.words.length) : [];
    this.showOffMapNeighbours(selected, neighbours.length, offMap, frame);
    // The frame's words and coordinates are kept while the frame and what it leaves off are,
    // so the map can tell a new frame (glide) from new marks on the same one (redraw).
    if (this.sceneFrame !== frame || this.sceneNeighbours !== neighbours) {
      const unwanted = new Set(offMap.map((n) => n.word));
      for (const word of [selected, ...(analogyWords ?? []), ...this.selection]) unwanted.delete(word);
      const placed = frame.extraWords
        .map((word, i) => ({ word, x: frame.extraCoords[2 * i], y: frame.extraCoords[2 * i + 1] }))
        .filter(({ word, x, y }) => Number.isFinite(x) && Number.isFinite(y) && !unwanted.has(word));
      const words = placed.length ? [...frame.words, ...placed.map((p) => p.word)] : frame.words;
      const coords = new Float32Array(frame.coords.length + 2 * placed.length);
      coords.set(frame.coords);
      placed.forEach(({ x, y }, i) => { coords.set([x, y], frame.coords.length + 2 * i); });
      this.sceneFrame = frame;
      this.sceneNeighbours = neighbours;
      this.sceneWords = words;
      this.sceneCoords = coords;
      // The frames of one word list share its array (www/map/frame-words.js): one index serves them all.
      if (this.sceneIndexOf !== words) this.sceneIndex = new Map(words.map((word, i) => [word, i]));
      this.sceneIndexOf = words;
    }
    const words = this.sceneWords;
    const at = (word) => this.sceneIndex.get(word);
    const known = (i) => i != null;
    const a = analogyWords?.map(at) ?? [];
    const arrows = a.length === 4 ? [[a[0], a[1]], [a[2], a[3]]].filter(([f, t]) => known(f) && known(t)) : [];
    const matches = this.matches();
    const chosen = this.selection.map(at).filter(known);
    const { kind } = this.colour;
    const styles = pointStyles(words.length, matches, chosen, kind, this.colourClasses.of(frame, kind));
    // A replayed frame (the timeline's caption says which) is not the one the moves were measured on.
    const replayed = this.host.caption();
    const moves = replayed == null ? this.moveMarks(at) : [];
    const legend = colourLegend(frame, styles, kind, this.settings.clusters);
    const moveEntries = moves.length ? [{ line: 'move', text: moveLegend(this.moves) }] : [];
    this.panel.showLegend({ ...legend, entries: [...legend.entries, ...moveEntries] });
    const [xLabel, yLabel] = frame.axisLabels ?? componentNames(frame);
    return {
      frame,
      words,
      coords: this.sceneCoords,
      styles,
      method: methodDescription(frame, this.settings.layout),
      options: {
        xLabel,
        yLabel,
        labelCount: words.length,
        hovered: this.hovered != null && this.hovered < words.length ? this.hovered : null,
        selected: at(selected) ?? null,
        neighbours: neighbours.map((n) => at(n.word)).filter(known),
        arrows,
        // A handful of matches stand out like the selection; many are only coloured and labelled first.
        highlighted: [...a.filter(known), ...chosen.slice(0, EMPHASISED), ...(matches && matches.count <= EMPHASISED ? matches.first : [])],
        preferred: [...moves.map((m) => m.point), ...chosen.slice(EMPHASISED), ...(matches ? matches.first.slice(0, PREFERRED) : [])],
        moves,
        trails: this.host.trails([...new Set([selected, ...this.selection].filter((w) => w != null))]),
        caption: replayed ?? (moves.length ? moveCaption(this.moves) : null),
        clusterNames: this.clusterNames(frame),
      },
    };
  }

  /**
   * The moves to draw, `{point, dx, dy}` for the scatter, of the moved words the scene holds
   * (`at` gives a word's point).
   * @param {(word: string) => number|undefined} at
   */
  moveMarks(at) {
    if (!this.moves) return [];
    const { words, shifts } = this.moves;
    return words.map((word, i) => ({ point: at(word), dx: shifts[2 * i], dy: shifts[2 * i + 1] }))
      .filter((m) => m.point != null);
  }

  /**
   * Says how many of `selected`'s `total` neighbours the t-SNE or UMAP `frame` did not lay
   * out (`offMap`), with a button that shows enough words for them; nothing when all are on it.
   */
  showOffMapNeighbours(selected, total, offMap, frame) {
    if (!offMap.length || selected == null) {
      this.panel.showOffMapNeighbours(null);
      return;
    }
    const needed = Math.max(...offMap.map((n) => n.rank)) + 1;
    const beyond = offMap.filter((n) => n.rank >= WORDS_SHOWN.max).length;
    const limit = beyond ? ` ${plural(beyond, 'neighbour')} ${beyond === 1 ? 'is' : 'are'} beyond the ${integer.format(WORDS_SHOWN.max)} words a map shows.` : '';
    this.panel.showOffMapNeighbours({
      text: `${integer.format(offMap.length)} of the ${plural(total, 'neighbour')} of “${displayToken(selected)}” ${offMap.length === 1 ? 'is' : 'are'} not among the ${plural(frame.words.length, 'word')} laid out by ${METHOD_NAMES[frame.method]}.${limit}`,
      show: offMap.length > beyond ? Math.min(needed, WORDS_SHOWN.max) : null,
    });
  }

  /** The state a link keeps (with the text, which the controller adds). */
  linkState() {
    return linkState(this);
  }

  /**
   * Restores a link's state (a URLSearchParams): settings, colouring, search and selection
   * at once; the camera once the first frame is drawn. Values that make no sense are left out.
   */
  restore(state) {
    return restoreLinkState(this, state);
  }
}
