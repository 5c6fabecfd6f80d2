// @ts-check
// The questions a person asks of the vectors: the word inputs and their completions, the
// neighbours form and list, where a selected token comes from (its facts and lines of the
// text), and the analogy form with its 3CosAdd and 3CosMul answers. The only code touching
// those elements. Tokens are shown through `displayToken` and read through
// `parseTypedToken`, so the controller gets them as they are, whitespace and all (at the
// ends too: `Queries` asks for a token as typed, then trimmed).
import { integer, ordinal, termsAndValues } from '../shared/format.js';
import { displayToken, markToken, parseTypedToken, revealInvisible } from '../shared/tokens.js';
import { $ } from '../shared/dom.js';
import { bindSuggestions, messageNodes } from '../shared/failure.js';

/** @typedef {import('../protocol.js').Neighbour} Neighbour */
/** @typedef {import('../protocol.js').MessagePart} MessagePart */
/** @typedef {import('../protocol.js').TokenInfo} TokenInfo */

export class QueriesPanel {
  /**
   * `handler(prefix)` as a word is typed into any word input (for completions). Whitespace
   * typed turns into its sign as it is typed, so the input matches the completions, which
   * are shown the same way (the browser filters them by what the input holds).
   */
  bindWordTyped(handler) {
    for (const id of ['search', 'analogy-a', 'analogy-b', 'analogy-c']) {
      $(id).addEventListener('input', (event) => {
        const input = event.target;
        const shown = displayToken(input.value);
        if (shown !== input.value) {
          // Each sign is one UTF-16 unit, like the character it replaces: the caret stays.
          const { selectionStart, selectionEnd } = input;
          input.value = shown;
          input.setSelectionRange(selectionStart, selectionEnd);
        }
        handler(parseTypedToken(input.value, { keepEnds: true }));
      });
    }
  }

  /** @param {string[]} words */
  setCompletions(words) {
    $('vocab-completions').replaceChildren(...words.map((word) => {
      const option = document.createElement('option');
      option.value = displayToken(word);
      return option;
    }));
  }

  /**
   * `handler(word, k)` when the neighbours form is submitted (`word` may be empty), or a
   * spelling suggested for an unknown word is clicked: it goes into the Word field and is asked.
   */
  bindSearch(handler) {
    $('neighbours-form').addEventListener('submit', (event) => {
      event.preventDefault();
      handler(parseTypedToken($('search').value, { keepEnds: true }), this.readK());
    });
    bindSuggestions($('neighbours-message'), (word) => {
      this.setSearch(word);
      $('search').focus();
      handler(word, this.readK());
    });
  }

  readK() {
    const k = Math.round(Number($('neighbours-k').value));
    return Number.isFinite(k) ? Math.min(100, Math.max(1, k)) : 10;
  }

  setSearch(word) {
    $('search').value = displayToken(word);
  }

  /**
   * `built`: the word is not in the vocabulary and its vector is built from its character
   * n-grams (a fastText model's), which the message says.
   * @param {string} word @param {Neighbour[]} neighbours @param {boolean} [built]
   */
  showNeighbours(word, neighbours, built = false) {
    $('neighbours-message').textContent = built
      ? `Nearest to “${displayToken(word)}” by cosine similarity (not in the vocabulary: built from n-grams):`
      : `Nearest to “${displayToken(word)}” by cosine similarity:`;
    $('neighbours-list').replaceChildren(...neighbours.map((n) => this.resultItem(n, true)));
    // Where the inspector scrolls by itself beside the map, the answer to a word clicked on
    // the map is brought into it; where the page scrolls (a phone), the map stays put.
    const inspector = $('neighbours-list').closest('.inspector');
    if (inspector && getComputedStyle(inspector).overflowY === 'auto') {
      $('neighbours-list').closest('.card').scrollIntoView({ block: 'nearest' });
    }
  }

  /** A message instead of neighbours: text, or a failure's parts with its suggested spellings as buttons. @param {string|MessagePart[]} message */
  showNeighboursMessage(message) {
    $('neighbours-message').replaceChildren(...messageNodes(message));
    $('neighbours-list').replaceChildren();
  }

  /**
   * Marks the answers from vocabulary rank `rank` on as special tokens: a language model's
   * special, control and unused tokens, which come last and stay off the map. Null marks none.
   * @param {number|null} rank
   */
  markSpecialFrom(rank) {
    this.specialFrom = rank;
  }

  /**
   * One result: the word (a button that selects it, when `selectable`), a "special" tag
   * for a model's special token, and its score.
   */
  resultItem({ word, score, rank }, selectable) {
    const item = document.createElement('li');
    const label = document.createElement(selectable ? 'button' : 'span');
    label.className = 'word';
    label.textContent = displayToken(word);
    if (label instanceof HTMLButtonElement) {
      label.type = 'button';
      label.dataset.word = word;
    }
    const value = document.createElement('span');
    value.className = 'score';
    value.textContent = score.toFixed(3);
    item.append(label);
    if (this.specialFrom != null && rank >= this.specialFrom) {
      const tag = document.createElement('span');
      tag.className = 'tag';
      tag.textContent = 'special';
      tag.title = 'A special, control or unused token of the model: kept off the map';
      item.append(tag);
    }
    item.append(value);
    return item;
  }

