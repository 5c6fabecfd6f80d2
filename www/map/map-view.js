// @ts-check
// The map on the page: the canvas, its camera, the glide between frames and the input,
// drawn through the wasm `Chart` from typed arrays (one call per redraw, never one per
// word). It owns the canvas and the elements drawn over it (tooltip, selection
// rectangle); the controller gives it scenes and hears what the person picks.
//
// Drawing is driven by requestAnimationFrame: a new scene, a zoom or a pan asks for a
// redraw, and while points glide or the camera eases, each display frame draws the state
// of that moment. So a frame from the worker never waits for the picture, and the
// picture never waits for the worker.
import { displayToken } from '../shared/tokens.js';
import { Camera, bounds } from './camera.js';
import { Glide, sameWords } from './glide.js';
import { bindMapInput } from './interaction.js';
import { readPalette } from './palette.js';

/** How close (CSS px) the pointer must be to a point to hover or pick it. */
const HIT_RADIUS = 8;
/**
 * Above this many points, a redraw while the camera moves (eases, or the person moved it
 * within `STILL_MS`) labels only the words that must be (selected, hovered, found): placing
 * the others, measuring and making the glyphs of those new to the view cost as much as the
 * dots of 250,000 points, and they change with every wheel notch. The labels come back
 * with the redraw once the camera is still.
 */
const LABELS_STILL_ABOVE = 50_000;
const STILL_MS = 150;
/** Cluster names are drawn until the view is zoomed in this far from the fitted one: then the words' own labels say more. */
const CLUSTER_NAMES_ZOOM = 3;
/** Runs `task` when the page is idle (soon, where the browser cannot say). */
const whenIdle = (task) => (globalThis.requestIdleCallback ? requestIdleCallback(task) : setTimeout(task, 0));
const cancelIdle = (handle) => (globalThis.cancelIdleCallback ? cancelIdleCallback(handle) : clearTimeout(handle));

/**
 * What the map shows: the words of its points (point i is word i), their coordinates (flat
 * x, y), each point's style (see palette.js; empty for all plain) and the chart's options
 * without `fixedRange`, which the camera gives. `frame` is the worker's frame the points
 * come from: a scene of a new frame glides to it, a scene of the same frame (a new
 * selection, say) only redraws.
 * @typedef {{frame: object, words: string[], coords: Float32Array, styles: Uint8Array,
 *   options: object}} MapScene
 */

export class MapView {
  /**
   * @param {typeof import('../pkg/embedscope.js').Chart} Chart
   * @param {{canvas: HTMLCanvasElement, tooltip: HTMLElement, region: HTMLElement, empty: HTMLElement, drawn?: HTMLElement}} elements
   */
  constructor(Chart, elements) {
    this.elements = elements;
    this.canvas = elements.canvas;
    this.chart = new Chart(this.canvas);
    this.camera = new Camera();
    this.glide = new Glide();
    /** @type {MapScene|null} */
    this.scene = null;
    this.words = null;
    this.pending = false;
    this.regionTool = false;
    /** When the camera last moved, and the redraw that labels the map once it is still. */
    this.lastMove = -Infinity;
    this.stillTimer = 0;
    /** Whether the next redraw leaves the labels to the one after it (see `labelNextFrame`). */
    this.labelsLater = false;
    /** The map a search's layer was last asked for (see `prepareSearchLayer`), and whether the chart keeps it. */
    this.searchLayer = null;
    this.searchLayerReady = false;
    this.searchLayerTask = 0;
    /** The density layer drawn under the dots (see `setDensity`), or null. */
    this.density = null;
    /**
     * What the view reports, set by the `bindX` methods.
     * @type {{pick: (index: number, options: {add: boolean}) => void, region: (indices: number[], options: {add: boolean}) => void,
     *   hover: (index: number|null) => void, escape: () => void, camera: () => void}}
     */
    this.handlers = { pick: () => {}, region: () => {}, hover: () => {}, escape: () => {}, camera: () => {} };
    /** Time of the last redraws in ms, newest last, and how many there were in all (tests read them). */
    this.drawTimes = [];
    this.draws = 0;
    this.applyPalette();
    /** What the pointer, wheel and keys do, built once; the buttons call it too. */
    this.actions = this.makeActions();
    bindMapInput(this.canvas, this.actions);
    // The first drawing in a page costs tens of milliseconds more than the next ones (the
    // canvas, its fonts and the dots' image are set up): spend them while the page is idle,
    // not in the middle of the first frames of a training.
    setTimeout(() => this.warmUp(), 0);
  }

