// Runs tests/bench/worker.js with the page's query parameters and shows its JSON result,
// for scripts/bench-browser.mjs to read. A file, not an inline script, because the
// server's Content-Security-Policy allows only files.
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const params = Object.fromEntries(new URLSearchParams(location.search));
const show = (result) => {
  document.getElementById('result').textContent = JSON.stringify(result);
  document.body.dataset.done = 'true';
};
worker.onmessage = ({ data }) => show(data);
worker.onerror = (event) => show({ error: event.message });
worker.postMessage(params);
