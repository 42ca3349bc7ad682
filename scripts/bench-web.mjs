// The web app on a large trace in headless Chromium: time from choosing the file to the
// first timeline paint, the tab's peak memory (resident memory of the renderer
// processes, sampled every 100 ms: the page, its worker and the wasm heap), and frame
// times while panning and zooming. Prints figures; run web/build.sh first.
//   node scripts/bench-web.mjs [TRACE] [--part-events=N | --whole]   (default /work/data/large.trace)
// With --part-events, the trace opens in parts of at most N events whatever its size (as
// a trace over the worker's size limit does); with --whole, whole whatever its size (as
// "Open it whole" does). With --views, every view is then opened
// in turn (overview, goroutines, the largest group, tasks, regions, profiles, MMU) and
// the peak memory is given again over the whole walk, with each view's time to show (in
// parts, once the whole trace is read: those views then show all of it).
import { launch, newPage, startSite } from '../tests/web/browser.mjs';
import { rendererMemory } from './renderer-memory.mjs';

const args = process.argv.slice(2);
const partEvents = Number(args.find((a) => a.startsWith('--part-events='))?.split('=')[1] ?? 0);
const trace = args.find((a) => !a.startsWith('--')) ?? '/work/data/large.trace';
const walkViews = args.includes('--views');
const openWhole = args.includes('--whole');

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

// The trace worker's WebAssembly heap (null if none is found).
async function wasmHeap(page) {
  for (const worker of page.workers()) {
    const heap = await worker.evaluate(() => self.gotraceHeap?.() ?? null).catch(() => null);
    if (heap) return heap;
  }
  return null;
}

