// The strips of the timeline's rows: a row's plot drawn once into an image reaching half
// a screen beyond each side of the view, which each frame copies — panning and zooming
// move and scale it. A strip is drawn again only when its data changed, the view left
// it, or the scale moved too far from the one it was drawn at; until the new one is
// ready, the old one is shown, moved and scaled.
//
// Strips are drawn in a worker (stripWorker.js) when the browser has OffscreenCanvas:
// drawing and rasterizing a busy strip can take longer than a frame, and the page's
// thread then only copies bitmaps. Without one they are drawn here, a few per frame.
import stripWorkerUrl from './stripWorker.js?worker&url';
import { policyWorker } from '../model/policyWorker.js';
import { drawnPart, paintStrip } from './content.js';

// A strip drawn at one scale is reused from 2/3 to 3/2 of it.
const SCALE_SLACK = 1.5;

const canUseWorker = () =>
  typeof Worker !== 'undefined' && typeof OffscreenCanvas !== 'undefined' && 'transferToImageBitmap' in OffscreenCanvas.prototype;

/** onReady: called when a strip drawn in the worker has arrived (draw a frame). */
export function createStripCache({ onReady = () => {}, worker = true } = {}) {
  return new StripCache(onReady, worker && canUseWorker());
}

// What the worker needs of a row (layout.js) to draw it.
const rowPart = (row) => ({
  key: row.key, type: row.type, height: row.height, thin: row.thin, resource: row.resource,
  rowsOf: row.rowsOf, unit: row.unit, tracks: row.tracks,
});

const sameDatas = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);

class StripCache {
  constructor(onReady, useWorker) {
    this.onReady = onReady;
    this.strips = new Map(); // row key → { shown, asked: [requests in flight], used }
    this.frame = 0;
    this.seq = 0;
    this.waiting = 0; // rows with a request in flight
    this.ids = new WeakMap(); // result → id in the worker
    this.sent = new Map(); // id → result
    this.nextId = 1;
    this.worker = null;
    if (useWorker) {
      try {
        this.worker = policyWorker(stripWorkerUrl, { name: 'gotrace-strips' });
        this.worker.onmessage = (e) => this.#arrived(e.data);
        this.worker.onerror = (e) => {
          e.preventDefault?.();
          this.#direct();
        };
      } catch {
        this.worker = null;
      }
    }
  }

  /** Whether strips are still being drawn for the latest requests. */
  busy() {
    return this.waiting > 0;
  }

  /**
   * Copies a row's strip to ctx at y (plot starting at x = left). v: { t0, t1, start,
   * end, scale, dpr }. A stale strip is asked for again when `mayWork` (the frame has
   * time left); returns { pending (a stale strip was left for a later frame), max }.
   */
  blit(ctx, row, datas, y, left, v, mayWork) {
    const h = row.height;
    let e = this.strips.get(row.key);
    if (!e) this.strips.set(row.key, (e = { shown: null, asked: [], used: 0 }));
    e.used = this.frame;
    const a = Math.max(v.start, v.t0);
    const b = Math.min(v.end, v.t1);
    const fits = (p) =>
      p && p.h === h && p.dpr === v.dpr && sameDatas(p.datas, datas) &&
      p.scale <= v.scale * SCALE_SLACK && p.scale >= v.scale / SCALE_SLACK && p.t0 <= a && p.t1 >= b;
    let pending = false;
    if (!fits(e.shown) && !fits(e.asked.at(-1))) {
      if (mayWork || (!e.shown && !this.worker)) this.#request(e, row, datas, v);
      else pending = true;
    }
    const s = e.shown;
    if (s && s.image.width > 0 && s.image.height > 0) {
      const dx = Math.round((left + (s.t0 - v.t0) * v.scale) * v.dpr) / v.dpr;
      ctx.drawImage(s.image, 0, 0, s.image.width, s.image.height, dx, y, (s.t1 - s.t0) * v.scale, h);
    }
    return { pending, max: s?.max ?? 0 };
  }

  #request(e, row, datas, v) {
    const span = v.t1 - v.t0;
    const t0 = v.t0 - span / 2;
    const t1 = v.t1 + span / 2;
    const req = { seq: ++this.seq, datas, t0, t1, scale: v.scale, dpr: v.dpr, h: row.height };
    if (!this.worker) {
      const image = e.shown?.image ?? (typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(1, 1) : document.createElement('canvas'));
      const r = paintStrip(image, row, datas, t0, t1, v.scale, v.dpr, row.height);
      e.shown = { ...req, image, t1: r.t1, max: r.max };
      return;
    }
    // The strip's real end, as paintStrip rounds it (for fits()).
    req.t1 = t0 + Math.max(1, Math.ceil((t1 - t0) * v.scale)) / v.scale;
    if (!e.asked.length) this.waiting++;
    e.asked.push(req);
    const ids = datas.map((d) => (d ? this.#idOf(d) : 0));
    this.worker.postMessage({ type: 'paint', key: row.key, seq: req.seq, row: rowPart(row), ids, t0, t1, scale: v.scale, dpr: v.dpr, h: row.height });
  }

  // Each result is sent to the worker once.
  #idOf(d) {
    let id = this.ids.get(d);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(d, id);
      this.sent.set(id, d);
      this.worker.postMessage({ type: 'data', id, data: drawnPart(d) });
    }
    return id;
  }

  #arrived(m) {
    const e = this.strips.get(m.key);
    const k = e ? e.asked.findIndex((r) => r.seq === m.seq) : -1;
    if (k < 0) {
      m.bitmap?.close();
      return;
    }
    const req = e.asked[k];
    // Requests before this one were replaced in the worker's queue: none will come.
    e.asked.splice(0, k + 1);
    if (!e.asked.length) this.waiting--;
    if (m.bitmap) {
      e.shown?.image.close?.();
      e.shown = { ...req, image: m.bitmap, t1: m.t1, max: m.max };
    }
    this.onReady();
  }

  // The worker failed: draw here from now on.
  #direct() {
    this.worker?.terminate();
    this.worker = null;
    for (const e of this.strips.values()) e.asked = [];
    this.waiting = 0;
    this.onReady();
  }

  /** Called once a frame is drawn: forgets strips long unused, and results no strip needs. */
  endFrame() {
    this.frame++;
    if (this.strips.size >= 200) {
      for (const [k, e] of this.strips) {
        if (this.frame - e.used <= 60) continue;
        if (e.asked.length) this.waiting--;
        e.shown?.image.close?.();
        this.strips.delete(k);
      }
    }
    if (this.worker && this.frame % 30 === 0 && this.sent.size > 0) this.#forget();
  }

  #forget() {
    const live = new Set();
    for (const e of this.strips.values()) {
      for (const d of e.shown?.datas ?? []) live.add(d);
      for (const r of e.asked) for (const d of r.datas) live.add(d);
    }
    const ids = [];
    for (const [id, d] of this.sent) {
      if (live.has(d)) continue;
      ids.push(id);
      this.sent.delete(id);
      this.ids.delete(d);
    }
    if (ids.length) this.worker.postMessage({ type: 'forget', ids });
  }

  dispose() {
    this.worker?.terminate();
    this.worker = null;
    for (const e of this.strips.values()) e.shown?.image.close?.();
    this.strips.clear();
    this.waiting = 0;
  }
}
