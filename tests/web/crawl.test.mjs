// Every route of the app (the route registry: web/src/views/*/routes.js) on every trace
// of the corpus's go/ and newest/ folders, in one tab per trace: no console error, no
// page error, and no canvas smaller than its box. A route with parameters is opened
// with values the native CLI gives for the trace (a group, a goroutine, a task); each
// view is left once the page has no request in flight and shows no "Computing…". Each
// trace is opened over the one before in the same tab, and each view's figures are held
// to the CLI's for that trace (figures.mjs): a view still showing the trace before fails.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { newPage, useBrowser } from './browser.mjs';
import { corpusTrace, root } from './fixtures.mjs';
import { PROFILE_TYPES, checkedRoutes, cliFigures, figureMismatches } from './figures.mjs';
import { corpusDir } from '../js/corpus.mjs';


/** The paths the route registry names. */
function registeredPaths() {
  const views = path.join(root, 'web/src/views');
  const out = [];
  for (const dir of readdirSync(views)) {
    let text;
    try {
      text = readFileSync(path.join(views, dir, 'routes.js'), 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(/path: '([^']+)'/g)) out.push(m[1]);
  }
  return out;
}

/** The hashes to visit for a trace: every path, its parameters filled in from the
 *  CLI's figures (cliFigures). */
async function hashesFor(cli, paths) {
  const groups = (await cli.goroutines()).groups;
  const taskList = (await cli.tasks()).tasks ?? [];
  const out = [];
  for (const p of paths) {
    if (!p.includes(':')) {
      out.push(p);
      continue;
    }
    if (p === '/goroutines/group/:name') {
      const g = groups.find((x) => x.name);
      if (g) out.push(`/goroutines/group/${encodeURIComponent(g.name)}`);
    } else if (p === '/goroutine/:id') {
      const g = groups.find((x) => x.goroutines?.length);
      if (g) out.push(`/goroutine/${g.goroutines[0]}`);
    } else if (p === '/task/:id') {
      const t = taskList[0];
      if (t) out.push(`/task/${t.id}`);
    } else if (p === '/profiles/:type') {
      for (const type of PROFILE_TYPES) out.push(`/profiles/${type}`);
    } else {
      throw new Error(`the crawler has no values for ${p}: add them here`);
    }
  }
  return out;
}

// What a view shows until its answer comes.
const settled = () =>
  !window.__gotraceBusy?.() &&
  !document.querySelector('.gt-loading, [data-loading="1"], .progress') &&
  !/Building the timeline…/.test(document.querySelector('main')?.textContent ?? '') &&
  (!document.querySelector('[data-testid=timeline-canvas]') || window.__gotraceTimeline?.idle());

const afterPaint = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))));

// Canvases smaller than the box they are drawn in (CSS pixels, device pixels).
const smallCanvases = () => {
  const dpr = window.devicePixelRatio || 1;
  const out = [];
  for (const c of document.querySelectorAll('canvas')) {
    // The box inside the canvas's border.
    const r = { width: c.clientWidth, height: c.clientHeight };
    if (r.width === 0 && r.height === 0) continue; // not shown
    if (c.width < Math.floor(r.width * dpr) - 1 || c.height < Math.floor(r.height * dpr) - 1) {
      out.push(`${c.dataset.testid ?? c.className}: ${c.width}x${c.height} for ${r.width}x${r.height}`);
    }
  }
  const box = document.querySelector('[data-testid=timeline]');
  const tl = document.querySelector('[data-testid=timeline-canvas]');
  if (box && tl && tl.getBoundingClientRect().width < box.clientWidth - 1) {
    out.push(`timeline: ${tl.getBoundingClientRect().width} px wide in ${box.clientWidth}`);
  }
  return out;
};

const traces = ['go', 'newest'].flatMap((dir) =>
  readdirSync(path.join(corpusDir, dir)).filter((f) => f.endsWith('.trace')).sort().map((f) => `${dir}/${f}`));

const env = useBrowser();
const paths = registeredPaths();

// Tabs reused from one trace to the next (each trace is opened over the one before, as a
// person would): one per trace crawled at a time. A tab that saw a problem is closed.
const idle = [];
async function takeTab() {
  if (idle.length) return idle.pop();
  const tab = await newPage(env.browser, { width: 1280, height: 800 });
  await tab.page.goto(env.site.url);
  return tab;
}
async function giveBack(tab, clean) {
  if (clean) idle.push(tab);
  else await tab.context.close();
}

test('the registry has the app\'s routes', () => {
  for (const p of ['/overview', '/timeline', '/goroutines', '/tasks', '/regions', '/profiles/:type', '/mmu']) assert.ok(paths.includes(p), p);
  // Every route whose figures are checked is one the crawler visits.
  for (const r of checkedRoutes()) assert.ok(paths.includes(r) || paths.includes(r.replace(/[^/]+$/, ':type')), r);
});

// Two traces at a time (the page's work is in its own worker).
describe('every route', { concurrency: 2 }, () => {
  traces.forEach((name, i) => {
    test(`every route on ${name}`, async () => {
      const file = corpusTrace(name);
      // Traces the CLI cannot read whole (truncated, broken) still open, with a warning.
      let hashes;
      let cli = cliFigures(file, PROFILE_TYPES[i % PROFILE_TYPES.length]);
      try {
        hashes = await hashesFor(cli, paths);
      } catch {
        hashes = paths.filter((p) => !p.includes(':'));
        cli = null;  // no figures to hold the views to
      }
      const tab = await takeTab();
      const { page, problems } = tab;
      let clean = false;
      try {
        await page.setInputFiles('[data-testid=file-input]', file);
        await page.waitForFunction(
          (n) => (document.querySelector('.trace-name')?.textContent === n && !document.querySelector('.progress')) ||
            document.querySelector('[data-testid=error]'),
          path.basename(file), { timeout: 60_000 });
        if (await page.$('[data-testid=error]')) {
          // A file of the corpus no reader takes: the error is the view.
          assert.deepEqual(problems.errors, []);
          return;
        }
        const seen = [];
        const wrong = [];
        for (const hash of hashes) {
          await page.evaluate((h) => { location.hash = h; }, '#' + hash);
          // Settled, and still so once the effects run after the next paint have sent
          // their requests.
          await page.waitForFunction(settled, null, { timeout: 60_000, polling: 20 });
          await page.evaluate(afterPaint);
          await page.waitForFunction(settled, null, { timeout: 60_000, polling: 20 });
          const small = await page.evaluate(smallCanvases);
          seen.push(...small.map((s) => `${hash}: ${s}`));
          assert.deepEqual(problems.errors, [], `after ${hash}`);
          if (cli) wrong.push(...await figureMismatches(page, hash, cli));
        }
        assert.deepEqual(seen, []);
        assert.deepEqual(wrong, [], 'each view shows this trace\'s figures, not those of the trace before');
        clean = !(await page.$('[data-testid=error]'));
      } finally {
        await giveBack(tab, clean);
      }
    });
  });
});
