// @ts-check
// The timeline's controls under the map (the slider, Play / Pause, the speed, trails, the
// recordings) and the table of a word's neighbours through the epochs: the only code that
// queries or changes these elements. `bindX(handler)` for each action, `showX` for each display.
import { displayToken } from '../shared/tokens.js';
import { $ } from '../shared/dom.js';


/** Replay speeds, in frames a second, as the Speed list offers them. */
export const SPEEDS = { '0.5': 3, '1': 6, '2': 12, '4': 24 };

export class TimelinePanel {
  constructor() {
    this.section = $('timeline');
    this.slider = $('timeline-slider');
    this.play = $('timeline-play');
    this.moment = $('timeline-moment');
  }

  /**
   * Shows `count` frames with frame `index` (0-based) on the slider; `valueText` is what a
   * screen reader says of the slider, `text` the line beside it. Until there are two frames
   * there is nothing to scrub, and the timeline is hidden.
   */
  show(count, index, text, valueText) {
    this.section.hidden = count < 2;
    if (count < 2) return;
    this.slider.max = String(count - 1);
    this.slider.value = String(index);
    this.slider.disabled = count < 2;
    this.slider.setAttribute('aria-valuetext', valueText);
    this.moment.textContent = text;
  }

  /** The note on the frames kept: how many at most, and their memory now. */
  showNote(text) {
    $('timeline-note').textContent = text;
  }

  /**
   * A toggle: its name stays "Play" (the training card has its own Pause), pressed while the
   * replay runs; pressing it again pauses. The title says so to the pointer.
   */
  setPlaying(playing) {
    this.play.setAttribute('aria-pressed', String(playing));
    this.play.title = playing ? 'Playing: press to pause' : 'Replay the frames from the moment shown';
  }

  setRecording(recording, canRecord) {
    const button = $('timeline-video');
    button.textContent = recording ? 'Recording…' : 'Record video (WebM)';
    button.disabled = recording || !canRecord;
    this.play.disabled = recording;
    this.slider.disabled = recording || Number(this.slider.max) < 1;
  }

  /** Frames a second of the chosen speed. */
  readSpeed() {
    return SPEEDS[$('timeline-speed').value] ?? SPEEDS['1'];
  }

  readTrails() {
    return $('timeline-trails').checked;
  }

  /** `handler(index)` as the slider moves (pointer, keys, a screen reader). */
  bindScrub(handler) {
    this.slider.addEventListener('input', () => handler(Number(this.slider.value)));
  }

  bindPlay(handler) {
    this.play.addEventListener('click', () => handler());
  }

  bindSpeed(handler) {
    $('timeline-speed').addEventListener('change', () => handler(this.readSpeed()));
  }

  bindTrails(handler) {
    $('timeline-trails').addEventListener('change', () => handler(this.readTrails()));
  }

  bindVideo(handler) {
    $('timeline-video').addEventListener('click', () => handler());
  }

  bindSvg(handler) {
    $('timeline-svg').addEventListener('click', () => handler());
  }
}

/** The table of a word's nearest neighbours at the end of each epoch, side by side. */
export class HistoryPanel {
  constructor() {
    this.section = $('history');
  }

  hide() {
    this.section.hidden = true;
  }

  showMessage(text) {
    this.section.hidden = false;
    $('history-message').textContent = text;
    $('history-table').replaceChildren();
  }

  /**
   * One column per epoch kept, the nearest neighbour first; a word among the last epoch's
   * neighbours is marked in every column, so one can see when it arrived.
   * @param {import('../protocol.js').NeighbourHistory} history
   */
  show(history) {
    this.section.hidden = false;
    const table = $('history-table');
    const { word, epochs } = history;
    if (!epochs.length) {
      this.showMessage(`The neighbours of ${displayToken(word)} are kept at the end of each epoch: none has ended yet.`);
      return;
    }
    $('history-message').textContent = epochs.length > 1
      ? `Marked: the words among the neighbours at the end of epoch ${epochs.at(-1).epoch}.`
      : '';
    const final = new Set(epochs.at(-1).neighbours.map((n) => n.word));
    const caption = document.createElement('caption');
    caption.textContent = `Nearest neighbours of ${displayToken(word)} at the end of each epoch`;
    const head = document.createElement('tr');
    const corner = document.createElement('th');
    corner.scope = 'col';
    corner.textContent = 'rank';
    head.append(corner);
    for (const e of epochs) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = `epoch ${e.epoch}`;
      head.append(th);
    }
    const rows = Math.max(...epochs.map((e) => e.neighbours.length));
    const body = document.createElement('tbody');
    for (let r = 0; r < rows; r += 1) {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = String(r + 1);
      tr.append(th);
      for (const e of epochs) {
        const td = document.createElement('td');
        const n = e.neighbours[r];
        if (n) {
          td.textContent = displayToken(n.word);
          td.title = `cosine ${n.score.toFixed(3)}`;
          if (final.has(n.word)) td.className = 'final';
        }
        tr.append(td);
      }
      body.append(tr);
    }
    const thead = document.createElement('thead');
    thead.append(head);
    table.replaceChildren(caption, thead, body);
  }
}
