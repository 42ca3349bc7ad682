// The web app in Chromium: open (file input, gzip, errors), overview figures against the
// CLI, the timeline canvas, zoom and pan, slice details, hostile strings, deep links and
// the Content Security Policy.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { launch, newPage, startSite } from './browser.mjs';
import { reloadKept } from './pages.mjs';
import { HOSTILE, SAMPLE, gotrace, makeFixtures } from './fixtures.mjs';

let site;
let browser;
let files;
const stats = JSON.parse(gotrace('stats', '--json', SAMPLE));
const goroutines = JSON.parse(gotrace('goroutines', '--json', SAMPLE));

before(async () => {
  files = makeFixtures();
  site = await startSite();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await site?.close();
  if (files) rmSync(files.dir, { recursive: true, force: true });
});

const count = (s) => Number(String(s).replace(/[^0-9]/g, ''));

async function openPage() {
  const p = await newPage(browser);
  await p.page.goto(site.url);
  return p;
}

async function openFile(page, file) {
  await page.setInputFiles('[data-testid=file-input]', file);
}

async function openSample(page) {
  await openFile(page, SAMPLE);
  await page.waitForSelector('[data-testid=overview]', { timeout: 60_000 });
}

/** A new page with the sample's timeline shown and settled. */
async function openSampleTimeline() {
  const p = await openPage();
  await openSample(p.page);
  await p.page.evaluate(() => (location.hash = '#/timeline'));
  await p.page.waitForSelector('[data-testid=timeline-canvas]');
  await timelineIdle(p.page);
  return p;
}

const viewOf = (page) => page.evaluate(() => window.__gotraceTimeline.view());

function hashQuery(url) {
  const h = new URL(url).hash;
  const q = h.indexOf('?');
  return Object.fromEntries(new URLSearchParams(q < 0 ? '' : h.slice(q + 1)));
}

async function timelineIdle(page) {
  await page.waitForFunction(() => window.__gotraceTimeline?.idle(), null, { timeout: 60_000 });
  await page.waitForTimeout(50);
}

/** Pixels of a canvas region that are not white, and how many distinct colours. */
async function ink(page, rect) {
  return page.evaluate((r) => {
    const c = document.querySelector('[data-testid=timeline-canvas]');
    const dpr = window.devicePixelRatio || 1;
    const ctx = c.getContext('2d');
    const x = Math.round((r?.x ?? 0) * dpr);
    const y = Math.round((r?.y ?? 0) * dpr);
    const w = Math.round((r?.width ?? c.width / dpr) * dpr);
    const h = Math.round((r?.height ?? c.height / dpr) * dpr);
    const d = ctx.getImageData(x, y, w, h).data;
    let inked = 0;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] < 245 || d[i + 1] < 245 || d[i + 2] < 245) inked++;
      colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    }
    return { inked, total: w * h, colours: colours.size };
  }, rect);
}

test('the file input opens the sample and the overview shows the CLI figures', async () => {
  const { page, problems, context } = await openPage();
  await openSample(page);
  const text = async (k) => page.locator(`[data-stat=${k}] .card-value`).textContent();
  assert.equal(count(await text('goroutines')), stats.goroutines);
  assert.equal(count(await text('events')), stats.events);
  assert.equal(count(await text('procs')), stats.procs);
  assert.equal(count(await text('threads')), stats.threads);
  assert.equal(count(await text('gcs')), stats.gcs);
  assert.equal((await text('go-version')).trim(), stats.format.go_version);
  assert.deepEqual(problems, { errors: [], dialogs: [], csp: [] });
  await context.close();
});

test('a gzipped trace is inflated in the browser', async () => {
  const { page, context } = await openPage();
  await openFile(page, files.gz);
  await page.waitForSelector('[data-testid=overview]', { timeout: 60_000 });
  assert.equal(count(await page.locator('[data-stat=goroutines] .card-value').textContent()), stats.goroutines);
  await context.close();
});

