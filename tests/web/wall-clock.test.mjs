// The wall clock of a Go 1.25+ trace on the timeline: the toggle puts `clock=wall` in the
// URL, the ruler then gives the wall time of its left edge (what `gotrace stats --json`
// says the trace began at, for the whole trace) and ticks at times of day, the range
// figures give wall times too, a reload keeps the choice; a trace without clock
// snapshots has no toggle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './browser.mjs';
import { SAMPLE, corpusTrace, gotraceJson } from './fixtures.mjs';
import { openFile, openPage, show, timelineIdle, reloadKept } from './pages.mjs';

const env = useBrowser();
const TRACE = corpusTrace('newest/go127-workload.trace');

// "2026-11-27T04:11:05.996086443Z" plus `ns` nanoseconds, as the app writes it:
// "2026-11-27 04:11:05.996086443 UTC".
function wallText(rfc3339, ns = 0) {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(rfc3339);
  const total = BigInt(Date.parse(m[1] + 'Z')) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0')) + BigInt(ns);
  const sec = total / 1_000_000_000n;
  const frac = String(total % 1_000_000_000n).padStart(9, '0');
  const iso = new Date(Number(sec) * 1000).toISOString();  // 2026-11-27T04:11:05.000Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${frac} UTC`;
}

const ruler = (page) => page.evaluate(() => window.__gotraceTimeline.ruler());

test('the timeline shows wall-clock times when asked, and keeps the choice over a reload', async () => {
  const stats = gotraceJson('stats', TRACE);
  assert.match(stats.time.wall_start, /^20\d\d-/);
  const { page, problems } = await openPage(env.browser, env.site.url);
  await openFile(page, TRACE);
  await show(page, '#/timeline', '[data-testid=timeline-canvas]');
  await timelineIdle(page);
  assert.match((await ruler(page)).corner, / shown$/);
  const view = await page.evaluate(() => window.__gotraceTimeline.view());
  assert.equal(view.t0, stats.time.start, 'the first view starts at the trace start');

  await page.locator('[data-testid=wall-clock]').check();
  await page.waitForFunction(() => /[?&]clock=wall/.test(location.hash));
  await page.waitForFunction(() => / UTC$/.test(window.__gotraceTimeline.ruler()?.corner ?? ''));
  const wall = await ruler(page);
  assert.equal(wall.corner, wallText(stats.time.wall_start));
  assert.ok(wall.ticks.length >= 3, wall.ticks.join(', '));
  for (const t of wall.ticks) assert.match(t, /^\d\d:\d\d:\d\d(\.\d+)?$/);
  // The ticks fall on round wall times after the left edge, in order.
  const seconds = (t) => t.split(':').reduce((s, x) => s * 60 + Number(x), 0);
  assert.ok(seconds(wall.ticks[0]) >= seconds(wall.corner.slice(11, 29)));
  for (let i = 1; i < wall.ticks.length; i++) assert.ok(seconds(wall.ticks[i]) > seconds(wall.ticks[i - 1]), wall.ticks.join(', '));
  // Evenly, also zoomed in late in the trace (where a later generation's clock snapshot
  // holds): each tick the step after the one before.
  const even = (ticks) => {
    const d = ticks.slice(1).map((t, i) => Math.round((seconds(t) - seconds(ticks[i])) * 1e9));
    return d.every((x) => x === d[0]);
  };
  assert.ok(even(wall.ticks), wall.ticks.join(', '));
  const lateAt = stats.time.end - Math.round(stats.time.duration / 10);
  await page.evaluate(([a, b]) => { location.hash = location.hash.replace(/t0=\d+&t1=\d+&?/, '').replace(/\?/, `?t0=${a}&t1=${b}&`); }, [lateAt, lateAt + 40_000]);
  await page.waitForFunction((a) => Math.abs(window.__gotraceTimeline.view().t0 - a) < 1000, lateAt);
  await timelineIdle(page);
  const late = await ruler(page);
  assert.ok(late.ticks.length >= 3 && even(late.ticks), late.ticks.join(', '));
  await page.evaluate(() => window.__gotraceTimeline.fit());
  await timelineIdle(page);

  // A range's figures give its ends as wall times.
  const r0 = stats.time.start + 1_000_000;
  const r1 = stats.time.start + 2_000_000;
  await page.evaluate(([a, b]) => { location.hash = location.hash.replace(/\?/, `?r0=${a}&r1=${b}&`); }, [r0, r1]);
  await reloadKept(page);
  await page.waitForSelector('[data-testid=range-stats]', { timeout: 60_000 });
  await timelineIdle(page);
  assert.match(await page.evaluate(() => location.hash), /[?&]clock=wall/);
  await page.waitForFunction(() => / UTC$/.test(window.__gotraceTimeline.ruler()?.corner ?? ''));
  assert.ok(await page.locator('[data-testid=wall-clock]').isChecked());
  const figures = await page.locator('[data-testid=range-stats]').textContent();
  assert.ok(figures.includes(`From ${wallText(stats.time.wall_start, 1_000_000)} to ${wallText(stats.time.wall_start, 2_000_000)}.`), figures);

  // Off again: times from the start, and the URL says nothing of the clock.
  await page.locator('[data-testid=wall-clock]').uncheck();
  await page.waitForFunction(() => !/clock=wall/.test(location.hash));
  await page.waitForFunction(() => / shown$/.test(window.__gotraceTimeline.ruler()?.corner ?? ''));
  assert.deepEqual(problems.errors, []);
  await page.context().close();
});

