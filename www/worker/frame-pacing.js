// @ts-check
// When the training worker makes a map frame between two chunks: at each epoch's end (the
// timeline keeps one frame an epoch, which a person replaying the training looks for) and
// every PROJECTION_INTERVAL_MS within a long epoch, while frames take about a fifth of the
// worker's time at most whatever they cost (at 2000 dimensions and 10,000 words a PCA frame
// takes seconds in wasm). Plain arithmetic on times the worker passes in: no clock, no wasm.
import { PROJECTION_INTERVAL_MS } from '../protocol.js';

/**
 * Training time a frame's cost buys: frames take at most 1 / (FRAME_SPACING + 1) of the
 * worker's time, a fifth.
 */
export const FRAME_SPACING = 4;

/**
 * The rule compares times with times, never with a fixed number of milliseconds, so a
 * loaded machine, which slows training and frames alike, keeps the same frames:
 *
 * - An epoch's end gets its frame while the frames made since the accounts started took at
 *   most a quarter of the training time (a fifth of the two together). The account is kept
 *   over the run rather than per epoch, so one frame slowed by the machine (a few ms that
 *   become tens when the worker is descheduled) is paid for by the epochs around it, and an
 *   epoch that ends just after another frame keeps its own. Checked before the frame, so the
 *   share may go over by that one frame.
 * - Within an epoch, a frame waits PROJECTION_INTERVAL_MS and at least FRAME_SPACING times the
 *   last frame's cost since that frame.
 * - The last frame, when training is done, is always due.
 *
 * A frame the page asks for (a new view) is not paced, and starts the accounts again: the
 * new view's frames cost differently, and time saved under the old view is not spent on it.
 */
export class FramePacer {
  constructor() {
    /** When the last frame ended (ms, the worker's clock). */
    this.lastFrameAt = 0;
    /** What the last frame cost (ms). */
    this.lastCostMs = 0;
    /** Training time since the accounts started (ms). */
    this.trainedMs = 0;
    /** Time the paced frames took since the accounts started (ms). */
    this.framesMs = 0;
  }

  /** A training chunk took `ms`. @param {number} ms */
  trained(ms) {
    this.trainedMs += ms;
  }

  /** A paced frame ended at `at` and cost `costMs`. @param {number} at @param {number} costMs */
  framed(at, costMs) {
    this.lastFrameAt = at;
    this.lastCostMs = costMs;
    this.framesMs += costMs;
  }

  /** A frame the page asked for ended at `at` and cost `costMs`. @param {number} at @param {number} costMs */
  requested(at, costMs) {
    this.lastFrameAt = at;
    this.lastCostMs = costMs;
    this.trainedMs = 0;
    this.framesMs = 0;
  }

  /**
   * Whether a frame is due after a chunk that brought training to `progress`, at `now`.
   * @param {{done: boolean, epochTokensDone: number, epochTokens: number}} progress @param {number} now
   */
  due(progress, now) {
    if (progress.done) return true;
    const epochEnd = progress.epochTokensDone === progress.epochTokens;
    if (epochEnd && FRAME_SPACING * this.framesMs <= this.trainedMs) return true;
    const since = now - this.lastFrameAt;
    if (since < FRAME_SPACING * this.lastCostMs) return false;
    return epochEnd || since > PROJECTION_INTERVAL_MS;
  }
}
