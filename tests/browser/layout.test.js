// The workspace's promise, at a desktop window (1400 × 900) and a phone (390 × 844, touch):
// on landing the Train button and at least half of the map are on screen together without
// scrolling; the map stays in view while training; on a phone the map comes directly after
// the run controls, and Train brings it into view. Screenshots of both go to test-results/.
// In Chromium, against Vite.
//
// Run with `node --test tests/browser/layout.test.js` after scripts/build-wasm.sh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { button, mapCanvas, RESULTS, stat, waitUntilDone, withChromium, withDevServer } from './helpers.js';

/** `locator`'s box against the window: the share of its area on screen, and its edges. */
async function onScreen(locator) {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const width = Math.max(0, Math.min(box.right, innerWidth) - Math.max(box.left, 0));
    const height = Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, 0));
    return { share: (width * height) / (box.width * box.height), top: box.top, bottom: box.bottom, area: box.width * box.height };
  });
}

/** Opens the explorer at `viewport` and waits until the built-in sample it lands on is ready. */
async function land(context, url) {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(url);
  await page.waitForSelector('#worker-status[data-state="ready"]');
  await stat(page, 'Vocabulary').waitFor();
  return page;
}

test('at 1400 × 900 the map is the stage: Train and the map on screen together, before and while training', { timeout: 120_000 }, async () => {
  await withDevServer((url) => withChromium({ viewport: { width: 1400, height: 900 } }, async (context) => {
    const page = await land(context, url);
    assert.equal(await page.evaluate(() => scrollY), 0);
    const train = await onScreen(button(page, 'Train'));
    assert.equal(train.share, 1, 'the Train button is on screen');
    let map = await onScreen(mapCanvas(page));
    assert.ok(map.share >= 0.5, `only ${Math.round(100 * map.share)} % of the map is on screen`);
    assert.ok(map.area >= 0.3 * 1400 * 900, `the map takes ${Math.round(map.area / 1400 / 9)} % of the window`);
    // Parameters are behind a disclosure that says what they are when closed.
    assert.equal(await page.getByLabel('Dimensions', { exact: true }).isVisible(), false, 'the parameters start closed');
    assert.match(await page.locator('#params-summary').textContent(), /^skip-gram · 50 dims · window 8 · 5 epochs \(the sample's preset\)$/);
    // The loss chart and the progress line are in view beside the map.
    assert.equal((await onScreen(page.getByRole('img', { name: /^Loss per epoch/ }))).share, 1, 'the loss chart is on screen');

    await button(page, 'Train').click();
    await page.waitForFunction(() => /^Epoch \d/.test(document.getElementById('progress-text').textContent));
    map = await onScreen(mapCanvas(page));
    assert.ok(map.share >= 0.5, `while training only ${Math.round(100 * map.share)} % of the map is on screen`);
    assert.equal((await onScreen(button(page, 'Pause'))).share, 1, 'Pause is on screen while training');
    await waitUntilDone(page);
    await page.screenshot({ path: join(RESULTS, 'layout-desktop.png') });

    // The inspector's panels do not push the map away: asking for neighbours leaves it where it was.
    const before = await onScreen(mapCanvas(page));
    await page.getByRole('combobox', { name: 'Word', exact: true }).fill('king');
    await button(page, 'Find').click();
    await page.locator('#neighbours-list li').first().waitFor();
    const after = await onScreen(mapCanvas(page));
    assert.deepEqual([after.top, after.share], [before.top, before.share], 'the map did not move');

    // A wrong value disables Train: the closed disclosure says which field to fix.
    await page.getByText('Parameters', { exact: true }).click();
    await page.getByLabel('Dimensions', { exact: true }).fill('abc');
    await page.getByText('Parameters', { exact: true }).click();
    assert.equal(await page.getByLabel('Dimensions', { exact: true }).isVisible(), false, 'closed again');
    assert.equal(await button(page, 'Train again').isDisabled(), true);
    assert.equal(await page.locator('#params-summary').textContent(), 'To fix: Dimensions');
  }));
});

test('keyboard and screen readers: landmarks, and a focus order that follows the workspace', { timeout: 120_000 }, async () => {
  await withDevServer((url) => withChromium({ viewport: { width: 1400, height: 900 } }, async (context) => {
    const page = await land(context, url);
    for (const [role, name] of [['banner', undefined], ['main', undefined], ['region', 'Text and training'], ['region', 'Map of the vectors'], ['complementary', 'Inspector']]) {
      assert.equal(await page.getByRole(role, name ? { name, exact: true } : {}).count(), 1, `one ${role} ${name ?? ''}`);
    }
    // From Train, Tab reaches the map's controls and the map before the inspector's panels.
    await button(page, 'Train').focus();
    const reached = [];
    for (let i = 0; i < 40 && !reached.includes('search'); i += 1) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => document.activeElement.id));
    }
    const at = (id) => reached.indexOf(id);
    assert.ok(at('plot-words') >= 0 && at('plot') > at('plot-words') && at('search') > at('plot'), `focus order: ${reached.join(' ')}`);
    // The disclosure opens from the keyboard.
    await page.locator('#params-panel summary').focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.getByLabel('Dimensions', { exact: true }).isVisible(), true);
  }));
});