test('the wall-clock ruler steps evenly late in a trace of many generations, each with its own clock snapshot', async () => {
  const file = corpusTrace('newest/go127-annotations-stress.stress.trace');
  const stats = gotraceJson('stats', file);
  const { page, problems } = await openPage(env.browser, env.site.url);
  await openFile(page, file);
  const seconds = (t) => t.split(':').reduce((s, x) => s * 60 + Number(x), 0);
  for (const [at, span] of [[0.9, 40_000], [0.7, 3_000], [0.5, 400_000]]) {
    const t0 = stats.time.start + Math.round(stats.time.duration * at);
    await show(page, `#/timeline?t0=${t0}&t1=${t0 + span}&clock=wall`, '[data-testid=timeline-canvas]');
    await page.waitForFunction((a) => Math.abs(window.__gotraceTimeline.view().t0 - a) < 1000 && / UTC$/.test(window.__gotraceTimeline.ruler()?.corner ?? ''), t0);
    await timelineIdle(page);
    const { ticks } = await ruler(page);
    const steps = ticks.slice(1).map((t, i) => Math.round((seconds(t) - seconds(ticks[i])) * 1e9));
    assert.ok(ticks.length >= 3 && steps.every((x) => x === steps[0]), ticks.join(', '));
  }
  assert.deepEqual(problems.errors, []);
  await page.context().close();
});

test('a trace without clock snapshots has no wall-clock toggle', async () => {
  assert.equal(gotraceJson('stats', SAMPLE).time.wall_start, null);
  const { page, problems } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  await show(page, '#/timeline?clock=wall', '[data-testid=timeline-canvas]');
  await timelineIdle(page);
  assert.equal(await page.locator('[data-testid=wall-clock]').count(), 0);
  assert.match((await ruler(page)).corner, / shown$/);
  assert.deepEqual(problems.errors, []);
  await page.context().close();
});

test('zoomed in far from the start, the ruler gives the first tick in full and the others after it', async () => {
  const stats = gotraceJson('stats', TRACE);
  const { page, problems } = await openPage(env.browser, env.site.url);
  await openFile(page, TRACE);
  const t0 = stats.time.start + Math.round(stats.time.duration / 2);
  await show(page, `#/timeline?t0=${t0}&t1=${t0 + 2000}`, '[data-testid=timeline-canvas]');
  await timelineIdle(page);
  const { ticks } = await ruler(page);
  assert.ok(ticks.length >= 3, ticks.join(', '));
  assert.match(ticks[0], /^\d+\.\d+ (ms|s)$/);
  for (const t of ticks.slice(1)) assert.match(t, /^\+\d+(\.\d+)? ns$/);
  assert.ok(ticks.every((t) => t.length <= 12), ticks.join(', '));
  assert.deepEqual(problems.errors, []);
  await page.close();
});
