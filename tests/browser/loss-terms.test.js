// The loss chart's two terms, in Chromium against the Vite dev server: while the built-in
// sample trains, every progress message carries the positive term (the text's pairs) and the
// negative term (the noise words), they add up to the total, the chart is handed both series
// within the epoch and per finished epoch, and the legend says what each one falling means.
//
// Run with `node --test tests/browser/loss-terms.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { button, explorerSuite, field, lossChart, RESULTS, showParameters, stat, waitUntilDone } from './helpers.js';

const suite = explorerSuite({ before, after });

const EPOCHS = 4;

test('training the sample draws the positive and negative terms, which add up to the loss', async () => {
  const { page, problems } = await suite.openExplorer();
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await field(page, 'Epochs').fill(String(EPOCHS));
  // What the worker sends and what the chart is given, as training goes.
  await page.evaluate(() => {
    const explorer = window.explorer;
    const show = explorer.showProgress.bind(explorer);
    window.progressSeen = [];
    explorer.showProgress = (progress) => {
      window.progressSeen.push(structuredClone(progress));
      show(progress);
    };
    const view = explorer.view;
    const draw = view.drawLoss.bind(view);
    window.termsDrawn = [];
    view.drawLoss = (epochs, epochLosses, withinEpoch, marker, terms) => {
      window.termsDrawn.push({ within: terms.within.length / 3, epochs: terms.epochs.length / 2, done: explorer.progress?.done ?? false });
      draw(epochs, epochLosses, withinEpoch, marker, terms);
    };
  });
  assert.equal(await page.locator('#loss-legend').isVisible(), false, 'no legend before training');
  await button(page, 'Train').click();
  await waitUntilDone(page);

  const seen = await page.evaluate(() => window.progressSeen);
  const training = seen.filter((p) => !p.done && p.loss > 0);
  assert.ok(training.length >= 3, `${training.length} progress messages during training`);
  for (const p of seen) {
    assert.ok(Number.isFinite(p.positiveLoss) && Number.isFinite(p.negativeLoss), JSON.stringify(p));
    assert.ok(Math.abs(p.positiveLoss + p.negativeLoss - p.loss) <= 1e-12 * Math.max(1, p.loss), `terms add up: ${JSON.stringify(p)}`);
    assert.equal(p.epochPositiveLosses.length, p.epochLosses.length);
    assert.equal(p.epochNegativeLosses.length, p.epochLosses.length);
    p.epochLosses.forEach((total, i) => {
      assert.ok(Math.abs(p.epochPositiveLosses[i] + p.epochNegativeLosses[i] - total) <= 1e-12 * total, `epoch ${i + 1} adds up`);
    });
  }
  // Both terms are real parts of the loss: an untrained pair scores ln 2 on the positive term
  // and 5 ln 2 on the negative one (five noise words), and both fall as the sample trains.
  const last = seen.at(-1);
  assert.equal(last.epochLosses.length, EPOCHS);
  assert.ok(last.epochPositiveLosses.every((v) => v > 0) && last.epochNegativeLosses.every((v) => v > 0));
  assert.ok(last.epochPositiveLosses.at(-1) < last.epochPositiveLosses[0], `positive falls: ${last.epochPositiveLosses}`);
  assert.ok(last.epochNegativeLosses.at(-1) < last.epochNegativeLosses[0], `negative falls: ${last.epochNegativeLosses}`);

  // The chart got both series while training, within the epoch and per finished epoch.
  const drawn = await page.evaluate(() => window.termsDrawn);
  assert.ok(drawn.some((d) => !d.done && d.within > 1), `term samples drawn while training: ${JSON.stringify(drawn.slice(0, 5))}`);
  assert.ok(drawn.some((d) => !d.done && d.epochs >= 1), 'an epoch\'s terms drawn while training');
  const chart = lossChart(page);
  assert.equal(JSON.parse(await chart.getAttribute('data-epoch-terms')).length, 2 * EPOCHS);
  assert.ok(Number(await chart.getAttribute('data-within-terms')) > 1);

  const legend = page.locator('#loss-legend');
  assert.ok(await legend.isVisible(), 'the legend shows once the terms do');
  const text = await legend.textContent();
  assert.match(text, /positive \(pairs from the text\):\s+falls as the model scores a word and its context higher/);
  assert.match(text, /negative \(noise words\):\s+falls as it scores the sampled noise words lower/);
  await page.locator('#loss-chart').scrollIntoViewIfNeeded();
  await page.locator('#loss-chart').locator('..').screenshot({ path: join(RESULTS, 'loss-terms.png') });
  assert.deepEqual(problems, []);
  await page.close();
});
