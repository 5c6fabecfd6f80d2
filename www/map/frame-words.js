// @ts-check
// The page's end of the frames' word lists. The worker sends a word list's words with the
// first frame that shows it (`words` beside `wordsId`) and only its number with the frames
// after it, so a frame of 20,000 words costs the worker a copy of its coordinates rather
// than 20,000 strings. Every frame goes through `attach` in the order the worker posted
// them, before anything may drop it (a frame of a model that gave way still names the list).
// Plain JavaScript (no DOM), unit-tested in tests/www/.

/** @typedef {import('../protocol.js').ProjectionMessage} ProjectionMessage */
/** @typedef {import('../protocol.js').Frame} Frame */

export class FrameWords {
  constructor() {
    /** The number of the last list received (0: none yet). */
    this.id = 0;
    /** @type {string[]|null} its words; frames of the list share this one array */
    this.words = null;
    /** How many frames carried their words (the browser tests compare it with the frames). */
    this.received = 0;
  }

  /**
   * `message` with its words: the ones it carries, which become the list the next frames
   * may name, or those of the list it names. Null for a frame of a list never received (a
   * worker that broke the protocol): it cannot be drawn. The frames of one list share one
   * array, so the timeline and the glide tell them apart from frames of other words at once.
   *
   * The numbers are the worker's, and need not be forgotten when it restarts: a fresh worker
   * has sent no list, so its first frame carries its words.
   * @param {ProjectionMessage} message
   * @returns {Frame|null}
   */
  attach(message) {
    if (message.words) {
      this.received += 1;
      this.id = message.wordsId;
      this.words = message.words;
      return /** @type {Frame} */ (message);
    }
    if (message.wordsId !== this.id || !this.words) return null;
    return /** @type {Frame} */ ({ ...message, words: this.words });
  }
}
