// The explorer with the BPE tokenizer, in Chromium against the Vite dev server: merges
// learned in the worker with progress on the page, tokens that hold whitespace shown and
// typed readably everywhere, where a token came from, Stop while merges are learned,
// exports that keep tokens exact, and the King James Bible offered exactly when it is served.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { button, combobox, explorerSuite, field, mapCanvas, RESULTS, stat, waitUntilDone, showParameters } from './helpers.js';

const suite = explorerSuite({ before, after });

const fact = (page, name) => page.locator(`#token-info [data-fact="${name}"]`);
const progressText = (page) => page.locator('#progress-text');

/** Any whitespace a token may hold; none of it may reach the page unshown. */
const RAW_WHITESPACE = /[ \n\t\r]{2}|[\n\t\r]/;

/** Records every text the progress line shows, from now on. */
async function recordProgressText(page) {
  await page.evaluate(() => {
    window.progressTexts = [];
    const line = document.getElementById('progress-text');
    new MutationObserver(() => window.progressTexts.push(line.textContent))
      .observe(line, { childList: true, characterData: true, subtree: true });
  });
  return () => page.evaluate(() => window.progressTexts);
}

/**
 * Every label the plot's tooltip shows as the pointer sweeps the canvas (in the page, one
 * round trip), the way explorer.test.js finds a plotted word.
 */
async function plottedLabels(page) {
  await mapCanvas(page).scrollIntoViewIfNeeded();
  return page.evaluate(() => {
    const canvas = document.getElementById('plot');
    const tooltip = document.getElementById('tooltip');
    const box = canvas.getBoundingClientRect();
    const seen = new Set();
    for (let y = 10; y < box.height - 10; y += 3) {
      for (let x = 10; x < box.width - 10; x += 3) {
        canvas.dispatchEvent(new PointerEvent('pointermove', { pointerType: 'mouse', clientX: box.left + x, clientY: box.top + y, bubbles: true }));
        if (!tooltip.hidden) seen.add(tooltip.textContent);
      }
    }
    canvas.dispatchEvent(new PointerEvent('pointerleave', { pointerType: 'mouse' }));
    return [...seen];
  });
}

/** The core's escape of a token in word2vec and Projector files (src/io/escape.rs). */
function escapeToken(token) {
  return token.replace(/[\\ \n\t\r]/g, (c) => ({ '\\': '\\\\', ' ': '\\s', '\n': '\\n', '\t': '\\t', '\r': '\\r' })[c]);
}

