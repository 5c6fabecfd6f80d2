// A language model's embedding matrix opened in the page: files written by the writers
// people use (tests/lm/: safetensors with tokenizers' tokenizer.json, llama.cpp's gguf), read
// in slices by the worker. For every dtype and quantization, and a sharded model, the rows
// the page exports are the rows the writers' scripts saved (numpy's stored values, and
// gguf.quants.dequantize's) bit for bit, and the neighbours listed are the tokens and cosines
// computed here from them; a matrix with no known name is offered for choosing; a cut file is
// refused and what was open stays; Stop ends the read of a large matrix. In Chromium.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
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

/** Presses the Export card's button of the file `name` and returns the downloaded bytes. */
async function download(page, name) {
  const [file] = await Promise.all([page.waitForEvent('download'), button(page, name).click()]);
  return readFileSync(await file.path());
}

/** Undoes the escapes of an exported word (`\s` a space, `\n`, `\t`, `\r`, `\\`, `\u{a0}`). */
const unescapeWord = (word) => word.replace(/\\(s|n|t|r|\\|u\{([0-9a-f]+)\})/g, (_, e, hex) =>
  hex ? String.fromCodePoint(parseInt(hex, 16)) : { s: ' ', n: '\n', t: '\t', r: '\r', '\\': '\\' }[e]);

/** The words and rows of the page's vectors as its Export card writes them in word2vec's binary format. */
async function exportedRows(page) {
  const bytes = await download(page, 'vectors.bin');
  const headerEnd = bytes.indexOf(10);
  const [n, dim] = bytes.subarray(0, headerEnd).toString().split(' ').map(Number);
  const words = [];
  const rows = [];
  let at = headerEnd + 1;
  for (let i = 0; i < n; i += 1) {
    const space = bytes.indexOf(32, at);
    words.push(unescapeWord(bytes.subarray(at, space).toString('utf8')));
    rows.push(new Float32Array(bytes.buffer.slice(bytes.byteOffset + space + 1, bytes.byteOffset + space + 1 + 4 * dim)));
    at = space + 1 + 4 * dim + 1;
  }
  assert.equal(at, bytes.length, 'the export ends after its last row');
  return { words, rows, dim };
}

/** A row's bits, as a key: rows equal as keys are equal bit for bit. */
const bitsOf = (row) => Buffer.from(row.buffer, row.byteOffset, row.byteLength).toString('base64');

/**
 * Which token id each exported row is, found by its bits among numpy's rows: every row
 * the page holds must be one of numpy's, bit for bit, and each of numpy's once. Returns
 * the token id of each word the page shows.
 */
function idsOfWords(exported, rows) {
  const idOfBits = new Map(rows.map((row, id) => [bitsOf(row), id]));
  assert.equal(idOfBits.size, rows.length, 'numpy\'s rows are all different');
  assert.equal(exported.rows.length, rows.length, 'one row for each of numpy\'s');
  const idOfWord = new Map();
  for (const [i, row] of exported.rows.entries()) {
    const id = idOfBits.get(bitsOf(row));
    assert.ok(id !== undefined, `the row of '${exported.words[i]}' (${row.slice(0, 3).join(', ')}, …) is none of numpy's rows`);
    assert.ok(!idOfWord.has(exported.words[i]), `the word '${exported.words[i]}' names two rows`);
    idOfWord.set(exported.words[i], id);
  }
  assert.equal(new Set(idOfWord.values()).size, rows.length, 'each of numpy\'s rows once');
  return idOfWord;
}

/** Asks for the neighbours of what is typed: the words shown, the words themselves, and the scores. */
async function neighboursOf(page, typed) {
  // The last answer is cleared first, so the one waited for is this query's.
  await page.evaluate(() => {
    for (const id of ['neighbours-message', 'neighbours-list']) document.getElementById(id).replaceChildren();
  });
  await combobox(page, 'Word').fill(typed);
  await button(page, 'Find').click();
  await page.getByText(/^Nearest to “/).waitFor();
  const items = page.locator('#neighbours-list li .word');
  const shown = await items.allTextContents();
  const words = await items.evaluateAll((buttons) => buttons.map((b) => b.dataset.word));
  const scores = (await page.locator('#neighbours-list li .score').allTextContents()).map(Number);
  return { shown, words, scores };
}

