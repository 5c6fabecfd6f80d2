// @ts-check
// The Export card's files, each built when its button is pressed and handed to the browser;
// nothing is kept afterwards. The vectors come from the worker in the format asked for (a
// bundle with the timeline, so it replays when opened), the plot and its coordinates from the
// page. Exporting the vectors in any format saves them, as far as closing the tab goes.

/**
 * The Export card's files, each built when asked for: the vectors by the worker in its
 * `format` (`savesVectors`: the trained vectors are then kept outside the tab), the plot and
 * its coordinates by the page.
 */
export const EXPORTS = [
  { name: 'embedscope-bundle.json', format: 'bundle', type: 'application/json', savesVectors: true, description: 'vectors, counts, parameters and fingerprint; open it here again' },
  { name: 'vectors.txt', format: 'word2vec', type: 'text/plain', savesVectors: true, description: 'word2vec text format' },
  { name: 'vectors.bin', format: 'word2vecBinary', type: 'application/octet-stream', savesVectors: true, description: 'word2vec binary format' },
  { name: 'vectors.tsv', format: 'projectorVectors', type: 'text/plain', savesVectors: true, description: 'Embedding Projector vectors' },
  { name: 'metadata.tsv', format: 'projectorMetadata', type: 'text/plain', description: 'Embedding Projector words' },
  { name: 'projection.csv', type: 'text/csv', description: 'the plotted words and their 2-D coordinates' },
  { name: 'plot.png', description: 'the plot as drawn' },
  { name: 'plot.svg', description: 'the plot as drawn, as vector graphics' },
];

export class Exports {
  /**
   * @param {import('../app/view.js').View} view  its Export card, its map (the PNG and SVG), its notices
   * @param {import('../map/map-model.js').MapModel} mapModel  the scene the CSV holds
   * @param {import('../timeline/timeline.js').Timeline} timeline  what a bundle replays
   * @param {{request: (type: string, fields?: object) => Promise<any>, saved: () => void}} host  the controller:
   *   its request that shows a failure as a notice, and what to call once the vectors are saved
   */
  constructor(view, mapModel, timeline, host) {
    this.view = view;
    this.mapModel = mapModel;
    this.timeline = timeline;
    this.host = host;
    /** The exports being built, by file name: a second press of the same button does nothing. */
    this.exporting = new Set();
    view.exportPanel.bindExport(EXPORTS, (name) => this.export(name));
  }

  /**
   * Builds the one file `name` of the Export card when its button is pressed and hands it to
   * the browser; nothing is kept afterwards. A second press while it builds does nothing.
   * Exporting the vectors in any format saves them, as far as closing the tab goes.
   */
  async export(name) {
    if (this.exporting.has(name)) return;
    const file = EXPORTS.find((f) => f.name === name);
    this.exporting.add(name);
    this.view.exportPanel.showExporting(name, true);
    try {
      const blob = await this.exportBlob(file);
      if (!blob) return;
      if (file.savesVectors) this.host.saved();
      this.view.exportPanel.saveFile(name, blob);
    } finally {
      this.exporting.delete(name);
      this.view.exportPanel.showExporting(name, false);
    }
  }

  /** The file's contents: vectors from the worker, the plot from the page; null when there are none. */
  async exportBlob(file) {
    if (file.format) {
      // A bundle holds the timeline too, so it replays when opened.
      const timeline = file.format === 'bundle' ? this.timeline.forBundle() : undefined;
      const reply = await this.host.request('export', { format: file.format, timeline });
      // The blob takes the bytes; the transferred buffer is let go with the reply.
      return reply && new Blob([reply.bytes], { type: file.type });
    }
    const scene = this.mapModel.scene;
    if (!scene) {
      this.view.showNotice('There is no plot yet to export: train or open vectors first.');
      return null;
    }
    if (file.name === 'projection.csv') return new Blob([projectionCsv(scene)], { type: file.type });
    if (file.name === 'plot.png') return this.view.map.png();
    return new Blob([this.view.map.svg()], { type: 'image/svg+xml' });
  }
}

/**
 * The plotted words with their coordinates on the map's axes, as CSV (RFC 4180: a field
 * holding a comma, a quote or a line break is quoted, quotes doubled). Words are written
 * exactly, whitespace and all.
 */
export function projectionCsv(scene) {
  const field = (text) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const { xLabel, yLabel } = scene.options;
  // A t-SNE or UMAP map names how it was made in its column titles: a CSV has nowhere else.
  const made = scene.method ? ` (${scene.method})` : '';
  const rows = [['word', `${xLabel}${made}`, `${yLabel}${made}`].map(field).join(',')];
  scene.words.forEach((word, i) => { rows.push(`${field(word)},${scene.coords[2 * i]},${scene.coords[2 * i + 1]}`); });
  return `${rows.join('\r\n')}\r\n`;
}
