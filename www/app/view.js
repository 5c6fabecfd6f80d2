// @ts-check
// The page's view: the only code that queries or changes the DOM and the canvases. It
// renders what the controller hands it and reports what the person does through the
// bindX(handler) methods; it never talks to the worker. Text that comes from a file (words,
// file names) is only ever set with textContent. Tokens are shown through `displayToken`
// and read from inputs through `parseTypedToken`: the view hands the controller tokens as
// they are, whitespace and all.
//
// This file holds the status lines, the notices and questions, the theme and the loss
// chart, and composes the panels, one per part of the page, each the only code touching its
// elements: the form (training/params-form.js), opening a text (training/source-panel.js),
// the progress and training buttons (training/progress-panel.js), the queries
// (queries/queries-panel.js), the evaluation card (evaluation/evaluation-panel.js), the Export
// card (exports/export-panel.js), the Matrix card (matrix/matrix-panel.js), the Sampling
// card (sampling/sampling-panel.js), the guided tour (tour/tour-panel.js), the map's (map/)
// and the timeline's (timeline/).
import { MapPanel } from '../map/map-panel.js';
import { MapView } from '../map/map-view.js';
import { HistoryPanel, TimelinePanel } from '../timeline/timeline-panel.js';
import { readPalette } from '../map/palette.js';
import { ParamsForm } from '../training/params-form.js';
import { SourcePanel } from '../training/source-panel.js';
import { ProgressPanel } from '../training/progress-panel.js';
import { StepPanel } from '../training/step-panel.js';
import { QueriesPanel } from '../queries/queries-panel.js';
import { EvaluationPanel } from '../evaluation/evaluation-panel.js';
import { ExportPanel } from '../exports/export-panel.js';
import { MatrixPanel } from '../matrix/matrix-panel.js';
import { SamplingPanel } from '../sampling/sampling-panel.js';
import { TourPanel } from '../tour/tour-panel.js';
import { revealInvisible } from '../shared/tokens.js';
import { $ } from '../shared/dom.js';

/** Where the chosen theme is remembered. */
const THEME_KEY = 'embedscope-theme';

export class View {
  /** @param {typeof import('../pkg/embedscope.js').Chart} Chart  the wasm chart class */
  constructor(Chart) {
    this.paramsForm = new ParamsForm();
    this.sourcePanel = new SourcePanel();
    this.progressPanel = new ProgressPanel();
    this.stepPanel = new StepPanel();
    this.queriesPanel = new QueriesPanel();
    this.evaluationPanel = new EvaluationPanel();
    this.exportPanel = new ExportPanel();
    this.matrixPanel = new MatrixPanel();
    this.samplingPanel = new SamplingPanel();
    this.tour = new TourPanel();
    this.lossCanvas = $('loss-chart');
    this.lossChart = new Chart(this.lossCanvas);
    this.map = new MapView(Chart, { canvas: $('plot'), tooltip: $('tooltip'), region: $('map-region-box'), empty: $('plot-empty'), drawn: $('map-drawn') });
    this.mapPanel = new MapPanel();
    this.timelinePanel = new TimelinePanel();
    this.historyPanel = new HistoryPanel();
    this.onResize = () => {};
    this.setUpTheme();
    // The charts size their backing store from the CSS size, so a resize needs a redraw.
    const resized = new ResizeObserver(() => {
      this.map.resize();
      this.lossChart.resize();
      this.onResize();
    });
    resized.observe($('plot'));
    resized.observe(this.lossCanvas);
    $('notice-close').addEventListener('click', () => this.showNotice(null));
    $('train').addEventListener('click', () => this.keepMapInView());
  }

