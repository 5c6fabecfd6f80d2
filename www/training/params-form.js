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
    for (const element of this.form.elements) /** @type {HTMLInputElement} */ (element).disabled = opened != null;
    $('params-opened').hidden = opened == null;
    $('params-opened').textContent = opened === 'bundle'
      ? 'The parameters these vectors were trained with, from the bundle. Open a text to train.'
      : opened === 'vectors'
        ? 'These vectors were opened from a file: the dimension is theirs; the file does not say the other parameters. Open a text to train.'
        : '';
  }

  /** Says that changed parameters wait for the next training. */
  showParamsPending(pending) {
    $('params-pending').hidden = !pending;
  }
}
