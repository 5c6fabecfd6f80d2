// A long run in the explorer: hundreds of epochs of the built-in sample, watched from the
// page. The main thread must stay responsive for the whole run (no task over 50 ms, the
// RAIL budget for answering input), its work must not grow with the run (the loss chart
// draws a bounded series, as cheaply late as early), and its JS heap must stay flat.
//
// Run with `node --test tests/browser/soak.test.js` after scripts/build-wasm.sh.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { LossSeries, LOSS_POINTS } from '../../www/training/loss-series.js';
import { button, endTrace, explorerSuite, field, startTrace, stat, showParameters } from './helpers.js';

const suite = explorerSuite({ before, after });

/** The longest task the main thread may run, in ms. */
const LONG_TASK_MS = 50;
/** Epochs of the sample: the form's maximum, so the run lasts minutes. */
const EPOCHS = 1000;

/**
 * The page's JS heap in bytes after a full garbage collection, and when (page time) the
 * collection ran: a task of the test's own making, not the page's.
 */
async function heapAfterGc(page, cdp) {
  const from = await page.evaluate(() => performance.now());
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const to = await page.evaluate(() => performance.now());
  return { bytes: metrics.find((m) => m.name === 'JSHeapUsedSize').value, from, to };
}

/** The epoch the progress line names ("Epoch 12 of 1000 · …"). */
async function epochNow(page) {
  const text = await page.locator('#progress-text').textContent();
  return Number(text.match(/Epoch (\d+) of/)?.[1] ?? 0);
}

/** Waits until training has reached `epoch`. */
async function waitForEpoch(page, epoch, timeout) {
  await page.waitForFunction((at) => Number(document.getElementById('progress-text').textContent.match(/Epoch (\d+) of/)?.[1] ?? 0) >= at, epoch, { timeout, polling: 500 });
}

/** The `x` of each point `series.points()` gives. */
const xs = (series) => [...series.points()].filter((_, i) => i % 2 === 0);

test('the loss series keeps at most its capacity, evenly thinned, and always the newest point', () => {
  const series = new LossSeries(8);
  for (let i = 0; i < 8; i++) series.push(i, 10 - i);
  assert.deepEqual(xs(series), [0, 1, 2, 3, 4, 5, 6, 7]);
  // Full: every other point goes, and every second point is kept from now on; the newest
  // is drawn even when it is not kept.
  series.push(8, 2);
  assert.deepEqual(xs(series), [0, 2, 4, 6, 8]);
  series.push(9, 1);
  assert.deepEqual(xs(series), [0, 2, 4, 6, 8, 9]);
  assert.deepEqual([...series.points()].slice(-2), [9, 1]);
  series.push(10, 0.5);
  assert.deepEqual(xs(series), [0, 2, 4, 6, 8, 10]);

  // A long run: bounded, equally spaced, the first and the newest point there.
  const long = new LossSeries(LOSS_POINTS);
  for (let i = 0; i < 100_000; i++) {
    long.push(i, 1 / (i + 1));
    assert.ok(long.points().length <= 2 * (LOSS_POINTS + 1));
  }
  const kept = xs(long);
  assert.ok(kept.length >= LOSS_POINTS / 2 && kept.length <= LOSS_POINTS + 1, `${kept.length} points`);
  assert.equal(kept[0], 0);
  assert.equal(kept.at(-1), 99_999);
  const gaps = new Set(kept.slice(1, -1).map((x, i) => x - kept[i]));
  assert.equal(gaps.size, 1, `equal spacing: ${[...gaps]}`);
  assert.throws(() => new LossSeries(7), /even number/);
});

const quartile = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 4)] ?? 0;

