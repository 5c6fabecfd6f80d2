import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

/**
 * `texts.json`, the optional texts the server holds (see www/app/main.js). The dev server
 * answers it from what data/ holds now, so a KJV fetched while it runs is offered on the
 * next load; the build writes `{}`, since dist/ never holds the KJV (a host that adds
 * data/kjv.txt beside index.html lists it there as `{"kjv": "data/kjv.txt"}`).
 * @returns {import('vite').Plugin}
 */
function textsManifest() {
  return {
    name: 'embedscope:texts-manifest',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        if (new URL(request.url, 'http://host').pathname !== '/texts.json') return next();
        const texts = existsSync(join(server.config.root, 'data/kjv.txt')) ? { kjv: 'data/kjv.txt' } : {};
        response.setHeader('Content-Type', 'application/json');
        response.setHeader('Cache-Control', 'no-store');
        response.end(`${JSON.stringify(texts)}\n`);
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'texts.json', source: '{}\n' });
    },
  };
}

/** The wasm exports only the browser tests call (`panic_for_test`) are named so. */
const TEST_EXPORT = /_for_test$/;

/**
 * Removes the test exports and the code only they reach from the .wasm files of the build.
 * www/app/main.js and www/worker/worker.js drop their calls under `import.meta.env.DEV`, and the bundler then
 * drops the glue's wrappers; this takes the exports out of the module itself, since one
 * wasm build serves both the dev server (which needs them) and the production bundle. The
 * worker's build runs it first and hands its stripped copy on, so a module without test
 * exports is left as it is.
 * @returns {import('vite').Plugin}
 */
function withoutTestExports() {
  return {
    name: 'embedscope:without-test-exports',
    apply: 'build',
    async generateBundle(_options, bundle) {
      const { default: binaryen } = await import('binaryen');
      for (const asset of Object.values(bundle)) {
        if (asset.type !== 'asset' || !asset.fileName.endsWith('.wasm')) continue;
        const module = binaryen.readBinary(asset.source);
        try {
          const exports = Array.from({ length: module.getNumExports() }, (_, i) => binaryen.getExportInfo(module.getExportByIndex(i)).name);
          const hooks = exports.filter((name) => TEST_EXPORT.test(name));
          if (!hooks.length) continue;
          for (const name of hooks) module.removeExport(name);
          module.runPasses(['remove-unused-module-elements']);
          if (!module.validate()) this.error(`${asset.fileName} is not valid without its test exports (${hooks.join(', ')})`);
          asset.source = module.emitBinary();
        } finally {
          module.dispose();
        }
      }
    },
  };
}

export default defineConfig({
  // Relative asset URLs, so dist/ works from any path (a subfolder, a file server).
  base: './',
  plugins: [textsManifest(), withoutTestExports()],
  server: {
    headers,
    // The project root also holds cargo's target/ and the tools; watching them is slow.
    watch: { ignored: ['**/target/**', '**/.tools/**', '**/data/**', '**/dist/**', '**/test-results/**'] },
  },
  preview: { headers },
  // The worker is bundled on its own, with its own copy of the wasm asset.
  worker: { format: 'es', plugins: () => [withoutTestExports()] },
});