  /** Draws a dot and its label, then clears the canvas, unless a scene came first. */
  warmUp() {
    if (this.scene) return;
    this.chart.draw_scatter(new Float32Array([0, 0, 1, 1]), ['a', 'b'], { labelCount: 2 });
    if (!this.scene) this.canvas.getContext('2d').clearRect(0, 0, this.canvas.width, this.canvas.height);
  }

  /** The stylesheet's colours changed (a theme): read them again and redraw. */
  applyPalette() {
    /** The colours drawn with (the legend shows the same). */
    this.palette = readPalette(this.canvas.parentElement);
    this.chart.set_palette(this.palette);
    this.requestDraw();
  }

  /** The canvas changed size. */
  resize() {
    this.chart.resize();
    this.requestDraw();
  }

  /** Shows `scene`, or clears the map when it is null (no frame yet). */
  show(scene) {
    const now = performance.now();
    this.elements.empty.hidden = scene != null;
    const previous = this.scene;
    this.scene = scene;
    if (!scene) {
      this.camera.clear();
      this.words = null;
      this.showTooltip(null);
      const { canvas } = this;
      canvas.getContext('2d').clearRect(0, 0, canvas.width, canvas.height);
      delete canvas.dataset.range;
      this.showDrawn(0);
      return;
    }
    // Labels are measured once per word list: frames while training keep their words.
    if (!this.words || !sameWords(scene.words, this.words)) {
      this.chart.set_words(scene.words.map(displayToken));
    }
    this.words = scene.words;
    if (scene.frame !== previous?.frame || scene.coords !== previous?.coords) {
      this.glide.set(scene.words, scene.coords, now, { instant: previous == null });
      if (this.camera.follow(bounds(scene.coords), now)) this.cameraMoved();
    }
    this.requestDraw();
  }

  /** Forget the camera: the next scene is fitted (new vectors, another projection). */
  refit() {
    this.camera.clear();
  }

  /** The camera's range as `[x0, x1, y0, y1]` when the person moved it, else null. */
  view() {
    const r = this.camera.target;
    return this.camera.moved && r ? [r.x0, r.x1, r.y0, r.y1] : null;
  }

  /** Puts the camera on `[x0, x1, y0, y1]` (from a link). */
  setView([x0, x1, y0, y1]) {
    this.camera.place({ x0, x1, y0, y1 });
    this.cameraMoved();
  }

  /** `handler(index, {add})` when a point is clicked or tapped (`add` with Shift). */
  bindPick(handler) { this.handlers.pick = handler; }
  /** `handler(indices, {add})` when a region is selected. */
  bindRegion(handler) { this.handlers.region = handler; }
  /** `handler(index|null)` as the pointer moves over a point or leaves it. */
  bindHover(handler) { this.handlers.hover = handler; }
  /** `handler()` on Escape. */
  bindEscape(handler) { this.handlers.escape = handler; }
  /** `handler()` after the person moved the camera or it eased to new points. */
  bindCamera(handler) { this.handlers.camera = handler; }

  zoomBy(factor) {
    const { width, height } = this.canvas.getBoundingClientRect();
    this.actions.zoomAt(width / 2, height / 2, factor);
  }

  resetView() {
    this.actions.reset();
  }

  setRegionTool(on) {
    this.regionTool = on;
    this.canvas.style.cursor = on ? 'crosshair' : '';
  }

