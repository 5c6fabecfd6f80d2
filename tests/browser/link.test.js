// A link to a view trains its text with the parameters of the model it shows: "Copy link"
// promised the same seed, but a link opened in a new tab trained with the text's preset.
// In Chromium, against Vite.
//
// Run with `node --test tests/browser/link.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { button, combobox, explorerSuite, field, stat, waitUntilDone, showParameters } from './helpers.js';

const suite = explorerSuite({ before, after });

/** The neighbours of `word` as listed, words and scores. */
async function neighbours(page, word) {
  await combobox(page, 'Word').fill(word);
  await button(page, 'Find').click();
  await page.getByText(`Nearest to “${word}”`).waitFor();
  return page.locator('#neighbours-list').textContent();
}

test('a link trains its text with the parameters of the model shown, so one thread gives the same vectors', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  const chosen = { Seed: '42', Dimensions: '20', Epochs: '8', Window: '4', Threads: '1' };
  await showParameters(page);
  for (const [name, value] of Object.entries(chosen)) await field(page, name).fill(value);
  await button(page, 'Train').click();
  await waitUntilDone(page);
  const trained = await neighbours(page, 'king');
  await page.waitForFunction(() => location.hash.includes('params='));
  const url = page.url();

  // Changing the form afterwards changes nothing of the link: it is the trained model's.
  await field(page, 'Seed').fill('7');
  await page.waitForTimeout(300);
  assert.match(decodeURIComponent(page.url()), /"seed":"42"/);

  const copy = await suite.browser.context.newPage();
  await copy.goto(url);
  await waitUntilDone(copy);
  await showParameters(copy);
  for (const [name, value] of Object.entries(chosen)) assert.equal(await field(copy, name).inputValue(), value, name);
  assert.equal(await neighbours(copy, 'king'), trained, 'the same vectors, to the printed digit');
  await copy.close();

  // A link whose parameters are not the form's own, or nonsense, trains with the preset.
  const broken = new URL(url);
  broken.hash = broken.hash.replace(/params=[^&]*/, `params=${encodeURIComponent('{"seed":"x","evil":"<b>","dim":{}}')}`);
  const other = await suite.browser.context.newPage();
  await other.goto(broken.href);
  await showParameters(other);
  await other.locator('#param-seed-help', { hasText: /number/ }).waitFor();
  assert.equal(await other.evaluate(() => document.querySelector('b')), null);
  await other.close();
  assert.deepEqual(problems, []);
  await page.close();
});
