// @ts-check
// The training worker: loads the wasm module once, holds the one Session, answers the
// requests of www/protocol.js from a handler table, and learns BPE merges and trains in
// chunks so that queries, pause and stop are read between two chunks. Where the page is
// cross-origin isolated it loads the threaded module and trains on a pool of threads
// (threads.js, each thread a thread-host.js), else the single-threaded one, and says why.
// Its pieces, beside it: talking to the page (messages.js), which module it loads
// (modules.js), and the t-SNE and UMAP maps stepped between chunks (layout.js).
import { ThreadHosts } from './threads.js';
import { CHUNK_MS, FIRST_CHUNK_MERGES, FIRST_CHUNK_TOKENS, LOAD_SLICE_BYTES, MODEL_FIRST_READ, SNIFF_BYTES, SUPERSEDED, TABLE_FIRST_TAIL_READ } from '../protocol.js';
import { post, reportError, yieldToMessages } from './messages.js';
import { loadModule } from './modules.js';
import { isLayout, LayoutRunner } from './layout.js';
import { FramePacer } from './frame-pacing.js';
import { TrainingMachine } from './states.js';

/** @typedef {import('../protocol.js').Request} Request */
/** @typedef {import('../protocol.js').Source} Source */
/** @typedef {import('../protocol.js').TrainingState} TrainingState */
/** @typedef {import('../protocol.js').MapSpec} MapSpec */

/** The wasm module's exports: the threaded build (www/pkg-threads) or the single-threaded one (www/pkg). */
let wasm;
/** @type {import('../pkg/embedscope.js').Session} */
let session;
/** The pool's host workers, in the threaded module only. @type {ThreadHosts|null} */
let threadHosts = null;
/** @type {import('../protocol.js').ThreadsInfo} */
let threads;
/** The session's state: every change goes through `fire` (the table is states.js). */
const machine = new TrainingMachine();
/** The state now, unnarrowed: what an async function reads after an await. @returns {TrainingState} */
const currentState = () => machine.state;
/** What the session's text came from ('sample', a file's opening `file #key`, or a URL), so preparing again does not read it again. */
let textFrom = null;
/** @type {import('../protocol.js').TextInfo|null} how that text was read */
let textInfo = null;
let isSample = false;
/**
 * What a map spec means where a field is missing (an older page): principal components of the
 * most frequent words, no colours; the fields of the wasm module's `default_map_spec` that a
 * new model drops. Set once the module is loaded.
 * @type {Pick<MapSpec, 'axes'|'isolate'|'clusters'|'method'>}
 */
let plainMapSpec;
/** @type {MapSpec} the last map spec that gave a frame: the frames sent while training use it */
let mapSpec;
let chunkTokens = FIRST_CHUNK_TOKENS;
/** Counts evaluations, so a running one sees that a newer one replaced it. */
let evaluations = 0;
/** Counts the requests for a text (`prepare`, `learnBpe`) likewise. */
let textRequests = 0;
/** The text being read: where from, and the promise of its bytes (null for the sample). */
let reading = null;
/** Counts vectors files opened; `stop` moves it on, which cancels the one being read. */
let loads = 0;
/**
 * Names the model the session holds (a prepared text or opened vectors). Frames and the
 * replies that install a model carry it, so the page drops a frame of a model it replaced.
 */
let model = 0;

/** When the next map frame is due while training (frame-pacing.js): it is told every chunk's and frame's time. */
const pacer = new FramePacer();
/** The dimension FIRST_CHUNK_TOKENS is sized for: a token's cost grows with the dimension. */
const FIRST_CHUNK_DIM = 100;
/**
 * The `wordsId` of the last word list posted to the page. A frame of that list goes without
 * its words (the page keeps them, www/map/frame-words.js): at 20,000 words, making and posting them
 * took 20 to 30 ms a frame, which every query waited for.
 */
let sentWordsId = 0;
/** @type {LayoutRunner} the t-SNE or UMAP map, when the map spec is one */
let layouts;

/**
 * Posts `frame` (a session frame: `wordsId`, no words) with `fields`, its words added when the
 * page does not have its list yet.
 * @param {{wordsId: number, coords: Float32Array, clusters: Uint16Array|null}} frame
 * @param {object} fields @param {Transferable[]} transfer
 */
