// @ts-check
// The Export card: a button per file, each line saying while its file is built and how
// large it was, and the one way a file is handed to the browser as a download (the
// timeline's recordings use it too). The only code touching those elements.
import { formatBytes } from '../shared/format.js';
import { $ } from '../shared/dom.js';

/** How long a download's object URL lives: the browser has begun the download by then. */
const REVOKE_AFTER_MS = 1000;

/** The Export card's line of the file `name`. */
function downloadItem(name) {
  return [...$('downloads').children].find((item) => item.dataset.file === name);
}

export class ExportPanel {
  /**
   * Offers a button per file, named by the file; `handler(name)` builds that one file when
   * its button is pressed.
   * @param {{name: string, description: string}[]} files
   */
  bindExport(files, handler) {
    $('downloads').replaceChildren(...files.map(({ name, description }) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = name;
      button.disabled = true;
      button.addEventListener('click', () => handler(name));
      const note = document.createElement('span');
      note.className = 'hint';
      note.dataset.description = description;
      note.textContent = ` ${description}`;
      const item = document.createElement('li');
      item.dataset.file = name;
      item.append(button, note);
      return item;
    }));
  }

  /** The download buttons work while there are vectors; one whose file is being built waits. */
  enableDownloads(enabled) {
    this.downloadsEnabled = enabled;
    for (const item of $('downloads').children) {
      item.querySelector('button').disabled = !enabled || item.dataset.busy === 'true';
    }
  }

  /** While the file `name` is built (seconds for large vectors) its line says so. */
  showExporting(name, busy) {
    const item = downloadItem(name);
    const button = item.querySelector('button');
    const note = item.querySelector('.hint');
    item.dataset.busy = String(busy);
    button.disabled = busy || !this.downloadsEnabled;
    button.setAttribute('aria-busy', String(busy));
    if (busy) note.textContent = ` ${note.dataset.description}: preparing…`;
    else if (note.textContent.endsWith('preparing…')) note.textContent = ` ${note.dataset.description}`;
  }

  /**
   * Hands `blob` to the browser as the download `name` and lets go of it: the object URL is
   * revoked once the download has begun, and the browser holds the bytes it saves.
   */
  saveFile(name, blob) {
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
    // The timeline's recordings are saved here too, and have no line in the Export card.
    const note = downloadItem(name)?.querySelector('.hint');
    if (note) note.textContent = ` ${note.dataset.description}, ${formatBytes(blob.size)}`;
  }
}
