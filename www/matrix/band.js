// @ts-check
// Which band of the embedding matrix the Matrix card shows, and how zooming and moving
// change it. A band is `rows` rows from `firstRow` (the vocabulary's order, most frequent
// first) and `cols` columns (dimensions) from `firstCol`, always within the matrix.
// Zooming steps each side through 8, 16, 32, … to the matrix's size (rows to MAX_ROWS), both
// sides by one level, so zooming out and in again comes back to the same band. Also what the card says of a band
// (its range, the matrix's size, a value) and which cell is under the pointer. No DOM:
// tests/www/matrix.test.js.
import { integer } from '../shared/format.js';

/** The fewest rows or columns a band shows (fewer where the matrix is smaller). */
export const MIN_SIDE = 8;
/** The most rows a band shows: the card is a few hundred pixels tall. */
export const MAX_ROWS = 256;
/** A new matrix opens on its first rows and columns: this many rows… */
export const FIRST_ROWS = 32;
/** …and this many columns, or all of them where there are no more. */
export const FIRST_COLS = 64;

/**
 * @typedef {{firstRow: number, rows: number, firstCol: number, cols: number}} Cells  rows and columns of the matrix
 * @typedef {Cells & {level: number}} Band  the band the card shows:
 *   `level` says how far out it is zoomed: 0 is the band a matrix opens on, each level up
 *   doubles its rows and its columns where they can (see `levels`), and `rows` and `cols`
 *   are that level's
 * @typedef {{totalRows: number, dim: number}} Totals  the whole matrix: rows (tokens) and columns (dimensions)
 */

/**
 * The counts one side of a band may have: 8, 16, 32, … below `min(total, max)`, then that
 * itself. A matrix smaller than MIN_SIDE has one count, its size.
 * @param {number} total @param {number} [max]
 */
export function sideSteps(total, max = Infinity) {
  const top = Math.min(total, max);
  const steps = [];
  for (let n = MIN_SIDE; n < top; n *= 2) steps.push(n);
  steps.push(top);
  return steps;
}

/** @param {number} value @param {number} lo @param {number} hi */
const clamp = (value, lo, hi) => Math.min(hi, Math.max(lo, value));

/** The index of the largest of `steps` no larger than `n` (0 when none is). @param {number[]} steps @param {number} n */
const indexAtMost = (steps, n) => Math.max(0, steps.filter((step) => step <= n).length - 1);

/**
 * The zoom levels of a matrix: level `l` shows `rows[rowBase + l]` rows and
 * `cols[colBase + l]` columns, each held at the end of its steps, from level `lo` (the
 * fewest of both) to `hi` (the most). Level 0 is the first band: FIRST_ROWS rows and
 * FIRST_COLS columns, or fewer. One level for both sides, so zooming out and in again comes
 * back to the same band even where one side stopped at its end.
 * @param {Totals} totals
 */
export function levels({ totalRows, dim }) {
  const rows = sideSteps(totalRows, MAX_ROWS);
  const cols = sideSteps(dim);
  const rowBase = indexAtMost(rows, FIRST_ROWS);
  const colBase = indexAtMost(cols, FIRST_COLS);
  return { rows, cols, rowBase, colBase, lo: -Math.max(rowBase, colBase), hi: Math.max(rows.length - 1 - rowBase, cols.length - 1 - colBase) };
}

/**
 * The band's level brought within the matrix's levels, and its rows and columns.
 * @param {Totals} totals @param {number} level
 */
function atLevel(totals, level) {
  const l = levels(totals);
  const within = clamp(Math.round(level), l.lo, l.hi);
  return {
    level: within,
    rows: l.rows[clamp(l.rowBase + within, 0, l.rows.length - 1)],
    cols: l.cols[clamp(l.colBase + within, 0, l.cols.length - 1)],
  };
}

/** The first band the page asks for, before it knows the matrix's size (the worker cuts it to the matrix). */
export const FIRST_REQUEST = Object.freeze({ firstRow: 0, rows: FIRST_ROWS, firstCol: 0, cols: FIRST_COLS });

/**
 * The band a matrix opens on: its first FIRST_ROWS rows and FIRST_COLS columns (all
 * columns where there are no more than that), level 0.
 * @param {Totals} totals @returns {Band}
 */
export function firstBand(totals) {
  return { firstRow: 0, firstCol: 0, ...atLevel(totals, 0) };
}

