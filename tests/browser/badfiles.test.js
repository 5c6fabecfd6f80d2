// Bad files and values, one row each, as a person would meet them: each gets a message that
// says what is wrong and what to do, and the page still trains afterwards. In Chromium,
// against Vite.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { button as buttonIn, explorerSuite, field as fieldIn, RESULTS, stat as statIn, showParameters } from './helpers.js';

const suite = explorerSuite({ before, after });
let page;
let problems;

// One page for every row: each must leave it usable for the next.
before(async () => {
  await suite.ready;
  ({ page, problems } = await suite.openExplorer());
  await stat('Vocabulary').waitFor();
  // The tests below fill parameters: the disclosure stays open for all of them.
  await showParameters(page);
});

after(() => {
  assert.deepEqual(problems, [], 'no console error, uncaught exception or failed request in all the rows');
});

const button = (name) => buttonIn(page, name);
const field = (name) => fieldIn(page, name);
const stat = (name) => statIn(page, name);
const notice = () => page.getByRole('alert');
/** The first alert saying `text`: a text's refusal shows in the page's notice and in the Text card. */
const alertWith = (text) => notice().filter({ hasText: text }).first();
const textCard = () => page.getByRole('region', { name: /^Text/ });
const file = (name, content, mimeType = 'text/plain') => ({ name, mimeType, buffer: Buffer.from(content) });

/** Opens `files` as a person would, with the word2vec defaults in the form. */
async function openFile(files) {
  await page.getByLabel('Open a file…').setInputFiles(files);
}

/** The page still works: the sample trains for an epoch and answers a query. */
async function stillWorks() {
  await button('Use the built-in sample').click();
  await stat('Vocabulary').waitFor();
  await showParameters(page);
  await field('Epochs').fill('1');
  await button('Train').click();
  await page.waitForFunction(() => document.getElementById('progress-text').textContent.startsWith('Done.'), null, { timeout: 60_000 });
  await page.getByRole('combobox', { name: 'Word', exact: true }).fill('queen');
  await button('Find').click();
  await page.getByText('Nearest to “queen”').waitFor();
}

/** Opens a text that cannot be trained on and checks the message names the problem. */
async function refused(files, expected) {
  await openFile(files);
  await alertWith(expected).waitFor();
  await stillWorks();
}

const rows = [
  ['an empty file', [file('empty.txt', '')], /empty\.txt: the text holds no tokens: it is empty or only whitespace/],
  ['only whitespace', [file('blank.txt', ' \n\t\n   \n')], /holds no tokens/],
  ['only punctuation', [file('dots.txt', '... !!! ??? --- ;;; ,,,\n'.repeat(20))], /punctuation/i],
  ['a single distinct word', [file('one.txt', 'hello '.repeat(50))], /hello/],
  ['every word below the minimum count', [file('rare.txt', 'alpha beta gamma delta epsilon\n')], /min_count <= 1/],
  ['a PNG image', [file('photo.png', Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'), 'image/png')], /not text: it looks like a PNG image/],
  // A zip is read as the file inside (compressed.test.js); one that is only its magic number is corrupt.
  ['a broken ZIP archive', [file('archive.zip', Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(200, 7)]), 'application/zip')], /archive\.zip: this zip archive is corrupt or cut short .*unzip -t/],
  ['an old Word document', [file('letter.doc', Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(500)]), 'application/msword')], /not text: it looks like an old-style Word\/Excel document/],
  ['a compiled program', [file('program', Buffer.concat([Buffer.from('7f454c46020101', 'hex'), Buffer.alloc(500)]), 'application/octet-stream')], /not text: it looks like .*program/],
];

for (const [name, files, expected] of rows) {
  test(`${name} is refused with a message that says why, and the page goes on`, { timeout: 120_000 }, async () => {
    await refused(files, expected);
  });
}

