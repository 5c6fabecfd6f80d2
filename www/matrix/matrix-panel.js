// @ts-check
// The Matrix card: the embedding matrix itself, a table of numbers with one row a token.
// It says the matrix's size (vocabulary × dimension), its parameters and how much narrower
// than a one-hot token its rows are, what the matrix does to a one-hot token, and draws a
// band of it as a heatmap on a canvas: the tokens beside their rows, the dimensions above
// their columns, each value in the diverging colours of colours.js (and its number, where
// the cells are large enough), with the scale's legend. Beside it, when a text's trainer
// holds one, the same cells of the output (context) matrix, on a scale of their own (it
// starts at zero and grows). The selected word's row is outlined; a search field finds a
// word's row. A model's facts, when the vectors are a language model's, go above it
// (`showModel`). The only code touching the card's elements.
//
// Input goes through the map's own (map/interaction.js): the wheel, a pinch, + and − zoom,
// a drag or the arrow keys move the band, Home goes back to the first rows; the buttons do
// the same. Each becomes an intention for the handlers of `bindZoom`, `bindMove` and
// `bindSelect` (www/matrix/matrix.js decides what the band becomes).
import { bindMapInput } from '../map/interaction.js';
import { css, readColours } from '../map/palette.js';
import { $, readyCanvas } from '../shared/dom.js';
import { formatBytes, integer, percent, termsAndValues } from '../shared/format.js';
import { displayToken } from '../shared/tokens.js';
import { cellAt, cellText, compactValue, explanation, outputText, parametersText, rangeText, sizeText, valueText } from './band.js';
import { SCALE_QUANTILE, cellColour, darkTextOn, paintValues, scaleOf } from './colours.js';

/** @typedef {import('../protocol.js').MatrixBand} MatrixBand */

/** @typedef {import('../protocol.js').ModelInfoDto} ModelInfo  what a language model's matrix is (lm::ModelInfo) */

/** The log of the zoom (wheel, pinch, keys) that makes one step of rows and columns. */
const ZOOM_STEP = Math.log(1.4);
/** CSS px: the row labels' font (the cells' numbers are a pixel smaller). */
const LABEL_FONT_PX = 11;
/** CSS px: rows at least this tall have each a label; shorter ones, one every few rows. */
const MIN_LABEL_ROW_PX = 10;
/** CSS px: the dimensions' numbers above the columns, and the least space between two of them beside their width. */
const HEADER_PX = 15;
const TICK_SPACE_PX = 10;
/** Cells at least this large (CSS px) show their number; at least GAP_CELL_PX, a line between them. */
const NUMBER_CELL = { width: 24, height: 14 };
const GAP_CELL_PX = 5;
/** CSS px: with the output matrix, the line of the two matrices' names above their columns, and the space between them. */
const TITLE_PX = 15;
const PANE_GAP_PX = 12;

export class MatrixPanel {
  constructor() {
    this.canvas = /** @type {HTMLCanvasElement} */ ($('matrix-canvas'));
    this.tooltip = $('matrix-tooltip');
    /** @type {MatrixBand|null} the band drawn */
    this.band = null;
    /** @type {{x0: number, y0: number, width: number, height: number, labelWidth: number, x1: number|null}|null}
     *  where it was drawn, CSS px: the input matrix's cells from (x0, y0), the output matrix's as large from x1 */
    this.layout = null;
    /** @type {number|null} the selected word's row (0-based, in the whole matrix), outlined when the band shows it */
    this.selectedRow = null;
    /** @type {{x: number, y: number}|null} where the pointer rests on the canvas, CSS px */
    this.pointer = null;
    /** Whether any of the card is on screen (off screen, the band waits: see `bindVisible`). */
    this.visible = true;
    /** Intentions, set by the `bindX` methods. */
    this.handlers = {
      zoom: (_direction, _anchor) => {},
      move: (_rows, _cols) => {},
      first: () => {},
      select: (_word) => {},
      find: (_word) => {},
      visible: () => {},
    };
    /** Zoom and moves smaller than a step, kept until they make one. */
    this.pending = { zoom: 0, rows: 0, cols: 0 };
    /** A canvas as large as the band, one pixel a value, scaled onto the card's canvas. */
    this.cells = document.createElement('canvas');
    this.applyPalette();
    this.bindInput();
    new ResizeObserver(() => this.draw()).observe(this.canvas);
    new IntersectionObserver(([entry]) => {
      this.visible = entry.isIntersecting;
      if (this.visible) this.handlers.visible();
    }).observe($('matrix-card'));
  }

