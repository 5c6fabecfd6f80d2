// @ts-check
// What the page says when the wasm module does not load, in the page (main.js) or in the
// training worker (worker-client.js, beside it): what went wrong and what the person can do about it.

/**
 * A function returning a v128 (`i32.const 0; i8x16.splat; i8x16.popcnt`), valid only where
 * WebAssembly SIMD is, which the module is compiled with (`+simd128`).
 */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
const BROWSERS = 'Chrome or Edge 91, Firefox 89, Safari 16.4 or later';

/** Why this browser cannot run the module at all, or null when it can. */
function missingFeature() {
  if (typeof WebAssembly !== 'object') return `This browser has no WebAssembly; embedscope needs ${BROWSERS}.`;
  if (!WebAssembly.validate(SIMD_PROBE)) return `This browser lacks WebAssembly SIMD, which embedscope needs: use ${BROWSERS}.`;
  return null;
}

/**
 * `what` failed because of `reason` (an error message, with or without the browser's
 * "Uncaught Error: " in front): one message saying both, and what to do.
 * @param {string} what  e.g. "The training worker could not start"
 * @param {string} reason
 */
export function explainLoadFailure(what, reason) {
  const cause = String(reason).replace(/^Uncaught /, '').replace(/^Error: /, '');
  const advice = missingFeature()
    ?? (/wasm/i.test(cause)
      ? 'The server did not serve the app\'s .wasm file. Reload the page; if that does not help, the site is '
        + 'missing it: serve the whole of dist/ from `npm run build`, or run `npm start`.'
      : 'Reload the page; if that does not help, the site is missing some of its files: serve the whole of dist/ from `npm run build`.');
  return `${what}: ${cause}. ${advice}`;
}