test('a malformed file shows an error, and a valid file opened next works', async () => {
  const { page, problems, context } = await openPage();
  for (const bad of [files.junk, files.bad]) {
    await openFile(page, bad);
    const err = page.locator('[data-testid=error]');
    await err.waitFor({ timeout: 30_000 });
    const message = await err.textContent();
    assert.match(message, /Could not open/);
    assert.ok(message.length > 30, message);
  }
  await openSample(page);
  assert.equal(await page.locator('[data-testid=error]').count(), 0);
  assert.equal(count(await page.locator('[data-stat=goroutines] .card-value').textContent()), stats.goroutines);
  assert.deepEqual(problems.dialogs, []);
  await context.close();
});

test('the timeline canvas is drawn', async () => {
  const { page, context } = await openSampleTimeline();
  const proc = await page.evaluate(() => window.__gotraceTimeline.rowRect('proc:0'));
  assert.ok(proc, 'proc 0 has a row');
  const lane = await ink(page, proc);
  assert.ok(lane.inked > lane.total * 0.2, `proc 0 lane is drawn: ${JSON.stringify(lane)}`);
  assert.ok(lane.colours > 10, `goroutines in several colours: ${lane.colours}`);
  const all = await ink(page);
  assert.ok(all.colours > 30, `the canvas has many colours: ${all.colours}`);
  await context.close();
});

test('zoom and pan change the visible range', async () => {
  const { page, context } = await openSampleTimeline();
  const view = () => viewOf(page);
  const full = await view();
  await page.keyboard.press('w');
  await page.keyboard.press('w');
  const zoomed = await view();
  assert.ok(zoomed.t1 - zoomed.t0 < (full.t1 - full.t0) * 0.7, 'W zooms in');
  await page.keyboard.press('d');
  const panned = await view();
  assert.ok(panned.t0 > zoomed.t0, 'D pans right');
  assert.ok(Math.abs(panned.t1 - panned.t0 - (zoomed.t1 - zoomed.t0)) < 1e3, 'panning keeps the span');
  const box = await page.locator('[data-testid=timeline-canvas]').boundingBox();
  await page.mouse.move(box.x + 700, box.y + 200);
  // The wheel events the page gets, counted before the timeline's own listener sees them.
  await page.evaluate(() => {
    window.__wheels = 0;
    window.addEventListener('wheel', () => window.__wheels++, { capture: true, passive: true });
  });
  const changed = (span) => page.waitForFunction((was) => {
    const v = window.__gotraceTimeline.view();
    return v.t1 - v.t0 !== was;
  }, span, { timeout: 10_000 }).then(() => true, () => false);
  await page.mouse.wheel(0, 400);
  // The wheel's events may come late (on a busy machine, after the first look) and in
  // pieces: the view once it has changed and stops changing. One the browser never
  // delivered to the page (none counted) is the harness's loss: sent again.
  if (!(await changed(panned.t1 - panned.t0)) && (await page.evaluate(() => window.__wheels)) === 0) {
    await page.mouse.move(box.x + 700, box.y + 200);
    await page.mouse.wheel(0, 400);
    await changed(panned.t1 - panned.t0);
  }
  const under = await page.evaluate(([x, y]) => {
    const e = document.elementFromPoint(x, y);
    return `${e?.tagName}.${e?.className} (wheel events seen: ${window.__wheels})`;
  }, [box.x + 700, box.y + 200]);
  let wheeled = await view();
  for (let i = 0; i < 50; i++) {
    await page.waitForTimeout(50);
    const now = await view();
    if (now.t0 === wheeled.t0 && now.t1 === wheeled.t1) break;
    wheeled = now;
  }
  assert.ok(wheeled.t1 - wheeled.t0 > panned.t1 - panned.t0,
    `the wheel zooms out: span ${panned.t1 - panned.t0} then ${wheeled.t1 - wheeled.t0}; under the pointer ${under}`);
  await page.mouse.move(box.x + 600, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + 800, box.y + 200, { steps: 5 });
  await page.mouse.up();
  const dragged = await view();
  assert.ok(dragged.t0 < wheeled.t0, 'dragging right pans left');
  // The URL follows.
  await page.waitForFunction((t0) => location.hash.includes(`t0=${Math.round(t0)}`), dragged.t0);
  await timelineIdle(page);
  const lane = await ink(page, await page.evaluate(() => window.__gotraceTimeline.rowRect('proc:0')));
  assert.ok(lane.inked > 0, 'still drawn after zooming');
  await context.close();
});

