// Hostile input and the page's defences, in Chromium against Vite: text from files never
// becomes markup or reorders what is around it, the Content-Security-Policy blocks inline
// scripts, eval and third-party loads, nothing leaves the page, a dead worker is replaced,
// and actions at the wrong moment are explicit and never run twice.
//
// Run with `node --test tests/browser/` after scripts/build-wasm.sh; `npm test` does both.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { button, collectProblems, combobox, explorerSuite, field, RESULTS, stat, waitUntilDone, showParameters } from './helpers.js';

const suite = explorerSuite({ before, after });

/** The explorer on the sample, recording the dialogs the page opens (there must be none). */
async function openExplorer() {
  const dialogs = [];
  const { page, problems } = await suite.openExplorer((page) => {
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      dialog.dismiss();
    });
  });
  await stat(page, 'Vocabulary').waitFor();
  return { page, problems, dialogs };
}

const progressText = (page) => page.locator('#progress-text');

const HOSTILE = ['<img/src=x/onerror=pwned=1>', '<script>pwned=2</script>', 'javascript:pwned=3', '\u202Eexe.txt'];

/** A text where the hostile tokens are ordinary words among others, so they get vectors. */
function hostileText() {
  const others = ['cat', 'dog', 'sun', 'moon', 'tree', 'rock'];
  return Array.from({ length: 300 }, (_, i) =>
    `the ${HOSTILE[i % HOSTILE.length]} saw a ${others[i % others.length]} and ${others[(i + 2) % others.length]}`).join('\n');
}

