// @ts-check
// The page's one lookup of an element by id, for app/view.js and the panels; the one way a
// card offers a choice among names (a zip's files, a model's tensors); the one way a card
// readies a canvas it draws on.

/**
 * The element of index.html with `id`. Typed `any` on purpose: which element an id names
 * (an input, a select, a canvas) is fixed by the markup, not by anything the type checker
 * sees, and the browser tests reach every control by its role. A missing id fails at once
 * with its name rather than later as "cannot read properties of null".
 * @param {string} id
 * @returns {any}
 */
export function $(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no element #${id}`);
  return element;
}

/**
 * Shows the chooser `${id}-choice` (its note, its select's options as [value, label]) and
 * calls `handler(value)` with the one submitted; a null `offer` hides it.
 * @param {string} id @param {{note: string, options: string[][]}|null} offer @param {(value: string) => void} [handler]
 */
export function offerChoice(id, offer, handler) {
  const form = $(`${id}-choice`);
  form.hidden = offer == null;
  if (!offer || !handler) return;
  $(`${id}-note`).textContent = offer.note;
  const select = /** @type {HTMLSelectElement} */ ($(`${id}-select`));
  select.replaceChildren(...offer.options.map(([value, label]) => {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    return option;
  }));
  form.onsubmit = (event) => {
    event.preventDefault();
    form.hidden = true;
    handler(select.value);
  };
  select.focus();
}

/**
 * A canvas drawn by JS (the Matrix card's band, the Sampling card's chart) made ready to
 * draw: its pixels sized to its CSS box at the device's pixel ratio, its context scaled to
 * CSS pixels and cleared. Null while it has no box (a card not laid out).
 * @param {HTMLCanvasElement} canvas
 * @returns {{ctx: CanvasRenderingContext2D, width: number, height: number}|null}
 */
export function readyCanvas(canvas) {
  const [width, height] = [canvas.clientWidth, canvas.clientHeight];
  if (!width || !height) return null;
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return { ctx, width, height };
}