test('a refused file says why in the Text card, and leaves Train and the progress line to the text still open', { timeout: 120_000 }, async () => {
  // The line once said "Reading the text: 100 %" and Train trained nothing but the refusal again.
  await button('Use the built-in sample').click();
  await stat('Vocabulary').waitFor();
  await page.locator('#source-name', { hasText: 'Built-in sample' }).waitFor();
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300, 9)]);
  await openFile([file('corpus.pdf', pdf, 'application/pdf')]);
  const refusal = textCard().getByRole('alert');
  await refusal.filter({ hasText: 'corpus.pdf' }).waitFor();
  assert.match(await refusal.textContent(), /^Cannot open corpus\.pdf: .*not text: it looks like a PDF document/);
  assert.equal(await refusal.isVisible(), true);
  const line = await page.locator('#progress-text').textContent();
  assert.doesNotMatch(line, /Reading the text/);
  assert.match(line, /Built-in sample: planted royal\/common people and countries is still open: Train uses it\./);
  assert.match(await page.locator('#source-name').textContent(), /^Built-in sample/);
  assert.equal(await button('Train').isDisabled(), false);
  await page.screenshot({ path: join(RESULTS, 'badfiles-refused.png'), fullPage: true });
  // Train trains the sample, and the refusal goes once the next text opens.
  await showParameters(page);
  await field('Epochs').fill('1');
  await button('Train').click();
  await page.waitForFunction(() => document.getElementById('progress-text').textContent.startsWith('Done.'), null, { timeout: 60_000 });
  await stillWorks();
  assert.equal(await refusal.isVisible(), false);
});

test('with nothing open, a refused file leaves Train disabled and the line saying nothing is open', { timeout: 120_000 }, async () => {
  // Nothing is open once the worker has been restarted (the page forgets the text). The
  // panic is the worker's test request, which no control can cause; it never answers, and
  // its console error is expected: a page of its own, so the shared page's stays clean.
  const { page: own, problems: ownProblems } = await suite.openExplorer();
  await own.evaluate(() => window.explorer.worker.request('testPanic').catch(() => {}));
  await own.getByRole('alert').filter({ hasText: 'The training worker stopped' }).first().waitFor();
  await own.waitForSelector('#worker-status[data-state="ready"]');
  const line = own.locator('#progress-text');
  await line.filter({ hasText: /^No text is open/ }).waitFor();
  await own.getByLabel('Open a file…').setInputFiles([file('photo.png', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'image/png')]);
  await own.getByRole('region', { name: /^Text/ }).getByRole('alert').filter({ hasText: /photo\.png: .*PNG image/ }).waitFor();
  assert.equal(await line.textContent(), 'No text is open: open a file or use the built-in sample to train.');
  assert.equal(await buttonIn(own, 'Train').isDisabled(), true);
  assert.deepEqual(ownProblems.filter((p) => !p.includes('a deliberate panic')), []);
  await own.close();
});

/** UTF-16 text: a byte-order mark and little-endian code units, or big-endian without a mark. */
function utf16(text, { bom, bigEndian }) {
  const units = Buffer.from(text, 'utf16le');
  if (bigEndian) units.swap16();
  return bom ? Buffer.concat([Buffer.from(bigEndian ? 'feff' : 'fffe', 'hex'), units]) : units;
}

const decoded = [
  ['UTF-16 with a byte-order mark', utf16('le café sur la table\n'.repeat(30), { bom: true, bigEndian: false }), /UTF-16/],
  ['UTF-16 without a byte-order mark', utf16('le café sur la table\n'.repeat(30), { bom: false, bigEndian: true }), /UTF-16/],
  ['Latin-1', Buffer.from('le café sur la table\n'.repeat(30), 'latin1'), /Windows-1252|Latin-1/],
];

for (const [name, bytes, note] of decoded) {
  test(`${name} is decoded, says how, and trains`, { timeout: 120_000 }, async () => {
    await openFile([file(`${name}.txt`, bytes)]);
    await page.locator('#source-name', { hasText: name }).waitFor();
    await stat('Vocabulary').waitFor();
    assert.match(await page.locator('#cut-note').textContent(), note);
    await showParameters(page);
    await field('Min count').fill('1');
    await field('Epochs').fill('1');
    await button('Train').click();
    await page.waitForFunction(() => document.getElementById('progress-text').textContent.startsWith('Done.'), null, { timeout: 60_000 });
    await page.getByRole('combobox', { name: 'Word', exact: true }).fill('café');
    await button('Find').click();
    await page.getByText('Nearest to “café”').waitFor();
  });
}

test('a file over the size limit is refused before it is read, naming the limit', { timeout: 120_000 }, async () => {
  const path = join(RESULTS, 'huge.txt');
  // 300 MB, sparse: its size alone must be enough to refuse it.
  const handle = await open(path, 'w');
  await handle.truncate(300e6);
  await handle.close();
  await page.getByLabel('Open a file…').setInputFiles(path);
  await alertWith('up to 250 MB').waitFor();
  assert.match(await alertWith('up to 250 MB').textContent(), /huge\.txt: this file is 300 MB.*command-line tool/);
  await rm(path);
  await stillWorks();
});

