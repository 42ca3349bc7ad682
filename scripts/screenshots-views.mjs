#!/usr/bin/env node
// Screenshots of the analysis views on the sample trace, for the docs:
// docs/screenshots/{goroutines,goroutine-group,goroutine,tasks,task,regions,profiles,mmu,search,sql}.png.
// Serves the built site (web/dist, `npm run build` first) and drives Debian's Chromium.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, newPage, startSite } from '../tests/web/browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'docs/screenshots');
fs.mkdirSync(out, { recursive: true });

const site = await startSite();
const browser = await launch();
const { page } = await newPage(browser, { width: 1400, height: 860 });
page.setDefaultTimeout(120_000);
await page.goto(`${site.url}?url=go123-workload.trace#/goroutines`);
await page.waitForSelector('[data-testid=groups-table]');

async function shot(name, hash, ready, prepare) {
  await page.evaluate((h) => { location.hash = h; }, hash);
  await page.waitForSelector(ready);
  if (prepare) await prepare();
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png`);
}

await shot('goroutines', '#/goroutines', '[data-testid=groups-table]');
await shot('goroutines-group', '#/goroutines/group/main.main.func3', '[data-testid=group-goroutines]');
const id = await page.$eval('[data-testid=group-goroutines] a[data-testid=goroutine-link]', (a) => a.textContent.slice(1));
await shot('goroutines-goroutine', `#/goroutine/${id}`, '[data-testid=woken-by]');
await shot('tasks', '#/tasks', '[data-testid=task-types]', async () => {
  await page.locator('[data-testid=task-types] tbody tr').first().locator('[data-testid=histogram] button').nth(6).click();
  await page.waitForSelector('[data-testid=instances]');
});
// A request task: those have regions.
await page.locator('[data-testid=task-types] tbody tr', { hasText: 'request' }).locator('[data-testid=histogram] button').nth(3).click();
await page.waitForSelector('[data-testid=instances] a[data-testid=task-link]');
const task = await page.$eval('[data-testid=instances] a[data-testid=task-link]', (a) => a.textContent);
await shot('tasks-task', `#/task/${task}`, '[data-testid=task-timeline]');
await shot('tasks-regions', '#/regions', '[data-testid=region-types]');
await shot('profiles', '#/profiles/sync', '[data-testid=profiles-view][data-shown="sync {}"][data-loading="0"]');
await shot('profiles-net-group', '#/profiles/net?group=net%2Fhttp.(*conn).serve', '[data-testid=profiles-view][data-loading="0"] [data-testid=flame-canvas]');
await shot('mmu', '#/mmu', '[data-testid=mmu-chart]', async () => {
  const box = await page.locator('[data-testid=mmu-chart]').boundingBox();
  await page.mouse.click(box.x + box.width * 0.45, box.y + box.height / 2);
  await page.waitForTimeout(500);
});
await shot('search', '#/goroutines', '[data-testid=groups-table]', async () => {
  await page.keyboard.press('/');
  await page.keyboard.type('serve');
  await page.waitForSelector('[data-testid=search-results] a');
});
await shot('sql', '#/sql', '[data-testid=sql-view][data-ready="1"]', async () => {
  await page.locator('[data-testid=sql-example]', { hasText: 'Longest channel waits' }).click();
  await page.waitForSelector('[data-testid=sql-table] [data-testid=sql-row-link]');
});

await browser.close();
await site.close();