/**
 * `band` brought within the matrix: its level's rows and columns, none before the first
 * or after the last.
 * @param {Band} band @param {Totals} totals @returns {Band}
 */
export function withinMatrix(band, totals) {
  const { level, rows, cols } = atLevel(totals, band.level);
  return {
    firstRow: clamp(Math.round(band.firstRow), 0, totals.totalRows - rows),
    rows,
    firstCol: clamp(Math.round(band.firstCol), 0, totals.dim - cols),
    cols,
    level,
  };
}

/**
 * `band` zoomed one level: `direction` -1 shows fewer rows and columns (zooms in), +1 more
 * (zooms out). The cell at `anchor` (fractions of the band's height and width, 0.5 its
 * middle) stays where it is, as near as the matrix's edges allow.
 * @param {Band} band @param {Totals} totals @param {-1|1} direction
 * @param {{row: number, col: number}} [anchor]
 * @returns {Band}
 */
export function zoomed(band, totals, direction, anchor = { row: 0.5, col: 0.5 }) {
  const { level, rows, cols } = atLevel(totals, band.level + direction);
  return withinMatrix({
    firstRow: band.firstRow + anchor.row * (band.rows - rows),
    rows,
    firstCol: band.firstCol + anchor.col * (band.cols - cols),
    cols,
    level,
  }, totals);
}

/**
 * `band` moved by `rows` rows and `cols` columns (negative: towards the first), stopping at
 * the matrix's edges.
 * @param {Band} band @param {Totals} totals @param {number} rows @param {number} cols
 * @returns {Band}
 */
export function moved(band, totals, rows, cols) {
  return withinMatrix({ ...band, firstRow: band.firstRow + rows, firstCol: band.firstCol + cols }, totals);
}

/**
 * Which ways the band can still go: zoom in or out, and move to earlier or later rows and
 * columns. Buttons for a way that is not open are disabled.
 * @param {Band} band @param {Totals} totals
 */
export function openWays(band, totals) {
  const { lo, hi } = levels(totals);
  return {
    zoomIn: band.level > lo,
    zoomOut: band.level < hi,
    up: band.firstRow > 0,
    down: band.firstRow + band.rows < totals.totalRows,
    left: band.firstCol > 0,
    right: band.firstCol + band.cols < totals.dim,
  };
}

/** "1–40" (1-based, inclusive), or "1" for one; "none" for an empty range. */
function span(first, count) {
  if (count <= 0) return 'none';
  return count === 1 ? integer.format(first + 1) : `${integer.format(first + 1)}–${integer.format(first + count)}`;
}

/**
 * What the band shows, as the card says it: "rows 1–40 of 8,378 · dimensions 1–50 of 50".
 * @param {Cells} band @param {Totals} totals
 */
export function rangeText(band, totals) {
  return `rows ${span(band.firstRow, band.rows)} of ${integer.format(totals.totalRows)}`
    + ` · dimensions ${span(band.firstCol, band.cols)} of ${integer.format(totals.dim)}`;
}

/**
 * The matrix's size in words: "8,378 tokens × 50 dimensions = 418,900 numbers".
 * @param {Totals} totals
 */
export function sizeText({ totalRows, dim }) {
  const plural = (n, one, many) => `${integer.format(n)} ${n === 1 ? one : many}`;
  return `${plural(totalRows, 'token', 'tokens')} × ${plural(dim, 'dimension', 'dimensions')}`
    + ` = ${plural(totalRows * dim, 'number', 'numbers')}`;
}

/**
 * What the matrix does, in the card's words, with its size: a one-hot token as wide as the
 * vocabulary in, one short dense row out.
 * @param {Totals} totals
 */
export function explanation({ totalRows, dim }) {
  return `A token enters as a one-hot vector as wide as the vocabulary: ${integer.format(totalRows)} numbers, all 0 but one 1.`
    + ` Multiplied by this matrix, it picks out the token's row: ${integer.format(dim)} dense numbers, its embedding.`
    + ' One row a token, in the vocabulary\'s order (most frequent first).';
}

/**
 * The matrix's parameters and how much narrower it makes a token, in the card's words:
 * "One-hot 8,378 wide → dense 50 wide: 168 times narrower. Parameters: 418,900 in the input
 * matrix + 418,900 in the output matrix = 837,800." With `output` 'trained' SGNS learns both
 * matrices; vectors opened from a file, or a language model's, bring the input matrix alone.
 * @param {Totals} totals @param {'trained'|'opened'|'model'} output
 */
