// The analysis views (goroutines, tasks, regions, profiles, MMU, search) in Chromium on
// the sample trace: every figure they show must equal the native CLI's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, newPage, startSite } from './browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'build/native/cli/gotrace');
const TRACE = path.join(root, 'public/go123-workload.trace');
const gotrace = (...args) => execFileSync(cli, [...args, TRACE], { maxBuffer: 1 << 30 }).toString();
const gotraceJSON = (...args) => JSON.parse(gotrace(...args, '--json'));

let site;
let browser;
let page;
let problems;

/** Goes to a view of the open trace (no reload: the trace stays open). */
async function show(hash, selector) {
  await page.evaluate((h) => { location.hash = h; }, hash);
  await page.waitForSelector(selector, { timeout: 60_000 });
}

const count = (s) => Number(s.replace(/[^0-9]/g, ''));

/** Pixels of a canvas that are neither white nor transparent. */
async function inkedPixels(selector) {
  return page.$eval(selector, (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240)) n++;
    return { n, total: c.width * c.height };
  });
}

before(async () => {
  site = await startSite();
  browser = await launch();
  ({ page, problems } = await newPage(browser));
  await page.goto(`${site.url}?url=go123-workload.trace#/goroutines`);
  await page.waitForSelector('[data-testid=goroutines-view]', { timeout: 120_000 });
});

after(async () => {
  await browser?.close();
  await site?.close();
});

test('the goroutines view lists the groups of `gotrace goroutines` with their counts', async () => {
  const native = gotraceJSON('goroutines');
  const rows = await page.$$eval('[data-testid=groups-table] tbody tr', (trs) =>
    trs.map((tr) => ({
      name: tr.querySelector('td[data-key=name]').textContent,
      count: tr.querySelector('td[data-key=count]').textContent,
    })));
  const shown = rows.map((r) => [r.name, count(r.count)]).sort();
  const expected = native.groups.map((g) => [g.name || '(no start function)', g.count]).sort();
  assert.deepEqual(shown, expected);
  // By execution time, most first, as the CLI prints them.
  assert.deepEqual(rows.map((r) => r.name), native.groups.map((g) => g.name || '(no start function)'));
  const bars = await page.$$eval('[data-testid=groups-table] .gt-bar', (b) => b.length);
  assert.equal(bars, native.groups.length);
  // The bars and the totals come before a column per block reason: on screen at 1,280 px.
  const bar = await page.locator('[data-testid=groups-table] th[data-key=breakdown]').boundingBox();
  assert.ok(bar && bar.x + bar.width <= page.viewportSize().width, JSON.stringify(bar));
});

test('the groups copy as CSV, with the figures of `gotrace goroutines --json` in ns', async () => {
  const native = gotraceJSON('goroutines');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(site.url).origin });
  await show('#/goroutines', '[data-testid=groups-table]');
  await page.click('[data-testid=goroutines-view] [data-testid=copy-csv]');
  await page.waitForSelector('[data-testid=goroutines-view] [data-testid=copy-csv]:text("copied")');
  const lines = (await page.evaluate(() => navigator.clipboard.readText())).trim().split('\n');
  // The block time by reason, a column per reason, most time over all groups first.
  const byReason = new Map();
  for (const g of native.groups) {
    for (const [k, v] of Object.entries(g.stats)) if (k.startsWith('block:')) byReason.set(k, (byReason.get(k) ?? 0) + v);
  }
  const reasons = [...byReason].sort((a, b) => b[1] - a[1]).map(([k]) => k);
  const csvField = (s) => (/[,"]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  assert.equal(lines[0], ['Start function,Goroutines,Total,Execution,Sched wait,Block',
    ...reasons.map((r) => csvField(`Block: ${r.slice(6) || 'unknown reason'}`)), 'Syscall,Syscall blocked,Unknown,GC assist'].join(','));
  assert.equal(lines.length, native.groups.length + 1);
  const first = native.groups[0];
  assert.equal(lines[1], [`"${first.name}"`.replace(/^"([^,"]*)"$/, '$1'), first.count, first.total, first.exec, first.sched_wait, first.block,
    ...reasons.map((r) => first.stats[r] ?? 0), first.syscall,
    first.syscall_block, first.unknown, first.stats['range:GC mark assist'] ?? 0].join(','));
});