  /** The colours of style.css (again after the theme changed), and a redraw with them. */
  applyPalette() {
    const colours = readColours(this.canvas.parentElement, {
      negative: '--matrix-negative', zero: '--matrix-zero', positive: '--matrix-positive',
      background: '--card', ink: '--ink', muted: '--muted', line: '--line',
    });
    /** @param {number[]} colour @returns {[number, number, number]} */
    const rgb = (colour) => [colour[0], colour[1], colour[2]];
    this.palette = {
      diverging: { negative: rgb(colours.negative), zero: rgb(colours.zero), positive: rgb(colours.positive) },
      css: Object.fromEntries(Object.entries(colours).map(([name, colour]) => [name, css(/** @type {any} */ (colour))])),
    };
    this.draw();
  }

  // ---- what the person does

  /** `handler(direction, anchor)`: -1 fewer rows and columns (zoom in), +1 more; `anchor` the cell to keep in place, as fractions of the band. */
  bindZoom(handler) {
    this.handlers.zoom = handler;
  }

  /** `handler(rows, cols)`: move the band by whole rows and columns (negative: towards the first). */
  bindMove(handler) {
    this.handlers.move = handler;
  }

  /** `handler()`: back to the first rows and columns (Home, a double click). */
  bindFirst(handler) {
    this.handlers.first = handler;
  }

  /** `handler(word)` when a row's token (its label, or a cell) is clicked. */
  bindSelect(handler) {
    this.handlers.select = handler;
  }

  /** `handler(word)` when the person asks for a word's row (the search field). */
  bindFind(handler) {
    this.handlers.find = handler;
  }

  /** `handler()` when the card comes on screen: a band that waited off screen is due. */
  bindVisible(handler) {
    this.handlers.visible = handler;
  }

  bindInput() {
    $('matrix-find').addEventListener('submit', (event) => {
      event.preventDefault();
      const word = /** @type {HTMLInputElement} */ ($('matrix-word')).value;
      if (word) this.handlers.find(word);
    });
    const half = () => ({ rows: Math.max(1, Math.round((this.band?.rows ?? 2) / 2)), cols: Math.max(1, Math.round((this.band?.cols ?? 2) / 2)) });
    $('matrix-zoom-in').addEventListener('click', () => this.handlers.zoom(-1, { row: 0.5, col: 0.5 }));
    $('matrix-zoom-out').addEventListener('click', () => this.handlers.zoom(1, { row: 0.5, col: 0.5 }));
    $('matrix-up').addEventListener('click', () => this.handlers.move(-half().rows, 0));
    $('matrix-down').addEventListener('click', () => this.handlers.move(half().rows, 0));
    $('matrix-left').addEventListener('click', () => this.handlers.move(0, -half().cols));
    $('matrix-right').addEventListener('click', () => this.handlers.move(0, half().cols));
    const cellSize = () => ({
      width: this.layout && this.band?.cols ? this.layout.width / this.band.cols : 1,
      height: this.layout && this.band?.rows ? this.layout.height / this.band.rows : 1,
    });
    /** Adds a move in (fractional) rows and columns; whole ones go to the handler. */
    const moveBy = (rows, cols) => {
      this.pending.rows += rows;
      this.pending.cols += cols;
      const whole = { rows: Math.trunc(this.pending.rows), cols: Math.trunc(this.pending.cols) };
      if (!whole.rows && !whole.cols) return;
      this.pending.rows -= whole.rows;
      this.pending.cols -= whole.cols;
      this.handlers.move(whole.rows, whole.cols);
    };
    bindMapInput(this.canvas, {
      zoomAt: (x, y, factor) => {
        this.pending.zoom += Math.log(factor);
        if (Math.abs(this.pending.zoom) < ZOOM_STEP) return;
        const direction = this.pending.zoom > 0 ? -1 : 1;
        this.pending.zoom = 0;
        const { layout } = this;
        const anchor = layout
          ? { row: clamp01((y - layout.y0) / layout.height), col: clamp01((x - layout.x0) / layout.width) }
          : { row: 0.5, col: 0.5 };
        this.handlers.zoom(direction, anchor);
      },
      // The content follows the pointer: dragging up brings later rows.
      panBy: (dx, dy) => moveBy(-dy / cellSize().height, -dx / cellSize().width),
      // A key moves a tenth of the band, and at least one row or column.
      panFraction: (fx, fy) => {
        const atLeastOne = (f, n) => (f === 0 ? 0 : -Math.sign(f) * Math.max(1, Math.round(Math.abs(f) * n)));
        this.handlers.move(atLeastOne(fy, this.band?.rows ?? 0), atLeastOne(fx, this.band?.cols ?? 0));
      },
      reset: () => this.handlers.first(),
      hover: (x, y) => this.hover(x, y),
      pick: (x, y) => {
        const at = this.cellAt(x, y);
        if (at) this.handlers.select(this.band.words[at.row]);
      },
      drawRegion: () => {},
      selectRegion: () => {},
      escape: () => this.hover(null),
      regionTool: () => false,
    });
  }

