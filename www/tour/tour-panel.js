// @ts-check
// The guided tour: a small dialog beside one of the page's own controls at a time, which it
// outlines and brings into view (the steps are steps.js's). Back and Next walk the steps;
// Close, Escape or the last step's Done end it; the header's Tour button starts it again.
// It never starts by itself, so it is in no one's way. The only code touching the tour's
// elements.
import { $ } from '../shared/dom.js';
import { STEPS } from './steps.js';

/** CSS px between the dialog and the element it points at, and the window's edges. */
const GAP_PX = 12;

export class TourPanel {
  constructor(steps = STEPS) {
    this.steps = steps;
    this.dialog = $('tour');
    /** @type {number|null} the step shown; null when the tour is closed */
    this.index = null;
    /** @type {HTMLElement|null} */
    this.target = null;
    $('tour-start').addEventListener('click', () => this.show(0));
    $('tour-back').addEventListener('click', () => this.show((this.index ?? 1) - 1));
    $('tour-next').addEventListener('click', () => (this.index === this.steps.length - 1 ? this.close() : this.show((this.index ?? -1) + 1)));
    $('tour-close').addEventListener('click', () => this.close());
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.index != null) this.close();
    });
    const place = () => this.place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
  }

  /** Shows step `index`: its words, its element outlined and in view, the dialog beside it. @param {number} index */
  show(index) {
    const step = this.steps[Math.max(0, Math.min(this.steps.length - 1, index))];
    this.index = this.steps.indexOf(step);
    this.target?.classList.remove('tour-target');
    this.target = $(step.target);
    this.target.classList.add('tour-target');
    // A card taller than most of the window shows its top, where its title and controls are.
    const tall = this.target.getBoundingClientRect().height > window.innerHeight * 0.6;
    this.target.scrollIntoView({ block: tall ? 'start' : 'center', inline: 'nearest' });
    $('tour-title').textContent = step.title;
    $('tour-text').textContent = step.text;
    $('tour-count').textContent = `${this.index + 1} of ${this.steps.length}`;
    /** @type {HTMLButtonElement} */ ($('tour-back')).disabled = this.index === 0;
    $('tour-next').textContent = this.index === this.steps.length - 1 ? 'Done' : 'Next';
    this.dialog.hidden = false;
    this.place();
    $('tour-next').focus({ preventScroll: true });
  }

  /** Ends the tour: no outline, no dialog. */
  close() {
    this.target?.classList.remove('tour-target');
    this.target = null;
    this.index = null;
    this.dialog.hidden = true;
  }

  /**
   * The dialog beside its element, never over it where the window has room: below, else
   * above, else to its left or right (a tall card), else over its lower edge; always within
   * the window.
   */
  place() {
    if (this.index == null || !this.target) return;
    const rect = this.target.getBoundingClientRect();
    const box = this.dialog.getBoundingClientRect();
    const [width, height] = [window.innerWidth, window.innerHeight];
    const clamp = (value, lo, hi) => Math.max(lo, Math.min(hi, value));
    const centred = clamp(rect.left + rect.width / 2 - box.width / 2, GAP_PX, width - GAP_PX - box.width);
    const beside = clamp(rect.top, GAP_PX, height - GAP_PX - box.height);
    let [left, top] = [centred, rect.bottom + GAP_PX];
    if (top + box.height > height - GAP_PX) {
      if (rect.top - GAP_PX - box.height >= GAP_PX) top = rect.top - GAP_PX - box.height;
      else if (rect.left - 2 * GAP_PX >= box.width) [left, top] = [rect.left - GAP_PX - box.width, beside];
      else if (width - rect.right - 2 * GAP_PX >= box.width) [left, top] = [rect.right + GAP_PX, beside];
      else top = clamp(rect.bottom - box.height - GAP_PX, GAP_PX, height - GAP_PX - box.height);
    }
    this.dialog.style.top = `${Math.round(top)}px`;
    this.dialog.style.left = `${Math.round(left)}px`;
  }
}