test('a zoom made while the address is written is kept: the view does not go back to the address', async () => {
  const { page, context } = await openSampleTimeline();
  const view = () => viewOf(page);
  await page.keyboard.press('w');
  await page.keyboard.press('d');
  // The pan's address is written a moment later; S (or a wheel) zooms out right then.
  const { panned, zoomed } = await page.evaluate(() => new Promise((resolve) => {
    const write = history.replaceState;
    history.replaceState = function (...args) {
      write.apply(this, args);
      if (!/^#\/timeline\?.*t0=/.test(location.hash)) return;
      history.replaceState = write;
      const before = window.__gotraceTimeline.view();
      window.__gotraceTimeline.zoom(1.25);
      resolve({ panned: before, zoomed: window.__gotraceTimeline.view() });
    };
  }));
  assert.ok(zoomed.t1 - zoomed.t0 > (panned.t1 - panned.t0) * 1.2, 'S zooms out');
  // The zoom's own address follows, and the view stays zoomed out.
  await page.waitForFunction((t1) => location.hash.includes(`t1=${Math.round(t1)}`), zoomed.t1, { timeout: 10_000 });
  await timelineIdle(page);
  const now = await view();
  assert.ok(Math.abs(now.t0 - zoomed.t0) <= 1 && Math.abs(now.t1 - zoomed.t1) <= 1,
    `the view is the zoom's ${zoomed.t0}–${zoomed.t1}, not the address's before it: ${now.t0}–${now.t1}`);
  await context.close();
});

/** Clicks along a row until the details panel shows a stack. */
async function clickForStack(page, key) {
  const box = await page.locator('[data-testid=timeline-canvas]').boundingBox();
  const r = await page.evaluate((k) => window.__gotraceTimeline.rowRect(k), key);
  assert.ok(r, `row ${key} is laid out`);
  for (let x = r.x + 3; x < r.x + r.width; x += 9) {
    await page.mouse.click(box.x + x, box.y + r.y + r.height / 2);
    // The details come from the worker: once the click's effects have sent their request
    // and no request is in flight, the panel shows what this click found.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0)))));
    await page.waitForFunction(() => !window.__gotraceBusy?.(), null, { timeout: 60_000, polling: 20 });
    if (await page.$('[data-testid=details] [data-testid=stack]')) return;
  }
  assert.fail(`no slice with a stack in row ${key}`);
}

test('clicking a slice opens its details with a stack, and a deep link restores the view', async () => {
  const { page, problems, context } = await openPage();
  await openSample(page);
  const group = goroutines.groups.find((g) => g.name === 'net/http.(*conn).serve');
  const g = group.goroutines[0];
  await page.evaluate((id) => (location.hash = `#/timeline?g=${id}`), g);
  await page.waitForFunction((id) => window.__gotraceTimeline?.rowRect(`goroutine:${id}`), g);
  await page.keyboard.press('w');
  await timelineIdle(page);
  await clickForStack(page, `goroutine:${g}`);
  const details = await page.locator('[data-testid=details]').textContent();
  assert.match(details, new RegExp(`G${g}`));
  assert.match(details, /Duration/);
  const frames = await page.locator('[data-testid=details] [data-testid=stack] li').count();
  assert.ok(frames > 0);
  await page.waitForFunction(() => /sel=goroutine/.test(decodeURIComponent(location.hash)));
  await page.waitForTimeout(300);
  const before = hashQuery(page.url());
  assert.ok(before.sel && before.t0 && before.t1, page.url());
  const detailsBefore = await page.locator('[data-testid=details]').textContent();

  await reloadKept(page);
  await page.waitForSelector('[data-testid=details] [data-testid=stack]', { timeout: 60_000 });
  await timelineIdle(page);
  const afterView = await page.evaluate(() => window.__gotraceTimeline.view());
  assert.equal(Math.round(afterView.t0), Number(before.t0));
  assert.equal(Math.round(afterView.t1), Number(before.t1));
  assert.equal(await page.locator('[data-testid=details]').textContent(), detailsBefore);
  assert.ok(await page.evaluate((id) => window.__gotraceTimeline.rowRect(`goroutine:${id}`), g), 'the lane is open again');
  assert.deepEqual(problems.errors, []);
  await context.close();
});

test('a ?url= deep link reopens the trace and the view', async () => {
  const { page, context } = await newPage(browser);
  await page.goto(`${site.url}?url=go123-workload.trace#/overview`);
  await page.waitForSelector('[data-testid=overview]', { timeout: 60_000 });
  assert.equal(count(await page.locator('[data-stat=goroutines] .card-value').textContent()), stats.goroutines);
  await page.goto(`${site.url}?url=go123-workload.trace#/timeline?t0=${stats.time.start + 1e8}&t1=${stats.time.start + 2e8}`);
  await page.waitForSelector('[data-testid=timeline-canvas]', { timeout: 60_000 });
  const v = await page.evaluate(() => window.__gotraceTimeline.view());
  assert.equal(Math.round(v.t0), stats.time.start + 1e8);
  assert.equal(Math.round(v.t1), stats.time.start + 2e8);
  await context.close();
});

test('hostile strings in a trace are shown as text, never run', async () => {
  const { page, problems, context } = await openPage();
  await openFile(page, files.hostile);
  await page.waitForSelector('[data-testid=overview]', { timeout: 60_000 });
  const hostile = JSON.parse(gotrace('goroutines', '--json', files.hostile));
  const group = hostile.groups.find((x) => x.name === HOSTILE);
  assert.ok(group, 'the CLI sees the renamed group');
  const g = group.goroutines[0];
  await page.evaluate((id) => (location.hash = `#/timeline?g=${id}`), g);
  await page.waitForFunction((id) => window.__gotraceTimeline?.rowRect(`goroutine:${id}`), g);
  await timelineIdle(page);
  await clickForStack(page, `goroutine:${g}`);
  const stackText = (await page.locator('[data-testid=details] [data-testid=stack]').allTextContents()).join('\n');
  assert.ok(stackText.includes(HOSTILE), `the stack shows the string literally: ${stackText}`);
  assert.equal(await page.locator('img').count(), 0, 'no element was made from trace text');
  await page.waitForTimeout(300);
  assert.deepEqual(problems.dialogs, []);
  await context.close();
});

test('the Content Security Policy blocks other origins and allows the page', async () => {
  const { page, problems, context } = await openPage();
  const blocked = await page.evaluate(async () => {
    try {
      await fetch('http://127.0.0.2:9/x');
      return 'fetched';
    } catch (e) {
      return 'blocked';
    }
  });
  assert.equal(blocked, 'blocked');
  assert.ok(problems.csp.some((m) => /connect-src/.test(m)), JSON.stringify(problems.csp));
  const policies = await page.evaluate(() =>
    [...document.querySelectorAll('meta[http-equiv="Content-Security-Policy"]')].map((m) => m.content),
  );
  assert.ok(policies.some((p) => p.includes("script-src 'self' 'wasm-unsafe-eval'")), policies.join(' | '));
  assert.ok(policies.includes("connect-src 'self'"), policies.join(' | '));
  await context.close();
});

test("the page's workers live under its policy: none of them reaches another origin", async () => {
  // A server that would answer anyone (CORS open): only the policy can stop a fetch.
  const asked = [];
  const server = createServer((req, res) => {
    asked.push(req.url);
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*' });
    res.end('x');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { page, context } = await openPage();
    await openFile(page, SAMPLE);
    // The timeline drawn: its strips' worker started too, where the browser has one.
    await page.evaluate(() => { location.hash = '#/timeline'; });
    await page.waitForSelector('[data-testid=timeline]', { timeout: 30_000 });
    await page.waitForTimeout(1500);
    const workers = page.workers();
    // The trace's worker at least (the strips' worker where the browser has OffscreenCanvas).
    assert.ok(workers.length >= 1, 'a worker runs');
    const other = `http://127.0.0.1:${server.address().port}/from-worker`;
    for (const w of workers) {
      assert.match(w.url(), /^blob:/, 'started from a blob: URL, which inherits the page\'s policy');
      const outcome = await w.evaluate(async (u) => {
        try {
          await fetch(u);
          return 'fetched';
        } catch {
          return 'blocked';
        }
      }, other);
      assert.equal(outcome, 'blocked', w.url());
    }
    assert.deepEqual(asked, [], 'the other origin was never asked');
    await context.close();
  } finally {
    server.close();
  }
});
