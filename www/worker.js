// The training worker. For now it only loads the wasm module and says which version it
// got, so the page knows the worker path works; it will own the training session.
import init, { version } from './pkg/embedscope.js';

init().then(
  () => self.postMessage({ type: 'ready', version: version() }),
  (error) => self.postMessage({ type: 'error', message: String(error?.message ?? error) }),
);