function postFrame(frame, fields, transfer) {
  const words = frame.wordsId === sentWordsId ? {} : { words: session.frame_words(frame.wordsId) };
  const buffers = [frame.coords.buffer, ...(frame.clusters ? [frame.clusters.buffer] : []), ...transfer];
  post({ type: 'projection', ...frame, ...words, ...fields }, buffers);
  sentWordsId = frame.wordsId;
}

/**
 * Moves the session's state by `event` (states.js) and tells the page: always when it
 * answers request `id`, else when the state changed. Throws the table's refusal, whose
 * message the page shows.
 * @param {string} event @param {number|null} id
 */
function fire(event, id = null) {
  if (machine.fire(event) || id != null) post({ type: 'state', id, state: machine.state });
}

/** Throws why `event` cannot happen now, if it cannot (before any work starts). @param {string} event */
function checkAllowed(event) {
  const refusal = machine.refusal(event);
  if (refusal) throw refusal;
}

/**
 * Posts a frame of `settings` (the current map spec unless told); throws, posting nothing and
 * keeping the last frame, when the session refuses the map spec (an unknown word, a bad number).
 * @param {number|null} id @param {MapSpec} settings
 */
function postProjection(id = null, settings = mapSpec) {
  const started = performance.now();
  const frame = session.project(settings);
  const extraCoords = settings.extraWords.length ? session.place_words(settings.extraWords) : new Float32Array(0);
  const ended = performance.now();
  if (id == null) pacer.framed(ended, ended - started);
  else pacer.requested(ended, ended - started);
  postFrame(frame, { id, model, extraWords: settings.extraWords, extraCoords }, [extraCoords.buffer]);
}

/**
 * A new model's frames start from the plain map spec (the page sends its map spec again): axes and
 * isolated words name words of the old vocabulary, and clusters may outnumber the new one's
 * words. A map spec that fails in the training loop would stop training.
 */
function usePlainView() {
  mapSpec = { ...mapSpec, ...plainMapSpec };
  layouts.cancel();
}

/**
 * The vectors moved on (an epoch ended, PROJECTION_INTERVAL_MS passed, training stopped):
 * a PCA frame now, or the t-SNE or UMAP map warm-started from where it stands.
 */
function showFreshVectors() {
  if (!isLayout(mapSpec)) {
    postProjection();
    return;
  }
  // Warm-starting the map costs nothing here: its slices run between chunks (layout.js).
  pacer.framed(performance.now(), 0);
  if (layouts.refresh()) return;
  try {
    layouts.start(mapSpec, null, true);
  } catch (error) {
    // The map spec worked for other vectors; training goes on with a PCA map.
    mapSpec = { ...mapSpec, method: 'pca' };
    reportError(null)(error);
  }
}

/**
 * The input rows the step mode's last updates moved, on the map just sent (`StepMovesDto`);
 * null when that map has nothing to place them on yet (a t-SNE or UMAP map still finding its
 * first coordinates, a frame that failed): the updates themselves went through, so that is
 * no error to show.
 * @returns {import('../protocol.js').StepMoves|null}
 */
function stepMoves() {
  try {
    return session.step_moves(isLayout(mapSpec) ? mapSpec.method : 'pca');
  } catch {
    return null;
  }
}

/** The next chunk's size: `size` scaled so a chunk takes about `target` ms, within bounds. */
function resized(size, elapsed, min, max, target = CHUNK_MS) {
  return elapsed > 0 ? Math.max(min, Math.min(max, Math.round(size * target / elapsed))) : size;
}

/**
 * Gives the session the text of `source`, unless it holds it already; returns how it was
 * read. A file is refused before reading when it is too large, and read in slices with
 * `readProgress` between them. A request for the text being read waits for that read
 * rather than starting another. `isCurrent()` says whether the request still stands: a
 * read that a newer text replaced stops, and never becomes the session's text, so it
 * cannot wipe the newer text's trainer.
 * @param {Source} source @param {() => boolean} isCurrent
 */
