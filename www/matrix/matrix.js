// @ts-check
// The Matrix card's logic, between MatrixPanel and the worker: which band of the vectors'
// matrix is shown, and when it is asked for again. Any vectors the page holds have one: a
// text's while it trains and after, or vectors opened from a file.
//
// A band is asked for when the person zooms or moves it, when another model comes, and
// while training as the vectors change, at most every REFRESH_MS: each request copies the
// trainer's vectors (the snapshot queries read), and the band is small, so drawing it stays
// well within a frame. One request is out at a time; what changed meanwhile is asked for
// when it answers. Off screen, the card asks for nothing until it is seen. A band of vectors
// that gave way is not drawn (the host says which model is current).
//
// A word selected anywhere on the page (the map, the neighbours, this card's rows or its
// search field) is the card's selected row: the band moves to show it, outlined. Clicking a
// row, or finding a word, selects it on the page through the host.
import { FIRST_REQUEST, firstBand, moved, openWays, showingRow, withinMatrix, zoomed } from './band.js';

/** @typedef {import('./matrix-panel.js').MatrixPanel} MatrixPanel */
/** @typedef {import('../protocol.js').MatrixBand} MatrixBand */
/** @typedef {import('./band.js').Band} Band */
/** @typedef {import('./band.js').Totals} Totals */

/** While the vectors change (training), a fresh band at most this often, in ms. */
export const REFRESH_MS = 400;

export class Matrix {
  /**
   * @param {MatrixPanel} panel
   * @param {import('../app/worker-client.js').WorkerClient} worker
   * @param {{model: () => number|null, version: () => number, select: (word: string) => void}} host  the controller:
   *   the model shown (null without vectors), how far its vectors have trained (a change asks
   *   for the band again), and how to select a word on the page
   */
  constructor(panel, worker, host) {
    this.panel = panel;
    this.worker = worker;
    this.host = host;
    /** @type {number|null} the model whose band is shown */
    this.model = null;
    /** The model and version the band shown (or asked for) was read at. */
    this.seen = '';
    /** @type {Band|null} the band the person wants; null until a model's size is known */
    this.band = null;
    /** @type {Totals|null} the matrix's size, from the last band */
    this.totals = null;
    /** @type {MatrixBand|null} the band drawn (the browser tests read its values) */
    this.shown = null;
    /** A request is out; `again`: something changed since it left. */
    this.asking = false;
    this.again = false;
    /** When the last request left (performance.now()), and the timer of one waiting for REFRESH_MS. */
    this.lastAsked = -Infinity;
    this.timer = null;
    panel.bindZoom((direction, anchor) => this.change(this.totals && zoomed(this.band, this.totals, direction, anchor)));
    panel.bindMove((rows, cols) => this.change(this.totals && moved(this.band, this.totals, rows, cols)));
    panel.bindFirst(() => this.change(this.totals && firstBand(this.totals)));
    panel.bindSelect((word) => host.select(word));
    panel.bindFind((word) => this.find(word));
    panel.bindVisible(() => this.ask());
    /** @type {{word: string, row: number}|null} the word selected on the page, and its row */
    this.selected = null;
    panel.showMessage('No vectors yet: train on a text, or open vectors.');
  }

  /**
   * The controller's state may have changed (another model, the vectors trained further, or
   * none): asks for the band again if the vectors changed, at most every REFRESH_MS.
   */
  update() {
    const model = this.host.model();
    if (model !== this.model) {
      this.model = model;
      this.seen = '';
      this.band = null;
      this.totals = null;
      this.shown = null;
      this.selected = null;
      this.panel.setSelected(null);
      clearTimeout(this.timer);
      this.timer = null;
      if (model == null) {
        this.panel.showMessage('No vectors yet: train on a text, or open vectors.');
        return;
      }
    }
    if (model == null || this.seen === this.version()) return;
    const wait = this.lastAsked + REFRESH_MS - performance.now();
    if (wait <= 0) this.ask();
    // Rounded up: Chromium truncates a timer's delay to whole milliseconds, and would ask
    // up to a millisecond sooner than REFRESH_MS after the last band.
    else this.timer ??= setTimeout(() => {
      this.timer = null;
      this.ask();
    }, Math.ceil(wait));
  }

