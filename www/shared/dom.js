// @ts-check
// The page's one lookup of an element by id, for app/view.js and the panels, and the one
// way a card offers a choice among names (a zip's files, a model's tensors).

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
