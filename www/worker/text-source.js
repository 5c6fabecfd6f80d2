// @ts-check
// The session's text: where it came from, read once (a file a slice at a time, with
// `readProgress`; a text the server holds; the built-in sample, which the session writes),
// and the `readText` and `stripMarkup` requests. A read that a read of another text
// replaced stops (the scheduler's 'textRead'), and a request that a newer one replaced
// never makes its text the session's, so it cannot wipe the newer text's trainer.
import { SUPERSEDED } from '../protocol.js';
import { post } from './messages.js';
import { contents, head, isCompressed, joined, slices } from './file-bytes.js';

/** @typedef {import('../protocol.js').Source} Source */
/** @typedef {import('../protocol.js').TextInfo} TextInfo */
/** @typedef {import('./scheduler.js').Token} Token */

export class TextSource {
  /**
   * @param {import('../pkg/embedscope.js').Session} session
   * @param {import('./session-state.js').SessionState} state
   * @param {import('./scheduler.js').Scheduler} scheduler
   */
  constructor(session, state, scheduler) {
    this.session = session;
    this.state = state;
    this.scheduler = scheduler;
    /** What the session's text came from ('sample', a file's opening `file #key`, or a URL), so preparing again does not read it again. @type {string|null} */
    this.from = null;
    /** @type {TextInfo|null} how that text was read */
    this.info = null;
    /** @type {{from: string, token: Token, bytes: Promise<Uint8Array|null>|null}|null} the text being read: where from, and the promise of its bytes (null for the sample) */
    this.reading = null;
  }

  /** The session's text gave way to vectors: the next request for a text reads it again. */
  forget() {
    this.from = null;
  }

  /**
   * Gives the session the text of `source`, unless it holds it already; returns how it was
   * read. A file is refused before reading when it is too large. A request for the text being
   * read waits for that read rather than starting another. `token` is the request's: one that
   * a newer one (or `stop`) cancelled throws SUPERSEDED once its text is read.
   * @param {Source} source @param {Token} token
   */
  async use(source, token) {
    const from = source.kind === 'sample' ? 'sample' : source.kind === 'file' ? `file #${source.key}` : source.url;
    if (from === this.from) return this.info;
    if (this.reading?.from !== from) {
      const read = { from, token: this.scheduler.begin('textRead'), bytes: null };
      read.bytes = this.read(source, () => !read.token.cancelled);
      this.reading = read;
    }
    const mine = this.reading;
    try {
      const bytes = await mine.bytes;
      token.check();
      // Another request for the same text may have installed it meanwhile.
      if (this.from !== from) {
        this.state.check('replaceText');
        this.info = bytes == null ? this.session.set_sample_text() : this.session.set_text(bytes);
        this.from = from;
        this.state.fire('replaceText');
      }
      return this.info;
    } finally {
      if (this.reading === mine) {
        this.reading = null;
        mine.token.end();
      }
    }
  }

  /**
   * The bytes of `source` (null for the built-in sample, which the session writes itself);
   * stops with SUPERSEDED between slices once `wanted()` is false.
   * @param {Source} source @param {() => boolean} wanted
   */
  async read(source, wanted) {
    if (source.kind === 'sample') return null;
    if (source.kind === 'file') {
      this.session.check_text_size(source.file.size);
      return this.readFile(source.file, wanted, source.entry);
    }
    const response = await fetch(source.url);
    if (!response.ok) throw new Error(`cannot load ${source.name}: the server answered ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }

  /**
   * The bytes of `file` (of the file inside, when it is compressed; `entry` names a zip's),
   * read a slice at a time with `readProgress` between slices, while `wanted()`.
   * @param {File} file @param {() => boolean} wanted @param {string} [entry]
   */
  async readFile(file, wanted, entry) {
    if (!isCompressed(await head(file))) {
      const whole = new Uint8Array(file.size);
      for await (const { offset, bytes } of slices(file)) {
        if (!wanted()) throw new Error(SUPERSEDED);
        whole.set(bytes, offset);
        post({ type: 'readProgress', bytesDone: offset + bytes.length, bytesTotal: file.size });
      }
      return whole;
    }
    const parts = [];
    try {
      for await (const { bytes, done, total, inflated } of contents(file, entry)) {
        if (!wanted()) throw new Error(SUPERSEDED);
        this.session.check_inflated_text_size(inflated);
        parts.push(bytes);
        post({ type: 'readProgress', bytesDone: done, bytesTotal: total });
      }
    } catch (error) {
      // The page names the text in its refusal ("Cannot open kjv.txt.gz: …"), as for a plain one.
      const named = `${file.name}: `;
      if (error instanceof Error && error.message.startsWith(named)) throw new Error(error.message.slice(named.length));
      throw error;
    }
    return joined(parts);
  }

  /**
   * The requests about the text alone.
   * @returns {Pick<import('../protocol.js').Handlers, 'readText'|'stripMarkup'>}
   */
  handlers() {
    return {
      /**
       * Reads a text and makes it the session's, before it is prepared: a file that is not text
       * is refused here, and the session keeps what it held.
       */
      readText: async ({ source }) => {
        this.state.check('replaceText');
        const token = this.scheduler.begin('text');
        try {
          return { text: await this.use(source, token) };
        } finally {
          token.end();
        }
      },
      /** Keeps only the text of the session's XML or HTML text, in its place (it stays the text of the same source). */
      stripMarkup: () => {
        this.state.check('replaceText');
        this.info = this.session.strip_markup();
        this.state.fire('replaceText');
        return { text: this.info };
      },
    };
  }
}
