// @ts-check
// Opening files in the worker: what the files dropped together are (their heads, `fileHead`,
// and the session's `open_plan`, which says what they are and how to open them), and the reading of vectors from them into the session, a slice at a
// time with `loadProgress` between: a vectors file (word2vec, GloVe, a Projector pair, a
// fastText model, a bundle), a language model's embedding matrix (safetensors, GGUF, a
// sharded index) and a Parquet table (a Spark model's). A read holds the scheduler's 'read'
// token, whose cleanup drops that read's half-built vectors: `stop` cancels it, so it
// cancels exactly the read that runs.
import { MODEL_FIRST_READ, TABLE_FIRST_TAIL_READ } from '../protocol.js';
import { post } from './messages.js';
import { wasm } from './modules.js';
import { contents, fileText, slices, syncReader } from './file-bytes.js';

/**
 * @typedef {{session: import('../pkg/embedscope.js').Session, state: import('./session-state.js').SessionState,
 *   scheduler: import('./scheduler.js').Scheduler, text: import('./text-source.js').TextSource,
 *   frames: import('./frames.js').Frames}} Parts
 */

/**
 * The `openFiles` request. Its body speaks of the opening's parts by the names below.
 * @param {Opening} opening
 * @returns {Pick<import('../protocol.js').Handlers, 'openFiles'>}
 */
export function openFilesHandler(opening) {
  const { session, state } = opening.parts;
  const checkAllowed = (event) => state.check(event);
  const openModel = (files, heads, plan, tensor) => opening.openModel(files, heads, plan, tensor);
  const openTable = (files, plan, columns) => opening.openTable(files, plan, columns);
  const loadVectors = (file, format, metadata, isCurrent, maxWords, compressed, entry) =>
    opening.loadVectors(file, format, metadata, isCurrent, maxWords, compressed, entry);
  /** The model the vectors just opened are (`vectorsOpened` names it). */
  let model = state.model;
  const vectorsOpened = () => {
    model = opening.vectorsOpened();
  };
  return {
    /**
     * Vectors (a bundle, word2vec, GloVe, a Projector pair, a fastText model) are read here
     * and replace the session's vectors; anything else is a text, which the page then prepares.
     */
    async openFiles({ files, tensor, columns, maxWords, entry }) {
      checkAllowed('openVectors');
      // What the files are and how to open them is the session's to say, from their names and first bytes.
      const heads = files.map((file) => fileHead(file, files.length === 1 ? entry : undefined));
      const plan = session.open_plan(heads, { tensor: tensor != null, columns: columns != null, maxWords: maxWords != null });
      if (plan.kind === 'chooseEntry') return { kind: 'chooseEntry', entries: plan.entries, file: files[plan.file].name };
      if (plan.kind === 'text') return { kind: 'text' };
      if (plan.kind === 'model') return openModel(files, heads, plan, tensor);
      if (plan.kind === 'table') return openTable(files, plan, columns);
      const file = files[plan.file];
      const { compression, entry: inside } = heads[plan.file];
      const format = plan.kind === 'vectors' ? plan.format : plan.kind;
      // The Projector's pair: two files dropped together, or one zip of both.
      const companion = plan.kind === 'vectors' ? plan.metadata : null;
      const metadata = companion ? (companion.file != null ? { file: files[companion.file] } : { file, entry: companion.entry }) : undefined;
      const stopped = () => new Error(`stopped reading ${file.name}`);
      return opening.read(() => session.load_cancel(), async (_read, isCurrent) => {
        if (format === 'bundle') {
          const text = await fileText(file, inside ?? undefined);
          if (!isCurrent()) throw stopped();
          const opened = session.open_bundle(text, file.name, file.size);
          // The session's text gave way to the vectors (a failed open leaves it as it was).
          vectorsOpened();
          return { kind: 'vectors', model, ...opened };
        }
        // `stop` has cancelled the parser and answered with the state from before.
        if (!(await loadVectors(file, format, metadata, isCurrent, maxWords, compression != null, inside ?? undefined))) throw stopped();
        const info = session.load_finish(file.size);
        vectorsOpened();
        return { kind: 'vectors', model, info };
      });
    },
  };
}

