// Nothing of a model that gave way stays on the page, and work in flight never overwrites
// newer work: answers are cleared when another text or vectors file opens or the text is
// trained again, a frame of the old model is not drawn, a read that a newer text replaced
// does not wipe it, a vectors file being read can be stopped or replaced, the sanity check
// and the person's evaluation do not replace each other, and the axes list survives frames.
// In Chromium, against Vite.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { button, combobox, explorerSuite, field, mapCanvas, RESULTS, stat, waitUntilDone, showParameters } from './helpers.js';

const suite = explorerSuite({ before, after });

const openFiles = (page, files) => page.getByLabel('Open a file…').setInputFiles(files);
const textFile = (name, text) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
const progressText = (page) => page.locator('#progress-text');

/** Opens the explorer on the built-in sample, prepared. */
async function openOnSample() {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  return { page, problems };
}

/** Starts a run of 500 epochs of the sample and waits until it is past its first epoch. */
async function trainLong(page) {
  await showParameters(page);
  await field(page, 'Epochs').fill('500');
  await button(page, 'Train').click();
  await progressText(page).filter({ hasText: /^Epoch [2-9]\d* of 500/ }).waitFor();
}

/**
 * Counts, in `window.framesSeen`, the frames the controller is handed from now on, drawn or
 * not: a frame the page drops is what these tests look for, and a person cannot see one.
 */
async function countFrames(page) {
  await page.evaluate(() => {
    window.framesSeen = 0;
    const show = window.explorer.showFrame.bind(window.explorer);
    window.explorer.showFrame = (frame) => {
      window.framesSeen += 1;
      show(frame);
    };
  });
}

/** Whether the map's canvas holds nothing at all: every pixel transparent. */
function plotIsBlank(page) {
  return page.evaluate(() => {
    const canvas = document.getElementById('plot');
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    return data.every((value) => value === 0);
  });
}

/** 20,000 words × 100 values in word2vec text: about 19 MB, five 4 MB slices. */
function largeVectors() {
  const lines = ['20000 100'];
  for (let i = 0; i < 20_000; i++) {
    lines.push(`w${i} ${Array.from({ length: 100 }, (_, j) => (Math.sin(i * 100 + j) / 2).toFixed(6)).join(' ')}`);
  }
  return textFile('big.txt', `${lines.join('\n')}\n`);
}

/** 120 words on a circle in 8 dimensions: w10's nearest neighbours are w9 and w11. */
function smallVectorsText() {
  const rows = Array.from({ length: 120 }, (_, i) => {
    const angle = (2 * Math.PI * i) / 120;
    const rest = Array.from({ length: 6 }, (_, j) => (((i * 31 + j * 17) % 13) - 6) / 1000);
    return `w${i} ${[Math.cos(angle), Math.sin(angle), ...rest].join(' ')}`;
  });
  return `120 8\n${rows.join('\n')}\n`;
}

/**
 * Does `action` as soon as the progress line first starts with `prefix`: inside the page, so
 * it happens while the worker is still at it, not a round trip later. (A function cannot be
 * passed in: the page's Content-Security-Policy forbids turning text into code.)
 * @param {'use the sample'|'stop and drop'} action  'stop and drop' drops a file of `text`
 */
function whenProgressShows(page, prefix, action, text = '') {
  return page.evaluate(({ prefix, action, text }) => {
    const line = document.getElementById('progress-text');
    const observer = new MutationObserver(() => {
      if (!line.textContent.startsWith(prefix)) return;
      observer.disconnect();
      if (action === 'use the sample') {
        document.getElementById('use-sample').click();
        return;
      }
      document.getElementById('stop').click();
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'circle.txt', { type: 'text/plain' }));
      document.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    observer.observe(line, { childList: true, characterData: true, subtree: true });
  }, { prefix, action, text });
}

/** Trains the sample and asks every question: neighbours, token facts, analogy, evaluation. */
async function trainAndAskEverything(page) {
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await page.locator('#sanity', { hasText: 'Sanity check' }).waitFor();
  await combobox(page, 'Word').fill('king');
  await button(page, 'Find').click();
  await page.getByText('Nearest to “king”').waitFor();
  await page.locator('#token-info').waitFor();
  await combobox(page, 'A').fill('king');
  await combobox(page, 'B').fill('queen');
  await combobox(page, 'C').fill('man');
  await button(page, 'Solve').click();
  await page.locator('#analogy-results').waitFor();
  await combobox(page, 'Benchmark').selectOption('planted-similarity');
  await button(page, 'Evaluate').click();
  await page.locator('#evaluation-message', { hasText: /^Spearman/ }).waitFor();
}

