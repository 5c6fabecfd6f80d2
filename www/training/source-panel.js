// @ts-check
// Opening a text or vectors: the sample and King James Bible buttons, the file input, a
// file dropped anywhere on the page, and the card of what was opened (a text's statistics
// and its cut, or what a vectors file held). The only code touching those elements; names
// and notes from files are set with textContent, through revealInvisible.
import { capitalised, formatBytes, integer, percent, termsAndValues } from '../shared/format.js';
import { revealInvisible } from '../shared/tokens.js';
import { $, offerChoice } from '../shared/dom.js';
import { filesIn } from './dropped-files.js';

/** @typedef {import('../protocol.js').CorpusStats} CorpusStats */

export class SourcePanel {
  bindUseSample(handler) {
    $('use-sample').addEventListener('click', () => handler());
  }

  /** Shows the King James Bible button; `handler()` when it is clicked. */
  offerKjv(handler) {
    $('use-kjv').hidden = false;
    $('use-kjv').addEventListener('click', () => handler());
  }

  /** `handler(file)` for a file chosen in the input or dropped anywhere on the page. */
  bindFileChosen(handler) {
    $('file-input').addEventListener('change', (event) => {
      const files = [...event.target.files];
      if (files.length) handler(files);
      event.target.value = '';
    });
    const overlay = $('drop-overlay');
    const hasFiles = (event) => event.dataTransfer?.types.includes('Files');
    // A drop target inside the page (the evaluation card) takes its drags itself and says so
    // with preventDefault, letting them reach the document: over it the overlay hides (it
    // would promise to open the file as a text), and its drop still ends the overlay.
    document.addEventListener('dragover', (event) => {
      if (!hasFiles(event)) return;
      overlay.hidden = event.defaultPrevented;
      event.preventDefault();
    });
    document.addEventListener('dragleave', (event) => {
      if (event.relatedTarget == null) overlay.hidden = true;
    });
    document.addEventListener('drop', (event) => {
      if (!hasFiles(event)) return;
      overlay.hidden = true;
      if (event.defaultPrevented) return;
      event.preventDefault();
      // The entries are taken now: the drop's data is gone once the handler returns.
      const entries = [...event.dataTransfer.items].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
      const dropped = [...event.dataTransfer.files];
      if (!entries.some((entry) => entry.isDirectory)) {
        if (dropped.length) handler(dropped);
        return;
      }
      filesIn(entries).then((files) => {
        if (files.length) handler(files);
      });
    });
  }

  /**
   * A model file none of whose tensors has a name models give their token embeddings: its
   * 2-D tensors to choose from; `handler(name)` with the one chosen. Null hides the choice.
   * @param {{file: string, tensors: import('../protocol.js').TensorDto[]}|null} offer @param {(name: string) => void} [handler]
   */
  offerTensors(offer, handler) {
    offerChoice('tensor', offer && {
      note: `No tensor of ${offer.file} has a name models give their token embeddings: choose the matrix to open (tokens × dimensions).`,
      options: offer.tensors.map(({ name, rows, cols, dtype }) => [name, `${name} (${integer.format(rows)} × ${integer.format(cols)}, ${dtype})`]),
    }, handler);
  }

  /**
   * Offers the files of a zip that holds several, `handler(name)` opening the one chosen;
   * null hides the offer.
   * @param {{entries: string[], file: string}|null} offer @param {(name: string) => void} [handler]
   */
  offerEntries(offer, handler) {
    offerChoice('entry', offer && {
      note: `${offer.file} holds ${integer.format(offer.entries.length)} files: choose the one to open.`,
      options: offer.entries.map((name) => [name, name]),
    }, handler);
  }

