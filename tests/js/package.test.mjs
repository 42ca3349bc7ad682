// The npm package, as a user gets it: `npm pack`, installed into a fresh project, then
// used from there on every v2 corpus trace. Its answers must equal the native CLI's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const shared = process.env.GOTRACE_SHARED_DIR ?? path.resolve(root, '../shared');
const corpus = path.join(shared, 'corpus/go');
const cli = path.join(root, 'build/native/cli/gotrace');

let project;
let gotrace;

before(async () => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'gotrace-npm-'));
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', project], { cwd: root })
    .toString().trim().split('\n').pop();
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'uses-gotrace', type: 'module', private: true }));
  execFileSync('npm', ['install', '--silent', '--no-audit', '--no-fund', '--offline', path.join(project, tarball)], { cwd: project });
  gotrace = await import(pathToFileURL(path.join(project, 'node_modules/gotrace/dist/index.js')));
});

after(() => fs.rmSync(project, { recursive: true, force: true }));

function v2Traces() {
  return fs.readdirSync(corpus).filter((n) => /^go12[2-9]-.*\.trace$/.test(n) && !n.includes('large')).sort();
}

test('the tarball holds the JS, the .wasm, the types and the README', () => {
  const files = fs.readdirSync(path.join(project, 'node_modules/gotrace/dist')).sort();
  assert.deepEqual(files, ['gotrace-core.mjs', 'gotrace-core.wasm', 'index.d.ts', 'index.js']);
  assert.ok(fs.readFileSync(path.join(project, 'node_modules/gotrace/README.md'), 'utf8').includes('openTrace'));
});

test('stats() equals `gotrace stats --json` on every v2 trace', async () => {
  const names = v2Traces();
  assert.ok(names.length >= 14, `expected the v2 corpus, found ${names.length} traces`);
  for (const name of names) {
    const file = path.join(corpus, name);
    const trace = await gotrace.openTrace(fs.readFileSync(file));
    const native = JSON.parse(execFileSync(cli, ['stats', '--json', file]).toString());
    assert.deepEqual(trace.stats(), native, name);
    trace.dispose();
  }
});

test('events() pages through the stream in order with Go\'s text', async () => {
  const file = path.join(corpus, 'go123-annotations.trace');
  const trace = await gotrace.openTrace(fs.readFileSync(file));
  const dump = execFileSync(cli, ['dump', file]).toString();
  let texts = [];
  let from = 0;
  for (;;) {
    const page = trace.events({ from, limit: 7 });
    if (page.text.length === 0) break;
    assert.equal(page.index[0], from);
    texts = texts.concat(page.text);
    from = page.next;
  }
  assert.equal(texts.length, trace.eventCount);
  assert.equal(texts.join('\n') + '\n', dump);
  const onlyG1 = trace.events({ limit: 1000, filter: { goroutine: 1, kinds: ['RegionBegin'] } });
  assert.ok(onlyG1.text.length > 0);
  for (let i = 0; i < onlyG1.text.length; i++) {
    assert.equal(onlyG1.goroutine[i], 1);
    assert.equal(gotrace.eventKinds[onlyG1.kind[i]], 'RegionBegin');
  }
  trace.dispose();
});
