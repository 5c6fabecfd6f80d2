// The Sampling card in Chromium, against Vite: after training the built-in sample, a word
// selected on the page shows its count, its keep probability under subsampling and its
// probability as a noise word, each the trainer's own definition, and the words most often
// in its window, each a button that selects it; the Zipf chart draws the vocabulary's three
// curves. Vectors opened from a file have no sampling, and the card says why.
//
// Run with `node --test tests/browser/sampling.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RESULTS, button, combobox, explorerSuite, field, showParameters, stat, waitUntilDone } from './helpers.js';

const suite = explorerSuite({ before, after });

const card = (page) => page.getByRole('region', { name: 'Sampling', exact: true });
/** The card's facts, term → value. */
const facts = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#sampling-facts dd')].map((dd) => [dd.dataset.sampling, dd.textContent])));

/** Selects `word` as a person does: typed into the Neighbours card, then Find. */
async function select(page, word) {
  await combobox(page, 'Word').fill(word);
  await page.locator('#neighbours-form').getByRole('button', { name: 'Find' }).click();
  await page.locator('#neighbours-message', { hasText: `Nearest to “${word}”` }).waitFor();
}

/** The worker's sampling of `word`, which the card shows. Its exact numbers are no text on the page: asked through the dev server's `window.explorer`. */
const sampling = (page, word) => page.evaluate((w) => window.explorer.worker.request('wordSampling', { word: w, partners: 10 }), word);

test('a selected word\'s count, keep and noise probabilities are the trainer\'s, its partners select, the Zipf chart is drawn', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  // The sample's preset keeps every token; a threshold of 10⁻³ subsamples its frequent words.
  await showParameters(page);
  await field(page, 'Subsampling').fill('0.001');
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await card(page).scrollIntoViewIfNeeded();
  await page.locator('#zipf-figure').waitFor();
  assert.match(await page.locator('#sampling-message').textContent(), /^Select a word/);

  await select(page, 'king');
  await page.locator('#sampling-word-title', { hasText: '“king”' }).waitFor();
  const king = (await sampling(page, 'king')).sampling;
  const the = (await sampling(page, 'the')).sampling;
  // Subsampling, word2vec's formula: keep (√(f/t) + 1) · t/f, f the count, t = sample × tokens,
  // at most 1; the trainer's 32-bit coin rounds it down by less than 2⁻³².
  for (const s of [king, the]) {
    const tokens = s.count / s.frequency;
    const threshold = s.sample * tokens;
    const keep = Math.min(1, (Math.sqrt(s.count / threshold) + 1) * (threshold / s.count));
    assert.ok(Math.abs(s.keep - keep) <= 2 ** -32, `${s.word}: kept ${s.keep}, the formula ${keep}`);
  }
  assert.ok(the.keep < king.keep, `the most frequent word is kept less often (${the.keep} < ${king.keep})`);
  // Noise: count^0.75, normalised, so two words' probabilities are as their counts to the 0.75.
  assert.ok(Math.abs(the.noise / king.noise - (the.count / king.count) ** 0.75) < 1e-9);
  assert.ok(the.noise < the.frequency && king.noise > king.frequency, 'the noise distribution lowers the frequent, lifts the rarer');

  // The card says the same numbers.
  const shown = await facts(page);
  assert.ok(shown.Count.startsWith(`${king.count.toLocaleString('en')} (`) && shown.Count.endsWith(`of the tokens, rank ${king.rank + 1})`), shown.Count);
  const keptPercent = Number(shown.Kept.match(/^([\d.]+) % of its tokens/)[1]);
  assert.ok(Math.abs(keptPercent - king.keep * 100) < 0.06, `${shown.Kept} for ${king.keep}`);
  assert.match(shown.Kept, new RegExp(`t = ${king.sample}$`));
  assert.match(shown.Noise, /of noise draws: count\^0\.75, normalised; .* times its frequency$/);
  assert.equal(await stat(page, 'Vocabulary').textContent(), '183');

  // Partners: the words most often within the window, most frequent first, as buttons.
  const partners = await page.locator('#sampling-partners button').allTextContents();
  assert.deepEqual(partners, king.partners.map((p) => p.word));
  assert.ok(king.partners.length === 10 && king.partners.every((p, i) => i === 0 || p.count <= king.partners[i - 1].count));
  assert.ok(king.partners.reduce((sum, p) => sum + p.count, 0) <= 2 * king.window * king.count, 'at most 2 × window partners a token');
  const partner = king.partners.find((p) => p.word !== 'king').word;
  await page.locator('#sampling-partners').getByRole('button', { name: partner, exact: true }).click();
  await page.locator('#neighbours-message', { hasText: `Nearest to “${partner}”` }).waitFor();
  await page.locator('#sampling-word-title', { hasText: `“${partner}”` }).waitFor();

  // The chart: the three curves' colours are on the canvas.
  const colours = await page.evaluate(() => {
    const canvas = document.getElementById('zipf-canvas');
    // A custom property's computed colour, through an element that uses it.
    const probe = canvas.parentElement.appendChild(document.createElement('span'));
    const rgb = (name) => {
      probe.style.color = `var(${name})`;
      return getComputedStyle(probe).color.match(/\d+/g).slice(0, 3).map(Number);
    };
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    const counts = ['--zipf-frequency', '--zipf-keep', '--zipf-noise'].map((name) => {
      const [r, g, b] = rgb(name);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 30 && data[i + 3] > 200) n += 1;
      return n;
    });
    probe.remove();
    return counts;
  });
  assert.ok(colours.every((n) => n > 100), `pixels of each curve: ${colours}`);
  await card(page).screenshot({ path: join(RESULTS, 'sampling-card.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('vectors opened from a file have no sampling: the card says so', { timeout: 120_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  const text = `3 2\na 0.1 0.2\nb 0.3 -0.1\nc -0.2 0.4\n`;
  await page.getByLabel('Open a file…').setInputFiles({ name: 'small.vec', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await page.locator('#sampling-message', { hasText: 'opened from a file' }).waitFor();
  assert.equal(await page.locator('#zipf-figure').isHidden(), true);
  assert.deepEqual(problems, []);
  await page.close();
});
