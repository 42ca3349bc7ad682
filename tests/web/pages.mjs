// Steps the browser tests share: open a page of the app, open a trace in it, go to a
// view, wait for the timeline to settle, read its canvas.
import path from 'node:path';
import { newPage } from './browser.mjs';

export async function openPage(browser, url, size) {
  const p = await newPage(browser, size);
  await p.page.goto(url);
  return p;
}

/** Opens a file with the "Open trace…" input and waits until the header names it. */
export async function openFile(page, file) {
  // The trace shown (data-opened numbers each open): the same file opened again is
  // shown once the new open is, not while the one before still is.
  const before = await page.evaluate(() => document.querySelector('.trace-name')?.dataset.opened ?? null);
  await page.setInputFiles('[data-testid=file-input]', file);
  await page.waitForFunction(([n, b]) => {
    const shown = document.querySelector('.trace-name');
    return shown?.textContent === n && shown.dataset.opened !== b;
  }, [path.basename(file), before], { timeout: 60_000 });
}

/**
 * Reloads once the file shown is kept for it: the app stores a file it opened (in
 * IndexedDB) a moment after showing it, and a reload before that reopens the one before.
 * A file too large to keep is kept as its name; `whole` says it was opened whole from
 * parts. A trace fetched from ?url= is fetched again and needs no wait.
 */
export async function reloadKept(page, { whole = false } = {}) {
  await page.waitForFunction(async (wantWhole) => {
    if (new URL(location.href).searchParams.has('url')) return true;
    const name = document.querySelector('.trace-name')?.textContent;
    const kept = await new Promise((resolve) => {
      const open = indexedDB.open('gotrace', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('recent');
      open.onerror = () => resolve(null);
      open.onsuccess = () => {
        const get = open.result.transaction('recent', 'readonly').objectStore('recent').get('last');
        get.onsuccess = () => { open.result.close(); resolve(get.result ?? null); };
        get.onerror = () => { open.result.close(); resolve(null); };
      };
    });
    return kept?.name === name && Boolean(kept.whole) === wantWhole;
  }, whole, { timeout: 30_000, polling: 100 });
  await page.reload();
}

export async function show(page, hash, selector) {
  await page.evaluate((h) => { location.hash = h; }, hash);
  await page.waitForSelector(selector, { timeout: 60_000 });
}

export async function timelineIdle(page) {
  await page.waitForFunction(() => window.__gotraceTimeline?.idle(), null, { timeout: 60_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** The pixels of the timeline canvas in a rectangle (CSS pixels), as [r, g, b] triples. */
export function canvasPixels(page, rect) {
  return page.evaluate((rect) => {
    const c = document.querySelector('[data-testid=timeline-canvas]');
    const dpr = window.devicePixelRatio || 1;
    const d = c.getContext('2d').getImageData(Math.round(rect.x * dpr), Math.round(rect.y * dpr), Math.max(1, Math.round(rect.width * dpr)), Math.max(1, Math.round(rect.height * dpr)));
    const out = [];
    for (let i = 0; i < d.data.length; i += 4) out.push([d.data[i], d.data[i + 1], d.data[i + 2]]);
    return { width: d.width, pixels: out };
  }, rect);
}

/** The hue (degrees), saturation and lightness (0..1) of an [r, g, b]. */
export function hsl([r, g, b]) {
  r /= 255; g /= 255; b /= 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h * 60, s, l];
}
