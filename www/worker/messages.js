// @ts-check
// The training worker's side of talking to the page, shared by worker.js and the map's
// layout runner (layout.js): `post`, the one channel both loops yield through between
// chunks (so queries, pause and stop are read in between), and the one way a failure
// becomes an `error` message (or, for a trap of the wasm instance, ends the worker).

/**
 * Posts to the page. `self` is typed as a window here (the checker reads the page's lib), whose
 * postMessage takes a target origin; a worker's takes the transfer list second.
 * @type {(message: import('../protocol.js').WorkerMessage|object, transfer?: Transferable[]) => void}
 */
export const post = (message, transfer = []) => /** @type {any} */ (self).postMessage(message, transfer);

/** Lets queued messages run before the next chunk (a MessageChannel is not clamped like setTimeout). */
export const yieldToMessages = (() => {
  const channel = new MessageChannel();
  const waiting = [];
  channel.port1.onmessage = () => waiting.shift()();
  return () => new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
})();

/** Turns a failure into an `error` message; a trap of the wasm instance ends the worker. */
export function reportError(id) {
  return (error) => {
    const message = String(error?.message ?? error);
    if (error instanceof WebAssembly.RuntimeError) {
      post({ type: 'fatal', message });
      self.close();
      return;
    }
    // An unknown word's error carries its message in parts, with the spellings to suggest (src/wasm/session/mod.rs).
    post({ type: 'error', id, message, parts: error?.parts ?? null });
  };
}