  /** The row (and column, or 'label') at CSS px (x, y) of the canvas, within the band drawn; null elsewhere. */
  cellAt(x, y) {
    return this.band && this.layout ? cellAt(this.layout, this.band, x, y) : null;
  }

  /** The tooltip for the point (x, y), or none (x null). */
  hover(x, y = 0) {
    this.pointer = x == null ? null : { x, y };
    const at = x == null ? null : this.cellAt(x, y);
    if (!at) {
      this.tooltip.hidden = true;
      this.canvas.style.cursor = '';
      return;
    }
    const band = this.band;
    const word = displayToken(band.words[at.row]);
    const rank = integer.format(band.firstRow + at.row + 1);
    const values = at.matrix === 'output' ? band.outputValues : band.values;
    const which = at.matrix === 'output' ? 'output ' : band.outputValues ? 'input ' : '';
    this.tooltip.textContent = at.col === 'label'
      ? `${word} · row ${rank}: click to select it`
      : `${word} (row ${rank}) · ${which}dimension ${integer.format(band.firstCol + at.col + 1)}\n${valueText(values[at.row * band.cols + at.col])}`;
    this.canvas.style.cursor = at.col === 'label' ? 'pointer' : '';
    this.tooltip.hidden = false;
    // Beside the pointer, flipped to its left in the right half, and kept on the card.
    const flip = x > this.canvas.clientWidth / 2;
    const left = flip ? x - 12 - this.tooltip.offsetWidth : x + 12;
    this.tooltip.style.left = `${Math.max(0, Math.min(this.canvas.clientWidth - this.tooltip.offsetWidth, left))}px`;
    this.tooltip.style.top = `${Math.max(0, y - this.tooltip.offsetHeight - 6)}px`;
  }

  // ---- what the card shows

