// The map's Find: which of the words shown a search matches, over up to a million words at
// every keystroke. Plain JS, tested in tests/www/search.test.js.

/**
 * The words of a list in lower case (`lower`), and joined into one string, each followed by
 * SEPARATOR, with where each begins in it (`starts`, one more than the words: the end): made
 * once a list. A search scans the joined string with `indexOf`, which costs little more than
 * its matches, where testing each of 250,000 words costs several milliseconds a keystroke.
 * @type {WeakMap<string[], {lower: string[], joined: string, starts: Uint32Array}>}
 */
const lowerCased = new WeakMap();
const SEPARATOR = '\u0000';

/**
 * Makes the lower case and joined string of `words` a search scans, unless made already.
 * At 250,000 words this takes about 20 ms: the map asks for it when the page is idle after
 * showing a new list, so the first keystroke of a search does not wait for it.
 * @param {string[]} words
 */
export function prepareSearch(words) {
  lowerCase(words);
}

/** @param {string[]} words */
function lowerCase(words) {
  let kept = lowerCased.get(words);
  if (!kept) {
    const lower = words.map((word) => word.toLocaleLowerCase());
    const starts = new Uint32Array(lower.length + 1);
    let at = 0;
    lower.forEach((word, i) => {
      starts[i] = at;
      at += word.length + SEPARATOR.length;
    });
    starts[lower.length] = at;
    // Joined with an empty last word, so it ends in SEPARATOR as one flat string: `joined +
    // SEPARATOR` would be a pair that the first indexOf copies into one (about 2 ms at
    // 250,000 words, which the first keystroke would pay).
    lower.push('');
    const joined = lower.join(SEPARATOR);
    lower.pop();
    kept = { lower, joined, starts };
    lowerCased.set(words, kept);
  }
  return kept;
}

/**
 * Calls `found(i)` for each index of `words` a search matches, in order: a case-insensitive
 * substring, or a regular expression (JavaScript syntax, case-insensitive). Throws a
 * SyntaxError for a bad expression.
 * @param {string[]} words @param {string} query @param {boolean} regex @param {(i: number) => void} found
 */
export function eachMatch(words, query, regex, found) {
  if (regex) {
    const pattern = new RegExp(query, 'iu');
    for (let i = 0; i < words.length; i += 1) if (pattern.test(words[i])) found(i);
    return;
  }
  const needle = query.toLocaleLowerCase();
  const { lower, joined, starts } = lowerCase(words);
  if (needle.includes(SEPARATOR)) {
    // Only a word can hold it: the joined string would also match across two words.
    for (let i = 0; i < lower.length; i += 1) if (lower[i].includes(needle)) found(i);
    return;
  }
  // A match lies within one word (the needle holds no separator); the words are walked in
  // step with the matches, and the scan goes on from the next word once one matched.
  let i = 0;
  for (let at = joined.indexOf(needle); at >= 0; at = joined.indexOf(needle, starts[i + 1])) {
    while (starts[i + 1] <= at) i += 1;
    found(i);
  }
}
