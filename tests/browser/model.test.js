// A language model's embedding matrix opened in the page: files written by the writers
// people use (tests/lm/: safetensors with tokenizers' tokenizer.json, llama.cpp's gguf), read
// in slices by the worker; the neighbours listed equal the cosines numpy's stored values give
// (computed here from the rows the writers' scripts saved); a matrix with no known name is
// offered for choosing; a cut file is refused and what was open stays. In Chromium.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { button, combobox, explorerSuite, stat } from './helpers.js';

const suite = explorerSuite({ before, after });
const dir = mkdtempSync(join(tmpdir(), 'embedscope-lm-'));
const python = '.tools/venv/bin/python';
before(() => {
  execFileSync(python, ['tests/lm/write_safetensors.py', join(dir, 'st')], { stdio: 'ignore' });
  execFileSync(python, ['tests/lm/write_gguf.py', join(dir, 'gguf')], { stdio: 'ignore' });
});
after(() => rmSync(dir, { recursive: true, force: true }));

const openFiles = (page, files) => page.getByLabel('Open a file…').setInputFiles(files);

/** The rows a writer's script saved (little-endian float32), `rows` × `cols`. */
function rowsOf(path, rows, cols) {
  const bytes = readFileSync(path);
  const values = new Float32Array(bytes.buffer, bytes.byteOffset, rows * cols);
  return Array.from({ length: rows }, (_, i) => values.subarray(i * cols, (i + 1) * cols));
}

/** The `k` rows nearest to row `query` by cosine (itself left out), with their cosines. */
function nearest(rows, query, k) {
  const norm = (v) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));
  const q = rows[query];
  const nq = norm(q);
  return rows
    .map((v, i) => ({ i, cos: i === query ? -Infinity : v.reduce((a, x, j) => a + x * q[j], 0) / (norm(v) * nq || 1) }))
    .sort((a, b) => b.cos - a.cos)
    .slice(0, k);
}

/** Asks for the neighbours of what is typed, and returns the words and scores listed. */
async function neighboursOf(page, typed) {
  await combobox(page, 'Word').fill(typed);
  await button(page, 'Find').click();
  await page.getByText(/^Nearest to “/).waitFor();
  const words = await page.locator('#neighbours-list li .word').allTextContents();
  const scores = (await page.locator('#neighbours-list li .score').allTextContents()).map(Number);
  return { words, scores };
}

test('a safetensors model with its tokenizer.json: tokens as text, neighbours as numpy computes them', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const manifest = JSON.parse(readFileSync(join(dir, 'st/manifest.json'), 'utf8'));
  const entry = manifest.files.find((f) => f.path === 'gpt2/bf16.safetensors');
  const tok = manifest.tokenizers[entry.tokenizer];
  await openFiles(page, [join(dir, 'st', entry.path), join(dir, 'st', entry.tokenizer)]);
  await page.getByText(/Opened the token embeddings of bf16\.safetensors/).waitFor({ timeout: 60_000 });
  assert.equal(await stat(page, 'Tensor').textContent(), 'transformer.wte.weight');
  assert.match(await stat(page, 'Dtype').textContent(), /^BF16/);
  assert.equal(await stat(page, 'Tokens').textContent(), entry.rows.toLocaleString('en'));
  // The Matrix card says what the matrix is.
  assert.equal(await page.locator('[data-model="Tensor"]').textContent(), 'transformer.wte.weight');
  assert.match(await page.locator('[data-model="Tokenizer"]').textContent(), /^byte-level BPE \(tokenizer\.json\)/);

  const rows = rowsOf(join(dir, 'st', entry.expected), entry.rows, entry.cols);
  const query = tok.raw.indexOf('Ġking');
  assert.ok(query > 0, 'the KJV tokenizer has Ġking');
  const want = nearest(rows, query, 5);
  // Typed as the file writes it, and as it is shown (a leading space as ·).
  for (const typed of ['Ġking', '·king']) {
    const { words, scores } = await neighboursOf(page, typed);
    assert.deepEqual(words.slice(0, 5), want.map(({ i }) => tok.decoded[i].replaceAll(' ', '·').replaceAll('\n', '¶')));
    for (const [j, s] of scores.slice(0, 5).entries()) {
    assert.ok(Math.abs(s - want[j].cos) < 6e-4, `${s} against ${want[j].cos}`);
  }
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('a GGUF file (Q4_K) with its own tokenizer: neighbours as gguf.quants.dequantize gives the rows', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const manifest = JSON.parse(readFileSync(join(dir, 'gguf/manifest.json'), 'utf8'));
  const entry = manifest.files.find((f) => f.type === 'Q4_K');
  await openFiles(page, [join(dir, 'gguf', entry.file)]);
  await page.getByText(/Opened the token embeddings of q4_k\.gguf/).waitFor({ timeout: 60_000 });
  assert.equal(await stat(page, 'Tensor').textContent(), 'token_embd.weight');
  const rows = rowsOf(join(dir, 'gguf', entry.expected), manifest.rows, manifest.dim);
  const want = nearest(rows, manifest.tokens.indexOf('Ġking'), 5);
  const { scores } = await neighboursOf(page, 'Ġking');
  for (const [j, s] of scores.slice(0, 5).entries()) {
    assert.ok(Math.abs(s - want[j].cos) < 6e-4, `${s} against ${want[j].cos}`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

/** A safetensors file of F32 tensors written here: `tensors` is [name, rows, cols][]. */
function safetensors(tensors) {
  const header = {};
  let offset = 0;
  for (const [name, rows, cols] of tensors) {
    header[name] = { dtype: 'F32', shape: [rows, cols], data_offsets: [offset, offset + 4 * rows * cols] };
    offset += 4 * rows * cols;
  }
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  const data = Buffer.alloc(offset);
  for (let i = 0; i < offset / 4; i += 1) data.writeFloatLE(Math.sin(i * 0.37) + (i % 7) * 0.01, 4 * i);
  return Buffer.concat([length, json, data]);
}

test('a matrix with no known name is chosen from the 2-D tensors; a cut file is refused and what was open stays', { timeout: 90_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const bytes = safetensors([['encoder.proj', 40, 8], ['vocab_table', 300, 16]]);
  await openFiles(page, [{ name: 'custom.safetensors', mimeType: 'application/octet-stream', buffer: bytes }]);
  const choice = page.getByRole('form', { name: 'Choose the embedding matrix' });
  await choice.waitFor();
  await choice.getByLabel('Tensor').selectOption('vocab_table');
  await choice.getByRole('button', { name: 'Open this tensor' }).click();
  await page.getByText(/Opened the token embeddings of custom\.safetensors: 300 tokens × 16 dimensions/).waitFor();
  assert.equal(await stat(page, 'Tensor').textContent(), 'vocab_table');

  const cut = bytes.subarray(0, bytes.length - 100);
  await openFiles(page, [{ name: 'cut.safetensors', mimeType: 'application/octet-stream', buffer: cut }]);
  await page.getByText(/cut short/).first().waitFor();
  assert.equal(await stat(page, 'Tensor').textContent(), 'vocab_table', 'the matrix opened before stays');
  assert.deepEqual(problems.filter((p) => !p.startsWith('console:')), []);
  await page.close();
});