  /**
   * A band of the matrix, drawn, with the matrix's size, the range shown and the legend.
   * @param {MatrixBand} band
   * @param {{zoomIn: boolean, zoomOut: boolean, up: boolean, down: boolean, left: boolean, right: boolean}} ways  the buttons enabled
   */
  showBand(band, ways) {
    this.band = band;
    this.scale = scaleOf(band.values);
    this.outputScale = band.outputValues ? scaleOf(band.outputValues) : null;
    const totals = { totalRows: band.totalRows, dim: band.dim };
    $('matrix-size').textContent = sizeText(totals);
    $('matrix-params').textContent = parametersText(totals, band.output);
    $('matrix-explain').textContent = explanation(totals);
    $('matrix-output').textContent = outputText(band.output);
    $('matrix-find-go').disabled = false;
    $('matrix-range').textContent = rangeText(band, totals);
    const scale = this.scale;
    $('matrix-legend-low').textContent = valueText(-scale);
    $('matrix-legend-high').textContent = valueText(scale);
    $('matrix-extremes').textContent = band.rows && band.cols
      ? `Blue is negative, red positive; ${percent(SCALE_QUANTILE, 0)} of this band's values lie within ±${compactValue(scale)},`
        + ` larger ones take the full colour. Smallest ${valueText(band.min)}, largest ${valueText(band.max)}.`
        + (this.outputScale == null ? '' : ` The output matrix has a scale of its own: ±${compactValue(this.outputScale)}.`)
      : '';
    $('matrix-legend').hidden = false;
    const buttons = { 'matrix-zoom-in': ways.zoomIn, 'matrix-zoom-out': ways.zoomOut, 'matrix-up': ways.up,
      'matrix-down': ways.down, 'matrix-left': ways.left, 'matrix-right': ways.right };
    for (const [id, open] of Object.entries(buttons)) $(id).disabled = !open;
    const shownWords = band.words.slice(0, 3).map(displayToken).join(', ');
    this.canvas.setAttribute('aria-label', `Heatmap of the matrix${band.outputValues ? ' and of the output matrix beside it' : ''}, ${rangeText(band, totals)}`
      + `${shownWords ? ` (tokens ${shownWords}${band.rows > 3 ? ', …' : ''})` : ''}: blue negative, red positive.`
      + ' Arrow keys move, + and − zoom, Home goes back to the first rows.');
    $('matrix-empty').hidden = true;
    this.draw();
    // A fresh band under a resting pointer (training goes on): the tooltip says its value.
    if (this.pointer) this.hover(this.pointer.x, this.pointer.y);
  }

  /** No band: `message` says why (no vectors yet, or what failed). */
  showMessage(message) {
    this.band = null;
    this.hover(null);
    $('matrix-empty').textContent = message;
    $('matrix-empty').hidden = false;
    $('matrix-size').textContent = '';
    $('matrix-params').textContent = '';
    $('matrix-output').textContent = '';
    $('matrix-find-go').disabled = true;
    this.showFindMessage('');
    $('matrix-explain').textContent = 'A token enters a model as a one-hot vector, as wide as the vocabulary; this matrix turns it into one short, dense row of numbers: its embedding.';
    $('matrix-range').textContent = '';
    $('matrix-extremes').textContent = '';
    $('matrix-legend').hidden = true;
    for (const id of ['matrix-zoom-in', 'matrix-zoom-out', 'matrix-up', 'matrix-down', 'matrix-left', 'matrix-right']) $(id).disabled = true;
    this.canvas.setAttribute('aria-label', `Heatmap of the matrix: ${message}`);
    this.draw();
  }

  /** Outlines the selected word's `row` (null: none) wherever the band shows it. @param {number|null} row */
  setSelected(row) {
    this.selectedRow = row;
    this.draw();
  }

  /** Under the search field: why a word has no row (an empty `message` clears it). @param {string} message */
  showFindMessage(message) {
    $('matrix-find-message').textContent = message;
  }

