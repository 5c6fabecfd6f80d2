// @ts-check
// The Sampling card's plain parts: what it says of a word's sampling, and the geometry of
// the Zipf chart (the vocabulary's frequency, keep and noise probabilities against rank,
// both axes on log scales). The numbers come from the worker (src/train/sampling.rs); this
// only words and places them. No DOM: tests/www/sampling.test.js.
import { integer } from '../shared/format.js';

/** @typedef {import('../protocol.js').WordSampling} WordSampling */
/** @typedef {import('../protocol.js').Zipf} Zipf */

/** The three curves of the chart, in drawing order (index.html's legend names them). */
export const CURVES = Object.freeze([{ key: 'frequency' }, { key: 'noise' }, { key: 'keep' }]);

/**
 * A probability as a percentage with about three significant digits ("43.2 %", "5.00 %",
 * "0.0512 %"), plain decimals however small.
 * @param {number} p
 */
export function probabilityText(p) {
  if (p >= 0.9995) return '100 %';
  const percent = p * 100;
  const digits = percent >= 10 ? 1 : Math.min(8, Math.max(1, 2 - Math.floor(Math.log10(percent))));
  return `${percent.toFixed(digits)} %`;
}

/**
 * The facts of a word's sampling, as term and value pairs for the card's list: its count
 * and share, its keep probability with the threshold that decides it, and its noise
 * probability against its frequency.
 * @param {WordSampling} s
 * @returns {[string, string][]}
 */
export function samplingFacts(s) {
  const ratio = s.noise / s.frequency;
  const against = ratio >= 1 ? `${ratio.toPrecision(2)} times its frequency` : `${(1 / ratio).toPrecision(2)} times less than its frequency`;
  return [
    ['Count', `${integer.format(s.count)} (${probabilityText(s.frequency)} of the tokens, rank ${integer.format(s.rank + 1)})`],
    ['Kept', s.sample > 0
      ? `${probabilityText(s.keep)} of its tokens: subsampling keeps a token with probability (√(f/t) + 1) · t/f, f its frequency, t = ${s.sample}`
      : '100 % of its tokens: subsampling is off (sample 0)'],
    ['Noise', `${probabilityText(s.noise)} of noise draws: count^${s.nsExponent}, normalised; ${against}`],
  ];
}

/** Powers of ten from the one at or below `lo` to the one at or above `hi` (both > 0). @param {number} lo @param {number} hi */
export function decades(lo, hi) {
  const out = [];
  // 10 ** -4 is 0.00009999999999999999; 1 / 10 ** 4 is 0.0001.
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e += 1) out.push(e < 0 ? 1 / 10 ** -e : 10 ** e);
  return out;
}

/** "10⁻³", "1", "10", "10⁴": a power of ten as an axis says it. @param {number} power */
export function decadeText(power) {
  const e = Math.round(Math.log10(power));
  if (e === 0) return '1';
  if (e === 1) return '10';
  const superscript = String(e).replace('-', '⁻').replace(/\d/g, (d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[Number(d)]);
  return `10${superscript}`;
}

/**
 * Where the chart's points go in a box of CSS px (`left`, `top`, `width`, `height`): x is
 * log(rank), from rank 1 to the vocabulary's size; y is log(probability), from the decade
 * below the smallest positive value of any curve to 1. Returns the mappings and the axes'
 * decades.
 * @param {Zipf} zipf @param {{left: number, top: number, width: number, height: number}} box
 */
export function chartScales(zipf, box) {
  const xMax = Math.max(2, zipf.vocabSize);
  let yMin = 1;
  for (const { key } of CURVES) for (const p of zipf[key]) if (p > 0 && p < yMin) yMin = p;
  const [yLo] = decades(yMin, 1);
  const lx = Math.log(xMax);
  const ly = -Math.log(yLo);
  return {
    /** @param {number} rank 1-based */
    x: (rank) => box.left + (Math.log(rank) / lx) * box.width,
    /** @param {number} p a probability, > 0 */
    y: (p) => box.top + (Math.log(p) / -ly) * box.height,
    xDecades: decades(1, xMax).filter((d) => d <= xMax),
    yDecades: decades(yLo, 1),
  };
}