/**
 * The page shows a score with 3 decimals (toFixed(3)): it must be numpy's cosine so
 * rounded, with a millionth of slack for a cosine at a half in float32.
 */
const SHOWN_ROUNDING = 5e-4 + 1e-6;

/** What the page shows of a token's whitespace: its signs (a space as ·, a line end as ¶, …). */
const withSigns = (text) => text.replaceAll(' ', '·').replaceAll('\n', '¶').replaceAll('\t', '→').replaceAll('\r', '←');

/**
 * What the page shows of a token Python's decoder writes as `decoded`: a control character
 * other than a tab or a line end as its code (`\x15`, `\u{85}`), as the tokenizer (src/lm) shows it.
 * Undefined where Python cannot write the token alone (a byte of a character, U+FFFD) or
 * has no token for the row (a padding row).
 */
function shownOf(decoded) {
  if (decoded === undefined || decoded.includes('\ufffd')) return undefined;
  const control = (code) => (code < 0x20 && !'\t\n\r'.includes(String.fromCharCode(code))) || (code >= 0x7f && code <= 0x9f);
  return withSigns([...decoded].map((c) => {
    const code = c.codePointAt(0);
    if (!control(code)) return c;
    const hex = code.toString(16).toUpperCase();
    return code < 0x80 ? `\\x${hex.padStart(2, '0')}` : `\\u{${hex}}`;
  }).join(''));
}

/**
 * Every model the writers made, as the person opens it in the page: the files dropped
 * together, what the page names the file, the tensor, its dtype, numpy's rows, the token
 * asked for, and (from tokenizers' decoder) each token as Python writes it, where known.
 */
function models() {
  const st = JSON.parse(readFileSync(join(dir, 'st/manifest.json'), 'utf8'));
  const gguf = JSON.parse(readFileSync(join(dir, 'gguf/manifest.json'), 'utf8'));
  const fromTokenizer = (entry, files, name) => {
    const tok = st.tokenizers[entry.tokenizer];
    const query = tok.raw.indexOf(tok.scheme === 'SentencePiece' ? '▁king' : 'Ġking');
    assert.ok(query >= 0, `${entry.tokenizer} has the token of ' king'`);
    return {
      label: `safetensors ${entry.dtype} ${entry.path ?? entry.index}`,
      files: [...files, entry.tokenizer].map((f) => join(dir, 'st', f)),
      name,
      tensor: entry.tensor,
      dtype: entry.dtype,
      tokenizer: `${tok.scheme} (tokenizer.json)`,
      rows: rowsOf(join(dir, 'st', entry.expected), entry.rows, entry.cols),
      cols: entry.cols,
      query,
      raw: tok.raw[query],
      decoded: tok.decoded,
    };
  };
  return [
    ...st.files.map((entry) => fromTokenizer(entry, [entry.path], basename(entry.path))),
    // A sharded model: its index and every shard (the folder's files) and the tokenizer dropped together.
    fromTokenizer(st.sharded, readdirSync(join(dir, 'st/sharded')).map((f) => `sharded/${f}`), basename(st.sharded.shard)),
    ...gguf.files.map((entry) => ({
      label: `GGUF ${entry.type}`,
      files: [join(dir, 'gguf', entry.file)],
      name: entry.file,
      tensor: 'token_embd.weight',
      dtype: entry.type,
      tokenizer: 'byte-level BPE (GGUF metadata)',
      rows: rowsOf(join(dir, 'gguf', entry.expected), gguf.rows, gguf.dim),
      cols: gguf.dim,
      query: gguf.tokens.indexOf('Ġking'),
      raw: 'Ġking',
      decoded: null,
    })),
  ];
}

