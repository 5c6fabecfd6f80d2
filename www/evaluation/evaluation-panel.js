// @ts-check
// The evaluation card: the benchmark chosen (built in, or a file opened or dropped on the
// card; of a zip of several, the file chosen in it), Evaluate, its progress, the scores and
// the worst-answered items, and the sanity check's line after training on the sample. The
// only code touching those elements; text from benchmark files is set with textContent.
import { integer, percent } from '../shared/format.js';
import { displayToken, revealInvisible } from '../shared/tokens.js';
import { $, offerChoice } from '../shared/dom.js';

export class EvaluationPanel {
  /**
   * `handler({benchmark, restrict, ignoreCase})` when Evaluate is pressed; `benchmark` is a
   * built-in name or 'file' (the file opened with `bindBenchmarkFile`).
   */
  bindEvaluate(handler) {
    $('evaluation-form').addEventListener('submit', (event) => {
      event.preventDefault();
      handler(settings());
    });
  }

  /**
   * Offers the files of a benchmark zip that holds several; `handler(name, settings)`
   * evaluates the one chosen, which the benchmark's choice then names. Null hides the offer.
   * @param {{entries: string[], file: string}|null} offer
   * @param {(name: string, settings: {benchmark: string, restrict: number, ignoreCase: boolean}) => void} [handler]
   */
  offerBenchmarkEntries(offer, handler) {
    offerChoice('benchmark-entry', offer && {
      note: `${revealInvisible(offer.file)} holds ${integer.format(offer.entries.length)} files: choose the benchmark to evaluate.`,
      options: offer.entries.map((name) => [name, revealInvisible(name)]),
    }, offer && handler ? (name) => {
      $('benchmark').querySelector('option[value="file"]').textContent = `Your file: ${revealInvisible(`${offer.file}:${name}`)}`;
      handler(name, settings());
    } : undefined);
  }

  /** `handler()` when the person chooses another benchmark (see also `bindBenchmarkFile`). */
  bindBenchmarkChange(handler) {
    $('benchmark').addEventListener('change', () => handler());
  }