test('BPE on the built-in sample: merge progress, readable tokens, search, provenance, exports', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();

  // Only the chosen tokenizer's fields show.
  await showParameters(page);
  assert.equal(await field(page, 'BPE vocabulary').isVisible(), false);
  await combobox(page, 'Tokenizer').selectOption('bpe');
  assert.equal(await field(page, 'BPE vocabulary').inputValue(), '800', "the sample's BPE size");
  assert.equal(await combobox(page, 'BPE merges').inputValue(), 'cross');
  assert.equal(await page.getByLabel('Lowercase').isVisible(), false);
  await page.locator('#cut-note', { hasText: 'press Train' }).waitFor();
  // The form checks the size.
  await field(page, 'BPE vocabulary').fill('50');
  await page.locator('#param-bpeVocabSize-help', { hasText: 'from 100 to 1,000,000' }).waitFor();
  assert.equal(await button(page, 'Train').isDisabled(), true);
  await field(page, 'BPE vocabulary').fill('800');

  const progressSeen = await recordProgressText(page);
  await button(page, 'Train').click();
  await waitUntilDone(page);
  const seen = await progressSeen();
  const learning = seen.map((text) => text.match(/^Learning BPE merges: ([\d,]+) of ([\d,]+)$/)).filter(Boolean);
  assert.ok(learning.length >= 2, `merge progress was shown: ${seen.slice(0, 5).join(' | ')}`);
  assert.ok(learning.every(([, , m]) => m === '772'), 'of 800 − 28 letters');
  assert.ok(learning.some(([, n]) => Number(n) < 772), 'progress arrived before the end');
  assert.ok(seen.indexOf(learning[0][0]) < seen.findIndex((text) => text.startsWith('Epoch')), 'merges first, then training');
  // BPE counted its tokens once the merges were learned.
  assert.match(await stat(page, 'Vocabulary').textContent(), /^\d+$/);

  // Completions show whitespace as signs; a phrase typed with spaces finds its token, which
  // ends in a space the search box cannot hold.
  await combobox(page, 'Word').fill('in the st');
  assert.equal(await combobox(page, 'Word').inputValue(), 'in·the·st', 'typed spaces show as ·');
  await page.waitForFunction(() => [...document.querySelectorAll('#vocab-completions option')].some((o) => o.value === 'in·the·story·'));
  const options = await page.locator('#vocab-completions option').evaluateAll((all) => all.map((o) => o.value));
  assert.ok(options.every((o) => !RAW_WHITESPACE.test(o) && !o.includes(' ')), options.join(' | '));
  await combobox(page, 'Word').fill('in the story');
  await button(page, 'Find').click();
  await page.getByText('Nearest to “in·the·story·”').waitFor();
  assert.equal(await combobox(page, 'Word').inputValue(), 'in·the·story·');

  // The dotted form finds the same kind of token.
  await combobox(page, 'Word').fill('as·everyone·knows·');
  await button(page, 'Find').click();
  await page.getByText('Nearest to “as·everyone·knows·”').waitFor();
  const neighbourTexts = await page.locator('#neighbours-list .word').allTextContents();
  assert.equal(neighbourTexts.length, 10);
  assert.ok(neighbourTexts.some((text) => text.includes('·')), neighbourTexts.join(' | '));
  assert.ok(neighbourTexts.every((text) => !text.includes(' ') && !RAW_WHITESPACE.test(text)), neighbourTexts.join(' | '));

  // Where the token came from: the merge, its rank, the count, and lines of the text.
  await page.getByText('Where “as·everyone·knows·” comes from').waitFor();
  assert.match(await fact(page, 'Merge').textContent(), /^\S+ \+ \S+$/);
  assert.ok((await fact(page, 'Merge').textContent()).includes('·'));
  assert.match(await fact(page, 'Merge rank').textContent(), /^\d+ \(learned \d+(st|nd|rd|th)\)$/);
  assert.match(await fact(page, 'Count').textContent(), /^[\d,]+$/);
  assert.equal(await fact(page, 'Spans words').textContent(), 'yes: it joins words');
  const lines = page.locator('#token-info-lines li');
  assert.equal(await lines.count(), 5);
  for (const mark of await page.locator('#token-info-lines li mark').allTextContents()) {
    assert.equal(mark, 'as everyone knows ');
  }
  assert.ok((await page.locator('#token-info-lines li mark').count()) >= 5);

  // A neighbour that joins words, clicked in the list, shows its own provenance.
  const phrase = page.locator('#neighbours-list .word', { hasText: '·' }).first();
  const phraseText = await phrase.textContent();
  await phrase.click();
  await page.getByText(`Where “${phraseText}” comes from`).waitFor();
  assert.equal(await combobox(page, 'Word').inputValue(), phraseText);

  // The plot's labels and tooltip show the signs too.
  const labels = await plottedLabels(page);
  assert.ok(labels.length > 10, `the plot answers the pointer: ${labels.length} labels`);
  assert.ok(labels.some((label) => label.includes('·')), labels.slice(0, 20).join(' | '));
  assert.ok(labels.every((label) => !label.includes(' ') && !RAW_WHITESPACE.test(label)), labels.join(' | '));
  await page.screenshot({ path: join(RESULTS, 'bpe-sample.png'), fullPage: true });

  // Exports keep the tokens exact: whitespace escaped as the core documents it.
  const download = async (name) => {
    const [file] = await Promise.all([page.waitForEvent('download'), button(page, name).click()]);
    return (await readFile(await file.path())).toString('utf8');
  };
  const escaped = escapeToken('as everyone knows ');
  assert.equal(escaped, 'as\\severyone\\sknows\\s');
  const word2vec = (await download('vectors.txt')).split('\n');
  assert.ok(word2vec.some((line) => line.startsWith(`${escaped} `)), 'the word2vec file names the token escaped');
  const metadata = (await download('metadata.tsv')).split('\n');
  assert.ok(metadata.includes(escaped), 'the Projector metadata names it the same way');
  assert.ok(metadata.every((line) => !line.includes(' ')), 'no raw spaces in the metadata');
  assert.deepEqual(problems, []);
  await page.close();
});

