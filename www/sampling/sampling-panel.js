// @ts-check
// The Sampling card: what training does to the words of the text before it learns from
// them. For the selected word, its count, the probability that subsampling keeps one of
// its tokens, its probability as a noise word, and the words most often in its window (each
// a button that selects it); for the whole vocabulary, the Zipf chart: frequency, keep and
// noise probabilities against rank on log axes, the selected word marked. The only code
// touching the card's elements; the numbers come from the worker, zipf.js places them.
import { css, readColours } from '../map/palette.js';
import { $, readyCanvas } from '../shared/dom.js';
import { integer, termsAndValues } from '../shared/format.js';
import { displayToken } from '../shared/tokens.js';
import { CURVES, chartScales, decadeText, probabilityText, samplingFacts } from './zipf.js';

/** @typedef {import('../protocol.js').WordSampling} WordSampling */
/** @typedef {import('../protocol.js').Zipf} Zipf */

/** CSS px: the chart's margins, for the axes' numbers and names. */
const MARGIN = { left: 44, right: 10, top: 8, bottom: 30 };
const FONT_PX = 11;

export class SamplingPanel {
  constructor() {
    this.canvas = /** @type {HTMLCanvasElement} */ ($('zipf-canvas'));
    /** @type {Zipf|null} */
    this.zipf = null;
    /** @type {WordSampling|null} the word marked on the chart */
    this.word = null;
    this.handlers = { select: (_word) => {} };
    $('sampling-partners').addEventListener('click', (event) => {
      const button = /** @type {HTMLElement} */ (event.target).closest('button[data-word]');
      if (button instanceof HTMLElement && button.dataset.word) this.handlers.select(button.dataset.word);
    });
    new ResizeObserver(() => this.draw()).observe(this.canvas);
    this.applyPalette();
  }

  /** `handler(word)` when a partner word is clicked. */
  bindSelect(handler) {
    this.handlers.select = handler;
  }

  /** The colours of style.css (again after the theme changed), and a redraw with them. */
  applyPalette() {
    const colours = readColours(this.canvas.parentElement, {
      frequency: '--zipf-frequency', keep: '--zipf-keep', noise: '--zipf-noise', ink: '--ink', muted: '--muted', line: '--line',
    });
    this.colours = Object.fromEntries(Object.entries(colours).map(([name, colour]) => [name, css(/** @type {any} */ (colour))]));
    for (const { key } of CURVES) $(`zipf-key-${key}`).style.background = this.colours[key];
    this.draw();
  }

  /** Nothing to show, and why (no trainer: no text yet, or vectors opened from a file). @param {string} message */
  showMessage(message) {
    $('sampling-message').textContent = message;
    $('sampling-word').hidden = true;
    $('zipf-figure').hidden = true;
    this.zipf = null;
    this.word = null;
  }

  /** The vocabulary's Zipf chart. @param {Zipf} zipf */
  showZipf(zipf) {
    this.zipf = zipf;
    $('zipf-figure').hidden = false;
    $('zipf-exponent').textContent = String(zipf.nsExponent);
    $('sampling-message').textContent = this.word ? '' : 'Select a word (on the map, in the neighbours or the matrix) to see what sampling does to it.';
    $('zipf-note').textContent = `${integer.format(zipf.vocabSize)} words by rank, most frequent first, both axes on log scales.`
      + ' Frequency falls about as 1/rank (Zipf\'s law). '
      + (zipf.sample > 0 ? 'Subsampling keeps fewer tokens of the most frequent words; ' : 'Subsampling is off in this run (sample 0): every token is kept; ')
      + `the noise distribution, count^${zipf.nsExponent}, lifts rare words above their frequency and lowers frequent ones.`;
    this.canvas.setAttribute('aria-label', `Zipf chart of ${integer.format(zipf.vocabSize)} words: frequency, keep and noise probabilities against rank, log scales`);
    this.draw();
  }

