// Draws timeline strips off the page's thread: a strip's drawing (and, without a GPU,
// its rasterization) can take tens of milliseconds, far more than a frame has. The
// page sends the query results once each and asks for strips; it gets ImageBitmaps
// back and meanwhile shows the older strip, moved and scaled.
//
//   page → worker  { type: 'data', id, data }       a result (drawnPart) to keep
//                  { type: 'forget', ids }          results no longer shown
//                  { type: 'paint', key, seq, row, ids, t0, t1, scale, dpr, h }
//   worker → page  { key, seq, bitmap, t0, t1, scale, dpr, h, max }  (bitmap null: a
//                  result it needed was forgotten)
// A newer request for a row replaces the one still queued: only the latest is drawn.
import { paintStrip } from './content.js';

const results = new Map();
const queue = new Map();
let scheduled = false;
let canvas = null;

self.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'data') results.set(m.id, m.data);
  else if (m.type === 'forget') for (const id of m.ids) results.delete(id);
  else if (m.type === 'paint') {
    queue.set(m.key, m);
    schedule();
  }
};

// One strip per task, so that newer requests replace queued ones in between.
function schedule() {
  if (scheduled || !queue.size) return;
  scheduled = true;
  setTimeout(paintNext, 0);
}

function paintNext() {
  scheduled = false;
  const [key, job] = queue.entries().next().value;
  queue.delete(key);
  const datas = job.ids.map((id) => (id === 0 ? undefined : results.get(id)));
  const reply = { key, seq: job.seq, bitmap: null, t0: job.t0, t1: job.t1, scale: job.scale, dpr: job.dpr, h: job.h, max: 0 };
  if (job.ids.every((id, i) => id === 0 || datas[i])) {
    canvas ??= new OffscreenCanvas(1, 1);
    const r = paintStrip(canvas, job.row, datas, job.t0, job.t1, job.scale, job.dpr, job.h);
    reply.t1 = r.t1;
    reply.max = r.max;
    reply.bitmap = canvas.transferToImageBitmap();
  }
  self.postMessage(reply, reply.bitmap ? [reply.bitmap] : []);
  schedule();
}
