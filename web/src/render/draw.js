// Draws one frame of the timeline on a 2D canvas from the rows (layout.js) and the
// query results cached per track. Pure drawing: no queries.
//
// A row's plot is drawn once into a strip (an offscreen canvas reaching half a screen
// beyond each side of the view) and each frame copies the strips: panning and zooming
// move and scale them, and a strip is drawn again only when its data changed, the view
// left it, or the scale moved too far from the one it was drawn at. Strips are redrawn
// within a time budget per frame; the rest show their last drawing, scaled, and the
// frame reports that more is pending.
import { formatBytes, formatTick, timeTicks } from '../model/format.js';
import { STATE_COLORS, STATES, SERIES_COLORS, goroutineColor, nameColor } from './colors.js';
import { AXIS_HEIGHT, trackKey } from './layout.js';

export const LABEL_WIDTH = 200;
const FONT = '11px system-ui, sans-serif';
const STATE_FILL = STATES.map((s) => STATE_COLORS[s] ?? '#999');
const RUNNING = STATES.indexOf('running');
const WAITING = STATES.indexOf('waiting');
// A strip drawn at one scale is reused from 2/3 to 3/2 of it.
const SCALE_SLACK = 1.5;
// Strips redrawn per frame once this much of the frame is spent (ms); at least one is.
const STRIP_BUDGET = 3;

/** The strips of the rows, kept across frames by the view. */
export function createStripCache() {
  return { strips: new Map(), frame: 0 };
}

/**
 * frame: { width, height, dpr, t0, t1, start, end (the trace's), rows, scrollY,
 *          data: Map(key → result), selection: { rowKey, start, end } | null,
 *          range: [a, b] | null, arrows: [{ fromY, fromTime, toY, toTime, color }],
 *          hoverX, cache (createStripCache(); none: everything drawn directly) }
 * Returns { pending }: true when some strips still show an older drawing.
 */