test('the dark theme keeps the workspace readable', { timeout: 120_000 }, async () => {
  await withDevServer((url) => withChromium({ viewport: { width: 1400, height: 900 }, colorScheme: 'dark' }, async (context) => {
    const page = await land(context, url);
    const colours = await page.evaluate(() => {
      const of = (selector) => getComputedStyle(document.querySelector(selector));
      return { body: of('body').backgroundColor, card: of('.stage').backgroundColor, ink: of('.stage').color, kbd: of('kbd').backgroundColor };
    });
    const light = (colour) => colour.match(/\d+/g).slice(0, 3).reduce((sum, c) => sum + Number(c), 0) / 3 > 128;
    assert.equal(light(colours.body), false, `body ${colours.body}`);
    assert.equal(light(colours.card), false, `map card ${colours.card}`);
    assert.equal(light(colours.ink), true, `text ${colours.ink}`);
    assert.equal(light(colours.kbd), false, `key signs ${colours.kbd}`);
    await page.screenshot({ path: join(RESULTS, 'layout-dark.png') });
  }));
});

test('on a phone the map comes right after the run controls, and Train brings it into view', { timeout: 120_000 }, async () => {
  await withDevServer((url) => withChromium({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } }, async (context) => {
    const page = await land(context, url);
    // Directly after: nothing between the card with Train and the map's card.
    const order = await page.evaluate(() => {
      const run = document.getElementById('train').closest('.card').getBoundingClientRect();
      const stage = document.getElementById('plot').closest('.card').getBoundingClientRect();
      const between = [...document.querySelectorAll('.card')].filter((card) => {
        const box = card.getBoundingClientRect();
        return box.height > 0 && box.top >= run.bottom && box.bottom <= stage.top;
      });
      return { gap: stage.top - run.bottom, between: between.length };
    });
    assert.equal(order.between, 0, 'no card between the run controls and the map');
    assert.ok(order.gap >= 0 && order.gap < 24, `the map starts ${order.gap} px below the run controls`);

    await button(page, 'Train').tap();
    await page.waitForFunction(() => /^Epoch \d/.test(document.getElementById('progress-text').textContent));
    // The page scrolls smoothly; let it settle.
    await page.waitForFunction(() => new Promise((resolve) => {
      const y = scrollY;
      setTimeout(() => resolve(scrollY === y), 300);
    }));
    const map = await onScreen(mapCanvas(page));
    assert.ok(map.share >= 0.9, `after Train only ${Math.round(100 * map.share)} % of the map is on screen`);
    assert.equal((await onScreen(button(page, 'Pause'))).share, 1, 'Pause stays on screen above the map');
    await waitUntilDone(page);
    await page.screenshot({ path: join(RESULTS, 'layout-phone.png') });
  }));
});
