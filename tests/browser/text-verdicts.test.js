// What the page says about a text before it is trained: one too small to learn from, and
// one that is mostly markup (a Wikipedia dump), with the offer to keep only its text. The
// verdicts are the core's (src/text/small.rs, src/text/markup.rs); the page shows them in
// the Text card. In Chromium, against Vite.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { button as buttonIn, explorerSuite, field as fieldIn, RESULTS, showParameters, stat as statIn } from './helpers.js';

const suite = explorerSuite({ before, after });
let page;
let problems;

before(async () => {
  await suite.ready;
  ({ page, problems } = await suite.openExplorer());
  await stat('Vocabulary').waitFor();
});

after(() => {
  assert.deepEqual(problems, [], 'no console error, uncaught exception or failed request');
});

const button = (name) => buttonIn(page, name);
const field = (name) => fieldIn(page, name);
const stat = (name) => statIn(page, name);
const textCard = () => page.getByRole('region', { name: /^Text/ });
const tooSmall = () => textCard().getByRole('status', { name: 'Too small to learn from' });
const markup = () => textCard().getByRole('status', { name: 'Markup' });
const openFile = (name, content) => page.getByLabel('Open a file…').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(content) });
const waitUntilDone = () => page.waitForFunction(() => document.getElementById('progress-text').textContent.startsWith('Done.'), null, { timeout: 60_000 });

/** A MediaWiki export as Wikipedia's dumps are written: each page's metadata around its article. */
function wikiDump(pages) {
  const page = (i) => `  <page>
    <title>Page ${i}</title>
    <ns>0</ns>
    <id>${i}</id>
    <revision>
      <id>${1000 + i}</id>
      <parentid>${999 + i}</parentid>
      <timestamp>2017-02-19T18:08:07Z</timestamp>
      <sha1>t0ijswlk6ii5cj8oh6hnbng4rdqmhv9</sha1>
      <text xml:space="preserve">'''the ${['red', 'blue'][i % 2]} paint''' on the [[wall]], and a ${['cat', 'dog'][(i >> 1) % 2]} barks at night.&lt;ref&gt;{{cite web|url=http://example.org}}&lt;/ref&gt;</text>
    </revision>
  </page>
`;
  return `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="en">
  <siteinfo><sitename>Wikipedia</sitename></siteinfo>
${Array.from({ length: pages }, (_, i) => page(i)).join('')}</mediawiki>
`;
}

test('a text too small to learn from says so before training, and still trains', { timeout: 120_000 }, async () => {
  // The built-in sample is large enough: no warning.
  assert.equal(await tooSmall().isVisible(), false, 'the sample is large enough');
  await openFile('tiny.txt', 'alpha beta gamma delta epsilon zeta eta theta iota kappa\n'.repeat(4));
  await page.locator('#source-name', { hasText: 'tiny.txt' }).waitFor();
  await showParameters(page);
  await field('Min count').fill('1');
  await stat('Vocabulary').filter({ hasText: /^10$/ }).waitFor();
  await tooSmall().waitFor();
  assert.match(await tooSmall().textContent(), /^40 tokens an epoch and a vocabulary of 10 words: too few for the vectors to mean anything.*5,000 tokens an epoch and 50 words are the least/);
  await page.screenshot({ path: join(RESULTS, 'text-too-small.png'), fullPage: true });
  // The person may still train.
  await field('Epochs').fill('1');
  await button('Train').click();
  await waitUntilDone();
  await button('Use the built-in sample').click();
  await stat('Vocabulary').waitFor();
  await page.locator('#source-name', { hasText: 'Built-in sample' }).waitFor();
  assert.equal(await tooSmall().isVisible(), false, 'the warning went with the small text');
});

test('a Wikipedia dump is recognised as markup, and "Keep only the text" trains on its articles alone', { timeout: 120_000 }, async () => {
  await openFile('enwiki-pages-articles.xml', wikiDump(300));
  await page.locator('#source-name', { hasText: 'enwiki-pages-articles.xml' }).waitFor();
  await markup().waitFor();
  assert.match(await markup().textContent(), /^This text looks like MediaWiki XML \(a Wikipedia dump\) \(\d+ % of it inside tags\)/);
  await stat('Distinct words').waitFor();
  const before = Number((await stat('Distinct words').textContent()).replace(/,/g, ''));
  assert.ok(before > 300, `the metadata's words are counted: ${before}`);
  await page.screenshot({ path: join(RESULTS, 'text-markup.png'), fullPage: true });

  await button('Keep only the text').click();
  // The articles' own words: the, red, blue, paint, on, wall, and, a, cat, dog, barks, at, night.
  await stat('Distinct words').filter({ hasText: /^13$/ }).waitFor();
  assert.equal(await markup().isVisible(), false, 'the offer goes once the markup is out');
  assert.match(await page.locator('#cut-note').textContent(), /Only the text of its MediaWiki XML \(a Wikipedia dump\) is kept \([\d,]+ of [\d,]+ bytes\)/);
  await showParameters(page);
  await field('Epochs').fill('1');
  await button('Train').click();
  await waitUntilDone();
  await page.getByRole('combobox', { name: 'Word', exact: true }).fill('paint');
  await button('Find').click();
  await page.getByText('Nearest to “paint”').waitFor();
});
