// The parameters' form across what a person does: a change of model keeps the learning
// rate the field had for each model, opening another text keeps the person's own choices
// (model, threads, shared noise) while the text's preset applies, and the note that changed
// parameters wait for the next training goes once the form belongs to another text or to
// opened vectors. In Chromium, against Vite.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { button, combobox, explorerSuite, field, stat, showParameters } from './helpers.js';

const suite = explorerSuite({ before, after });

const textFile = (name, text) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
const openFiles = (page, files) => page.getByLabel('Open a file…').setInputFiles(files);
const sharedNoise = (page) => page.getByRole('checkbox', { name: 'Share noise words across a window', exact: true });
const pendingNote = (page) => page.getByText('The parameters changed: they apply when you train again.');

/** Opens the explorer on the built-in sample, prepared. */
async function openOnSample() {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  return { page, problems };
}

/** Opens a small text of its own (50 lines) and waits until it is prepared. */
async function openText(page, name) {
  await openFiles(page, textFile(name, 'the cat sat on the mat\n'.repeat(50)));
  await page.locator('#source-name', { hasText: name }).waitFor();
  await stat(page, 'Lines').filter({ hasText: '50' }).waitFor();
}

/** The form's fields a person's own choice or a text's preset sets, as the form shows them. */
async function formShows(page) {
  await showParameters(page);
  return {
    model: await combobox(page, 'Model').inputValue(),
    alpha: await field(page, 'Learning rate').inputValue(),
    threads: await field(page, 'Threads').inputValue(),
    // Hidden under CBOW, which draws once a window anyway, but kept for skip-gram.
    sharedNoise: await page.locator('#param-sharedNoise').isChecked(),
    window: await field(page, 'Window').inputValue(),
    tokenizer: await combobox(page, 'Tokenizer').inputValue(),
  };
}

test("a change of model and back keeps each model's learning rate: the preset's, the default or the person's", { timeout: 60_000 }, async () => {
  const { page, problems } = await openOnSample();
  await showParameters(page);
  const alpha = () => field(page, 'Learning rate').inputValue();
  // The sample's preset trains skip-gram at 0.05; CBOW's default is 0.05 too.
  assert.equal(await alpha(), '0.05');
  await showParameters(page);
  await combobox(page, 'Model').selectOption('cbow');
  assert.equal(await alpha(), '0.05');
  await combobox(page, 'Model').selectOption('skipgram');
  assert.equal(await alpha(), '0.05', "the sample's skip-gram rate comes back, not skip-gram's default");

  // Skip-gram's default gives way to CBOW's, and comes back.
  await field(page, 'Learning rate').fill('0.025');
  await combobox(page, 'Model').selectOption('cbow');
  assert.equal(await alpha(), '0.05');
  await combobox(page, 'Model').selectOption('skipgram');
  assert.equal(await alpha(), '0.025');

  // A rate the person typed is theirs: it goes with them, and comes back even when it is
  // the other model's default.
  await field(page, 'Learning rate').fill('0.05');
  await field(page, 'Learning rate').fill('0.04');
  await combobox(page, 'Model').selectOption('cbow');
  assert.equal(await alpha(), '0.04');
  await combobox(page, 'Model').selectOption('skipgram');
  assert.equal(await alpha(), '0.04');
  assert.deepEqual(problems, []);
  await page.close();
});

test("another text keeps the person's model, threads and shared noise; its preset sets the rest, the learning rate for the model kept", { timeout: 60_000 }, async () => {
  const { page, problems } = await openOnSample();
  await showParameters(page);
  const threads = await field(page, 'Threads').inputValue();
  const otherThreads = threads === '1' ? '2' : '1';
  await showParameters(page);
  await combobox(page, 'Model').selectOption('cbow');
  await field(page, 'Threads').fill(otherThreads);
  await openText(page, 'first.txt');
  assert.deepEqual(await formShows(page), {
    model: 'cbow', alpha: '0.05', threads: otherThreads, sharedNoise: false, window: '5', tokenizer: 'word',
  }, "CBOW and the threads stay; word2vec's defaults apply, with CBOW's learning rate");

  // Back to skip-gram with shared noise: the sample, then a text, keep them.
  await combobox(page, 'Model').selectOption('skipgram');
  await sharedNoise(page).check();
  await button(page, 'Use the built-in sample').click();
  await page.locator('#source-name', { hasText: 'Built-in sample' }).waitFor();
  await stat(page, 'Lines').filter({ hasText: '2,000' }).waitFor();
  assert.deepEqual(await formShows(page), {
    model: 'skipgram', alpha: '0.05', threads: otherThreads, sharedNoise: true, window: '8', tokenizer: 'whitespace',
  }, "the sample's preset, with the person's choices");
  await openText(page, 'second.txt');
  assert.deepEqual(await formShows(page), {
    model: 'skipgram', alpha: '0.025', threads: otherThreads, sharedNoise: true, window: '5', tokenizer: 'word',
  });

  // CBOW chosen on the sample: the text takes CBOW's default rate, not skip-gram's.
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Lines').filter({ hasText: '2,000' }).waitFor();
  await combobox(page, 'Model').selectOption('cbow');
  await openText(page, 'third.txt');
  assert.equal((await formShows(page)).alpha, '0.05');
  // And back to skip-gram there: word2vec's default for it.
  await combobox(page, 'Model').selectOption('skipgram');
  assert.equal((await formShows(page)).alpha, '0.025');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the note that changed parameters wait for the next training goes when another text, the sample or vectors open', { timeout: 120_000 }, async () => {
  const { page, problems } = await openOnSample();
  /** Trains the sample long, changes Window while it runs (the note shows), and stops. */
  const changeWhileTraining = async (window) => {
    await showParameters(page);
    await field(page, 'Epochs').fill('500');
    // Train, or Train again after the first run.
    await page.getByRole('button', { name: /^Train( again)?$/ }).click();
    await page.locator('#progress-text').filter({ hasText: /^Epoch \d+ of 500/ }).waitFor();
    await field(page, 'Window').fill(window);
    await pendingNote(page).waitFor();
    await button(page, 'Stop').click();
    await page.locator('#progress-text').filter({ hasText: /^Stopped\. / }).waitFor();
    assert.equal(await pendingNote(page).isVisible(), true, 'the note stays after Stop: the change waits for the next training');
  };

  await changeWhileTraining('4');
  await openText(page, 'other.txt');
  assert.equal(await pendingNote(page).isVisible(), false, 'another text');

  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Lines').filter({ hasText: '2,000' }).waitFor();
  await changeWhileTraining('3');
  await button(page, 'Use the built-in sample').click();
  await page.locator('#progress-text').filter({ hasText: 'Not started.' }).waitFor();
  await stat(page, 'Lines').filter({ hasText: '2,000' }).waitFor();
  assert.equal(await pendingNote(page).isVisible(), false, 'the built-in sample');

  await changeWhileTraining('4');
  await openFiles(page, textFile('vectors.txt', '3 2\nalpha 1 0\nbeta 0 1\ngamma 0.5 0.5\n'));
  await stat(page, 'Format').filter({ hasText: 'word2vec' }).waitFor();
  assert.equal(await pendingNote(page).isVisible(), false, 'opened vectors');
  assert.deepEqual(problems, []);
  await page.close();
});
