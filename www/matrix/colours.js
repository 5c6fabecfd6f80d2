// @ts-check
// The Matrix card's diverging scale: a value's colour runs from the zero colour (neutral:
// near white, or near the card in the dark theme) to the negative colour (blue) or the
// positive one (red), in proportion to its size against the scale, one magnitude for both
// signs (`scaleOf`), so zero is always neutral and the two signs compare fairly. The three
// colours are style.css's --matrix-negative, --matrix-zero and --matrix-positive; the
// legend is a CSS gradient of the same three. No DOM: tests/www/matrix.test.js.

/** @typedef {[number, number, number]} Rgb  0–255 each */
/** @typedef {{negative: Rgb, zero: Rgb, positive: Rgb}} Diverging */

/** The share of a band's values whose colours tell their size apart; the largest others take the full colour. */
export const SCALE_QUANTILE = 0.99;
/** Histogram bins of `scaleOf`: the scale is found to within 1/SCALE_BINS of the largest magnitude. */
const SCALE_BINS = 2048;

/**
 * The scale of a band: the colours run over [−scale, scale]. It is the magnitude that
 * `quantile` of the values do not exceed (rounded up to a histogram bin), so a few outliers,
 * which the embedding matrices of language models have in some dimensions, do not wash the
 * rest out; the larger values take the full colour. 1 for a band of zeros (all neutral).
 * A histogram over the largest magnitude rather than a sort: one pass, whatever the band.
 * @param {Float32Array} values @param {number} [quantile]
 */
export function scaleOf(values, quantile = SCALE_QUANTILE) {
  let largest = 0;
  for (const v of values) largest = Math.max(largest, Math.abs(v));
  if (!(largest > 0) || !Number.isFinite(largest)) return 1;
  const counts = new Uint32Array(SCALE_BINS);
  for (const v of values) counts[Math.min(SCALE_BINS - 1, Math.floor((Math.abs(v) / largest) * SCALE_BINS))] += 1;
  const wanted = Math.ceil(quantile * values.length);
  let seen = 0;
  for (let bin = 0; bin < SCALE_BINS; bin += 1) {
    seen += counts[bin];
    if (seen >= wanted) return ((bin + 1) / SCALE_BINS) * largest;
  }
  return largest;
}

/**
 * The colour of `value` on a scale of ±`scale`: zero's colour mixed with the sign's colour
 * by |value| / scale (beyond the scale, the sign's colour itself).
 * @param {number} value @param {number} scale @param {Diverging} palette @returns {Rgb}
 */
export function cellColour(value, scale, palette) {
  const t = Math.min(1, Math.abs(value) / scale) || 0;
  const end = value < 0 ? palette.negative : palette.positive;
  const zero = palette.zero;
  return [
    Math.round(zero[0] + (end[0] - zero[0]) * t),
    Math.round(zero[1] + (end[1] - zero[1]) * t),
    Math.round(zero[2] + (end[2] - zero[2]) * t),
  ];
}

/** Steps of each sign's colours in `paintValues`' table: finer than a colour channel can show. */
const TABLE_STEPS = 256;

/**
 * Fills `rgba` (4 bytes a value, an ImageData's layout) with the colours of `values`: those
 * of `cellColour`, through a table of TABLE_STEPS for each sign, so a band of a million
 * values is painted in a few milliseconds.
 * @param {Float32Array} values @param {number} scale @param {Diverging} palette
 * @param {Uint8ClampedArray} rgba
 */
export function paintValues(values, scale, palette, rgba) {
  const table = new Uint8Array(3 * (2 * TABLE_STEPS + 1));
  for (let k = -TABLE_STEPS; k <= TABLE_STEPS; k += 1) table.set(cellColour((k / TABLE_STEPS) * scale, scale, palette), 3 * (k + TABLE_STEPS));
  const steps = TABLE_STEPS / scale;
  for (let i = 0; i < values.length; i += 1) {
    // NaN (never in vectors the core accepts) is neutral, as in cellColour.
    const k = Math.max(-TABLE_STEPS, Math.min(TABLE_STEPS, Math.round(values[i] * steps))) || 0;
    const j = 3 * (k + TABLE_STEPS);
    rgba[4 * i] = table[j];
    rgba[4 * i + 1] = table[j + 1];
    rgba[4 * i + 2] = table[j + 2];
    rgba[4 * i + 3] = 255;
  }
}

/**
 * Whether text on `colour` reads best dark (true) or light: by its relative luminance
 * (WCAG's weights on linearised sRGB), dark text above the luminance where both contrast
 * ratios are equal.
 * @param {Rgb} colour
 */
export function darkTextOn(colour) {
  const linear = colour.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
  // (L + 0.05) / 0.05 = 1.05 / (L + 0.05) at L ≈ 0.179.
  return luminance > 0.179;
}
