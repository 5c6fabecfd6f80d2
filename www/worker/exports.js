// @ts-check
// Files out: the worker builds the one export file asked for, now (a large one takes
// seconds), and transfers its bytes to the page rather than copying them; it keeps nothing of it.
import { post } from './messages.js';

/** @typedef {import('../protocol.js').ExportRequest} ExportRequest */

/**
 * The `export` request.
 * @param {import('../pkg/embedscope.js').Session} session
 * @returns {Pick<import('../protocol.js').Handlers, 'export'>}
 */
export function exportHandlers(session) {
  /** The session's writer of each export format (www/protocol.js `ExportRequest`). @type {Record<ExportRequest['format'], (request: ExportRequest) => Uint8Array>} */
  const writers = {
    bundle: (request) => session.export_bundle(request.timeline ?? null),
    word2vec: () => session.export_word2vec(),
    word2vecBinary: () => session.export_word2vec_binary(),
    projectorVectors: () => session.export_projector_vectors(),
    projectorMetadata: () => session.export_projector_metadata(),
  };
  return {
    export: (request) => {
      const { id, format } = request;
      const build = writers[format];
      if (!build) throw new Error(`unknown export format '${format}'`);
      const bytes = build(request);
      post({ type: 'export', id, bytes }, [bytes.buffer]);
    },
  };
}
