// @ts-check
// The frames of a run's map as the timeline keeps them: every frame the page receives,
// within a fixed number, thinned evenly when a run is long, so a thousand epochs take no
// more memory than a few. Plain JavaScript (no DOM), unit-tested in tests/www/.
import { sameWords } from '../map/glide.js';
import { EvenThinning } from '../shared/even-thinning.js';

/**
 * The most frames kept. A frame holds two 4-byte floats per word shown (its word list is
 * shared with the frames before it that show the same words), so the cap bounds the
 * timeline at FRAME_CAP × words × 8 bytes: 2 MB at 1,000 words, 20 MB at 10,000.
 */
export const FRAME_CAP = 256;

/**
 * The most bytes of coordinates kept: a map of many words keeps fewer frames, thinned
 * evenly the same way, so 250,000 words keep 32 frames (2 MB each), not 256 (512 MB).
 */
export const FRAME_BYTES = 64 * 1024 * 1024;

/**
 * One kept frame: the worker's frame (`Projection` in protocol.js: words, coords, axis
 * labels, method, …) with the moment of training it shows and how it was made.
 * @typedef {object} TimelineFrame
 * @property {string[]} words  shared by consecutive frames of the same words
 * @property {Float32Array} coords
 * @property {number} epoch  the epoch in progress, from 1 (0 for opened vectors)
 * @property {number} epochs
 * @property {number} tokensDone
 * @property {number} tokensTotal
 * @property {[string, string]} axisLabels
 * @property {number} [model]  the worker's model the frame is of (none for a bundle's frames)
 * @property {import('../protocol.js').TimelineMapSpec} mapSpec  the projection's method and parameters
 * @property {string} [key]  what makes two frames the same map (method, map spec, words)
 * @property {number} [segment]  frames of one run of the same map share it: a trail joins only them
 */

/**
 * Frames in the order they come, thinned evenly (shared/even-thinning.js): every
 * `stride`-th frame is kept; when `capacity` are kept, every other one is dropped and
 * `stride` doubles, so those kept are equally spaced in arrival order. The newest frame is
 * always held besides, kept or not, so the timeline reaches the present.
 * @extends {EvenThinning<TimelineFrame>}
 */
export class FrameStore extends EvenThinning {
  /**
   * @param {number} capacity  an even number of frames, at least 2
   * @param {number} byteBudget  the coordinates' bytes beyond which fewer frames are kept (at least 2)
   */
  constructor(capacity = FRAME_CAP, byteBudget = FRAME_BYTES) {
    super(capacity, 'a frame store');
    this.byteBudget = byteBudget;
  }

  clear() {
    super.clear();
    /** Bumped by every change, so a reader can tell its indices went stale. */
    this.version = 0;
  }

  /**
   * Adds a frame; its `words` become the previous frame's array when they are the same
   * words, so frames of one word list hold it once. Returns the frame as stored.
   * @param {TimelineFrame} frame
   */
  push(frame) {
    const previous = this.last();
    const stored = previous && previous.words !== frame.words && sameWords(previous.words, frame.words)
      ? { ...frame, words: previous.words }
      : frame;
    super.push(stored);
    this.fitBudget();
    this.version += 1;
    return stored;
  }

  /** Many words: fewer frames. The newest frame, when halving drops it, is held as the newest. */
  fitBudget() {
    while (this.kept.length > 2 && this.coordinateBytes() > this.byteBudget) {
      const last = this.kept.at(-1);
      this.halve();
      if (this.newest === null && this.kept.at(-1) !== last) this.newest = last;
    }
  }

  /** Puts `frame` in the place of the last one (the same moment, drawn again). */
  replaceLast(frame) {
    if (!this.length) return this.push(frame);
    const previous = this.last();
    const stored = sameWords(previous.words, frame.words) ? { ...frame, words: previous.words } : frame;
    if (this.newest) this.newest = stored;
    else this.kept[this.kept.length - 1] = stored;
    this.version += 1;
    return stored;
  }

  /**
   * Replaces the frames with `frames` (a bundle's, which holds at most `capacity` + 1: the
   * kept ones and the newest). More than that keeps the first `capacity` and the last.
   */
  load(frames) {
    this.clear();
    this.kept = frames.slice(0, this.capacity);
    this.newest = frames.length > this.capacity ? frames[frames.length - 1] : null;
    this.received = frames.length;
    this.fitBudget();
    this.version += 1;
  }

  /** The bytes the coordinates take (what the cap bounds), for the page's note. */
  coordinateBytes() {
    return this.all().reduce((sum, f) => sum + f.coords.byteLength, 0);
  }
}
