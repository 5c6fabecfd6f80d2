// Unit tests of how a card words a failed request (www/shared/failure.js) that need no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureParts } from '../../www/shared/failure.js';

/** The parts as one line, each suggestion in brackets with the word it replaces. */
const shown = (parts) => parts.map(({ text, replaces }) => (replaces == null ? text : `[${text} for ${replaces}]`)).join('');

test('failureParts makes a sentence of a message, with its suggested spellings where the worker gave them', () => {
  const france = [
    { text: "'France' is not in the vocabulary. Did you mean ", replaces: null },
    { text: 'france', replaces: 'France' },
    { text: '?', replaces: null },
  ];
  const cases = [
    [{ message: 'no text loaded' }, '', 'No text loaded.'],
    [{ message: "'yeti' is not in the vocabulary", parts: [{ text: "'yeti' is not in the vocabulary", replaces: null }] }, '', "'yeti' is not in the vocabulary."],
    [{ message: 'ignored when there are parts', parts: france }, '', "'France' is not in the vocabulary. Did you mean [france for France]?"],
    [{ message: "'x' is not in the vocabulary", parts: null }, 'Back to principal components: ', "Back to principal components: 'x' is not in the vocabulary."],
    [{ message: 'done.' }, '', 'Done.'],
  ];
  for (const [error, before, expected] of cases) assert.equal(shown(failureParts(error, before)), expected);
});