/**
 * A text whose BPE merges take a second or more to learn: 20,000 lines, each three random
 * lines of the built-in sample (which the wasm module gives), 4 MB.
 */
async function slowText() {
  const wasm = await import('../../www/pkg/embedscope.js');
  await wasm.default({ module_or_path: await readFile('www/pkg/embedscope_bg.wasm') });
  const lines = wasm.sample_text().split('\n');
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const line = () => lines[Math.floor(random() * lines.length)];
  return Array.from({ length: 20_000 }, () => `${line()} ${line()} ${line()}`).join('\n');
}

test('Stop while BPE merges are learned cancels them, and the page goes on', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await page.getByLabel('Open a file…').setInputFiles({
    name: 'sample-lines.txt', mimeType: 'text/plain', buffer: Buffer.from(await slowText()),
  });
  await stat(page, 'Vocabulary').waitFor({ timeout: 30_000 });
  await showParameters(page);
  await combobox(page, 'Tokenizer').selectOption('bpe');
  assert.equal(await field(page, 'BPE vocabulary').inputValue(), '8000');
  await field(page, 'BPE vocabulary').fill('1000000');
  // Stop is clicked from within the page as soon as the first merges are shown: learning
  // lasts about a second here, longer than a round trip from the test may take.
  await page.evaluate(() => {
    const line = document.getElementById('progress-text');
    const observer = new MutationObserver(() => {
      if (/^Learning BPE merges: [1-9]/.test(line.textContent)) {
        observer.disconnect();
        window.stopClickedAt = line.textContent;
        document.getElementById('stop').click();
      }
    });
    observer.observe(line, { childList: true, characterData: true, subtree: true });
  });
  await button(page, 'Train').click();
  await progressText(page).filter({ hasText: /^Stopped learning BPE merges at [\d,]+ of / }).waitFor();
  const clickedAt = await page.evaluate(() => window.stopClickedAt);
  const stoppedText = await progressText(page).textContent();
  const [clickedMerges, stoppedMerges] = [clickedAt, stoppedText].map((text) => Number(text.match(/([\d,]+) of/)[1].replaceAll(',', '')));
  assert.ok(stoppedMerges >= clickedMerges && stoppedMerges < 20_000, `${clickedAt} → ${stoppedText}`);
  await page.waitForTimeout(500);
  assert.equal(await progressText(page).textContent(), stoppedText, 'learning stopped');
  assert.equal(await page.getByRole('progressbar', { name: 'Training progress' }).getAttribute('data-state'), 'stopped');
  assert.equal(await button(page, 'Stop').isDisabled(), true);
  assert.equal(await button(page, 'Train').isDisabled(), false);
  await page.screenshot({ path: join(RESULTS, 'bpe-stopped.png'), fullPage: true });

  // The page goes on: a smaller BPE vocabulary learns and trains.
  await field(page, 'BPE vocabulary').fill('300');
  await field(page, 'Epochs').fill('1');
  await field(page, 'Dimensions').fill('20');
  await button(page, 'Train').click();
  await waitUntilDone(page, 120_000);
  await combobox(page, 'Word').fill('king');
  await button(page, 'Find').click();
  await page.locator('#neighbours-message', { hasText: /^Nearest to “king/ }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

/**
 * Runs `act` in the page (as `new Function` source, with `line`, the progress line, in
 * scope) the first time the progress line matches `pattern`: the moments these tests act in
 * last a fraction of a second, shorter than a round trip from the test may take.
 */
async function whenProgressShows(page, pattern, act) {
  await page.evaluate(({ source, body }) => {
    const line = document.getElementById('progress-text');
    const run = new Function('line', body);
    const observer = new MutationObserver(() => {
      if (new RegExp(source).test(line.textContent)) {
        observer.disconnect();
        window.actedAt = line.textContent;
        run(line);
      }
    });
    observer.observe(line, { childList: true, characterData: true, subtree: true });
  }, { source: pattern.source, body: act });
}

test('changing the BPE vocabulary while merges are learned: they finish and train with the size they started with', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await combobox(page, 'Tokenizer').selectOption('bpe');
  await field(page, 'BPE vocabulary').fill('20000');
  await field(page, 'Epochs').fill('1');
  await field(page, 'Dimensions').fill('20');
  await whenProgressShows(page, /^Learning BPE merges: [1-9]/, `
    const size = document.getElementById('param-bpeVocabSize');
    size.value = '300';
    size.dispatchEvent(new Event('input', { bubbles: true }));`);
  await button(page, 'Train').click();
  // It got stuck at the last merge before.
  await waitUntilDone(page, 20_000);
  const actedAt = await page.evaluate(() => window.actedAt);
  const [done, target] = actedAt.match(/^Learning BPE merges: ([\d,]+) of ([\d,]+)$/).slice(1).map((n) => Number(n.replaceAll(',', '')));
  assert.ok(done < target, `changed while learning: ${actedAt}`);
  // The merges of 20,000 were learned and trained on; the form waits for the next run.
  assert.equal(await page.locator('#params-pending').isVisible(), true);
  assert.equal(await field(page, 'BPE vocabulary').inputValue(), '300');
  // 20,000 merges cut the sample's 128 KB into under 5,000 tokens; 300 leave over 30,000.
  const tokens = async () => Number((await stat(page, 'Tokens').textContent()).replaceAll(',', ''));
  assert.ok(await tokens() < 10_000, `tokens of 20,000 merges: ${await tokens()}`);
  assert.equal(await button(page, 'Train again').isEnabled(), true);
  // Training again takes the new size.
  await button(page, 'Train again').click();
  // The note goes once the new run is prepared, before it trains.
  await page.locator('#params-pending').waitFor({ state: 'hidden' });
  await waitUntilDone(page);
  assert.ok(await tokens() > 20_000, `tokens of 300: ${await tokens()}`);
  assert.ok(Number(await stat(page, 'Distinct words').textContent()) <= 300);
  assert.deepEqual(problems, []);
  await page.close();
});

test('Stop just after the BPE merges are learned, while the text is tokenized with them, stops before training', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await combobox(page, 'Tokenizer').selectOption('bpe');
  await field(page, 'BPE vocabulary').fill('1000');
  await field(page, 'Epochs').fill('3');
  await field(page, 'Dimensions').fill('20');
  const progressSeen = await recordProgressText(page);
  await whenProgressShows(page, /^Learning BPE merges: ([\d,]+) of \1$/, `
    window.stopWasEnabled = !document.getElementById('stop').disabled;
    document.getElementById('stop').click();`);
  await button(page, 'Train').click();
  await page.waitForFunction(() => window.actedAt);
  assert.equal(await page.evaluate(() => window.stopWasEnabled), true);
  await page.waitForFunction(() => !document.getElementById('train').disabled);
  // Training would have shown its first progress by now.
  await page.waitForTimeout(1_500);
  const seen = await progressSeen();
  assert.ok(!seen.some((text) => /Epoch/.test(text)), `nothing trained: ${seen.slice(-4).join(' | ')}`);
  // Stop reached the worker before the text was tokenized with the merges: they are kept.
  assert.equal(await progressText(page).textContent(), 'Stopped before training: the BPE merges are learned (972 of 972).');
  assert.equal(await page.getByRole('progressbar', { name: 'Training progress' }).getAttribute('data-state'), 'stopped');
  await page.locator('#cut-note', { hasText: 'their tokens are counted when you press Train' }).waitFor();
  assert.equal(await button(page, 'Stop').isDisabled(), true);
  assert.equal(await button(page, 'Pause').isDisabled(), true);
  // Train works again, with the merges learned.
  await button(page, 'Train').click();
  await waitUntilDone(page);
  assert.ok((await progressSeen()).some((text) => /^Epoch 3 of 3/.test(text)));
  assert.deepEqual(problems, []);
  await page.close();
});

