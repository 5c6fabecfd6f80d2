// @ts-check
// The map's camera: the data range the plotting area shows. Input handlers change it
// (zoom about a point, pan, reset), new frames ask it to follow their points, and drawing
// reads it at the moment it draws, so a move can ease over a few frames of the display.
//
// Positions on screen come in as fractions of the plotting area (0 at its left or top
// edge, 1 at its right or bottom), so the camera needs to know nothing of pixels or of
// the canvas. Data y grows upwards, screen y downwards.

/** The space around the points when the camera fits them, as a fraction of their span. */
export const MARGIN = 0.05;
/** How long an eased move takes. */
export const EASE_MS = 400;
/** A cloud of points this much smaller than the view (on both axes) is fitted again. */
const SHRUNK = 1 / 3;
/** How far in and out a person may zoom, relative to the fitted range. */
const MAX_ZOOM_IN = 1e4;
const MAX_ZOOM_OUT = 20;

/**
 * A data range: `x0 < x1`, `y0 < y1`, all finite.
 * @typedef {{x0: number, x1: number, y0: number, y1: number}} Range
 */

/** `[min, max]` of one axis widened by the margin; a single value gets a span of 1. */
function fitAxis(min, max) {
  if (!(min <= max)) return [0, 1];
  const span = max - min;
  if (span <= Number.EPSILON * Math.max(Math.abs(min), Math.abs(max), 1)) return [min - 0.5, max + 0.5];
  return [min - MARGIN * span, max + MARGIN * span];
}