test('a 200 MB text is read and tokenized with progress, and trains', { timeout: 240_000 }, async () => {
  const path = join(RESULTS, 'large.txt');
  const words = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const lines = Array.from({ length: 20_000 }, () => Array.from({ length: 10 }, () => words[next() % words.length]).join(' '));
  const chunk = `${lines.join('\n')}\n`;
  const handle = await open(path, 'w');
  for (let written = 0; written < 200e6; written += chunk.length) await handle.write(chunk);
  await handle.close();
  const phases = await watchProgress();
  await page.getByLabel('Open a file…').setInputFiles(path);
  await stat('Lines').filter({ hasText: /^\d{1,3}(,\d{3}){2}$/ }).waitFor({ timeout: 200_000 });
  const seen = await phases();
  assert.ok(seen.reading >= 10 && seen.tokenizing >= 10, `progress while reading and tokenizing: ${JSON.stringify(seen)}`);
  await rm(path);
  await button('Train').click();
  await page.locator('#progress-text', { hasText: /^Epoch 1 of/ }).waitFor({ timeout: 120_000 });
  await button('Stop').click();
  await page.locator('#progress-text', { hasText: /^Stopped\./ }).waitFor();
  await stillWorks();
});

/** Counts the distinct reading and tokenizing progress texts shown from now on. */
async function watchProgress() {
  await page.evaluate(() => {
    window.progressSeen = { reading: new Set(), tokenizing: new Set() };
    const text = document.getElementById('progress-text');
    new MutationObserver(() => {
      const shown = text.textContent;
      if (shown.startsWith('Reading the text')) window.progressSeen.reading.add(shown);
      if (shown.startsWith('Tokenizing the text')) window.progressSeen.tokenizing.add(shown);
    }).observe(text, { childList: true, characterData: true, subtree: true });
  });
  return () => page.evaluate(() => ({ reading: window.progressSeen.reading.size, tokenizing: window.progressSeen.tokenizing.size }));
}

test('a 50 MB text with no line break is read with progress and trains', { timeout: 180_000 }, async () => {
  const path = join(RESULTS, 'one-line.txt');
  const words = ['stone', 'river', 'bread', 'light', 'shadow', 'field', 'water', 'bird'];
  const chunk = `${Array.from({ length: 100_000 }, (_, i) => words[(i * 7 + (i >> 3)) % words.length]).join(' ')} `;
  await writeFile(path, chunk.repeat(Math.ceil(50e6 / chunk.length)));
  const phases = await watchProgress();
  await page.getByLabel('Open a file…').setInputFiles(path);
  await stat('Lines').filter({ hasText: /^1$/ }).waitFor({ timeout: 120_000 });
  // One line is tokenized at its end, so only reading shows progress.
  assert.ok((await phases()).reading >= 3, 'reading showed progress');
  await rm(path);
  await button('Train').click();
  await page.locator('#progress-text', { hasText: /^Epoch 1 of/ }).waitFor({ timeout: 120_000 });
  await button('Stop').click();
  await page.locator('#progress-text', { hasText: /^Stopped\./ }).waitFor();
  await page.getByRole('combobox', { name: 'Word', exact: true }).fill('river');
  await button('Find').click();
  await page.getByText('Nearest to “river”').waitFor();
  await stillWorks();
});

