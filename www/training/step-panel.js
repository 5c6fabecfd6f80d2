// @ts-check
// The step mode: while training is paused, single skip-gram updates on the real text, one
// at a time (src/train/trainer.rs `step_update`), each shown as the sentence with its window,
// the pair and its noise words with their scores before and after, their shares of the loss,
// the learning rate and the rows that moved. The only code touching #step-panel.
import { $ } from '../shared/dom.js';

/** @typedef {import('../pkg/embedscope.js').StepUpdatesDto} StepUpdates */
/** @typedef {import('../pkg/embedscope.js').UpdateDto} Update */

const score = (value) => value.toFixed(3);

export class StepPanel {
  /** `handler(count)` on Step, ×10 and ×100. @param {(count: number) => void} handler */
  bindStep(handler) {
    for (const button of document.querySelectorAll('#step-panel [data-updates]')) {
      button.addEventListener('click', () => handler(Number(/** @type {HTMLElement} */ (button).dataset.updates)));
    }
  }

  /** `handler()` on Resume: training goes on at full speed. @param {() => void} handler */
  bindResume(handler) {
    $('step-resume').addEventListener('click', () => handler());
  }

  /**
   * Steps are offered while training is paused; `cbow` says why they are not.
   * @param {boolean} paused @param {boolean} cbow
   */
  enable(paused, cbow) {
    for (const button of document.querySelectorAll('#step-panel button')) /** @type {HTMLButtonElement} */ (button).disabled = !paused || cbow;
    $('step-why').textContent = cbow
      ? 'The step mode shows skip-gram updates: train with the skip-gram model to use it.'
      : paused ? '' : 'Pause training to walk through it one update at a time.';
  }

  /** Forgets the update shown (a new training, or another text). */
  clear() {
    $('step-update').hidden = true;
    $('step-count').textContent = '';
  }

  /** Shows the last of the updates just made. @param {StepUpdates} stepped */
  show(stepped) {
    const update = stepped.update;
    $('step-count').textContent = update
      ? `${stepped.updates === 1 ? 'One update' : `${stepped.updates} updates`}; the last one:`
      : 'Training is done: no update is left.';
    $('step-update').hidden = !update;
    if (!update) return;
    this.showSentence(update);
    $('step-pair').textContent = `Epoch ${update.epoch}, learning rate ${update.alpha.toFixed(5)}: the context word “${update.inputWord}” predicts the centre word “${update.outputWords[0]}”, against ${update.outputWords.length - 1} noise words.`;
    const total = update.positiveLoss + update.negativeLoss;
    const rows = update.outputWords.map((word, i) => {
      const row = document.createElement('tr');
      row.dataset.role = i === 0 ? 'pair' : 'noise';
      const cells = [
        word,
        i === 0 ? 'text' : 'noise',
        score(update.scoresBefore[i]),
        score(update.scoresAfter[i]),
        total > 0 ? `${(100 * update.lossTerms[i] / total).toFixed(0)} %` : '–',
      ];
      for (const text of cells) row.insertCell().textContent = text;
      return row;
    });
    $('step-scores').replaceChildren(...rows);
    $('step-loss').textContent = `Loss of the pair ${total.toFixed(3)}: positive ${update.positiveLoss.toFixed(3)}, negative ${update.negativeLoss.toFixed(3)}.`;
    const outputs = [...new Set(update.outputWords)];
    $('step-rows').textContent = `Rows moved: “${update.inputWord}” in the input matrix; ${outputs.map((w) => `“${w}”`).join(', ')} in the output matrix.`;
  }

  /** The sentence around the window: subsampled tokens struck out, the window marked. @param {Update} update */
  showSentence(update) {
    const spans = update.tokens.map((token, i) => {
      const at = update.firstAt + i;
      const span = document.createElement('span');
      span.textContent = token;
      span.className = 'step-token';
      if (!update.kept[i]) span.classList.add('subsampled');
      if (at >= update.windowFrom && at <= update.windowTo) span.classList.add('in-window');
      if (at === update.centreAt) span.classList.add('centre');
      if (at === update.contextAt) span.classList.add('context');
      return span;
    });
    const pieces = spans.flatMap((span, i) => (i ? [' ', span] : [span]));
    if (!update.sentenceStart) pieces.unshift('… ');
    if (!update.sentenceEnd) pieces.push(' …');
    $('step-sentence').replaceChildren(...pieces);
  }
}