/**
 * The name and first bytes of `file` (of the file inside, when it is compressed; `entry`
 * names a zip's; a zip of several files and none named gives its entries), for the
 * session's `open_plan`. @param {File} file @param {string} [entry]
 */
export function fileHead(file, entry) {
  return wasm.file_head(syncReader(file), file.size, file.name, entry);
}

export class Opening {
  /** @param {Parts} parts */
  constructor(parts) {
    this.parts = parts;
  }

  /** The session's text gave way to vectors opened from a file: a new model, the plain map. Returns the model's name. */
  vectorsOpened() {
    const { state, text, frames } = this.parts;
    text.forget();
    const model = state.newModel();
    frames.usePlainView();
    state.fire('vectorsOpened');
    return model;
  }

  /**
   * Pushes the pieces of a file into the session one at a time, as `pieces` reads them:
   * `push(piece)` gives the session a piece and returns the `loadProgress` to post, and the
   * worker answers messages before the next piece. Stops once `isCurrent()` is false (`stop`
   * cancelled the read) or, after a piece, `more()` is. Returns the piece it stopped at when
   * cancelled, else null.
   * @template T
   * @param {AsyncIterable<T>} pieces @param {() => boolean} isCurrent
   * @param {(piece: NoInfer<T>) => {bytesDone: number, bytesTotal: number, words: number, rows?: boolean}} push
   * @param {() => boolean} [more]
   * @returns {Promise<T|null>}
   */
  async pushPieces(pieces, isCurrent, push, more = () => true) {
    for await (const piece of pieces) {
      if (!isCurrent()) return piece;
      post({ type: 'loadProgress', ...push(piece) });
      await this.parts.scheduler.yieldToMessages();
      if (!isCurrent()) return piece;
      if (!more()) break;
    }
    return null;
  }

  /**
   * Reads vectors from `file` slice by slice into the session, posting progress between
   * slices, while `isCurrent()`: `stop` cancels the read's token. Returns false when
   * cancelled. A compressed file is read as the file inside (`entry` names a zip's), its
   * progress counting the compressed bytes.
   * @param {File} file @param {string} format
   * @param {{file: File, entry?: string}|undefined} metadata  a Projector vectors.tsv's metadata.tsv: a file, or a zip's entry
   * @param {() => boolean} isCurrent
   * @param {number|undefined} maxWords  the most frequent words of a fastText model to keep
   * @param {boolean} compressed @param {string} [entry]
   */
  async loadVectors(file, format, metadata, isCurrent, maxWords, compressed, entry) {
    const { session } = this.parts;
    const metadataText = metadata ? await fileText(metadata.file, metadata.entry) : undefined;
    if (!isCurrent()) return false;
    if (format === 'fasttext') session.fasttext_begin(file.name, file.size, maxWords);
    else session.load_begin(format, file.name, metadataText);
    /** @type {AsyncIterable<{bytes: Uint8Array, done: number, total: number}>} */
    const pieces = compressed
      ? contents(file, entry)
      : (async function* () {
          for await (const { offset, bytes } of slices(file)) yield { bytes, done: offset + bytes.length, total: file.size };
        })();
    const push = ({ bytes, done, total }) => ({ bytesDone: done, bytesTotal: total, words: session.load_push(bytes) });
    // A fastText model's output matrix, after the vectors, is never read.
    return (await this.pushPieces(pieces, isCurrent, push, () => session.load_wants_more())) == null;
  }

