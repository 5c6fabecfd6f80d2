// @ts-check
// A sequence kept within a bound, evenly: the rule the loss chart's series
// (training/loss-series.js) and the timeline's frames (timeline/frames.js) follow, and the
// core's neighbour history too (src/map/timeline.rs, `EvenlyThinned`); tests/shared/even-thinning.json
// holds cases both languages are tested on.

/**
 * Items in the order they come, thinned evenly: every `stride`-th item is kept; when
 * `capacity` are kept, every other one is dropped (the first stays) and `stride` doubles, so
 * those kept are equally spaced in arrival order, between `capacity / 2` and `capacity` of
 * them. The newest item is held besides when it was not kept, so the sequence reaches the
 * present.
 * @template T
 */
export class EvenThinning {
  /** @param {number} capacity  an even number, at least 2 @param {string} what  what is held, for the error */
  constructor(capacity, what = 'an evenly thinned sequence') {
    if (!(capacity >= 2) || capacity % 2 !== 0) throw new Error(`${what} holds an even number of items, at least 2, not ${capacity}`);
    this.capacity = capacity;
    this.clear();
  }

  clear() {
    /** @type {T[]} */
    this.kept = [];
    /** @type {T|null} the newest item when the thinning did not keep it */
    this.newest = null;
    this.stride = 1;
    this.received = 0;
  }

  /** Adds `item`: kept, or held as the newest until the next. @param {T} item @returns {unknown} */
  push(item) {
    const keep = this.received % this.stride === 0;
    this.received += 1;
    if (!keep) {
      this.newest = item;
      return;
    }
    this.newest = null;
    // The first stays; the capacity is even, so this item is a multiple of the doubled stride too.
    if (this.kept.length === this.capacity) this.halve();
    this.kept.push(item);
  }

  /** Drops every other item kept (the first stays) and doubles the stride, so those kept stay equally spaced. */
  halve() {
    this.kept = this.kept.filter((_, i) => i % 2 === 0);
    this.stride *= 2;
  }

  /** Items held, the newest included. */
  get length() {
    return this.kept.length + (this.newest !== null ? 1 : 0);
  }

  /** @param {number} i @returns {T} */
  at(i) {
    return i < this.kept.length ? this.kept[i] : this.newest;
  }

  /** The last item held. */
  last() {
    return this.length ? this.at(this.length - 1) : null;
  }

  /** Every item held, oldest first. */
  all() {
    return this.newest !== null ? [...this.kept, this.newest] : this.kept.slice();
  }
}