test('the goroutines view sorts by any column, both ways', async () => {
  await show('#/goroutines', '[data-testid=groups-table]');
  const column = async (key) => page.$$eval(`[data-testid=groups-table] tbody td[data-key=${key}]`, (tds) => tds.map((t) => t.textContent));
  await page.click('[data-testid=groups-table] th[data-key=count]');
  let counts = (await column('count')).map(count);
  assert.deepEqual(counts, [...counts].sort((a, b) => b - a));
  assert.equal(await page.getAttribute('[data-testid=groups-table] th[data-key=count]', 'aria-sort'), 'descending');
  await page.click('[data-testid=groups-table] th[data-key=count]');
  counts = (await column('count')).map(count);
  assert.deepEqual(counts, [...counts].sort((a, b) => a - b));
  await page.click('[data-testid=groups-table] th[data-key=name]');
  const names = await column('name');
  assert.deepEqual(names, [...names].sort((a, b) => a.localeCompare(b)));
  assert.notDeepEqual(names, (await column('name')).reverse());
});

test('a group page lists its goroutines; a goroutine page shows the numbers of `gotrace goroutines --json`', async () => {
  const native = gotraceJSON('goroutines');
  const group = native.groups.find((g) => g.name === 'main.main.func3');
  await show('#/goroutines', '[data-testid=groups-table]');
  await page.click('[data-testid=groups-table] a:text-is("main.main.func3")');
  await page.waitForSelector('[data-testid=group-view]');
  const ids = await page.$$eval('[data-testid=group-goroutines] a[data-testid=goroutine-link]', (as) => as.map((a) => Number(a.textContent.slice(1))));
  assert.deepEqual([...ids].sort((a, b) => a - b), [...group.goroutines].sort((a, b) => a - b));
  // Sorted in the worker: by execution time, most first, then least first.
  const byExec = group.goroutines.map((id) => native.goroutines.find((x) => x.id === id))
    .map((g, i) => [g.stats.exec ?? 0, i, g.id]);
  await page.click('[data-testid=group-goroutines] th[data-key=exec]');
  await page.waitForSelector('[data-testid=group-goroutines] th[data-key=exec][aria-sort=descending]');
  await page.waitForFunction((want) => JSON.stringify([...document.querySelectorAll('[data-testid=group-goroutines] a[data-testid=goroutine-link]')].map((a) => Number(a.textContent.slice(1)))) === want,
    JSON.stringify([...byExec].sort((a, b) => b[0] - a[0] || a[1] - b[1]).map((x) => x[2])));
  await page.click('[data-testid=group-goroutines] th[data-key=exec]');
  await page.waitForSelector('[data-testid=group-goroutines] th[data-key=exec][aria-sort=ascending]');
  await page.waitForFunction((want) => JSON.stringify([...document.querySelectorAll('[data-testid=group-goroutines] a[data-testid=goroutine-link]')].map((a) => Number(a.textContent.slice(1)))) === want,
    JSON.stringify([...byExec].sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2])));

  const id = group.goroutines[0];
  const g = native.goroutines.find((x) => x.id === id);
  await page.click(`[data-testid=group-goroutines] a:text-is("G${id}")`);
  await page.waitForSelector('[data-testid=goroutine-view]');
  assert.equal(await page.textContent('[data-testid=goroutine-title]'), `G${id}`);
  const shown = Object.fromEntries(await page.$$eval('[data-testid=goroutine-view] [data-stat]', (els) =>
    els.map((e) => [e.getAttribute('data-stat'), Number(e.getAttribute('data-ns'))])));
  for (const [key, ns] of Object.entries(g.stats)) {
    if (ns === 0) continue;
    assert.equal(shown[key], ns, key);
  }
  assert.equal(shown.total, g.stats.total);
  // Its own lane is drawn, and the wake-ups are listed.
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid=goroutine-lane]');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let inked = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 235 || d[i + 1] < 235 || d[i + 2] < 235) inked++;
    return inked > c.width * 2;
  });
  assert.match(await page.textContent('[data-testid=woken-by] h3'), /Woken by \(\d+/);
  const link = await page.getAttribute('[data-testid=goroutine-timeline-link]', 'href');
  assert.match(link, /^#\/timeline\?t0=\d+&t1=\d+&g=\d+$/);
  // The goroutine's lane in the timeline, marked with an edge of its own among its group's.
  await page.click('[data-testid=goroutine-timeline-link]');
  await page.waitForFunction((g) => window.__gotraceTimeline?.markedLane() === `goroutine:${g}` && window.__gotraceTimeline.rowRect(`goroutine:${g}`), id, { timeout: 60_000 });
  await page.waitForFunction(() => window.__gotraceTimeline.idle());
  const edge = await page.evaluate((g) => {
    const r = window.__gotraceTimeline.rowRect(`goroutine:${g}`);
    const c = document.querySelector('[data-testid=timeline-canvas]');
    const dpr = window.devicePixelRatio || 1;
    const px = (x) => [...c.getContext('2d').getImageData(Math.round(x * dpr), Math.round((r.y + r.height / 2) * dpr), 1, 1).data].slice(0, 3);
    return { edge: px(1), label: px(8) };
  }, id);
  assert.deepEqual(edge.edge, [0x25, 0x63, 0xeb], JSON.stringify(edge));
  await page.goBack();
  await page.waitForSelector('[data-testid=woken-by] li');
  // A first wake-up leads to the timeline there: this goroutine's slice that it began
  // selected, whose details name the waker.
  const waker = page.locator('[data-testid=woken-by] li').filter({ has: page.locator('a[href^="#/goroutine/"]') }).first();
  const wakerId = (await waker.locator('a').first().textContent()).replace('G', '');
  await waker.locator('a[href^="#/timeline"]').click();
  await page.waitForSelector('[data-testid=details] [data-testid=woken-by]', { timeout: 60_000 });
  assert.match(await page.textContent('[data-testid=details] [data-testid=woken-by]'), new RegExp(`^G${wakerId}\\b`));
  assert.match(await page.evaluate(() => location.hash), new RegExp(`[?&]g=${id}&sel=goroutine%3A${id}%40\\d+`));
});

