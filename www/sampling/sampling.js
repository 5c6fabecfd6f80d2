// @ts-check
// The Sampling card's logic, between SamplingPanel and the worker: the Zipf chart, asked
// for once a trainer is made (counts do not change while it trains), and the selected
// word's sampling, asked for when a word is selected on the page. Vectors opened from a
// file were sampled elsewhere: the card says so. Answers of a model that gave way are not
// shown (the host says which model is current).

/** @typedef {import('./sampling-panel.js').SamplingPanel} SamplingPanel */

/** The chart's points at most: a few hundred, spread on the log scale of ranks. */
export const ZIPF_POINTS = 300;
/** The window partners listed. */
export const PARTNERS = 10;

export class Sampling {
  /**
   * @param {SamplingPanel} panel
   * @param {import('../app/worker-client.js').WorkerClient} worker
   * @param {{model: () => number|null, trained: () => boolean, select: (word: string) => void}} host  the
   *   controller: the model shown (null without vectors), whether a trainer made it (a text, not
   *   vectors from a file), and how to select a word on the page
   */
  constructor(panel, worker, host) {
    this.panel = panel;
    this.worker = worker;
    this.host = host;
    /** @type {number|null} the model whose chart is shown or asked for */
    this.model = null;
    /** @type {string|null} the word selected on the page */
    this.word = null;
    panel.bindSelect((word) => host.select(word));
    panel.showMessage('Train on a text to see how its words are sampled.');
  }

  /** The controller's state may have changed: another model's chart is asked for. */
  async update() {
    const model = this.host.model();
    const trained = model != null && this.host.trained();
    if ((trained ? model : null) === this.model) return;
    this.model = trained ? model : null;
    this.word = null;
    // Another model: the last one's word and chart go at once.
    this.panel.showMessage('Reading the vocabulary\'s counts…');
    if (!trained) {
      this.panel.showMessage(model == null
        ? 'Train on a text to see how its words are sampled.'
        : 'These vectors were opened from a file: their text and its sampling stayed with the trainer that made them.');
      return;
    }
    try {
      const { zipf } = await this.worker.request('zipf', { points: ZIPF_POINTS });
      if (this.model === model) this.panel.showZipf(zipf);
    } catch (error) {
      if (this.model === model) this.panel.showMessage(`No sampling to show: ${error.message}`);
    }
  }

  /** `word` was selected on the page: its sampling. @param {string} word */
  async show(word) {
    const model = this.model;
    if (model == null || word === this.word) return;
    this.word = word;
    try {
      const { sampling } = await this.worker.request('wordSampling', { word, partners: PARTNERS });
      if (this.model === model && this.word === word) this.panel.showWord(sampling);
    } catch {
      // A word the trainer's vocabulary lacks (a word built from n-grams has none): nothing to add.
    }
  }
}