const site = await startSite();
const browser = await launch();
let peak = 0;
let peakPrivate = 0;
const sampler = setInterval(() => {
  const m = rendererMemory();
  peak = Math.max(peak, m.rss);
  peakPrivate = Math.max(peakPrivate, m.private);
}, 100);
try {
  const { page } = await newPage(browser, { width: 1440, height: 900 });
  await page.goto(`${site.url}#/timeline`);
  if (partEvents > 0 || openWhole) {
    for (let i = 0; i < 100 && page.workers().length === 0; i++) await page.waitForTimeout(100);
    const worker = page.workers().find((w) => /gotrace|blob:/.test(w.url()));
    if (!worker) throw new Error('the trace worker did not start');
    await worker.evaluate(
      ([n, whole]) => {
        self.gotracePartBytes = whole ? Infinity : 0;
        self.gotracePartEvents = n;
      },
      [partEvents, openWhole],
    );
  }
  const t0 = Date.now();
  await page.setInputFiles('[data-testid=file-input]', trace);
  await page.waitForFunction(
    () => window.__gotraceTimeline?.idle() && Number(document.querySelector('[data-testid=timeline-canvas]')?.dataset.painted) > 1,
    null,
    { timeout: 300_000, polling: 20 },
  );
  const firstPaint = Date.now() - t0;
  // In parts, when the rest of the trace is read (in the background, while the timeline is used).
  const inParts = (await page.locator('[data-testid=part-bar]').count()) > 0;
  // Waited for only by the walk of the views: a wait left pending when the browser closes
  // fails, and ended the run with an unhandled rejection after its figures.
  const read = inParts && walkViews
    ? page.waitForSelector('[data-testid=part-reading]', { state: 'detached', timeout: 600_000 }).then(() => Date.now() - t0)
    : null;
  const opened = await page.evaluate(() => performance.now());
  // Pan and zoom for a while: drags, wheel zooms and keys.
  await page.evaluate(() => {
    window.__frames = [];
    let last = performance.now();
    const tick = (t) => {
      window.__frames.push(t - last);
      last = t;
      if (!window.__stopFrames) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    window.__gotraceTimeline.frameStats().length = 0;
  });
  const box = await page.locator('[data-testid=timeline-canvas]').boundingBox();
  const cx = box.x + box.width / 2;
  const cy = box.y + 300;
  for (let round = 0; round < 4; round++) {
    for (let i = 0; i < 6; i++) {
      await page.mouse.move(cx, cy);
      await page.mouse.wheel(0, -120);
      await page.waitForTimeout(16);
    }
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    for (let i = 0; i < 30; i++) {
      await page.mouse.move(cx + (round % 2 ? -1 : 1) * i * 12, cy);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press(round % 2 ? 'a' : 'd');
      await page.waitForTimeout(16);
    }
  }
  for (let i = 0; i < 20; i++) {
    await page.mouse.wheel(0, 150);
    await page.waitForTimeout(16);
  }
  await page.waitForFunction(() => window.__gotraceTimeline.idle(), null, { timeout: 120_000 });
  const { draws, frames, stats } = await page.evaluate(() => {
    window.__stopFrames = true;
    return {
      draws: [...window.__gotraceTimeline.frameStats()],
      frames: window.__frames.slice(1),
      stats: null,
    };
  });
  void stats;
  void opened;
  const mb = (b) => (b / 1048576).toFixed(0);
  const timelinePeak = { private: peakPrivate, rss: peak };
  const viewTimes = [];
  // In parts, the views walked show the whole trace once it is read: the walk waits for that.
  let wholeRead = null;
  if (walkViews && inParts) wholeRead = await read;
  if (walkViews) {
    const walk = [
      ['overview', '#/overview', '[data-testid=overview]'],
      ['goroutines', '#/goroutines', '[data-testid=groups-table]'],
      ['the largest group', null, '[data-testid=group-goroutines]'],
      ['tasks', '#/tasks', '[data-testid=tasks-view]'],
      ['regions', '#/regions', '[data-testid=regions-view]'],
      ['profiles', '#/profiles/sync', '[data-testid=flame-total]'],
      ['MMU', '#/mmu', '[data-testid=mmu-flags-text]'],
    ];
    for (const [name, hash, selector] of walk) {
      const t = Date.now();
      if (hash) {
        await page.evaluate((h) => { location.hash = h; }, hash);
      } else {
        // The group of the most goroutines: the first row, sorted by count (a numeric
        // column sorts descending at its first click).
        await page.click('[data-testid=groups-table] th >> text=Goroutines');
        await page.click('[data-testid=group-link] >> nth=0');
      }
      await page.waitForSelector(selector, { timeout: 300_000 });
      // In parts: whether the view shows the whole trace or the part (its scope line).
      const scope = await page.locator('[data-testid=scope-note]').first().getAttribute('data-scope', { timeout: 100 }).catch(() => null);
      viewTimes.push(`${name} ${((Date.now() - t) / 1000).toFixed(2)} s${scope ? ` (${scope === 'whole' ? 'whole trace' : 'part'})` : ''}`);
    }
  }
  console.log(`trace                      ${trace}${partEvents ? ` (in parts of at most ${partEvents} events)` : openWhole ? ' (whole)' : ''}`);
  console.log(`choose file → first paint  ${(firstPaint / 1000).toFixed(2)} s   (the 94 MB trace's goal: ≤ 2 s)`);
  console.log(`peak renderer memory       ${mb(timelinePeak.private)} MiB private (anon + shmem), ${mb(timelinePeak.rss)} MiB resident (with Chromium's files, once per renderer)`);
  if (wholeRead !== null) console.log(`whole trace read           ${(wholeRead / 1000).toFixed(2)} s after the file was chosen (its summaries and MMU made)`);
  if (walkViews) {
    console.log(`views opened               ${viewTimes.join(', ')}`);
    console.log(`peak memory, every view    ${mb(peakPrivate)} MiB private, ${mb(peak)} MiB resident`);
  }
  const heap = await wasmHeap(page);
  if (heap) console.log(`WebAssembly heap           ${mb(heap.bytes)} MiB (in use ${mb(heap.inUse)}, free ${mb(heap.free)}): the rest of the tab is its pages, workers and Chromium`);
  console.log(`timeline draw time         p50 ${pct(draws, 50).toFixed(2)} ms, p95 ${pct(draws, 95).toFixed(2)} ms, max ${Math.max(...draws).toFixed(2)} ms over ${draws.length} frames (goal p95 ≤ 16 ms)`);
  console.log(`frame interval (rAF)       p50 ${pct(frames, 50).toFixed(1)} ms, p95 ${pct(frames, 95).toFixed(1)} ms over ${frames.length} frames`);
} finally {
  clearInterval(sampler);
  await browser.close();
  await site.close();
}