  /**
   * Runs `body` as the one read of vectors: the state moves to loading, the read holds the
   * scheduler's 'read' token with `cleanup` (which drops its half-built vectors), and a failure
   * while it is still the current read cancels it and goes back to the state before. The token
   * is taken once the state machine let the read start, so a refused start leaves none behind.
   * @template T
   * @param {() => void} cleanup
   * @param {(read: import('./scheduler.js').Token, isCurrent: () => boolean) => Promise<T>} body
   * @returns {Promise<T>}
   */
  async read(cleanup, body) {
    const { state, scheduler } = this.parts;
    state.fire('openVectors');
    const read = scheduler.begin('read', cleanup);
    const isCurrent = () => !read.cancelled;
    try {
      return await body(read, isCurrent);
    } catch (error) {
      // The state may have changed during the body's awaits: read it afresh.
      if (isCurrent() && state.current === 'loading') {
        read.cancel(error);
        state.fire('openFailed');
      }
      throw error;
    } finally {
      read.end();
    }
  }

  /**
   * A language model's embedding matrix, from the files dropped together as the session's
   * `plan` says: a `.safetensors` or `.gguf` file, or a sharded model's index with its shards,
   * and a `tokenizer.json`. Only the header and the matrix's bytes are read, a slice at a
   * time; `stop` cancels the read's token, read between slices. When no tensor has a name
   * models give their token embeddings, the reply lists the 2-D tensors for the person to
   * choose (`tensor`).
   * @param {File[]} files @param {{head: Uint8Array}[]} heads
   * @param {{files: number[], index: number|null, tokenizer: number|null}} plan @param {string|undefined} tensor
   */
  async openModel(files, heads, plan, tensor) {
    const { session, state } = this.parts;
    const tokenizer = plan.tokenizer != null ? files[plan.tokenizer] : undefined;
    let candidates = plan.files.map((i) => ({ file: files[i], head: heads[i].head }));
    let chosen = tensor;
    if (plan.index != null) {
      const index = files[plan.index];
      const given = candidates.map(({ file }) => file.name);
      const shard = session.model_shard(new Uint8Array(await index.arrayBuffer()), index.name, tensor, given);
      candidates = candidates.filter(({ file }) => file.name === shard.file);
      chosen = shard.tensor;
    }
    const stopped = (file) => new Error(`stopped reading ${file.name}`);
    return this.read(() => session.model_cancel(), async (read, isCurrent) => {
      // Several shards and no index: the matrix is in the one whose header names it.
      let found = null;
      for (const { file, head } of candidates) {
        session.model_open(head, file.name, file.size);
        await this.readModelHeader(file, isCurrent);
        if (!isCurrent()) throw stopped(file);
        if (chosen != null || !session.model_needs_choice() || candidates.length === 1) {
          found = file;
          break;
        }
      }
      if (!found) throw new Error(`none of ${candidates.map(({ file }) => file.name).join(', ')} holds a tensor named as token embeddings are: open the shard that does, or the model's index`);
      if (chosen == null && session.model_needs_choice()) {
        const tensors = session.model_tensors();
        read.cancel();
        state.fire('openFailed');
        return { kind: 'chooseTensor', tensors, file: found.name };
      }
      const tokenizerBytes = tokenizer ? new Uint8Array(await tokenizer.arrayBuffer()) : undefined;
      if (!isCurrent()) throw stopped(found);
      const range = session.model_begin(chosen, tokenizerBytes, tokenizer?.name);
      const push = ({ offset, bytes }) =>
        ({ bytesDone: offset + bytes.length - range.offset, bytesTotal: range.length, words: session.model_push(bytes), rows: true });
      if (await this.pushPieces(slices(found, range.offset, range.offset + range.length), isCurrent, push)) throw stopped(found);
      const info = session.model_finish();
      const model = this.vectorsOpened();
      return { kind: 'vectors', model, info };
    });
  }

  /**
   * Reads the header of the model file the session has begun (`model_open`): a first
   * megabyte, then as much from the start of the file as the session says it needs.
   * @param {File} file @param {() => boolean} isCurrent
   */
  async readModelHeader(file, isCurrent) {
    const { session } = this.parts;
    let wanted = Math.min(file.size, MODEL_FIRST_READ);
    for (;;) {
      const prefix = new Uint8Array(await file.slice(0, wanted).arrayBuffer());
      if (!isCurrent()) return;
      const needed = session.model_header(prefix);
      if (needed === 0) return;
      wanted = needed;
    }
  }