  /** A word's sampling, listed and marked on the chart. @param {WordSampling} s */
  showWord(s) {
    this.word = s;
    $('sampling-message').textContent = '';
    $('sampling-word').hidden = false;
    $('sampling-word-title').textContent = `“${displayToken(s.word)}”`;
    $('sampling-facts').replaceChildren(...termsAndValues(samplingFacts(s), 'sampling'));
    $('sampling-partners-title').textContent = `Most often within ${s.window} tokens of it (before subsampling)`;
    $('sampling-partners').replaceChildren(...s.partners.map(({ word, count }) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'word';
      button.dataset.word = word;
      button.textContent = displayToken(word);
      const value = document.createElement('span');
      value.className = 'score';
      value.textContent = integer.format(count);
      item.append(button, value);
      return item;
    }));
    this.draw();
  }

  /** The chart, sized to the canvas's CSS box: three curves, the decades, the word marked. */
  draw() {
    const ready = this.colours ? readyCanvas(this.canvas) : null;
    if (!ready) return;
    const { ctx, width, height } = ready;
    const zipf = this.zipf;
    if (!zipf?.ranks.length) return;
    const c = this.colours;
    const box = { left: MARGIN.left, top: MARGIN.top, width: width - MARGIN.left - MARGIN.right, height: height - MARGIN.top - MARGIN.bottom };
    const scale = chartScales(zipf, box);
    ctx.font = `${FONT_PX}px system-ui, sans-serif`;
    ctx.lineWidth = 1;

    // The decades: grid lines and their numbers.
    ctx.strokeStyle = c.line;
    ctx.fillStyle = c.muted;
    ctx.beginPath();
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const d of scale.xDecades) {
      const x = Math.round(scale.x(d)) + 0.5;
      ctx.moveTo(x, box.top);
      ctx.lineTo(x, box.top + box.height);
      ctx.fillText(decadeText(d), x, box.top + box.height + 3);
    }
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const d of scale.yDecades) {
      const y = Math.round(scale.y(d)) + 0.5;
      ctx.moveTo(box.left, y);
      ctx.lineTo(box.left + box.width, y);
      ctx.fillText(decadeText(d), box.left - 4, y);
    }
    ctx.stroke();
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    ctx.fillText('rank (1 = most frequent)', box.left + box.width / 2, height);

    // The curves: a point a rank the worker chose; a probability of 0 is off the log scale.
    ctx.lineWidth = 2;
    for (const { key } of CURVES) {
      ctx.strokeStyle = c[key];
      ctx.beginPath();
      let drawing = false;
      zipf.ranks.forEach((rank, i) => {
        const p = zipf[key][i];
        if (!(p > 0)) {
          drawing = false;
          return;
        }
        const [x, y] = [scale.x(rank + 1), scale.y(p)];
        if (drawing) ctx.lineTo(x, y);
        else ctx.moveTo(x, y);
        drawing = true;
      });
      ctx.stroke();
    }

    // The selected word: its rank, and a dot on each curve at its own values.
    const word = this.word;
    if (word) {
      const x = scale.x(word.rank + 1);
      ctx.strokeStyle = c.ink;
      ctx.lineWidth = 1;
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      ctx.moveTo(x, box.top);
      ctx.lineTo(x, box.top + box.height);
      ctx.stroke();
      ctx.setLineDash([]);
      for (const { key } of CURVES) {
        const p = word[key];
        if (!(p > 0)) continue;
        ctx.fillStyle = c[key];
        ctx.beginPath();
        ctx.arc(x, scale.y(p), 4, 0, 2 * Math.PI);
        ctx.fill();
      }
      ctx.fillStyle = c.ink;
      ctx.textAlign = x > box.left + box.width * 0.7 ? 'right' : 'left';
      ctx.textBaseline = 'top';
      const dx = ctx.textAlign === 'right' ? -5 : 5;
      ctx.fillText(`${displayToken(word.word)} · kept ${probabilityText(word.keep)}`, x + dx, box.top + 2);
    }
  }
}
