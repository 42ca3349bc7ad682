// Shared by the browser tests, screenshots and benchmarks: the built site served on
// 127.0.0.1 and Debian's Chromium driven by playwright-core (nothing is downloaded).
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { serve } from '../../web/serve.mjs';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function startSite() {
  if (process.env.GOTRACE_WEB_URL) return { url: process.env.GOTRACE_WEB_URL, close: async () => {} };
  return serve();
}

/** The built site and Chromium for a test file: started before its tests, closed after
 *  them. The returned object's `site` and `browser` are set once its tests run. */
export function useBrowser() {
  const env = { site: null, browser: null };
  before(async () => {
    env.site = await startSite();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.site?.close();
  });
  return env;
}

export async function launch(extraArgs = []) {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true });
}

/** A new page that records console errors, page errors and dialogs. */
export async function newPage(browser, { width = 1400, height = 900 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const problems = { errors: [], dialogs: [], csp: [] };
  const warnings = [];  // the console's, for the tests that look
  page.on('pageerror', (e) => problems.errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
    if (m.type() === 'error') {
      const t = m.text();
      if (/Content Security Policy/i.test(t)) problems.csp.push(t);
      else problems.errors.push(t);
    }
  });
  page.on('dialog', async (d) => {
    problems.dialogs.push(d.message());
    await d.dismiss();
  });
  return { context, page, problems, warnings };
}