  /**
   * A language model's facts above the heatmap: its file, tensor, shape, parameters, element
   * type, size and tokenizer, and its metadata behind a disclosure; null hides them.
   * @param {ModelInfo|null} info
   */
  showModel(info) {
    $('matrix-model').hidden = info == null;
    $('matrix-metadata').hidden = !info?.metadata?.length;
    if (!info) {
      $('matrix-model').replaceChildren();
      $('matrix-metadata-list').replaceChildren();
      return;
    }
    const kept = info.kept === info.dtype.toLowerCase() ? info.dtype : `${info.dtype}, kept as ${info.kept}`;
    $('matrix-model').replaceChildren(...termsAndValues([
      ['File', info.file],
      ['Format', info.format],
      ['Tensor', info.tensor],
      ['Shape', `${integer.format(info.rows)} × ${integer.format(info.cols)}`],
      ['Parameters', info.share],
      ['Type', kept],
      ['Size', `${formatBytes(info.tensorBytes)} of the file's ${formatBytes(info.fileBytes)}`],
      ['In memory', formatBytes(info.memoryBytes)],
      ['Tokenizer', info.tokenizer ?? 'none: rows are named by token id'],
      ['Special tokens', `${integer.format(info.special)}, kept off the map`],
    ], 'model'));
    $('matrix-metadata-count').textContent = integer.format(info.metadata?.length ?? 0);
    $('matrix-metadata-list').replaceChildren(...termsAndValues((info.metadata ?? []).map(([key, value]) => [key, String(value)]), 'metadata'));
  }

  // ---- drawing

  /** Draws the band (or clears the canvas without one), sized to the canvas's CSS box. */
  draw() {
    const ready = this.palette ? readyCanvas(this.canvas) : null;
    if (!ready) return;
    const { ctx, width, height } = ready;
    const band = this.band;
    this.layout = null;
    if (!band?.rows || !band.cols) return;
    const { css } = this.palette;
    ctx.font = `${LABEL_FONT_PX}px system-ui, sans-serif`;
    ctx.textBaseline = 'middle';
    const labels = band.words.map(displayToken);
    const widest = Math.max(...labels.map((label) => ctx.measureText(label).width));
    const labelWidth = Math.min(Math.round(width * 0.3), Math.max(28, Math.ceil(widest) + 8));
    // With the output matrix: two panes of equal width, their names above the dimensions.
    const output = band.outputValues ?? null;
    const top = HEADER_PX + (output ? TITLE_PX : 0);
    const paneWidth = output ? (width - labelWidth - PANE_GAP_PX) / 2 : width - labelWidth;
    const layout = { x0: labelWidth, y0: top, width: paneWidth, height: height - top, labelWidth, x1: output ? labelWidth + paneWidth + PANE_GAP_PX : null };
    this.layout = layout;
    const cell = { width: layout.width / band.cols, height: layout.height / band.rows };

    this.drawPane(ctx, band.values, this.scale, layout.x0, layout, cell);
    if (output) {
      this.drawPane(ctx, output, this.outputScale, layout.x1, layout, cell);
      ctx.font = `600 ${LABEL_FONT_PX}px system-ui, sans-serif`;
      ctx.textAlign = 'left';
      ctx.fillStyle = css.ink;
      ctx.fillText('Input', layout.x0, TITLE_PX / 2, paneWidth);
      ctx.fillText('Output (context)', layout.x1, TITLE_PX / 2, paneWidth);
    }

    // The tokens beside their rows: every row where they fit, else the middle row of every
    // few (so the first label clears the dimensions' numbers), none past the bottom.
    ctx.font = `${LABEL_FONT_PX}px system-ui, sans-serif`;
    ctx.textAlign = 'right';
    ctx.fillStyle = css.ink;
    // The selected word's label is always written, and the labels too near it are not.
    const selected = this.selectedRow == null ? -1 : this.selectedRow - band.firstRow;
    const shown = selected >= 0 && selected < band.rows;
    const every = Math.ceil(MIN_LABEL_ROW_PX / cell.height);
    for (let r = Math.floor(every / 2); r < band.rows; r += every) {
      const y = layout.y0 + (r + 0.5) * cell.height;
      if (y + LABEL_FONT_PX / 2 > height + 1) break;
      if (shown && r !== selected && Math.abs(r - selected) * cell.height < LABEL_FONT_PX) continue;
      ctx.fillText(labels[r], labelWidth - 4, y, labelWidth - 6);
    }

    // The selected word's row, outlined across the labels and both matrices.
    if (shown) {
      const y = layout.y0 + selected * cell.height;
      const right = (layout.x1 ?? layout.x0) + layout.width;
      ctx.strokeStyle = css.ink;
      ctx.lineWidth = 2;
      ctx.strokeRect(1, y, right - 2, Math.max(2, cell.height));
      if (every > 1) ctx.fillText(labels[selected], labelWidth - 4, y + cell.height / 2, labelWidth - 6);
    }
  }

