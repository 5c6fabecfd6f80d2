// @ts-check
// The questions asked of the vectors shown, between QueriesPanel and the worker: word
// completions, a word's neighbours (with where the token came from, and its neighbours
// through the epochs), and analogies, whose answers the map draws. An answer of vectors that
// gave way while it was asked is not shown (the host says which model is current).
//
// It knows no DOM and draws nothing itself: QueriesPanel shows the answers, MapModel marks
// them on the map, the Timeline looks up the selected word's history.

import { SUPERSEDED } from '../protocol.js';
import { failureParts } from '../shared/failure.js';

/** @typedef {import('./queries-panel.js').QueriesPanel} QueriesPanel */

const COMPLETIONS = 20;
/** Lines of the text shown where a selected token occurs. */
const CONCORDANCE_LINES = 5;

export class Queries {
  /**
   * @param {QueriesPanel} panel
   * @param {import('../app/worker-client.js').WorkerClient} worker
   * @param {import('../map/map-model.js').MapModel} mapModel
   * @param {import('../timeline/timeline.js').Timeline} timeline
   * @param {{model: () => number|null, idle: () => boolean, hasSource: () => boolean, isBpe: () => boolean,
   *   request: (type: string, fields?: object) => Promise<any>, selected: (word: string) => void}} host  the
   *   controller: the current model, whether nothing is open, whether a text was (not vectors alone), its
   *   tokenizer, its request that shows a failure as a notice, and what else follows the selected word
   */
  constructor(panel, worker, mapModel, timeline, host) {
    this.panel = panel;
    this.worker = worker;
    this.mapModel = mapModel;
    this.timeline = timeline;
    this.host = host;
    this.clear();
    panel.bindShowAnalogy(() => this.analogyWords && mapModel.isolate(this.analogyWords));
    panel.bindWordTyped((prefix) => this.complete(prefix));
    panel.bindSearch((word) => this.search(word));
    panel.bindResultClick((word) => this.select(word));
    panel.bindAnalogy((a, b, c) => this.analogy(a, b, c));
  }

  /** Forgets the selection and the analogy (their model gave way; the view clears their answers). */
  clear() {
    this.selected = null;
    this.analogyWords = null;
  }

  /** Completes `prefix` as typed, or trimmed when no word starts with it as typed. */
  async complete(prefix) {
    if (!prefix || this.host.idle()) return;
    const model = this.host.model();
    const ask = (start) => this.worker.request('complete', { prefix: start, limit: COMPLETIONS }).catch(() => null);
    let reply = await ask(prefix);
    if (!reply?.words.length && prefix.trim() !== prefix && prefix.trim()) reply = await ask(prefix.trim());
    if (reply && this.host.model() === model) this.panel.setCompletions(reply.words);
  }

  /**
   * Selects what the person typed. The token as typed comes first: a language model's
   * " king" holds its space. When no token has that spelling, whitespace at the ends is a
   * stray space of the search box: the token without it is taken, or, since a BPE token
   * often ends in whitespace ("the king "), the most frequent one that differs from it only
   * by whitespace at the end.
   */
  async search(token) {
    if (await this.select(token, { quiet: true })) return;
    const trimmed = token.trim();
    // Only whitespace (which the box shows as ·) that is no token: nothing was typed, really.
    if (!trimmed) {
      this.panel.showNeighboursMessage('Type a word to see its nearest neighbours.');
      return;
    }
    if (trimmed !== token && (await this.select(trimmed, { quiet: true }))) return;
    const reply = await this.worker.request('complete', { prefix: trimmed, limit: COMPLETIONS }).catch(() => null);
    const padded = reply?.words.find((word) => word !== trimmed && word.trimEnd() === trimmed);
    await this.select(padded ?? trimmed);
  }

  /**
   * Selects `word`: lists its neighbours and where it came from, and draws them on the
   * plot. False when the worker could not answer (an unknown word): the Neighbours card
   * says why, with the spellings the vocabulary holds for it, as the Analogy card does for
   * its words (a page-wide notice stayed up after the next word was found); `quiet` then
   * says nothing.
   */
  async select(word, { quiet = false } = {}) {
    this.panel.setSearch(word);
    const k = this.panel.readK();
    const model = this.host.model();
    let failure = null;
    const reply = await this.worker.request('neighbours', { word, k }).catch((error) => {
      failure = error;
      return null;
    });
    // An answer of vectors that gave way meanwhile is not shown.
    if (this.host.model() !== model) return false;
    if (!reply) {
      if (!quiet && failure && failure.message !== SUPERSEDED) this.panel.showNeighboursMessage(failureParts(failure));
      return false;
    }
    this.selected = word;
    this.panel.showNeighbours(word, reply.neighbours, reply.built);
    this.mapModel.setAnswers({ selected: word, neighbours: reply.neighbours });
    this.timeline.showHistory(word);
    this.host.selected(word);
    if (!this.host.hasSource()) return true;
    const info = await this.host.request('tokenInfo', { token: word, maxLines: CONCORDANCE_LINES });
    if (info && this.selected === word && this.host.model() === model) this.panel.showTokenInfo(info.info, this.host.isBpe());
    return true;
  }

  /**
   * Solves "a is to b as c is to ?" for the words as typed, or, when one of them is no
   * token with the whitespace typed at its ends, for all three trimmed.
   */
  async analogy(a, b, c) {
    const model = this.host.model();
    /** @param {string} x @param {string} y @param {string} z */
    const ask = (x, y, z) => this.worker.request('analogy', { a: x, b: y, c: z, k: 5 });
    let words = [a, b, c];
    try {
      let reply;
      try {
        reply = await ask(a, b, c);
      } catch (error) {
        const [x, y, z] = [a.trim(), b.trim(), c.trim()];
        if ((x === a && y === b && z === c) || this.host.model() !== model) throw error;
        words = [x, y, z];
        reply = await ask(x, y, z);
      }
      if (this.host.model() !== model) return;
      const [x, y, z] = words;
      this.panel.showAnalogy(x, y, z, reply.cosAdd, reply.cosMul, reply.built);
      this.analogyWords = reply.cosAdd.length ? [...words, reply.cosAdd[0].word] : null;
    } catch (error) {
      if (this.host.model() !== model) return;
      this.panel.showAnalogyMessage(failureParts(error));
      this.analogyWords = null;
    }
    this.mapModel.setAnswers({ analogyWords: this.analogyWords });
  }
}
