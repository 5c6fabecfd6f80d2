// @ts-check
// The charts' colours come from the stylesheet's custom properties (style.css), so a theme
// is CSS's business: `readPalette` turns them into the `[r, g, b, alpha]` lists that
// `Chart.set_palette` takes. Class colours come in two runs: categorical ones for k-means
// clusters, then a gradient from the most frequent words to the rarest.

/** Categorical colours (`--map-class-0` …), for clusters. */
export const CATEGORIES = 10;
/** Steps of the frequency gradient, from `--map-frequent` to `--map-rare`. */
export const FREQUENCY_STEPS = 8;
/** The style (an index into the palette's classes) of the first frequency step. */
export const FREQUENCY_BASE = CATEGORIES;
/** The style of a search match or selected word when colouring by them. */
export const MATCH = CATEGORIES + FREQUENCY_STEPS;
/**
 * Styles the chart knows without a class: src/plot/scene.rs's `PLAIN` and `DIMMED`
 * (tests/www/shared-constants.test.js).
 */
export const PLAIN = 255;
export const DIMMED = 254;

/** A computed CSS colour (`rgb(…)` or `rgba(…)`) as `[r, g, b, alpha]`. */
function parseColour(text) {
  const numbers = text.match(/[\d.]+/g)?.map(Number) ?? [];
  if (numbers.length < 3) return [0, 0, 0, 1];
  const [r, g, b, a = 1] = numbers;
  return [r, g, b, a];
}

const mix = (a, b, t) => a.map((v, i) => v + (b[i] - v) * t);

/**
 * `read(colour)`, where `colour(name)` is the custom property `name` of `element`'s computed
 * style as `[r, g, b, alpha]`. A hidden probe element resolves each as a `color`, so any CSS
 * colour syntax works and comes back as `rgb()`.
 * @template T @param {HTMLElement} element @param {(colour: (name: string) => number[]) => T} read @returns {T}
 */
function withProbe(element, read) {
  const probe = document.createElement('span');
  probe.hidden = true;
  element.append(probe);
  try {
    return read((name) => {
      probe.style.color = `var(${name})`;
      return parseColour(getComputedStyle(probe).color);
    });
  } finally {
    probe.remove();
  }
}

/**
 * The colours `names` gives (`{key: '--custom-property'}`) of `element`'s computed style,
 * as `[r, g, b, alpha]` under the same keys (the Matrix card's, say).
 * @param {HTMLElement} element @param {Record<string, string>} names @returns {Record<string, number[]>}
 */
export function readColours(element, names) {
  return withProbe(element, (colour) => Object.fromEntries(Object.entries(names).map(([key, name]) => [key, colour(name)])));
}

/** The palette of `element`'s computed style (see `withProbe`). @param {HTMLElement} element */
export function readPalette(element) {
  return withProbe(element, (colour) => {
    const frequent = colour('--map-frequent');
    const rare = colour('--map-rare');
    const palette = {
      background: colour('--map-background'),
      axis: colour('--map-axis'),
      grid: colour('--map-grid'),
      text: colour('--map-text'),
      point: colour('--map-point'),
      labelledPoint: colour('--map-labelled-point'),
      accent: colour('--map-accent'),
      arrow: colour('--map-arrow'),
      dimmed: colour('--map-dimmed'),
      trail: colour('--map-trail'),
      classes: [
        ...Array.from({ length: CATEGORIES }, (_, i) => colour(`--map-class-${i}`)),
        ...Array.from({ length: FREQUENCY_STEPS }, (_, i) => mix(frequent, rare, i / (FREQUENCY_STEPS - 1))),
        colour('--map-match'),
      ],
    };
    return palette;
  });
}

/** A palette colour as CSS, for the legend's swatches. */
export const css = ([r, g, b, a]) => `rgba(${r}, ${g}, ${b}, ${a})`;
