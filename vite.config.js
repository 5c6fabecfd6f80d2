import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';

// Cross-origin isolation lets the page use SharedArrayBuffer and precise timers later;
// sending it from the start means nothing we add can quietly break it.
const crossOriginIsolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// The Content-Security-Policy of index.html's <meta> tag (written once, there), sent as a
// header as well: a worker takes its policy from its own response's headers, not from the
// page. A static host serving dist/ without headers still has the <meta>.
const contentSecurityPolicy = readFileSync(new URL('./index.html', import.meta.url), 'utf8')
  .match(/http-equiv="Content-Security-Policy"\s+content="([^"]+)"/)[1];
const headers = { ...crossOriginIsolation, 'Content-Security-Policy': contentSecurityPolicy };

export default defineConfig({
  // Relative asset URLs, so dist/ works from any path (a subfolder, a file server).
  base: './',
  server: {
    headers,
    // The project root also holds cargo's target/ and the tools; watching them is slow.
    watch: { ignored: ['**/target/**', '**/.tools/**', '**/data/**', '**/dist/**', '**/test-results/**'] },
  },
  preview: { headers },
  worker: { format: 'es' },
});