export function parametersText({ totalRows, dim }, output) {
  const ratio = totalRows / dim;
  const narrower = ratio >= 10 ? integer.format(Math.round(ratio)) : ratio.toPrecision(2);
  const shape = `One-hot ${integer.format(totalRows)} wide → dense ${integer.format(dim)} wide: ${narrower} times narrower.`;
  const one = totalRows * dim;
  return output === 'trained'
    ? `${shape} Parameters: ${integer.format(one)} in the input matrix + ${integer.format(one)} in the output matrix = ${integer.format(2 * one)}.`
    : `${shape} Parameters: ${integer.format(one)}.`;
}

/**
 * What the card says of the output (context) matrix: what it is beside the input matrix,
 * or why it is not shown.
 * @param {'trained'|'opened'|'model'} output
 */
export function outputText(output) {
  if (output === 'trained') {
    return 'Right: the output (context) matrix, which skip-gram with negative sampling learns beside the input one.'
      + ' A pair scores σ(input row · output row): high for words seen together in a window, low for the sampled noise words.'
      + ' It starts at zero; the map and the neighbours use the input rows.';
  }
  if (output === 'model') return 'A language model\'s token embeddings: its output matrix (the unembedding, lm_head) is not read, so only the input matrix is shown.';
  return 'Vectors opened from a file hold the input matrix only: the output (context) matrix stayed with the trainer that made them.';
}

/**
 * The first row of a band of `rows` rows that shows `row`: the band as it is when it
 * shows it already, else the band centred on it, within the matrix.
 * @param {Band} band @param {Totals} totals @param {number} row
 * @returns {Band}
 */
export function showingRow(band, totals, row) {
  if (row >= band.firstRow && row < band.firstRow + band.rows) return band;
  return withinMatrix({ ...band, firstRow: row - Math.floor(band.rows / 2) }, totals);
}

/** A value as the tooltip and the legend say it: 4 significant digits, a true minus sign ("−0.1234"). */
export function valueText(value) {
  return `${value < 0 ? '−' : ''}${Math.abs(value).toPrecision(4)}`;
}

/** A value as a cell shows it: 2 significant digits ("−0.12"). */
export function compactValue(value) {
  return `${value < 0 ? '−' : ''}${Math.abs(value).toPrecision(2)}`;
}

/**
 * A value as a cell shows it, with as many decimals as every cell of the band: 2 on a
 * scale (the band's largest magnitudes) from 1 to 10, one more for each power of ten below
 * (at most 3), one fewer above ("0.29", "−0.66", "0.02" on a scale of 1.2; "−0.012" on a
 * scale of 0.05), and never "−0.00".
 * @param {number} value @param {number} scale
 */
export function cellText(value, scale) {
  const decimals = Math.min(3, Math.max(0, 2 - Math.floor(Math.log10(scale))));
  const text = Math.abs(value).toFixed(decimals);
  return Number(text) === 0 || value >= 0 ? text : `−${text}`;
}

/**
 * The band's row under CSS px (x, y) of a canvas laid out as `layout` (the input matrix's
 * cells from (x0, y0), `width` × `height`, the row labels left of them, and, with `x1`, the
 * output matrix's cells as wide from x1), its column there, or 'label' over the labels, and
 * which matrix; null above, below or right of the cells, and between the two matrices.
 * @param {{x0: number, y0: number, width: number, height: number, x1?: number|null}} layout
 * @param {{rows: number, cols: number}} band @param {number} x @param {number} y
 * @returns {{row: number, col: number|'label', matrix: 'input'|'output'}|null}
 */
export function cellAt(layout, band, x, y) {
  if (!band.rows || !band.cols || y < layout.y0 || y >= layout.y0 + layout.height || x < 0) return null;
  const row = Math.min(band.rows - 1, Math.floor((y - layout.y0) / (layout.height / band.rows)));
  if (x < layout.x0) return { row, col: 'label', matrix: 'input' };
  /** @param {number} left */
  const col = (left) => Math.min(band.cols - 1, Math.floor((x - left) / (layout.width / band.cols)));
  if (x < layout.x0 + layout.width) return { row, col: col(layout.x0), matrix: 'input' };
  if (layout.x1 != null && x >= layout.x1 && x < layout.x1 + layout.width) return { row, col: col(layout.x1), matrix: 'output' };
  return null;
}
