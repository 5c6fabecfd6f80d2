// @ts-check
// A failed request's message as a card shows it: one sentence, and where the vocabulary lacks
// a word, each spelling it holds for that word (the error's `parts`, `MessagePartDto` in
// src/wasm/dto/queries.rs) a button that uses it. The wording is Rust's, written once
// (`unknown_words_message` in src/error.rs); the page only shows it.
import { capitalised } from './format.js';
import { displayToken, revealInvisible } from './tokens.js';

/** @typedef {import('../protocol.js').MessagePart} MessagePart */

/**
 * `error`'s message in parts, `before` ahead of it, as a sentence: capitalised, and ending
 * in a full stop unless it ends in a question mark already.
 * @param {{message: string, parts?: MessagePart[]|null}} error  a worker's error (www/app/worker-client.js)
 * @param {string} [before]
 * @returns {MessagePart[]}
 */
export function failureParts(error, before = '') {
  const parts = [{ text: before, replaces: null }, ...(error.parts ?? [{ text: error.message, replaces: null }])]
    .filter((part) => part.text);
  const [first] = parts;
  if (first && first.replaces == null) parts[0] = { text: capitalised(first.text), replaces: null };
  const last = parts.at(-1);
  if (last && last.replaces == null && !/[.?]$/.test(last.text)) parts[parts.length - 1] = { text: `${last.text}.`, replaces: null };
  return parts;
}

/**
 * `message` as nodes: text as text (invisible characters revealed), each suggested spelling
 * as a button holding the word (`data-word`) and the unknown word it replaces (`data-replaces`).
 * @param {string|MessagePart[]} message
 * @returns {(Node|string)[]}
 */
export function messageNodes(message) {
  if (typeof message === 'string') return [revealInvisible(message)];
  return message.map(({ text, replaces }) => {
    if (replaces == null) return revealInvisible(text);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'suggestion';
    button.textContent = displayToken(text);
    button.dataset.word = text;
    button.dataset.replaces = replaces;
    return button;
  });
}

/**
 * `handler(word, replaces)` when a suggested spelling shown in `element` is clicked.
 * @param {HTMLElement} element  @param {(word: string, replaces: string) => void} handler
 */
export function bindSuggestions(element, handler) {
  element.addEventListener('click', (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest('button[data-replaces]');
    if (button instanceof HTMLButtonElement) handler(button.dataset.word, button.dataset.replaces);
  });
}
