// A trace too large to hold whole opens in parts (runs of its generations): its first
// part shows while the rest is read; the part bar says which part the views show (the
// goroutine, task, region, profile and MMU views: the whole trace, once read); the overview gives the part's figures and the whole
// trace's (the CLI's); the part before or after, or the one that begins at a generation
// clicked, opens in the same tab, every view then showing it; a trace small enough opened
// next, or an older one (no generations), shows no part bar. The limits are made small
// here so that a stress-mode corpus trace (700 generations) opens in parts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './browser.mjs';
import { SAMPLE, corpusTrace, gotrace, gotraceJson } from './fixtures.mjs';
import { openFile, openPage, reloadKept, show, timelineIdle } from './pages.mjs';

const env = useBrowser();
const TRACE = corpusTrace('newest/go127-gomaxprocs.stress.trace');
const PART_EVENTS = 40_000;

// Runs fn(arg) in the page's trace worker: in every worker of the page, as one replaced
// (a cancelled load takes its worker) may be listed beside the new one for a while.
async function inWorkers(page, fn, arg) {
  for (const w of page.workers()) await w.evaluate(fn, arg).catch(() => {});
}

// Sets the trace worker's limits: files over 100 KB open in parts of at most `events` events.
async function smallParts(page, events = PART_EVENTS) {
  for (let i = 0; i < 100 && page.workers().length === 0; i++) await page.waitForTimeout(100);
  assert.ok(page.workers().length > 0, 'the trace worker runs');
  await inWorkers(page, (n) => {
    self.gotracePartBytes = 100_000;
    self.gotracePartEvents = n;
  }, events);
}

// Whether the trace worker reads the rest of a trace in parts in the background (held:
// it knows only the generations the part open needed, and the one after).
async function holdReading(page, held = true) {
  await inWorkers(page, (h) => {
    if (h) self.gotraceHoldReading = true;
    else delete self.gotraceHoldReading;
  }, held);
}

// Keeps the trace worker busy for `ms` from a moment after the call: whatever is asked
// of it meanwhile (a part to open) is answered late, as on a loaded machine.
async function stallWorker(page, ms) {
  await inWorkers(page, (n) => {
    setTimeout(() => {
      const until = Date.now() + n;
      while (Date.now() < until);
    }, 20);
  }, ms);
}

// page.waitForFunction(fn), whose timeout says what the page showed: the part bar, the
// timeline's notes and the address (a wait in these tests is for the app's state).
async function waitShowing(page, fn, arg, timeout = 60_000) {
  try {
    await page.waitForFunction(fn, arg, { timeout });
  } catch (e) {
    const shown = await page.evaluate(() => {
      const text = (id) => document.querySelector(`[data-testid=${id}]`)?.textContent ?? '(none)';
      return { hash: location.hash, part: text('part-text'), scope: text('scope-note'), outside: text('outside-part'),
        overview: text('timeline-overview-note'), page: document.querySelector('main')?.textContent?.slice(0, 200), busy: window.__gotraceBusy() };
    }).catch((err) => String(err));
    e.message += `\nThe page showed: ${JSON.stringify(shown, null, 1)}`;
    throw e;
  }
}

const partText = (page) => page.locator('[data-testid=part-text]').textContent();
const statOf = (page, key) => page.locator(`[data-testid=overview] .cards [data-stat=${key}] .card-value`).first().textContent();
const wholeStatOf = (page, key) => page.locator(`[data-testid=whole-trace] [data-stat=${key}] .card-value`).textContent();
const count = (text) => Number(text.replace(/[^0-9]/g, ''));

// The generations [first, last] the part bar says are open, and the events it gives.
async function openPartOf(page) {
  const m = /generations? (\d+)(?:–(\d+))? of (\d+), ([\d,  ]+) of ([\d,  ]+) events/.exec(await partText(page));
  assert.ok(m, await partText(page));
  const first = Number(m[1]) - 1;
  return { first, last: m[2] ? Number(m[2]) - 1 : first, of: Number(m[3]), events: count(m[4]), total: count(m[5]) };
}

