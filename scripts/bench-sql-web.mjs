// The web app's SQL view on a large trace in headless Chromium: time from choosing the
// file (with the SQL view open) to the view ready (DuckDB-Wasm started, the tables'
// schema known), then the first query of each example (each loads the tables it names
// the first time), and the tab's peak memory (resident memory of the renderer
// processes, sampled every 100 ms). Prints figures; run web/build.sh first.
//   node scripts/bench-sql-web.mjs [TRACE]   (default /work/data/large.trace)
import { launch, newPage, startSite } from '../tests/web/browser.mjs';
import { rendererRss } from './renderer-memory.mjs';
import { EXAMPLES } from '../web/src/views/sql/examples.js';

const trace = process.argv[2] ?? '/work/data/large.trace';

const site = await startSite();
const browser = await launch();
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, rendererRss())), 100);
try {
  const { page, problems } = await newPage(browser, { width: 1440, height: 900 });
  await page.goto(`${site.url}#/sql`);
  const t0 = Date.now();
  await page.setInputFiles('[data-testid=file-input]', trace);
  await page.waitForSelector('[data-testid=sql-view][data-ready="1"], [data-testid=sql-error]', { timeout: 600_000 });
  const ready = Date.now() - t0;
  const viewReady = Number(await page.getAttribute('[data-testid=sql-view]', 'data-ready-ms'));
  console.log(`trace                          ${trace}`);
  console.log(`choose file → SQL view ready   ${(ready / 1000).toFixed(2)} s   (goal ≤ 10 s; of which the view's own start: ${(viewReady / 1000).toFixed(2)} s)`);
  for (const example of EXAMPLES) {
    await page.fill('[data-testid=sql-editor]', example.sql);
    const t1 = Date.now();
    await page.click('[data-testid=sql-run]');
    await page.waitForFunction(
      (q) => document.querySelector('[data-testid=sql-editor]').value === q && document.querySelector('[data-testid=sql-status]')?.dataset.ms,
      example.sql, { timeout: 600_000, polling: 50 });
    const error = await page.$('[data-testid=sql-error]');
    const rows = await page.getAttribute('[data-testid=sql-row-count]', 'data-rows').catch(() => null);
    const label = `first "${example.label}"`.padEnd(30);
    console.log(`${label} ${((Date.now() - t1) / 1000).toFixed(2)} s   ${error ? `error: ${await error.textContent()}` : `${rows} rows`}`);
  }
  const again = EXAMPLES[EXAMPLES.length - 1];
  await page.fill('[data-testid=sql-editor]', `${again.sql}\n`);
  const t2 = Date.now();
  await page.click('[data-testid=sql-run]');
  await page.waitForFunction(
    (q) => document.querySelector('[data-testid=sql-editor]').value === q && document.querySelector('[data-testid=sql-status]')?.dataset.ms,
    `${again.sql}\n`, { timeout: 600_000, polling: 50 });
  console.log(`${`"${again.label}" again`.padEnd(30)} ${((Date.now() - t2) / 1000).toFixed(2)} s   (its tables loaded)`);
  // A result of every event: kept in DuckDB, paged and sorted there.
  const all = 'SELECT * FROM events';
  await page.fill('[data-testid=sql-editor]', all);
  const t3 = Date.now();
  await page.click('[data-testid=sql-run]');
  await page.waitForFunction(
    (q) => document.querySelector('[data-testid=sql-editor]').value === q && document.querySelector('[data-testid=sql-status]')?.dataset.ms &&
      document.querySelector('[data-testid=sql-table] tbody tr, [data-testid=sql-error]'),
    all, { timeout: 600_000, polling: 50 });
  const allError = await page.$('[data-testid=sql-error]');
  console.log(`${'"SELECT * FROM events"'.padEnd(30)} ${((Date.now() - t3) / 1000).toFixed(2)} s   ${allError ? `error: ${await allError.textContent()}` : `${await page.getAttribute('[data-testid=sql-row-count]', 'data-rows')} rows, first page shown`}`);
  if (!allError) {
    const t4 = Date.now();
    await page.click('th[data-column=time]');
    await page.click('th[data-column=time]');
    await page.waitForFunction(() => document.querySelector('th[data-column=time]')?.getAttribute('aria-sort') === 'descending' &&
      document.querySelector('[data-testid=sql-table] tbody tr'), null, { timeout: 600_000, polling: 50 });
    console.log(`${'its page sorted by time'.padEnd(30)} ${((Date.now() - t4) / 1000).toFixed(2)} s   (two sorts: ascending, then descending)`);
  }
  console.log(`peak renderer memory           ${(peak / 1048576).toFixed(0)} MiB`);
  if (problems.errors.length) console.log(`page errors: ${problems.errors.join('; ')}`);
} finally {
  clearInterval(sampler);
  await browser.close();
  await site.close();
}