test('the tasks view shows the task types and counts of `gotrace tasks`; a histogram bar lists its tasks', async () => {
  const native = gotraceJSON('tasks');
  await show('#/tasks', '[data-testid=task-types]');
  const rows = await page.$$eval('[data-testid=task-types] tbody tr', (trs) =>
    trs.map((tr) => [tr.querySelector('[data-testid=type-name]').textContent, tr.querySelector('[data-testid=type-count]').textContent]));
  assert.deepEqual(rows.map(([n, c]) => [n, count(c)]).sort(), native.types.map((t) => [t.name, t.count]).sort());

  const bar = page.locator('[data-testid=task-types] tbody tr').first().locator('[data-testid=histogram] button').first();
  const expected = Number(await bar.getAttribute('data-count'));
  await bar.click();
  await page.waitForSelector('[data-testid=instances]');
  const listed = await page.$$eval('[data-testid=instances] tbody tr', (trs) => trs.length);
  assert.equal(listed, Math.min(expected, 200));
  await page.click('[data-testid=instances] a[data-testid=task-link]');
  await page.waitForSelector('[data-testid=task-view]');
  assert.ok(await page.isVisible('[data-testid=task-timeline] .span.task'));
});

test('the regions view shows the region types and counts of `gotrace regions`', async () => {
  const native = gotraceJSON('regions');
  await show('#/regions', '[data-testid=region-types]');
  const rows = await page.$$eval('[data-testid=region-types] tbody tr', (trs) =>
    trs.map((tr) => [tr.querySelector('[data-testid=type-name]').firstChild.textContent, tr.querySelector('[data-testid=type-count]').textContent]));
  assert.deepEqual(rows.map(([n, c]) => [n, count(c)]).sort(), native.types.map((t) => [t.name, t.count]).sort());
});

