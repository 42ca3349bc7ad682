#!/usr/bin/env node
// Time to open each analysis view in headless Chromium, on a large trace: the built
// site (web/dist) served on 127.0.0.1, the trace chosen through the file input, then
// each view opened by its link. Two fresh pages: on the first, every view is opened
// right after the trace is loaded (the first of them waits for the engine's analysis;
// the worker computes in the background only while no request comes); on the second,
// once the worker's background analyses have finished. "again" is the same view opened
// a second time. Prints figures (and the load average: the machine may be busy);
// asserts nothing.
//
//   node scripts/bench-views.mjs [TRACE]     (default /work/data/large.trace or
//                                             $GOTRACE_LARGE_TRACE)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { launch, newPage, startSite } from '../tests/web/browser.mjs';

const trace = process.argv[2] ?? process.env.GOTRACE_LARGE_TRACE ?? '/work/data/large.trace';
if (!fs.existsSync(trace)) {
  console.error(`no trace at ${trace}`);
  process.exit(2);
}

// Memory of the browser's processes (this script's descendants: page and worker
// included), in MB.
function browserRssMB(root) {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=']).toString().trim().split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number));
  const ids = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of table) if (ids.has(ppid) && !ids.has(pid)) { ids.add(pid); grew = true; }
  }
  let kb = 0;
  const each = [];
  for (const [pid, , rss] of table) if (ids.has(pid) && pid !== root) { kb += rss; each.push(rss); }
  return { total: kb / 1024, largest: Math.max(...each) / 1024 };
}
const site = await startSite();
const browser = await launch();

// Opens a hash and waits until `ready` (a CSS selector) is in the page and painted;
// then, if given, until `later` is (a part of the view that comes after the rest).
async function open(page, hash, ready, later) {
  return page.evaluate(async ({ hash, ready, later }) => {
    const until = (sel) => new Promise((resolve) => {
      const check = () => (document.querySelector(sel) ? resolve() : requestAnimationFrame(check));
      requestAnimationFrame(check);
    });
    const painted = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const t0 = performance.now();
    location.hash = hash;
    await until(ready);
    await painted();
    const shown = performance.now() - t0;
    if (!later) return [shown];
    await until(later);
    await painted();
    return [shown, performance.now() - t0];
  }, { hash, ready, later });
}

async function load() {
  const { context, page, problems } = await newPage(browser);
  page.setDefaultTimeout(600_000);
  const t0 = Date.now();
  await page.goto(`${site.url}#/overview`);
  await page.setInputFiles('[data-testid=file-input]', trace);
  await page.waitForFunction(() => !document.querySelector('.progress') && document.querySelector('.tab.active'), null, { polling: 100 });
  return { context, page, problems, loadMs: Date.now() - t0 };
}

// Waits until the worker has no background analysis left; the time it took.
async function backgroundDone(page) {
  const t0 = Date.now();
  for (;;) {
    const left = await Promise.all(page.workers().map((w) => w.evaluate(() => self.gotraceBackgroundLeft?.() ?? 0)));
    if (left.every((n) => n === 0)) return Date.now() - t0;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const views = [
  ['goroutines', '#/goroutines', '[data-testid=groups-table]'],
  ['goroutine group', '#/goroutines/group/net%2Fhttp.(*conn).serve', '[data-testid=group-goroutines]'],
  ['goroutine page', '#/goroutine/1', '[data-testid=goroutine-stats]', '[data-testid=woken-by]'],
  ['tasks', '#/tasks', '[data-testid=task-types]'],
  ['task page', '#/task/1', '[data-testid=task-timeline]'],
  ['regions', '#/regions', '[data-testid=region-types]'],
  ['profile net', '#/profiles/net', '[data-testid=profiles-view][data-shown="net {}"][data-loading="0"]'],
  ['profile sync', '#/profiles/sync', '[data-testid=profiles-view][data-shown="sync {}"][data-loading="0"]'],
  ['profile syscall', '#/profiles/syscall', '[data-testid=profiles-view][data-shown="syscall {}"][data-loading="0"]'],
  ['profile sched', '#/profiles/sched', '[data-testid=profiles-view][data-shown="sched {}"][data-loading="0"]'],
  ['MMU', '#/mmu', '[data-testid=mmu-chart]'],
];

// First page: every view right after the load, one after another.
const early = await load();
const afterLoad = new Map();
for (const [name, hash, ready, later] of views) {
  await open(early.page, '#/overview', 'body');
  afterLoad.set(name, await open(early.page, hash, ready, later));
}
const problems = [...early.problems.errors];
await early.context.close();

// Second page: once the background analyses have finished.
const { context, page, problems: p2, loadMs } = await load();
const rssLoaded = browserRssMB(process.pid);
const backgroundMs = await backgroundDone(page);
const rssBackground = browserRssMB(process.pid);
const rows = [];
for (const [name, hash, ready, later] of views) {
  await open(page, '#/overview', 'body');
  const first = await open(page, hash, ready, later);
  await open(page, '#/overview', 'body');
  const again = await open(page, hash, ready, later);
  const soon = afterLoad.get(name);
  rows.push([name, soon[0], first[0], again[0]]);
  if (later) rows.push([`  …its ${later.replace(/.*=|\]/g, '')}`, soon[1], first[1], again[1]]);
}

// Search: from pressing "/" and typing to the first result.
const searchMs = await page.evaluate(async () => {
  const input = document.querySelector('[data-testid=search]');
  const t = performance.now();
  input.focus();
  input.value = 'serve';
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await new Promise((resolve) => {
    const check = () => (document.querySelector('[data-testid=search-results] a') ? resolve() : requestAnimationFrame(check));
    requestAnimationFrame(check);
  });
  return performance.now() - t;
});

const rss = browserRssMB(process.pid);
problems.push(...p2.errors);

const mb = (fs.statSync(trace).size / 1e6).toFixed(1);
const load1 = os.loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`trace: ${trace} (${mb} MB); loaded (file chosen → overview) in ${(loadMs / 1000).toFixed(2)} s; load average ${load1}`);
console.log(`background analyses finished ${(backgroundMs / 1000).toFixed(2)} s after the load`);
console.log('view                   right after load (ms)   once background done (ms)   again (ms)');
const cell = (ms, w) => `${ms.toFixed(0).padStart(w)}${ms > 500 ? '*' : ' '}`;
for (const [name, soon, first, again] of rows) {
  console.log(`${name.padEnd(22)} ${cell(soon, 21)} ${cell(first, 27)} ${cell(again, 11)}`);
}
console.log('(* over 500 ms)');
console.log(`${'search "serve"'.padEnd(22)} ${searchMs.toFixed(0).padStart(21)}`);
if (rss.total) {
  const line = (what, r) => console.log(`browser memory ${what}: ${r.total.toFixed(0)} MB RSS in all, largest process ${r.largest.toFixed(0)} MB`);
  line('once loaded', rssLoaded);
  line('once the background analyses finished', rssBackground);
  line('with every view opened', rss);
}
if (problems.length) console.log('page errors:', problems);

await context.close();
await browser.close();
await site.close();