/** The answers on the page and on the map; `NO_ANSWERS` when none is shown. */
function answersOn(page) {
  return page.evaluate(() => {
    const $ = (id) => document.getElementById(id);
    // What the map draws for the answers is pixels on its canvas: read from its model.
    const { answers } = window.explorer.mapModel;
    return {
      neighbours: $('neighbours-list').children.length,
      neighboursMessage: $('neighbours-message').textContent,
      tokenInfo: !$('token-info').hidden,
      analogy: !$('analogy-results').hidden || $('analogy-message').textContent !== '',
      evaluation: !$('evaluation-results').hidden || $('evaluation-message').textContent !== '',
      sanity: !$('sanity').hidden,
      // What the map draws: the selected word, lines to its neighbours, the analogy's arrows.
      mapAnswers: answers.selected != null || answers.neighbours.length > 0 || answers.analogyWords != null,
    };
  });
}
const NO_ANSWERS = { neighbours: 0, neighboursMessage: '', tokenInfo: false, analogy: false, evaluation: false, sanity: false, mapAnswers: false };

test('after training, another text or vectors file clears the answers of the model it replaces', { timeout: 120_000 }, async () => {
  const { page, problems } = await openOnSample();
  await trainAndAskEverything(page);
  const answersShown = () => answersOn(page);
  assert.notDeepEqual(await answersShown(), NO_ANSWERS, 'answers are shown before');

  await openFiles(page, textFile('other.txt', 'the cat sat on the mat\n'.repeat(50)));
  await stat(page, 'Lines').filter({ hasText: '50' }).waitFor();
  assert.deepEqual(await answersShown(), NO_ANSWERS, 'a new text clears them');
  assert.equal(await plotIsBlank(page), true, 'the map of the trained model is gone');
  // Once read and tokenized, the progress line says where training stands, not the read.
  assert.equal(await progressText(page).textContent(), 'Not started.');

  // Vectors from a file likewise replace the answers of the trained model.
  await showParameters(page);
  await field(page, 'Min count').fill('1');
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await combobox(page, 'Word').fill('cat');
  await button(page, 'Find').click();
  await page.getByText('Nearest to “cat”').waitFor();
  await openFiles(page, textFile('circle.txt', smallVectorsText()));
  await stat(page, 'Format').waitFor();
  assert.deepEqual(await answersShown(), NO_ANSWERS, 'opened vectors clear them');
  assert.deepEqual(problems, []);
  await page.close();
});

