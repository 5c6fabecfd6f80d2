// @ts-check
// The step mode: while training is paused, single updates on the real text, one at a time
// (src/train/trainer.rs `step_update`): a skip-gram pair, or a CBOW window whose context words
// are all inputs. Each is shown as the sentence with its window, the centre word and the
// noise words with their scores before and after, their shares of the loss, the learning
// rate and the rows that moved. The only code touching #step-panel.
import { $ } from '../shared/dom.js';

/** @typedef {import('../pkg/embedscope.js').StepUpdatesDto} StepUpdates */
/** @typedef {import('../pkg/embedscope.js').UpdateDto} Update */

/**
 * A probability, to three places, unless that would round it to 0 or 1 when it is neither: a
 * noise word the model has learned to reject scores 0.0004, which "0.000" would read as none.
 * @param {number} value
 */
export function score(value) {
  if (value > 0 && value < 0.0005) return value.toPrecision(2);
  if (value < 1 && value >= 0.9995) {
    // As many places as reach the first digit that is not a 9, and one more.
    const places = Math.min(16, Math.ceil(-Math.log10(1 - value)) + 1);
    return value.toFixed(places);
  }
  return value.toFixed(3);
}

/** Words quoted, each once, with how many times it moved when more than once. @param {string[]} words */
export function quoted(words) {
  const counts = new Map();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  return [...counts].map(([word, n]) => (n > 1 ? `“${word}” ×${n}` : `“${word}”`)).join(', ');
}

/** What predicts what: skip-gram's context word, or CBOW's mean of the window. @param {Update} update */
export function prediction(update) {
  const centre = `the centre word “${update.outputWords[0]}”, against ${update.outputWords.length - 1} noise words.`;
  if (!update.cbow) return `the context word “${update.inputWords[0]}” predicts ${centre}`;
  const n = update.inputWords.length;
  const inputs = n === 1 ? `the context word “${update.inputWords[0]}”` : `the mean of the ${n} context words ${quoted(update.inputWords)}`;
  return `${inputs} (CBOW) predicts ${centre}`;
}

/** The scores table's caption: what is scored, for the update's model. @param {Update} update */
export function caption(update) {
  return update.cbow
    ? "Scores σ(h·v) of the context words' mean h with each output word, before and after the update, and each word's share of the window's loss"
    : "Scores σ(u·v) before and after the update, and each word's share of the pair's loss";
}

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

  /** Steps are offered while training is paused. @param {boolean} paused */
  enable(paused) {
    for (const button of document.querySelectorAll('#step-panel button')) /** @type {HTMLButtonElement} */ (button).disabled = !paused;
    $('step-why').textContent = paused ? '' : 'Pause training to walk through it one update at a time.';
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
    $('step-pair').textContent = `Epoch ${update.epoch}, learning rate ${update.alpha.toFixed(5)}: ${prediction(update)}`;
    $('step-caption').textContent = caption(update);
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
    $('step-loss').textContent = `Loss of the ${update.cbow ? 'window' : 'pair'} ${total.toFixed(3)}: positive ${update.positiveLoss.toFixed(3)}, negative ${update.negativeLoss.toFixed(3)}.`;
    $('step-rows').textContent = `Rows moved: ${quoted(update.inputWords)} in the input matrix${update.cbow ? ', each by the whole gradient of the mean' : ''}; ${quoted(update.outputWords)} in the output matrix.`;
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
      if (update.contextsAt.includes(at)) span.classList.add('context');
      return span;
    });
    const pieces = spans.flatMap((span, i) => (i ? [' ', span] : [span]));
    if (!update.sentenceStart) pieces.unshift('… ');
    if (!update.sentenceEnd) pieces.push(' …');
    $('step-sentence').replaceChildren(...pieces);
  }
}