test('a vocabulary too large for the dimension is refused before anything is allocated', { timeout: 120_000 }, async () => {
  const distinct = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}`);
  await openFile([file('many.txt', `${distinct.join(' ')}\n`)]);
  // Every word is under the default min count: the page says so (it waited 30 s for a
  // vocabulary that never came before).
  await alertWith(/many\.txt: no word is left/).waitFor();
  await showParameters(page);
  await field('Min count').fill('1');
  await field('Dimensions').fill('4096');
  await button('Train').click();
  await alertWith(/too large/).waitFor();
  assert.match(await alertWith(/too large/).textContent(), /200,000 words at dim 4096 need about [\d.]+ GiB.*keep at most [\d,]+ words at dim 4096, or lower dim to \d+/);
  await stillWorks();
});

test('a text with no two words in a line, or subsampled to nothing, is refused at Train, not trained at a loss of 0', { timeout: 120_000 }, async () => {
  // Both once ended "Done." with every epoch's loss 0 and the vectors as they started.
  const cases = [
    [file('oneperline.txt', 'alpha\nbeta\n'.repeat(50)), '0', /no line of the text holds two words/],
    [file('tiny3.txt', 'alpha beta gamma\n'), '0.001', /subsampling \(sample = 0\.001\) drops nearly every token.*set sample to 0/],
  ];
  for (const [text, sample, expected] of cases) {
    await openFile([text]);
    // tiny3.txt's words are under the default min count: the page says so until Min count is 1.
    await page.locator('#source-name', { hasText: text.name }).waitFor();
    await showParameters(page);
    await field('Min count').fill('1');
    await field('Subsampling').fill(sample);
    await field('Threads').fill('2');
    await button('Train').click();
    await alertWith(expected).waitFor();
    assert.doesNotMatch(await page.locator('#progress-text').textContent(), /^Done\./, text.name);
    await page.waitForFunction(() => !document.getElementById('train').disabled);
  }
  // With subsampling off, the three words train.
  await field('Subsampling').fill('0');
  await button('Train').click();
  await page.waitForFunction(() => document.getElementById('progress-text').textContent.startsWith('Done.'), null, { timeout: 60_000 });
  await stillWorks();
});

test('a learning rate that makes training diverge stops it with a message, and a sane one trains', { timeout: 120_000 }, async () => {
  await button('Use the built-in sample').click();
  await stat('Vocabulary').waitFor();
  await showParameters(page);
  await field('Learning rate').fill('10');
  await field('Dimensions').fill('300');
  await button('Train').click();
  await notice().filter({ hasText: 'diverged' }).waitFor();
  assert.match(await notice().textContent(), /lower the learning rate/);
  await page.waitForFunction(() => !document.getElementById('train').disabled);
  await field('Learning rate').fill('0.05');
  await field('Dimensions').fill('50');
  await stillWorks();
  await page.screenshot({ path: join(RESULTS, 'badfiles-last.png'), fullPage: true });
});

test('Train again refused by the core keeps the vectors trained before: queries, exports and the map', { timeout: 120_000 }, async () => {
  // It once went back to "not prepared" with every export disabled, the model still in the worker.
  await button('Use the built-in sample').click();
  await stat('Vocabulary').waitFor();
  await showParameters(page);
  await field('Epochs').fill('1');
  await button('Train').click();
  await page.waitForFunction(() => document.getElementById('progress-text').textContent.startsWith('Done.'), null, { timeout: 60_000 });
  await field('Min count').fill('100000');
  await button('Train again').click();
  await notice().filter({ hasText: /Cannot train .* again: .*min_count <= \d+.*The vectors trained before are kept/ }).waitFor();
  assert.equal(await button('vectors.txt').isDisabled(), false, 'the trained vectors can still be exported');
  assert.equal(await button('Train again').isDisabled(), false);
  assert.match(await page.locator('#progress-text').textContent(), /^Done\./);
  await page.getByRole('combobox', { name: 'Word', exact: true }).fill('queen');
  await button('Find').click();
  await page.getByText('Nearest to “queen”').waitFor();
  await field('Min count').fill('5');
  await stillWorks();
});

test('nonsense parameters are refused in the form, naming the range, and the core refuses the rest', { timeout: 120_000 }, async () => {
  await button('Use the built-in sample').click();
  await stat('Vocabulary').waitFor();
  const cases = [
    // One dimension trained, then failed at the first frame of the map: the form refuses it.
    ['Dimensions', '0', /2 to 4,?096/], ['Dimensions', '1', /2 to 4,?096: the map plots two/],
    ['Dimensions', '100000', /2 to 4,?096/], ['Window', '0', /1 to 100/],
    ['Negative samples', '0', /1 to 100/], ['Epochs', '0', /1 to 1,?000/], ['Learning rate', '-0.5', /0\.0001 to 10/],
    ['Learning rate', 'NaN', /number/], ['Dimensions', '2.5', /whole number|integer/],
  ];
  for (const [name, value, help] of cases) {
    const input = field(name);
    const before = await input.inputValue();
    await input.fill(value);
    assert.equal(await input.getAttribute('aria-invalid'), 'true', `${name} = ${value}`);
    const helpText = await page.locator(`#${await input.getAttribute('aria-describedby')}`).textContent();
    assert.match(helpText, help, `${name} = ${value}: ${helpText}`);
    assert.equal(await button('Train').isDisabled(), true, `${name} = ${value}`);
    await input.fill(before);
    assert.equal(await input.getAttribute('aria-invalid'), 'false');
  }
  // A minimum count above every count passes the form; the core names the largest count.
  await showParameters(page);
  await field('Min count').fill('100000');
  await button('Train').click();
  await notice().filter({ hasText: /min_count <= \d+/ }).waitFor();
  await field('Min count').fill('5');
  await stillWorks();
});