test('training again clears the answers of the model it replaces, and keeps the words asked about', { timeout: 180_000 }, async () => {
  const { page, problems } = await openOnSample();
  await trainAndAskEverything(page);
  const answersShown = () => answersOn(page);
  const before = await answersShown();
  assert.deepEqual(Object.values(before).every(Boolean), true, `every answer is shown before: ${JSON.stringify(before)}`);

  // Another model of the same text: its answers would differ, so the old ones go as it starts.
  await showParameters(page);
  await combobox(page, 'Model').selectOption('cbow');
  await button(page, 'Train again').click();
  await page.waitForFunction(() => !document.getElementById('progress-text').textContent.startsWith('Done.'));
  // The sample's CBOW trains in a moment: the new model's own sanity check may be up already.
  assert.deepEqual({ ...(await answersShown()), sanity: false }, NO_ANSWERS, 'a new training clears the answers of the model it replaces');
  await waitUntilDone(page);
  // The sanity check is the new model's: it runs again once the new training is done.
  await page.locator('#sanity', { hasText: 'Sanity check' }).waitFor();
  assert.deepEqual({ ...(await answersShown()), sanity: false }, NO_ANSWERS, 'nothing of the old model came back');
  // The words asked about stay in their boxes, so asking the new model is one click.
  assert.deepEqual(
    [await combobox(page, 'Word').inputValue(), ...await Promise.all(['A', 'B', 'C'].map((name) => combobox(page, name).inputValue()))],
    ['king', 'king', 'queen', 'man'],
  );
  await button(page, 'Find').click();
  await page.getByText('Nearest to “king”').waitFor();
  // The map draws the new answer (pixels on its canvas: read from its model).
  assert.equal(await page.evaluate(() => window.explorer.mapModel.answers.selected), 'king');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a frame of the old model that arrives after "stop and open" is not drawn', { timeout: 120_000 }, async () => {
  const { page, problems } = await openOnSample();
  await trainLong(page);
  await page.locator('#plot-empty').waitFor({ state: 'hidden' });
  await countFrames(page);
  await button(page, 'Use the built-in sample').click();
  await button(page, 'Stop and open Built-in sample: planted royal/common people and countries').click();
  await progressText(page).filter({ hasText: 'Not started.' }).waitFor();
  await stat(page, 'Vocabulary').waitFor();
  // Stopping sends the last frame of the stopped run; it arrives after the new text was opened.
  await page.waitForFunction(() => window.framesSeen >= 1);
  assert.equal(await page.locator('#plot-empty').isVisible(), true, 'the map is empty until the new text trains');
  assert.equal(await plotIsBlank(page), true, 'the last picture of the old model does not show through');
  // Nothing on the empty map answers the pointer.
  const box = await mapCanvas(page).boundingBox();
  for (let i = 1; i < 10; i++) await page.mouse.move(box.x + (box.width * i) / 10, box.y + box.height / 2);
  assert.equal(await page.locator('#tooltip').isVisible(), false);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  assert.equal(await page.locator('#neighbours-list li').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a question to stop training is reworded when training ends before the answer, and still answered', { timeout: 120_000 }, async () => {
  const { page, problems } = await openOnSample();
  const question = page.locator('#confirm-text');
  // Twice: the run is stopped under the question and kept, then it finishes under the
  // question (asked while paused, then resumed) and gives way.
  await trainLong(page);
  await openFiles(page, textFile('other.txt', 'the cat sat on the mat\n'.repeat(50)));
  await question.filter({ hasText: /^Training is running\. Stop it and open other\.txt\?/ }).waitFor();
  await button(page, 'Stop').click();
  await question.filter({ hasText: 'Training has stopped. Open other.txt? The vectors it learned give way to it.' }).waitFor();
  assert.equal(await button(page, 'Stop and open other.txt').count(), 0, 'nothing is left to stop');
  await button(page, 'Keep these vectors').click();
  assert.equal(await page.locator('#confirm').isVisible(), false);
  assert.match(await progressText(page).textContent(), /^Stopped\. /, 'the stopped run stays');

  await showParameters(page);
  await field(page, 'Epochs').fill('20');
  await button(page, 'Train again').click();
  await button(page, 'Pause').click();
  await progressText(page).filter({ hasText: /^Paused\. / }).waitFor();
  await openFiles(page, textFile('other.txt', 'the cat sat on the mat\n'.repeat(50)));
  await question.filter({ hasText: /^Training is paused\. Stop it and open other\.txt\?/ }).waitFor();
  await button(page, 'Resume').click();
  await question.filter({ hasText: 'Training has finished. Open other.txt? The vectors it learned give way to it.' }).waitFor({ timeout: 60_000 });
  await button(page, 'Open other.txt').click();
  await stat(page, 'Lines').filter({ hasText: '50' }).waitFor();
  await progressText(page).filter({ hasText: 'Not started.' }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('a slow read that a newer text replaced does not wipe the newer text', { timeout: 180_000 }, async () => {
  const path = join(RESULTS, 'slow-read.txt');
  const line = 'alpha beta gamma delta epsilon zeta eta theta iota kappa\n';
  const handle = await open(path, 'w');
  const chunk = line.repeat(100_000);
  for (let written = 0; written < 60e6; written += chunk.length) await handle.write(chunk);
  await handle.close();
  const { page, problems } = await openOnSample();
  await page.evaluate(() => {
    const text = document.getElementById('progress-text');
    window.lastReadAt = 0;
    new MutationObserver(() => {
      if (text.textContent.startsWith('Reading the text')) window.lastReadAt = performance.now();
    }).observe(text, { childList: true, characterData: true, subtree: true });
  });
  // The person opens a large text, then changes their mind at once and takes the sample.
  await whenProgressShows(page, 'Reading the text', 'use the sample');
  await openFiles(page, path);
  await page.locator('#source-name', { hasText: 'Built-in sample' }).waitFor();
  await stat(page, 'Lines').filter({ hasText: '2,000' }).waitFor();
  // Let the large file's read end, however it ends.
  await page.waitForFunction(() => performance.now() - window.lastReadAt > 2000, null, { timeout: 60_000 });
  await rm(path);
  assert.equal(await stat(page, 'Lines').textContent(), '2,000');
  // Train at once, with the parameters it was prepared with (a changed field would prepare
  // the sample again and hide what the read did).
  await button(page, 'Train').click();
  await waitUntilDone(page);
  assert.equal(await page.locator('#notice').isVisible(), false, await page.locator('#notice').textContent());
  assert.deepEqual(problems, []);
  await page.close();
});

test('a vectors file being read gives way to the sample at once, and Stop then another file works', { timeout: 120_000 }, async () => {
  const { page, problems } = await openOnSample();
  const big = largeVectors();
  // Opening the sample while the vectors are read stops the read and opens the sample.
  await openFiles(page, textFile('first.txt', 'the cat sat on the mat\n'.repeat(50)));
  await stat(page, 'Lines').filter({ hasText: '50' }).waitFor();
  await whenProgressShows(page, 'Reading vectors', 'use the sample');
  await openFiles(page, big);
  await page.locator('#source-name', { hasText: 'Built-in sample' }).waitFor({ timeout: 20_000 });
  await stat(page, 'Lines').filter({ hasText: '2,000' }).waitFor({ timeout: 20_000 });
  assert.equal(await stat(page, 'Format').count(), 0, 'the vectors were not opened');

  // Stop, and at once another vectors file dropped on the page: the stopped read does not
  // feed the new one.
  const small = smallVectorsText();
  await whenProgressShows(page, 'Reading vectors', 'stop and drop', small);
  await openFiles(page, big);
  await stat(page, 'Vocabulary').filter({ hasText: '120' }).waitFor({ timeout: 20_000 });
  assert.equal(await stat(page, 'Dimensions').textContent(), '8');
  await combobox(page, 'Word').fill('w10');
  await button(page, 'Find').click();
  await page.getByText('Nearest to “w10”').waitFor();
  const neighbours = await page.locator('#neighbours-list li .word').allTextContents();
  assert.deepEqual(neighbours.slice(0, 2).sort(), ['w11', 'w9']);
  assert.equal(await button(page, 'Stop').isDisabled(), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the sanity check keeps to its line and does not replace an evaluation the person started', { timeout: 120_000 }, async () => {
  const { page, problems } = await openOnSample();
  await page.evaluate(() => {
    window.cardMessages = [];
    const message = document.getElementById('evaluation-message');
    new MutationObserver(() => window.cardMessages.push(message.textContent))
      .observe(message, { childList: true, characterData: true, subtree: true });
  });
  await showParameters(page);
  await field(page, 'Min count').fill('1');
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await page.locator('#sanity', { hasText: /^Sanity check on the planted analogies: 3CosAdd/ }).waitFor();
  assert.deepEqual(await page.evaluate(() => window.cardMessages), [], 'the evaluation card says nothing of the sanity check');

  // An analogy benchmark long enough to run in many chunks, from the sample's own words.
  const words = ['king', 'queen', 'man', 'woman', 'prince', 'princess', 'boy', 'girl', 'france', 'paris', 'germany', 'berlin'];
  const lines = [': planted'];
  for (let i = 0; lines.length < 60_000; i++) {
    lines.push([0, 1, 2, 3].map((j) => words[(i * (j + 3) + j * 5 + (i >> 4)) % words.length]).join(' '));
  }
  await page.locator('#benchmark-file').setInputFiles(textFile('many.txt', `${lines.join('\n')}\n`));
  // Training on the sample ending mid-evaluation runs the sanity check: here it is made to
  // start while the person's evaluation is at its first chunk, through the controller, since
  // no control starts it at a chosen moment.
  await page.evaluate(() => {
    const message = document.getElementById('evaluation-message');
    const observer = new MutationObserver(() => {
      if (!/^Evaluating: [\d,]+ of/.test(message.textContent)) return;
      observer.disconnect();
      window.explorer.sanityCheck();
    });
    observer.observe(message, { childList: true, characterData: true, subtree: true });
  });
  await button(page, 'Evaluate').click();
  await page.locator('#evaluation-table th', { hasText: 'All' }).waitFor({ timeout: 60_000 });
  const total = await page.locator('#evaluation-table tr').last().evaluate((tr) => [...tr.cells].map((c) => c.textContent));
  assert.equal(total[1], (lines.length - 1).toLocaleString('en'), total.join(' | '));
  assert.match(await page.locator('#evaluation-message').textContent(), /^3CosAdd/);
  await page.locator('#sanity', { hasText: /^Sanity check on the planted analogies: 3CosAdd/ }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('the axes list keeps its options while frames arrive, so it stays open under the pointer', { timeout: 120_000 }, async () => {
  const { page, problems } = await openOnSample();
  await trainLong(page);
  await combobox(page, 'Axes').selectOption('0,2');
  await page.evaluate(() => {
    for (const option of document.getElementById('plot-axes').options) option.dataset.seen = 'yes';
  });
  await countFrames(page);
  await page.waitForFunction(() => window.framesSeen >= 3, null, { timeout: 30_000 });
  const options = await page.locator('#plot-axes option').evaluateAll((all) => all.map((o) => ({ seen: o.dataset.seen, text: o.textContent })));
  assert.ok(options.length >= 3 && options.every((o) => o.seen === 'yes'), JSON.stringify(options));
  assert.match(options[0].text, /^PC1 \(\d+ %\) \/ PC2 \(\d+ %\)$/);
  assert.equal(await combobox(page, 'Axes').inputValue(), '0,2');
  await button(page, 'Stop').click();
  assert.deepEqual(problems, []);
  await page.close();
});
