// @ts-check
// The training parameters the form offers: their defaults (word2vec.c's and gensim's),
// the presets of the built-in sample and the King James Bible, and the checks the form makes before the core sees them.
// The ranges are those of TrainConfig::validate and VocabConfig in the core, which checks
// again and has the last word.

/** @typedef {import('../protocol.js').Params} Params */

import { MAX_THREADS, defaultThreads } from '../worker/threads.js';

/**
 * The numeric fields, in the form's order: name, label, range, whether integer, help, the
 * one tokenizer a field belongs to, if it belongs to one (the form hides it otherwise), and
 * why the range is narrower than the core's, where it is.
 */
export const NUMBER_FIELDS = [
  // BpeConfig::validate takes 1 to 1,000,000; below 100 a vocabulary holds little beyond
  // the characters of a text.
  { name: 'bpeVocabSize', label: 'BPE vocabulary', min: 100, max: 1_000_000, integer: true, help: 'tokens to learn; 1,000–32,000 is typical', tokenizer: 'bpe' },
  // The core trains vectors of 1 dimension, but the map plots two principal components.
  { name: 'dim', label: 'Dimensions', min: 2, max: 4096, integer: true, help: 'length of each word vector', why: 'the map plots two' },
  { name: 'window', label: 'Window', min: 1, max: 100, integer: true, help: 'context words on each side' },
  { name: 'negative', label: 'Negative samples', min: 1, max: 100, integer: true, help: 'noise words per pair' },
  { name: 'sample', label: 'Subsampling', min: 0, max: 1, integer: false, help: '0 keeps every token' },
  { name: 'minCount', label: 'Min count', min: 1, max: 1e9, integer: true, help: 'rarer words are dropped' },
  { name: 'epochs', label: 'Epochs', min: 1, max: 1000, integer: true, help: 'passes over the text' },
  { name: 'alpha', label: 'Learning rate', min: 0.0001, max: 10, integer: false, help: 'decays linearly to 0.0001' },
  { name: 'seed', label: 'Seed', min: 0, max: Number.MAX_SAFE_INTEGER, integer: true, help: 'same seed, same vectors (on 1 thread)' },
  // TrainConfig::validate takes 1 to 256; the page offers at most its worker's pool (MAX_THREADS,
  // and 1 where the page is not cross-origin isolated): see `checkParams`'s `maxThreads`.
  { name: 'threads', label: 'Threads', min: 1, max: MAX_THREADS, integer: true, help: 'training threads; 1 gives the same vectors every run' },
];

/** The learning rate each model starts from by default: word2vec.c's (0.025 skip-gram, 0.05 CBOW). */
export const DEFAULT_ALPHA = { skipgram: 0.025, cbow: 0.05 };

/** word2vec.c's and gensim's defaults (shared noise off: one draw of noise words per pair, as they do). */
export const DEFAULTS = {
  tokenizer: 'word', lowercase: false, bpeVocabSize: 8_000, bpeMode: 'cross',
  model: 'skipgram', sharedNoise: false, dim: 100, window: 5, negative: 5, sample: 1e-3, minCount: 5, epochs: 5, alpha: DEFAULT_ALPHA.skipgram, seed: 1,
  threads: defaultThreads(),
};

/** What the built-in sample needs to answer its planted analogies (see src/planted.rs). */
export const SAMPLE_PRESET = {
  // With BPE, 800 tokens on the sample's 28 letters give its phrases ("the king ", " and also ").
  tokenizer: 'whitespace', lowercase: false, bpeVocabSize: 800, bpeMode: 'cross',
  dim: 50, window: 8, negative: 5, sample: 0, minCount: 5, epochs: 5, alpha: 0.05, seed: 1,
};

/** The King James Bible (data/kjv.txt, one verse a line): word2vec's defaults on its words. */
export const KJV_PRESET = { ...DEFAULTS, tokenizer: 'whitespace' };

/** @typedef {'skipgram'|'cbow'} Model */

/**
 * The choices that are the person's whatever the text (a bundle's `cbow` names the model):
 * a text's preset leaves them as the form has them.
 */
const OWN_CHOICES = ['model', 'cbow', 'threads', 'sharedNoise'];

/**
 * The learning rate each model starts from under `values` (a preset, the defaults, a
 * bundle's parameters): their `alpha` is the rate of the model they name (skip-gram when
 * they name none, as the presets do); the other model takes its default.
 * @param {Record<string, any>} values
 * @returns {Record<Model, number>}
 */
export function presetAlphas(values) {
  const model = values.cbow === true || values.model === 'cbow' ? 'cbow' : 'skipgram';
  return values.alpha == null ? { ...DEFAULT_ALPHA } : { ...DEFAULT_ALPHA, [model]: Number(values.alpha) };
}

