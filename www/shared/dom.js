// @ts-check
// The page's one lookup of an element by id, for app/view.js and the panels.

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
