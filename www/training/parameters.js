// @ts-check
// The training parameters as the controller reads them from the form (ParamsForm): checked
// against the threads the worker offers (training/params.js holds the checks), the Threads field kept
// within them, a text's preset applied around the person's own choices, and the learning
// rate following a change of model. It knows no DOM.
import { alphaForModel, checkParams, DEFAULT_ALPHA, presetAlphas, presetValues } from './params.js';

/** @typedef {import('./params-form.js').ParamsForm} ParamsForm */

/**
 * The model the form's raw values name.
 * @param {Record<string, string|boolean>} raw
 * @returns {'skipgram'|'cbow'}
 */
const modelOf = (raw) => (raw.model === 'cbow' ? 'cbow' : 'skipgram');

export class Parameters {
  /** @param {ParamsForm} form */
  constructor(form) {
    this.form = form;
    /** @type {import('../protocol.js').ThreadsInfo|null} where the worker trains (its `ready` says) */
    this.threads = null;
    /** The model the form showed last, whose default learning rate a change of model replaces. */
    this.modelShown = modelOf(form.readParams());
    /**
     * Each model's learning rate under what last filled the form (`presetAlphas`), and what
     * the field held when each model was last left: a change of model goes back to it.
     */
    this.alphas = { preset: { ...DEFAULT_ALPHA }, last: { ...DEFAULT_ALPHA } };
  }

  /** The form's parameters, checked, each message shown next to its field; null when one is wrong. */
  checked() {
    const { params, errors } = checkParams(this.form.readParams(), this.threadLimits());
    this.form.showParamErrors(errors);
    return params;
  }

  /** Whether the form's parameters pass the checks (nothing shown). */
  valid() {
    return checkParams(this.form.readParams(), this.threadLimits()).params != null;
  }

  /**
   * Puts `values` into the form, and remembers the model they leave chosen and, when they
   * hold a learning rate, each model's rate under them (`alphas`, by default
   * `presetAlphas(values)`; see `followModel`). Threads beyond what this page offers (a
   * bundle trained on 16 by the command-line tool) become the most it offers.
   * @param {Record<string, any>} values @param {Record<'skipgram'|'cbow', number>} [alphas]
   */
  set(values, alphas = presetAlphas(values)) {
    const max = this.threads?.max;
    if (max != null && values.threads > max) values = { ...values, threads: max };
    this.form.setParams(values);
    this.modelShown = modelOf(this.form.readParams());
    if (values.alpha != null) this.alphas = { preset: { ...alphas }, last: { ...alphas } };
  }

  /**
   * Applies a text's preset: the person's own choices (model, threads, shared noise) stay,
   * and so does BPE; the learning rate is the preset's for the model kept (see `presetValues`).
   * @param {Record<string, any>} preset @param {string} name  what the form's summary calls it
   */
  usePreset(preset, name) {
    this.set(presetValues(preset, this.form.readParams()), presetAlphas(preset));
    this.form.showPreset(name);
  }

  /** The threads the worker offers, for `checkParams` (every thread until the worker says). */
  threadLimits() {
    return this.threads ? { maxThreads: this.threads.max, whyOneThread: this.threads.cause } : {};
  }

  /**
   * The worker says where it trains: a pool of up to `max` threads, or one thread and why.
   * The Threads field (by default the machine's cores) is brought within that; true when
   * that changed it.
   * @param {import('../protocol.js').ThreadsInfo} threads
   */
  useThreads(threads) {
    this.threads = threads;
    // The page's default agrees with the worker but where the threaded module failed to load.
    if (Number(this.form.readParams().threads) > threads.max) {
      this.set({ threads: threads.max });
      return true;
    }
    return false;
  }

  /**
   * The Model field changed: the field goes back to the rate it held when the new model was
   * last chosen (at first the preset's or its default), unless the person set one of their own.
   */
  followModel() {
    const raw = this.form.readParams();
    const model = modelOf(raw);
    const last = { ...this.alphas.last, [this.modelShown]: String(raw.alpha) };
    this.form.setParams({ alpha: alphaForModel(String(raw.alpha), this.modelShown, model, { preset: this.alphas.preset, last }) });
    this.alphas = { ...this.alphas, last };
    this.modelShown = model;
  }
}
