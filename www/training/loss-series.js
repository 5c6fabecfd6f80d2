// @ts-check
// The within-epoch loss as the loss chart draws it: a series that never holds more than a
// fixed number of points, so storing it and redrawing it (about 20 times a second while
// training) costs the same after a thousand epochs as after one.
import { EvenThinning } from '../shared/even-thinning.js';

/** The most points the series keeps: enough for a smooth line across the chart's width. */
export const LOSS_POINTS = 512;

/**
 * Points `[x, loss, positive, negative]` in the order they come, thinned evenly
 * (shared/even-thinning.js): the series keeps every `stride`-th point it is given, and when
 * it is full it drops every other point it holds and doubles `stride`. The points kept are
 * then always those whose arrival index is a multiple of `stride`, equally spaced in arrival
 * order, between `LOSS_POINTS / 2` and `LOSS_POINTS` of them. The newest point is drawn too,
 * kept or not, so the line reaches the present. `positive` and `negative` are the loss's two
 * terms (the text's pairs, the noise words), kept with the total so the three thin alike.
 */
export class LossSeries {
  /** @param {number} capacity  an even number of points, at least 2 */
  constructor(capacity = LOSS_POINTS) {
    /** @type {EvenThinning<[number, number, number, number]>} */
    this.series = new EvenThinning(capacity, 'a loss series');
  }

  /**
   * Adds the loss `loss` at `x` (a fractional epoch), with its two terms when known.
   * @param {number} x @param {number} loss @param {number} [positive] @param {number} [negative]
   */
  push(x, loss, positive = Number.NaN, negative = Number.NaN) {
    this.series.push([x, loss, positive, negative]);
  }

  /** The points to draw, flat `[x0, loss0, x1, loss1, …]`. */
  points() {
    const held = this.series.all();
    const flat = new Float64Array(2 * held.length);
    held.forEach(([x, loss], i) => {
      flat[2 * i] = x;
      flat[2 * i + 1] = loss;
    });
    return flat;
  }

  /** The terms of the points that have them, flat `[x0, positive0, negative0, …]`. */
  termPoints() {
    const held = this.series.all().filter(([, , positive, negative]) => Number.isFinite(positive) && Number.isFinite(negative));
    const flat = new Float64Array(3 * held.length);
    held.forEach(([x, , positive, negative], i) => {
      flat.set([x, positive, negative], 3 * i);
    });
    return flat;
  }
}