test('hundreds of epochs: no long task on the main thread, a bounded loss chart, a flat heap', { timeout: 600_000 }, async () => {
  const { page, problems } = await suite.openExplorer(async (page) => {
    // Every long task from the start, with when it began, so the test can take those of the run.
    await page.addInitScript(() => {
      window.longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.longTasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: 'longtask', buffered: true });
    });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await button(page, 'Use the built-in sample').click();
  await stat(page, 'Vocabulary').waitFor();
  await showParameters(page);
  await field(page, 'Epochs').fill(String(EPOCHS));
  // Each loss chart redraw: how many points it drew and how long it took (timed inside the
  // page's view, since a redraw's cost is nothing a person can read).
  await page.evaluate(() => {
    const view = window.explorer.view;
    const draw = view.drawLoss.bind(view);
    window.lossDraws = [];
    view.drawLoss = (epochs, epochLosses, withinEpoch) => {
      const started = performance.now();
      draw(epochs, epochLosses, withinEpoch);
      window.lossDraws.push({ at: started, points: withinEpoch.length / 2, ms: performance.now() - started });
    };
  });
  const startedAt = await page.evaluate(() => performance.now());
  await button(page, 'Train').click();

  await waitForEpoch(page, 100, 120_000);
  const early = await heapAfterGc(page, cdp);
  // Between the two collections (which are the test's own work), the page's tasks are traced.
  await startTrace(cdp);
  await waitForEpoch(page, EPOCHS - 50, 480_000);
  const tasks = await endTrace(cdp);
  const late = await heapAfterGc(page, cdp);
  assert.ok(await epochNow(page) >= EPOCHS - 50);

  const { longTasks, lossDraws } = await page.evaluate(() => ({ longTasks: window.longTasks, lossDraws: window.lossDraws }));
  const run = longTasks.filter((t) => t.start > early.to && t.start < late.from);
  const longestWall = Math.max(0, ...run.map((t) => t.duration));
  const longestCpu = Math.max(0, ...tasks.map((t) => t.cpuMs));
  const draws = lossDraws.filter((d) => d.at > startedAt);
  // Draw cost in the second quarter of the run (the series near its bound already) and in
  // its last tenth: a series that grows makes the late draws dearer.
  const quarter = Math.floor(draws.length / 4);
  const midDraws = draws.slice(quarter, 2 * quarter);
  const lateDraws = draws.slice(-Math.floor(draws.length / 10));
  const mostPoints = Math.max(0, ...draws.map((d) => d.points));
  // The lower quartile, not the median: the other test files run beside this one, and a redraw
  // the scheduler interrupted only ever takes longer, so the low end is the draw's own cost
  // (medians of 0.82 then 1.41 ms failed a full run; the same code alone gave 0.72 then 0.92).
  const [midMs, lateMs] = [quartile(midDraws.map((d) => d.ms)), quartile(lateDraws.map((d) => d.ms))];
  const figures = {
    minutes: ((late.to - startedAt) / 60_000).toFixed(1),
    mainThreadTasks: tasks.length,
    threadTimed: tasks.filter((t) => t.threadTimed).length,
    longestTaskCpuMs: Math.round(longestCpu),
    longTasksOver50msWall: run.length,
    longestTaskWallMs: Math.round(longestWall),
    load: os.loadavg()[0].toFixed(1),
    cpus: os.availableParallelism(),
    heapEarlyMB: (early.bytes / 1e6).toFixed(2),
    heapLateMB: (late.bytes / 1e6).toFixed(2),
    earlyHeapAtS: Math.round((early.from - startedAt) / 1000),
    lossDraws: draws.length,
    mostPointsDrawn: mostPoints,
    drawMsMidQ1: midMs.toFixed(2),
    drawMsLateQ1: lateMs.toFixed(2),
  };
  console.log(`soak: ${JSON.stringify(figures)}`);

  assert.ok(draws.length > 500, `the loss chart was redrawn through the run (${draws.length} times)`);
  assert.ok(mostPoints <= LOSS_POINTS + 1, `the loss chart draws at most ${LOSS_POINTS} points and the newest: drew ${mostPoints}`);
  assert.ok(lateMs <= 1.3 * midMs + 0.3, `a loss redraw costs as much late as early: ${figures.drawMsMidQ1} ms, then ${figures.drawMsLateQ1} ms (lower quartiles)`);
  // A long task is judged by the main thread's own time in it: on a machine shared with
  // other work the thread is also descheduled, which stretches a task's wall-clock length
  // (the PerformanceObserver's figure) without the page doing more.
  assert.ok(tasks.length > 1000, `the trace holds the main thread's tasks (${tasks.length})`);
  const slow = tasks.filter((t) => t.cpuMs > LONG_TASK_MS).slice(0, 10);
  assert.deepEqual(slow, [], `no main-thread task uses over ${LONG_TASK_MS} ms (wall-clock long tasks: ${JSON.stringify(run.slice(0, 10))})`);
  assert.ok(late.bytes <= early.bytes * 1.2 + 2e6, `the heap stays flat: ${figures.heapEarlyMB} MB early, ${figures.heapLateMB} MB late`);
  assert.deepEqual(problems, []);
  await page.close();
});
