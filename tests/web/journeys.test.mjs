// What a person does in one tab, checked against the native CLI: open a trace, look
// around, open another; select a range and reload; follow links into the timeline; drop
// a file that is no trace; open deep links that fall outside the trace; traces with GC
// off; the procs the overview counts and the timeline shows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, startSite } from './browser.mjs';
import { SAMPLE, corpusTrace, gotrace, gotraceJson as json, makeGcOffTrace, root } from './fixtures.mjs';
import { openFile, openPage as openPageAt, reloadKept } from './pages.mjs';

const count = (s) => Number(String(s).replace(/[^0-9]/g, ''));
// `gotrace pprof --folded` lines: "COUNT NS leaf;...;root".
const foldedTotal = (folded) => folded.split('\n').filter(Boolean).reduce((s, l) => s + Number(l.split(' ')[1]), 0);
// The ids `gotrace timeline --track=list` lists for a kind of track.
function trackIds(file, kind) {
  const line = gotrace('timeline', file, '--track=list').split('\n').find((l) => l.startsWith(`${kind} (`));
  return line.replace(/^[^:]*:\s*/, '').split(' ').filter((x) => x && x !== '...').map(Number);
}
const trackCount = (file, kind) => Number(/\((\d+)\)/.exec(gotrace('timeline', file, '--track=list').split('\n').find((l) => l.startsWith(`${kind} (`)))[1]);

let site;
let browser;
let dir;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gotrace-journeys-'));
  site = await startSite();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await site?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const openPage = () => openPageAt(browser, site.url);

async function show(page, hash, selector) {
  await page.evaluate((h) => { location.hash = h; }, hash);
  await page.waitForSelector(selector, { timeout: 60_000 });
}

async function timelineIdle(page) {
  await page.waitForFunction(() => window.__gotraceTimeline?.idle(), null, { timeout: 60_000 });
  await page.waitForTimeout(50);
}

const hashQuery = (page) => page.evaluate(() => {
  const h = location.hash;
  const q = h.indexOf('?');
  return Object.fromEntries(new URLSearchParams(q < 0 ? '' : h.slice(q + 1)));
});

/** Pixels of one colour in a rectangle of the timeline canvas (CSS pixels). */
function pixelsOf(page, rect, [r, g, b]) {
  return page.evaluate(({ rect, rgb }) => {
    const c = document.querySelector('[data-testid=timeline-canvas]');
    const dpr = window.devicePixelRatio || 1;
    const d = c.getContext('2d').getImageData(Math.round(rect.x * dpr), Math.round(rect.y * dpr), Math.round(rect.width * dpr), Math.round(rect.height * dpr));
    let n = 0;
    const rows = new Set();
    for (let i = 0; i < d.data.length; i += 4) {
      if (d.data[i] === rgb[0] && d.data[i + 1] === rgb[1] && d.data[i + 2] === rgb[2]) {
        n++;
        rows.add(Math.floor(i / 4 / d.width));
      }
    }
    return { n, rows: rows.size };
  }, { rect, rgb: [r, g, b] });
}

