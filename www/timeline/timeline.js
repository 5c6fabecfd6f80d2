// @ts-check
// The training timeline: every frame of the map the page receives is kept (FrameStore), and
// the person can scrub back through them, replay them at a chosen speed, see the paths
// selected words travelled (trails), the moment shown marked on the loss chart, a word's
// neighbours through the epochs, and record the replay as a video. A bundle saved after
// training holds the frames, so an opened bundle replays.
//
// It knows no DOM (TimelinePanel and HistoryPanel show it) and never talks to the worker
// itself: the host (the controller) shows frames on the map and asks the worker.
import { sameWords } from '../map/glide.js';
import { FRAME_BYTES, FRAME_CAP, FrameStore } from './frames.js';
import { canRecord, recordCanvas } from './recorder.js';
import { capitalised } from '../shared/format.js';

/** Frames back a trail reaches at most; it fades from the oldest to the moment shown. */
export const TRAIL_FRAMES = 60;
/** Words that leave trails at most (the selection's first ones). */
const TRAIL_WORDS = 30;

const integer = new Intl.NumberFormat('en');

/** Tokens as people read them: 950, 12.3 k, 1.2 M. */
export function tokenCount(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)} k`;
  return integer.format(n);
}

/** How a frame was made, as the bundle records it: the method and its parameters. */
function mapSpecOf(frame) {
  const method = frame.method ?? 'pca';
  if (method !== 'pca') return { method, nWords: frame.words.length, layout: frame.layout ?? null };
  return { method, nWords: frame.words.length, xComponent: frame.xComponent, yComponent: frame.yComponent,
    axes: frame.axes ?? { x: null, y: null }, isolated: Boolean(frame.isolated) };
}

/** Frames of one segment share their axes and words, so a word's positions in them make a path. */
const segmentKey = (mapSpec) => JSON.stringify(mapSpec);

/**
 * Whether `frame` shows a t-SNE or UMAP map finding its shape from where a PCA of the words
 * put them (a cold start not yet done): its words move because the layout does, not because
 * the vectors did, so no trail goes through it.
 */
const findsItsShape = (frame) => Boolean(frame.layoutProgress && !frame.layoutProgress.warm && !frame.layoutProgress.done);

export class Timeline {
  /**
   * @param {import('./timeline-panel.js').TimelinePanel} panel
   * @param {import('./timeline-panel.js').HistoryPanel} historyPanel
   * @param {{show: (frame: object) => void, redraw: () => void, drawLoss: () => void,
   *   history: (word: string) => Promise<import('../protocol.js').NeighbourHistory|null>, canvas: HTMLCanvasElement,
   *   svg: () => string|null, save: (name: string, blob: Blob) => void}} host
   *   shows a kept frame on the map; redraws the map (new trails) and the loss chart (the
   *   marker); asks the worker for a word's neighbours through time; the map's canvas, its SVG;
   *   hands a file to the browser
   */
  constructor(panel, historyPanel, host) {
    this.panel = panel;
    this.historyPanel = historyPanel;
    this.host = host;
    this.store = new FrameStore();
    /** The frame index shown, or null to follow the newest (live). */
    this.index = null;
    this.playing = null;
    this.recording = false;
    this.trails = panel.readTrails();
    this.recordable = canRecord(host.canvas);
    this.historyWord = null;
    this.pendingScrub = null;
    /** Word → index maps of the word lists, for trails. */
    this.indexes = new WeakMap();

    panel.bindScrub((index) => this.scrub(index));
    panel.bindPlay(() => (this.playing ? this.pause() : this.play()));
    panel.bindTrails((on) => { this.trails = on; host.redraw(); });
    panel.bindVideo(() => this.recordVideo());
    panel.bindSvg(() => this.saveSvg());
  }

  /** Forgets the frames (a new model), and the neighbours shown. */
  clear() {
    this.pause();
    this.store.clear();
    this.index = null;
    this.historyWord = null;
    this.historyPanel.hide();
    this.paint();
  }

  /**
   * A frame arrived from the worker; `progress` is where training stood. It is kept, and
   * the answer says whether the map should show it now: yes while the timeline follows the
   * newest frame. `live` (a frame the person asked for with other settings) returns to it.
   */
  arrived(frame, progress, { live = false } = {}) {
    if (live) this.goLive();
    const mapSpec = mapSpecOf(frame);
    const previous = this.store.last();
    // Opened vectors have no training to tell of: their frame keeps the moment of the bundle's last.
    const from = progress?.tokensTotal ? progress : previous;
    const moment = {
      epoch: from?.epoch ?? 0,
      epochs: from?.epochs ?? 0,
      tokensDone: from?.tokensDone ?? 0,
      tokensTotal: from?.tokensTotal ?? 0,
    };
    const key = segmentKey(mapSpec);
    const entry = { ...frame, ...moment, mapSpec, key, segment: 0 };
    // A PCA frame of the same vectors and map spec is the same map (asked again for other extra
    // words, a selection's neighbours): it takes the last one's place rather than a new moment.
    // t-SNE and UMAP frames of the same vectors are the layout moving, each its own moment.
    const again = previous && mapSpec.method === 'pca' && previous.key === key && previous.tokensDone === moment.tokensDone
      && previous.model === frame.model && sameWords(previous.words, frame.words);
    const showing = this.index == null ? null : this.store.at(this.index);
    const stored = again ? this.store.replaceLast(entry) : this.store.push(entry);
    // Thinning moves the frames down: the one on the map keeps its place on the slider.
    if (showing && this.store.at(this.index) !== showing) {
      const at = this.store.kept.indexOf(showing);
      this.index = at >= 0 ? at : Math.min(this.store.length - 2, Math.floor(this.index / 2));
    }
    const sameSegment = previous && previous.key === key && previous.words === stored.words;
    stored.segment = sameSegment ? previous.segment : (previous?.segment ?? 0) + 1;
    this.paint();
    return this.index == null;
  }

  /** The frames of a bundle (`TimelineData` in protocol.js) replace these. */
  load(data) {
    this.clear();
    if (!data) return;
    const lists = data.wordLists;
    let offset = 0;
    const frames = data.frames.map((f) => {
      const words = lists[f.words];
      const coords = data.coords.subarray(offset, offset + 2 * words.length);
      offset += 2 * words.length;
      const v = f.mapSpec ?? {};
      return {
        words, coords, mapSpec: v, method: v.method === 'pca' ? undefined : v.method, layout: v.layout ?? null,
        xComponent: v.xComponent ?? 0, yComponent: v.yComponent ?? 1, axes: v.axes ?? { x: null, y: null },
        isolated: Boolean(v.isolated), axisLabels: f.axisLabels, explained: [], clusters: null,
        extraWords: [], extraCoords: new Float32Array(0),
        epoch: f.epoch, epochs: f.epochs, tokensDone: f.tokensDone, tokensTotal: f.tokensTotal,
        key: segmentKey(v),
      };
    });
    frames.forEach((f, i) => {
      const p = frames[i - 1];
      f.segment = p && p.key === f.key && p.words === f.words ? p.segment : (p?.segment ?? 0) + 1;
    });
    this.store.load(frames);
    this.paint();
  }

  /** The frames for a bundle (`TimelineData` in protocol.js), or null when there are none. */
  forBundle() {
    const frames = this.store.all();
    if (!frames.length) return null;
    const lists = [];
    const listOf = new Map();
    let length = 0;
    for (const f of frames) {
      if (!listOf.has(f.words)) {
        listOf.set(f.words, lists.length);
        lists.push(f.words);
      }
      length += 2 * f.words.length;
    }
    const coords = new Float32Array(length);
    let offset = 0;
    const meta = frames.map((f) => {
      coords.set(f.coords.subarray(0, 2 * f.words.length), offset);
      offset += 2 * f.words.length;
      return {
        words: listOf.get(f.words), epoch: f.epoch, epochs: f.epochs, tokensDone: f.tokensDone,
        tokensTotal: f.tokensTotal, mapSpec: f.mapSpec, axisLabels: f.axisLabels ?? ['', ''],
      };
    });
    return { wordLists: lists, frames: meta, coords };
  }

  /** The frame on the map: the one scrubbed to, or the newest. */
  shownIndex() {
    return this.index ?? this.store.length - 1;
  }

  shown() {
    return this.store.length ? this.store.at(this.shownIndex()) : null;
  }

  /** Shows frame `index`; the last frame means following the newest again. */
  scrub(index) {
    // Input events come faster than frames are drawn: show the last one asked for, once a display frame.
    const first = this.pendingScrub == null;
    this.pendingScrub = index;
    if (!first) return;
    requestAnimationFrame(() => {
      const i = this.pendingScrub;
      this.pendingScrub = null;
      this.showIndex(i);
    });
  }

  showIndex(index) {
    const last = this.store.length - 1;
    if (last < 0) return;
    const i = Math.max(0, Math.min(last, Math.round(index)));
    this.index = i === last && !this.playing ? null : i;
    this.host.show(this.store.at(i));
    this.paint();
  }

  goLive() {
    this.pause();
    if (this.index == null) return;
    this.index = null;
    const newest = this.store.last();
    if (newest) this.host.show(newest);
    this.paint();
  }

  /**
   * Replays from the moment shown (from the start when that is the end) at the panel's speed,
   * to the newest frame; resolves when it ends or is paused.
   */
  play() {
    if (this.store.length < 2) return Promise.resolve();
    this.pause();
    const startIndex = this.shownIndex() >= this.store.length - 1 ? 0 : this.shownIndex();
    return new Promise((resolve) => {
      const run = { resolve, startedAt: performance.now(), startIndex, version: this.store.version, shown: -1 };
      this.playing = run;
      this.panel.setPlaying(true);
      const tick = (now) => {
        if (this.playing !== run) return;
        const i = Math.min(this.store.length - 1, startIndex + Math.floor(((now - run.startedAt) / 1000) * this.panel.readSpeed()));
        if (i !== run.shown) {
          run.shown = i;
          this.showIndex(i);
        }
        if (i >= this.store.length - 1) {
          this.pause();
          this.index = null;
          this.paint();
          // Following the newest again: the map's caption goes.
          this.host.redraw();
          return;
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  }

  pause() {
    const run = this.playing;
    if (!run) return;
    this.playing = null;
    this.panel.setPlaying(false);
    run.resolve();
  }

  /** Records the replay from the first frame to the newest as a WebM video, and saves it. */
  async recordVideo() {
    const { canvas } = this.host;
    if (this.recording || this.store.length < 2 || !this.recordable) return;
    this.recording = true;
    this.paint();
    let failure = null;
    try {
      this.showIndex(0);
      const blob = await recordCanvas(canvas, () => this.play(), () => this.host.redraw());
      this.host.save('embedscope-timeline.webm', blob);
    } catch (error) {
      failure = error;
    } finally {
      this.recording = false;
      this.paint();
      this.host.redraw();
    }
    if (failure) this.panel.showNote(`No video: ${failure.message}.`);
  }

  /** The map as shown, trails and all, as an SVG file. */
  saveSvg() {
    const svg = this.host.svg();
    if (svg) this.host.save('embedscope-trails.svg', new Blob([svg], { type: 'image/svg+xml' }));
  }

  /**
   * The paths of `words` (in the map's data coordinates, oldest first) over the frames of the
   * shown frame's segment, up to it: at most TRAIL_FRAMES back, and none from a t-SNE or UMAP
   * map finding its shape.
   */
  trailsOf(words) {
    const shown = this.shown();
    if (!this.trails || !shown || !words.length) return [];
    const frames = [];
    for (let i = this.shownIndex(); i >= 0 && frames.length < TRAIL_FRAMES; i -= 1) {
      const f = this.store.at(i);
      if (f.segment !== shown.segment || findsItsShape(f)) break;
      frames.push(f);
    }
    if (frames.length < 2) return [];
    frames.reverse();
    const index = this.wordIndex(shown.words);
    const trails = [];
    for (const word of words.slice(0, TRAIL_WORDS)) {
      const w = index.get(word);
      if (w == null) continue;
      const path = [];
      for (const f of frames) path.push(f.coords[2 * w], f.coords[2 * w + 1]);
      trails.push(path);
    }
    return trails;
  }

  wordIndex(words) {
    let index = this.indexes.get(words);
    if (!index) {
      index = new Map(words.map((word, i) => [word, i]));
      this.indexes.set(words, index);
    }
    return index;
  }

  /** The map's caption while an earlier moment is shown or recorded: that moment; else null. */
  caption() {
    const f = this.shown();
    if (!f || (this.index == null && !this.recording)) return null;
    return f.epoch ? `epoch ${f.epoch}${f.epochs ? ` of ${f.epochs}` : ''} · ${tokenCount(f.tokensDone)} tokens` : 'before training';
  }

  /** Where the loss chart marks the moment shown: `{at, label}` in fractional epochs, or null. */
  marker() {
    const f = this.shown();
    if (!f?.epochs) return null;
    const at = f.tokensTotal > 0 ? (f.epochs * f.tokensDone) / f.tokensTotal : f.epochs;
    return { at, label: `epoch ${f.epoch}, ${tokenCount(f.tokensDone)} tokens` };
  }

  /** Shows `word`'s neighbours through the epochs (asked of the worker), or hides them with null. */
  async showHistory(word) {
    this.historyWord = word;
    if (word == null) {
      this.historyPanel.hide();
      return;
    }
    try {
      const history = await this.host.history(word);
      if (this.historyWord !== word) return;
      // Vectors not trained here (a word2vec file) have none.
      if (history) this.historyPanel.show(history);
      else this.historyPanel.hide();
    } catch (error) {
      if (this.historyWord === word) this.historyPanel.showMessage(`${capitalised(error.message)}.`);
    }
  }

  /** An epoch ended: the word shown gets its new column. */
  epochEnded() {
    if (this.historyWord != null) this.showHistory(this.historyWord);
  }

  paint() {
    const n = this.store.length;
    const i = n ? this.shownIndex() : 0;
    const f = this.shown();
    const method = f ? { pca: 'PCA', tsne: 't-SNE', umap: 'UMAP' }[f.mapSpec.method] ?? f.mapSpec.method : '';
    const moment = !f ? '' : f.epoch
      ? `epoch ${f.epoch}${f.epochs ? ` of ${f.epochs}` : ''}, ${tokenCount(f.tokensDone)} tokens`
      : 'before training';
    const live = this.index == null ? ' (newest)' : '';
    this.panel.show(n, i, `Frame ${i + 1} of ${n}${live} · ${moment} · ${method}`, `frame ${i + 1} of ${n}, ${moment}`);
    this.panel.setRecording(this.recording, n > 1 && this.recordable);
    const bytes = this.store.coordinateBytes();
    const size = bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.ceil(bytes / 1e3)} KB`;
    this.panel.showNote(`Keeps at most ${FRAME_CAP} frames and ${FRAME_BYTES / 2 ** 20} MB, thinned evenly: ${size} now.`);
    this.host.drawLoss();
  }
}
