// Benchmarks as people have them, on the evaluation card: the copies of WordSim-353 and
// SimLex-999 in gensim's test data open with `#` comment lines, and are scored, not refused.
//
// Run with `node --test tests/browser/benchmarks.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { button, evaluateFile, explorerSuite, stat, waitUntilDone } from './helpers.js';

const suite = explorerSuite({ before, after });

const textFile = (name, text) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });

/** Pairs of the built-in sample's words, and one pair it does not know. */
const PAIRS = [
  'king\tqueen\t8.6', 'man\twoman\t8.3', 'boy\tgirl\t8.1', 'paris\tfrance\t7.4', 'king\tgirl\t3.2', 'tiger\tcat\t7.35',
];

/** The rows of the evaluation table as text. */
const tableRows = (page) => page.locator('#evaluation-table tr')
  .evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((cell) => cell.textContent)));

test('WordSim-353 and analogy files with # comment lines are scored on the evaluation card', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  await button(page, 'Train').click();
  await waitUntilDone(page);
  // The sanity check runs after training on the sample; let it finish first.
  await page.locator('#sanity', { hasText: 'Sanity check' }).waitFor();

  // gensim/test/test_data/wordsim353.tsv opens with these two lines.
  const wordsim = [
    '# The WordSimilarity-353 Test Collection (http://www.cs.technion.ac.il/~gabr/resources/data/wordsim353/)',
    '# Word 1\tWord 2\tHuman (mean)',
    ...PAIRS,
  ].join('\n');
  let message = await evaluateFile(page, textFile('wordsim353.tsv', wordsim));
  assert.match(message, /^Spearman -?[\d.]+, Pearson -?[\d.]+ over 5 of 6 pairs \(16\.7 % out of vocabulary\)/);
  assert.deepEqual((await tableRows(page))[1].slice(0, 3), ['6', '5', '16.7 %']);

  // A first comment of four words is no analogy question: the file is still word pairs.
  message = await evaluateFile(page, textFile('pairs.tsv', ['# pairs from WordSim-353', ...PAIRS].join('\n')));
  assert.match(message, /over 5 of 6 pairs/);

  // Comments in an analogy file are skipped too, before and inside sections.
  const questions = ['# the sample\'s words', ': gender', 'king queen man woman', '# reversed', 'queen king woman man'].join('\n');
  message = await evaluateFile(page, textFile('questions-words.txt', questions));
  assert.match(message, /^3CosAdd \d of 2 \(/);
  const rows = await tableRows(page);
  assert.deepEqual(rows.slice(1).map((row) => row.slice(0, 3)), [['gender', '2', '2 (100.0 %)'], ['All', '2', '2 (100.0 %)']]);

  // CSV, as WordSim-353's own combined.csv, header included (the picker offers .csv).
  message = await evaluateFile(page, textFile('combined.csv', ['Word 1,Word 2,Human (mean)', ...PAIRS.map((p) => p.replaceAll('\t', ','))].join('\n')));
  assert.match(message, /over 5 of 6 pairs/);

  // A file refused leaves no scores of the file before it on the card.
  message = await evaluateFile(page, textFile('empty.tsv', ''));
  assert.match(message, /^Cannot evaluate: /);
  assert.equal(await page.locator('#evaluation-results').isHidden(), true, 'the last file\'s scores are gone');
  // One pair has no correlation: the card says why, not "undefined".
  message = await evaluateFile(page, textFile('one-pair.tsv', 'king\tqueen\t8.6\n'));
  assert.match(message, /^Spearman not defined, Pearson not defined over 1 of 1 pairs: a correlation needs at least 2 pairs/);
  assert.deepEqual(problems, []);
  await page.close();
});