// Here one pair, its timeline and URL too; crawl.test.mjs opens every trace of the
// corpus over the one before and holds every view's figures to the CLI's.
test('a second trace opened in the same tab shows its own goroutines, tasks, profile and timeline', async () => {
  const A = corpusTrace('go/go121-workload.trace');
  const B = corpusTrace('go/go119-workload.trace');
  const { page, problems, context } = await openPage();
  await openFile(page, A);
  await show(page, '#/goroutines', '[data-testid=groups-table]');
  await show(page, '#/tasks', '[data-testid=task-types]');
  await show(page, '#/profiles/sched', '[data-testid=profiles-view][data-loading="0"] [data-testid=flame-total]');
  await show(page, '#/timeline', '[data-testid=timeline-canvas]');
  await timelineIdle(page);
  await page.keyboard.press('w');  // A's times in the address
  await page.waitForFunction(() => /t0=/.test(location.hash));

  await openFile(page, B);
  assert.equal(await page.evaluate(() => location.hash), '#/timeline', 'the same view, without the times of the trace before');
  await page.waitForSelector('[data-testid=timeline-canvas]');
  await timelineIdle(page);
  const stats = json('stats', B);
  const view = await page.evaluate(() => window.__gotraceTimeline.view());
  assert.deepEqual([view.t0, view.t1], [stats.time.start, stats.time.end]);
  const labels = await page.evaluate(() => window.__gotraceTimeline.rowLabels());
  assert.ok(labels.includes(`Goroutines (${trackCount(B, 'goroutine')})`), labels.slice(0, 12).join(' | '));
  assert.ok(labels.includes(`Procs (${trackCount(B, 'proc')})`), labels.slice(0, 12).join(' | '));

  await show(page, '#/goroutines', '[data-testid=groups-table]');
  const groups = await page.$$eval('[data-testid=groups-table] tbody tr', (trs) =>
    trs.map((tr) => [tr.querySelector('td[data-key=name]').textContent, tr.querySelector('td[data-key=count]').textContent]));
  assert.deepEqual(groups.map(([n, c]) => [n, count(c)]).sort(),
    json('goroutines', B).groups.map((g) => [g.name || '(no start function)', g.count]).sort());

  await show(page, '#/tasks', '[data-testid=task-types]');
  const types = await page.$$eval('[data-testid=task-types] tbody tr', (trs) =>
    trs.map((tr) => [tr.querySelector('[data-testid=type-name]').textContent, tr.querySelector('[data-testid=type-count]').textContent]));
  assert.deepEqual(types.map(([n, c]) => [n, count(c)]).sort(), json('tasks', B).types.map((t) => [t.name || '(unnamed)', t.count]).sort());

  await show(page, '#/profiles/sched', '[data-testid=profiles-view][data-loading="0"] [data-testid=flame-total]');
  const total = foldedTotal(gotrace('pprof', '--type=sched', '--folded', B));
  assert.notEqual(total, foldedTotal(gotrace('pprof', '--type=sched', '--folded', A)));
  assert.equal(Number(await page.getAttribute('[data-testid=flame-total]', 'data-ns')), total);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

// One timeline canvas, as wide as the room the side panel leaves it and as high as before.
async function fillsItsBox(page, height) {
  assert.equal(await page.locator('canvas').count(), 1);
  await page.waitForTimeout(100);  // a resize is measured in the next frame
  const { canvas, room } = await page.evaluate(() => ({
    canvas: document.querySelector('[data-testid=timeline-canvas]').getBoundingClientRect().width,
    room: document.querySelector('[data-testid=timeline]').clientWidth,
  }));
  assert.ok(Math.abs(canvas - room) <= 1 && canvas > 600, `the canvas is ${canvas} px wide in ${room}`);
  assert.equal((await page.locator('[data-testid=timeline-canvas]').boundingBox()).height, height);
}

test('shift+drag selects a range: its figures show, the canvas keeps its size, a reload and Esc work', async () => {
  const { page, problems, context } = await openPage();
  await openFile(page, SAMPLE);
  await show(page, '#/timeline', '[data-testid=timeline-canvas]');
  await timelineIdle(page);
  const canvas = page.locator('[data-testid=timeline-canvas]');
  const box = await canvas.boundingBox();
  const proc = await page.evaluate(() => window.__gotraceTimeline.rowRect('proc:0'));
  const y = box.y + proc.y + proc.height / 2;
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x + 400, y);
  await page.mouse.down();
  await page.mouse.move(box.x + 700, y, { steps: 6 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.waitForSelector('[data-testid=range-stats] table', { timeout: 30_000 });
  const procs = trackIds(SAMPLE, 'proc');
  const rows = await page.$$eval('[data-testid=range-stats] th', (th) => th.map((x) => x.textContent));
  assert.deepEqual(rows.filter((r) => r.startsWith('Proc ')), procs.map((p) => `Proc ${p}`));
  assert.match(await page.textContent('[data-testid=range-stats]'), /running \d+\.\d%/);
  await fillsItsBox(page, box.height);

  // Reloaded with r0/r1 in the address, the range and its figures are back.
  await page.waitForFunction(() => /r0=\d+&r1=\d+/.test(location.hash));
  const q = await hashQuery(page);
  await reloadKept(page);
  await page.waitForSelector('[data-testid=range-stats] table', { timeout: 60_000 });
  await timelineIdle(page);
  assert.deepEqual((await page.evaluate(() => window.__gotraceTimeline.range())).map(Math.round), [Number(q.r0), Number(q.r1)]);

  // Dragging the ruler selects a range too; Esc clears it.
  const ruler = box.y + 10;
  await page.mouse.move(box.x + 500, ruler);
  await page.mouse.down();
  await page.mouse.move(box.x + 900, ruler, { steps: 6 });
  await page.mouse.up();
  await page.waitForFunction((r0) => window.__gotraceTimeline.range()?.[0] > r0, Number(q.r0));
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=range-stats]', { state: 'detached' });
  await fillsItsBox(page, box.height);
  assert.deepEqual((await canvas.boundingBox()).width, box.width, 'the panel gone, the canvas is as wide as before');
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('with GC off, the heap plot reads in bytes and draws no heap goal', async () => {
  const file = makeGcOffTrace(dir);
  const { page, problems, context } = await openPage();
  await openFile(page, file);
  await show(page, '#/timeline', '[data-testid=timeline-canvas]');
  await timelineIdle(page);
  const heap = await page.evaluate(() => window.__gotraceTimeline.rowRect('plot:Heap'));
  assert.ok(heap, 'the heap plot has a row');
  // The allocated heap (blue) fills the height of its row rather than lying flat under a
  // goal of exabytes.
  const line = await pixelsOf(page, heap, [0x25, 0x63, 0xeb]);
  assert.ok(line.rows > heap.height / 2, `the heap line spans ${line.rows} of ${heap.height} pixel rows`);
  const goal = await pixelsOf(page, heap, [0x9a, 0xa3, 0xb2]);
  assert.equal(goal.n, 0, 'no heap goal is drawn');
  const box = await page.locator('[data-testid=timeline-canvas]').boundingBox();
  await page.mouse.move(box.x + heap.x + heap.width / 2, box.y + heap.y + heap.height / 2);
  const tip = page.locator('[data-testid=tooltip]');
  await tip.waitFor({ state: 'visible' });
  const text = await tip.textContent();
  assert.match(text, /heap-alloc: \d+(\.\d+)? (KiB|MiB|GiB)/);
  assert.doesNotMatch(text, /\d{7,}/);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('"(its lane)" opens the goroutine\'s lane; a task\'s "Open in timeline" marks that task', async () => {
  const { page, problems, context } = await openPage();
  await openFile(page, SAMPLE);
  await show(page, '#/timeline', '[data-testid=timeline-canvas]');
  await timelineIdle(page);
  const box = await page.locator('[data-testid=timeline-canvas]').boundingBox();
  const proc = await page.evaluate(() => window.__gotraceTimeline.rowRect('proc:0'));
  const lane = page.locator('[data-testid=details] a', { hasText: '(its lane)' });
  for (let x = proc.x + 5; x < proc.x + proc.width && !(await lane.count()); x += 25) {
    await page.mouse.click(box.x + x, box.y + proc.y + proc.height / 2);
    await page.waitForTimeout(150);
  }
  assert.ok(await lane.count(), 'a slice of proc 0 names its goroutine');
  const g = Number(/[?&]g=(\d+)/.exec(await lane.getAttribute('href'))[1]);
  await lane.click();
  await page.waitForFunction((id) => window.__gotraceTimeline.rowRect(`goroutine:${id}`), g, { timeout: 30_000 });
  await page.waitForFunction((id) => document.querySelector('[data-testid=details]')?.textContent.includes(`goroutine ${id}`), g);

  // The task with the most others overlapping it.
  const { tasks } = json('tasks', SAMPLE);
  const complete = tasks.filter((t) => t.start != null && t.end != null);
  const overlaps = (t) => complete.filter((o) => o.start < t.end && o.end > t.start).length;
  const task = complete.reduce((best, t) => (overlaps(t) > overlaps(best) ? t : best));
  assert.ok(overlaps(task) > 1);
  await show(page, `#/task/${task.id}`, '[data-testid=task-timeline-link]');
  await page.click('[data-testid=task-timeline-link]');
  await page.waitForSelector('[data-testid=timeline-canvas]');
  await timelineIdle(page);
  assert.equal(await page.evaluate(() => window.__gotraceTimeline.markedTask()), task.id);
  const row = await page.evaluate(() => window.__gotraceTimeline.rowRect('tasks'));
  const mark = await pixelsOf(page, row, [0x1d, 0x4e, 0xd8]);
  assert.ok(mark.n > 50, `the task's bar is outlined (${mark.n} pixels)`);
  // A click on its bar (in its lane, among those overlapping it) opens its page.
  const bar = await page.evaluate((id) => {
    const d = window.__gotraceTimeline.data('tasks');
    const i = [...d.task].findIndex((t, k) => t === id && d.count[k] === 1);
    const { t0, t1 } = window.__gotraceTimeline.view();
    return i < 0 ? null : { lane: d.row[i], x: ((Math.max(d.start[i], t0) + Math.min(d.end[i], t1)) / 2 - t0) / (t1 - t0) };
  }, task.id);
  assert.ok(bar, 'the task has a bar of its own');
  const laneHeight = (row.height - 4) / row.lanes;
  await page.mouse.click(box.x + row.x + bar.x * row.width, box.y + row.y + 2 + bar.lane * laneHeight + laneHeight / 2);
  await page.waitForFunction((id) => location.hash === `#/task/${id}`, task.id, { timeout: 30_000 });
  await page.waitForSelector('[data-testid=task-timeline-link]');
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('Back from another trace to a task page shows the list of the trace open, not its task of that number', async () => {
  const { page, problems, context } = await openPage();
  await openFile(page, SAMPLE);
  const first = json('tasks', SAMPLE).tasks.find((t) => t.start != null)?.id;
  await show(page, '#/tasks', '[data-testid=task-types]');
  await show(page, `#/task/${first}`, '[data-testid=task-timeline-link]');
  await show(page, '#/goroutines', '[data-testid=groups-table]');
  const B = corpusTrace('go/go123-annotations.trace');
  await openFile(page, B);
  // B's own pages: Back among them as ever.
  const own = json('tasks', B).tasks.find((t) => t.start != null)?.id;
  await show(page, `#/task/${own}`, '[data-testid=task-timeline-link]');
  await show(page, '#/tasks', '[data-testid=task-types]');
  await page.goBack();
  await page.waitForFunction((id) => location.hash === `#/task/${id}`, own);
  await page.waitForSelector('[data-testid=task-timeline-link]');
  await page.goBack();  // the entry B took over as it opened
  await page.waitForFunction(() => location.hash === '#/goroutines');
  // The sample's task page: B's list of tasks instead.
  await page.goBack();
  await page.waitForFunction(() => location.hash === '#/tasks', null, { timeout: 30_000 });
  await page.waitForSelector('[data-testid=task-types]');
  assert.equal(await page.locator('[data-testid=task-timeline-link]').count(), 0);
  assert.equal(await page.textContent('.trace-name'), path.basename(B));
  const types = await page.$$eval('[data-testid=task-types] [data-testid=type-name]', (n) => n.length);
  assert.equal(types, json('tasks', B).types.length);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('Back to the sample opened by its button, from a file opened after it, shows the file and leaves its address', async () => {
  const { page, problems, context } = await openPage();
  await page.getByRole('button', { name: 'Open the sample' }).first().click();
  await page.waitForFunction((n) => document.querySelector('.trace-name')?.textContent === n, path.basename(SAMPLE), { timeout: 60_000 });
  assert.match(await page.evaluate(() => location.search), /[?&]url=/);
  await show(page, '#/goroutines', '[data-testid=groups-table]');
  const B = corpusTrace('go/go123-annotations.trace');
  await openFile(page, B);
  await page.waitForFunction(() => location.search === '');
  await show(page, '#/tasks', '[data-testid=task-types]');
  await page.goBack();  // B's goroutines (the entry it took over as it opened)
  await page.waitForFunction(() => location.hash === '#/goroutines');
  await page.goBack();  // the sample's first page, its ?url= the sample's: B's, without it
  await page.waitForFunction(() => location.search === '', null, { timeout: 30_000 });
  assert.equal(await page.textContent('.trace-name'), path.basename(B));
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('a file that is no trace, dropped on an open trace, shows an error and the trace stays open', async () => {
  const { page, problems, context } = await openPage();
  await openFile(page, SAMPLE);
  await show(page, '#/goroutines', '[data-testid=groups-table]');
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], 'README.md', { type: 'text/markdown' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      window.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  }, readme);
  const error = page.locator('[data-testid=error]');
  await error.waitFor({ timeout: 30_000 });
  assert.match(await error.textContent(), /Could not open README\.md.*bad file format/s);
  assert.equal(await page.textContent('.trace-name'), path.basename(SAMPLE));
  // An empty file is said to be empty.
  await page.setInputFiles('[data-testid=file-input]', { name: 'empty.trace', mimeType: 'application/octet-stream', buffer: Buffer.alloc(0) });
  await page.waitForFunction(() => /Could not open empty\.trace/.test(document.querySelector('[data-testid=error]')?.textContent));
  assert.match(await error.textContent(), /Could not open empty\.trace.*the file is empty \(0 bytes\)/s);
  assert.equal(await page.textContent('.trace-name'), path.basename(SAMPLE));
  assert.ok(await page.isVisible('[data-testid=groups-table]'), 'the open trace is still shown');
  // And it still answers.
  await show(page, '#/tasks', '[data-testid=task-types]');
  const types = await page.$$eval('[data-testid=task-types] [data-testid=type-name]', (n) => n.length);
  assert.equal(types, json('tasks', SAMPLE).types.length);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('deep links outside the trace show what they can, and another trace starts at its whole span', async () => {
  const stats = json('stats', SAMPLE);
  const { start, end } = stats.time;
  const { page, problems, context } = await openPage();
  await openFile(page, SAMPLE);
  await show(page, `#/timeline?t0=${start - 2e9}&t1=${start - 1e9}`, '[data-testid=timeline-canvas]');
  await timelineIdle(page);
  assert.deepEqual(Object.values(await page.evaluate(() => window.__gotraceTimeline.view())), [start, end]);
  await page.waitForFunction((t0) => location.hash.includes(`t0=${t0}&`), start);

  await page.evaluate(() => { location.hash = '#/overview'; });
  await show(page, `#/timeline?t0=${start - 1e9}&t1=${start + 1e8}&r0=${start - 5}&r1=${end + 5}`, '[data-testid=timeline-canvas]');
  await timelineIdle(page);
  assert.deepEqual(Object.values(await page.evaluate(() => window.__gotraceTimeline.view())), [start, start + 1e8]);
  assert.deepEqual(await page.evaluate(() => window.__gotraceTimeline.range()), [start, end]);

  const B = corpusTrace('go/go121-workload.trace');
  await openFile(page, B);
  await page.waitForSelector('[data-testid=timeline-canvas]');
  await timelineIdle(page);
  const other = json('stats', B).time;
  assert.deepEqual(Object.values(await page.evaluate(() => window.__gotraceTimeline.view())), [other.start, other.end]);
  assert.equal(await page.evaluate(() => location.hash), '#/timeline');
  assert.deepEqual(problems.errors, []);
  await context.close();
});

for (const name of ['go/http_1_5_good.trace', 'go/go123-iter-pull.trace']) {
  test(`the overview and the timeline count the same procs (${name})`, async () => {
    const file = corpusTrace(name);
    const stats = json('stats', file);
    const { page, problems, context } = await openPage();
    await openFile(page, file);
    await page.waitForSelector('[data-testid=overview]');
    assert.equal(count(await page.textContent('[data-stat=procs] .card-value')), stats.procs);
    await show(page, '#/timeline', '[data-testid=timeline-canvas]');
    await timelineIdle(page);
    const labels = await page.evaluate(() => window.__gotraceTimeline.rowLabels());
    assert.ok(labels.includes(`Procs (${stats.procs})`), labels.filter((l) => l.startsWith('Procs')).join());
    assert.equal(labels.filter((l) => /^Proc \d+$/.test(l)).length, stats.procs);
    assert.deepEqual(problems.errors, []);
    await context.close();
  });
}