/** The bounding box of flat `[x0, y0, x1, y1, …]` coordinates (non-finite ones skipped). */
export function bounds(coords) {
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (let i = 0; i + 1 < coords.length; i += 2) {
    const x = coords[i];
    const y = coords[i + 1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return { x0, x1, y0, y1 };
}

/**
 * An axis whose points spread less than this fraction of the other axis's spread is flat: its
 * differences are rounding (two isolated words' PC2 is float noise, about 1e-8) or too small to
 * see, and stretched over the plot they drew two words in opposite corners over ticks all "0".
 * src/plot/geometry.rs (`fit_range`), which fits a map drawn without the camera, follows the same
 * rule: both are tested on the cases of tests/shared/flat-axis.json.
 */
export const FLAT = 1e-4;

/**
 * The range that shows `box` (a bounding box) with the margin around it. A flat axis (FLAT)
 * gets the other axis's span, centred on its points: they lie on a line across the middle.
 */
export function fit(box) {
  let { x0, x1, y0, y1 } = box;
  const centred = (lo, hi, span) => [(lo + hi) / 2 - span / 2, (lo + hi) / 2 + span / 2];
  // An empty box has spans of −Infinity, and neither comparison holds.
  if (y1 - y0 < FLAT * (x1 - x0)) [y0, y1] = centred(y0, y1, x1 - x0);
  else if (x1 - x0 < FLAT * (y1 - y0)) [x0, x1] = centred(x0, x1, y1 - y0);
  [x0, x1] = fitAxis(x0, x1);
  [y0, y1] = fitAxis(y0, y1);
  return { x0, x1, y0, y1 };
}

/** Whether every point of `box` lies in `range`. An empty box lies anywhere. */
export function contains(range, box) {
  if (!(box.x0 <= box.x1)) return true;
  return box.x0 >= range.x0 && box.x1 <= range.x1 && box.y0 >= range.y0 && box.y1 <= range.y1;
}

const easeOut = (t) => 1 - (1 - t) ** 3;
const lerp = (a, b, t) => a + (b - a) * t;

export class Camera {
  constructor() {
    /** @type {Range|null} where the camera is, or is easing to */
    this.target = null;
    /** @type {Range|null} where an eased move started */
    this.origin = null;
    this.started = 0;
    /** The range that fits the points: what reset returns to, and the zoom limits' unit. */
    this.home = null;
    /** Whether the person moved the camera: it then stays where they put it. */
    this.moved = false;
  }

  /** The range shown at time `now` (milliseconds, as from `performance.now()`). */
  at(now) {
    if (!this.target || !this.origin) return this.target;
    const t = Math.min(1, (now - this.started) / EASE_MS);
    if (t >= 1) {
      this.origin = null;
      return this.target;
    }
    const e = easeOut(t);
    const [a, b] = [this.origin, this.target];
    return { x0: lerp(a.x0, b.x0, e), x1: lerp(a.x1, b.x1, e), y0: lerp(a.y0, b.y0, e), y1: lerp(a.y1, b.y1, e) };
  }

  /** Whether a move is still under way at `now` (drawing goes on until it ends). */
  easing(now) {
    return this.origin != null && now - this.started < EASE_MS;
  }

  /**
   * A new frame's points, as their bounding box. Until the person moves the camera it
   * follows them, but only when it must: the first frame is fitted at once; later the view
   * stays still while the points move inside it, and eases to a new fit when a point
   * leaves it or the cloud has shrunk to a small part of it. Returns whether it moved.
   */
  follow(box, now) {
    this.home = fit(box);
    if (this.moved) return false;
    if (!this.target) {
      this.target = this.home;
      return true;
    }
    const view = this.target;
    const shrunk = box.x1 - box.x0 < SHRUNK * (view.x1 - view.x0) && box.y1 - box.y0 < SHRUNK * (view.y1 - view.y0);
    if (contains(view, box) && !shrunk) return false;
    this.easeTo(this.home, now);
    return true;
  }

  /** Back to following the points, eased to their fit. */
  reset(now) {
    this.moved = false;
    if (this.home) this.easeTo(this.home, now);
  }

  /** Forgets everything: the next frame is fitted at once (a new text or vectors). */
  clear() {
    this.target = null;
    this.origin = null;
    this.home = null;
    this.moved = false;
  }

  /**
   * Zooms by `factor` (> 1 zooms in) about the point at fractions (`fx`, `fy`) of the
   * plotting area, which stays under the pointer. Ends any eased move.
   */
  zoomAt(fx, fy, factor, now) {
    const view = this.at(now);
    if (!view || !(factor > 0)) return;
    const home = this.home ?? view;
    const span = (v) => v.x1 - v.x0;
    // Keep the zoom within limits relative to the fitted range.
    const wanted = span(view) / factor;
    const limited = Math.min(Math.max(wanted, span(home) / MAX_ZOOM_IN), span(home) * MAX_ZOOM_OUT);
    const f = span(view) / limited;
    const x = lerp(view.x0, view.x1, fx);
    const y = lerp(view.y1, view.y0, fy);
    this.place({
      x0: x - (x - view.x0) / f,
      x1: x + (view.x1 - x) / f,
      y0: y - (y - view.y0) / f,
      y1: y + (view.y1 - y) / f,
    });
  }

  /** Moves the view by (`dfx`, `dfy`) fractions of the plotting area: the content follows a drag. */
  pan(dfx, dfy, now) {
    const view = this.at(now);
    if (!view) return;
    const dx = -dfx * (view.x1 - view.x0);
    const dy = dfy * (view.y1 - view.y0);
    this.place({ x0: view.x0 + dx, x1: view.x1 + dx, y0: view.y0 + dy, y1: view.y1 + dy });
  }

  /** Puts the camera on `range` at once, as the person's choice (a zoom, a pan, a link). */
  place(range) {
    const valid = [range.x0, range.x1, range.y0, range.y1].every(Number.isFinite) && range.x0 < range.x1 && range.y0 < range.y1;
    if (!valid) return;
    this.target = range;
    this.origin = null;
    this.moved = true;
  }

  easeTo(range, now) {
    this.origin = this.at(now) ?? range;
    this.target = range;
    this.started = now;
  }
}