  /**
   * A Parquet table of vectors, from the files dropped together as the session's `plan` says:
   * a Spark `Word2VecModel`'s `data/part-*.parquet` files (with its `metadata/part-00000` when
   * the folder was dropped), or any `.parquet` files of one table, in the order of their names.
   * Each file's footer is read from its end, then row group by row group only the bytes of the
   * two columns read, by `File.slice`; `stop` cancels between row groups. When the table holds
   * several candidate columns and none was chosen, the reply lists them (`columns`).
   * @param {File[]} files @param {{parts: number[], spark: number|null}} plan
   * @param {{word: string, vector: string}|undefined} columns
   */
  async openTable(files, plan, columns) {
    const { session, state } = this.parts;
    const parts = plan.parts.map((i) => files[i]);
    const metadata = plan.spark != null ? files[plan.spark] : undefined;
    const metadataText = metadata ? await metadata.text() : undefined;
    const stopped = (name) => new Error(`stopped reading ${name}`);
    return this.read(() => session.table_cancel(), async (read, isCurrent) => {
      session.table_open(metadataText);
      for (const file of parts) {
        await this.readTableFooter(file, isCurrent);
        if (!isCurrent()) throw stopped(file.name);
      }
      if (!columns) {
        const choice = session.table_choice();
        if (choice) {
          read.cancel();
          state.fire('openFailed');
          return { kind: 'chooseColumns', columns: choice, file: parts[0].name };
        }
      }
      const groups = session.table_begin(columns?.word, columns?.vector);
      const total = parts.reduce((sum, file) => sum + file.size, 0);
      const push = ({ index, group, words, vectors, done }) =>
        ({ bytesDone: Math.round(done), bytesTotal: total, words: session.table_push(index, group, words, vectors) });
      const stoppedAt = await this.pushPieces(this.columnChunks(parts, groups), isCurrent, push);
      if (stoppedAt) throw stopped(stoppedAt.file.name);
      const info = session.table_finish();
      const model = this.vectorsOpened();
      return { kind: 'vectors', model, info };
    });
  }

  /**
   * The two column chunks of each row group of the table the session has begun (`table_begin`
   * gave `groups`, the row groups of each part), read by `File.slice`, each with how far the
   * parts are read (`done` bytes, the row groups counted as equal shares of their file).
   * @param {File[]} parts @param {ArrayLike<number>} groups
   * @returns {AsyncGenerator<{index: number, group: number, file: File, words: Uint8Array, vectors: Uint8Array, done: number}>}
   */
  async *columnChunks(parts, groups) {
    const { session } = this.parts;
    let before = 0;
    for (const [index, file] of parts.entries()) {
      for (let group = 0; group < groups[index]; group++) {
        const [wordStart, wordLength, vectorStart, vectorLength] = session.table_ranges(index, group);
        const [words, vectors] = await Promise.all([
          file.slice(wordStart, wordStart + wordLength).arrayBuffer(),
          file.slice(vectorStart, vectorStart + vectorLength).arrayBuffer(),
        ]);
        const done = before + (file.size * (group + 1)) / groups[index];
        yield { index, group, file, words: new Uint8Array(words), vectors: new Uint8Array(vectors), done };
      }
      before += file.size;
    }
  }

  /**
   * Reads the footer of a Parquet part file into the table the session has begun
   * (`table_open`): its last bytes, then as many from the end as the session says it needs.
   * @param {File} file @param {() => boolean} isCurrent
   */
  async readTableFooter(file, isCurrent) {
    const { session } = this.parts;
    let wanted = Math.min(file.size, TABLE_FIRST_TAIL_READ);
    for (;;) {
      const tail = new Uint8Array(await file.slice(file.size - wanted).arrayBuffer());
      if (!isCurrent()) return;
      const needed = session.table_footer(file.name, tail, file.size);
      if (needed === 0) return;
      wanted = needed;
    }
  }
}
