// A trace index of a Blob reads its bytes ahead through a byte stream (TraceIndex.readAhead,
// one buffer filled again and again) rather than piece by piece through FileReaderSync,
// whose pieces, each an ArrayBuffer of its own, piled up in a browser's worker. The
// index so read answers as the one read from the file, its bytes read mostly ahead;
// parts opened meanwhile (reads elsewhere) and reads past the buffer still get theirs.
// Node has no FileReaderSync: a stand-in reads the slices of the one Blob made here, and
// counts what it is asked for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { openTraceIndex } from '../../dist/index.js';
import { corpusDir } from './corpus.mjs';
import { join } from 'node:path';

const newestPath = (name) => join(corpusDir, 'newest', name);

// A Blob of `bytes` whose slices a stand-in FileReaderSync reads synchronously.
function blobWithSyncReads(bytes) {
  const blob = new Blob([bytes]);
  const ranges = new WeakMap();
  const slice = blob.slice.bind(blob);
  blob.slice = (start = 0, end = bytes.length) => {
    const part = slice(start, end);
    ranges.set(part, [start, Math.min(end, bytes.length)]);
    return part;
  };
  const counted = { reads: 0, bytes: 0 };
  globalThis.FileReaderSync = class {
    readAsArrayBuffer(part) {
      const [start, end] = ranges.get(part);
      counted.reads++;
      counted.bytes += end - start;
      return bytes.slice(start, end).buffer;
    }
  };
  return { blob, counted };
}

// What the index answers once its reads and its profiles' read are over.
function answers(index) {
  return {
    stats: index.stats(),
    generations: index.generations,
    groups: index.goroutineGroups(),
    taskTypes: index.taskTypes(),
    regionTypes: index.regionTypes(),
    mmu: index.mmu([1e6]),
    flames: ['sched', 'sync', 'net', 'syscall'].map((type) => index.flame(type)),
  };
}

test('a Blob read ahead through a stream gives the index of its file, its bytes read mostly ahead', async (t) => {
  t.after(() => delete globalThis.FileReaderSync);
  // A stress-mode trace: 700 generations, four of them larger than the buffer below.
  const path = newestPath('go127-gomaxprocs.stress.trace');
  const bytes = new Uint8Array(fs.readFileSync(path));
  const fromFile = await openTraceIndex(path);
  while (fromFile.advanceProfiles(1));
  const want = answers(fromFile);
  fromFile.dispose();
  assert.ok(want.generations.length >= 500, `${want.generations.length} generations`);
  assert.ok(want.generations.filter((g) => g.bytes > 32 * 1024).length >= 2);

  // Reads of 16 KiB, ahead 32 KiB: hundreds of fills, each keeping what the last left,
  // and generations larger than the buffer (read past it).
  const { blob, counted } = blobWithSyncReads(bytes);
  const index = await openTraceIndex(blob, { generations: 1, readBytes: 16 * 1024 });
  const atOpen = counted.bytes;
  let parts = 0;
  for (;;) {
    await index.readAhead();
    if (!index.advance(1)) break;
    // A part read again meanwhile: its reads are elsewhere in the file.
    if (index.generations.length === 2) {
      const part = await index.openPart(0, 0);
      assert.equal(part.eventCount, index.generations[0].events);
      part.dispose();
      parts++;
    }
  }
  for (;;) {
    await index.readAhead();
    if (!index.advanceProfiles(1)) break;
  }
  assert.deepEqual(answers(index), want);
  assert.equal(parts, 1);
  // What the first generation's open and the part read went through FileReaderSync; the
  // two reads of the rest (the first, the profiles') came mostly from the stream.
  const rest = counted.bytes - atOpen;
  assert.ok(rest < 0.5 * bytes.length, `${rest} of ${2 * bytes.length} bytes read piece by piece (${counted.reads} reads)`);
  index.dispose();
});
