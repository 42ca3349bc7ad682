// The timeline's lanes against the native CLI: the Tasks row has a line per lane of the
// task layout, in colours of its own; a folded goroutine group draws what its
// goroutines do; the label column widens and a long label reads whole; a header names
// the group whose lanes are on screen; plots have scales, legends, and the Threads plot;
// a log's details show its stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './browser.mjs';
import path from 'node:path';
import { SAMPLE, corpusTrace, gotrace, gotraceJson as json } from './fixtures.mjs';
import { canvasPixels, hsl, openFile, openPage, show, timelineIdle, reloadKept } from './pages.mjs';


const env = useBrowser();

async function openTimeline(file = SAMPLE, size) {
  const p = await openPage(env.browser, env.site.url, size);
  await openFile(p.page, file);
  await show(p.page, '#/timeline', '[data-testid=timeline-canvas]');
  await timelineIdle(p.page);
  return p;
}

const rowRect = (page, key) => page.evaluate((k) => window.__gotraceTimeline.rowRect(k), key);

async function clickRow(page, key, dx = 40) {
  const box = await page.locator('[data-testid=timeline-canvas]').boundingBox();
  const r = await rowRect(page, key);
  await page.mouse.click(box.x + dx, box.y + r.y + r.height / 2);
}

test('the Tasks row has a line for every lane of the task layout, never in GC\'s red', async () => {
  // The lanes of `gotrace timeline --track=tasks` at a resolution that merges nothing.
  const tasks = json('timeline', SAMPLE, '--track=tasks', '--pixels=10000000');
  const lanes = Math.max(...tasks.row) + 1;
  assert.ok(lanes > 8, `the sample has ${lanes} task lanes`);
  const { page, problems, context } = await openTimeline();
  const labels = await page.evaluate(() => window.__gotraceTimeline.rowLabels());
  assert.ok(labels.includes(`▸ Tasks (${lanes} rows)`), labels.slice(0, 12).join(' | '));
  await clickRow(page, 'group:tasks');
  await page.waitForFunction(() => window.__gotraceTimeline.rowLabels().includes('Tasks'));
  await timelineIdle(page);
  const row = await rowRect(page, 'tasks');
  assert.equal(row.height, 4 + 12 * lanes, 'a 12 px line per lane');

  // Every lane has bars, each in its own line (a bar of the last lane is drawn there,
  // not over the eighth); none is red.
  const { width, pixels } = await canvasPixels(page, row);
  const dpr = await page.evaluate(() => window.devicePixelRatio || 1);
  const lanesDrawn = new Set();
  let red = 0;
  pixels.forEach((p, i) => {
    const [h, s, l] = hsl(p);
    if (s < 0.2 || l > 0.95) return;
    if (h < 20 || h > 340) red++;
    lanesDrawn.add(Math.floor((Math.floor(i / width) / dpr - 2) / 12));
  });
  assert.equal(red, 0, 'no task bar in the reds of GC');
  for (let lane = 0; lane < lanes; lane++) assert.ok(lanesDrawn.has(lane), `lane ${lane} has bars`);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('a folded goroutine group draws its goroutines\' states, which add up to the group\'s execution time', async () => {
  const { page, problems, context } = await openTimeline();
  const groups = json('goroutines', SAMPLE).groups;
  const labels = await page.evaluate(() => window.__gotraceTimeline.rowLabels());
  const keys = await page.evaluate(() => window.__gotraceTimeline.rowKeys());
  // The first goroutine group's lane (the largest group).
  const at = keys.findIndex((k) => /^group:\d+$/.test(k));
  const key = keys[at];
  const name = /^▸ (.*) \((\d+)\)$/.exec(labels[at])[1];
  const group = groups.find((g) => g.name === name);
  assert.ok(group, `${name} is a group of gotrace goroutines`);
  const r = await rowRect(page, key);
  const { pixels } = await canvasPixels(page, r);
  const running = pixels.filter(([R, G, B]) => R === 0x3f && G === 0xa3 && B === 0x4d).length;
  assert.ok(running > 20, `the folded lane shows its goroutines running (${running} pixels)`);

  // The lane's data is the time its goroutines spent in each state, per pixel: over
  // the whole trace, the running time adds up to the group's execution time.
  const sums = await page.evaluate((k) => {
    const d = window.__gotraceTimeline.data('group:' + k.split(':')[1]);
    const sum = (a) => a.reduce((s, v) => s + v, 0) * d.step;
    return { type: d.type, size: d.size, running: sum(d.running), syscall: sum(d.syscall) };
  }, key);
  assert.equal(sums.type, 'activity');
  assert.equal(sums.size, group.count);
  assert.ok(Math.abs(sums.running - group.exec) <= group.exec * 1e-6 + 1, `running ${sums.running} ns, gotrace says ${group.exec}`);

  // Hovering it tells the counts.
  const box = await page.locator('[data-testid=timeline-canvas]').boundingBox();
  await page.mouse.move(box.x + r.x + r.width / 2, box.y + r.y + r.height / 2);
  await page.waitForSelector('[data-testid=tooltip]', { state: 'visible' });
  assert.match(await page.textContent('[data-testid=tooltip]'), /running [\d.]+ · runnable [\d.]+ · syscall [\d.]+ · waiting [\d.]+/);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('the label column widens by dragging its edge, a label reads whole on hover, and a header names the group on screen', async () => {
  const { page, problems, context } = await openTimeline();
  const box = await page.locator('[data-testid=timeline-canvas]').boundingBox();
  const w0 = await page.evaluate(() => window.__gotraceTimeline.labelWidth());
  const y = box.y + 60;
  await page.mouse.move(box.x + w0, y);
  await page.mouse.down();
  await page.mouse.move(box.x + w0 + 150, y, { steps: 5 });
  await page.mouse.up();
  assert.equal(await page.evaluate(() => window.__gotraceTimeline.labelWidth()), w0 + 150);
  const proc = await rowRect(page, 'proc:0');
  assert.equal(proc.x, w0 + 150, 'the plots start after the wider column');

  // The longest group label on screen, hovered, shows whole.
  const labels = await page.evaluate(() => window.__gotraceTimeline.rowLabels());
  const keys = await page.evaluate(() => window.__gotraceTimeline.rowKeys());
  let longest = -1;
  for (let i = 0; i < keys.length; i++) {
    if (!/^group:\d+$/.test(keys[i]) || (await rowRect(page, keys[i])).y > box.height - 40) continue;
    if (longest < 0 || labels[i].length > labels[longest].length) longest = i;
  }
  assert.ok(labels[longest].length > 30, labels[longest]);
  const g = await rowRect(page, keys[longest]);
  await page.mouse.move(box.x + 20, box.y + g.y + g.height / 2);
  await page.waitForSelector('[data-testid=tooltip]', { state: 'visible' });
  assert.equal(await page.textContent('[data-testid=tooltip]'), labels[longest]);

  // Unfolded and scrolled past its header, the group is named at the top.
  await page.mouse.click(box.x + 20, box.y + g.y + g.height / 2);
  await page.waitForFunction((k) => window.__gotraceTimeline.rowLabels()[window.__gotraceTimeline.rowKeys().indexOf(k)].startsWith('▾'), keys[longest]);
  const header = await page.evaluate((k) => window.__gotraceTimeline.rowLabels()[window.__gotraceTimeline.rowKeys().indexOf(k)], keys[longest]);
  assert.equal(await page.evaluate(() => window.__gotraceTimeline.stickyHeader()), null);
  const after = await rowRect(page, keys[longest]);
  // The header just above the top of the lanes (under the 26 px ruler).
  await page.evaluate((dy) => { document.querySelector('[data-testid=timeline]').scrollTop += dy; }, after.y - 26 + after.height + 2);
  await page.waitForFunction((h) => window.__gotraceTimeline.stickyHeader() === h, header);
  await timelineIdle(page);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('plots have Y scales and legends, and the Threads plot shows threads running and in syscalls', async () => {
  const { page, problems, context } = await openTimeline();
  const axes = Object.fromEntries((await page.evaluate(() => window.__gotraceTimeline.axes())).map((a) => [a.key, a]));
  const seriesMax = (name) => Math.max(...json('timeline', SAMPLE, `--track=series:${name}`).max);
  const heap = axes['plot:Heap'];
  assert.match(heap.text, /^\d+(\.\d+)? (KiB|MiB|GiB)$/);
  assert.ok(heap.max >= seriesMax('heap-alloc') && heap.max < 2.6 * seriesMax('heap-alloc'), `${heap.max}`);
  const gs = axes['plot:Goroutines'];
  assert.ok(gs.max >= seriesMax('goroutines-waiting'));
  const threads = axes['plot:Threads'];
  assert.ok(threads, 'the Threads plot is drawn');
  const most = Math.max(seriesMax('procs-running'), seriesMax('goroutines-syscall'));
  assert.ok(threads.max >= most && threads.max <= 2.5 * most, `${threads.max} for at most ${most}`);
  for (const [name, track] of [['procs-running', 'series:procs-running'], ['goroutines-syscall', 'series:goroutines-syscall']]) {
    const got = await page.evaluate((k) => Math.max(...window.__gotraceTimeline.data(k).max), track);
    assert.equal(got, seriesMax(name), name);
  }
  // Hovering the Threads plot names its two series as Go's viewer does.
  const r = await rowRect(page, 'plot:Threads');
  const box = await page.locator('[data-testid=timeline-canvas]').boundingBox();
  await page.mouse.move(box.x + r.x + r.width / 2, box.y + r.y + r.height / 2);
  await page.waitForSelector('[data-testid=tooltip]', { state: 'visible' });
  assert.match(await page.textContent('[data-testid=tooltip]'), /threads running: \d+\nthreads in syscall: \d+/);

  // The legend says what each lane colour is.
  const legend = await page.$$eval('[data-testid=timeline-legend] > .legend-item', (items) => items.map((i) => i.dataset.state));
  for (const want of ['running', 'runnable', 'blocked', 'syscall', 'GC · STW · sweep · assist', 'task']) assert.ok(legend.includes(want), legend.join());
  assert.deepEqual(problems.errors, []);
  await context.close();
});

for (const [row, track, what] of [['logs', 'logs:proc', 'Log'], ['samples', 'samples:proc', 'StackSample']]) {
  test(`a ${row === 'logs' ? 'log' : 'CPU sample'}'s details show the event and its stack, as gotrace dump prints them`, async () => {
    const { page, problems, context } = await openTimeline();
    const r = await rowRect(page, row);
    const { t, view } = await page.evaluate((k) => ({ t: window.__gotraceTimeline.data(k).time[0], view: window.__gotraceTimeline.view() }), track);
    const box = await page.locator('[data-testid=timeline-canvas]').boundingBox();
    await page.mouse.click(box.x + r.x + ((t - view.t0) / (view.t1 - view.t0)) * r.width + 0.5, box.y + r.y + r.height / 2);
    await page.waitForSelector('[data-testid=event-details] [data-testid=stack]', { timeout: 30_000 });
    const text = await page.textContent('[data-testid=event-text]');
    assert.match(text, new RegExp(` ${what} Time=\\d+`));
    const dump = gotrace('dump', SAMPLE).split('\n');
    const at = dump.indexOf(text);
    assert.ok(at >= 0, `gotrace dump prints ${text}`);
    assert.equal(dump[at + 1], 'Stack=');
    const want = [];
    for (let i = at + 2; i < dump.length && dump[i].startsWith('\t'); i += 2) want.push(dump[i].trim().replace(/ @ 0x[0-9a-f]+$/, ''));
    const got = await page.$$eval('[data-testid=event-details] [data-testid=stack] .func', (f) => f.map((x) => x.textContent));
    assert.ok(want.length > 0);
    assert.deepEqual(got, want);
    assert.deepEqual(problems.errors, []);
    await context.close();
  });
}

test('a goroutine lane draws its blocked time in the colour of the reason, which the legend lists', async () => {
  // What G46 waits on, by `gotrace timeline --track=goroutine:46`: select, mostly.
  const lane = json('timeline', SAMPLE, '--track=goroutine:46');
  const time = {};
  lane.state.forEach((s, i) => {
    if (s === 'waiting') time[lane.detail_text[i]] = (time[lane.detail_text[i]] ?? 0) + lane.end[i] - lane.start[i];
  });
  const [reason] = Object.entries(time).sort((a, b) => b[1] - a[1])[0];
  assert.equal(reason, 'select');
  const { page, problems, context } = await openTimeline();
  await show(page, '#/timeline?g=46', '[data-testid=timeline-canvas]');
  await page.waitForFunction(() => window.__gotraceTimeline.rowRect('goroutine:46'), null, { timeout: 30_000 });
  await timelineIdle(page);
  // The legend's colour for it, and the lane's pixels of that colour.
  await page.hover('[data-testid=timeline-legend] [data-state=blocked]');
  const swatch = page.locator(`[data-testid=legend-reasons] [data-reason="${reason}"] .swatch`);
  await swatch.waitFor();
  const rgb = (await swatch.evaluate((e) => getComputedStyle(e).backgroundColor)).match(/\d+/g).map(Number);
  const { pixels } = await canvasPixels(page, await rowRect(page, 'goroutine:46'));
  const n = pixels.filter((p) => p[0] === rgb[0] && p[1] === rgb[1] && p[2] === rgb[2]).length;
  assert.ok(n > 100, `${n} pixels of ${reason}'s colour in G46's lane`);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

// go tool trace's Network and Syscalls lanes: each holds what the CLI counts, on traces
// of Go 1.5, 1.19, 1.23 and 1.27 opened one after the other in the same tab.
test('the Network and Syscalls lanes hold the network unblocks and blocked syscall exits the CLI counts', async () => {
  const files = [SAMPLE, corpusTrace('go/http_1_5_good.trace'), corpusTrace('go/go119-workload.trace'), corpusTrace('newest/go127-wait-on-pipe.default.trace')];
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  for (const file of files) {
    await openFile(page, file);
    await show(page, '#/timeline', '[data-testid=timeline-canvas]');
    await timelineIdle(page);
    // Independent figures: the net profile's samples (one per network block) and the
    // GoSyscallEndBlocked events.
    const network = gotrace('pprof', '--type=net', '--folded', file).split('\n').filter(Boolean).reduce((s, l) => s + Number(l.split(' ')[0]), 0);
    const syscalls = json('stats', file).events_by_type.GoSyscallEndBlocked ?? 0;
    const keys = await page.evaluate(() => window.__gotraceTimeline.rowKeys());
    for (const [key, expected] of [['network', network], ['syscalls', syscalls]]) {
      const cli = json('timeline', file, `--track=${key}`);
      assert.equal(cli.count.reduce((s, c) => s + c, 0), expected, `${path.basename(file)}: gotrace timeline --track=${key}`);
      if (expected === 0) {
        assert.ok(!keys.includes(key), `${path.basename(file)} has no ${key} lane`);
        continue;
      }
      assert.ok(keys.includes(key), `${path.basename(file)} has a ${key} lane`);
      const shown = await page.evaluate((k) => window.__gotraceTimeline.data(`${k}:proc`), key);
      const total = Object.values(shown.count).reduce((s, c) => s + c, 0);
      assert.equal(total, expected, `${path.basename(file)}: the ${key} lane's marks`);
      const { pixels } = await canvasPixels(page, await rowRect(page, key));
      assert.ok(pixels.some((p) => hsl(p)[2] < 0.8), `${path.basename(file)}: the ${key} lane is drawn`);
    }
  }
  // A mark of the last trace's Syscalls lane opens its event in the details panel.
  const row = await rowRect(page, 'syscalls');
  const marks = await page.evaluate(() => window.__gotraceTimeline.data('syscalls:proc'));
  const view = await page.evaluate(() => window.__gotraceTimeline.view());
  const box = await page.locator('[data-testid=timeline-canvas]').boundingBox();
  const x = row.x + ((marks.time[0] - view.t0) / (view.t1 - view.t0)) * row.width;
  await page.mouse.click(box.x + x + 0.5, box.y + row.y + row.height / 2);
  await page.waitForFunction(() => /Blocked syscall exit/.test(document.querySelector('[data-testid=event-details], .details')?.textContent ?? ''));
  assert.deepEqual(problems.errors, []);
  await context.close();
});

// Flow arrows for every wake-up in view, as go tool trace draws them: a toggle kept in
// the URL; each edge `gotrace timeline --track=edges` lists is an arrow, and an arrow
// whose waker's lane is not on screen says which goroutine it comes from.
test('the Flows toggle draws every wake-up in view as an arrow, labels those from goroutines off screen, and is kept in the URL', async () => {
  const { start, end } = json('stats', SAMPLE).time;
  const t0 = Math.round(start + (end - start) / 2);
  const t1 = t0 + 2_000_000;
  const cli = json('timeline', SAMPLE, '--track=edges', `--from=${t0}`, `--to=${t1}`, '--pixels=1000', '--limit=1000000');
  const want = cli.to_time.map((t, i) => `${cli.goroutine[i]}@${t}`).sort();
  assert.ok(want.length > 10 && !cli.sampled, `${want.length} wake-ups in the window`);

  const { page, problems, context } = await openTimeline();
  await show(page, `#/timeline?t0=${t0}&t1=${t1}&flows=1`, '[data-testid=flows-toggle]:checked');
  await timelineIdle(page);
  const arrows = await page.evaluate(() => window.__gotraceTimeline.arrows());
  const drawn = arrows.filter((a) => a.toTime >= t0 && a.toTime < t1).map((a) => `${a.goroutine}@${a.toTime}`).sort();
  assert.deepEqual(drawn, want, 'an arrow for each wake-up of the window');
  // Goroutine lanes are folded in their groups: arrows from goroutines are labelled.
  const keys = new Set(await page.evaluate(() => window.__gotraceTimeline.rowKeys()));
  const fromGoroutines = arrows.filter((a) => a.from >= 0);
  assert.ok(fromGoroutines.length > 0);
  for (const a of fromGoroutines) {
    if (!keys.has(`goroutine:${a.from}`)) assert.equal(a.label, `G${a.from}`, `the arrow into G${a.goroutine}`);
  }
  const purple = await page.evaluate(() => {
    const c = document.querySelector('[data-testid=timeline-canvas]');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) n += d[i] === 0x7c && d[i + 1] === 0x3a && d[i + 2] === 0xed;
    return n;
  });
  assert.ok(purple > 50, `the arrows are drawn (${purple} pixels)`);

  // Off, no arrow and no flows in the URL; a reload with it on draws them again.
  await page.click('[data-testid=flows-toggle]');
  await page.waitForFunction(() => !/flows=/.test(location.hash));
  await timelineIdle(page);
  assert.deepEqual(await page.evaluate(() => window.__gotraceTimeline.arrows()), []);
  await page.click('[data-testid=flows-toggle]');
  await page.waitForFunction(() => /flows=1/.test(location.hash));
  await reloadKept(page);
  await page.waitForSelector('[data-testid=flows-toggle]:checked', { timeout: 60_000 });
  await timelineIdle(page);
  const again = await page.evaluate(() => window.__gotraceTimeline.arrows());
  assert.deepEqual(again.filter((a) => a.toTime >= t0 && a.toTime < t1).map((a) => `${a.goroutine}@${a.toTime}`).sort(), want);
  assert.deepEqual(problems.errors, []);
  await context.close();
});