test('a region histogram bar lists its regions with their time split by block reason, as `gotrace regions` does', async () => {
  const native = gotraceJSON('regions');
  const origin = gotraceJSON('stats').time.start;
  const blocked = (r) => Object.entries(r.stats).filter(([k]) => k.startsWith('block:')).reduce((s, [, v]) => s + v, 0);
  // The region that blocked longest, and the bar of its type that holds it.
  const worst = native.regions.filter((r) => r.start != null).reduce((a, b) => (blocked(b) > blocked(a) ? b : a));
  assert.ok(blocked(worst) > 0, 'some region blocked');
  const type = native.types.find((t) => t.name === worst.name);
  const bar = type.durations.histogram.buckets.filter((b) => b.min <= worst.duration).at(-1);
  await show(`#/regions?name=${encodeURIComponent(type.name)}`, '[data-testid=region-types] .gt-hl');
  const row = page.locator('[data-testid=region-types] tbody tr', { has: page.locator('.gt-hl') });
  await row.locator(`[data-testid=histogram] button[data-min="${bar.min}"]`).click();
  await page.waitForSelector('[data-testid=instances]');
  const table = await page.$eval('[data-testid=instances] table', (t) => ({
    keys: [...t.querySelectorAll('thead th')].map((th) => th.dataset.key),
    rows: [...t.querySelectorAll('tbody tr')].map((tr) => Object.fromEntries([...tr.children].map((td) => [td.dataset.key, td.dataset.value ?? td.textContent]))),
  }));
  // Every listed region, found in the CLI's list by its goroutine and start.
  const byKey = new Map(native.regions.filter((r) => r.name === type.name).map((r) => [`${r.goroutine} ${(r.start ?? origin) - origin}`, r]));
  const reasons = new Set();
  for (const shown of table.rows) {
    const r = byKey.get(`${shown.goroutine} ${shown.start}`);
    assert.ok(r, `region of G${shown.goroutine} at ${shown.start}`);
    for (const [k, v] of Object.entries(r.stats)) if (k.startsWith('block:') && v > 0) reasons.add(k);
    for (const k of ['exec', 'sched_wait', 'syscall', 'syscall_block', ...[...reasons].filter((x) => x in r.stats)]) {
      assert.equal(Number(shown[k]), r.stats[k] ?? 0, `${k} of the region of G${shown.goroutine} at ${shown.start}`);
    }
  }
  assert.ok(reasons.size > 0);
  assert.deepEqual(table.keys.filter((k) => k?.startsWith('block:')).sort(), [...reasons].sort(), 'a column per reason the listed regions blocked for');
  assert.ok(table.rows.some((r) => r.goroutine === String(worst.goroutine) && r.start === String(worst.start - origin)), 'the region that blocked longest is listed');
});

for (const type of ['net', 'sync', 'syscall', 'sched']) {
  test(`a ${type} flame graph renders and totals what \`gotrace pprof\` counts`, async () => {
    const folded = gotrace('pprof', `--type=${type}`, '--folded');
    let total = 0;
    for (const line of folded.split('\n')) if (line) total += Number(line.split(' ')[1]);
    await show(`#/profiles/${type}`, `[data-testid=profiles-view][data-shown="${type} {}"][data-loading="0"]`);
    assert.equal(Number(await page.getAttribute('[data-testid=flame-total]', 'data-ns')), total);
    const ink = await inkedPixels('[data-testid=flame-canvas]');
    assert.ok(ink.n > ink.total * 0.02, `flame graph drawn (${ink.n} of ${ink.total} pixels)`);
    assert.ok((await page.$$eval('[data-testid=top-functions] tbody tr', (t) => t.length)) > 0);
  });
}

test('a profile narrowed to a goroutine group totals what `gotrace pprof --goroutine` counts', async () => {
  const folded = gotrace('pprof', '--type=sync', '--folded', '--goroutine=main.main.func3');
  let total = 0;
  for (const line of folded.split('\n')) if (line) total += Number(line.split(' ')[1]);
  await show('#/profiles/sync?group=main.main.func3', '[data-testid=filter-group]');
  await page.waitForFunction((t) => Number(document.querySelector('[data-testid=flame-total]')?.dataset.ns) === t, total);
});

test('a profile of a time range totals what `gotrace pprof --from --to` counts; its download is the CLI\'s pprof', async () => {
  const { time } = gotraceJSON('stats');
  const from = time.start + Math.round(time.duration / 4);
  const to = time.start + Math.round(time.duration / 2);
  const folded = gotrace('pprof', '--type=sched', '--folded', `--from=${from}`, `--to=${to}`);
  let total = 0;
  for (const line of folded.split('\n')) if (line) total += Number(line.split(' ')[1]);
  await show(`#/profiles/sched?t0=${from}&t1=${to}`, `[data-testid=profiles-view][data-loading="0"]`);
  await page.waitForFunction((t) => Number(document.querySelector('[data-testid=flame-total]')?.dataset.ns) === t, total);

  const out = path.join(os.tmpdir(), `gotrace-part2-${process.pid}.pb.gz`);
  execFileSync(cli, ['pprof', '--type=sched', `--from=${from}`, `--to=${to}`, '-o', out, TRACE]);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download-pprof]')]);
  assert.equal(download.suggestedFilename(), 'sched.pb.gz');
  const got = fs.readFileSync(await download.path());
  assert.deepEqual(got, fs.readFileSync(out));
  fs.rmSync(out);
});

