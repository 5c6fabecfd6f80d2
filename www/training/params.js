// @ts-check
// The training parameters the form offers and the checks the form makes before the core sees
// them. Their defaults, ranges and presets are the core's table (src/params/spec.rs), which
// Rust writes into param-spec.json; the core checks again and has the last word. The labels
// and help texts are the page's words, and so are the few ranges the page narrows.

/** @typedef {import('../protocol.js').Params} Params */

import spec from './param-spec.json' with { type: 'json' };
import { MAX_THREADS, defaultThreads } from '../worker/threads.js';

/**
 * The page's own field: its words, the one tokenizer it belongs to, if it belongs to one
 * (the form hides it otherwise), and where the page takes less than the core, its narrower
 * bounds and why.
 * @typedef {{name: string, label: string, help: string, tokenizer?: string, min?: number, max?: number, why?: string}} FieldWords
 */

/** @type {FieldWords[]} the numeric fields, in the form's order */
const FIELDS = [
  // Below 100 a BPE vocabulary holds little beyond the characters of a text.
  { name: 'bpeVocabSize', label: 'BPE vocabulary', min: 100, help: 'tokens to learn; 1,000–32,000 is typical', tokenizer: 'bpe' },
  // The core trains vectors of 1 dimension, but the map plots two principal components.
  { name: 'dim', label: 'Dimensions', min: 2, help: 'length of each word vector', why: 'the map plots two' },
  { name: 'window', label: 'Window', help: 'context words on each side' },
  { name: 'negative', label: 'Negative samples', help: 'noise words per pair' },
  { name: 'sample', label: 'Subsampling', help: '0 keeps every token' },
  { name: 'minCount', label: 'Min count', help: 'rarer words are dropped' },
  { name: 'epochs', label: 'Epochs', help: 'passes over the text' },
  // The rate decays to the final rate (a fixed parameter), which it may not start below.
  { name: 'alpha', label: 'Learning rate', min: spec.fixed.minAlpha, help: `decays linearly to ${spec.fixed.minAlpha}` },
  { name: 'seed', label: 'Seed', help: 'same seed, same vectors (on 1 thread)' },
  // The page offers at most its worker's pool (MAX_THREADS, and 1 where the page is not
  // cross-origin isolated): see `checkParams`'s `maxThreads`.
  { name: 'threads', label: 'Threads', max: MAX_THREADS, help: 'training threads; 1 gives the same vectors every run' },
];

/**
 * A field's range: the core's, narrowed by the page's own bounds. A whole number with no
 * upper bound in the core stops at the largest a page's number holds exactly.
 * @param {FieldWords} field
 */
function pageRange(field) {
  const range = spec.numbers[field.name];
  const min = Math.max(range.min, field.min ?? -Infinity);
  const max = Math.min(range.max ?? (range.whole ? Number.MAX_SAFE_INTEGER : Infinity), field.max ?? Infinity);
  return { min, aboveMin: range.aboveMin && min === range.min, max, integer: range.whole };
}

/**
 * The numeric fields, in the form's order: name, label, range (`aboveMin`: the value must
 * be above `min`), whether integer, help, the tokenizer it belongs to, and why the range is
 * narrower than the core's, where it is.
 */
export const NUMBER_FIELDS = FIELDS.map((field) => ({ ...field, ...pageRange(field) }));

/** The learning rate each model starts from by default: word2vec.c's (0.025 skip-gram, 0.05 CBOW). */
export const DEFAULT_ALPHA = { ...spec.defaultAlpha };

/**
 * word2vec.c's and gensim's defaults (shared noise off: one draw of noise words per pair, as
 * they do), on as many threads as the page's machine offers.
 */
export const DEFAULTS = { ...spec.defaults, threads: defaultThreads() };

/** What the built-in sample needs to answer its planted analogies (see src/planted.rs). */
export const SAMPLE_PRESET = { ...spec.presets.sample };

/** The King James Bible (data/kjv.txt, one verse a line): word2vec's defaults on its words. */
export const KJV_PRESET = { ...spec.presets.kjv };

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
const FIXED = spec.fixed;

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
    const { name, min, aboveMin, integer, tokenizer } = field;
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
    } else if (value < min || (aboveMin && value === min) || value > max) {
      // One value allowed (Threads on a page that trains on one thread) is named as such; a
      // range with no upper bound in the core says its lower one.
      const range = min === max ? `${number(min)} only`
        : max >= Number.MAX_SAFE_INTEGER ? `at least ${min}`
        : aboveMin ? `above ${number(min)} and at most ${number(max)}`
        : `from ${number(min)} to ${number(max)}`;
      errors[name] = why ? `${range}: ${why}` : range;
    } else {
      params[name] = value;
    }
  }
  return { params: Object.keys(errors).length ? null : /** @type {Params} */ (params), errors };
}
