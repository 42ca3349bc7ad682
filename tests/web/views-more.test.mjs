// Views against the native CLI and the page's layout: the goroutine groups' block time
// by reason, the MMU's windows and axes, keyboard help, the dark scheme, a 1024 px wide
// window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './browser.mjs';
import { SAMPLE, corpusTrace, gotrace as gotraceText, gotraceJson as json } from './fixtures.mjs';
import { canvasPixels, hsl, openFile, openPage, show, timelineIdle, reloadKept } from './pages.mjs';


const env = useBrowser();

test('the goroutine groups\' table splits block time by reason, as gotrace goroutines does', async () => {
  const file = corpusTrace('go/go122-workload.trace');
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, file);
  await show(page, '#/goroutines', '[data-testid=groups-table]');
  const groups = json('goroutines', file).groups;
  const reasons = [...new Set(groups.flatMap((g) => Object.keys(g.stats).filter((k) => k.startsWith('block:'))))];
  assert.ok(reasons.length > 2, reasons.join());
  const heads = await page.$$eval('[data-testid=groups-table] thead th', (th) => th.map((x) => x.dataset.key));
  for (const r of reasons) assert.ok(heads.includes(r), `a column for ${r}`);
  const rows = await page.$$eval('[data-testid=groups-table] tbody tr', (trs) =>
    trs.map((tr) => Object.fromEntries([...tr.querySelectorAll('td')].map((td) => [td.dataset.key, td.dataset.value ?? td.textContent]))));
  for (const g of groups) {
    const row = rows.find((r) => r.name === (g.name || '(no start function)'));
    if (!row) continue; // past the rows shown
    for (const r of reasons) assert.equal(Number(row[r]), g.stats[r] ?? 0, `${g.name}: ${r}`);
    const split = reasons.reduce((s, r) => s + (g.stats[r] ?? 0), 0);
    assert.equal(Number(row.block), split, `${g.name}: the reasons add up to the block time`);
  }
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('region types of one name begun at different places each list their own regions', async () => {
  // Four types named "special" (main.main.func1..4), two regions each.
  const file = corpusTrace('go/go123-futile-wakeup.trace');
  const native = json('regions', file);
  const special = native.types.filter((t) => t.name === 'special');
  assert.equal(special.length, 4);
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, file);
  await show(page, '#/regions', '[data-testid=region-types]');
  const rows = page.locator('[data-testid=region-types] tbody tr', { hasText: 'special' });
  assert.equal(await rows.count(), 4);
  const seen = new Set();
  for (let i = 0; i < 4; i++) {
    const row = rows.nth(i);
    const count = Number((await row.locator('[data-testid=type-count]').textContent()).replace(/\D/g, ''));
    let listed = 0;
    for (const bar of await row.locator('[data-testid=histogram] button').all()) {
      const expected = Number(await bar.getAttribute('data-count'));
      await bar.click();
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid=instances] tbody tr').length === n
        && /\b\d+ region/.test(document.querySelector('[data-testid=instances]')?.textContent), expected);
      const shown = await page.$$eval('[data-testid=instances] tbody tr', (trs) => trs.map((tr) => tr.querySelector('[data-key=goroutine]')?.textContent));
      assert.equal(shown.length, expected, `row ${i}`);
      for (const g of shown) {
        assert.ok(!seen.has(g), `G${g} listed under two types`);
        seen.add(g);
      }
      listed += shown.length;
    }
    assert.equal(listed, count, `row ${i}: its bars list its ${count} regions`);
  }
  assert.equal(seen.size, special.reduce((n, t) => n + t.count, 0));
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('a region type\'s profiles link is that type\'s profile (name and pc, as Go links it), and the filter offers each type', async () => {
  const file = corpusTrace('go/go123-futile-wakeup.trace');
  const special = json('regions', file).types.filter((t) => t.name === 'special');
  assert.equal(special.length, 4);
  // The CLI's figure of each type's sync time, and of the name's.
  const folded = (...flags) => gotraceText('pprof', '--type=sync', '--folded', '--region=special', ...flags, file)
    .split('\n').filter(Boolean).reduce((ns, line) => ns + Number(line.split(' ')[1]), 0);
  const byName = folded();
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, file);
  const totalNs = () => page.getAttribute('[data-testid=flame-total]', 'data-ns').then(Number);
  const settled = (ns) => page.waitForFunction((w) => document.querySelector('[data-testid=profiles-view][data-loading="0"]')
    && Number(document.querySelector('[data-testid=flame-total]')?.dataset.ns) === w, ns);
  const distinct = new Set();
  for (const t of special) {
    const want = folded(`--region-pc=0x${t.pc.toString(16)}`);
    distinct.add(want);
    await show(page, '#/regions', '[data-testid=region-types]');
    const row = page.locator('[data-testid=region-types] tbody tr', { hasText: t.func });
    await row.getByRole('link', { name: 'profiles' }).click();
    await page.waitForFunction((pc) => new URLSearchParams(location.hash.split('?')[1]).get('pc') === String(pc), t.pc);
    await settled(want);
    assert.equal(await totalNs(), want, t.func);
    await page.waitForFunction((f) => document.querySelector('[data-testid=filter-region]').selectedOptions[0]?.textContent === `special @ ${f}`, t.func);
  }
  assert.ok(distinct.size >= 2, 'the types\' profiles differ');
  // The filter offers the name (all four types) and each type; the name gives the sum.
  await page.focus('[data-testid=filter-region]');
  await page.waitForSelector('[data-testid=filter-region] option:nth-child(6)', { state: 'attached' });
  await page.selectOption('[data-testid=filter-region]', { label: 'special (all 4 types)' });
  await page.waitForFunction(() => !/[?&]pc=/.test(location.hash) && /[?&]region=special\b/.test(location.hash));
  await settled(byName);
  await page.selectOption('[data-testid=filter-region]', { label: `special @ ${special[0].func}` });
  await settled(folded(`--region-pc=0x${special[0].pc.toString(16)}`));
  // Reloaded, the address keeps the type.
  await show(page, `#/profiles/sync?region=special&pc=${special[1].pc}`, '[data-testid=flame-total]');
  await reloadKept(page);
  await page.waitForSelector('[data-testid=flame-total]', { timeout: 60_000 });
  await settled(folded(`--region-pc=0x${special[1].pc.toString(16)}`));
  await page.waitForFunction((f) => document.querySelector('[data-testid=filter-region]').selectedOptions[0]?.textContent === `special @ ${f}`, special[1].func);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('the profile of the goroutines with no start function is theirs, not every goroutine\'s', async () => {
  const file = corpusTrace('go/go119-workload.trace');
  assert.ok(json('goroutines', file).groups.some((g) => g.name === ''));
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, file);
  await show(page, '#/profiles/sched', '[data-testid=profiles-view][data-loading="0"] [data-testid=flame-total]');
  const totalNs = () => page.getAttribute('[data-testid=flame-total]', 'data-ns').then(Number);
  const whole = await totalNs();
  await page.focus('[data-testid=filter-group]');
  await page.waitForSelector('[data-testid=filter-group] option:nth-child(3)', { state: 'attached' });
  await page.selectOption('[data-testid=filter-group]', { label: '(no start function)' });
  await page.waitForFunction(() => /[?&]group=(&|$)/.test(location.hash));
  await page.waitForSelector('[data-testid=profiles-view][data-loading="0"] [data-testid=flame-total]');
  await page.waitForFunction((w) => Number(document.querySelector('[data-testid=flame-total]')?.dataset.ns) < w, whole);
  assert.equal(await page.$eval('[data-testid=filter-group]', (s) => s.selectedOptions[0].textContent), '(no start function)');
  // Back to every goroutine: no group in the address, the whole total.
  await page.selectOption('[data-testid=filter-group]', { label: 'all goroutines' });
  await page.waitForFunction(() => !/[?&]group=/.test(location.hash));
  await page.waitForFunction((w) => Number(document.querySelector('[data-testid=flame-total]')?.dataset.ns) === w, whole);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('links to the profiles of the unnamed region type and of the group with no start function keep their filter', async () => {
  const file = corpusTrace('go/go123-annotations-stress.trace');
  const unnamed = json('regions', file).types.find((t) => t.name === '');
  assert.ok(unnamed, 'the trace has unnamed regions');
  const folded = (...flags) => gotraceText('pprof', ...flags, '--folded', file)
    .split('\n').filter(Boolean).reduce((ns, line) => ns + Number(line.split(' ')[1]), 0);
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, file);
  await show(page, '#/regions', '[data-testid=region-types]');
  const row = page.locator('[data-testid=region-types] tbody tr', { has: page.locator('[data-testid=type-name]', { hasText: /^\(unnamed\)/ }) });
  await row.getByRole('link', { name: 'profiles' }).click();
  await page.waitForFunction(() => /[?&]region=(&|$)/.test(location.hash));
  await page.waitForFunction(() => document.querySelector('[data-testid=filter-region]')?.selectedOptions[0]?.textContent === '(unnamed)');
  // The scheduler latency of those regions, as the CLI's --region="" gives it (not the whole trace's).
  await page.click('[data-testid=profile-tabs] [data-type=sched]');
  const want = folded('--type=sched', '--region=');
  assert.notEqual(want, folded('--type=sched'));
  await page.waitForFunction((w) => document.querySelector('[data-testid=profiles-view][data-loading="0"]')
    && /[?&]region=(&|$)/.test(location.hash) && Number(document.querySelector('[data-testid=flame-total]')?.dataset.ns) === w, want);
  // The group of goroutines with no start function: its page's links keep it.
  const old = corpusTrace('go/go119-workload.trace');
  await openFile(page, old);
  await show(page, '#/goroutines/group/', '[data-testid=profiles-of-group]');
  assert.match(await page.getAttribute('[data-testid=profiles-of-group]', 'href'), /[?&]group=(&|$)/);
  assert.match(await page.getAttribute('[data-testid=timeline-of-group]', 'href'), /[?&]group=(&|$)/);
  await page.click('[data-testid=profiles-of-group]');
  await page.waitForFunction(() => document.querySelector('[data-testid=filter-group]')?.selectedOptions[0]?.textContent === '(no start function)');
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('a task type with no complete task has no durations ("–", as the CLI\'s "-"), not zeros', async () => {
  const file = corpusTrace('go/go123-annotations-stress.trace');
  const native = json('tasks', file);
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, file);
  await show(page, '#/tasks', '[data-testid=task-types]');
  const cells = await page.$$eval('[data-testid=task-types] tbody tr', (trs) => trs.map((tr) => ({
    name: tr.querySelector('[data-testid=type-name]').firstChild.textContent,
    ...Object.fromEntries([...tr.querySelectorAll('td[data-key]')].map((td) => [td.dataset.key, td.textContent])),
    values: Object.fromEntries([...tr.querySelectorAll('td[data-value]')].map((td) => [td.dataset.key, Number(td.dataset.value)])),
  })));
  for (const t of native.types) {
    const row = cells.find((c) => c.name === (t.name || '(unnamed)'));
    assert.ok(row, t.name);
    for (const k of ['total', 'min', 'p50', 'p99', 'max']) {
      if (t.complete === 0) assert.equal(row[k], '–', `${t.name} ${k}`);
      else assert.equal(row.values[k], t.durations.quantiles[k], `${t.name} ${k}`);
    }
  }
  assert.ok(native.types.some((t) => t.complete === 0) && native.types.some((t) => t.complete > 0));
  // Its tasks, which no bar holds, are listed from its count (every task of the type).
  for (const t of native.types.filter((x) => x.complete === 0)) {
    const row = page.locator('[data-testid=task-types] tbody tr', { has: page.locator('[data-testid=type-name]', { hasText: new RegExp(`^${(t.name || '(unnamed)').replace(/[()]/g, '\\$&')}$`) }) });
    await row.locator('[data-testid=type-count]').click();
    await page.waitForFunction(() => /[?&]bucket=all\b/.test(location.hash) && document.querySelector('[data-testid=instances]'));
    assert.match(await page.textContent('[data-testid=instances] h3'), /complete or not/);
    const ids = await page.$$eval('[data-testid=instances] a[data-testid=task-link]', (as) => as.map((a) => Number(a.textContent)).sort((a, b) => a - b));
    assert.deepEqual(ids, native.tasks.filter((x) => x.name === t.name).map((x) => x.id).sort((a, b) => a - b), t.name);
    // A task not ended counts to the trace's end, and says so (it read "0").
    const durations = await page.$$eval('[data-testid=instances] tbody td[data-key=duration]', (tds) => tds.map((td) => td.textContent));
    const ended = native.tasks.filter((x) => x.name === t.name).map((x) => x.end != null);
    assert.equal(durations.filter((d) => /\(not ended\)$/.test(d)).length, ended.filter((e) => !e).length, durations.join(', '));
  }
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('a goroutine\'s regions are named as the regions page names them, the unnamed one too', async () => {
  const file = corpusTrace('go/go123-annotations-stress.trace');
  const g = json('goroutines', file).goroutines.find((x) => x.id === 55);
  assert.ok(g.regions.some((r) => r.name === ''));
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, file);
  await show(page, '#/goroutine/55', '[data-testid=goroutine-view]');
  const h3 = page.locator('h3', { hasText: /^Regions \(/ });
  await h3.waitFor();
  const cells = await h3.evaluate((h) => [...h.nextElementSibling.querySelectorAll('tbody tr td:first-child')].map((td) => [td.textContent, Boolean(td.querySelector('a'))]));
  assert.deepEqual(cells, g.regions.slice(0, 500).map((r) => [r.name || '(unnamed)', true]));
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('a histogram bar picked is in the address: Back from a region\'s goroutine and a reload list its regions again', async () => {
  const file = corpusTrace('go/go123-annotations-stress.trace');
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, file);
  const listed = () => page.$$eval('[data-testid=instances] tbody tr', (trs) => trs.map((tr) => tr.textContent));
  for (const [path, testid, link] of [['#/regions', 'region-types', '[data-testid=instances] tbody tr a[href^="#/goroutine/"]'], ['#/tasks', 'task-types', '[data-testid=instances] a[data-testid=task-link]']]) {
    await show(page, path, `[data-testid=${testid}]`);
    const bar = page.locator(`[data-testid=${testid}] tbody tr`, { hasText: /region2|type1|do/ }).first().locator('[data-testid=histogram] button').first();
    const min = await bar.getAttribute('data-min');
    await bar.click();
    await page.waitForSelector('[data-testid=instances] tbody tr');
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, new RegExp(`[?&]bucket=${min}(&|$)`), hash);
    const rows = await listed();
    await page.click(link);
    await page.waitForFunction((h) => location.hash !== h, hash);
    await page.goBack();
    await page.waitForSelector('[data-testid=instances] tbody tr');
    assert.equal(await page.evaluate(() => location.hash), hash);
    assert.deepEqual(await listed(), rows, `${path}: the same list after Back`);
    await reloadKept(page);
    await page.waitForSelector('[data-testid=instances] tbody tr', { timeout: 60_000 });
    assert.deepEqual(await listed(), rows, `${path}: the same list after a reload`);
    // Closed: out of the address.
    await page.click('[data-testid=instances] h3 button');
    await page.waitForFunction(() => !/bucket=/.test(location.hash) && !document.querySelector('[data-testid=instances]'));
  }
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('the flame graph\'s Find marks the functions named, whatever the case typed', async () => {
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  await show(page, '#/profiles/sync', '[data-testid=profiles-view][data-loading="0"] [data-testid=flame-canvas]');
  // Pixels of the Find colour (#ff7043) on the canvas.
  const marked = () => page.evaluate(() => {
    const c = document.querySelector('[data-testid=flame-canvas]');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === 255 && d[i + 1] === 112 && d[i + 2] === 67) n++;
    return n;
  });
  const find = async (text) => {
    await page.fill('input[placeholder=function]', text);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    return marked();
  };
  const lower = await find('selectgo');
  assert.ok(lower > 100, `${lower} pixels marked`);
  assert.equal(await find('SELECTGO'), lower);
  assert.equal(await find('no function is called this'), 0);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('the MMU chart labels its windows as durations and has axis titles', async () => {
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  // The sample's length (1.002 s) follows the window of 1 s: their labels differ.
  for (const file of [SAMPLE, corpusTrace('go/go122-workload.trace')]) {
    await openFile(page, file);
    await show(page, '#/mmu', '[data-testid=mmu-windows] tbody tr');
    const cells = await page.$$eval('[data-testid=mmu-window]', (td) => td.map((x) => [x.textContent, x.title]));
    assert.ok(cells.length > 3);
    for (const [text, title] of cells) {
      assert.match(text, /^\d+(\.\d+)? (ns|µs|ms|s)$/, `"${text}" reads as a duration`);
      assert.match(title, /as Go writes it/);
    }
    const texts = cells.map(([text]) => text);
    assert.equal(new Set(texts).size, texts.length, `no two windows read alike: ${texts.join(', ')}`);
  }
  // Worst windows that begin apart read apart (1 µs windows 16 µs apart, 13 ms in), and
  // their utilization to the MMU's precision.
  await openFile(page, corpusTrace('go/fmt_1_21_pprof_good.trace'));
  await show(page, '#/mmu', '[data-testid=mmu-windows] tbody tr');
  const rows = await page.$$eval('[data-testid=mmu-windows] tbody tr', (trs) => trs.map((tr) => ({
    mmu: tr.children[1].textContent,
    worst: [...tr.querySelectorAll('[data-testid=worst-window]')].map((a) => [a.textContent, a.getAttribute('href')]),
  })));
  assert.ok(rows.some((r) => r.worst.length > 1));
  for (const { mmu, worst } of rows) {
    const hrefs = new Set(worst.map(([, h]) => h));
    assert.equal(new Set(worst.map(([t]) => t.split(':')[0])).size, hrefs.size, `worst windows read apart: ${worst.map(([t]) => t).join(', ')}`);
    if (worst.length) assert.equal(worst[0][0].split(': ')[1], mmu, 'the worst window is the MMU');
  }
  // A window picked (kept in the address) is read out with the pointer away, per proc too.
  await show(page, '#/mmu?window=1000000&perProc=1', '[data-testid=mmu-windows] tr.sel');
  await page.waitForFunction(() => /^window 1 ms: MMU \d/.test(document.querySelector('[data-testid=mmu-readout]').textContent));
  // Axis titles: text in the chart's left margin and under it (dark pixels there).
  const dark = await page.evaluate(() => {
    const c = document.querySelector('[data-testid=mmu-chart]');
    const dpr = window.devicePixelRatio || 1;
    const count = (x, y, w, h) => {
      const d = c.getContext('2d').getImageData(x * dpr, y * dpr, w * dpr, h * dpr).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] < 300) n++;
      return n;
    };
    return { left: count(2, 20, 18, c.clientHeight - 80), bottom: count(80, c.clientHeight - 16, c.clientWidth - 100, 15) };
  });
  assert.ok(dark.left > 30 && dark.bottom > 30, JSON.stringify(dark));
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('? shows the keys, the views beneath take none while it is open, and Esc or ? hides them', async () => {
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await openFile(page, SAMPLE);
  await show(page, '#/timeline', '[data-testid=timeline-canvas]');
  await timelineIdle(page);
  const view = () => page.evaluate(() => window.__gotraceTimeline.view());
  const before = await view();
  await page.keyboard.press('?');
  await page.waitForSelector('[data-testid=keyboard-help]');
  assert.match(await page.textContent('[data-testid=keyboard-help]'), /shift\+drag/);
  for (const key of ['w', 'w', 'd', 's', '/']) await page.keyboard.press(key);
  await timelineIdle(page);
  assert.deepEqual(await view(), before);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.testid ?? null), null);
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=keyboard-help]', { state: 'detached' });
  // Closed, the timeline's keys act again.
  await page.keyboard.press('w');
  await page.waitForFunction((t) => window.__gotraceTimeline.view().t1 - window.__gotraceTimeline.view().t0 < t, before.t1 - before.t0);
  await page.keyboard.press('?');
  await page.waitForSelector('[data-testid=keyboard-help]');
  await page.keyboard.press('?');
  await page.waitForSelector('[data-testid=keyboard-help]', { state: 'detached' });
  // The timeline's "? keys" opens them too.
  await page.click('[data-testid=timeline-keys]');
  await page.waitForSelector('[data-testid=keyboard-help]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=keyboard-help]', { state: 'detached' });
  // A checkbox clicked keeps the keys the app's (it has the focus then): W zooms, ? helps.
  await timelineIdle(page);
  const zoomed = await view();
  await page.click('[data-testid=flows-toggle]');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.testid), 'flows-toggle');
  await page.keyboard.press('w');
  await page.waitForFunction((t) => window.__gotraceTimeline.view().t1 - window.__gotraceTimeline.view().t0 < t, zoomed.t1 - zoomed.t0);
  await page.keyboard.press('?');
  await page.waitForSelector('[data-testid=keyboard-help]');
  await page.keyboard.press('Escape');
  // The search box still takes its letters.
  await page.click('[data-testid=search]');
  await page.keyboard.type('w?');
  assert.equal(await page.inputValue('[data-testid=search]'), 'w?');
  assert.equal(await page.locator('[data-testid=keyboard-help]').count(), 0);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('with the system in dark mode the page and the timeline are dark', async () => {
  const { page, problems, context } = await openPage(env.browser, env.site.url);
  await page.emulateMedia({ colorScheme: 'dark' });
  await openFile(page, SAMPLE);
  await show(page, '#/timeline', '[data-testid=timeline-canvas]');
  await timelineIdle(page);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r, g, b] = bg.match(/\d+/g).map(Number);
  assert.ok(hsl([r, g, b])[2] < 0.2, `the page is ${bg}`);
  // The label column and the plots' background.
  const { pixels } = await canvasPixels(page, { x: 2, y: 40, width: 4, height: 200 });
  const light = pixels.filter((p) => hsl(p)[2] > 0.5).length;
  assert.ok(light < pixels.length / 10, `${light} of ${pixels.length} light pixels`);
  // And back to light when the system is.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForFunction(() => getComputedStyle(document.body).backgroundColor !== 'rgb(17, 19, 23)');
  await timelineIdle(page);
  const after = await canvasPixels(page, { x: 2, y: 40, width: 4, height: 200 });
  assert.ok(after.pixels.filter((p) => hsl(p)[2] > 0.5).length > after.pixels.length / 2);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('at 1024 px wide the trace\'s name and the buttons stay in view', async () => {
  const { page, problems, context } = await openPage(env.browser, env.site.url, { width: 1024, height: 700 });
  await openFile(page, SAMPLE);
  await show(page, '#/timeline', '[data-testid=timeline-canvas]');
  // Every tab whole in the tabs' box (which would hide what overflows it).
  const tabs = await page.$$eval('.tab', (t) => {
    const box = document.querySelector('.tabs').getBoundingClientRect();
    return t.map((x) => x.getBoundingClientRect()).map((r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5);
  });
  assert.ok(tabs.length >= 7 && tabs.every(Boolean), `tabs in view: ${tabs}`);
  for (const sel of ['.trace-name', 'button[aria-label="Open trace…"]', 'button[aria-label="Open the sample"]', '.brand']) {
    const b = await page.locator(sel).boundingBox();
    assert.ok(b && b.width >= 40 && b.x >= 0 && b.x + b.width <= 1024, `${sel}: ${JSON.stringify(b)}`);
  }
  const name = await page.locator('.trace-name').boundingBox();
  assert.ok(name.width >= 80, `the name has ${name.width} px`);
  // The search box's hint reads whole.
  const hint = await page.evaluate(() => {
    const input = document.querySelector('[data-testid=search]');
    const css = getComputedStyle(input);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `${css.fontSize} ${css.fontFamily}`;
    return { text: input.placeholder, needs: ctx.measureText(input.placeholder).width, has: input.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) };
  });
  assert.ok(hint.needs <= hint.has, JSON.stringify(hint));
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scroll <= 1024, `the page is ${scroll} px wide`);
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('narrower than 1024 px the tabs scroll: the hiding side fades, and the active tab is brought into view; at 1440 px all fits', async () => {
  const { page, problems, context } = await openPage(env.browser, env.site.url, { width: 860, height: 700 });
  await openFile(page, SAMPLE);
  await show(page, '#/overview', '[data-testid=overview]');
  const state = () => page.$eval('[data-testid=tabs]', (nav) => {
    const box = nav.getBoundingClientRect();
    const active = nav.querySelector('.tab.active').getBoundingClientRect();
    return { classes: nav.className, scrolls: nav.scrollWidth > nav.clientWidth, activeInView: active.left >= box.left - 0.5 && active.right <= box.right + 0.5 };
  });
  let s = await state();
  assert.ok(s.scrolls, 'the tabs do not all fit at 860 px');
  assert.match(s.classes, /more-right/);
  assert.doesNotMatch(s.classes, /more-left/);
  assert.ok(s.activeInView);
  // The last tab's view: its tab scrolled in, the hidden side now the left.
  const last = await page.$$eval('[data-testid=tabs] .tab', (t) => t[t.length - 1].getAttribute('href'));
  await page.evaluate((h) => { location.hash = h; }, last);
  await page.waitForFunction(() => /more-left/.test(document.querySelector('[data-testid=tabs]').className));
  s = await state();
  assert.ok(s.activeInView, 'the active tab is in view');
  assert.doesNotMatch(s.classes, /more-right/);
  // At 1440 px everything fits: no fade, and the trace's name whole.
  await page.setViewportSize({ width: 1440, height: 700 });
  await page.waitForFunction(() => !/more-/.test(document.querySelector('[data-testid=tabs]').className));
  const name = await page.$eval('.trace-name', (e) => ({ text: e.textContent, whole: e.scrollWidth <= e.clientWidth }));
  assert.ok(name.whole, `"${name.text}" is cut`);
  assert.deepEqual(problems.errors, []);
  await context.close();
});
