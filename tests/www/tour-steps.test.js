// Unit tests of the guided tour's steps (www/tour/steps.js); tests/browser/tour.test.js walks
// them on the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STEPS } from '../../www/tour/steps.js';

test('the first step, on Train, says how to reach the built-in sample when a file is open', () => {
  // The tour follows the built-in sample; taken with vectors opened from a file, Train is off
  // and the step must not leave the person pressing it.
  assert.equal(STEPS[0].target, 'train');
  assert.match(STEPS[0].text, /"Use the built-in sample"/);
});

test('every step has an element, a title and a text', () => {
  for (const step of STEPS) {
    assert.ok(step.target && step.title && step.text, JSON.stringify(step));
  }
});
