// The README's main command as a new user runs it: scripts/start.sh in a fresh clone of
// HEAD, in the background, until the app answers on http://127.0.0.1:5173/; then the
// sample opened with one click in Chromium and the timeline drawn; then the server is
// stopped. The clone sits in build-clone/ so that the compiler cache serves its build.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { launch, newPage } from './browser.mjs';
import { root } from './fixtures.mjs';

const URL = 'http://127.0.0.1:5173/';
const clone = path.join(root, 'build-clone/start');
let server;
let browser;

after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  rmSync(clone, { recursive: true, force: true });
});

async function answers() {
  try {
    return (await fetch(URL)).ok;
  } catch {
    return false;
  }
}

test('start.sh in a fresh clone serves the app, and the sample opens on the timeline', { timeout: 1_500_000 }, async () => {
  assert.equal(await answers(), false, 'something already serves port 5173');
  rmSync(clone, { recursive: true, force: true });
  mkdirSync(path.dirname(clone), { recursive: true });
  execFileSync('git', ['clone', '-q', root, clone]);
  const logFile = path.join(path.dirname(clone), 'start.log');
  const log = openSync(logFile, 'w');
  server = spawn(path.join(clone, 'scripts/start.sh'), [], { cwd: clone, detached: true, stdio: ['ignore', log, log] });
  const deadline = Date.now() + 1_400_000;
  while (!(await answers())) {
    assert.equal(server.exitCode, null, `start.sh ended with status ${server.exitCode}:\n${readFileSync(logFile, 'utf8').slice(-4000)}`);
    assert.ok(Date.now() < deadline, 'the app did not answer in time');
    await new Promise((r) => setTimeout(r, 1000));
  }
  const output = readFileSync(logFile, 'utf8');
  assert.match(output, /M=\S+ P=\S+ G=\S+ \w+ Time=\d+/, 'start.sh printed the sample\'s first events');

  browser = await launch();
  const { page, problems } = await newPage(browser);
  await page.goto(URL);
  await page.getByRole('button', { name: 'Open the sample' }).first().click();
  await page.waitForSelector('[data-testid=overview]', { timeout: 120_000 });
  await page.evaluate(() => (location.hash = '#/timeline'));
  await page.waitForFunction(() => window.__gotraceTimeline?.idle(), null, { timeout: 120_000 });
  const drawn = await page.evaluate(() => {
    const c = document.querySelector('[data-testid=timeline-canvas]');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let inked = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 245 || d[i + 1] < 245 || d[i + 2] < 245) inked++;
    return { width: c.width, height: c.height, inked };
  });
  assert.ok(drawn.width > 600 && drawn.height > 300, JSON.stringify(drawn));
  assert.ok(drawn.inked > drawn.width * 20, `the timeline is drawn: ${JSON.stringify(drawn)}`);
  assert.deepEqual(problems, { errors: [], dialogs: [], csp: [] });

  process.kill(-server.pid, 'SIGTERM');
  await new Promise((r) => (server.exitCode !== null ? r() : server.on('exit', r)));
  assert.equal(await answers(), false, 'the server stopped');
});
