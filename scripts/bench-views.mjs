#!/usr/bin/env node
// Time to open each analysis view in headless Chromium, on a large trace: the built
// site (web/dist) served on 127.0.0.1, the trace chosen through the file input, then
// each view opened by its link. "first" includes the worker computing the analysis;
// "again" is the same view opened a second time. Prints figures; asserts nothing.
//
//   node scripts/bench-views.mjs [TRACE]     (default /work/data/large.trace or
//                                             $GOTRACE_LARGE_TRACE)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
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
const { page, problems } = await newPage(browser);
page.setDefaultTimeout(600_000);

// Opens a hash and waits until `ready` (a CSS selector) is in the page and painted;
// then, if given, until `later` is (a part of the view that comes after the rest).
async function open(hash, ready, later) {
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

const t0 = Date.now();
await page.goto(`${site.url}#/overview`);
await page.setInputFiles('[data-testid=file-input]', trace);
await page.waitForFunction(() => !document.querySelector('.progress') && document.querySelector('.tab.active'), null, { polling: 100 });
const loadMs = Date.now() - t0;
const rssLoaded = browserRssMB(process.pid);

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

const rows = [];
for (const [name, hash, ready, later] of views) {
  await open('#/overview', 'body');
  const first = await open(hash, ready, later);
  await open('#/overview', 'body');
  const again = await open(hash, ready, later);
  rows.push([name, first[0], again[0]]);
  if (later) rows.push([`  …its ${later.replace(/.*=|\]/g, '')}`, first[1], again[1]]);
}

// Search: from pressing "/" and typing to the first result (the analyses are cached by now).
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

const mb = (fs.statSync(trace).size / 1e6).toFixed(1);
console.log(`trace: ${trace} (${mb} MB); loaded (file chosen → overview) in ${(loadMs / 1000).toFixed(2)} s`);
console.log('view                    first (ms)   again (ms)');
for (const [name, first, again] of rows) {
  console.log(`${name.padEnd(22)} ${first.toFixed(0).padStart(11)} ${again.toFixed(0).padStart(12)}${first > 500 ? '   (over 500 ms)' : ''}`);
}
console.log(`${'search "serve"'.padEnd(22)} ${searchMs.toFixed(0).padStart(11)}`);
if (rss.total) console.log(`browser memory once loaded: ${rssLoaded.total.toFixed(0)} MB RSS in all, largest process ${rssLoaded.largest.toFixed(0)} MB`);
if (rss.total) console.log(`browser memory with every view opened: ${rss.total.toFixed(0)} MB RSS in all, largest process ${rss.largest.toFixed(0)} MB`);
if (problems.errors.length) console.log('page errors:', problems.errors);

await browser.close();
await site.close();