test('the MMU chart renders, and its worst windows link to the timeline', async () => {
  await show('#/mmu', '[data-testid=mmu-chart]');
  const native = gotraceJSON('mmu');
  assert.equal(await page.textContent('[data-testid=mmu-flags-text]'), native.mmu.flags);
  const blue = await page.$eval('[data-testid=mmu-chart]', (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 60 && d[i + 2] > 150) n++;
    return n;
  });
  assert.ok(blue > 200, `curve drawn (${blue} curve pixels)`);
  const worst = await page.getAttribute('[data-testid=worst-window] >> nth=0', 'href');
  assert.match(worst, /^#\/timeline\?t0=\d+&t1=\d+&r0=\d+&r1=\d+$/);
  // The window is the timeline's range selected, inside the span shown.
  const q = new URLSearchParams(worst.slice(worst.indexOf('?') + 1));
  const first = native.mmu.windows[0];
  assert.equal(Number(q.get('r1')) - Number(q.get('r0')), first.window);
  assert.equal(Number(q.get('r0')), first.worst[0].time);
  await page.click('[data-testid=worst-window] >> nth=0');
  await page.waitForSelector('[data-testid=timeline-canvas]');
  await page.waitForFunction(() => window.__gotraceTimeline?.range());
  const range = await page.evaluate(() => window.__gotraceTimeline.range());
  assert.deepEqual(range.map(Math.round), [Number(q.get('r0')), Number(q.get('r1'))]);
  await show('#/mmu', '[data-testid=mmu-chart]');
  // Leaving out STW and background work changes what is counted.
  await page.click('[data-flag=background]');
  await page.waitForFunction(() => document.querySelector('[data-testid=mmu-flags-text]')?.textContent === 'stw+assist+sweep');
  const perProc = JSON.parse(execFileSync(cli, ['mmu', '--json', '--flags=stw,assist,sweep,perproc', TRACE]).toString()).mmu;
  await page.click('[data-flag=perProc]');
  await page.waitForFunction((f) => document.querySelector('[data-testid=mmu-flags-text]')?.textContent === f, perProc.flags);
  assert.match(await page.textContent('[data-testid=mmu-view] > p'), new RegExp(`${perProc.series} series \\(one per proc\\)`));
});

test('search (/) finds a goroutine by id and a region by name and jumps to them', async () => {
  await show('#/overview', 'body');
  await page.keyboard.press('/');
  await page.keyboard.type('G22');
  await page.waitForSelector('[data-testid=search-results] a[data-kind=goroutine]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=goroutine-view]');
  assert.equal(await page.textContent('[data-testid=goroutine-title]'), 'G22');
  assert.equal(await page.evaluate(() => location.hash), '#/goroutine/22');

  await page.keyboard.press('/');
  await page.keyboard.type('alloc');
  await page.click('[data-testid=search-results] a[data-kind=region]');
  await page.waitForSelector('[data-testid=region-types] .gt-hl');
  assert.match(await page.textContent('[data-testid=region-types] .gt-hl'), /^alloc main\.handler:\d+$/);
  assert.equal(await page.evaluate(() => location.hash), '#/regions?name=alloc');

  // Esc empties the box: the next search is a fresh one.
  await page.keyboard.press('/');
  await page.keyboard.type('zzz');
  await page.waitForSelector('[data-testid=search-results]');
  await page.keyboard.press('Escape');
  await page.keyboard.press('/');
  await page.keyboard.type('goroutine 22');
  assert.equal(await page.inputValue('[data-testid=search]'), 'goroutine 22');
  await page.waitForSelector('[data-testid=search-results] a[data-kind=goroutine]');
  await page.keyboard.press('Escape');

  // Enter pressed as soon as the text is typed, before its results came: it goes to the
  // first result once they do.
  await show('#/overview', 'body');
  await page.keyboard.press('/');
  await page.keyboard.type('G31');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.hash === '#/goroutine/31', null, { timeout: 10_000 });
  await page.waitForSelector('[data-testid=goroutine-view]');
});

test('no page errors and no CSP violations', () => {
  assert.deepEqual(problems.errors, []);
  assert.deepEqual(problems.csp, []);
});
