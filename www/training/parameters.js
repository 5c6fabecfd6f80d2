// @ts-check
// The training parameters as the controller reads them from the form (ParamsForm): checked
// against the threads the worker offers (params.js holds the checks), the Threads field kept
// within them, and the learning rate following a change of model. It knows no DOM.
import { alphaForModel, checkParams } from '../params.js';

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
   * Puts `values` into the form, and remembers the model they leave chosen (see
   * `followModel`). Threads beyond what this page offers (a bundle trained on 16 by the
   * command-line tool) become the most it offers.
   */
  set(values) {
    const max = this.threads?.max;
    if (max != null && values.threads > max) values = { ...values, threads: max };
    this.form.setParams(values);
    this.modelShown = modelOf(this.form.readParams());
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

  /** The Model field changed: the new model's default learning rate, unless the person set one. */
  followModel() {
    const raw = this.form.readParams();
    const model = modelOf(raw);
    this.form.setParams({ alpha: alphaForModel(String(raw.alpha), this.modelShown, model) });
    this.modelShown = model;
  }
}
