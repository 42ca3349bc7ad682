// Screenshots of the overview and the timeline for the README (docs/screenshots/),
// taken in headless Chromium from the built site (run web/build.sh first).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, newPage, startSite } from '../tests/web/browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = (name) => path.join(root, 'docs/screenshots', name);
const site = await startSite();
const browser = await launch();
try {
  const { page } = await newPage(browser, { width: 1440, height: 900 });
  await page.goto(site.url);
  await page.setInputFiles('[data-testid=file-input]', path.join(root, 'public/go123-workload.trace'));
  await page.waitForSelector('[data-testid=overview]', { timeout: 60_000 });
  await page.screenshot({ path: out('overview.png') });
  await page.evaluate(() => (location.hash = '#/timeline?g=46'));
  await page.waitForFunction(() => window.__gotraceTimeline?.rowRect('goroutine:46'), null, { timeout: 60_000 });
  await page.waitForFunction(() => window.__gotraceTimeline.idle());
  await page.keyboard.press('w');
  await page.keyboard.press('w');
  await page.waitForTimeout(300);
  await page.waitForFunction(() => window.__gotraceTimeline.idle());
  const box = await page.locator('[data-testid=timeline-canvas]').boundingBox();
  const r = await page.evaluate(() => window.__gotraceTimeline.rowRect('goroutine:46'));
  for (let x = r.x + 300; x < r.x + r.width; x += 7) {
    await page.mouse.click(box.x + x, box.y + r.y + r.height / 2);
    const ok = await page.waitForSelector('[data-testid=details] [data-testid=stack]', { timeout: 800 }).then(() => true, () => false);
    if (ok) break;
  }
  await page.waitForFunction(() => window.__gotraceTimeline.idle());
  await page.mouse.move(box.x + r.x + 500, box.y + 200);
  await page.waitForTimeout(200);
  await page.screenshot({ path: out('timeline.png') });

  // The same trace with the system in dark mode, a goroutine group open and scrolled
  // under its pinned header, a 1024 px wide window.
  const dark = await newPage(browser, { width: 1024, height: 768 });
  await dark.page.emulateMedia({ colorScheme: 'dark' });
  await dark.page.goto(`${site.url}?url=go123-workload.trace#/timeline`);
  await dark.page.waitForFunction(() => window.__gotraceTimeline?.idle(), null, { timeout: 60_000 });
  const group = await dark.page.evaluate(() => {
    const t = window.__gotraceTimeline;
    return t.rowKeys().find((k, i) => k.startsWith('group:') && t.rowLabels()[i].includes('main.main.func3'));
  });
  // The group's header near the top, then open.
  const at = await dark.page.evaluate((k) => window.__gotraceTimeline.rowRect(k), group);
  await dark.page.evaluate((dy) => { document.querySelector('[data-testid=timeline]').scrollTop += dy; }, at.y - 120);
  await dark.page.waitForFunction(() => window.__gotraceTimeline.idle());
  const g = await dark.page.evaluate((k) => window.__gotraceTimeline.rowRect(k), group);
  const dbox = await dark.page.locator('[data-testid=timeline-canvas]').boundingBox();
  await dark.page.mouse.click(dbox.x + 20, dbox.y + g.y + g.height / 2);
  await dark.page.waitForFunction((k) => window.__gotraceTimeline.rowLabels()[window.__gotraceTimeline.rowKeys().indexOf(k)].startsWith('▾'), group);
  await dark.page.evaluate((dy) => { document.querySelector('[data-testid=timeline]').scrollTop += dy; }, g.y - 26 + g.height + 40);
  await dark.page.mouse.move(dbox.x + 600, dbox.y + 30);  // no tooltip over the lanes
  await dark.page.waitForFunction(() => window.__gotraceTimeline.idle());
  await dark.page.waitForTimeout(300);
  await dark.page.screenshot({ path: out('timeline-dark.png') });
  console.log('wrote docs/screenshots/overview.png, timeline.png and timeline-dark.png');
} finally {
  await browser.close();
  await site.close();
}
