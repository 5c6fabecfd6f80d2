// A phone-sized screen (390 × 844, touch): the page fits its width, nothing scrolls
// sideways. In Chromium, against Vite.
//
// Run with `node --test tests/browser/phone.test.js` after scripts/build-wasm.sh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { button, RESULTS, stat, waitUntilDone, withChromium, withDevServer } from './helpers.js';

test('on a phone the page is as wide as the screen, before and after training', { timeout: 120_000 }, async () => {
  await withDevServer((url) => withChromium({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } }, async (context) => {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('#worker-status[data-state="ready"]');
    // Against the screen's 390 px: on a phone the layout viewport (innerWidth) grows to
    // whatever overflows, so it cannot be the measure.
    const overflow = () => page.evaluate((screen) => {
      const wide = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > screen + 1);
      return { width: document.documentElement.scrollWidth, screen, wide: wide.slice(0, 5).map((e) => e.id || e.className || e.tagName) };
    }, 390);
    // The header's module and worker lines once ran to 471 px and the page scrolled sideways.
    let seen = await overflow();
    assert.ok(seen.width <= seen.screen, `page ${seen.width} px wide on a ${seen.screen} px screen: ${seen.wide}`);
    await button(page, 'Use the built-in sample').click();
    await stat(page, 'Vocabulary').waitFor();
    await button(page, 'Train').click();
    await waitUntilDone(page);
    seen = await overflow();
    assert.ok(seen.width <= seen.screen, `after training: page ${seen.width} px wide on a ${seen.screen} px screen: ${seen.wide}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(RESULTS, 'phone.png') });
  }));
});