export function drawFrame(ctx, f) {
  const began = performance.now();
  const { width, height } = f;
  ctx.save();
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  const pw = width - LABEL_WIDTH;
  const scale = pw / Math.max(1, f.t1 - f.t0);
  const x = (t) => LABEL_WIDTH + (t - f.t0) * scale;
  const top = AXIS_HEIGHT;
  const cache = f.cache ?? null;
  if (cache) cache.frame++;

  // The rows on screen (rows are laid out top to bottom).
  const rows = f.rows;
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (top + rows[mid].y + rows[mid].height - f.scrollY < top) lo = mid + 1;
    else hi = mid;
  }
  const visible = [];
  for (let i = lo; i < rows.length; i++) {
    const y = top + rows[i].y - f.scrollY;
    if (y > height) break;
    visible.push([rows[i], y]);
  }

  ctx.save();
  ctx.beginPath();
  ctx.rect(0, top, width, height - top);
  ctx.clip();
  // Backgrounds: sections, the selected row, row separators.
  for (const [row, y] of visible) {
    if (row.type === 'section') {
      ctx.fillStyle = '#eef1f5';
      ctx.fillRect(0, y, width, row.height);
    } else if (f.selection && f.selection.rowKey === row.key) {
      ctx.fillStyle = '#eef3fc';
      ctx.fillRect(0, y, width, row.height);
    }
  }
  ctx.fillStyle = '#eef0f3';
  ctx.beginPath();
  for (const [row, y] of visible) if (row.type !== 'section') ctx.rect(0, y + row.height - 1, width, 1);
  ctx.fill();

  // Plots.
  let pending = false;
  ctx.save();
  ctx.beginPath();
  ctx.rect(LABEL_WIDTH, top, pw, height - top);
  ctx.clip();
  const view = { t0: f.t0, t1: f.t1, start: f.start, end: f.end ?? f.t1, scale, pw, dpr: f.dpr || 1 };
  for (const [row, y] of visible) {
    if (row.type === 'section' || row.type === 'group') continue;
    const datas = row.tracks.map((ref) => f.data.get(trackKey(ref)));
    if (!datas.some(Boolean)) continue;
    let max;
    if (cache) {
      const r = drawCached(ctx, cache, row, datas, y, view, performance.now() - began < STRIP_BUDGET);
      pending = pending || r.pending;
      max = r.max;
    } else {
      ctx.save();
      ctx.translate(0, y);
      max = drawContent(ctx, row, datas, x, f.t0, f.t1);
      ctx.restore();
    }
    if (row.type === 'series' && max > 0) {
      ctx.fillStyle = '#6b7280';
      ctx.textAlign = 'right';
      ctx.fillText(row.unit === 'bytes' ? formatBytes(max) : String(Math.round(max)), width - 4, y + 8);
      ctx.textAlign = 'left';
    }
    const sel = f.selection;
    if (sel && sel.rowKey === row.key && row.type === 'slices') {
      const x0 = x(sel.start);
      const x1 = x(sel.end);
      ctx.strokeStyle = '#111827';
      ctx.lineWidth = 2;
      ctx.strokeRect(x0, y + 1, Math.max(2, x1 - x0), row.height - 2);
    }
  }
  drawArrows(ctx, f, x, top);
  ctx.restore();

  // Labels.
  for (const [row, y] of visible) {
    ctx.fillStyle = row.type === 'section' || row.type === 'group' ? '#1d2129' : '#4b5563';
    if (row.type === 'section') ctx.font = 'bold ' + FONT;
    ctx.fillText(fitted(ctx, row.label, LABEL_WIDTH - 10), 6, y + row.height / 2);
    if (row.type === 'section') ctx.font = FONT;
  }
  ctx.fillStyle = '#dfe3ea';
  ctx.beginPath();
  for (const [row, y] of visible) if (row.type !== 'section') ctx.rect(LABEL_WIDTH - 1, y, 1, row.height);
  ctx.fill();
  ctx.restore();

  // Range selection.
  if (f.range) {
    const a = Math.max(LABEL_WIDTH, x(f.range[0]));
    const b = Math.min(width, x(f.range[1]));
    if (b > a) {
      ctx.fillStyle = 'rgba(37, 99, 235, 0.12)';
      ctx.fillRect(a, top, b - a, height - top);
      ctx.fillStyle = 'rgba(37, 99, 235, 0.8)';
      ctx.fillRect(a, top, 1, height - top);
      ctx.fillRect(b - 1, top, 1, height - top);
    }
  }
  drawAxis(ctx, f, x, pw);
  if (f.hoverX != null && f.hoverX > LABEL_WIDTH) {
    ctx.fillStyle = 'rgba(0, 0, 0, 0.25)';
    ctx.fillRect(Math.round(f.hoverX), top, 1, height - top);
  }
  ctx.restore();
  if (cache) prune(cache);
  return { pending };
}

// Copies a row's strip, drawing it first when it is stale and `fresh` allows.
function drawCached(ctx, cache, row, datas, y, v, fresh) {
  const h = row.height;
  let e = cache.strips.get(row.key);
  const span = v.t1 - v.t0;
  const a = Math.max(v.start, v.t0);
  const b = Math.min(v.end, v.t1);
  const ok =
    e &&
    e.h === h &&
    e.dpr === v.dpr &&
    e.datas.length === datas.length &&
    e.datas.every((d, i) => d === datas[i]) &&
    e.scale <= v.scale * SCALE_SLACK &&
    e.scale >= v.scale / SCALE_SLACK &&
    e.t0 <= a &&
    e.t1 >= b;
  let pending = false;
  if (!ok) {
    if (fresh || !e) {
      e = drawStrip(e, row, datas, v.t0 - span / 2, v.t1 + span / 2, v.scale, v.dpr, h);
      cache.strips.set(row.key, e);
    } else {
      pending = true;
    }
  }
  e.used = cache.frame;
  const dx = Math.round((LABEL_WIDTH + (e.t0 - v.t0) * v.scale) * v.dpr) / v.dpr;
  const dw = (e.t1 - e.t0) * v.scale;
  if (e.canvas.width > 0 && e.canvas.height > 0) ctx.drawImage(e.canvas, 0, 0, e.canvas.width, e.canvas.height, dx, y, dw, h);
  return { pending, max: e.max };
}