test('tokens that look like markup or reorder text are shown as written, everywhere', { timeout: 90_000 }, async () => {
  const { page, problems, dialogs } = await openExplorer();
  await page.getByLabel('Open a file…').setInputFiles({ name: 'hostile.txt', mimeType: 'text/plain', buffer: Buffer.from(hostileText()) });
  await stat(page, 'Lines').filter({ hasText: '300' }).waitFor();
  await showParameters(page);
  await combobox(page, 'Tokenizer').selectOption('whitespace');
  await field(page, 'Min count').fill('1');
  await field(page, 'Epochs').fill('3');
  await button(page, 'Train').click();
  await waitUntilDone(page);

  for (const token of HOSTILE) {
    await combobox(page, 'Word').fill(token);
    await button(page, 'Find').click();
    const shown = token.replace('\u202E', '⟨U+202E⟩');
    await page.locator('#neighbours-message').filter({ hasText: `Nearest to “${shown}”` }).waitFor();
    // Neighbours include the other hostile tokens, as text.
    const listed = await page.locator('#neighbours-list').textContent();
    assert.ok(HOSTILE.some((t) => t !== token && listed.includes(t.replace('\u202E', '⟨U+202E⟩'))), listed);
  }
  // The completions, the concordance and the notice of an unknown word are text too.
  await combobox(page, 'Word').fill('<scr');
  await page.waitForFunction(() => [...document.querySelectorAll('#vocab-completions option')].some((o) => o.value.startsWith('<script>')));
  await combobox(page, 'Word').fill('<b>nothing</b>\u202E');
  await button(page, 'Find').click();
  const notice = page.locator('#neighbours-message', { hasText: 'is not in the vocabulary' });
  await notice.waitFor();
  assert.match(await notice.textContent(), /'<b>nothing<\/b>⟨U\+202E⟩' is not in the vocabulary/);

  const markup = await page.evaluate(() => ({
    injected: document.querySelectorAll('main img, main script, main b, #notice *, #tooltip *').length,
    pwned: window.pwned ?? null,
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered is what must not hold the override
    rlo: document.body.innerText.includes('\u202E'),
  }));
  assert.deepEqual(markup, { injected: 0, pwned: null, rlo: false });
  assert.deepEqual(dialogs, []);

  // Exports: the SVG escapes them; the CSV quotes nothing it need not, and keeps them exact.
  const download = async (name) => {
    const [file] = await Promise.all([page.waitForEvent('download'), button(page, name).click()]);
    return (await readFile(await file.path())).toString('utf8');
  };
  const svg = await download('plot.svg');
  assert.ok(!svg.includes('<script>') && !svg.includes('<img'), 'no markup from tokens in the SVG');
  assert.ok(svg.includes('&lt;script&gt;pwned=2&lt;/script&gt;'), 'the token is escaped text in the SVG');
  const csv = await download('projection.csv');
  for (const token of HOSTILE) assert.ok(csv.includes(`\r\n${token},`), `${token} in the CSV`);
  await page.screenshot({ path: join(RESULTS, 'security-hostile-tokens.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('the Content-Security-Policy blocks inline scripts, eval and third-party loads, and the app runs under it', { timeout: 90_000 }, async () => {
  const { page, problems } = await openExplorer();
  const header = (await page.request.get(suite.url())).headers()['content-security-policy'];
  const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.equal(header, meta, 'the header and the <meta> state one policy');
  assert.match(meta, /script-src 'self' 'wasm-unsafe-eval'/);

  const violations = [];
  await page.exposeFunction('reportViolation', (v) => violations.push(v));
  await page.evaluate(() => document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(`${e.violatedDirective} ${e.blockedURI}`)));
  // The app's own work raises no violation: training (the worker compiles wasm), the plot, exports.
  await button(page, 'Train').click();
  await waitUntilDone(page);
  for (const name of ['embedscope-bundle.json', 'plot.svg']) {
    const [file] = await Promise.all([page.waitForEvent('download'), button(page, name).click()]);
    await file.path();
  }
  assert.deepEqual(violations, []);

  const probes = await page.evaluate(async () => {
    // An inline script would run as it is appended.
    const inline = document.createElement('script');
    inline.textContent = 'window.inlineRan = true';
    document.body.append(inline);
    const probe = document.createElement('script');
    const probed = new Promise((resolve) => { probe.onload = resolve; probe.onerror = resolve; });
    probe.src = '/tests/browser/fixtures/eval-probe.js';
    document.body.append(probe);
    await probed;
    const image = new Image();
    const imageResult = new Promise((resolve) => { image.onload = () => resolve('loaded'); image.onerror = () => resolve('blocked'); });
    image.src = 'https://example.com/tracker.png';
    const fetched = await fetch('https://example.com/').then(() => 'fetched', () => 'blocked');
    return { inline: window.inlineRan ?? false, evalProbe: window.evalProbe, image: await imageResult, fetched };
  });
  assert.deepEqual(probes, { inline: false, evalProbe: 'EvalError', image: 'blocked', fetched: 'blocked' });
  assert.ok(violations.some((v) => v.startsWith('script-src')), violations.join('\n'));
  assert.ok(violations.some((v) => v.startsWith('img-src')), violations.join('\n'));
  // The blocked probes were reported to the console, as they should be; nothing else was.
  assert.deepEqual(problems.filter((p) => !/Content Security Policy|example\.com/.test(p)), []);
  await page.close();
});

test('nothing leaves the page: no request but its own files, during load, training and export', { timeout: 90_000 }, async () => {
  const page = await suite.browser.context.newPage();
  const problems = collectProblems(page);
  const origin = new URL(suite.url()).origin;
  const requests = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(suite.url());
  await page.waitForSelector('#worker-status[data-state="ready"]');
  await stat(page, 'Vocabulary').waitFor();
  const foreign = requests.filter((url) => !url.startsWith(`${origin}/`) && !/^(blob|data):/.test(url));
  assert.deepEqual(foreign, [], 'every request while loading goes to the app itself');
  const loaded = requests.length;

  await button(page, 'Train').click();
  await waitUntilDone(page);
  await combobox(page, 'Word').fill('queen');
  await button(page, 'Find').click();
  await page.getByText('Nearest to “queen”').waitFor();
  const [file] = await Promise.all([page.waitForEvent('download'), button(page, 'vectors.txt').click()]);
  await file.path();
  const later = requests.slice(loaded).filter((url) => !/^(blob|data):/.test(url));
  assert.deepEqual(later, [], 'no request at all while training, querying and exporting');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a worker that dies is replaced, the page says so, and training works again', { timeout: 90_000 }, async () => {
  const { page, problems } = await openExplorer();
  // A deliberate panic, which no control can cause, through the worker's test request; the
  // request never answers (the worker dies), so its rejection is expected, and the alert
  // below is what the test checks.
  await page.evaluate(() => window.explorer.worker.request('testPanic').catch(() => {}));
  await page.getByRole('alert').filter({ hasText: 'The training worker stopped' }).waitFor();
  assert.match(await page.getByRole('alert').textContent(), /restarted/);
  await page.waitForSelector('#worker-status[data-state="ready"]');
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  await button(page, 'Train').click();
  await waitUntilDone(page);
  // The panic's message reached the console; nothing else went wrong.
  assert.deepEqual(problems.filter((p) => !p.includes('deliberate panic')), []);
  await page.close();
});

test('actions at the wrong moment: double clicks, a new text while training, empty queries, changed parameters', { timeout: 120_000 }, async () => {
  const { page, problems } = await openExplorer();
  const trainRequests = [];
  await page.exposeFunction('countTrain', () => trainRequests.push(1));
  // The train requests the page sends the worker, counted where they leave it: a second run
  // started and replaced at once would show nothing a person could see.
  await page.evaluate(() => {
    const worker = window.explorer.worker;
    const request = worker.request.bind(worker);
    worker.request = (type, fields) => {
      if (type === 'train') window.countTrain();
      return request(type, fields);
    };
  });
  // Five quick clicks start one training.
  await showParameters(page);
  await field(page, 'Epochs').fill('200');
  await button(page, 'Train').click({ clickCount: 5, delay: 10 });
  await progressText(page).filter({ hasText: /^Epoch \d+ of 200/ }).waitFor();
  assert.equal(trainRequests.length, 1);

  // Parameters changed while training apply to the next run, and the page says so.
  await field(page, 'Window').fill('3');
  await page.locator('#params-pending').waitFor();

  // A new text while training asks first; keeping training changes nothing.
  const text = { name: 'other.txt', mimeType: 'text/plain', buffer: Buffer.from('the cat sat on the mat\n'.repeat(50)) };
  await page.getByLabel('Open a file…').setInputFiles(text);
  await page.getByRole('alertdialog').waitFor();
  await button(page, 'Keep training').click();
  await progressText(page).filter({ hasText: /^Epoch \d+ of 200/ }).waitFor();
  assert.match(await page.locator('#source-name').textContent(), /Built-in sample/);
  // Stopping and opening it is one explicit choice.
  await page.getByLabel('Open a file…').setInputFiles(text);
  await button(page, 'Stop and open other.txt').click();
  await stat(page, 'Lines').filter({ hasText: '50' }).waitFor();
  assert.match(await page.locator('#source-name').textContent(), /other\.txt/);

  // Empty queries say what to do.
  await field(page, 'Min count').fill('1');
  await field(page, 'Epochs').fill('2');
  await button(page, 'Train').click();
  await waitUntilDone(page);
  await combobox(page, 'Word').fill('   ');
  await button(page, 'Find').click();
  await page.getByText('Type a word to see its nearest neighbours.').waitFor();
  await button(page, 'Solve').click();
  await page.locator('#analogy-message').filter({ hasText: 'Fill in A, B and C' }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});