  /**
   * A Parquet table with several string or list-of-float columns: the candidates to choose
   * the words and the vectors from; `handler(columns)` with the two chosen. Null hides the choice.
   * @param {{file: string, columns: import('../protocol.js').TableColumnsDto}|null} offer
   * @param {(columns: {word: string, vector: string}) => void} [handler]
   */
  offerColumns(offer, handler) {
    const form = $('columns-choice');
    form.hidden = offer == null;
    if (!offer || !handler) return;
    $('columns-note').textContent = `${offer.file} has several columns that may hold the words or the vectors: choose them.`;
    const options = (list) =>
      list.map(({ name, kind }) => {
        const option = document.createElement('option');
        option.value = name;
        option.textContent = `${name} (${kind})`;
        return option;
      });
    $('columns-word').replaceChildren(...options(offer.columns.words));
    $('columns-vector').replaceChildren(...options(offer.columns.vectors));
    form.onsubmit = (event) => {
      event.preventDefault();
      form.hidden = true;
      handler({
        word: /** @type {HTMLSelectElement} */ ($('columns-word')).value,
        vector: /** @type {HTMLSelectElement} */ ($('columns-vector')).value,
      });
    };
    $('columns-word').focus();
  }

  /**
   * Offers to open a fastText model again keeping another number of its most frequent words
   * (`handler(n)`), when the page kept fewer than it holds; null hides the offer.
   * @param {{words: number, fastTextWords?: number}|null} info
   * @param {(maxWords: number) => void} [handler]
   */
  offerWords(info, handler) {
    const form = $('words-choice');
    const total = info?.fastTextWords;
    form.hidden = !info || total == null || total <= info.words;
    if (form.hidden || !info || total == null || !handler) return;
    $('words-note').textContent = `The model holds ${integer.format(total)} words; the page kept the ${integer.format(info.words)} most frequent. More take more memory.`;
    const input = /** @type {HTMLInputElement} */ ($('words-kept'));
    input.max = String(total);
    input.value = String(info.words);
    form.onsubmit = (event) => {
      event.preventDefault();
      form.hidden = true;
      handler(Math.round(Number(input.value)));
    };
  }

  /** `handler()` when the person asks to keep only the text of an XML or HTML file. */
  bindKeepText(handler) {
    $('strip-markup').addEventListener('click', () => handler());
  }

  /**
   * Why the text chosen was refused, in the card of the text (the page's notice may be out of
   * sight); null hides it.
   * @param {string|null} message
   */
  showRefusal(message) {
    $('text-alert').hidden = message == null;
    $('text-alert').textContent = revealInvisible(message ?? '');
  }

  /** The line under the open buttons that names what is open. */
  showName(name) {
    $('source-name').hidden = false;
    $('source-name').textContent = revealInvisible(name);
  }

  /**
   * A text's statistics before training, or `note` while there are none. `text` says how
   * the file was read; a note about its encoding is shown above the cut.
   * @param {string} name
   * @param {CorpusStats|null} stats  null while reading, or when the text was rejected
   * @param {string} [note]  what to say instead of the statistics
   * @param {import('../protocol.js').TextInfo|null} [text]
   */
  showStats(name, stats, note = 'Reading…', text = null) {
    /** What the card shows, to show again when a text read meanwhile is refused (`restore`). */
    this.shown = () => this.showStats(name, stats, note, text);
    this.paintStats(name, stats, note, text);
  }

  /** A text being read: its name and "Reading…", until it is taken (`showStats`) or refused (`restore`). @param {string} name */
  showReading(name) {
    this.paintStats(name, null, 'Reading…', null);
  }

  /** Shows again what the card showed before `showReading`. */
  restore() {
    if (this.shown) this.shown();
    else $('stats').hidden = true;
  }

