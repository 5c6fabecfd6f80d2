// @ts-check
// How a token is shown and typed. BPE tokens may hold spaces, tabs and line breaks
// ("from the dead", "Jesus.\n"), which a label, a list or an input would lose or blur, so
// everything that shows a token shows it through `displayToken`, and everything a person
// types is read back through `parseTypedToken`. The page documents the mapping next to the
// search box (index.html).

/**
 * Each whitespace character a token may hold and the visible sign that stands for it, the
 * signs word processors show for formatting marks. They come from Latin-1 and the basic
 * arrows, which every system's interface font has, so neither the page nor the map's
 * canvas ever draws them as a missing-glyph box (docs/design.md says why these).
 * @type {[string, string][]}
 */
export const WHITESPACE_SIGNS = [
  [' ', '·'],
  ['\n', '¶'],
  ['\t', '→'],
  ['\r', '←'],
];

const toSign = new Map(WHITESPACE_SIGNS);
const fromSign = new Map(WHITESPACE_SIGNS.map(([character, sign]) => [sign, character]));
const ANY_SIGN = new RegExp(`[${WHITESPACE_SIGNS.map(([, sign]) => sign).join('')}]`, 'g');

/**
 * Characters that change how the text around them is drawn (bidirectional overrides,
 * embeddings, isolates and marks, the zero-width joiners) or draw nothing at all. A token
 * holding one could reverse or hide the text next to it ("\u202Eexe.txt" shows as "txt.exe"),
 * so they are shown as a visible code, ⟨U+202E⟩, never applied.
 */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const INVISIBLE_CODE = /⟨U\+([0-9A-F]{4})⟩/g;

/**
 * The token as the page shows it: a space as ·, a newline as ¶, a tab as →, \r as ←, and a
 * character that would reorder or hide text as its code (⟨U+202E⟩). "from the dead" →
 * "from·the·dead", "Jesus.\n" → "Jesus.¶". A word without these is shown unchanged.
 * @param {string} token
 */
export function displayToken(token) {
  return revealInvisible(token.replace(/[ \n\t\r]/g, (character) => toSign.get(character)));
}

/** `text` with each character that would reorder or hide text shown as its code, ⟨U+202E⟩. */
export function revealInvisible(text) {
  return text.replace(INVISIBLE, (character) => `⟨U+${character.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/**
 * The token a person means by `text`, typed or picked from the completions: whitespace at
 * the ends is dropped (a stray space in a search box), then each sign becomes its
 * character. So "from the dead" and "from·the·dead" both mean "from the dead", "Jesus.¶"
 * means "Jesus.\n", and "the·" keeps its trailing space. A text holding a sign as itself
 * (a middle dot in a word) cannot be typed; it can still be clicked in a list or the plot.
 *
 * With `keepEnds`, whitespace typed at the ends is kept too (a language model's token
 * " king" is typed with its space), unless it is all the text holds; the caller then asks
 * for the token as typed first and, when no token has that spelling, for it trimmed.
 * @param {string} text @param {{keepEnds?: boolean}} [options]
 */
export function parseTypedToken(text, { keepEnds = false } = {}) {
  return (keepEnds && text.trim() !== '' ? text : text.trim())
    .replace(ANY_SIGN, (sign) => fromSign.get(sign))
    .replace(INVISIBLE_CODE, (code, hex) => {
      const character = String.fromCodePoint(parseInt(hex, 16));
      return character.match(INVISIBLE) ? character : code;
    });
}

/** A concordance line longer than this is cut to a window around the token's first occurrence. */
const LINE_WINDOW = 200;

/**
 * A concordance line in pieces, with each occurrence of `token` marked. The line comes
 * without its line break, so a token ending in one matches only at the line's end and its
 * mark ends in ¶. A long line is cut to a window around the first occurrence, with … where
 * it is cut, before anything is marked: a line of a 50 MB text without line breaks holds a
 * token millions of times, and a piece for each would overflow the stack of the `append`
 * that shows them.
 * @param {string} line @param {string} token
 * @returns {{text: string, marked: boolean}[]}
 */
export function markToken(line, token) {
  const core = token.replace(/[\r\n]+$/, '');
  const endsLine = core !== token;
  const first = endsLine ? (line.endsWith(core) ? line.length - core.length : -1) : core ? line.indexOf(core) : -1;
  let [from, to] = [0, line.length];
  if (line.length > LINE_WINDOW) {
    const at = Math.max(0, first);
    from = Math.max(0, at - LINE_WINDOW / 4);
    to = Math.min(line.length, Math.max(at + core.length, from + LINE_WINDOW));
  }
  const shown = line.slice(from, to);
  const starts = [];
  if (endsLine) {
    if (first >= 0 && to === line.length) starts.push(first - from);
  } else if (core) {
    for (let at = shown.indexOf(core); at >= 0; at = shown.indexOf(core, at + core.length)) starts.push(at);
  }
  const pieces = from > 0 ? [{ text: '…', marked: false }] : [];
  let done = 0;
  for (const at of starts) {
    if (at > done) pieces.push({ text: shown.slice(done, at), marked: false });
    pieces.push({ text: endsLine ? `${core}${toSign.get('\n')}` : core, marked: true });
    done = at + core.length;
  }
  if (done < shown.length) pieces.push({ text: shown.slice(done), marked: false });
  if (to < line.length) pieces.push({ text: '…', marked: false });
  return pieces;
}
