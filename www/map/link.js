// @ts-check
// The link to a view: the built-in text shown (the sample, or the King James Bible), the
// parameters its model was trained with (the form as it was), and the map's state
// (MapModel.linkState), kept in the address's hash as the view changes and copied by "Copy
// link". A text of the person's own cannot be reopened by a link, so it has none. Opening a
// link is the controller's (`Controller.restoreLink`): it trains the text with them.

export class Link {
  /**
   * @param {import('./map-model.js').MapModel} mapModel
   * @param {import('./map-panel.js').MapPanel} panel
   * @param {() => 'sample'|'kjv'|null} text  the built-in text shown, or null
   * @param {() => Record<string, string|boolean>|null} params  the form as it was for the model shown
   */
  constructor(mapModel, panel, text, params) {
    this.mapModel = mapModel;
    this.panel = panel;
    this.text = text;
    this.params = params;
    panel.bindCopyLink(() => this.copy());
  }

  /** The link's state: the built-in text shown, the parameters its model was trained with, and the map's view of it. */
  state() {
    const state = this.mapModel.linkState();
    const text = this.text();
    if (!text) return null;
    state.set('text', text);
    const params = this.params();
    if (params) state.set('params', JSON.stringify(params));
    return state;
  }

  /** Keeps the address's hash on the view (built-in texts only: others cannot be reopened by a link). */
  changed() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const state = this.state();
      const hash = state ? `#${state}` : '';
      if (location.hash !== hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
    }, 200);
  }

  async copy() {
    const state = this.state();
    if (!state) {
      this.panel.showLinkCopied('A link can restore the view of a built-in text only: this text is your own file.');
      return;
    }
    const url = `${location.origin}${location.pathname}${location.search}#${state}`;
    try {
      await navigator.clipboard.writeText(url);
      this.panel.showLinkCopied('Link copied: it opens this text, trains it with the same parameters and seed (the same vectors on 1 thread) and shows this view.');
    } catch {
      this.panel.showLinkCopied(`Copy this link: ${url}`);
    }
  }
}