test('the timeline of a trace opened in parts: the whole trace around the part, the part zoomed in on opened', async () => {
  const whole = gotraceJson('stats', TRACE);
  const { page, problems } = await openPage(env.browser, env.site.url);
  await smallParts(page);
  await openFile(page, TRACE);
  await page.waitForSelector('[data-testid=part-bar]', { timeout: 60_000 });
  // Before the rest is read, the part's timeline.
  await show(page, '#/timeline', '[data-testid=timeline-canvas]');
  await page.waitForSelector('[data-testid=part-reading]', { state: 'detached', timeout: 60_000 });
  await page.waitForSelector('[data-testid=timeline-overview-note]', { timeout: 60_000 });
  assert.equal(await page.getAttribute('[data-testid=scope-note]', 'data-scope'), 'whole');
  await timelineIdle(page);
  const part = await openPartOf(page);
  assert.equal(part.first, 0);
  // It shows the part, in full; Fit shows the whole trace.
  const inPart = await page.evaluate(() => window.__gotraceTimeline.view());
  assert.equal(inPart.t0, whole.time.start);
  assert.ok(inPart.t1 < whole.time.end, `${inPart.t1} < ${whole.time.end}`);
  await page.evaluate(() => window.__gotraceTimeline.fit());
  await page.waitForFunction((t) => window.__gotraceTimeline.view().t1 === t, whole.time.end);
  await page.waitForTimeout(100);
  await timelineIdle(page);
  // The procs' and GC's slices and the counters go on to the trace's end, past the part.
  const extent = (key) => page.evaluate((k) => {
    const d = window.__gotraceTimeline.data(k);
    return d && { first: d.start?.[0] ?? d.time[0], last: d.end?.[d.end.length - 1] ?? d.time[d.time.length - 1], n: (d.start ?? d.time).length };
  }, key);
  const late = whole.time.end - (whole.time.end - inPart.t1) * 0.05;
  for (const key of ['proc:0', 'series:heap-alloc']) {
    const got = await extent(key);
    assert.ok(got && got.last >= late && got.n > 10, `${key}: ${JSON.stringify(got)}, the part ends at ${inPart.t1}`);
  }
  const gc = await extent('gc');
  assert.ok(gc && gc.last > inPart.t1 + (whole.time.end - inPart.t1) / 2 && gc.n > 10, `gc: ${JSON.stringify(gc)}`);
  // Every proc and thread of the whole trace has its row, in the part or not; the
  // goroutines' lanes say they are the part's.
  const tracks = gotrace('timeline', TRACE, '--track=list').split('\n');
  const ids = (kind) => tracks.find((l) => l.startsWith(`${kind} (`)).replace(/^[^:]*:\s*/, '').split(' ').filter(Boolean).map(Number);
  for (const kind of ['proc', 'thread']) {
    const missing = [];
    for (const id of ids(kind)) {
      if (!(await page.evaluate((k) => Boolean(window.__gotraceTimeline.rowRect(k)), `${kind}:${id}`))) missing.push(id);
    }
    assert.deepEqual(missing, [], `the whole trace's ${kind}s without a row`);
  }
  // A range selected outside the part: its figures are the part's, and it says so.
  const r0 = Math.round(inPart.t1 + (whole.time.end - inPart.t1) * 0.5);
  await page.evaluate(([a, b, c, d]) => { location.hash = `#/timeline?t0=${a}&t1=${b}&r0=${c}&r1=${d}`; }, [whole.time.start, whole.time.end, r0, r0 + 1000]);
  await page.waitForSelector('[data-testid=range-outside-part]', { timeout: 60_000 });
  assert.match(await partText(page), /generations? 1\b/);
  // Zoomed in on time of another part, past what the whole trace's steps show: that part
  // opens, the view kept.
  const t0 = Math.round(whole.time.start + (whole.time.end - whole.time.start) * 0.8);
  const t1 = t0 + Math.round((whole.time.end - whole.time.start) / 2000);
  await page.evaluate(([a, b]) => { location.hash = `#/timeline?t0=${a}&t1=${b}`; }, [t0, t1]);
  await page.waitForFunction(() => !/generations? 1\b/.test(document.querySelector('[data-testid=part-text]')?.textContent), null, { timeout: 60_000 });
  const there = await openPartOf(page);
  assert.ok(there.first > part.last, `generations ${there.first + 1}–${there.last + 1}`);
  await page.waitForSelector('[data-testid=timeline-overview-note]', { timeout: 60_000 });
  await timelineIdle(page);
  const view = await page.evaluate(() => window.__gotraceTimeline.view());
  assert.deepEqual([Math.round(view.t0), Math.round(view.t1)], [t0, t1]);
  // In the part: its goroutines' lanes and the procs' every slice.
  const proc = await extent('proc:0');
  assert.ok(proc && proc.n > 0 && proc.first <= t1 && proc.last >= t0, JSON.stringify(proc));
  // Only this part's: the part's timeline alone.
  await page.click('[data-testid=scope-part]');
  await page.waitForFunction(() => document.querySelector('[data-testid=scope-note]')?.dataset.scope === 'open');
  assert.equal(await page.locator('[data-testid=timeline-overview-note]').count(), 0);
  // Critical paths and SQL need every event held: they say they show the part, and offer
  // the trace whole (as the part bar does). Opened whole: no part bar, every event there.
  assert.equal(await page.locator('[data-testid=open-whole]').count(), 1);
  await show(page, '#/critical-path?goroutine=1', '[data-testid=critical-path-view]');
  assert.match(await page.textContent('[data-testid=scope-note]'), /This part's critical paths \(generations? [\d–]+ of \d+\)\. The whole trace's need all its events held/);
  await show(page, '#/sql', '[data-testid=sql-view]');
  assert.match(await page.textContent('[data-testid=scope-note]'), /This part's tables/);
  await page.click('[data-testid=scope-open-whole]');
  await page.waitForSelector('[data-testid=part-bar]', { state: 'detached', timeout: 60_000 });
  await show(page, '#/overview', '[data-testid=overview]');
  assert.equal(count(await statOf(page, 'events')), whole.events);
  assert.deepEqual(problems.errors, []);
  await page.close();
});

test('a trace too large to hold whole opens in parts, each shown by every view', async () => {
  const whole = gotraceJson('stats', TRACE);
  const { page, problems } = await openPage(env.browser, env.site.url);
  await smallParts(page);
  await openFile(page, TRACE);
  await page.waitForSelector('[data-testid=part-bar]', { timeout: 60_000 });
  // The first part is shown while the rest of the trace is read, which then completes.
  await page.waitForSelector('[data-testid=part-reading]', { state: 'detached', timeout: 60_000 });

  // The first part: the first generations, as many as fit the limit.
  let part = await openPartOf(page);
  assert.equal(part.first, 0);
  assert.equal(part.of, whole.generations);
  assert.equal(part.total, whole.events);
  assert.ok(part.events <= PART_EVENTS || part.first === part.last, `${part.events} events`);
  assert.ok(part.last < whole.generations - 1);
  await show(page, '#/overview', '[data-testid=part-heading]');
  assert.equal(count(await statOf(page, 'events')), part.events);
  assert.equal(count(await statOf(page, 'generations')), part.last - part.first + 1);
  // Its size is its generations' bytes; the tables it shares with the whole trace are not counted as its.
  assert.notEqual(await statOf(page, 'bytes'), await wholeStatOf(page, 'bytes'));
  assert.equal(await page.locator('[data-testid=overview] .cards').first().locator('[data-stat=stacks]').count(), 0);
  // The whole trace's figures are the CLI's.
  assert.equal(count(await wholeStatOf(page, 'events')), whole.events);
  assert.equal(count(await wholeStatOf(page, 'goroutines')), whole.goroutines);
  assert.equal(count(await wholeStatOf(page, 'generations')), whole.generations);
  // Events by type: the whole trace's (the CLI's), and the part's beside them.
  const byType = await page.$$eval('[data-testid=events-by-type] tbody tr', (rows) => rows.map((r) => ({
    type: r.dataset.type, part: r.querySelector('[data-scope=part]').textContent, whole: r.querySelector('[data-scope=whole]').textContent,
  })));
  assert.deepEqual(Object.fromEntries(byType.map((r) => [r.type, count(r.whole)])), whole.events_by_type);
  assert.equal(byType.reduce((n, r) => n + count(r.part), 0), part.events);

  // The timeline shows the part: it begins where the part does.
  await show(page, '#/timeline', '[data-testid=timeline-canvas]');
  await timelineIdle(page);
  const first = await page.evaluate(() => window.__gotraceTimeline.view());
  assert.equal(first.t0, whole.time.start, 'the first part begins with the trace');

  // The part after: it begins where this one ended.
  await page.getByRole('button', { name: /Later/ }).click();
  await page.waitForFunction(() => !/generations? 1\b/.test(document.querySelector('[data-testid=part-text]')?.textContent));
  const next = await openPartOf(page);
  assert.equal(next.first, part.last + 1);
  await show(page, '#/timeline', '[data-testid=timeline-canvas]');
  await timelineIdle(page);
  const view = await page.evaluate(() => window.__gotraceTimeline.view());
  assert.ok(view.t0 > first.t0 && view.t0 < whole.time.end, `${view.t0}`);
  // Its ruler counts from the whole trace's start, as the part bar does: no tick at 0.
  const { ticks } = await page.evaluate(() => window.__gotraceTimeline.ruler());
  assert.ok(ticks.length > 2 && !/^0( |$)/.test(ticks[0]), ticks.join(', '));
  // So does a range's panel: a range selected in the part begins where the ruler says.
  const r0 = Math.round(view.t0 + (view.t1 - view.t0) * 0.3);
  const r1 = Math.round(view.t0 + (view.t1 - view.t0) * 0.5);
  await page.evaluate(([a, b]) => { location.hash = `#/timeline?r0=${a}&r1=${b}`; }, [r0, r1]);
  await page.waitForSelector('[data-testid=range-stats]', { timeout: 60_000 });
  const from = /From ([\d.]+) (ns|µs|ms|s) to/.exec(await page.textContent('[data-testid=range-stats]'));
  assert.ok(from, await page.textContent('[data-testid=range-stats]'));
  const unit = { ns: 1, µs: 1e3, ms: 1e6, s: 1e9 }[from[2]];
  assert.ok(Math.abs(Number(from[1]) * unit - (r0 - whole.time.start)) < unit / 1000, `${from[0]}: ${r0 - whole.time.start} ns`);
  await show(page, '#/goroutines', '[data-testid=groups-table]');
  await show(page, '#/overview', '[data-testid=part-heading]');
  assert.equal(count(await statOf(page, 'events')), next.events);

  // The strip clicked at its right end: the part that begins with the last generation.
  const strip = page.locator('[data-testid=part-strip]');
  assert.equal(await page.locator('.part-gen').count(), whole.generations);
  const box = await strip.boundingBox();
  await strip.click({ position: { x: box.width - 1, y: box.height / 2 } });
  await page.waitForFunction((n) => document.querySelector('[data-testid=part-text]')?.textContent.includes(`generation ${n} of`), whole.generations);
  part = await openPartOf(page);
  assert.equal(part.first, whole.generations - 1);
  assert.ok(await page.getByRole('button', { name: /Later/ }).isDisabled());
  // The part before it ends where it begins.
  await page.getByRole('button', { name: /Earlier/ }).click();
  await page.waitForFunction((n) => document.querySelector('[data-testid=part-text]')?.textContent.match(/generations \d+–(\d+) of/)?.[1] === String(n), whole.generations - 1);
  const before = await openPartOf(page);
  assert.ok(before.first < before.last, 'the part before holds several generations');
  await show(page, '#/timeline', '[data-testid=timeline-canvas]');
  await timelineIdle(page);

  // A goroutine's page in a part: the part's figures, then, its generations read again,
  // the goroutine over its whole life, as the whole trace (the CLI) gives it.
  const wholeGoroutines = gotraceJson('analysis', TRACE).goroutines;
  const main = wholeGoroutines.find((g) => g.id === 1);
  await show(page, '#/goroutine/1', '[data-testid=goroutine-view]');
  const scope = page.locator('[data-testid=goroutine-life]');
  await page.waitForFunction(() => /whole life \(generations/.test(document.querySelector('[data-testid=goroutine-life]')?.textContent ?? ''), null, { timeout: 60_000 });
  assert.match(await scope.textContent(), new RegExp(`generations 1 to ${whole.generations} of the trace`));
  const shown = (key) => page.locator(`[data-testid=goroutine-view] [data-stat=${key}]`).first().getAttribute('data-ns');
  assert.equal(Number(await shown('total')), main.stats.total);
  assert.equal(Number(await shown('exec')), main.stats.exec);

  // An older trace (no generations) opens whole whatever its size.
  const OLD = corpusTrace('go/go121-workload.trace');
  await openFile(page, OLD);
  await show(page, '#/overview', '[data-testid=overview]');
  assert.equal(await page.locator('[data-testid=part-bar]').count(), 0);
  assert.equal(count(await statOf(page, 'events')), gotraceJson('stats', OLD).events);

  // A trace small enough, opened next in the same tab, opens whole.
  await inWorkers(page, () => {
    delete self.gotracePartBytes;
    delete self.gotracePartEvents;
  });
  await openFile(page, SAMPLE);
  await show(page, '#/overview', '[data-testid=overview]');
  assert.equal(await page.locator('[data-testid=part-bar]').count(), 0);
  assert.equal(await page.locator('[data-testid=part-heading]').count(), 0);
  assert.equal(count(await statOf(page, 'events')), gotraceJson('stats', SAMPLE).events);
  assert.deepEqual(problems, { errors: [], dialogs: [], csp: [] });
});

test('in parts, the goroutine, task, region, profile and MMU views show the whole trace once it is read, and lead to the part of what they name', async () => {
  // The annotation stress trace (668 generations, tasks, regions, logs) in parts of
  // 40,000 events: its last goroutines and tasks are not in the first part.
  const ANNOTATED = corpusTrace('newest/go127-annotations-stress.stress.trace');
  const groups = gotraceJson('goroutines', ANNOTATED);
  const tasks = gotraceJson('tasks', ANNOTATED);
  const { page, problems } = await openPage(env.browser, env.site.url);
  await smallParts(page);
  await holdReading(page);
  await openFile(page, ANNOTATED);
  await page.waitForSelector('[data-testid=part-bar]', { timeout: 60_000 });
  const first = await openPartOf(page);
  // While the rest is unread: the part's tables, of the generations read so far.
  await show(page, '#/sql', '[data-testid=sql-view]');
  assert.match(await page.textContent('[data-testid=scope-note]'), /This part's tables \(generations 1–\d+ of \d+ read so far\)\. The whole trace's need/);
  // And the part's goroutines, saying so.
  await show(page, '#/goroutines', '[data-testid=groups-table]');
  assert.match(await page.textContent('[data-testid=scope-note]'), /This part's goroutines \(generations 1–\d+ of \d+ read so far\): the whole trace's once the rest is read/);
  await page.fill('[data-testid=search]', 'G1');
  await page.waitForSelector('[data-testid=search-scope][data-scope=open]');
  assert.match(await page.textContent('[data-testid=search-scope]'), /In this part \(the whole trace once it is read\)/);
  await page.keyboard.press('Escape');
  const goroutinesShown = async () => Number(/^([\d,]+) goroutines/.exec(await page.textContent('[data-testid=goroutines-view] .gt-view-head span'))[1].replace(/,/g, ''));
  const partCount = await goroutinesShown();
  assert.ok(partCount < groups.goroutines.length, `${partCount} goroutines in the first part`);

  // Read: the whole trace's, as the CLI has them.
  await holdReading(page, false);
  await openFile(page, ANNOTATED);
  await page.waitForSelector('[data-testid=part-reading]', { state: 'detached', timeout: 60_000 });
  await show(page, '#/goroutines', '[data-testid=scope-note][data-scope=whole]');
  await page.waitForSelector('[data-testid=groups-table]');
  assert.equal(await page.textContent('[data-testid=goroutines-view] .gt-view-head span'),
    `${groups.goroutines.length} goroutines in ${groups.groups.length} groups by start function`);
  // The part's only, by the link; its group links keep to the part.
  await page.click('[data-testid=scope-part]');
  await page.waitForSelector('[data-testid=scope-note][data-scope=open]');
  assert.equal(await goroutinesShown(), partCount);
  assert.match(await page.getAttribute('[data-testid=group-link] >> nth=0', 'href'), /\?scope=part$/);
  // A group's page: the whole trace's goroutines of the group.
  const big = groups.groups.reduce((a, b) => (b.goroutines.length > a.goroutines.length ? b : a));
  await show(page, `#/goroutines/group/${encodeURIComponent(big.name)}`, '[data-testid=group-count]');
  assert.equal(count(await page.textContent('[data-testid=group-count]')), big.goroutines.length);
  // The tasks: the whole trace's types, as the CLI counts them.
  await show(page, '#/tasks', '[data-testid=task-types]');
  await page.waitForSelector('[data-testid=scope-note][data-scope=whole]');
  const shownTypes = await page.locator('[data-testid=task-types] [data-testid=type-count]').allTextContents();
  assert.deepEqual(shownTypes.map(count).sort((a, b) => a - b), tasks.types.map((t) => t.count).sort((a, b) => a - b));

  // The MMU: the whole trace's, the CLI's (10 ms: the window where it leaves 0); with
  // other flags, the part's.
  const mmu = gotraceJson('mmu', ANNOTATED).mmu.windows.find((w) => w.window === 1e7);
  await show(page, '#/mmu', '[data-testid=mmu-windows]');
  await page.waitForSelector('[data-testid=scope-note][data-scope=whole]');
  const row = page.locator('[data-testid=mmu-windows] tr', { has: page.locator('[data-testid=mmu-window]', { hasText: /^10 ms$/ }) });
  assert.equal(await row.locator('td').nth(1).textContent(), `${(mmu.mmu * 100).toFixed(2)}%`);
  await page.click('[data-flag=sweep]');
  await page.waitForSelector('[data-testid=scope-note][data-scope=open]');
  assert.match(await page.textContent('[data-testid=scope-note]'), /The whole trace's is of the default flags/);

  // The profiles: the whole trace's (made in a second read), the CLI's; narrowed, the part's.
  const schedNs = gotrace('pprof', '--type=sched', '--folded', ANNOTATED).trim().split('\n')
    .reduce((sum, line) => sum + Number(line.split(' ')[1]), 0);
  await show(page, '#/profiles/sched', '[data-testid=profiles-view][data-scope=whole]');
  assert.equal(Number(await page.getAttribute('[data-testid=flame-total]', 'data-ns')), schedNs);
  assert.match(await page.textContent('[data-testid=scope-note]'), /The whole trace's profile, all \d+ generations/);
  const pprofFile = path.join(os.tmpdir(), `gotrace-parts-${process.pid}.pb.gz`);
  gotrace('pprof', '--type=sched', '-o', pprofFile, ANNOTATED);
  await page.click('[data-testid=download-pprof]');
  await page.waitForSelector('[data-testid=pprof-size]');
  assert.equal(count(await page.textContent('[data-testid=pprof-size]')), fs.statSync(pprofFile).size);
  fs.rmSync(pprofFile);
  await page.click('[data-testid=scope-part]');
  await page.waitForSelector('[data-testid=profiles-view][data-scope=open]');
  const partNs = Number(await page.getAttribute('[data-testid=flame-total]', 'data-ns'));
  assert.ok(partNs < schedNs, `the part's ${partNs} ns of ${schedNs}`);
  await show(page, `#/profiles/sched?group=${encodeURIComponent(big.name)}`, '[data-testid=profiles-view][data-scope=open]');
  assert.match(await page.textContent('[data-testid=scope-note]'), /A narrowed profile is the part's/);

  // The search: the whole trace's goroutines and task logs (a late goroutine; every log
  // of a message, the late tasks' among them).
  const late = groups.goroutines.filter((g) => g.creation > 0).at(-1);
  await page.fill('[data-testid=search]', `G${late.id}`);
  await page.waitForSelector('[data-testid=search-scope][data-scope=whole]');
  await page.waitForSelector(`[data-testid=search-results] a[data-kind=goroutine][href="#/goroutine/${late.id}"]`);
  const message = 'fanout region4';
  const logged = tasks.tasks.flatMap((t) => t.logs.filter((l) => l.message.includes(message)).map(() => `task ${t.id}`));
  assert.ok(logged.length > 1 && logged.length < 30, `${logged.length} logs`);
  await page.fill('[data-testid=search]', message.toUpperCase());
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=search-results] a[data-kind=log]').length === n, logged.length);
  const found = await page.locator('[data-testid=search-results] a[data-kind=log] .muted').allTextContents();
  assert.deepEqual(found.map((d) => d.split(',')[0]), logged);
  await page.keyboard.press('Escape');

  // A goroutine of another part: its whole figures, and the part that holds it offered.
  await show(page, `#/goroutine/${late.id}`, '[data-testid=outside-part]');
  assert.equal(Number(await page.locator('[data-testid=goroutine-view] [data-stat=total]').first().getAttribute('data-ns')), late.stats.total);
  assert.equal(await page.locator('[data-testid=goroutine-critical-path-link]').count(), 0);
  await page.click('[data-testid=open-outside-part]');
  await page.waitForFunction(() => /whole life \(generations/.test(document.querySelector('[data-testid=goroutine-life]')?.textContent ?? ''), null, { timeout: 60_000 });
  const there = await openPartOf(page);
  assert.ok(there.first > first.last, `generations ${there.first + 1}–${there.last + 1}`);
  assert.equal(Number(await page.locator('[data-testid=goroutine-view] [data-stat=total]').first().getAttribute('data-ns')), late.stats.total);

  // A task of another part: as the whole trace has it; its timeline link leads to a
  // range outside the part, whose part the timeline offers.
  // (The strip clicked at its left end: the first part again.)
  await page.locator('[data-testid=part-strip]').click({ position: { x: 1, y: 5 } });
  await page.waitForFunction(() => /generations 1–/.test(document.querySelector('[data-testid=part-text]')?.textContent ?? ''), null, { timeout: 60_000 });
  const lateTask = tasks.tasks.filter((t) => t.start != null).at(-1);
  await show(page, `#/task/${lateTask.id}`, '[data-testid=outside-part]');
  assert.match(await page.textContent('[data-testid=task-title]'), new RegExp(`${lateTask.id}$`));
  assert.equal(await page.locator('[data-testid=task-logs] tbody tr').count(), lateTask.logs.length);
  // The whole trace's timeline there, on the task.
  await page.click('[data-testid=task-timeline-link]');
  await page.waitForSelector('[data-testid=timeline-canvas]');
  await page.waitForSelector('[data-testid=timeline-overview-note]', { timeout: 60_000 });
  await timelineIdle(page);
  assert.equal(await page.locator('[data-testid=outside-part]').count(), 0);
  let view = await page.evaluate(() => window.__gotraceTimeline.view());
  assert.ok(view.t0 <= lateTask.start && view.t1 >= lateTask.start, `${view.t0}–${view.t1} holds ${lateTask.start}`);
  // Every goroutine group of the whole trace has its lane.
  const labels = await page.evaluate(() => window.__gotraceTimeline.rowLabels());
  const lanes = labels.filter((l) => /^[▸▾] /.test(l)).map((l) => l.replace(/^[▸▾] (.*) \([^()]*\)$/, '$1'));
  const named = (name) => name || '(unknown start function)';
  // (The part's goroutines whose start function it does not know have a group of their own.)
  assert.deepEqual(lanes.filter((l) => l !== named('')).sort(), groups.groups.map((g) => named(g.name)).filter((l) => l !== named('')).sort());
  // The part's own timeline (Only this part's) offers the part of a range outside it;
  // staying in this part lets the line go.
  const range = [Math.round(view.t0), Math.round(view.t1)];
  // (Once the timeline has settled: zoomed in on another part's time, it opens that part.)
  await page.waitForTimeout(600);
  await page.waitForFunction(() => !window.__gotraceBusy(), null, { timeout: 60_000 });
  await page.locator('[data-testid=part-strip]').click({ position: { x: 1, y: 5 } });
  await page.waitForFunction(() => /generations 1–/.test(document.querySelector('[data-testid=part-text]')?.textContent ?? '') && !window.__gotraceBusy(), null, { timeout: 60_000 });
  await show(page, `#/timeline?scope=part&t0=${range[0]}&t1=${range[1]}`, '[data-testid=outside-part]');
  await page.click('[data-testid=dismiss-outside-part]');
  await page.waitForSelector('[data-testid=outside-part]', { state: 'detached' });
  assert.match(await partText(page), /generations 1–/);
  // The address says what is shown (this part's span), and a link to the range offers it again.
  await page.waitForFunction((t0) => !location.hash.includes(`t0=${t0}&`), range[0], { timeout: 10_000 });
  await show(page, `#/timeline?scope=part&t0=${range[0]}&t1=${range[1]}`, '[data-testid=outside-part]');
  // The part opened slowly: the part before, shown meanwhile, must not take the range
  // for a link out of its span and write its own back (the new part then said that
  // range was outside it).
  await stallWorker(page, 1500);
  await page.click('[data-testid=open-outside-part]');
  await page.waitForFunction(() => !/generations 1–/.test(document.querySelector('[data-testid=part-text]')?.textContent ?? ''), null, { timeout: 60_000 });
  await timelineIdle(page);
  await waitShowing(page, () => !document.querySelector('[data-testid=outside-part]'), null, 5_000);
  view = await page.evaluate(() => window.__gotraceTimeline.view());
  assert.ok(view.t0 <= lateTask.start && view.t1 >= lateTask.start, `${view.t0}–${view.t1} holds ${lateTask.start}`);

  // Summaries past the tab's budget are let go: the views show the part's, saying why.
  await inWorkers(page, () => {
    self.gotraceSummaryBytes = 1000;
  });
  await openFile(page, ANNOTATED);
  await page.waitForSelector('[data-testid=part-reading]', { state: 'detached', timeout: 60_000 });
  await show(page, '#/goroutines', '[data-testid=groups-table]');
  assert.match(await page.textContent('[data-testid=scope-note]'), /The whole trace's are not kept in this tab: the whole trace's summaries would take more than 0 MiB/);
  assert.equal(await goroutinesShown(), partCount);
  assert.deepEqual(problems, { errors: [], dialogs: [], csp: [] });
});

test('the part after the first, opened while the rest is unread, is a whole part', async () => {
  // 1,384 generations of about 50 events each: parts of 2,000 events are ~40 of them.
  const STACKS = corpusTrace('newest/go124-stacks.stress.trace');
  const budget = 2_000;
  const { page, problems } = await openPage(env.browser, env.site.url);
  await smallParts(page, budget);
  // The rest of the trace is not read in the background: the page knows only the
  // generations the first part needed, and the one after it.
  await holdReading(page);
  await openFile(page, STACKS);
  await page.waitForSelector('[data-testid=part-bar]', { timeout: 60_000 });
  const firstPart = await openPartOf(page);
  assert.ok(firstPart.last > 10, `the first part: generations 1–${firstPart.last + 1}`);
  await page.waitForTimeout(1500);  // the part bar's poll of how far the reading is
  assert.ok(await page.locator('[data-testid=part-reading]').isVisible());
  await page.locator('[data-testid=part-bar] button', { hasText: 'Later' }).click();
  await page.waitForFunction((first) => {
    const m = /generations? (\d+)/.exec(document.querySelector('[data-testid=part-text]')?.textContent ?? '');
    return m && Number(m[1]) - 1 > first;
  }, firstPart.first);
  const later = await openPartOf(page);
  assert.equal(later.first, firstPart.last + 1);
  // A part's worth of generations (about 50 events each), not the one or two
  // known at the click.
  assert.ok(later.events > budget / 2,
    `${later.events} events in generations ${later.first + 1}–${later.last + 1}`);

  // The same with the rest read in the background: the worker may then know more
  // generations than the page, which chose its part from fewer.
  await holdReading(page, false);
  await openFile(page, STACKS);
  await page.waitForFunction(() => /generations 1–/.test(document.querySelector('[data-testid=part-text]')?.textContent ?? ''));
  const again = await openPartOf(page);
  await page.waitForTimeout(300);
  await page.locator('[data-testid=part-bar] button', { hasText: 'Later' }).click();
  await page.waitForFunction(() => !/generations 1–/.test(document.querySelector('[data-testid=part-text]')?.textContent ?? ''));
  const next = await openPartOf(page);
  assert.equal(next.first, again.last + 1);
  assert.ok(next.events > budget / 2, `${next.events} events in generations ${next.first + 1}–${next.last + 1}`);
  assert.deepEqual(problems, { errors: [], dialogs: [], csp: [] });
});

test('the whole trace\'s timeline of a part has a lane for each goroutine group, those of other parts drawn where their goroutines ran', async () => {
  // go124-stacks: 1,384 generations; GC's mark workers start past its first part of
  // 2,000 events.
  const STACKS = corpusTrace('newest/go124-stacks.stress.trace');
  const WORKERS = 'runtime.gcBgMarkWorker';
  const whole = gotraceJson('stats', STACKS).time;
  const { page, problems } = await openPage(env.browser, env.site.url);
  await smallParts(page, 2_000);
  await openFile(page, STACKS);
  await page.waitForSelector('[data-testid=part-reading]', { state: 'detached', timeout: 60_000 });
  await show(page, `#/timeline?t0=${whole.start}&t1=${whole.end}`, '[data-testid=timeline-overview-note]');
  await timelineIdle(page);
  assert.match(await partText(page), /generations 1–/);
  const rows = await page.evaluate(() => {
    const t = window.__gotraceTimeline;
    return t.rowLabels().map((label, i) => ({ label, key: t.rowKeys()[i] }));
  });
  const lane = rows.find((r) => r.label === `▸ ${WORKERS} (none in this part)`);
  assert.ok(lane, rows.map((r) => r.label).join('\n'));
  // Its goroutines' time, all of it past the part: the index's activity of the group.
  const d = await page.evaluate((k) => window.__gotraceTimeline.data(k), `${lane.key}:${WORKERS}`);
  assert.ok(d, "the lane was drawn");
  const columns = Object.values(d.running).map((r, i) => r + d.runnable[i] + d.waiting[i] + d.syscall[i]);
  const first = columns.findIndex((n) => n > 0);
  assert.ok(first >= 0, 'the mark workers drawn');
  const part = await openPartOf(page);
  const gens = await page.evaluate(() => document.querySelector('[data-testid=part-text]').textContent);
  assert.ok(part.last < 100, gens);
  assert.deepEqual(problems, { errors: [], dialogs: [], csp: [] });
});

test('a link to a time past what is read so far waits for the part that holds it, rather than offer the last one read', async () => {
  const t = gotraceJson('stats', TRACE).time;
  const late = [t.end - Math.round(t.duration / 20), t.end];
  const { page, problems } = await openPage(env.browser, env.site.url);
  await smallParts(page);
  await holdReading(page);
  await openFile(page, TRACE);
  await page.waitForSelector('[data-testid=part-bar]', { timeout: 60_000 });
  await show(page, `#/timeline?t0=${late[0]}&t1=${late[1]}`, '[data-testid=outside-part]');
  // Only the first generations are known: no part is offered yet.
  await page.waitForSelector('[data-testid=outside-part-unread]');
  assert.equal(await page.locator('[data-testid=open-outside-part]').count(), 0);
  // Read on: the part that holds it is offered once its generation is read, or, the rest
  // read first, the whole trace's timeline goes there and (zoomed in that far) opens it.
  await holdReading(page, false);
  await waitShowing(page, () => document.querySelector('[data-testid=open-outside-part]') ||
    Number(/generations? (\d+)/.exec(document.querySelector('[data-testid=part-text]')?.textContent ?? '')?.[1] ?? 1) > 1);
  if (await page.locator('[data-testid=open-outside-part]').count()) await page.click('[data-testid=open-outside-part]');
  await waitShowing(page, () =>
    Number(/generations? (\d+)/.exec(document.querySelector('[data-testid=part-text]')?.textContent ?? '')?.[1] ?? 1) > 1);
  await timelineIdle(page);
  await waitShowing(page, () => !document.querySelector('[data-testid=outside-part]'));
  let view = await page.evaluate(() => window.__gotraceTimeline.view());
  assert.ok(view.t0 <= late[0] + 1 && view.t1 >= late[0], `${view.t0}–${view.t1} shows ${late[0]}`);
  // The same link followed while the trace is read on in the background (as after a reload).
  await openFile(page, TRACE);
  await page.waitForSelector('[data-testid=part-bar]', { timeout: 60_000 });
  await show(page, `#/timeline?t0=${late[0]}&t1=${late[1]}`, '[data-testid=timeline-canvas]');
  // The part that holds it: offered once its generation is read, or opened at once when
  // the rest was read first (the whole trace's timeline, zoomed in there, opens it).
  await waitShowing(page, () => document.querySelector('[data-testid=open-outside-part]') ||
    Number(/generations? (\d+)/.exec(document.querySelector('[data-testid=part-text]')?.textContent ?? '')?.[1] ?? 1) > 1);
  console.log("BRANCH", await page.locator("[data-testid=open-outside-part]").count(), await partText(page));
  if (await page.locator('[data-testid=open-outside-part]').count()) {
    assert.equal(await page.locator('[data-testid=outside-part-unread]').count(), 0);
    await page.click('[data-testid=open-outside-part]');
  }
  await waitShowing(page, () =>
    Number(/generations? (\d+)/.exec(document.querySelector('[data-testid=part-text]')?.textContent ?? '')?.[1] ?? 1) > 1);
  await timelineIdle(page);
  await waitShowing(page, () => !document.querySelector('[data-testid=outside-part]'));
  view = await page.evaluate(() => window.__gotraceTimeline.view());
  assert.ok(view.t0 <= late[0] + 1 && view.t1 >= late[0], `${view.t0}–${view.t1} shows ${late[0]}`);
  assert.deepEqual(problems, { errors: [], dialogs: [], csp: [] });
});

test('a trace opened whole from its parts opens whole again after a reload', async () => {
  const whole = gotraceJson('stats', TRACE);
  const { page, problems } = await openPage(env.browser, env.site.url);
  // Limits set before the app starts, so that the reload keeps them.
  await page.addInitScript((events) => {
    window.gotracePartBytes = 100_000;
    window.gotracePartEvents = events;
  }, PART_EVENTS);
  await page.reload();
  await openFile(page, TRACE);
  await page.waitForSelector('[data-testid=part-bar]', { timeout: 60_000 });
  await page.click('[data-testid=open-whole]');
  await page.waitForSelector('[data-testid=part-bar]', { state: 'detached', timeout: 60_000 });
  await show(page, '#/overview', '[data-testid=overview]');
  await reloadKept(page, { whole: true });
  await page.waitForSelector('[data-testid=overview] .cards', { timeout: 60_000 });
  assert.equal(count(await statOf(page, 'events')), whole.events);
  assert.equal(await page.locator('[data-testid=part-bar]').count(), 0);
  // A file chosen after it opens in parts again, and so does a reload then.
  await openFile(page, TRACE);
  await page.waitForSelector('[data-testid=part-bar]', { timeout: 60_000 });
  await reloadKept(page);
  await page.waitForSelector('[data-testid=part-bar]', { timeout: 60_000 });
  assert.deepEqual(problems, { errors: [], dialogs: [], csp: [] });
  await page.close();
});

test('a reload after a file too large to keep says why it did not reopen it; one kept reopens', async () => {
  const { page, problems } = await openPage(env.browser, env.site.url);
  // Files over 100 KB are not kept for a reload.
  await page.evaluate(() => {
    window.gotraceKeepBytes = 100_000;
  });
  await openFile(page, TRACE);
  await show(page, '#/overview', '[data-testid=overview]');
  await reloadKept(page);
  const banner = page.locator('[data-testid=error]');
  await banner.waitFor({ timeout: 30_000 });
  const text = await banner.textContent();
  assert.match(text, /go127-gomaxprocs\.stress\.trace was not reopened/);
  assert.match(text, /over 97\.\d KiB/);
  assert.match(text, /open it again/);
  assert.ok(await page.locator('.welcome').isVisible(), 'the welcome page shows');

  // The sample (under the usual limit) is kept, and a reload reopens it.
  await openFile(page, SAMPLE);
  await show(page, '#/overview', '[data-testid=overview]');
  assert.equal(await banner.count(), 0);
  await reloadKept(page);
  await page.waitForSelector('[data-testid=overview] .cards', { timeout: 60_000 });
  assert.equal(count(await statOf(page, 'events')), gotraceJson('stats', SAMPLE).events);
  assert.deepEqual(problems, { errors: [], dialogs: [], csp: [] });
});
