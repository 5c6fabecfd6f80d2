// @ts-check
// The map's density layer: where the points crowd, shaded over the dots with contour lines.
// The worker estimates it (src/plot/density.rs, through `density_grid`) off the main
// thread, on a grid over the view and half a view beyond each edge, so a pan shows it at
// once; the Chart works out its contour levels and draws it. A new frame or a view that
// settles asks for it again, one request at a time: a change meanwhile asks once more when
// the answer comes.

/** A grid cell, in CSS pixels of the view: fine enough for smooth lines. */
export const CELL_PX = 5;
/** The kernel's standard deviation, in grid cells, for 10,000 points (12.5 CSS pixels). */
export const BANDWIDTH = 2.5;

/**
 * The kernel's width in grid cells for `n` points: `BANDWIDTH` scaled by n^(−1/6) as Scott's
 * rule scales it, so a few hundred words read as a few regions (not a ring round each word)
 * and 250,000 as finer ones; from 2 to 6 cells.
 */
export function bandwidthFor(n) {
  return Math.min(6, Math.max(2, BANDWIDTH * (Math.max(n, 1) / 10_000) ** (-1 / 6)));
}
/** How far the grid reaches beyond each edge of the view, as a share of the view. */
export const REACH = 0.5;
/** How long the view must rest before the layer is estimated for it again. */
export const SETTLE_MS = 150;
/** The most nodes a side: src/plot/density.rs's `MAX_GRID` (tests/www/shared-constants.test.js). */
export const MAX_GRID = 1024;

/**
 * What the worker is asked: the points and the grid over them.
 * @typedef {{coords: Float32Array, columns: number, rows: number, range: number[], bandwidth: number}} DensityAsk
 */

export class DensityLayer {
  /**
   * @param {import('./map-view.js').MapView} map draws it
   * @param {(ask: DensityAsk) => Promise<Float32Array|null>} estimate asks the worker
   */
  constructor(map, estimate) {
    this.map = map;
    this.estimate = estimate;
    this.on = false;
    /** The points shown, flat [x0, y0, …], or null. */
    this.coords = null;
    /** What the layer drawn was estimated for (its points, view and size), or null. */
    this.drawnFor = null;
    /** What the last request that failed asked for: it is not asked again. */
    this.failedFor = null;
    this.busy = false;
    this.timer = 0;
    /** How many layers were drawn (tests wait on it). */
    this.drawn = 0;
  }

  /** Turns the layer on or off. */
  setOn(on) {
    this.on = on;
    if (!on) {
      clearTimeout(this.timer);
      this.drawnFor = null;
      this.map.setDensity(null);
      return;
    }
    this.ask();
  }

  /** The points shown changed (a new frame), or null for none. */
  setPoints(coords) {
    if (coords === this.coords) return;
    this.coords = coords;
    if (this.on) this.ask();
  }

  /** The view moved: the layer is estimated again once it rests. */
  viewMoved() {
    if (!this.on) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.ask(), SETTLE_MS);
  }

  /** The request for the points and view as they are now, or null when there is nothing to show. */
  wanted() {
    const view = this.map.densityView();
    if (!this.coords || !view) return null;
    const { range, width, height } = view;
    const spanX = range.x1 - range.x0;
    const spanY = range.y1 - range.y0;
    const side = (pixels) => Math.max(2, Math.min(MAX_GRID, Math.round((pixels * (1 + 2 * REACH)) / CELL_PX) + 1));
    return {
      coords: this.coords,
      columns: side(width),
      rows: side(height),
      range: [range.x0 - REACH * spanX, range.x1 + REACH * spanX, range.y0 - REACH * spanY, range.y1 + REACH * spanY],
      bandwidth: bandwidthFor(this.coords.length / 2),
    };
  }

  /** Asks the worker for the layer now, unless a request is out (its answer asks again). */
  async ask() {
    if (this.busy || !this.on) return;
    const ask = this.wanted();
    if (!ask) {
      // Points not yet drawn: once they are, the plotting area sizes the grid.
      if (this.coords) this.viewMoved();
      return;
    }
    const key = [ask.columns, ask.rows, ...ask.range].join(',');
    const same = (asked) => asked != null && asked.coords === ask.coords && asked.key === key;
    if (same(this.drawnFor) || same(this.failedFor)) return;
    this.busy = true;
    let values = null;
    try {
      values = await this.estimate(ask);
    } finally {
      this.busy = false;
    }
    if (!this.on) return;
    if (values) {
      this.map.setDensity({ values, columns: ask.columns, rows: ask.rows, range: ask.range });
      this.drawnFor = { coords: ask.coords, key };
      this.drawn += 1;
    } else {
      // The worker is gone or refused (it says why in its own place): not again for this view.
      this.failedFor = { coords: ask.coords, key };
    }
    // Whatever changed while it was out.
    this.ask();
  }
}