/**
 * The form's values for a text's preset, over what the form holds now (`raw`): the person's
 * own choices (model, threads, shared noise) stay; BPE stays when chosen, and then only the
 * preset's BPE vocabulary size and mode apply; the learning rate is the preset's for the
 * model kept.
 * @param {Record<string, any>} preset @param {Record<string, string|boolean>} raw  the form's raw values
 */
export function presetValues(preset, raw) {
  const values = Object.fromEntries(Object.entries(preset).filter(([name]) => !OWN_CHOICES.includes(name)));
  if (raw.tokenizer === 'bpe') values.tokenizer = 'bpe';
  values.alpha = presetAlphas(preset)[raw.model === 'cbow' ? 'cbow' : 'skipgram'];
  return values;
}

/**
 * The learning rate to show when the model changes from `from` to `to`. A rate that is not
 * the person's own for `from` (that model's default, or the preset's rate for it) gives way
 * to `last[to]`, what the field held when `to` was last chosen (at first the preset's rate
 * for it); a rate the person set goes with them to the other model.
 * @param {string} alpha  the field's text  @param {Model} from  @param {Model} to
 * @param {{preset?: Record<Model, number>, last?: Record<Model, string|number>}} [rates]
 *   `presetAlphas` of what last filled the form (word2vec's defaults when nothing did), and the
 *   field's text when each model was last left
 */
export function alphaForModel(alpha, from, to, { preset = DEFAULT_ALPHA, last = preset } = {}) {
  const value = Number(String(alpha).trim());
  return value === DEFAULT_ALPHA[from] || value === preset[from] ? String(last[to]) : alpha;
}

/**
 * What a field takes as written: a whole number is plain decimal digits (a minus sign, so a
 * negative one is told it is out of range); a decimal may have a fraction and an exponent
 * (`0.05`, `.05`, `1e-3`). `Number` alone would also take `0x2`, `+2` or `2e0`.
 */
const WHOLE = /^-?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Parameters the form does not show, at the core's defaults. */
const FIXED = { maxVocab: null, minAlpha: 0.0001, nsExponent: 0.75, keepPunctuation: false };

/**
 * Checks the form's raw values. Returns the parameters, or the error message of each bad field.
 * @param {Record<string, string|boolean>} raw  field name → input value (checkbox: boolean)
 * @param {{maxThreads?: number, whyOneThread?: string|null}} [limits]  the threads the worker offers
 *   (www/worker/threads.js; 1 in the single-threaded module, then `whyOneThread` says why)
 * @returns {{params: Params|null, errors: Record<string, string>}}
 */
export function checkParams(raw, { maxThreads = MAX_THREADS, whyOneThread = null } = {}) {
  const errors = {};
  const cbow = raw.model === 'cbow';
  // Filled field by field below; a `Params` once no field is bad. Shared noise is skip-gram's
  // alone: CBOW draws once a window anyway (the form hides the box).
  /** @type {Record<string, any>} */
  const params = { ...FIXED, tokenizer: raw.tokenizer, lowercase: Boolean(raw.lowercase), cbow, sharedNoise: !cbow && Boolean(raw.sharedNoise) };
  if (raw.tokenizer === 'bpe') params.bpeMode = raw.bpeMode;
  const number = (n) => n.toLocaleString('en', { maximumFractionDigits: 6 });
  for (const field of NUMBER_FIELDS) {
    const { name, min, integer, tokenizer } = field;
    if (tokenizer != null && tokenizer !== raw.tokenizer) continue;
    const max = name === 'threads' ? Math.min(field.max, maxThreads) : field.max;
    const why = name === 'threads' ? (maxThreads === 1 ? whyOneThread : 'this machine\'s cores, at most 8') : field.why;
    const text = String(raw[name]).trim();
    const value = Number(text);
    if (text === '' || !Number.isFinite(value)) {
      errors[name] = 'enter a number';
    } else if (integer && !WHOLE.test(text)) {
      errors[name] = 'enter a whole number';
    } else if (!integer && !DECIMAL.test(text)) {
      errors[name] = 'enter a number';
    } else if (value < min || value > max) {
      // One value allowed (Threads on a page that trains on one thread) is named as such.
      const range = min === max ? `${number(min)} only` : max >= 1e9 ? `at least ${min}` : `from ${number(min)} to ${number(max)}`;
      errors[name] = why ? `${range}: ${why}` : range;
    } else {
      params[name] = value;
    }
  }
  return { params: Object.keys(errors).length ? null : /** @type {Params} */ (params), errors };
}