  /** `handler(word)` when a word in a result list is clicked. */
  bindResultClick(handler) {
    for (const id of ['neighbours-list', 'analogy-cosadd', 'analogy-cosmul']) {
      $(id).addEventListener('click', (event) => {
        const button = event.target.closest('button[data-word]');
        if (button) handler(button.dataset.word);
      });
    }
  }

  /**
   * `handler(a, b, c)` when the analogy form is submitted with three words, or a spelling
   * suggested for an unknown word is clicked: it replaces that word in A, B and C, and the
   * analogy is asked again.
   */
  bindAnalogy(handler) {
    const ids = ['analogy-a', 'analogy-b', 'analogy-c'];
    const solve = () => {
      const [a, b, c] = ids.map((id) => parseTypedToken($(id).value, { keepEnds: true }));
      if (a && b && c) handler(a, b, c);
      else this.showAnalogyMessage('Fill in A, B and C.');
    };
    $('analogy-form').addEventListener('submit', (event) => {
      event.preventDefault();
      solve();
    });
    bindSuggestions($('analogy-message'), (word, replaces) => {
      const replaced = ids.filter((id) => [true, false].some((keepEnds) => parseTypedToken($(id).value, { keepEnds }) === replaces));
      for (const id of replaced) $(id).value = displayToken(word);
      if (replaced.length) $(replaced[0]).focus();
      solve();
    });
  }

  /** `handler()` for "Show these four words on the map". */
  bindShowAnalogy(handler) {
    $('analogy-show').addEventListener('click', handler);
  }

  /** `built`: the words of the three not in the vocabulary, built from n-grams. @param {Neighbour[]} cosAdd @param {Neighbour[]} cosMul @param {string[]} [built] */
  showAnalogy(a, b, c, cosAdd, cosMul, built = []) {
    $('analogy-show').hidden = cosAdd.length === 0;
    const [shownA, shownB, shownC] = [a, b, c].map(displayToken);
    const answer = cosAdd[0] ? displayToken(cosAdd[0].word) : '?';
    const note = built.length ? ` (${built.map((w) => `“${displayToken(w)}”`).join(', ')} built from n-grams)` : '';
    $('analogy-message').textContent = `${shownA} is to ${shownB} as ${shownC} is to ${answer}${note}`;
    $('analogy-results').hidden = false;
    $('analogy-cosadd').replaceChildren(...cosAdd.map((n) => this.resultItem(n, true)));
    $('analogy-cosmul').replaceChildren(...cosMul.map((n) => this.resultItem(n, true)));
  }

  /** A message instead of answers: text, or a failure's parts with its suggested spellings as buttons. @param {string|MessagePart[]} message */
  showAnalogyMessage(message) {
    $('analogy-message').replaceChildren(...messageNodes(message));
    $('analogy-results').hidden = true;
    $('analogy-show').hidden = true;
    $('analogy-cosadd').replaceChildren();
    $('analogy-cosmul').replaceChildren();
  }

  /**
   * Where the selected token came from, beside its neighbours: its count and frequency
   * rank; for BPE the merge that made it and whether it spans words; lines of the text
   * where it occurs, the token marked. Null hides it.
   * @param {TokenInfo|null} info @param {boolean} isBpe
   */
  showTokenInfo(info, isBpe) {
    $('token-info').hidden = info == null;
    if (!info) return;
    const shown = displayToken(info.token);
    $('token-info-title').textContent = `Where “${shown}” comes from`;
    /** @type {[string, string][]} */
    const rows = [
      ['Count', integer.format(info.count)],
      ['Frequency rank', integer.format(info.rank + 1)],
    ];
    if (isBpe) {
      const { merge } = info;
      rows.push(merge
        ? ['Merge', `${displayToken(merge.left)} + ${displayToken(merge.right)}`]
        : ['Merge', 'none: a character of the text']);
      if (merge) {
        rows.push(['Merge rank', `${integer.format(merge.rank + 1)} (learned ${ordinal(merge.rank + 1)})`]);
        rows.push(['Pair count', `${integer.format(merge.pairCount)} when merged`]);
      }
      rows.push(['Spans words', info.spansWords ? 'yes: it joins words' : 'no']);
    }
    $('token-info-facts').replaceChildren(...termsAndValues(rows, 'fact'));
    $('token-info-lines-title').textContent = info.concordance.length
      ? `In the text (${info.concordance.length === 1 ? 'the first line' : `the first ${info.concordance.length} lines`}):`
      : 'Not found in the text as written (lowercased or split differently).';
    $('token-info-lines').replaceChildren(...info.concordance.map((line) => {
      const item = document.createElement('li');
      item.append(...markToken(line, info.token).map(({ text, marked }) => {
        if (!marked) return document.createTextNode(revealInvisible(text));
        const mark = document.createElement('mark');
        mark.textContent = revealInvisible(text);
        return mark;
      }));
      return item;
    }));
  }

  /** Clears the answers (neighbours, token facts, analogy, completions) of a model that gave way. */
  /**
   * Explains the signs that stand for whitespace in tokens, or not: only a vocabulary with
   * tokens that hold whitespace (BPE across spaces) shows them.
   */
  showTokenSigns(shown) {
    $('token-signs').hidden = !shown;
  }

  clear() {
    this.showNeighboursMessage('');
    this.showTokenInfo(null, false);
    this.showAnalogyMessage('');
    $('vocab-completions').replaceChildren();
  }
}
