// The critical path in the app: from a task's page, from a goroutine's page and from a
// task type's histogram bucket, each showing the figures `gotrace critical-path --json`
// gives for the same selection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './browser.mjs';
import { SAMPLE, corpusTrace, gotraceJson as json } from './fixtures.mjs';
import { openFile, openPage, show, reloadKept } from './pages.mjs';

const env = useBrowser();

// The rows of a table: [first cell text, second cell text] each.
const rows = (page, testid) => page.$$eval(`[data-testid=${testid}] tbody tr`,
  (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));

test("a task's critical path, from its page, is the CLI's", async () => {
  const { page, problems } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  const cli = json('critical-path', '--task=10046', SAMPLE);
  await show(page, '#/task/10046', '[data-testid=task-critical-path-link]');
  await page.click('[data-testid=task-critical-path-link]');
  await page.waitForSelector('[data-testid=path-summary]', { timeout: 60_000 });
  const summary = await page.textContent('[data-testid=path-summary]');
  assert.match(summary, /task 10046/);
  assert.match(summary, new RegExp(`${cli.segments.length} segments`));
  assert.match(summary, new RegExp(`${cli.handoffs} hand-off${cli.handoffs === 1 ? '' : 's'}\\.`));
  // The tables hold the CLI's totals, in its order.
  const categories = await rows(page, 'path-by-category');
  assert.deepEqual(categories.map((r) => r[0]), cli.by_category.map((c) => c.key));
  const goroutines = await rows(page, 'path-by-goroutine');
  assert.deepEqual(goroutines.map((r) => r[0]), cli.by_goroutine.map((c) => c.key));
  assert.equal((await rows(page, 'path-segments')).length, Math.min(200, cli.segments.length));
  // Drawn: a bar per segment, on the rows of the goroutines it visits.
  const drawn = await page.$$eval('[data-testid=path-segment]', (els) => els.length);
  assert.equal(drawn, cli.segments.length);
  const lanes = await page.$$eval('[data-testid=path-chart] .lbl', (els) => els.map((e) => e.textContent));
  assert.deepEqual(lanes, [...new Set(cli.segments.map((s) => `G${s.goroutine}`))]);
  // A segment links to the timeline at its goroutine.
  const link = await page.getAttribute('[data-testid=path-segment]', 'href');
  assert.match(link, /^#\/timeline\?.*g=/);
  assert.deepEqual(problems.errors, []);
  await page.context().close();
});

test('a path through more goroutines than the chart has rows draws the one it ends on and those with the most time on it', async () => {
  const file = corpusTrace('go/go122-workload.trace');
  const cli = json('critical-path', '--goroutine=6775', file);
  const order = [...new Set(cli.segments.map((s) => s.goroutine))];
  assert.ok(order.length > 16, `${order.length} goroutines on the path`);
  const { page, problems } = await openPage(env.browser, env.site.url);
  await openFile(page, file);
  await show(page, '#/critical-path?goroutine=6775', '[data-testid=path-chart]');
  // A goroutine's path is under the Goroutines tab (a task's under Tasks, a region's under Regions).
  assert.equal(await page.textContent('[data-testid=tabs] .tab.active'), 'Goroutines');
  const lanes = await page.$$eval('[data-testid=path-chart] .lbl', (els) => els.map((e) => Number(e.textContent.slice(1))));
  assert.equal(lanes.length, 16);
  assert.ok(lanes.includes(6775), 'the goroutine the path ends on');
  // Those with more time on the path than the 16th most are all drawn, in the path's order.
  const nsOf = new Map(cli.by_goroutine.map((g) => [g.goroutine, g.ns]));
  const sorted = [...nsOf.values()].sort((a, b) => b - a);
  for (const [g, ns] of nsOf) if (ns > sorted[15]) assert.ok(lanes.includes(g), `G${g} (${ns} ns) drawn`);
  assert.deepEqual(lanes, order.filter((g) => lanes.includes(g)));
  // The note on what is left out is below the chart, not over it.
  const chart = await page.locator('[data-testid=path-chart]').boundingBox();
  const note = await page.locator('[data-testid=path-chart-left]').boundingBox();
  assert.ok(note.y >= chart.y + chart.height - 0.5, `note at ${note.y}, chart ends at ${chart.y + chart.height}`);
  assert.match(await page.textContent('[data-testid=path-chart-left]'), new RegExp(`^${order.length - 16} more goroutines`));
  assert.deepEqual(problems.errors, []);
  await page.context().close();
});

test("a goroutine's critical path, and a reload of it", async () => {
  const { page, problems } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  const cli = json('critical-path', '--goroutine=1', SAMPLE);
  await show(page, '#/goroutine/1', '[data-testid=goroutine-critical-path-link]');
  await page.click('[data-testid=goroutine-critical-path-link]');
  await page.waitForSelector('[data-testid=path-summary]', { timeout: 60_000 });
  assert.equal((await rows(page, 'path-segments')).length, Math.min(200, cli.segments.length));
  await reloadKept(page);
  await page.waitForSelector('[data-testid=path-summary]', { timeout: 60_000 });
  assert.deepEqual((await rows(page, 'path-by-category')).map((r) => r[0]), cli.by_category.map((c) => c.key));
  assert.deepEqual(problems.errors, []);
  await page.context().close();
});

test("a task type's histogram bucket links to the sum of its tasks' critical paths", async () => {
  const { page, problems } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  await show(page, '#/tasks?name=client', '[data-testid=type-name]');
  // The client row's histogram: pick its tallest bar.
  const row = page.locator('tr', { has: page.locator('[data-testid=type-name]', { hasText: /^client/ }) });
  const bars = row.locator('[data-testid=histogram] [data-min]');
  const n = await bars.count();
  assert.ok(n > 0);
  let best = 0, bestCount = -1;
  for (let i = 0; i < n; i++) {
    const c = Number(await bars.nth(i).getAttribute('data-count'));
    if (c > bestCount) { best = i; bestCount = c; }
  }
  await bars.nth(best).click();
  await page.waitForSelector('[data-testid=bucket-critical-paths]', { timeout: 60_000 });
  const href = await page.getAttribute('[data-testid=bucket-critical-paths]', 'href');
  const q = new URLSearchParams(href.slice(href.indexOf('?') + 1));
  await page.click('[data-testid=bucket-critical-paths]');
  await page.waitForSelector('[data-testid=path-summary]', { timeout: 60_000 });
  const tasks = json('tasks', SAMPLE).tasks.filter((t) => t.name === 'client' && t.complete &&
    t.duration >= Number(q.get('min')) && t.duration < Number(q.get('max')));
  assert.equal(tasks.length, bestCount);
  const summary = await page.textContent('[data-testid=path-summary]');
  assert.match(summary, new RegExp(`critical paths of ${bestCount.toLocaleString('en-US')} tasks 'client'`));
  const cli = json('critical-path', '--task-type=client', SAMPLE);
  const categories = (await rows(page, 'path-by-category')).map((r) => r[0]);
  assert.ok(categories.every((c) => cli.by_category.some((x) => x.key === c)));
  assert.deepEqual(problems.errors, []);
  await page.context().close();
});

test("a region type's bucket links to its own regions' critical paths, where types share its name", async () => {
  // go123-futile-wakeup: four types named "special" (main.main.func1..4), two regions each.
  const file = corpusTrace('go/go123-futile-wakeup.trace');
  const type = json('regions', file).types.find((t) => t.name === 'special' && t.func === 'main.main.func4');
  const { page, problems } = await openPage(env.browser, env.site.url);
  await openFile(page, file);
  await show(page, '#/regions', '[data-testid=region-types]');
  const row = page.locator('[data-testid=region-types] tbody tr', { hasText: type.func });
  const bars = await row.locator('[data-testid=histogram] [data-min]').all();
  let picked = null;
  for (const b of bars) if (!picked && Number(await b.getAttribute('data-count')) > 0) picked = b;
  assert.ok(picked, 'a bar with regions');
  const count = Number(await picked.getAttribute('data-count'));
  await picked.click();
  await page.waitForSelector('[data-testid=bucket-critical-paths]', { timeout: 60_000 });
  assert.match(await page.textContent('[data-testid=instances] h3'), new RegExp(`^special @ ${type.func}: ${count} region`));
  const href = await page.getAttribute('[data-testid=bucket-critical-paths]', 'href');
  const q = new URLSearchParams(href.slice(href.indexOf('?') + 1));
  assert.equal(q.get('pc'), String(type.pc));
  await page.click('[data-testid=bucket-critical-paths]');
  await page.waitForSelector('[data-testid=path-summary]', { timeout: 60_000 });
  const summary = await page.textContent('[data-testid=path-summary]');
  assert.match(summary, new RegExp(`critical paths of ${count} regions? 'special' begun at 0x${type.pc.toString(16)}`));
  const cli = json('critical-path', '--region-type=special', `--region-pc=${type.pc}`, file);
  const categories = (await rows(page, 'path-by-category')).map((r) => r[0]);
  assert.ok(categories.length > 0 && categories.every((c) => cli.by_category.some((x) => x.key === c)));
  assert.deepEqual(problems.errors, []);
  await page.context().close();
});

test("a selected range's panel links to the selected goroutine's critical path over it", async () => {
  const { page, problems } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  // A running stretch of goroutine 1, selected, inside a selected range.
  const own = json('critical-path', '--goroutine=1', SAMPLE);
  // (one well inside the trace, so that the range needs no clamping)
  const run = own.segments.find((s) => s.goroutine === 1 && s.state === 'running' && s.end - s.start > 1000 &&
    s.start > own.from + 10_000_000);
  const mid = Math.round((run.start + run.end) / 2);
  const r0 = run.start - 50_000, r1 = run.end + 50_000;
  await show(page, `#/timeline?t0=${r0 - 100_000}&t1=${r1 + 100_000}&r0=${r0}&r1=${r1}&sel=goroutine:1@${mid}&g=1`,
    '[data-testid=range-critical-path]');
  const link = await page.getAttribute('[data-testid=range-critical-path]', 'href');
  const q = new URLSearchParams(link.slice(link.indexOf('?') + 1));
  assert.deepEqual([q.get('goroutine'), q.get('from'), q.get('to')], ['1', String(r0), String(r1)]);
  await page.click('[data-testid=range-critical-path]');
  await page.waitForSelector('[data-testid=path-summary]', { timeout: 60_000 });
  const cli = json('critical-path', '--goroutine=1', `--from=${r0}`, `--to=${r1}`, SAMPLE);
  const rowsShown = await rows(page, 'path-by-category');
  assert.deepEqual(rowsShown.map((r) => r[0]), cli.by_category.map((c) => c.key));
  assert.deepEqual(problems.errors, []);
  await page.context().close();
});

test('one path and the sum of a type\'s paths, one after the other in the address, each show their own', async () => {
  const { page, problems } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  const summary = () => page.textContent('[data-testid=path-summary]');
  await show(page, '#/critical-path?task=10046', '[data-testid=path-summary]');
  assert.equal(await page.textContent('[data-testid=tabs] .tab.active'), 'Tasks');
  assert.match(await summary(), /task 10046/);
  await page.evaluate(() => { location.hash = '#/critical-path?taskType=client'; });
  await page.waitForFunction(() => /critical paths of [\d,]+ tasks 'client'/.test(document.querySelector('[data-testid=path-summary]')?.textContent ?? ''), null, { timeout: 60_000 });
  await page.evaluate(() => { location.hash = '#/critical-path?task=10046'; });
  await page.waitForFunction(() => /task 10046/.test(document.querySelector('[data-testid=path-summary]')?.textContent ?? ''), null, { timeout: 60_000 });
  // A goroutine that is no number is named as written.
  await page.evaluate(() => { location.hash = '#/critical-path?goroutine=abc'; });
  await page.waitForFunction(() => /not 'abc'/.test(document.querySelector('[data-testid=critical-path-view]')?.textContent ?? ''), null, { timeout: 60_000 });
  assert.deepEqual(problems.errors, []);
  await page.context().close();
});
