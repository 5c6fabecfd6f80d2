// @ts-check
// The training parameters' form: its numeric fields built from NUMBER_FIELDS, the fields of
// the chosen tokenizer shown, values put in and read out raw, each field's message. The only
// code touching the form (params.js holds the defaults and the checks, knowing no DOM).
import { NUMBER_FIELDS } from './params.js';
import { $ } from '../shared/dom.js';

/** The line under Model, for the model chosen. */
const MODEL_HELP = {
  skipgram: 'skip-gram predicts each word of the window from the one in its middle',
  cbow: "CBOW predicts the middle word from its window's average",
};

export class ParamsForm {
  constructor() {
    this.form = $('params');
    /** @type {{name: string, values: Record<string, string|boolean>}|null} the preset last applied, and the form it left */
    this.preset = null;
    /** @type {Record<string, string>} each wrong field's message, as `showParamErrors` last showed them */
    this.errors = {};
    /** @type {'vectors'|'bundle'|null} vectors opened from a file, whose form shows what the file says */
    this.openedVectors = null;
    this.buildNumberFields();
    this.showChoices();
  }

  /** Builds the numeric fields; one that belongs to a tokenizer goes into its slot in the form. */
  buildNumberFields() {
    for (const { name, label, min, max, integer: whole, help, tokenizer } of NUMBER_FIELDS) {
      const field = document.createElement('div');
      field.className = 'field';
      const id = `param-${name}`;
      const labelElement = document.createElement('label');
      labelElement.htmlFor = id;
      labelElement.textContent = label;
      const input = document.createElement('input');
      Object.assign(input, { id, name, type: 'text', inputMode: whole ? 'numeric' : 'decimal' });
      input.setAttribute('aria-describedby', `${id}-help`);
      input.dataset.min = String(min);
      input.dataset.max = String(max);
      const note = document.createElement('small');
      note.id = `${id}-help`;
      note.className = 'help';
      note.dataset.help = help;
      note.textContent = help;
      field.append(labelElement, input, note);
      if (tokenizer) {
        field.dataset.forTokenizer = tokenizer;
        this.form.querySelector(`[data-field-slot="${name}"]`).replaceWith(field);
      } else {
        this.form.append(field);
      }
    }
  }

  /**
   * Shows only the fields that apply to the chosen tokenizer (lowercase: words; BPE's own)
   * and to the chosen model (shared noise: skip-gram), and under Model what the chosen model
   * does. A hidden field keeps its value for when it shows again (shared noise goes to the
   * worker as false under CBOW: see `checkParams`).
   */
  showChoices() {
    const tokenizer = this.form.elements.namedItem('tokenizer').value;
    for (const field of this.form.querySelectorAll('[data-for-tokenizer]')) {
      field.hidden = field.dataset.forTokenizer !== tokenizer;
    }
    const model = this.form.elements.namedItem('model').value;
    for (const field of this.form.querySelectorAll('[data-for-model]')) {
      field.hidden = field.dataset.forModel !== model;
    }
    $('param-model-help').textContent = MODEL_HELP[model] ?? '';
    this.showSummary();
  }

  /**
   * The line the closed Parameters disclosure shows: the choices that shape the vectors
   * most, and the preset they came from (changed, once the person edits the form).
   */
  showSummary() {
    const raw = this.readParams();
    const parts = [
      raw.model === 'cbow' ? 'CBOW' : 'skip-gram',
      `${raw.dim} dims`,
      `window ${raw.window}`,
      `${raw.epochs} ${Number(raw.epochs) === 1 ? 'epoch' : 'epochs'}`,
    ];
    if (raw.tokenizer === 'bpe') parts.push(`BPE ${raw.bpeVocabSize}`);
    let summary = parts.join(' · ');
    // Opened vectors: what their file says, nothing else (see `showOpenedVectors`).
    if (this.openedVectors) {
      summary = this.openedVectors === 'bundle' ? `${summary} (from the bundle)` : `${raw.dim} dims (from the file)`;
      $('params-summary').textContent = summary;
      $('params-summary').classList.remove('error');
      return;
    }
    if (this.preset) {
      const changed = Object.entries(this.preset.values).some(([name, value]) => raw[name] !== value);
      summary += ` (${this.preset.name}${changed ? ', changed' : ''})`;
    }
    // A wrong value keeps Train disabled: the closed disclosure says which.
    const wrong = NUMBER_FIELDS.filter(({ name }) => this.errors[name]).map(({ label }) => label);
    if (wrong.length) summary = `To fix: ${wrong.join(', ')}`;
    $('params-summary').textContent = summary;
    $('params-summary').classList.toggle('error', wrong.length > 0);
  }

  /** Names the preset the form now holds (`null`: none), for the summary. */
  showPreset(name) {
    this.preset = name ? { name, values: this.readParams() } : null;
    this.showSummary();
  }

  /**
   * @param {Record<string, string|number|boolean>} values  (a bundle's `cbow` sets the Model
   *   choice, its `sharedNoise` the checkbox of that name)
   */
  setParams(values) {
    if (typeof values.cbow === 'boolean') values = { ...values, model: values.cbow ? 'cbow' : 'skipgram' };
    for (const [name, value] of Object.entries(values)) {
      const input = this.form.elements.namedItem(name);
      if (!input) continue;
      if (input.type === 'checkbox') input.checked = Boolean(value);
      else input.value = String(value);
    }
    this.showChoices();
  }

  /** @returns {Record<string, string|boolean>} the form's raw values */
  readParams() {
    const raw = {};
    for (const input of this.form.elements) {
      if (input.name) raw[input.name] = input.type === 'checkbox' ? input.checked : input.value;
    }
    return raw;
  }

  /** Puts each message next to its field and marks the field invalid; `{}` clears them. */
  showParamErrors(errors) {
    for (const { name } of NUMBER_FIELDS) {
      const input = this.form.elements.namedItem(name);
      const note = $(`param-${name}-help`);
      const message = errors[name];
      input.setAttribute('aria-invalid', String(Boolean(message)));
      note.textContent = message ?? note.dataset.help;
      note.classList.toggle('error', Boolean(message));
    }
    this.errors = errors;
    this.showSummary();
  }

  /** `handler(name)` whenever a field changes. */
  bindParamsChange(handler) {
    this.form.addEventListener('input', (event) => {
      this.showChoices();
      handler(event.target.name);
    });
    this.form.addEventListener('submit', (event) => event.preventDefault());
  }

  /**
   * Vectors opened from a file (`'vectors'`, which tell their dimension; `'bundle'`, saved
   * here with their parameters) have nothing to train: the form shows what the file says
   * and takes no change, and a line says so. `null` gives the form back.
   * @param {'vectors'|'bundle'|null} opened
   */
  showOpenedVectors(opened) {
    this.openedVectors = opened;
    for (const element of this.form.elements) /** @type {HTMLInputElement} */ (element).disabled = opened != null;
    $('params-opened').hidden = opened == null;
    $('params-opened').textContent = opened === 'bundle'
      ? 'The parameters these vectors were trained with, from the bundle. Open a text to train.'
      : opened === 'vectors'
        ? 'These vectors were opened from a file: the dimension is theirs; the file does not say the other parameters. Open a text to train.'
        : '';
    this.showSummary();
  }

  /** Says that changed parameters wait for the next training. */
  showParamsPending(pending) {
    $('params-pending').hidden = !pending;
  }
}
