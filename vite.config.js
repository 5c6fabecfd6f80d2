import { defineConfig } from 'vite';

// Cross-origin isolation lets the page use SharedArrayBuffer and precise timers later;
// sending it from the start means nothing we add can quietly break it.
const crossOriginIsolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  // Relative asset URLs, so dist/ works from any path (a subfolder, a file server).
  base: './',
  server: {
    headers: crossOriginIsolation,
    // The project root also holds cargo's target/ and the tools; watching them is slow.
    watch: { ignored: ['**/target/**', '**/.tools/**', '**/data/**', '**/dist/**', '**/test-results/**'] },
  },
  preview: { headers: crossOriginIsolation },
  worker: { format: 'es' },
});
