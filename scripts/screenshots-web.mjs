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
  console.log('wrote docs/screenshots/overview.png and timeline.png');
} finally {
  await browser.close();
  await site.close();
}
