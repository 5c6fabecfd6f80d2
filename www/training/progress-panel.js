// @ts-check
// Where training stands: the one progress bar and its line (reading a file, tokenizing,
// learning BPE merges, training, or a line for vectors opened here) and the Train, Pause /
// Resume and Stop buttons. The only code touching them.
import { formatBytes, formatSeconds, integer, percent } from '../shared/format.js';
import { $ } from '../shared/dom.js';

/** @typedef {import('../protocol.js').Progress} Progress */
/** @typedef {import('../protocol.js').BpeProgress} BpeProgress */

/**
 * The one progress bar (training, BPE merges, reading, tokenizing): `fraction` done, and a
 * `state` the stylesheet colours by.
 */
function setProgressBar(fraction, state) {
  const bar = $('progress');
  bar.setAttribute('aria-valuenow', String(Math.round(100 * fraction)));
  bar.querySelector('.bar').style.width = `${100 * fraction}%`;
  bar.dataset.state = state;
}

export class ProgressPanel {
  /** Reading a file: `done` of `total` bytes; for vectors, `words` parsed so far (a model matrix's `rows`). */
  showLoadProgress(done, total, words = null, rows = false) {
    const fraction = total ? done / total : 0;
    setProgressBar(fraction, 'learning');
    $('progress-text').textContent = words == null
      ? `Reading the text: ${percent(fraction, 0)} of ${formatBytes(total)}`
      : rows
        ? `Reading the embedding matrix: ${percent(fraction, 0)} of ${formatBytes(total)}, ${integer.format(words)} rows`
        : `Reading vectors: ${percent(fraction, 0)} of ${formatBytes(total)}, ${integer.format(words)} words`;
  }

  bindTrain(handler) {
    $('train').addEventListener('click', () => handler());
  }

  /** The pause button says Pause or Resume; `handler()` either way. */
  bindPauseResume(handler) {
    $('pause').addEventListener('click', () => handler());
  }

  bindStop(handler) {
    $('stop').addEventListener('click', () => handler());
  }

  /**
   * Enables the training buttons that make sense now (View.setControls hands over the rest).
   * With Train disabled, the line under the buttons says why (`whyNoTrain`).
   * @param {{canTrain: boolean, whyNoTrain: string|null, trainLabel: string, canPause: boolean, paused: boolean, canStop: boolean}} controls
   */
  setButtons(controls) {
    $('train').disabled = !controls.canTrain;
    $('train-why').hidden = controls.canTrain || !controls.whyNoTrain;
    $('train-why').textContent = controls.canTrain ? '' : controls.whyNoTrain ?? '';
    $('train').textContent = controls.trainLabel;
    $('pause').disabled = !controls.canPause;
    $('pause').textContent = controls.paused ? 'Resume' : 'Pause';
    $('stop').disabled = !controls.canStop;
  }

  /** @param {(Progress & {threads?: number})|null} progress  with the threads it trains on @param {string} state */
  showProgress(progress, state) {
    const fraction = progress?.tokensTotal ? progress.tokensDone / progress.tokensTotal : 0;
    setProgressBar(fraction, state);
    if (!progress) {
      $('progress-text').textContent = 'Not started.';
      return;
    }
    const left = progress.tokensPerSec ? (progress.tokensTotal - progress.tokensDone) / progress.tokensPerSec : NaN;
    const parts = [
      `Epoch ${progress.epoch} of ${progress.epochs}`,
      percent(fraction, 0),
      `${integer.format(Math.round(progress.tokensPerSec))} tokens/s`,
      ...(progress.threads ? [`${progress.threads} ${progress.threads === 1 ? 'thread' : 'threads'}`] : []),
      `learning rate ${progress.alpha.toFixed(4)}`,
    ];
    if (state === 'training') parts.push(`${formatSeconds(left)} left`);
    const label = { training: '', paused: 'Paused. ', stopped: 'Stopped. ', done: 'Done. ' }[state] ?? '';
    $('progress-text').textContent = `${label}${parts.join(' · ')}`;
  }

  /** Tokenizing a text: `fraction` of it done. */
  showTokenizeProgress(fraction) {
    setProgressBar(fraction, 'learning');
    $('progress-text').textContent = `Tokenizing the text: ${percent(fraction, 0)}`;
  }

  /** A line in place of training progress (vectors opened, not trained here). */
  showProgressText(text, progress) {
    setProgressBar(progress?.done ? 1 : 0, 'done');
    $('progress-text').textContent = text;
  }

  /** Adds `sentence` to the progress line as it stands (what stays open after a refusal). */
  addNote(sentence) {
    $('progress-text').textContent = `${$('progress-text').textContent} ${sentence}`;
  }

  /**
   * "Learning BPE merges: N of M", on the same bar as training.
   * @param {BpeProgress} progress @param {boolean} stopped  learning was cancelled, or
   *   training before it started (when `progress.done`)
   */
  showBpeProgress(progress, stopped) {
    setProgressBar(progress.fraction, stopped ? 'stopped' : 'learning');
    const merges = integer.format(progress.mergesDone);
    const target = integer.format(Math.max(0, progress.targetVocabSize - progress.alphabetSize));
    if (!stopped) $('progress-text').textContent = `Learning BPE merges: ${merges} of ${target}`;
    else if (progress.done) $('progress-text').textContent = `Stopped before training: the BPE merges are learned (${merges} of ${target}).`;
    else $('progress-text').textContent = `Stopped learning BPE merges at ${merges} of ${target}.`;
  }
}
