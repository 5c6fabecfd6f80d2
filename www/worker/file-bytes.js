// @ts-check
// The training worker's reading of a file's bytes, whatever the file holds: a slice at a
// time (`slices`), its first bytes (`head`), and the file inside a compressed one (gzip,
// bzip2, xz, zip), inflated a slice at a time by the wasm module's `CompressedFile`.
// What a file is and how it is opened is opening.js's; a text's reading is text-source.js's.
import { LOAD_SLICE_BYTES, SNIFF_BYTES } from '../protocol.js';
import { yieldToMessages } from './messages.js';
import { wasm } from './modules.js';

/** The bytes inflated a slice, so a slice takes tens of milliseconds (bzip2 is the slowest). */
const INFLATE_SLICE_BYTES = 1 << 20;

/**
 * `file`'s bytes from `start` to `end` (the whole file unless told) in slices of
 * LOAD_SLICE_BYTES, each with its offset, read one at a time, so a large file never sits in
 * memory twice and progress can be posted in between.
 * @param {Blob} file @param {number} [start] @param {number} [end]
 */
export async function* slices(file, start = 0, end = file.size) {
  for (let offset = start; offset < end; offset += LOAD_SLICE_BYTES) {
    yield { offset, bytes: new Uint8Array(await file.slice(offset, Math.min(end, offset + LOAD_SLICE_BYTES)).arrayBuffer()) };
  }
}

/** `parts` one after another in one array. @param {Uint8Array[]} parts */
export function joined(parts) {
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
export async function head(file) {
  return new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
}

/** Whether a file starting with `head` is gzip, bzip2, xz or zip (src/io/compressed.rs). @param {Uint8Array} head */
export function isCompressed(head) {
  return wasm.compression_of(head) != null;
}

/**
 * `read(offset, length)` of `file`, synchronous, as the session's decoders ask for the
 * compressed bytes (src/wasm/compressed.rs): a dedicated worker may read a file so.
 * @param {Blob} file
 */
export function syncReader(file) {
  const reader = new (/** @type {any} */ (globalThis).FileReaderSync)();
  return (offset, length) => new Uint8Array(reader.readAsArrayBuffer(file.slice(offset, offset + length)));
}

/**
 * The file inside the compressed `file` (`entry` names a zip's); the caller frees it.
 * @param {File} file @param {string} [entry]
 */
export function openInside(file, entry) {
  return new wasm.CompressedFile(syncReader(file), file.size, file.name, entry);
}

/**
 * The bytes inside the compressed `file` a slice at a time, each with how far the
 * compressed file is read (`done` of `total`, the bytes progress counts) and the bytes
 * inflated so far; yields to messages between slices, as each is inflated synchronously.
 * @param {File} file @param {string} [entry]
 */
export async function* contents(file, entry) {
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
export async function fileText(file, entry) {
  if (!isCompressed(await head(file))) return file.text();
  const parts = [];
  for await (const { bytes } of contents(file, entry)) parts.push(bytes);
  return new TextDecoder().decode(joined(parts));
}