function drawStrip(old, row, datas, t0, t1, scale, dpr, h) {
  const w = Math.max(1, Math.ceil((t1 - t0) * scale));
  const cw = Math.ceil(w * dpr);
  const ch = Math.ceil(h * dpr);
  let canvas = old?.canvas;
  if (!canvas) canvas = typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(cw, ch) : document.createElement('canvas');
  if (canvas.width !== cw || canvas.height !== ch) {
    canvas.width = cw;
    canvas.height = ch;
  }
  const sctx = canvas.getContext('2d');
  sctx.setTransform(1, 0, 0, 1, 0, 0);
  sctx.clearRect(0, 0, cw, ch);
  sctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  sctx.font = FONT;
  sctx.textBaseline = 'middle';
  sctx.textAlign = 'left';
  const max = drawContent(sctx, row, datas, (t) => (t - t0) * scale, t0, t1);
  return { canvas, t0, t1: t0 + w / scale, scale, dpr, h, datas, max, used: 0 };
}

function prune(cache) {
  if (cache.strips.size < 200) return;
  for (const [k, e] of cache.strips) if (cache.frame - e.used > 60) cache.strips.delete(k);
}

// A row's plot at y = 0, for times t0..t1 mapped by x. Returns a series row's maximum.
function drawContent(ctx, row, datas, x, t0, t1) {
  const h = row.height;
  for (const d of datas) {
    if (!d) continue;
    if (d.type === 'slices') drawSlices(ctx, d, row, h, x, t0, t1);
    else if (d.type === 'spans') drawSpans(ctx, d, row, h, x, t0, t1);
    else if (d.type === 'instants') drawInstants(ctx, d, h, x, t0, t1);
  }
  if (row.type === 'series') return drawSeries(ctx, row, datas, h, x, t1);
  return 0;
}

