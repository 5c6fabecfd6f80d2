// @ts-check
// Points glide from one frame to the next: the worker sends a frame a few times a second,
// and the display, at its own frame rate, shows positions interpolated between the last
// shown and the new ones for GLIDE_MS. Points are matched by word, so a word keeps its
// path when the set of words changes (a word that is new appears where it belongs).

/** How long points take to move to a new frame's positions. */
export const GLIDE_MS = 300;

const easeOut = (t) => 1 - (1 - t) ** 3;

export class Glide {
  constructor() {
    /** @type {string[]} the words of the target frame */
    this.words = [];
    this.from = new Float32Array(0);
    this.to = new Float32Array(0);
    this.started = -Infinity;
    /** The positions last returned by `at`, reused so a redraw allocates nothing. */
    this.shown = new Float32Array(0);
  }

  /**
   * New positions `coords` (flat x, y) for `words`, starting at `now` from where each word
   * is shown; `instant` jumps there (the first frame, a change of projection).
   */
  set(words, coords, now, { instant = false } = {}) {
    const current = this.at(now);
    const from = new Float32Array(coords.length);
    if (!instant && sameWords(words, this.words)) {
      from.set(current);
    } else {
      const previous = new Map(this.words.map((word, i) => [word, i]));
      for (let i = 0; i < words.length; i += 1) {
        const j = instant ? undefined : previous.get(words[i]);
        from[2 * i] = j == null ? coords[2 * i] : current[2 * j];
        from[2 * i + 1] = j == null ? coords[2 * i + 1] : current[2 * j + 1];
      }
    }
    this.words = words;
    this.from = from;
    this.to = Float32Array.from(coords);
    this.started = now;
    this.shown = new Float32Array(coords.length);
  }

  /** Whether points are still moving at `now`. */
  moving(now) {
    return now - this.started < GLIDE_MS;
  }

  /** The positions at `now`. The array is reused by the next call: copy it to keep it. */
  at(now) {
    const t = Math.min(1, Math.max(0, (now - this.started) / GLIDE_MS));
    if (t >= 1) return this.to;
    const e = easeOut(t);
    const { from, to, shown } = this;
    for (let i = 0; i < to.length; i += 1) shown[i] = from[i] + (to[i] - from[i]) * e;
    return shown;
  }
}

/** Whether two word lists are the same, word for word. */
export function sameWords(a, b) {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}