async function useSource(source, isCurrent) {
  const from = source.kind === 'sample' ? 'sample' : source.kind === 'file' ? `file #${source.key}` : source.url;
  if (from === textFrom) return textInfo;
  if (reading?.from !== from) {
    const read = { from, bytes: null };
    read.bytes = readSource(source, () => reading === read);
    reading = read;
  }
  const mine = reading;
  try {
    const bytes = await mine.bytes;
    if (!isCurrent()) throw new Error(SUPERSEDED);
    // Another request for the same text may have installed it meanwhile.
    if (textFrom !== from) {
      checkAllowed('replaceText');
      textInfo = bytes == null ? session.set_sample_text() : session.set_text(bytes);
      textFrom = from;
      fire('replaceText');
    }
    return textInfo;
  } finally {
    if (reading === mine) reading = null;
  }
}

/**
 * The bytes of `source` (null for the built-in sample, which the session writes itself);
 * stops with SUPERSEDED between slices once `wanted()` is false.
 * @param {Source} source @param {() => boolean} wanted
 */
async function readSource(source, wanted) {
  if (source.kind === 'sample') return null;
  if (source.kind === 'file') {
    session.check_text_size(source.file.size);
    return readFile(source.file, wanted, source.entry);
  }
  const response = await fetch(source.url);
  if (!response.ok) throw new Error(`cannot load ${source.name}: the server answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * `file`'s bytes from `start` to `end` (the whole file unless told) in slices of
 * LOAD_SLICE_BYTES, each with its offset, read one at a time, so a large file never sits in
 * memory twice and progress can be posted in between.
 * @param {Blob} file @param {number} [start] @param {number} [end]
 */
async function* slices(file, start = 0, end = file.size) {
  for (let offset = start; offset < end; offset += LOAD_SLICE_BYTES) {
    yield { offset, bytes: new Uint8Array(await file.slice(offset, Math.min(end, offset + LOAD_SLICE_BYTES)).arrayBuffer()) };
  }
}

/**
 * Pushes the pieces of a file into the session one at a time, as `pieces` reads them:
 * `push(piece)` gives the session a piece and returns the `loadProgress` to post, and the
 * worker answers messages before the next piece. Stops once `isCurrent()` is false (`stop`
 * moved `loads` on) or, after a piece, `more()` is. Returns the piece it stopped at when
 * cancelled, else null.
 * @template T
 * @param {AsyncIterable<T>} pieces @param {() => boolean} isCurrent
 * @param {(piece: NoInfer<T>) => {bytesDone: number, bytesTotal: number, words: number, rows?: boolean}} push
 * @param {() => boolean} [more]
 * @returns {Promise<T|null>}
 */
async function pushPieces(pieces, isCurrent, push, more = () => true) {
  for await (const piece of pieces) {
    if (!isCurrent()) return piece;
    post({ type: 'loadProgress', ...push(piece) });
    await yieldToMessages();
    if (!isCurrent()) return piece;
    if (!more()) break;
  }
  return null;
}

/**
 * The bytes of `file` (of the file inside, when it is compressed; `entry` names a zip's),
 * read a slice at a time with `readProgress` between slices, while `wanted()`.
 * @param {File} file @param {() => boolean} wanted @param {string} [entry]
 */
async function readFile(file, wanted, entry) {
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
      session.check_inflated_text_size(inflated);
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

/** `parts` one after another in one array. @param {Uint8Array[]} parts */
function joined(parts) {
  if (parts.length === 1) return parts[0];
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

/** The first SNIFF_BYTES of `file`. @param {Blob} file */
async function head(file) {
  return new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
}

/** Whether a file starting with `head` is gzip, bzip2, xz or zip (src/io/compressed.rs). @param {Uint8Array} head */
function isCompressed(head) {
  return wasm.compression_of(head) != null;
}

/**
 * `read(offset, length)` of `file`, synchronous, as the session's decoders ask for the
 * compressed bytes (src/wasm/compressed.rs): a dedicated worker may read a file so.
 * @param {Blob} file
 */
function syncReader(file) {
  const reader = new (/** @type {any} */ (globalThis).FileReaderSync)();
  return (offset, length) => new Uint8Array(reader.readAsArrayBuffer(file.slice(offset, offset + length)));
}

/**
 * The file inside the compressed `file` (`entry` names a zip's); the caller frees it.
 * @param {File} file @param {string} [entry]
 */
function openInside(file, entry) {
  return new wasm.CompressedFile(syncReader(file), file.size, file.name, entry);
}

/** The bytes inflated a slice, so a slice takes tens of milliseconds (bzip2 is the slowest). */
const INFLATE_SLICE_BYTES = 1 << 20;

/**
 * The bytes inside the compressed `file` a slice at a time, each with how far the
 * compressed file is read (`done` of `total`, the bytes progress counts) and the bytes
 * inflated so far; yields to messages between slices, as each is inflated synchronously.
 * @param {File} file @param {string} [entry]
 */
async function* contents(file, entry) {
  const inside = openInside(file, entry);
  try {
    const total = inside.total() ?? file.size;
    for (;;) {
      const bytes = inside.read(INFLATE_SLICE_BYTES);
      if (bytes.length === 0) return;
      yield { bytes, done: inside.done(), total, inflated: inside.inflated() };
      await yieldToMessages();
    }
  } finally {
    inside.free();
  }
}

/**
 * The text of `file`, UTF-8 (of the file inside, when it is compressed; a zip must then
 * hold one file, or `entry` name it). @param {File} file @param {string} [entry]
 */
async function fileText(file, entry) {
  if (!isCompressed(await head(file))) return file.text();
  const parts = [];
  for await (const { bytes } of contents(file, entry)) parts.push(bytes);
  return new TextDecoder().decode(joined(parts));
}

/**
 * The name and first bytes of `file` (of the file inside, when it is compressed; `entry`
 * names a zip's; a zip of several files and none named gives its entries), for the
 * session's `open_plan`. @param {File} file @param {string} [entry]
 */
function fileHead(file, entry) {
  return wasm.file_head(syncReader(file), file.size, file.name, entry);
}

/**
 * Whether a map frame is due after a chunk that brought training to `progress` (frame-pacing.js).
 * @param {import('../protocol.js').Progress} progress
 */
function frameDue(progress) {
  return pacer.due(progress, performance.now());
}

/** The chunked loop: runs while the state is 'training'; pause and stop just change the state. */
async function trainLoop() {
  while (currentState() === 'training') {
    const started = performance.now();
    const progress = session.step(chunkTokens);
    const elapsed = performance.now() - started;
    pacer.trained(elapsed);
    // Size the next chunk so one takes about CHUNK_MS: progress then arrives ~20 times a second.
    // More threads train more tokens in that time, hence the larger cap.
    chunkTokens = resized(chunkTokens, elapsed, 1_000, 1_000_000 * session.threads());
    post({ type: 'progress', progress, threads: session.threads() });
    if (frameDue(progress)) {
      // A pause or stop sent meanwhile is read before the frame is made (stop makes its own).
      if (!progress.done) await yieldToMessages();
      if (currentState() !== 'training') return;
      showFreshVectors();
    }
    if (progress.done) {
      fire('finished');
      return;
    }
    await yieldToMessages();
  }
}

/**
 * Reads vectors from `file` slice by slice into the session, posting progress between
 * slices, while `isCurrent()`: `stop` cancels the read by moving `loads` on. Returns false
 * when cancelled. A compressed file is read as the file inside (`entry` names a zip's), its
 * progress counting the compressed bytes.
 * @param {File} file @param {string} format
 * @param {{file: File, entry?: string}|undefined} metadata  a Projector vectors.tsv's metadata.tsv: a file, or a zip's entry
 * @param {() => boolean} isCurrent
 * @param {number|undefined} maxWords  the most frequent words of a fastText model to keep
 * @param {boolean} compressed @param {string} [entry]
 */
async function loadVectors(file, format, metadata, isCurrent, maxWords, compressed, entry) {
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
  return (await pushPieces(pieces, isCurrent, push, () => session.load_wants_more())) == null;
}

/** The session's text gave way to vectors opened from a file: a new model, the plain map. */
function vectorsOpened() {
  textFrom = null;
  model += 1;
  usePlainView();
  fire('vectorsOpened');
}

/**
 * A language model's embedding matrix, from the files dropped together as the session's
 * `plan` says: a `.safetensors` or `.gguf` file, or a sharded model's index with its shards,
 * and a `tokenizer.json`. Only the header and the matrix's bytes are read, a slice at a
 * time; `stop` cancels between slices. When no tensor has a name models give their token
 * embeddings, the reply lists the 2-D tensors for the person to choose (`tensor`).
 * @param {File[]} files @param {{head: Uint8Array}[]} heads
 * @param {{files: number[], index: number|null, tokenizer: number|null}} plan @param {string|undefined} tensor
 */
async function openModel(files, heads, plan, tensor) {
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
  const mine = ++loads;
  const isCurrent = () => mine === loads;
  const stopped = (file) => new Error(`stopped reading ${file.name}`);
  fire('openVectors');
  try {
    // Several shards and no index: the matrix is in the one whose header names it.
    let found = null;
    for (const { file, head } of candidates) {
      session.model_open(head, file.name, file.size);
      await readModelHeader(file, isCurrent);
      if (!isCurrent()) throw stopped(file);
      if (chosen != null || !session.model_needs_choice() || candidates.length === 1) {
        found = file;
        break;
      }
    }
    if (!found) throw new Error(`none of ${candidates.map(({ file }) => file.name).join(', ')} holds a tensor named as token embeddings are: open the shard that does, or the model's index`);
    if (chosen == null && session.model_needs_choice()) {
      const tensors = session.model_tensors();
      session.model_cancel();
      fire('openFailed');
      return { kind: 'chooseTensor', tensors, file: found.name };
    }
    const tokenizerBytes = tokenizer ? new Uint8Array(await tokenizer.arrayBuffer()) : undefined;
    if (!isCurrent()) throw stopped(found);
    const range = session.model_begin(chosen, tokenizerBytes, tokenizer?.name);
    const push = ({ offset, bytes }) =>
      ({ bytesDone: offset + bytes.length - range.offset, bytesTotal: range.length, words: session.model_push(bytes), rows: true });
    if (await pushPieces(slices(found, range.offset, range.offset + range.length), isCurrent, push)) throw stopped(found);
    const info = session.model_finish();
    vectorsOpened();
    return { kind: 'vectors', model, info };
  } catch (error) {
    if (isCurrent() && currentState() === 'loading') {
      session.model_cancel();
      fire('openFailed');
    }
    throw error;
  }
}

