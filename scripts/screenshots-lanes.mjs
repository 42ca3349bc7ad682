// Screenshots for the README (docs/screenshots/) of what the timeline and the regions
// view show beside go tool trace: the Network and Syscalls lanes over the whole sample,
// the flow arrows of 400 µs of it, and a region histogram bar's regions with their time
// by block reason. Headless Chromium, the built site (run web/build.sh first) and the
// native CLI (for the sample's span and its regions).
import path from 'node:path';
import { launch, newPage, startSite } from '../tests/web/browser.mjs';
import { gotraceJson as json, root, SAMPLE } from '../tests/web/fixtures.mjs';
import { openFile, show, timelineIdle } from '../tests/web/pages.mjs';

const out = (name) => path.join(root, 'docs/screenshots', name);
const site = await startSite();
const browser = await launch();
try {
  const { page } = await newPage(browser, { width: 1400, height: 900 });
  await page.goto(site.url);
  await openFile(page, SAMPLE);
  const { start, end } = json('stats', SAMPLE).time;
  const t0 = Math.round(start + (end - start) / 2);
  await show(page, `#/timeline?t0=${t0}&t1=${t0 + 400_000}&flows=1`, '[data-testid=flows-toggle]:checked');
  await timelineIdle(page);
  await page.screenshot({ path: out('timeline-flows.png') });
  await page.click('[data-testid=flows-toggle]');
  await page.evaluate(() => window.__gotraceTimeline.fit());
  await timelineIdle(page);
  await page.screenshot({ path: out('timeline-network-syscalls.png') });

  // The bar of the region that blocked longest.
  const regions = json('regions', SAMPLE);
  const blocked = (r) => Object.entries(r.stats).filter(([k]) => k.startsWith('block:')).reduce((s, [, v]) => s + v, 0);
  const worst = regions.regions.filter((r) => r.start != null).reduce((a, b) => (blocked(b) > blocked(a) ? b : a));
  const type = regions.types.find((t) => t.name === worst.name);
  const bar = type.durations.histogram.buckets.filter((b) => b.min <= worst.duration).at(-1);
  await page.setViewportSize({ width: 1700, height: 900 });
  await show(page, `#/regions?name=${encodeURIComponent(type.name)}`, '[data-testid=region-types] .gt-hl');
  const row = page.locator('[data-testid=region-types] tbody tr', { has: page.locator('.gt-hl') });
  await row.locator(`[data-testid=histogram] button[data-min="${bar.min}"]`).click();
  await page.waitForSelector('[data-testid=instances]');
  await page.screenshot({ path: out('regions-breakdown.png') });
  for (const n of ['timeline-flows', 'timeline-network-syscalls', 'regions-breakdown']) console.log(`docs/screenshots/${n}.png`);
} finally {
  await browser.close();
  await site.close();
}
