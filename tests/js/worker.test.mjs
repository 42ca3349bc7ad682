// The web app's worker (web/src/worker/worker.js), run in Node with its messages sent
// by hand: the long analyses are built a piece at a time, so a request that needs none
// is answered while another's analysis is under way; a request the page abandons stops
// what it waited for, and the worker goes on answering; the results are those of the
// npm package's Trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { openTrace } from '../../dist/index.js';
import { corpusPath } from './corpus.mjs';

const file = corpusPath('go122-workload.trace');

// The worker's global scope: what it posts is kept in order of posting.
const answers = [];
const waiting = new Map();
globalThis.self = {
  postMessage(message) {
    if (message.progress) return;
    answers.push(message.id);
    waiting.get(message.id)?.(message);
  },
};
await import('../../web/src/worker/worker.js');

let nextId = 1;
function request(method, ...args) {
  const id = nextId++;
  const answered = new Promise((resolve) => waiting.set(id, resolve));
  self.onmessage({ data: { id, method, args } });
  return { id, answered };
}

const bytes = fs.readFileSync(file);
const reference = await openTrace(bytes);
const tracks = reference.tracks();
const goroutine = tracks.goroutines.id[Math.floor(tracks.goroutines.id.length / 2)];
const laneArgs = [{ kind: 'goroutine', id: goroutine }, tracks.start, tracks.end + 1, 500];
const want = reference.timeline(...laneArgs);

async function openInWorker() {
  const { answered } = request('open', new Blob([bytes]));
  const { result, error } = await answered;
  assert.equal(error, undefined);
  return result;
}

test('a request that needs no analysis is answered while another builds the timeline', async () => {
  await openInWorker();
  self.gotracePieceEvents = 5000;  // the timeline in ~100 pieces, its goroutine lanes as many
  const lane = request('timeline', ...laneArgs);
  const stats = request('stats');
  const events = request('events', { from: 0, limit: 10 });
  const [s, e, l] = await Promise.all([stats.answered, events.answered, lane.answered]);
  assert.equal(s.result.events, reference.stats().events);
  assert.equal(e.result.index.length, 10);
  assert.deepEqual(l.result, want);
  // The two quick ones came back first, while the lane waited for its pieces.
  assert.deepEqual(answers.slice(-3), [stats.id, events.id, lane.id]);
  request('close');
});

test('an abandoned request stops its analysis; the next one finishes it', async () => {
  await openInWorker();
  self.gotracePieceEvents = 5000;
  const lane = request('timeline', ...laneArgs);
  self.onmessage({ data: { abandon: lane.id } });
  const { error } = await lane.answered;
  assert.equal(error, 'cancelled');
  const stats = request('stats');
  assert.equal((await stats.answered).result.events, reference.stats().events);
  const again = request('timeline', ...laneArgs);
  assert.deepEqual((await again.answered).result, want);
  request('close');
  delete self.gotracePieceEvents;
});