/**
 * Reads the header of the model file the session has begun (`model_open`): a first
 * megabyte, then as much from the start of the file as the session says it needs.
 * @param {File} file @param {() => boolean} isCurrent
 */
async function readModelHeader(file, isCurrent) {
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
async function openTable(files, plan, columns) {
  const parts = plan.parts.map((i) => files[i]);
  const metadata = plan.spark != null ? files[plan.spark] : undefined;
  const metadataText = metadata ? await metadata.text() : undefined;
  const mine = ++loads;
  const isCurrent = () => mine === loads;
  const stopped = (name) => new Error(`stopped reading ${name}`);
  fire('openVectors');
  try {
    session.table_open(metadataText);
    for (const file of parts) {
      await readTableFooter(file, isCurrent);
      if (!isCurrent()) throw stopped(file.name);
    }
    if (!columns) {
      const choice = session.table_choice();
      if (choice) {
        session.table_cancel();
        fire('openFailed');
        return { kind: 'chooseColumns', columns: choice, file: parts[0].name };
      }
    }
    const groups = session.table_begin(columns?.word, columns?.vector);
    const total = parts.reduce((sum, file) => sum + file.size, 0);
    const push = ({ index, group, words, vectors, done }) =>
      ({ bytesDone: Math.round(done), bytesTotal: total, words: session.table_push(index, group, words, vectors) });
    const stoppedAt = await pushPieces(columnChunks(parts, groups), isCurrent, push);
    if (stoppedAt) throw stopped(stoppedAt.file.name);
    const info = session.table_finish();
    vectorsOpened();
    return { kind: 'vectors', model, info };
  } catch (error) {
    if (isCurrent() && currentState() === 'loading') {
      session.table_cancel();
      fire('openFailed');
    }
    throw error;
  }
}

/**
 * The two column chunks of each row group of the table the session has begun (`table_begin`
 * gave `groups`, the row groups of each part), read by `File.slice`, each with how far the
 * parts are read (`done` bytes, the row groups counted as equal shares of their file).
 * @param {File[]} parts @param {ArrayLike<number>} groups
 * @returns {AsyncGenerator<{index: number, group: number, file: File, words: Uint8Array, vectors: Uint8Array, done: number}>}
 */
async function* columnChunks(parts, groups) {
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
async function readTableFooter(file, isCurrent) {
  let wanted = Math.min(file.size, TABLE_FIRST_TAIL_READ);
  for (;;) {
    const tail = new Uint8Array(await file.slice(file.size - wanted).arrayBuffer());
    if (!isCurrent()) return;
    const needed = session.table_footer(file.name, tail, file.size);
    if (needed === 0) return;
    wanted = needed;
  }
}

/** The session's writer of each export format (www/protocol.js `ExportRequest`). */
const EXPORTS = {
  bundle: (request) => session.export_bundle(request.timeline ?? null),
  word2vec: () => session.export_word2vec(),
  word2vecBinary: () => session.export_word2vec_binary(),
  projectorVectors: () => session.export_projector_vectors(),
  projectorMetadata: () => session.export_projector_metadata(),
};

/** @type {Record<string, (request: any) => object|void|Promise<object|void>>} */
const handlers = {
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
    const mine = ++loads;
    const isCurrent = () => mine === loads;
    const stopped = () => new Error(`stopped reading ${file.name}`);
    fire('openVectors');
    try {
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
    } catch (error) {
      // The state may have changed during the awaits above: read it afresh (the checker narrows it).
      if (isCurrent() && currentState() === 'loading') {
        session.load_cancel();
        fire('openFailed');
      }
      throw error;
    }
  },
  /**
   * Reads a text and makes it the session's, before it is prepared: a file that is not text
   * is refused here, and the session keeps what it held.
   */
  async readText({ source }) {
    checkAllowed('replaceText');
    const mine = ++textRequests;
    return { text: await useSource(source, () => mine === textRequests) };
  },
  /** Keeps only the text of the session's XML or HTML text, in its place (it stays the text of the same source). */
  stripMarkup() {
    checkAllowed('replaceText');
    textInfo = session.strip_markup();
    fire('replaceText');
    return { text: textInfo };
  },
  /**
   * Tokenizes the text in slices, posting `tokenizeProgress` between them; a newer
   * `prepare` (the parameters changed again) replaces one still running.
   */
  async prepare({ source, params }) {
    checkAllowed('prepare');
    const mine = ++textRequests;
    const isCurrent = () => mine === textRequests;
    let stats, text;
    try {
      text = await useSource(source, isCurrent);
      await useThreads(params.threads ?? 1);
      if (!isCurrent()) throw new Error(SUPERSEDED);
      session.prepare_begin(params);
      for (let fraction = session.prepare_step(LOAD_SLICE_BYTES); fraction < 1; fraction = session.prepare_step(LOAD_SLICE_BYTES)) {
        post({ type: 'tokenizeProgress', fraction });
        await yieldToMessages();
        if (!isCurrent()) throw new Error(SUPERSEDED);
      }
      stats = session.prepare_finish();
    } catch (error) {
      // A request that gave way (to `stop` or a newer text) leaves the state to it.
      if (isCurrent()) fire('prepareFailed');
      throw error;
    }
    isSample = source.kind === 'sample';
    // A token costs about `dim` multiply-adds a pair: the first chunk, before the worker has
    // timed one, is sized for the dimension, so the first progress comes within CHUNK_MS or so.
    chunkTokens = Math.max(1_000, Math.round(FIRST_CHUNK_TOKENS * Math.min(1, FIRST_CHUNK_DIM / params.dim)));
    model += 1;
    usePlainView();
    fire('prepared');
    return { stats, text, params, isSample, model };
  },
  /**
   * Learns merges chunk by chunk, like `trainLoop`; `stop` ends it by changing the state.
   * The state stays 'learning' after the last merge, until the page's `prepare` has
   * tokenized the text with the merges (or failed, or was stopped).
   */
  async learnBpe({ source, params }) {
    checkAllowed('learnBpe');
    const mine = ++textRequests;
    await useSource(source, () => mine === textRequests);
    let progress = session.bpe_begin(params);
    fire('learnBpe');
    post({ type: 'bpeProgress', progress });
    let chunkMerges = FIRST_CHUNK_MERGES;
    while (!progress.done) {
      await yieldToMessages();
      if (currentState() !== 'learning') return { progress, done: false };
      const started = performance.now();
      try {
        progress = session.bpe_step(chunkMerges);
      } catch (error) {
        fire('learningFailed');
        throw error;
      }
      chunkMerges = resized(chunkMerges, performance.now() - started, 1, 100_000);
      post({ type: 'bpeProgress', progress });
    }
    return { progress, done: true };
  },
  train({ id }) {
    fire('train', id);
    trainLoop().catch((error) => {
      fire('trainingFailed');
      reportError(null)(error);
    });
  },
  pause({ id }) {
    fire('pause', id);
  },
  /**
   * The step mode: `count` single updates (skip-gram pairs or CBOW windows) of the paused
   * training, on one thread; sends the progress and a fresh frame, and replies with the last
   * update.
   */
  stepUpdates({ count }) {
    if (currentState() !== 'paused') throw new Error('Pause training first: the step mode walks a paused training.');
    const stepped = session.step_updates(count);
    post({ type: 'progress', progress: stepped.progress, threads: 1 });
    showFreshVectors();
    return { ...stepped, moves: stepMoves() };
  },
  stop({ id }) {
    // A text being tokenized for training (its BPE merges just learned, the state still
    // 'learning') stops too, and the trainer from before stays.
    textRequests += 1;
    const was = machine.state;
    if (was === 'loading') {
      // The read sees `loads` moved on at its next slice and ends; the parser goes now, and
      // the vectors or text from before stay.
      loads += 1;
      session.load_cancel();
      session.model_cancel();
      session.table_cancel();
    }
    fire('stop', id);
    if (was === 'training' || was === 'paused') showFreshVectors();
  },
  /**
   * A map spec that fails is answered with an error, and the frames while training keep the last
   * valid one. A t-SNE or UMAP map spec is answered by the map's first frame; the map of the
   * same method, word count and parameters goes on as it is (answered at once, `extraWords`
   * placed), any other map spec replaces it.
   */
  project({ id, mapSpec: settings }) {
    const next = { ...plainMapSpec, extraWords: [], ...settings };
    if (!isLayout(next)) {
      postProjection(id, next);
      layouts.cancel();
    } else {
      layouts.show(next, id);
    }
    mapSpec = next;
  },
  /**
   * Where training runs: the module, the pool's threads, and how many distinct threads ran
   * a job sent to each of them (rayon's broadcast), which shows the pool really works.
   */
  threads() {
    return { info: threads, poolThreads: session.threads(), working: session.threads_working() };
  },
  neighbours({ word, k }) {
    return { word, neighbours: session.neighbours(word, k), built: session.built_from_ngrams(word) };
  },
  analogy({ a, b, c, k }) {
    const { cosAdd, cosMul } = session.analogy(a, b, c, k);
    return { cosAdd, cosMul, built: [a, b, c].filter((word) => session.built_from_ngrams(word)) };
  },
  complete({ prefix, limit }) {
    return { prefix, words: session.complete(prefix, limit) };
  },
  findWords({ needle, limit }) {
    return { matches: session.find_words(needle, limit) };
  },
  tokenInfo({ token, maxLines }) {
    return { info: session.token_info(token, maxLines) };
  },
  /**
   * The density layer of the map's points on a grid (src/plot/density.rs): here, off the
   * page's main thread; its values transferred, not copied.
   */
  density({ id, coords, columns, rows, range: [x0, x1, y0, y1], bandwidth }) {
    const values = wasm.density_grid(coords, columns, rows, x0, x1, y0, y1, bandwidth);
    post({ type: 'density', id, values }, [values.buffer]);
  },
  /** A band of the vectors' matrix, for the Matrix card; its values transferred, not copied. */
  matrixBand({ id, firstRow, rows, firstCol, cols }) {
    const band = session.matrix_band(firstRow, rows, firstCol, cols);
    post({ type: 'matrixBand', id, ...band }, band.outputValues ? [band.values.buffer, band.outputValues.buffer] : [band.values.buffer]);
  },
  matrixRow({ word }) {
    return { row: session.matrix_row(word) };
  },
  wordSampling({ word, partners }) {
    return { sampling: session.word_sampling(word, partners) };
  },
  zipf({ points }) {
    return { zipf: session.zipf_curve(points) };
  },
  /** A word's neighbours at the end of each epoch (the session keeps them as it trains). */
  neighbourHistory({ word, k }) {
    return { history: session.neighbour_history(word, k) };
  },
  /**
   * Scores the vectors on a benchmark, in chunks, posting `evalProgress` between them. A
   * newer evaluation replaces one still running, which then fails saying so. A benchmark
   * file that is a zip of several, none named, is answered with its files to choose from.
   */
  async evaluate({ benchmark, restrict, ignoreCase, purpose }) {
    const mine = ++evaluations;
    if (benchmark.kind === 'file' && benchmark.entry == null) {
      const plan = session.open_plan([fileHead(benchmark.file)], {});
      if (plan.kind === 'chooseEntry') return { entries: plan.entries, file: benchmark.file.name };
    }
    const text = benchmark.kind === 'file' ? await fileText(benchmark.file, benchmark.entry) : wasm.benchmark_text(benchmark.name);
    let progress = session.eval_begin(text, restrict ?? undefined, ignoreCase);
    let chunk = 16;
    while (progress.done < progress.total) {
      post({ type: 'evalProgress', purpose, done: progress.done, total: progress.total });
      await yieldToMessages();
      if (mine !== evaluations) throw new Error(SUPERSEDED);
      const started = performance.now();
      progress = session.eval_step(chunk);
      chunk = resized(chunk, performance.now() - started, 1, 1_000_000);
    }
    return { report: session.eval_report() };
  },
  /**
   * Builds the one file asked for, now (a large one takes seconds), and transfers its bytes
   * to the page rather than copying them; the worker keeps nothing of it.
   */
  export(request) {
    const { id, format } = request;
    const build = EXPORTS[format];
    if (!build) throw new Error(`unknown export format '${format}'`);
    const bytes = build(request);
    post({ type: 'export', id, bytes }, [bytes.buffer]);
  },
};

// Panics inside wasm on purpose, for the browser tests that the page recovers (see
// `panic_for_test`). Dev server only: `npm run build` replaces import.meta.env.DEV with false,
// so the bundler drops the handler and the glue's wrapper, and vite.config.js the export.
if (import.meta.env.DEV) {
  handlers.testPanic = async (/** @type {import('../protocol.js').TestPanicRequest} */ { inThread }) => {
    if (inThread) {
      // A training thread of the pool panics in the next step (src/wasm/pool.rs).
      const { panic_in_training_thread_for_test } = await import('../pkg-threads/embedscope.js');
      panic_in_training_thread_for_test();
      return {};
    }
    const { panic_for_test } = threads.module === 'threaded' ? await import('../pkg-threads/embedscope.js') : await import('../pkg/embedscope.js');
    panic_for_test();
  };
  /** The turns of `LayoutRunner.run` logged since the last call (see its `sliceLog`), for scripts/bench-layout.mjs. */
  handlers.layoutSlices = () => ({ slices: layouts.sliceLog.splice(0) });
  /** The wasm memory's bytes, its peak since it never shrinks, for scripts/bench-model.mjs. */
  handlers.memoryForTest = () => ({ bytes: wasm.memory.buffer.byteLength });
}

self.addEventListener('message', async ({ data }) => {
  /** @type {Request} */
  const request = data;
  const handler = handlers[request.type];
  try {
    if (!handler) throw new Error(`unknown request type '${request.type}'`);
    // A synchronous handler's reply still goes out before the next message is read.
    const reply = await handler(request);
    if (reply) post({ type: request.type, id: request.id, ...reply });
  } catch (error) {
    reportError(request.id)(error);
  }
});

/**
 * Trains on `n` threads from the next `prepare` on: starts the host workers the pool needs
 * (the first time, a few hundred ms), then rebuilds the session's pool if its size changed.
 * @param {number} n
 */
async function useThreads(n) {
  if (!Number.isInteger(n) || n < 1 || n > threads.max) {
    throw new Error(threads.max === 1
      ? `cannot train on ${n} threads: ${threads.cause}`
      : `threads: from 1 to ${threads.max} here (this machine's cores, at most 8)`);
  }
  if (n > 1) await threadHosts.ensure(n);
  session.use_threads(n);
}

({ module: wasm, info: threads } = await loadModule());
mapSpec = { ...wasm.default_map_spec(), extraWords: [] };
const { axes, isolate, clusters, method } = mapSpec;
plainMapSpec = { axes, isolate, clusters, method };
session = new wasm.Session();
layouts = new LayoutRunner(session, { model: () => model, postFrame });
if (import.meta.env.DEV) {
  ({ layout_slice_for_test: layouts.sliceReport } = threads.module === 'threaded' ? await import('../pkg-threads/embedscope.js') : await import('../pkg/embedscope.js'));
}
if (threads.module === 'threaded') threadHosts = new ThreadHosts(wasm.thread_host_init());
post({ type: 'ready', version: wasm.version(), threads });