  /**
   * One matrix's cells from `left`: the values, the lines between large cells, their
   * numbers, and the dimensions above the columns.
   * @param {CanvasRenderingContext2D} ctx @param {Float32Array} values @param {number} scale @param {number} left
   * @param {{y0: number, width: number, height: number}} layout @param {{width: number, height: number}} cell
   */
  drawPane(ctx, values, scale, left, layout, cell) {
    const band = this.band;
    const { css } = this.palette;
    // The values: one pixel each on a canvas as large as the band, scaled up (sharp) or
    // down (smoothed) onto the card's.
    const image = new ImageData(band.cols, band.rows);
    paintValues(values, scale, this.palette.diverging, image.data);
    this.cells.width = band.cols;
    this.cells.height = band.rows;
    this.cells.getContext('2d').putImageData(image, 0, 0);
    ctx.imageSmoothingEnabled = cell.width < 1 || cell.height < 1;
    ctx.drawImage(this.cells, left, layout.y0, layout.width, layout.height);

    // Large cells: a line of the card's colour between them, so the table reads as one.
    if (cell.width >= GAP_CELL_PX && cell.height >= GAP_CELL_PX) {
      ctx.strokeStyle = css.background;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let c = 1; c < band.cols; c += 1) {
        const x = Math.round(left + c * cell.width) + 0.5;
        ctx.moveTo(x, layout.y0);
        ctx.lineTo(x, layout.y0 + layout.height);
      }
      for (let r = 1; r < band.rows; r += 1) {
        const y = Math.round(layout.y0 + r * cell.height) + 0.5;
        ctx.moveTo(left, y);
        ctx.lineTo(left + layout.width, y);
      }
      ctx.stroke();
    }

    // Cells large enough for it show their number, dark or light as their colour needs.
    if (cell.width >= NUMBER_CELL.width && cell.height >= NUMBER_CELL.height) {
      ctx.textAlign = 'center';
      ctx.font = `${Math.min(LABEL_FONT_PX - 1, Math.floor(cell.height * 0.7))}px system-ui, sans-serif`;
      for (let r = 0; r < band.rows; r += 1) {
        for (let c = 0; c < band.cols; c += 1) {
          const value = values[r * band.cols + c];
          ctx.fillStyle = darkTextOn(cellColour(value, scale, this.palette.diverging)) ? '#111' : '#fff';
          ctx.fillText(cellText(value, scale), left + (c + 0.5) * cell.width, layout.y0 + (r + 0.5) * cell.height, cell.width - 2);
        }
      }
    }

    // The dimensions (1-based) above their columns, at a round step that leaves them room.
    ctx.font = `${LABEL_FONT_PX}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.fillStyle = css.muted;
    const headerY = layout.y0 - HEADER_PX / 2;
    const gap = ctx.measureText(integer.format(band.firstCol + band.cols)).width + TICK_SPACE_PX;
    const step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000].find((s) => s * cell.width >= gap) ?? 20000;
    for (let c = 0; c < band.cols; c += 1) {
      const dimension = band.firstCol + c + 1;
      if (dimension % step !== 0 && c !== 0) continue;
      // The first column's number, unless the next round one would overlap it.
      if (c === 0 && dimension % step !== 0 && (step - (dimension % step)) * cell.width < gap) continue;
      // Kept within the pane: the last column's number ends at its edge.
      const text = integer.format(dimension);
      const half = ctx.measureText(text).width / 2;
      const x = Math.min(left + layout.width - half, Math.max(left + half, left + (c + 0.5) * cell.width));
      ctx.fillText(text, x, headerY);
    }
  }
}

/** @param {number} value */
const clamp01 = (value) => Math.min(1, Math.max(0, value));