const kjvPresent = await access('data/kjv.txt').then(() => true, () => false);
const KJV_BUTTON = 'King James Bible (4 MB)';

/**
 * Asserts that the page, having read texts.json in full, does not offer the King James Bible.
 * The page decides once texts.json's body has arrived (www/main.js), so the wait counts from
 * that response, not from the page's load: a slow texts.json cannot make this pass unchecked.
 * The response is awaited within 30 s (failing when the page never asks), then the button
 * must stay hidden for a second, far longer than parsing `{}` takes.
 */
async function assertKjvNotOffered(page, texts) {
  const response = await texts;
  assert.equal(response.status(), 200);
  await response.finished();
  await page.waitForTimeout(1_000);
  assert.equal(await button(page, KJV_BUTTON).isVisible(), false, 'the King James Bible is offered');
  assert.equal(await button(page, 'Use the built-in sample').isVisible(), true);
}

/** The texts.json response the page is about to receive (attach before it loads). */
const textsResponse = (page) => page.waitForResponse((response) => new URL(response.url()).pathname === '/texts.json', { timeout: 30_000 });

test(`the King James Bible is offered ${kjvPresent ? 'and loads (data/kjv.txt is here)' : 'not at all (data/kjv.txt is missing)'}`, { timeout: 120_000 }, async () => {
  let texts;
  const { page, problems } = await suite.openExplorer(async (tab) => { texts = textsResponse(tab); });
  const kjv = button(page, KJV_BUTTON);
  if (!kjvPresent) {
    await assertKjvNotOffered(page, texts);
    assert.deepEqual(problems, []);
    await page.close();
    return;
  }
  // The offer must appear once texts.json has arrived; a generous bound, as the dev server
  // shares two cores with other builds.
  assert.deepEqual(await (await texts).json(), { kjv: 'data/kjv.txt' });
  await kjv.waitFor({ timeout: 30_000 });
  await kjv.click();
  await page.locator('#source-name', { hasText: 'King James Bible' }).waitFor();
  await stat(page, 'Tokens').waitFor({ timeout: 60_000 });
  const tokens = Number((await stat(page, 'Tokens').textContent()).replaceAll(',', ''));
  assert.ok(tokens > 780_000 && tokens < 800_000, `about 790,000 tokens: ${tokens}`);
  assert.equal(await stat(page, 'Lines').textContent(), '31,102');
  await showParameters(page);
  assert.equal(await combobox(page, 'Tokenizer').inputValue(), 'whitespace');
  assert.equal(await field(page, 'Dimensions').inputValue(), '100');
  assert.equal(await field(page, 'Min count').inputValue(), '5');
  // With BPE chosen, the Bible gets 8,000 cross-word tokens.
  await showParameters(page);
  await combobox(page, 'Tokenizer').selectOption('bpe');
  await kjv.click();
  await page.locator('#cut-note', { hasText: 'press Train' }).waitFor();
  assert.equal(await field(page, 'BPE vocabulary').inputValue(), '8000');
  assert.equal(await combobox(page, 'BPE merges').inputValue(), 'cross');
  // The worker fetched the text; the page never asked for it (texts.json told it is there).
  const pageFetches = await page.evaluate(() => performance.getEntriesByType('resource')
    .filter((entry) => entry.name.endsWith('/data/kjv.txt')).length);
  assert.equal(pageFetches, 0);
  await page.screenshot({ path: join(RESULTS, 'bpe-kjv.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('without data/kjv.txt on the server, the King James Bible is not offered', { timeout: 60_000 }, async () => {
  // What the dev server's texts.json says when data/ lacks it (vite.config.js), and what dist/ holds.
  let texts;
  const { page, problems } = await suite.openExplorer(async (tab) => {
    texts = textsResponse(tab);
    await tab.route('**/texts.json', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{}\n' }));
  });
  await assertKjvNotOffered(page, texts);
  assert.deepEqual(problems, []);
  await page.close();
});
