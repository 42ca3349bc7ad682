// Trace files for the browser tests, made with the native CLI: a gzipped sample, a
// malformed file, and the sample with a hostile string in place of a function name.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { corpusDir } from '../js/corpus.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cli = path.join(root, 'build/native/cli/gotrace');
export const SAMPLE = path.join(root, 'public/go123-workload.trace');
export const HOSTILE = '<img src=x onerror=alert(1)>';

export const gotrace = (...args) => execFileSync(cli, args, { maxBuffer: 1 << 30 }).toString();
/** `gotrace COMMAND ARGS... --json`, parsed. */
export const gotraceJson = (...args) => JSON.parse(gotrace(...args, '--json'));

/** A trace of the test corpus by name ('go/go121-workload.trace'). */
export function corpusTrace(name) {
  return path.join(corpusDir, name);
}

/**
 * The sample as a program run with GOGC=off writes it: every heap goal is Go's "no goal"
 * (^uint64(0), or what the absent memory limit makes of it, math.MaxInt64 less 3%).
 */
export function makeGcOffTrace(dir) {
  const text = path.join(dir, 'gc-off.txt');
  gotrace('convert', '--to=text', SAMPLE, text);
  const sentinels = ['18446744073709551615', '8946757745823027200'];
  let n = 0;
  const edited = editEvents(readFileSync(text, 'utf8'), (line) => {
    const m = /^(HeapGoal .*heapgoal_value=)(\d+)$/.exec(line);
    return m ? m[1] + sentinels[n++ % 2] : line;
  });
  if (n === 0) throw new Error('the sample has no heap goal');
  writeFileSync(text, edited);
  const out = path.join(dir, 'gc-off.trace');
  gotrace('convert', '--to=binary', text, out);
  return out;
}

// Bytes of an unsigned LEB128 varint (the wire format's numbers) of a decimal string.
const varintBytes = (decimal) => Math.max(1, Math.ceil(BigInt(decimal).toString(2).length / 7));

// Rewrites event lines of Go's raw text format, growing or shrinking the size of each
// batch by what its events' numbers gained or lost on the wire.
function editEvents(text, edit) {
  const lines = text.split('\n');
  let batch = -1;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('EventBatch ')) {
      batch = i;
      continue;
    }
    const changed = edit(lines[i]);
    if (changed === lines[i]) continue;
    const numbers = (l) => [...l.matchAll(/=(\d+)/g)].reduce((s, m) => s + varintBytes(m[1]), 0);
    const delta = numbers(changed) - numbers(lines[i]);
    lines[i] = changed;
    lines[batch] = lines[batch].replace(/size=(\d+)/, (_, s) => `size=${Number(s) + delta}`);
  }
  return lines.join('\n');
}

export function makeFixtures() {
  const dir = mkdtempSync(path.join(tmpdir(), 'gotrace-web-'));
  const gz = path.join(dir, 'sample.trace.gz');
  writeFileSync(gz, gzipSync(readFileSync(SAMPLE)));
  // A valid header, then bytes that are no batch.
  const bad = path.join(dir, 'broken.trace');
  writeFileSync(bad, Buffer.concat([Buffer.from('go 1.23 trace\x00\x00\x00'), Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x42, 0x13])]));
  const junk = path.join(dir, 'junk.trace');
  writeFileSync(junk, Buffer.from('this is not a Go trace at all\n'));
  // main.main.func3 (the start function of 16 goroutines, in their stacks) renamed.
  const text = path.join(dir, 'sample.txt');
  gotrace('convert', '--to=text', SAMPLE, text);
  writeFileSync(text, renameString(readFileSync(text, 'utf8'), 'main.main.func3', HOSTILE));
  const hostile = path.join(dir, 'hostile.trace');
  gotrace('convert', '--to=binary', text, hostile);
  return { dir, gz, bad, junk, hostile };
}

// Replaces a string of the string table in Go's raw text format, growing the size of
// the batch that holds it (the text keeps each batch's byte size as it was).
function renameString(text, from, to) {
  const lines = text.split('\n');
  const delta = Buffer.byteLength(to) - Buffer.byteLength(from);
  if (Buffer.byteLength(to) >= 128) throw new Error('the length varint would grow');
  let batch = -1;
  let found = false;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('EventBatch ')) batch = i;
    if (lines[i].trim() === `data="${from}"`) {
      lines[i] = lines[i].replace(`data="${from}"`, `data="${to}"`);
      lines[batch] = lines[batch].replace(/size=(\d+)/, (_, n) => `size=${Number(n) + delta}`);
      found = true;
    }
  }
  if (!found) throw new Error(`the trace has no string ${from}`);
  return lines.join('\n');
}
