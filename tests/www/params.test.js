// The form's checks of the Threads field, the model's own options and the learning rate a
// model change takes (www/params.js), without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, alphaForModel, checkParams } from '../../www/params.js';

const form = (fields) => Object.fromEntries(Object.entries({ ...DEFAULTS, ...fields }).map(([k, v]) => [k, typeof v === 'boolean' ? v : String(v)]));

test('Threads: 1 to the threads the worker offers, whole numbers only', () => {
  const cases = [
    // [threads typed, the worker's maximum, the field's message or null when valid]
    ['1', 8, null],
    ['8', 8, null],
    ['2', 2, null],
    ['3', 2, "from 1 to 2: this machine's cores, at most 8"],
    ['9', 8, "from 1 to 8: this machine's cores, at most 8"],
    ['0', 8, "from 1 to 8: this machine's cores, at most 8"],
    ['1.5', 8, 'enter a whole number'],
    ['', 8, 'enter a number'],
  ];
  for (const [threads, maxThreads, message] of cases) {
    const { params, errors } = checkParams(form({ threads }), { maxThreads });
    assert.equal(errors.threads ?? null, message, `threads ${JSON.stringify(threads)} of ${maxThreads}`);
    if (message == null) assert.equal(params.threads, Number(threads));
  }
});

test('Threads on a page that trains on one thread says why', () => {
  const { errors } = checkParams(form({ threads: '2' }), { maxThreads: 1, whyOneThread: 'this page is not cross-origin isolated' });
  assert.equal(errors.threads, '1 only: this page is not cross-origin isolated');
});

test('the model choice becomes the cbow flag', () => {
  assert.equal(checkParams(form({ model: 'cbow' })).params.cbow, true);
  assert.equal(checkParams(form({ model: 'skipgram' })).params.cbow, false);
});

test('shared noise: off by default, on when checked, always off for CBOW', () => {
  assert.equal(DEFAULTS.sharedNoise, false);
  assert.equal(checkParams(form({})).params.sharedNoise, false);
  assert.equal(checkParams(form({ sharedNoise: true })).params.sharedNoise, true);
  assert.equal(checkParams(form({ model: 'cbow', sharedNoise: true })).params.sharedNoise, false);
  // A form without the box (an older page's raw values) leaves it off.
  const { sharedNoise: _, ...withoutBox } = form({});
  assert.equal(checkParams(withoutBox).params.sharedNoise, false);
});

test("a model change takes the new model's default learning rate, unless the person set another", () => {
  assert.equal(alphaForModel('0.025', 'skipgram', 'cbow'), '0.05');
  assert.equal(alphaForModel('0.05', 'cbow', 'skipgram'), '0.025');
  assert.equal(alphaForModel(' 0.025 ', 'skipgram', 'cbow'), '0.05');
  assert.equal(alphaForModel('0.01', 'skipgram', 'cbow'), '0.01');
  assert.equal(alphaForModel('0.01', 'cbow', 'skipgram'), '0.01');
  assert.equal(alphaForModel('0.025', 'skipgram', 'skipgram'), '0.025');
});

test('whole-number fields take plain decimal integers only; decimal fields take decimals', () => {
  const cases = [
    // [field, text typed, the field's message or null when valid]
    ['threads', '2', null],
    ['threads', ' 2 ', null],
    ['threads', '0x2', 'enter a whole number'],
    ['threads', '+2', 'enter a whole number'],
    ['threads', '2e0', 'enter a whole number'],
    ['threads', '2.0', 'enter a whole number'],
    ['threads', '1.5', 'enter a whole number'],
    ['epochs', '0x3', 'enter a whole number'],
    ['epochs', '3', null],
    ['minCount', '1e3', 'enter a whole number'],
    ['seed', '007', null],
    // A negative whole number is one: the range says what is wrong with it.
    ['window', '-1', 'from 1 to 100'],
    ['dim', 'abc', 'enter a number'],
    ['alpha', '0.05', null],
    ['alpha', '.05', null],
    ['alpha', '1e-3', null],
    ['alpha', '5E-2', null],
    ['alpha', '0x1', 'enter a number'],
    ['alpha', 'Infinity', 'enter a number'],
    ['sample', '1e-5', null],
    ['sample', '0', null],
  ];
  for (const [name, text, message] of cases) {
    const { params, errors } = checkParams(form({ [name]: text }), { maxThreads: 8 });
    assert.equal(errors[name] ?? null, message, `${name} ${JSON.stringify(text)}`);
    if (message == null) assert.equal(params[name], Number(text), `${name} ${JSON.stringify(text)}`);
  }
});

test('Threads out of range on a one-thread page says "1 only", below as above', () => {
  const why = 'this page is not cross-origin isolated';
  for (const threads of ['0', '2', '9']) {
    const { errors } = checkParams(form({ threads }), { maxThreads: 1, whyOneThread: why });
    assert.equal(errors.threads, `1 only: ${why}`, `threads ${threads}`);
  }
  assert.equal(checkParams(form({ threads: '0' }), { maxThreads: 1 }).errors.threads, '1 only');
  assert.equal(checkParams(form({ threads: '1' }), { maxThreads: 1, whyOneThread: why }).errors.threads, undefined);
});
