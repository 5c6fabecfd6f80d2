// The guided tour in Chromium, against Vite: it starts from the header's Tour button (never
// by itself), outlines one of the page's own controls at a time and brings it into view,
// with a dialog beside it that walks forward and back; Close, Escape and Done end it, and
// the button starts it again from the first step. On the built-in sample, trained from the
// tour's first step with the page's own Train button.
//
// Run with `node --test tests/browser/tour.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RESULTS, button, explorerSuite, stat, waitUntilDone } from './helpers.js';
import { STEPS } from '../../www/tour/steps.js';

const suite = explorerSuite({ before, after });

const dialog = (page) => page.getByRole('dialog', { name: /./ }).filter({ has: page.locator('#tour-title') });

/** The ids of the elements outlined now (the tour outlines one at a time). */
const outlined = (page) => page.evaluate(() => [...document.querySelectorAll('.tour-target')].map((element) => element.id));

/** Whether the element `id` and the dialog are both within the window, and do not overlap. */
const inView = (page, id) => page.evaluate((target) => {
  const [a, b] = [document.getElementById(target).getBoundingClientRect(), document.getElementById('tour').getBoundingClientRect()];
  const within = (r) => r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
  const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return { target: within(a), dialog: b.top >= 0 && b.bottom <= innerHeight && b.left >= 0 && b.right <= innerWidth, overlap };
}, id);

test('the tour walks the page\'s own controls, back and forth, ends, and starts again', { timeout: 180_000 }, async () => {
  const { page, problems } = await suite.openExplorer();
  await stat(page, 'Vocabulary').waitFor();
  assert.equal(await page.locator('#tour').isHidden(), true, 'the tour does not start by itself');
  assert.deepEqual(await outlined(page), []);

  await button(page, 'Tour').click();
  await dialog(page).waitFor();
  assert.equal(await page.locator('#tour-count').textContent(), `1 of ${STEPS.length}`);
  assert.deepEqual(await outlined(page), ['train']);
  assert.equal(await button(page, 'Back').isDisabled(), true);
  // The step says to press Train: the page's own button, which the dialog leaves free.
  await button(page, 'Train').click();
  await waitUntilDone(page);

  for (const [i, step] of STEPS.entries()) {
    if (i > 0) await button(page, 'Next').click();
    assert.equal(await page.locator('#tour-count').textContent(), `${i + 1} of ${STEPS.length}`);
    assert.equal(await page.locator('#tour-title').textContent(), step.title);
    assert.deepEqual(await outlined(page), [step.target], `step ${i + 1} outlines its control alone`);
    // The browser's smooth scroll may still be under way.
    await page.waitForFunction((id) => {
      const r = document.getElementById(id).getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight;
    }, step.target);
    const where = await inView(page, step.target);
    assert.ok(where.target && where.dialog, `step ${i + 1}: ${JSON.stringify(where)}`);
    // The dialog lies beside its control, not over it: above or below it, or beside a tall
    // card; the map fills the middle of the window, and the dialog lies over its lower edge.
    if (step.target !== 'plot') assert.equal(where.overlap, false, `step ${i + 1} covers ${step.target}`);
    if (step.target === 'matrix-card') await page.screenshot({ path: join(RESULTS, 'tour-matrix.png') });
  }
  assert.equal(await page.locator('#tour-next').textContent(), 'Done');

  // Back one step, then Escape ends the tour.
  await button(page, 'Back').click();
  assert.deepEqual(await outlined(page), [STEPS.at(-2).target]);
  await page.keyboard.press('Escape');
  await page.locator('#tour').waitFor({ state: 'hidden' });
  assert.deepEqual(await outlined(page), []);

  // Again from the button: the first step; Close ends it; Done at the last step too.
  await button(page, 'Tour').click();
  assert.equal(await page.locator('#tour-count').textContent(), `1 of ${STEPS.length}`);
  await button(page, 'Close the tour').click();
  await page.locator('#tour').waitFor({ state: 'hidden' });
  await button(page, 'Tour').click();
  for (let i = 1; i < STEPS.length; i += 1) await button(page, 'Next').click();
  await button(page, 'Done').click();
  await page.locator('#tour').waitFor({ state: 'hidden' });
  assert.deepEqual(await outlined(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});
