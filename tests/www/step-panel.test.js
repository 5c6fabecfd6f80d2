// The step panel's words: what predicts what for a skip-gram pair and a CBOW window, and the
// rows moved, a word moved twice said once with its count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { caption, prediction, quoted } from '../../www/training/step-panel.js';

const update = (cbow, inputWords) => ({ cbow, inputWords, outputWords: ['king', 'of', 'the'] });

test('a word moved more than once is named once, with its count', () => {
  assert.equal(quoted(['a', 'b', 'a', 'c', 'a']), '“a” ×3, “b”, “c”');
  assert.equal(quoted(['king']), '“king”');
});

test('skip-gram: one context word predicts the centre; CBOW: the mean of the window', () => {
  assert.equal(
    prediction(update(false, ['queen'])),
    'the context word “queen” predicts the centre word “king”, against 2 noise words.',
  );
  assert.equal(
    prediction(update(true, ['the', 'queen', 'the'])),
    'the mean of the 3 context words “the” ×2, “queen” (CBOW) predicts the centre word “king”, against 2 noise words.',
  );
  assert.equal(
    prediction(update(true, ['queen'])),
    'the context word “queen” (CBOW) predicts the centre word “king”, against 2 noise words.',
  );
  assert.match(caption(update(true, ['a', 'b'])), /σ\(h·v\) of the context words' mean h/);
  assert.match(caption(update(false, ['a'])), /σ\(u·v\).*pair's loss/);
});