// The first index whose end is at or after t (ends increase: rectangles are in time
// order and do not overlap).
function firstEnding(end, t) {
  let lo = 0;
  let hi = end.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (end[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Rectangles by colour, one path each; a rectangle touching the previous one of its
// colour extends it.
class Batches {
  constructor() {
    this.by = new Map();
  }
  add(color, x0, w) {
    let b = this.by.get(color);
    if (!b) this.by.set(color, (b = []));
    const n = b.length;
    if (n && b[n - 2] + b[n - 1] >= x0 - 0.01) b[n - 1] = Math.max(b[n - 1], x0 + w - b[n - 2]);
    else b.push(x0, w);
  }
  fill(ctx, y, h) {
    for (const [color, b] of this.by) {
      ctx.fillStyle = color;
      ctx.beginPath();
      for (let k = 0; k < b.length; k += 2) ctx.rect(b[k], y, b[k + 1], h);
      ctx.fill();
    }
  }
}

function drawSlices(ctx, d, row, h, x, t0, t1) {
  const { start, end, state, goroutine, count } = d;
  const byGoroutine = row.resource && row.resource[0] !== 'goroutine';
  const pad = row.thin ? 1 : 2;
  const n = start.length;
  const rects = new Batches();
  const lines = new Batches();
  const labels = [];
  let lastX = -Infinity;
  for (let i = firstEnding(end, t0); i < n && start[i] <= t1; i++) {
    const st = state[i];
    let x0 = x(start[i]);
    let x1 = x(end[i]);
    if (st === WAITING && !byGoroutine) {
      // Waiting is the background of a goroutine lane: a thin line.
      lines.add(STATE_FILL[WAITING], x0, Math.max(1, x1 - x0));
      continue;
    }
    if (x1 - x0 < 1) {
      // Sub-pixel slices: one rectangle per pixel column is enough.
      const px = Math.floor(x0);
      if (px === lastX) continue;
      x0 = px;
      x1 = px + 1;
      lastX = px;
    }
    rects.add(byGoroutine && st === RUNNING ? goroutineColor(goroutine[i]) : STATE_FILL[st] ?? '#999', x0, x1 - x0);
    if (x1 - x0 > 24 && !row.thin) labels.push(i, x0, x1);
  }
  lines.fill(ctx, h / 2 - 1, 2);
  rects.fill(ctx, pad, h - 2 * pad);
  if (!labels.length) return;
  ctx.fillStyle = '#ffffff';
  for (let k = 0; k < labels.length; k += 3) {
    const i = labels[k];
    let text = '';
    if (byGoroutine && goroutine[i] >= 0) text = `G${goroutine[i]}`;
    else if (d.label[i] >= 0) text = d.labels[d.label[i]];
    else if (count[i] > 1) text = `${count[i]} slices`;
    if (!text) continue;
    const x0 = Math.max(labels[k + 1], 0);
    if (textWidth(ctx, text) + 6 <= labels[k + 2] - x0) ctx.fillText(text, x0 + 3, h / 2);
  }
}

function drawSpans(ctx, d, row, h, x, t0, t1) {
  const rows = row.rowsOf || 1;
  const lane = (h - 4) / rows;
  const rects = new Map();
  const labels = [];
  const lastPx = new Float64Array(rows).fill(-Infinity);
  // Spans overlap across rows, so all are looked at; those of one colour are drawn in
  // one path, and of the spans narrower than a pixel one per pixel and row.
  for (let i = 0; i < d.start.length; i++) {
    if (d.end[i] < t0 || d.start[i] > t1) continue;
    const r = Math.min(d.row[i], rows - 1);
    let x0 = x(d.start[i]);
    let x1 = x(d.end[i]);
    if (x1 - x0 < 1) {
      const px = Math.floor(x0);
      if (px === lastPx[r]) continue;
      lastPx[r] = px;
      x0 = px;
      x1 = px + 1;
    }
    const color = spanColor(d.name[i]);
    let b = rects.get(color);
    if (!b) rects.set(color, (b = []));
    b.push(x0, 2 + r * lane, x1 - x0);
    if (x1 - x0 > 24 && lane >= 10) labels.push(i, x0, x1, r);
  }
  for (const [color, b] of rects) {
    ctx.fillStyle = color;
    ctx.beginPath();
    for (let k = 0; k < b.length; k += 3) ctx.rect(b[k], b[k + 1], b[k + 2], lane - 1);
    ctx.fill();
  }
  ctx.fillStyle = '#111827';
  for (let k = 0; k < labels.length; k += 4) {
    const i = labels[k];
    const text = d.names[d.name[i]] ?? '';
    const x0 = Math.max(labels[k + 1], 0);
    if (text && textWidth(ctx, text) + 6 <= labels[k + 2] - x0) ctx.fillText(text, x0 + 3, 2 + labels[k + 3] * lane + lane / 2);
  }
}

function drawInstants(ctx, d, h, x, t0, t1) {
  // Marks by opacity (a few steps), one path each.
  const steps = [[], [], [], [], []];
  for (let i = 0; i < d.time.length; i++) {
    if (d.time[i] < t0 || d.time[i] > t1) continue;
    const c = Math.min(1, 0.35 + Math.log2(1 + d.count[i]) / 6);
    steps[Math.min(4, Math.round((c - 0.35) / 0.1625))].push(Math.floor(x(d.time[i])));
  }
  ctx.fillStyle = '#374151';
  for (let s = 0; s < steps.length; s++) {
    if (!steps[s].length) continue;
    ctx.globalAlpha = 0.35 + s * 0.1625;
    ctx.beginPath();
    for (const px of steps[s]) ctx.rect(px, 3, 1.5, h - 6);
    ctx.fill();
  }
  ctx.globalAlpha = 1;
}

function drawSeries(ctx, row, datas, h, x, t1) {
  let max = 0;
  const list = [];
  row.tracks.forEach((ref, k) => {
    const d = datas[k];
    if (!d || d.type !== 'series') return;
    list.push([ref.name, d]);
    for (let i = 0; i < d.max.length; i++) if (d.max[i] > max) max = d.max[i];
  });
  if (max <= 0) return 0;
  const yv = (v) => h - 3 - (v / max) * (h - 8);
  for (const [name, d] of list) {
    ctx.strokeStyle = SERIES_COLORS[name] ?? '#555';
    ctx.fillStyle = ctx.strokeStyle;
    ctx.lineWidth = 1;
    ctx.beginPath();
    const n = d.time.length;
    if (d.exact) {
      for (let i = 0; i < n; i++) {
        const px = x(d.time[i]);
        const py = yv(d.value[i]);
        if (i === 0) ctx.moveTo(px, py);
        else ctx.lineTo(px, yv(d.value[i - 1])), ctx.lineTo(px, py);
      }
      if (n) ctx.lineTo(x(t1), yv(d.value[n - 1]));
      ctx.stroke();
    } else {
      for (let i = 0; i < n; i++) {
        const px = x(d.time[i]);
        const a = yv(d.min[i]);
        const b = yv(d.max[i]);
        ctx.rect(px, b, 1, Math.max(1, a - b));
      }
      ctx.fill();
    }
  }
  return max;
}

function drawAxis(ctx, f, x, pw) {
  ctx.fillStyle = '#f5f6f8';
  ctx.fillRect(0, 0, f.width, AXIS_HEIGHT);
  ctx.fillStyle = '#dfe3ea';
  ctx.fillRect(0, AXIS_HEIGHT - 1, f.width, 1);
  const { step, ticks } = timeTicks(f.t0 - f.start, f.t1 - f.start, pw);
  ctx.textAlign = 'left';
  ctx.fillStyle = '#c5cad3';
  ctx.beginPath();
  for (const rel of ticks) ctx.rect(Math.round(x(rel + f.start)), AXIS_HEIGHT - 8, 1, 8);
  ctx.fill();
  ctx.fillStyle = '#1d2129';
  for (const rel of ticks) ctx.fillText(formatTick(rel, step), Math.round(x(rel + f.start)) + 3, AXIS_HEIGHT / 2 - 2);
  ctx.fillStyle = '#f5f6f8';
  ctx.fillRect(0, 0, LABEL_WIDTH, AXIS_HEIGHT - 1);
  ctx.fillStyle = '#6b7280';
  ctx.fillText(`${formatTick(f.t1 - f.t0, step)} shown`, 8, AXIS_HEIGHT / 2 - 2);
}

function drawArrows(ctx, f, x, top) {
  if (!f.arrows?.length) return;
  for (const a of f.arrows) {
    const x0 = x(a.fromTime);
    const y0 = top + a.fromY - f.scrollY;
    const x1 = x(a.toTime);
    const y1 = top + a.toY - f.scrollY;
    ctx.strokeStyle = a.color ?? '#111827';
    ctx.fillStyle = ctx.strokeStyle;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    const mx = (x0 + x1) / 2;
    ctx.bezierCurveTo(mx, y0, mx, y1, x1, y1);
    ctx.stroke();
    const ang = Math.atan2(y1 - y0, Math.max(1, x1 - mx));
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x1 - 7 * Math.cos(ang - 0.4), y1 - 7 * Math.sin(ang - 0.4));
    ctx.lineTo(x1 - 7 * Math.cos(ang + 0.4), y1 - 7 * Math.sin(ang + 0.4));
    ctx.closePath();
    ctx.fill();
    ctx.beginPath();
    ctx.arc(x0, y0, 2.5, 0, Math.PI * 2);
    ctx.fill();
  }
}

const spanColors = [];
function spanColor(i) {
  return (spanColors[i] ??= nameColor(i));
}

// Text widths in the timeline's font, measured once per text.
const widths = new Map();
function textWidth(ctx, text) {
  let w = widths.get(text);
  if (w === undefined) {
    w = ctx.measureText(text).width;
    if (widths.size > 20000) widths.clear();
    widths.set(text, w);
  }
  return w;
}

// A label cut to fit a width, with an ellipsis (cached per label).
const fits = new Map();
function fitted(ctx, text, width) {
  let s = fits.get(text);
  if (s !== undefined) return s;
  s = text;
  if (ctx.measureText(s).width > width) {
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ctx.measureText(text.slice(0, mid) + '…').width <= width) lo = mid;
      else hi = mid - 1;
    }
    s = text.slice(0, lo) + '…';
  }
  if (fits.size > 20000) fits.clear();
  fits.set(text, s);
  return s;
}

/** The index of the slice/span/instant of `d` under time t (with `slop` ns), or -1. */
export function hitTest(d, t, slop) {
  if (!d) return -1;
  const starts = d.type === 'instants' ? d.time : d.start;
  const ends = d.type === 'instants' ? d.time : d.end;
  // Binary search for the last start <= t + slop.
  let lo = 0;
  let hi = starts.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= t + slop) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let i = best; i >= 0 && i > best - 64; i--) {
    if (ends[i] + slop >= t && starts[i] - slop <= t) {
      if (d.type === 'slices' && STATES[d.state[i]] === 'waiting' && i !== best) continue;
      return i;
    }
  }
  return -1;
}
