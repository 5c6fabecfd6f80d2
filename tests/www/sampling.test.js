// Unit tests of the Sampling card's plain module (www/sampling/zipf.js): what it says of a
// word's sampling and where the Zipf chart puts its points. Known answers worked out by
// hand; node:test without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartScales, decadeText, decades, probabilityText, samplingFacts } from '../../www/sampling/zipf.js';

test('a probability is a percentage with about three significant digits', () => {
  assert.equal(probabilityText(0.432), '43.2 %');
  assert.equal(probabilityText(0.05), '5.00 %');
  assert.equal(probabilityText(0.000512), '0.0512 %');
  assert.equal(probabilityText(1), '100 %');
  assert.equal(probabilityText(0.99951), '100 %');
});

test('a word\'s facts: its count and share, the keep formula with its threshold, the noise against its frequency', () => {
  const word = { word: 'the', rank: 0, count: 6000, frequency: 0.06, keep: 0.2291, noise: 0.03, window: 5, sample: 0.001, nsExponent: 0.75, partners: [] };
  assert.deepEqual(samplingFacts(word), [
    ['Count', '6,000 (6.00 % of the tokens, rank 1)'],
    ['Kept', '22.9 % of its tokens: subsampling keeps a token with probability (√(f/t) + 1) · t/f, f its frequency, t = 0.001'],
    ['Noise', '3.00 % of noise draws: count^0.75, normalised; 2.0 times less than its frequency'],
  ]);
  const rare = { ...word, rank: 999, count: 3, frequency: 0.00003, keep: 1, noise: 0.0001, sample: 0 };
  const facts = Object.fromEntries(samplingFacts(rare));
  assert.equal(facts.Kept, '100 % of its tokens: subsampling is off (sample 0)');
  assert.equal(facts.Noise, '0.0100 % of noise draws: count^0.75, normalised; 3.3 times its frequency');
});

test('the axes run over whole decades, written as powers of ten', () => {
  assert.deepEqual(decades(0.0004, 1), [0.0001, 0.001, 0.01, 0.1, 1]);
  assert.deepEqual(decades(1, 8378), [1, 10, 100, 1000, 10000]);
  assert.deepEqual([1e-5, 0.1, 1, 10, 10000].map(decadeText), ['10⁻⁵', '10⁻¹', '1', '10', '10⁴']);
});

test('the chart puts rank 1 and probability 1 at the top left, the last rank and the lowest decade at the edges', () => {
  const zipf = {
    ranks: [0, 9, 99], counts: [500, 50, 5], frequency: [0.5, 0.05, 0.005], keep: [0.1, 0.6, 1], noise: [0.3, 0.0004, 0],
    vocabSize: 100, sample: 0.001, nsExponent: 0.75,
  };
  const box = { left: 40, top: 10, width: 200, height: 100 };
  const scale = chartScales(zipf, box);
  assert.equal(scale.x(1), 40);
  assert.equal(scale.x(100), 240);
  assert.ok(Math.abs(scale.x(10) - 140) < 1e-9, 'rank 10: half way on a log scale to 100');
  // The smallest positive value is 0.0004 (a noise of 0 is off the log scale): from 10⁻⁴ to 1.
  assert.deepEqual(scale.yDecades, [0.0001, 0.001, 0.01, 0.1, 1]);
  assert.equal(scale.y(1), 10);
  assert.ok(Math.abs(scale.y(0.0001) - 110) < 1e-9);
  assert.ok(Math.abs(scale.y(0.01) - 60) < 1e-9);
  assert.deepEqual(scale.xDecades, [1, 10, 100]);
});