test('every dtype and quantization, and a sharded model: the rows the page holds are numpy\'s bit for bit, the neighbours its cosines', { timeout: 150_000 }, async (t) => {
  const { page, problems } = await suite.openExplorer();
  for (const model of models()) {
    await t.test(model.label, async () => {
      const opened = `Opened the token embeddings of ${model.name}: ${model.rows.length.toLocaleString('en')} tokens × ${model.cols} dimensions (${model.tensor}, ${model.dtype}).`;
      // Consecutive models differ in this line, so waiting for it waits for this one.
      assert.notEqual(await page.locator('#progress-text').textContent(), opened);
      await openFiles(page, model.files);
      await page.locator('#progress-text', { hasText: opened }).waitFor({ timeout: 30_000 });
      assert.equal(await stat(page, 'Tensor').textContent(), model.tensor);
      assert.match(await stat(page, 'Dtype').textContent(), new RegExp(`^${model.dtype}\\b`));
      assert.equal(await stat(page, 'Tokens').textContent(), model.rows.length.toLocaleString('en'));
      // The Matrix card says what the matrix is.
      assert.equal(await page.locator('[data-model="Tensor"]').textContent(), model.tensor);
      const tokenizer = await page.locator('[data-model="Tokenizer"]').textContent();
      assert.ok(tokenizer.startsWith(model.tokenizer), tokenizer);
      // It draws the input matrix alone, and says why (the band is asked for once the card is seen).
      await page.locator('#matrix-card').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => window.explorer.matrix.shown?.output === 'model');
      assert.match(await page.locator('#matrix-output').textContent(), /its output matrix \(the unembedding, lm_head\) is not read/);
      assert.equal(await page.evaluate(() => window.explorer.matrix.shown.outputValues), undefined);

      const idOfWord = idsOfWords(await exportedRows(page), model.rows);
      const want = nearest(model.rows, model.query, 5);
      const spaced = model.raw.replace(/^[Ġ▁]/, ' ');
      // Typed as the file writes it, as the page shows it (a leading space as ·), and with a space.
      for (const typed of [model.raw, withSigns(spaced), spaced]) {
        const { shown, words, scores } = await neighboursOf(page, typed);
        assert.deepEqual(words.slice(0, 5).map((w) => idOfWord.get(w)), want.map(({ i }) => i), `the neighbours of ${typed}`);
        if (model.decoded) {
          for (const [j, { i }] of want.entries()) {
            const expected = shownOf(model.decoded[i]);
            if (expected !== undefined) assert.equal(shown[j], expected, `token ${i} as Python's decoder writes it`);
          }
        }
        for (const [j, s] of scores.slice(0, 5).entries()) {
          assert.ok(Math.abs(s - want[j].cos) <= SHOWN_ROUNDING, `${model.label}: ${s} shown for numpy's ${want[j].cos}`);
        }
      }
      // The row numpy has for the token asked for is named as a person reads the token.
      assert.equal(idOfWord.get(spaced), model.query);
    });
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

test('a special token among the neighbours is marked as one', { timeout: 60_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  const words = ['<|endoftext|>', ...'abcdefghijklmnopq'];
  const dim = 8;
  const header = Buffer.from(JSON.stringify({
    'model.embed_tokens.weight': { dtype: 'F32', shape: [words.length, dim], data_offsets: [0, 4 * words.length * dim] },
  }));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(header.length));
  // Each token points its own way; the special token's row is a's, a little turned.
  const data = Buffer.alloc(4 * words.length * dim);
  for (let row = 0; row < words.length; row += 1) {
    for (let col = 0; col < dim; col += 1) data.writeFloatLE(Math.sin(1 + row * 2.1 + col * 0.7 * (row + 1)), 4 * (row * dim + col));
  }
  for (let col = 0; col < dim; col += 1) data.writeFloatLE(data.readFloatLE(4 * (dim + col)) + (col === 0 ? 0.01 : 0), 4 * col);
  const tokenizer = {
    added_tokens: [{ id: 0, content: '<|endoftext|>', special: true }],
    model: { type: 'WordLevel', vocab: Object.fromEntries(words.map((w, i) => [w, i])), unk_token: '<|endoftext|>' },
  };
  await openFiles(page, [
    { name: 'tiny.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.concat([length, header, data]) },
    { name: 'tokenizer.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(tokenizer)) },
  ]);
  await page.getByText(/Opened the token embeddings of tiny\.safetensors/).waitFor();
  await neighboursOf(page, 'a');
  const first = page.locator('#neighbours-list li').first();
  assert.equal(await first.locator('.word').textContent(), '<|endoftext|>');
  assert.equal(await first.locator('.tag').textContent(), 'special');
  assert.equal(await page.locator('#neighbours-list li .tag').count(), 1, 'only the special token is marked');
  assert.deepEqual(problems, []);
  await page.close();
});

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

/**
 * Opens the model file `path` and clicks Stop from within the page as the progress line
 * first shows a share of the matrix read; waits for the notice that says the read stopped.
 * Returns the line Stop was clicked at.
 */
async function stopWhileReading(page, path) {
  await page.evaluate(() => {
    const line = document.getElementById('progress-text');
    const observer = new MutationObserver(() => {
      if (/^Reading the embedding matrix: [1-9]/.test(line.textContent)) {
        observer.disconnect();
        window.stoppedAt = line.textContent;
        document.getElementById('stop').click();
      }
    });
    observer.observe(line, { childList: true, characterData: true, subtree: true });
  });
  await openFiles(page, path);
  await page.locator('#notice', { hasText: `stopped reading ${basename(path)}` }).waitFor();
  const stoppedAt = await page.evaluate(() => window.stoppedAt);
  assert.match(stoppedAt, /^Reading the embedding matrix: \d+ % of/);
  assert.ok(!/: 100 %/.test(stoppedAt), stoppedAt);
  return stoppedAt;
}

test('Stop while a model\'s matrix is read: the read ends, what was open stays, and the page goes on', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  // About 100 MB of F32, read in 4 MB slices: Stop lands between two of them.
  const [rows, cols] = [200_000, 128];
  const header = Buffer.from(JSON.stringify({ 'model.embed_tokens.weight': { dtype: 'F32', shape: [rows, cols], data_offsets: [0, 4 * rows * cols] } }));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(header.length));
  const path = join(dir, 'big.safetensors');
  const slice = Buffer.alloc(4 * cols * 10_000);
  for (let i = 0; i < slice.length / 4; i += 1) slice.writeFloatLE(Math.sin(i * 0.37), 4 * i);
  writeFileSync(path, Buffer.concat([length, header]));
  for (let written = 0; written < rows; written += 10_000) appendFileSync(path, slice);
  assert.ok(statSync(path).size > 100e6);

  // Over the built-in sample: the sample stays, prepared and not trained, and Train works.
  await stopWhileReading(page, path);
  await page.locator('#source-name', { hasText: 'Built-in sample' }).waitFor();
  await page.waitForFunction(() => !document.getElementById('train').disabled);
  assert.equal(await page.locator('#progress-text').textContent(), 'Not started.');
  assert.equal(await stat(page, 'Tensor').count(), 0, 'no matrix is shown');

  // The page goes on: a model opens after it.
  const gguf = JSON.parse(readFileSync(join(dir, 'gguf/manifest.json'), 'utf8'));
  const want = nearest(rowsOf(join(dir, 'gguf/q8_0.f32'), gguf.rows, gguf.dim), gguf.tokens.indexOf('Ġking'), 1);
  await openFiles(page, join(dir, 'gguf/q8_0.gguf'));
  await page.locator('#progress-text', { hasText: 'Opened the token embeddings of q8_0.gguf' }).waitFor();
  const opened = await page.locator('#progress-text').textContent();
  const trainDisabled = await page.locator('#train').isDisabled();

  // Over that model: the model stays, its line, its facts and its neighbours.
  await stopWhileReading(page, path);
  await page.locator('#progress-text', { hasText: opened }).waitFor();
  assert.equal(await page.locator('#source-name').textContent(), 'q8_0.gguf');
  assert.equal(await stat(page, 'Tensor').textContent(), 'token_embd.weight');
  assert.match(await stat(page, 'Dtype').textContent(), /^Q8_0\b/);
  assert.equal(await page.locator('[data-model="Tensor"]').textContent(), 'token_embd.weight');
  assert.equal(await page.locator('#train').isDisabled(), trainDisabled, 'Train as it was');
  const { scores } = await neighboursOf(page, 'Ġking');
  assert.ok(Math.abs(scores[0] - want[0].cos) <= SHOWN_ROUNDING, `${scores[0]} against ${want[0].cos}`);
  rmSync(path);
  assert.deepEqual(problems, []);
  await page.close();
});
