// "Compare with…": a second trace beside the open one, the figures those of `gotrace diff
// BASELINE THIS --json`; opening another trace drops the comparison.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './browser.mjs';
import { SAMPLE, corpusTrace, gotraceJson as json } from './fixtures.mjs';
import { openFile, openPage, show } from './pages.mjs';

const env = useBrowser();

const cells = (page, testid) => page.$$eval(`[data-testid=${testid}] tbody tr`,
  (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())));
const count = (s) => Number(String(s).replace(/[^0-9]/g, ''));
// The labels of the MMU chart that do not lie within it.
const labelsCut = (page) => page.$$eval('[data-testid=mmu-overlay]', (svgs) => svgs.flatMap((svg) => {
  const box = svg.getBoundingClientRect();
  return [...svg.querySelectorAll('text')].filter((t) => {
    const r = t.getBoundingClientRect();
    return r.left < box.left - 0.5 || r.right > box.right + 0.5;
  }).map((t) => t.textContent);
}));

test('compare the sample with the Go 1.22 run of its program', async () => {
  const { page, problems } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  const base = corpusTrace('go/go122-workload.trace');
  const cli = json('diff', base, SAMPLE);
  await show(page, '#/compare', '[data-testid=choose-comparison]');
  await page.setInputFiles('[data-testid=comparison-input]', base);
  await page.waitForSelector('[data-testid=diff-groups] tbody tr', { timeout: 60_000 });
  assert.equal(await page.textContent('[data-testid=comparison-name]'), 'go122-workload.trace');
  // Every group, with its counts before and after, in the CLI's order: the largest change
  // of total time first, increase or decrease.
  const groups = await cells(page, 'diff-groups');
  assert.equal(groups.length, Math.min(100, cli.groups.length));
  assert.deepEqual(groups.map((r) => r[0]), cli.groups.slice(0, 100).map((g) => g.name || '(no start function)'));
  assert.ok(cli.groups.some((g) => g.delta.total < 0) && cli.groups.some((g) => g.delta.total > 0), 'changes both ways');
  const byName = new Map(cli.groups.map((g) => [g.name || '(no start function)', g]));
  for (const [name, counts] of groups) {
    const g = byName.get(name);
    assert.ok(g, name);
    const [a, b] = counts.split('→').map(count);
    assert.deepEqual([a, b], [g.before.count, g.after.count], name);
  }
  // Task types: counts before and after (those that do not end counted too).
  const tasks = await cells(page, 'diff-tasks');
  assert.deepEqual(tasks.map((r) => r[0]).sort(), cli.tasks.map((t) => t.name).sort());
  for (const [name, counts] of tasks) {
    const t = cli.tasks.find((x) => x.name === name);
    assert.deepEqual(counts.split(' (')[0].split('→').map(count),
      [t.before.quantiles.count + t.not_ended.before, t.after.quantiles.count + t.not_ended.after]);
  }
  // Both sides' histograms over each other, a pair per task and region type; the MMU
  // curves likewise, a point per window of the CLI's.
  assert.equal(await page.$$eval('[data-testid=histogram-overlay]', (e) => e.length), cli.tasks.length + cli.regions.length);
  const curves = await page.$$eval('[data-testid=mmu-overlay] polyline', (ls) => ls.map((l) => l.getAttribute('points').trim().split(' ').length));
  assert.deepEqual(curves, [cli.gc.before.mmu.length, cli.gc.after.mmu.length]);
  assert.deepEqual(await labelsCut(page), []);
  // GC cycles and the profiles' totals.
  const gc = await cells(page, 'diff-gc');
  assert.deepEqual([count(gc[0][1]), count(gc[0][2])], [cli.gc.before.cycles, cli.gc.after.cycles]);
  for (const type of ['sync', 'net', 'syscall', 'sched']) {
    assert.ok(await page.$(`[data-testid=diff-profile-${type}]`), type);
  }
  // The differential pprof downloads.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=diff-pprof-sync]')]);
  assert.equal(download.suggestedFilename(), 'sync-diff.pb.gz');
  // Another trace opened: no comparison until one is chosen for it.
  await openFile(page, corpusTrace('go/go121-workload.trace'));
  await show(page, '#/compare', '[data-testid=choose-comparison]');
  assert.equal(await page.$('[data-testid=diff-groups]'), null);
  assert.deepEqual(problems.errors, []);
  await page.context().close();
});

test('a task type whose tasks do not end is counted, its durations "—" on the side without one', async () => {
  const { page, problems } = await openPage(env.browser, env.site.url);
  const base = corpusTrace('go/go123-cpu-profile.trace');
  const file = corpusTrace('newest/go124-cpu-profile.default.trace');
  const cli = json('diff', base, file);
  const [task] = cli.tasks;
  assert.deepEqual([task.before.quantiles.count, task.not_ended.before, task.after.quantiles.count, task.not_ended.after], [0, 1, 0, 1]);
  await openFile(page, file);
  await show(page, '#/compare', '[data-testid=choose-comparison]');
  await page.setInputFiles('[data-testid=comparison-input]', base);
  await page.waitForSelector('[data-testid=diff-tasks] tbody tr', { timeout: 60_000 });
  const [row] = await cells(page, 'diff-tasks');
  assert.equal(row[1], '1 → 1 (1 → 1 not ended)');
  for (const cell of row.slice(2, 6)) assert.equal(cell, '— → —');
  // Each profile's stacks read apart (two of the CPU samples' end in main.cpuHog0), as
  // the CLI names them; a profile empty on both sides says so, with nothing to download.
  for (const [type, p] of Object.entries(cli.profiles)) {
    if (p.stacks.length === 0) {
      await page.waitForSelector(`[data-testid=diff-profile-none-${type}]`);
      assert.equal(await page.locator(`[data-testid=diff-pprof-${type}]`).count(), 0);
      continue;
    }
    const names = await page.$$eval(`[data-testid=diff-profile-${type}] tbody tr td:first-child code`, (els) => els.map((e) => e.textContent));
    assert.equal(new Set(names).size, names.length, `${type}: ${names.join(' | ')}`);
    for (const n of names) assert.ok(p.stacks.some((s) => s.name === n), n);
  }
  assert.ok(cli.profiles.cpu.stacks.filter((s) => s.function === 'main.cpuHog0').length > 1);
  assert.equal(cli.profiles.net.stacks.length, 0);
  // The MMU chart's windows end at 100 ms here, a label as long as any.
  assert.deepEqual(await labelsCut(page), []);
  assert.deepEqual(problems.errors, []);
  await page.context().close();
});
