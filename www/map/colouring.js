// @ts-check
// How the map's points are coloured: each point's style (a colour class of palette.js, plain
// or dimmed), the classes of a frequency or cluster colouring, and the legend that says
// what the colours mean.
import { CATEGORIES, DIMMED, FREQUENCY_BASE, FREQUENCY_STEPS, MATCH, PLAIN } from './palette.js';
import { plural } from './map-texts.js';

/**
 * Each of `n` points' style: its colour class (`coloured`, from `ColourClasses`, for the
 * colouring `kind`), dimmed when a search's `matches` leave it out and it is not `chosen`.
 */
export function pointStyles(n, matches, chosen, kind, coloured) {
  /** The style of point i when nothing dims it. */
  const own = (i) => (coloured && i < coloured.length ? coloured[i] : kind === 'search' ? MATCH : PLAIN);
  if (matches) {
    // Every point dimmed, then the matches and the selected words in their own style (words
    // placed beyond the frame's list, neighbours laid on the map, never match), by index:
    // a search matches a part of the words, and a walk over 250,000 costs a millisecond.
    const styles = new Uint8Array(n).fill(DIMMED);
    for (const i of matches.indices) styles[i] = own(i);
    chosen.forEach((i) => { styles[i] = own(i); });
    return styles;
  }
  const styles = new Uint8Array(n).fill(PLAIN);
  if (coloured) styles.set(coloured);
  else if (kind === 'search') chosen.forEach((i) => { styles[i] = MATCH; });
  return styles;
}

/** The colour classes of a frame's words, kept for the same frame and colouring. */
export class ColourClasses {
  constructor() {
    /** @type {{kind: string, source: any, classes: Uint8Array}|null} */
    this.kept = null;
  }

  /**
   * The colour class of each of `frame`'s words when coloured by frequency or clusters, else
   * null: kept for the same frame's words and colouring, since every redraw asks (a log a
   * word is a few milliseconds at 250,000).
   */
  of(frame, kind) {
    const nFrame = frame.words.length;
    const source = kind === 'frequency' ? nFrame : kind === 'clusters' ? frame.clusters : null;
    if (source == null) return null;
    const kept = this.kept;
    if (kept?.kind === kind && kept.source === source) return kept.classes;
    const classes = new Uint8Array(nFrame);
    if (kind === 'frequency') {
      // Frequency rank is the word's index (ids are in frequency order); a log scale, since
      // counts fall off as a power law.
      const top = Math.log(nFrame + 1);
      for (let i = 0; i < nFrame; i += 1) {
        classes[i] = FREQUENCY_BASE + Math.min(FREQUENCY_STEPS - 1, Math.floor((FREQUENCY_STEPS * Math.log(i + 1)) / top));
      }
    } else {
      for (let i = 0; i < nFrame; i += 1) classes[i] = source[i] % CATEGORIES;
    }
    this.kept = { kind, source, classes };
    return classes;
  }
}

/**
 * What the legend shows for the colouring `kind` (`clusters` the k asked for):
 * `{kind, entries: [{style, text}]}`.
 */
export function colourLegend(frame, styles, kind, clusters) {
  if (kind === 'frequency') return { kind, entries: [{ style: FREQUENCY_BASE, text: 'most frequent' }, { style: FREQUENCY_BASE + FREQUENCY_STEPS - 1, text: `rarest of the ${frame.words.length}` }] };
  if (kind === 'clusters') {
    // The worker caps k at the words shown (one cluster a word), and clusters none of one word.
    const shown = frame.words.length;
    if (!frame.clusters) return { kind, entries: [], note: shown < 2 ? 'Clusters need at least two words shown.' : 'Clusters are computed with the next frame…' };
    const counts = new Map();
    for (const c of frame.clusters) counts.set(c, (counts.get(c) ?? 0) + 1);
    const entries = [...counts.keys()].sort((p, q) => p - q).map((c) => ({ style: c % CATEGORIES, text: `cluster ${c + 1}: ${plural(counts.get(c), 'word')}` }));
    const capped = clusters > shown ? `k = ${clusters} is capped at the ${shown} words shown.` : undefined;
    return { kind, entries, note: capped };
  }
  if (kind === 'search') {
    let count = 0;
    for (const s of styles) if (s === MATCH) count += 1;
    return { kind, entries: [{ style: MATCH, text: `found or selected: ${count}` }, { style: PLAIN, text: 'other words' }] };
  }
  return { kind, entries: [] };
}
