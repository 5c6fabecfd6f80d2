// A language model's embedding matrix the size of Llama 3 8B's (128,256 tokens × 4,096
// dimensions, BF16, about 1 GB; tests/bench/write_model.py writes it once into
// data/bench-model/ with a tokenizer.json of as many tokens), opened natively and in the
// page: the time to open it, the peak memory, and the time of one neighbours query.
//
// Usage: node scripts/bench-model.mjs   (needs the native release build, www/pkg and
// www/pkg-threads built, and .tools/venv with safetensors)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { withChromium, withDevServer } from '../tests/browser/helpers.js';

const DIR = 'data/bench-model';
const MODEL = `${DIR}/model.safetensors`;
const TOKENIZER = `${DIR}/tokenizer.json`;
const TOKEN = 'Ġtoken1000';

if (!existsSync(MODEL) || !existsSync(TOKENIZER)) {
  console.log(`writing ${MODEL} and ${TOKENIZER} (once, about 1 GB)`);
  execFileSync('.tools/venv/bin/python', ['tests/bench/write_model.py', DIR], { stdio: 'inherit' });
}
const mb = (bytes) => `${Math.round(bytes / 2 ** 20).toLocaleString('en')} MB`;

/** Seconds and peak resident memory of one native command, from GNU time. */
function timed(args) {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %M', './target/release/embedscope', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (run.status !== 0) throw new Error(`embedscope ${args.join(' ')} failed: ${run.stderr}`);
  const out = run.stderr.toString().trim().split('\n');
  const [seconds, kb] = out.at(-1).split(' ').map(Number);
  return { seconds, bytes: kb * 1024 };
}

const info = timed(['info', MODEL]);
const query = timed(['neighbours', MODEL, TOKEN, '-k', '10']);
console.log(`native: embedscope info (open and keep the matrix) ${info.seconds.toFixed(2)} s, peak resident memory ${mb(info.bytes)}`);
console.log(`native: embedscope neighbours (open, then one query) ${query.seconds.toFixed(2)} s, so the query about ${(query.seconds - info.seconds).toFixed(2)} s`);

await withDevServer((url) =>
  withChromium({ viewport: { width: 1400, height: 900 } }, async (context) => {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector('#status')?.dataset.state !== 'loading', null, { timeout: 60_000 });
    const started = Date.now();
    await page.setInputFiles('#file-input', [MODEL, TOKENIZER]);
    await page.waitForFunction(() => /Opened the token embeddings/.test(document.body.textContent ?? ''), null, {
      timeout: 600_000,
      polling: 200,
    });
    const openSeconds = (Date.now() - started) / 1000;
    const explorer = await page.evaluateHandle(() => /** @type {any} */ (window).explorer);
    const memory = await explorer.evaluate((c) => c.request('memoryForTest').then((r) => r.bytes));
    const queryMs = await explorer.evaluate(async (c, word) => {
      const t = performance.now();
      await c.request('neighbours', { word, k: 10 });
      return performance.now() - t;
    }, TOKEN.replace('Ġ', ' '));
    console.log(`browser (wasm, worker): opened in ${openSeconds.toFixed(2)} s (4 MB slices of the matrix, the tokenizer read whole), wasm memory ${mb(memory)}, one neighbours query ${queryMs.toFixed(0)} ms`);
  }),
);
