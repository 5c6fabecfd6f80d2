// Unit tests of the map's Find (www/map/search.js): scanning the words joined into one string
// must match exactly the words a test of each word matches, in order, whatever the words hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachMatch, prepareSearch } from '../../www/map/search.js';

/** The indices `eachMatch` reports. */
const matches = (words, query, regex = false) => {
  const found = [];
  eachMatch(words, query, regex, (i) => found.push(i));
  return found;
};

/** The indices a test of each word in turn matches: what the scan must equal. */
const eachWord = (words, query) => {
  const needle = query.toLocaleLowerCase();
  return words.flatMap((word, i) => (word.toLocaleLowerCase().includes(needle) ? [i] : []));
};

test('a search matches each word holding it once, in order, case aside', () => {
  const words = ['the', 'Theatre', 'other', 'thethe', 'a', '', 'ĠThe', 'tHe', 'at'];
  assert.deepEqual(matches(words, 'the'), [0, 1, 2, 3, 6, 7]);
  assert.deepEqual(matches(words, 'THE'), [0, 1, 2, 3, 6, 7]);
  assert.deepEqual(matches(words, 'a'), [1, 4, 8]);
  assert.deepEqual(matches(words, 'zz'), []);
});

test('a match never spans two words, and a word that is the whole needle is found at either end', () => {
  assert.deepEqual(matches(['ab', 'cd'], 'bc'), []);
  assert.deepEqual(matches(['ab', 'cd', 'bc'], 'bc'), [2]);
  assert.deepEqual(matches(['x', 'y', 'x'], 'x'), [0, 2]);
  assert.deepEqual(matches(['x'], 'x'), [0]);
});

test('words holding the separator, or a needle holding it, match as each word would', () => {
  const words = ['a\u0000b', 'a', 'b', '\u0000', 'ab'];
  assert.deepEqual(matches(words, 'a\u0000b'), [0]);
  assert.deepEqual(matches(words, '\u0000'), [0, 3]);
  assert.deepEqual(matches(words, 'b'), [0, 2, 4]);
});

test('words whose lower case is longer or shorter than they are (İ, ẞ) are found where they are', () => {
  const words = ['İstanbul', 'x', 'STRAẞE', 'ﬁne', 'y'];
  for (const query of ['x', 'y', 'stan', 'straße', 'ﬁ', 'i̇']) assert.deepEqual(matches(words, query), eachWord(words, query), query);
});

test('random words and needles: the scan equals a test of each word', () => {
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const letters = ['a', 'b', 'A', 'é', 'É', '\u0000', ' ', 'ß'];
  const word = (max) => Array.from({ length: Math.floor(random() * max) }, () => letters[Math.floor(random() * letters.length)]).join('');
  for (let round = 0; round < 200; round += 1) {
    const words = Array.from({ length: 1 + Math.floor(random() * 30) }, () => word(6));
    const query = word(3) || 'a';
    assert.deepEqual(matches(words, query), eachWord(words, query), JSON.stringify({ words, query }));
  }
});

test('a regular expression is tested on each word, case-insensitively; a bad one throws', () => {
  assert.deepEqual(matches(['King', 'queen', 'kingdom'], '^king$', true), [0]);
  assert.throws(() => matches(['a'], '(', true), SyntaxError);
});

test('the same list keeps its joined string: a second search of another list is not confused by the first', () => {
  const first = ['alpha', 'beta'];
  const second = ['gamma', 'alpha'];
  assert.deepEqual(matches(first, 'alpha'), [0]);
  assert.deepEqual(matches(second, 'alpha'), [1]);
  assert.deepEqual(matches(first, 'beta'), [1]);
});

test('a list readied by prepareSearch is not lower-cased again by its first search', () => {
  const words = Array.from({ length: 1000 }, (_, i) => `Word${i}`);
  prepareSearch(words);
  const lowerCase = String.prototype.toLocaleLowerCase;
  let calls = 0;
  String.prototype.toLocaleLowerCase = function counted(...args) {
    calls += 1;
    return lowerCase.apply(this, args);
  };
  try {
    assert.deepEqual(matches(words, 'WORD99'), [99, 990, 991, 992, 993, 994, 995, 996, 997, 998, 999]);
  } finally {
    String.prototype.toLocaleLowerCase = lowerCase;
  }
  assert.equal(calls, 1, 'only the query is lower-cased');
});
