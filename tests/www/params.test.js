// The form's checks of its fields against the core's table (param-spec.json), the Threads
// field, the model's own options and the learning rate a model change takes
// (www/training/params.js), without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import spec from '../../www/training/param-spec.json' with { type: 'json' };
import { DEFAULTS, KJV_PRESET, NUMBER_FIELDS, SAMPLE_PRESET, alphaForModel, checkParams, presetAlphas, presetValues } from '../../www/training/params.js';

const form = (fields) => Object.fromEntries(Object.entries({ ...DEFAULTS, ...fields }).map(([k, v]) => [k, typeof v === 'boolean' ? v : String(v)]));

test("each field's range is the core's, narrowed only where the page says so", () => {
  // [field, the page's min, its max] where they differ from the core's table
  const narrowed = { bpeVocabSize: [100, 1_000_000], dim: [2, 4096], alpha: [0.0001, 10], minCount: [1, Number.MAX_SAFE_INTEGER], seed: [0, Number.MAX_SAFE_INTEGER], threads: [1, 8] };
  for (const { name, min, max, integer } of NUMBER_FIELDS) {
    const core = spec.numbers[name];
    assert.equal(integer, core.whole, name);
    assert.deepEqual([min, max], narrowed[name] ?? [core.min, core.max], name);
  }
  assert.deepEqual(NUMBER_FIELDS.map((field) => field.name), Object.keys(spec.numbers).slice(0, NUMBER_FIELDS.length));
  // The messages say the range the page takes.
  const cases = [
    // [field, text typed, the field's message]
    ['dim', '1', 'from 2 to 4,096: the map plots two'],
    ['dim', '4097', 'from 2 to 4,096: the map plots two'],
    ['bpeVocabSize', '99', 'from 100 to 1,000,000'],
    ['alpha', '0', 'from 0.0001 to 10'],
    ['sample', '1.5', 'from 0 to 1'],
    ['minCount', '0', 'at least 1'],
    ['seed', '-1', 'at least 0'],
    ['epochs', '1001', 'from 1 to 1,000'],
  ];
  for (const [name, text, message] of cases) {
    const tokenizer = name === 'bpeVocabSize' ? 'bpe' : 'word';
    assert.equal(checkParams(form({ tokenizer, [name]: text }), { maxThreads: 8 }).errors[name], message, `${name} ${text}`);
  }
  assert.equal(checkParams(form({ minCount: '2000000000' })).params.minCount, 2e9);
});

test("the defaults and presets are the core's", () => {
  assert.deepEqual({ ...DEFAULTS, threads: spec.defaults.threads }, spec.defaults);
  assert.deepEqual([SAMPLE_PRESET, KJV_PRESET], [spec.presets.sample, spec.presets.kjv]);
  assert.deepEqual([SAMPLE_PRESET.dim, SAMPLE_PRESET.window, SAMPLE_PRESET.sample, SAMPLE_PRESET.alpha], [50, 8, 0, 0.05]);
  const { params } = checkParams(form({}));
  for (const [name, value] of Object.entries(spec.fixed)) assert.equal(params[name], value, name);
});

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

test("a model change goes back to the rate each model had: the preset's, the default or the person's", () => {
  // The sample trains skip-gram at 0.05; CBOW takes its default, 0.05 as well.
  const preset = presetAlphas(SAMPLE_PRESET);
  assert.deepEqual(preset, { skipgram: 0.05, cbow: 0.05 });
  assert.equal(alphaForModel('0.05', 'skipgram', 'cbow', { preset }), '0.05');
  assert.equal(alphaForModel('0.05', 'cbow', 'skipgram', { preset, last: { ...preset, skipgram: '0.05' } }), '0.05');
  // Skip-gram's default typed on the sample still counts as a default.
  assert.equal(alphaForModel('0.025', 'skipgram', 'cbow', { preset }), '0.05');
  // With word2vec's defaults, a person who chose 0.05 for skip-gram finds it again after CBOW.
  const last = { skipgram: '0.05', cbow: 0.05 };
  assert.equal(alphaForModel('0.05', 'skipgram', 'cbow', { last }), '0.05');
  assert.equal(alphaForModel('0.05', 'cbow', 'skipgram', { last }), '0.05');
  // A rate of the person's own goes with them.
  assert.equal(alphaForModel('0.04', 'cbow', 'skipgram', { preset, last: { skipgram: '0.05', cbow: '0.04' } }), '0.04');
});

test("a preset's learning rate is for the model it names; the other model takes its default", () => {
  assert.deepEqual(presetAlphas(DEFAULTS), { skipgram: 0.025, cbow: 0.05 });
  assert.deepEqual(presetAlphas({ cbow: true, alpha: 0.1 }), { skipgram: 0.025, cbow: 0.1 });
  assert.deepEqual(presetAlphas({ model: 'cbow', alpha: 0.1 }), { skipgram: 0.025, cbow: 0.1 });
  assert.deepEqual(presetAlphas({ dim: 10 }), { skipgram: 0.025, cbow: 0.05 });
});

test("a text's preset keeps the person's model, threads, shared noise and BPE; the rate follows the model kept", () => {
  const raw = form({ model: 'cbow', threads: '1', sharedNoise: true, tokenizer: 'whitespace' });
  const values = presetValues(DEFAULTS, raw);
  for (const own of ['model', 'cbow', 'threads', 'sharedNoise']) assert.equal(own in values, false, own);
  assert.equal(values.alpha, 0.05);
  assert.equal(values.tokenizer, 'word');
  assert.equal(values.window, 5);
  assert.equal(presetValues(KJV_PRESET, form({ model: 'skipgram' })).alpha, 0.025);
  assert.equal(presetValues(SAMPLE_PRESET, form({ model: 'skipgram' })).alpha, 0.05);
  // BPE chosen stays BPE, with the preset's BPE settings.
  const bpe = presetValues(SAMPLE_PRESET, form({ tokenizer: 'bpe', bpeVocabSize: '5000' }));
  assert.deepEqual([bpe.tokenizer, bpe.bpeVocabSize], ['bpe', 800]);
  assert.equal(presetValues(SAMPLE_PRESET, form({ tokenizer: 'word' })).tokenizer, 'whitespace');
});