  requestDraw() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => this.draw(performance.now()));
  }

  /** Draws the scene as it stands at `now`; goes on each display frame while it moves. */
  draw(now) {
    this.pending = false;
    const scene = this.scene;
    if (!scene) return;
    const range = this.camera.at(now);
    const started = performance.now();
    const options = this.drawOptions(scene, range);
    const moving = this.camera.easing(now) || now - this.lastMove < STILL_MS;
    options.moving = moving;
    const crowded = scene.words.length > LABELS_STILL_ABOVE;
    if (crowded && moving) {
      options.labelCount = 0;
      clearTimeout(this.stillTimer);
      this.stillTimer = setTimeout(() => this.requestDraw(), STILL_MS);
    }
    const labelLater = crowded && this.labelsLater && !moving;
    this.labelsLater = false;
    if (labelLater) options.labelCount = 0;
    const coords = this.glide.at(now);
    this.chart.draw_map(coords, scene.styles, options);
    this.drawTimes.push(performance.now() - started);
    this.draws += 1;
    if (this.drawTimes.length > 120) this.drawTimes.shift();
    const target = this.camera.target;
    this.canvas.dataset.range = [target.x0, target.x1, target.y0, target.y1].join(',');
    this.canvas.dataset.labels = String(this.chart.labels_placed());
    this.showDrawn(scene.words.length);
    if (!moving && !this.glide.moving(now)) this.prepareSearchLayer(coords, options);
    if (labelLater || this.glide.moving(now) || this.camera.easing(now) || this.chart.labels_deferred()) this.requestDraw();
  }

  /**
   * The next redraw shows new marks (a search's matches) labelling only the words that must
   * be, and the one after it, a frame later, labels the rest. Over `LABELS_STILL_ABOVE`
   * points, placing the matches' labels, measuring and making the glyphs of those new to the
   * map cost as much as the rest of the redraw: the matches show a frame sooner.
   */
  labelNextFrame() {
    this.labelsLater = true;
  }

  /**
   * Has the chart lay, when the page is next idle, the layer a search's redraw of the map
   * as it stands begins with (see `Chart.prepare_search`), once for each map: so the first
   * keystroke of a search, after the camera moved or the map changed, redraws as fast as
   * the next ones. A map that changed before then is readied by its own redraw.
   */
  prepareSearchLayer(coords, options) {
    const { width, height } = this.canvas;
    const { words } = this;
    const key = [words, coords, options.fixedRange.join(), width, height, this.palette, this.density];
    const same = (a, b) => a != null && a.length === b.length && a.every((v, i) => v === b[i]);
    if (same(this.searchLayer, key)) return;
    this.searchLayer = key;
    this.searchLayerReady = false;
    cancelIdle(this.searchLayerTask);
    this.searchLayerTask = whenIdle(() => {
      // Asked for a map since replaced (its own redraw asks again), or no longer shown: the
      // chart may hold other words already (`show` gives it a new list before the redraw).
      if (this.searchLayer !== key || !this.scene || this.words !== words) return;
      this.searchLayerReady = this.chart.prepare_search(coords, options);
    });
  }

  /** Says how the map is drawn and how many points: the canvas's pixels are written by the wasm raster, on the CPU. */
  showDrawn(points) {
    const { drawn } = this.elements;
    const text = points > 0 ? `Drawn on the CPU: ${points.toLocaleString('en')} ${points === 1 ? 'point' : 'points'}` : '';
    if (drawn && drawn.textContent !== text) drawn.textContent = text;
  }

  /** The map as drawn, as SVG of the canvas's CSS size; null before a scene. */
  svg() {
    const scene = this.scene;
    if (!scene) return null;
    const { width, height } = this.canvas.getBoundingClientRect();
    const range = this.camera.at(performance.now());
    const options = this.drawOptions(scene, range);
    return this.chart.map_svg(this.glide.at(performance.now()), scene.styles, options, Math.round(width), Math.round(height));
  }

  /** The chart's options for `scene` seen over `range`: cluster names only while zoomed out. */
  drawOptions(scene, range) {
    const options = { ...scene.options, fixedRange: [range.x0, range.x1, range.y0, range.y1] };
    const home = this.camera.home;
    if (options.clusterNames && home && (home.x1 - home.x0) / (range.x1 - range.x0) > CLUSTER_NAMES_ZOOM) delete options.clusterNames;
    return options;
  }

  /**
   * Draws the density layer `{values, columns, rows, range: [x0, x1, y0, y1]}` under the
   * dots from now on (www/map/density.js), or none when null.
   */
  setDensity(layer) {
    if (layer) {
      const [x0, x1, y0, y1] = layer.range;
      this.chart.set_density(layer.values, layer.columns, layer.rows, x0, x1, y0, y1);
    } else {
      this.chart.clear_density();
    }
    this.density = layer;
    this.requestDraw();
  }

  /** The view the density layer is estimated for: the camera's range and the plotting area's size in CSS pixels. */
  densityView() {
    const range = this.camera.target;
    if (!range || !this.scene) return null;
    const [left, top, right, bottom] = this.chart.plot_frame();
    // Not drawn yet: no plotting area to size the grid by.
    if (!(right - left >= 2 && bottom - top >= 2)) return null;
    return { range, width: right - left, height: bottom - top };
  }

  png() {
    return new Promise((resolve) => this.canvas.toBlob(resolve, 'image/png'));
  }

  showTooltip(word, x = 0, y = 0) {
    const { tooltip } = this.elements;
    tooltip.hidden = word == null;
    if (!this.regionTool) this.canvas.style.cursor = word == null ? '' : 'pointer';
    if (word == null) return;
    tooltip.textContent = displayToken(word);
    tooltip.style.left = `${x + 12}px`;
    tooltip.style.top = `${y + 12}px`;
  }

  cameraMoved() {
    this.lastMove = performance.now();
    this.requestDraw();
    this.handlers.camera();
  }

  /** The plotting area's position as fractions: what the camera works in. */
  fraction(x, y) {
    const [left, top, right, bottom] = this.chart.plot_frame();
    return [(x - left) / Math.max(1, right - left), (y - top) / Math.max(1, bottom - top)];
  }

  /** @returns {import('./interaction.js').MapInput} */
  makeActions() {
    const now = () => performance.now();
    const hit = (x, y) => (this.scene ? this.chart.hit(x, y, HIT_RADIUS) ?? null : null);
    return {
      zoomAt: (x, y, factor) => {
        const [fx, fy] = this.fraction(x, y);
        this.camera.zoomAt(fx, fy, factor, now());
        this.cameraMoved();
      },
      panBy: (dx, dy) => {
        const [left, top, right, bottom] = this.chart.plot_frame();
        this.camera.pan(dx / Math.max(1, right - left), dy / Math.max(1, bottom - top), now());
        this.cameraMoved();
      },
      panFraction: (fx, fy) => {
        this.camera.pan(fx, fy, now());
        this.cameraMoved();
      },
      reset: () => {
        this.camera.reset(now());
        this.cameraMoved();
      },
      hover: (x, y) => {
        const index = x == null ? null : hit(x, y);
        this.showTooltip(index == null ? null : this.scene.words[index], x, y);
        this.handlers.hover(index);
      },
      pick: (x, y, options) => {
        const index = hit(x, y);
        if (index != null) this.handlers.pick(index, options);
      },
      drawRegion: (rect) => {
        const { region } = this.elements;
        region.hidden = rect == null;
        if (!rect) return;
        Object.assign(region.style, {
          left: `${Math.min(rect.x0, rect.x1)}px`,
          top: `${Math.min(rect.y0, rect.y1)}px`,
          width: `${Math.abs(rect.x1 - rect.x0)}px`,
          height: `${Math.abs(rect.y1 - rect.y0)}px`,
        });
      },
      selectRegion: (rect, options) => {
        if (!this.scene) return;
        this.handlers.region(Array.from(this.chart.points_in_rect(rect.x0, rect.y0, rect.x1, rect.y1)), options);
      },
      escape: () => this.handlers.escape(),
      regionTool: () => this.regionTool,
    };
  }
}
