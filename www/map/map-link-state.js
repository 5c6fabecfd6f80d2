// @ts-check
// The map's part of a link: what `MapModel` shows (settings, colouring, search, density,
// selection, the selected word and the camera) written to and restored from the
// URLSearchParams the link keeps (`Link` adds the text and the model's parameters).
import { isWordsShown } from './map-panel.js';

/**
 * The state a link keeps of `model`'s map (with the text, which the controller adds).
 * @param {import('./map-model.js').MapModel} model
 */
export function linkState(model) {
  const s = model.settings;
  const state = new URLSearchParams();
  if (s.nWords !== model.defaults.nWords) state.set('words', String(s.nWords));
  if (s.xComponent !== model.defaults.xComponent || s.yComponent !== model.defaults.yComponent) state.set('pcs', `${s.xComponent},${s.yComponent}`);
  if (s.axes.x) state.set('x', s.axes.x.join('\n'));
  if (s.axes.y) state.set('y', s.axes.y.join('\n'));
  if (s.isolate) state.set('isolate', s.isolate.join('\n'));
  if (s.method !== 'pca') {
    state.set('method', s.method);
    if (s.layout) state.set('layout', JSON.stringify(s.layout));
  }
  if (model.colour.kind !== 'none') state.set('colour', model.colour.kind === 'clusters' ? `clusters:${model.colour.k}` : model.colour.kind);
  if (model.search.query) state.set(model.search.regex ? 'regex' : 'find', model.search.query);
  if (model.density.on) state.set('density', '1');
  if (model.selection.length) state.set('select', model.selection.join('\n'));
  if (model.answers.selected) state.set('word', model.answers.selected);
  const view = model.map.view();
  if (view) state.set('view', view.map((v) => v.toPrecision(6)).join(','));
  return state;
}

/**
 * Restores a link's state (a URLSearchParams): settings, colouring, search and selection
 * at once; the camera once the first frame is drawn. Values that make no sense are left out.
 * @param {import('./map-model.js').MapModel} model
 * @param {URLSearchParams} state
 */
export async function restoreLinkState(model, state) {
  const list = (name) => (state.has(name) ? state.get(name).split('\n').filter(Boolean) : null);
  const pair = (name) => { const words = list(name); return words?.length === 2 ? words : null; };
  const words = Number(state.get('words'));
  const [xc, yc] = (state.get('pcs') ?? `${model.defaults.xComponent},${model.defaults.yComponent}`).split(',').map(Number);
  const colour = state.get('colour') ?? 'none';
  const [kind, k] = colour.split(':');
  if (['frequency', 'clusters', 'search'].includes(kind)) {
    model.colour = { kind, k: Math.min(50, Math.max(2, Number(k) || 8)) };
  }
  model.panel.setColour(model.colour);
  if (state.get('density') === '1') {
    model.panel.setDensity(true);
    model.density.setOn(true);
  }
  const regex = state.has('regex');
  model.search = { query: state.get(regex ? 'regex' : 'find') ?? '', regex };
  model.panel.setFind(model.search.query, regex);
  model.selection = list('select') ?? [];
  model.panel.showSelection(model.selection);
  const method = ['tsne', 'umap'].includes(state.get('method')) ? state.get('method') : 'pca';
  let layout = model.settings.layout;
  try {
    const given = JSON.parse(state.get('layout') ?? 'null');
    if (given && typeof given === 'object') {
      model.panel.setMethod(method, { ...layout, ...given });
      layout = model.panel.readLayout() ?? layout;
    }
  } catch {
    // A link with a broken layout keeps the form's parameters.
  }
  model.panel.setMethod(method, layout ?? {});
  const changes = {
    method,
    layout,
    nWords: isWordsShown(words) ? words : model.settings.nWords,
    xComponent: Number.isInteger(xc) && xc >= 0 ? xc : 0,
    yComponent: Number.isInteger(yc) && yc >= 0 && yc !== xc ? yc : 1,
    axes: { x: pair('x'), y: pair('y') },
    isolate: list('isolate'),
    clusters: model.colour.kind === 'clusters' ? model.colour.k : 0,
  };
  model.panel.setProjection(changes);
  await model.project(changes, { refit: true });
  const view = (state.get('view') ?? '').split(',').map(Number);
  if (view.length === 4 && view.every(Number.isFinite) && view[0] < view[1] && view[2] < view[3]) {
    model.map.setView(/** @type {[number, number, number, number]} */ (view));
  }
  const word = state.get('word');
  if (word) model.host.select(word);
}
