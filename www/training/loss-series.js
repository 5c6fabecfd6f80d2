// @ts-check
// The within-epoch loss as the loss chart draws it: a series that never holds more than a
// fixed number of points, so storing it and redrawing it (about 20 times a second while
// training) costs the same after a thousand epochs as after one.

/** The most points the series keeps: enough for a smooth line across the chart's width. */
export const LOSS_POINTS = 512;

/**
 * Points `[x, loss]` in the order they come, thinned evenly: the series keeps every
 * `stride`-th point it is given, and when it is full it drops every other point it holds
 * and doubles `stride`. The points kept are then always those whose arrival index is a
 * multiple of `stride`, equally spaced in arrival order, between `LOSS_POINTS / 2` and
 * `LOSS_POINTS` of them. The newest point is drawn too, kept or not, so the line reaches
 * the present.
 */
export class LossSeries {
  /** @param {number} capacity  an even number of points, at least 2 */
  constructor(capacity = LOSS_POINTS) {
    if (capacity < 2 || capacity % 2 !== 0) throw new Error(`a loss series holds an even number of points, at least 2, not ${capacity}`);
    this.capacity = capacity;
    // One slot more than the capacity, for the newest point when it is not kept.
    this.values = new Float64Array(2 * (capacity + 1));
    this.kept = 0;
    this.stride = 1;
    this.received = 0;
    this.newestKept = true;
  }

  /** Adds the loss `loss` at `x` (a fractional epoch). */
  push(x, loss) {
    const keep = this.received % this.stride === 0;
    this.received += 1;
    // The capacity is even, so a point that arrives when the series is full is a multiple
    // of the doubled stride too, and is kept.
    if (keep && this.kept === this.capacity) this.halve();
    this.values[2 * this.kept] = x;
    this.values[2 * this.kept + 1] = loss;
    if (keep) this.kept += 1;
    this.newestKept = keep;
  }

  /** Keeps every other point (the first stays) and doubles the stride. */
  halve() {
    for (let i = 1; i < this.capacity / 2; i++) {
      this.values[2 * i] = this.values[4 * i];
      this.values[2 * i + 1] = this.values[4 * i + 1];
    }
    this.kept = this.capacity / 2;
    this.stride *= 2;
  }

  /** The points to draw, flat `[x0, loss0, x1, loss1, …]`: a view, valid until the next `push`. */
  points() {
    return this.values.subarray(0, 2 * (this.kept + (this.newestKept ? 0 : 1)));
  }
}
