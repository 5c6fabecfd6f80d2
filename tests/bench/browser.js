// Runs tests/bench/worker.js (or with `bench=threads`, tests/bench/threads-worker.js) with
// the page's query parameters and shows its JSON result, for scripts/bench-browser.mjs and
// scripts/bench-threads.mjs to read. A file, not an inline script, because the server's
// Content-Security-Policy allows only files.
const params = Object.fromEntries(new URLSearchParams(location.search));
// Vite serves a worker only when it is created with this exact `new URL` shape.
const worker = params.bench === 'threads'
  ? new Worker(new URL('./threads-worker.js', import.meta.url), { type: 'module' })
  : new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const show = (result) => {
  document.getElementById('result').textContent = JSON.stringify(result);
  document.body.dataset.done = 'true';
};
worker.onmessage = ({ data }) => show(data);
worker.onerror = (event) => show({ error: event.message });
worker.postMessage(params);