  /**
   * The theme: the system's (`prefers-color-scheme`) unless the person chose one, which is
   * remembered. The stylesheet holds the colours; the charts read them again on a change.
   */
  setUpTheme() {
    const root = document.documentElement;
    const apply = (theme) => {
      if (theme === 'auto') delete root.dataset.theme;
      else root.dataset.theme = theme;
      this.lossChart.set_palette(readPalette(this.lossCanvas.parentElement));
      this.map.applyPalette();
      this.mapPanel.setPalette(this.map.palette);
      this.matrixPanel.applyPalette();
      this.samplingPanel.applyPalette();
      this.onResize();
    };
    let stored = 'auto';
    try {
      stored = localStorage.getItem(THEME_KEY) ?? 'auto';
    } catch {
      // Storage may be refused (a private window's settings): the theme is then not kept.
    }
    const theme = ['auto', 'light', 'dark'].includes(stored) ? stored : 'auto';
    this.mapPanel.setTheme(theme);
    apply(theme);
    this.mapPanel.bindTheme((chosen) => {
      try {
        localStorage.setItem(THEME_KEY, chosen);
      } catch {
        // As above.
      }
      apply(chosen);
    });
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => apply(this.mapPanel.readTheme()));
  }

  /**
   * Where the map is mostly off screen (a phone, where the columns stack), brings the
   * training buttons to the top of the window, so the map below them shows the training.
   */
  keepMapInView() {
    const map = $('plot').getBoundingClientRect();
    const shown = Math.max(0, Math.min(map.bottom, window.innerHeight) - Math.max(map.top, 0));
    if (shown >= 0.9 * map.height) return;
    const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
    $('train').parentElement.scrollIntoView({ block: 'start', behavior: reduced ? 'auto' : 'smooth' });
  }

  // ---- status and notices

  /** @param {'loading'|'ready'|'error'} state */
  setModuleStatus(state, text) {
    Object.assign($('status'), { textContent: text });
    $('status').dataset.state = state;
  }

  setWorkerStatus(state, text) {
    $('worker-status').textContent = text;
    $('worker-status').dataset.state = state;
  }

  /** Why training runs on one thread here (a sentence that says what to do), or null to hide the line. */
  showThreadsNote(text) {
    $('threads-note').hidden = text == null;
    $('threads-note').textContent = text ?? '';
  }

  /** A message that needs attention (an error, a restarted worker); null hides it. */
  showNotice(text) {
    $('notice').hidden = text == null;
    // Messages quote file names and tokens: reordering characters in them are shown, not applied.
    $('notice').textContent = revealInvisible(text ?? '');
  }

  /**
   * Asks before something that would cancel work in progress; resolves true when the
   * person chooses `yes`. A newer question answers the older one with false.
   */
  confirm(text, yes, no) {
    this.pendingConfirm?.(false);
    $('confirm-text').textContent = revealInvisible(text);
    $('confirm-yes').textContent = yes;
    $('confirm-no').textContent = no;
    $('confirm').hidden = false;
    $('confirm-yes').focus();
    return new Promise((resolve) => {
      const answer = (value) => {
        this.pendingConfirm = null;
        $('confirm').hidden = true;
        $('confirm-yes').onclick = null;
        $('confirm-no').onclick = null;
        resolve(value);
      };
      this.pendingConfirm = answer;
      $('confirm-yes').onclick = () => answer(true);
      $('confirm-no').onclick = () => answer(false);
    });
  }

  /** Rewords the question `confirm` is asking, if it still is: its answer stays pending. */
  retitleConfirm(text, yes, no) {
    if (!this.pendingConfirm) return;
    $('confirm-text').textContent = revealInvisible(text);
    $('confirm-yes').textContent = yes;
    $('confirm-no').textContent = no;
  }

  // ---- the controls and the loss chart

  /**
   * Enables the buttons that make sense now.
   * @param {{canTrain: boolean, whyNoTrain: string|null, trainLabel: string, canPause: boolean, paused: boolean,
   *   canStop: boolean, canExport: boolean, canEvaluate: boolean}} controls
   */
  setControls(controls) {
    this.progressPanel.setButtons(controls);
    this.exportPanel.enableDownloads(controls.canExport);
    this.evaluationPanel.enable(controls.canEvaluate);
  }

  /**
   * @param {number} epochs
   * @param {number[]} epochLosses
   * @param {Float64Array} withinEpoch  flat [fractional epoch, loss, …], bounded (see LossSeries)
   * @param {{at: number, label: string}|null} marker  the moment the map shows (the timeline's)
   * @param {{epochs: number[], within: Float64Array}} terms  the loss's two terms: flat
   *   [positive, negative, …] a finished epoch, and flat [fractional epoch, positive, negative, …]
   */
  drawLoss(epochs, epochLosses, withinEpoch, marker = null, terms = { epochs: [], within: new Float64Array() }) {
    const epochTerms = new Float64Array(terms.epochs);
    this.lossChart.draw_loss(epochs, new Float64Array(epochLosses), withinEpoch, epochTerms, terms.within, marker?.at, marker?.label);
    $('loss-legend').hidden = terms.within.length === 0 && epochTerms.length === 0;
    this.lossCanvas.dataset.epochTerms = JSON.stringify([...epochTerms]);
    this.lossCanvas.dataset.withinTerms = String(terms.within.length / 3);
    this.lossCanvas.dataset.marker = marker ? marker.label : '';
    this.lossCanvas.setAttribute('aria-label', epochLosses.length
      ? `Loss per epoch: ${epochLosses.map((loss, i) => `${i + 1}: ${loss.toFixed(4)}`).join(', ')}`
      : 'Loss per epoch: none finished yet');
    this.lossCanvas.dataset.epochLosses = JSON.stringify(epochLosses);
  }

  /** `handler()` after the canvases changed size or colours: everything must be drawn again. */
  bindResize(handler) {
    this.onResize = handler;
  }

  /**
   * Clears every answer about the vectors (neighbours, token facts, analogy, evaluation,
   * sanity check, completions): they belong to a model that gave way to another.
   */
  clearAnswers() {
    this.queriesPanel.clear();
    this.evaluationPanel.clear();
  }

  /** Asks before the page is closed or reloaded while `hasUnsavedWork()` is true. */
  bindLeave(hasUnsavedWork) {
    window.addEventListener('beforeunload', (event) => {
      if (hasUnsavedWork()) event.preventDefault();
    });
  }
}