  /**
   * `handler(file)` when a benchmark file is opened, or dropped on the evaluation card (a
   * drop anywhere else opens a text or vectors); the choice then names it.
   */
  bindBenchmarkFile(handler) {
    const chosen = (file) => {
      const option = $('benchmark').querySelector('option[value="file"]');
      option.disabled = false;
      option.textContent = `Your file: ${revealInvisible(file.name)}`;
      $('benchmark').value = 'file';
      handler(file);
    };
    $('benchmark-file').addEventListener('change', (event) => {
      const [file] = event.target.files;
      event.target.value = '';
      if (file) chosen(file);
    });
    const card = $('evaluation-form').closest('section');
    // preventDefault marks the drag as the card's; it goes on to the document, whose
    // handler (bindFileChosen) then hides the page's overlay instead of opening the file.
    card.addEventListener('dragover', (event) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      card.classList.add('drop-target');
    });
    card.addEventListener('dragleave', () => card.classList.remove('drop-target'));
    card.addEventListener('drop', (event) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      card.classList.remove('drop-target');
      const [file] = event.dataTransfer.files;
      if (file) chosen(file);
    });
  }

  /**
   * Offers the planted benchmarks (made for the built-in sample, whose text plants them)
   * or not, saying why under the choice. Not offered while one is chosen, the person's file
   * is chosen instead (Evaluate asks for it when none is open); offered again while the
   * file is chosen but none is open, the planted analogies are.
   */
  offerPlanted(offered) {
    const select = $('benchmark');
    const planted = [...select.options].filter((option) => option.value.startsWith('planted-'));
    for (const option of planted) option.disabled = !offered;
    $('benchmark-note').hidden = offered;
    const file = select.querySelector('option[value="file"]');
    if (!offered && planted.includes(select.selectedOptions[0])) select.value = 'file';
    if (offered && select.value === 'file' && file.disabled) select.value = planted[0].value;
  }

  /** The built-in check after training on the sample, or null to hide it. */
  showSanity(text) {
    $('sanity').hidden = text == null;
    $('sanity').textContent = text ?? '';
  }

  showEvaluationMessage(text) {
    $('evaluation-message').textContent = revealInvisible(text ?? '');
  }

  /**
   * A benchmark's scores: per section for analogies, the correlations for similarity, and
   * the worst-answered items, or none (null). Everything from files is set as text.
   * @param {import('../protocol.js').EvaluationReport|null} report
   */
  showEvaluationReport(report) {
    $('evaluation-results').hidden = report == null;
    if (report == null) {
      $('evaluation-table').replaceChildren();
      $('evaluation-worst-title').textContent = '';
      $('evaluation-worst').replaceChildren();
      return;
    }
    const cell = (tag, text) => {
      const element = document.createElement(tag);
      element.textContent = text;
      return element;
    };
    const row = (tag, values) => {
      const tr = document.createElement('tr');
      tr.append(...values.map((value) => cell(tag, value)));
      return tr;
    };
    const accuracy = (correct, covered) => (covered ? percent(correct / covered) : '–');
    const table = $('evaluation-table');
    const worst = $('evaluation-worst');
    if (report.kind === 'analogies') {
      const line = (s) => [s.name, integer.format(s.questions), `${integer.format(s.covered)} (${percent(s.questions ? s.covered / s.questions : 0)})`,
        accuracy(s.correctCosAdd, s.covered), accuracy(s.correctCosMul, s.covered)];
      const body = report.sections.map((section) => row('td', line(section)));
      const total = row('th', line({ ...report.total, name: 'All' }));
      table.replaceChildren(
        cell('caption', 'Analogy accuracy over the questions whose four words are among the most frequent words'),
        row('th', ['Section', 'Questions', 'Covered', '3CosAdd', '3CosMul']),
        ...body,
        total,
      );
      $('evaluation-worst-title').textContent = report.worst.length ? 'Worst-answered questions (3CosAdd)' : '';
      worst.replaceChildren(...report.worst.map((q) => cell('li',
        `${q.words.slice(0, 3).map(displayToken).join(' : ')} :: ${displayToken(q.words[3])} — answered ${q.answer == null ? 'nothing' : displayToken(q.answer)}, expected word ranked ${integer.format(q.rank)}`)));
    } else {
      const number = (value) => (value == null ? 'not defined (fewer than 2 pairs, or no variation)' : value.toFixed(3));
      table.replaceChildren(
        cell('caption', 'Word-pair similarity: correlation of cosine similarity with the human scores'),
        row('th', ['Pairs', 'Found', 'Out of vocabulary', 'Spearman', 'Pearson']),
        row('td', [integer.format(report.pairs), integer.format(report.found), percent(report.oovRatio), number(report.spearman), number(report.pearson)]),
      );
      $('evaluation-worst-title').textContent = report.worst.length ? 'Pairs ranked most differently from the human scores' : '';
      worst.replaceChildren(...report.worst.map((p) => cell('li',
        `${displayToken(p.a)} – ${displayToken(p.b)}: score ${p.gold}, cosine ${p.cosine.toFixed(3)}`)));
    }
  }

  /** Evaluating: `done` of `total` questions. */
  showEvaluationProgress(done, total) {
    $('evaluation-message').textContent = `Evaluating: ${integer.format(done)} of ${integer.format(total)} questions…`;
  }

  /** The Evaluate button works while there are vectors and no evaluation runs. */
  enable(enabled) {
    $('evaluate').disabled = !enabled;
  }

  /** Clears the sanity check and the scores of a model that gave way. */
  clear() {
    this.showSanity(null);
    this.showEvaluationMessage(null);
    this.showEvaluationReport(null);
  }
}

/** The evaluation form's settings: the benchmark chosen, the most frequent words, whether case is ignored. */
function settings() {
  return {
    benchmark: $('benchmark').value,
    restrict: Math.max(1, Math.floor(Number($('eval-restrict').value) || 30000)),
    ignoreCase: $('eval-ignore-case').checked,
  };
}
