// A word the vocabulary lacks, typed in another case or with a letter wrong, on every card
// that takes a word: the card names it, offers the spellings the vocabulary holds as buttons,
// and a click on one uses it and answers. The built-in sample's words are lowercase
// ("france", "egypt", "berlin").
//
// Run with `node --test tests/browser/spelling.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { button, combobox, explorerSuite, RESULTS, trainSampleOnMap } from './helpers.js';

const suite = explorerSuite({ before, after });

const axisWord = (page, axis, end) => page.getByRole('group', { name: axis }).getByRole('combobox', { name: end, exact: true });

test('an unknown word gets the nearest spellings as buttons on Neighbours, Analogy and the word axes, and a click answers', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await trainSampleOnMap(page);

  // Neighbours: another case.
  await combobox(page, 'Word').fill('France');
  await button(page, 'Find').click();
  const neighboursMessage = page.locator('#neighbours-message');
  await page.locator('#neighbours-message', { hasText: "'France' is not in the vocabulary. Did you mean france, prince or french?" }).waitFor();
  await page.locator('.card', { has: neighboursMessage }).screenshot({ path: join(RESULTS, 'spelling-neighbours.png') });
  await neighboursMessage.getByRole('button', { name: 'france', exact: true }).click();
  await page.getByText('Nearest to “france”').waitFor();
  assert.equal(await combobox(page, 'Word').inputValue(), 'france');
  assert.ok(await page.locator('#neighbours-list li').count() > 0, 'the neighbours of the spelling clicked are listed');

  // Analogy: two unknown words, one in another case, one with two letters swapped.
  await combobox(page, 'A').fill('paris');
  await combobox(page, 'B').fill('France');
  await combobox(page, 'C').fill('berlni');
  await button(page, 'Solve').click();
  const analogyMessage = page.locator('#analogy-message');
  await page.locator('#analogy-message', { hasText: "'France' and 'berlni' are not in the vocabulary." }).waitFor();
  await page.locator('.card', { has: analogyMessage }).screenshot({ path: join(RESULTS, 'spelling-analogy.png') });
  await analogyMessage.getByRole('button', { name: 'france', exact: true }).click();
  // B took the spelling; C is still unknown, and the card says so alone.
  await page.locator('#analogy-message', { hasText: /^'berlni' is not in the vocabulary\. Did you mean berlin\?$/ }).waitFor();
  assert.equal(await combobox(page, 'B').inputValue(), 'france');
  await analogyMessage.getByRole('button', { name: 'berlin', exact: true }).click();
  await page.locator('#analogy-message', { hasText: /^paris is to france as berlin is to \S+$/ }).waitFor();
  assert.equal(await combobox(page, 'C').inputValue(), 'berlin');

  // Axes defined by words: a swap of two letters.
  await page.getByText('Axes defined by words').click();
  await axisWord(page, 'Horizontal', 'from').fill('Egpyt');
  await axisWord(page, 'Horizontal', 'to').fill('paris');
  await button(page, 'Use these axes').click();
  const axesMessage = page.locator('#axes-message');
  await page.locator('#axes-message', { hasText: "'Egpyt' is not in the vocabulary. Did you mean egypt" }).waitFor();
  await axesMessage.screenshot({ path: join(RESULTS, 'spelling-axes.png') });
  await axesMessage.getByRole('button', { name: 'egypt', exact: true }).click();
  await combobox(page, 'Axes').locator('option:checked', { hasText: /^egypt → paris \/ PC2/ }).waitFor({ state: 'attached' });
  assert.equal(await axisWord(page, 'Horizontal', 'from').inputValue(), 'egypt');
  assert.equal(await axesMessage.textContent(), '', 'the message goes once the axes are drawn');

  assert.deepEqual(problems, []);
  await page.close();
});