  /** @param {string} name @param {CorpusStats|null} stats @param {string} note @param {import('../protocol.js').TextInfo|null} text */
  paintStats(name, stats, note, text) {
    $('stats').hidden = false;
    this.showName(name);
    const list = $('stats-list');
    list.replaceChildren();
    // The core's verdicts on the text: markup to take out, and a text too small to learn from.
    $('markup-offer').hidden = !text?.markup;
    $('markup-note').textContent = text?.markup ? `${capitalised(text.markup)}.` : '';
    $('small-text').hidden = !stats?.tooSmall;
    $('small-text').textContent = stats?.tooSmall ? `${capitalised(stats.tooSmall)}. You may still train.` : '';
    if (!stats) {
      $('cut-note').textContent = note;
      return;
    }
    /** @type {[string, string][]} */
    const rows = [
      ['Size', formatBytes(stats.bytes)],
      ['Lines', integer.format(stats.lines)],
      ['Tokens', integer.format(stats.tokens)],
      ['Distinct words', integer.format(stats.types)],
      ['Vocabulary', integer.format(stats.vocabSize)],
      ['Tokens per epoch', integer.format(stats.trainingTokens)],
    ];
    list.replaceChildren(...termsAndValues(rows, 'stat'));
    const dropped = stats.tokens ? stats.tokensBelowMinCount / stats.tokens : 0;
    let cut = `Min count ${integer.format(stats.minCount)} dropped ${integer.format(stats.typesBelowMinCount)} ` +
      `rare words (${integer.format(stats.tokensBelowMinCount)} tokens, ${percent(dropped)}).`;
    if (stats.typesOverMaxVocab) {
      cut += ` The vocabulary limit dropped ${integer.format(stats.typesOverMaxVocab)} more.`;
    }
    $('cut-note').textContent = text?.note ? `${capitalised(text.note)}. ${cut}` : cut;
    $('stats').dataset.encoding = text?.encoding ?? '';
  }

  /**
   * What a vectors file held, in place of a text's statistics (a model's tensor and dtype too).
   * `info.fastText`: a fastText model's settings, when the vectors are one's.
   * @param {string} name @param {import('../protocol.js').VectorsInfo & {model?: import('../protocol.js').ModelInfoDto, fastText?: string}} info
   */
  showVectorsStats(name, info) {
    this.shown = () => this.showVectorsStats(name, info);
    $('stats').hidden = false;
    $('markup-offer').hidden = true;
    $('small-text').hidden = true;
    this.showName(name);
    /** @type {[string, string][]} */
    const rows = [
      ['Format', info.format],
      ['Size', formatBytes(info.bytes)],
      ['Vocabulary', integer.format(info.words)],
      ['Dimensions', integer.format(info.dim)],
    ];
    if (info.fingerprint) rows.push(['Run', info.fingerprint]);
    if (info.fastText) rows.push(['Model', info.fastText], ['Kept', info.note ?? '']);
    const { model } = info;
    if (model) {
      rows[2] = ['Tokens', integer.format(info.words)];
      rows.push(['Tensor', model.tensor], ['Dtype', `${model.dtype} (kept as ${model.kept})`]);
    }
    $('stats-list').replaceChildren(...termsAndValues(rows, 'stat'));
    $('cut-note').textContent = model
      ? `A language model's token embeddings, one row a token, the earliest tokens first${
          model.special ? `, its ${integer.format(model.special)} special and unused tokens last, off the map` : ''
        }: explore, evaluate or export them. ${model.tokenizer ? `Tokens named by ${model.tokenizer}.` : 'No tokenizer.json came with it, so rows are named by their token ids.'}`
      : info.fastText
        ? 'A fastText model: its words with their counts, each word its row and its character n-grams averaged. A word it lacks gets a vector built from its n-grams, in neighbours, analogies and benchmarks.'
        : info.counts
        ? 'Vectors with their word counts: explore, evaluate or export them.'
        : /Parquet/.test(info.format)
          ? 'Vectors only, in the order of the table\'s rows (it holds no counts, so the map\'s "most frequent" words are its first rows): explore, evaluate or export them.'
          : 'Vectors only, most frequent word first as the file lists them: explore, evaluate or export them.';
  }
}
