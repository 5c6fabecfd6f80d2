// The step panel's words: what predicts what for a skip-gram pair and a CBOW window, and the
// rows moved, a word moved twice said once with its count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { caption, prediction, quoted, score } from '../../www/training/step-panel.js';

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

test('a score is never shown as 0 or 1 when it is neither: more places where three would round it', () => {
  assert.equal(score(0.5), '0.500');
  assert.equal(score(0.0123), '0.012');
  assert.equal(score(0.0004), '0.00040');
  assert.equal(score(3.1e-9), '3.1e-9');
  assert.equal(score(0), '0.000');
  assert.equal(score(0.9996), '0.99960');
  assert.equal(score(0.99999712), '0.9999971');
  assert.equal(score(1), '1.000');
  for (const value of [1e-12, 0.0004999, 0.9995, 0.999999999]) {
    const shown = Number(score(value));
    assert.ok(shown > 0 && shown < 1, `${value} shown as ${score(value)}`);
  }
});