  /**
   * The person asked for `word`'s row (the search field): the band shows it and the page
   * selects the word; a word the vectors lack is said under the field.
   * @param {string} word
   */
  async find(word) {
    const row = await this.rowOf(word, true);
    if (row == null) return;
    this.panel.showFindMessage('');
    this.reveal(word, row);
    this.host.select(word);
  }

  /**
   * `word` was selected on the page: its row is outlined and the band moves to show it.
   * @param {string} word
   */
  async showSelected(word) {
    // Selected again (the band may have moved away since): its row is known.
    const row = this.selected?.word === word ? this.selected.row : await this.rowOf(word, false);
    if (row != null) this.reveal(word, row);
  }

  /** `word`'s row in the current model's matrix, or null (said under the search field when `say`). */
  async rowOf(word, say) {
    const model = this.model;
    if (model == null) return null;
    try {
      const { row } = await this.worker.request('matrixRow', { word });
      return this.model === model ? row : null;
    } catch (error) {
      if (say && this.model === model) this.panel.showFindMessage(error.message);
      return null;
    }
  }

  /** Outlines `row`, `word`'s, and moves the band to show it. @param {string} word @param {number} row */
  reveal(word, row) {
    this.selected = { word, row };
    this.panel.setSelected(row);
    // Before the matrix's size is known, the first band shown moves to it (`show`).
    if (this.band && this.totals) this.change(showingRow(this.band, this.totals, row));
  }

  /** The model and how far its vectors have trained, as one key. */
  version() {
    return `${this.model} ${this.host.version()}`;
  }

  /** The person zoomed or moved the band (null: before the matrix's size is known). @param {Band|null} band */
  change(band) {
    if (!band || sameBand(band, this.band)) return;
    this.band = band;
    this.seen = '';
    this.ask();
  }

  /** Asks the worker for the band wanted, and draws it; one request at a time. */
  async ask() {
    if (this.model == null || !this.panel.visible) return;
    if (this.asking) {
      this.again = true;
      return;
    }
    const model = this.model;
    const version = this.version();
    const { firstRow, rows, firstCol, cols } = this.band ?? FIRST_REQUEST;
    this.asking = true;
    this.again = false;
    this.lastAsked = performance.now();
    try {
      /** @type {MatrixBand} */
      const reply = await this.worker.request('matrixBand', { firstRow, rows, firstCol, cols });
      if (this.model === model) this.show(reply, version);
    } catch (error) {
      // Asked again only when the vectors change.
      if (this.model === model) {
        this.seen = version;
        this.shown = null;
        this.panel.showMessage(`No matrix to show: ${error.message}`);
      }
    } finally {
      this.asking = false;
    }
    // The band moved while the request was out: at once; the vectors changed: in their time.
    if (this.model == null) return;
    if (this.shown && !sameBand(this.band, this.shown)) this.ask();
    else if (this.again || this.seen !== this.version()) this.update();
  }

  /** Draws `reply`, the band of the vectors at `version`. @param {MatrixBand} reply @param {string} version */
  show(reply, version) {
    this.seen = version;
    this.totals = { totalRows: reply.totalRows, dim: reply.dim };
    const first = this.selected ? showingRow(firstBand(this.totals), this.totals, this.selected.row) : firstBand(this.totals);
    this.band = withinMatrix(this.band ?? first, this.totals);
    this.shown = reply;
    this.panel.showBand(reply, openWays(this.band, this.totals));
  }
}

/** Whether `a` and `b` are the same rows and columns. @param {import('./band.js').Cells|null} a @param {import('./band.js').Cells|null} b */
function sameBand(a, b) {
  return a != null && b != null && a.firstRow === b.firstRow && a.rows === b.rows && a.firstCol === b.firstCol && a.cols === b.cols;
}
