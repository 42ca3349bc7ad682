// A row's plot (slices, spans, instants, series) drawn on any 2D context: the page's
// canvas, or an offscreen strip in the strip worker (stripWorker.js). Pure drawing.
import { blockColor } from '../views/common/breakdown.js';
import { STATE_COLORS, STATES, SERIES_COLORS, goroutineColor, nameColor, taskNameColor } from './colors.js';

export const FONT = '11px system-ui, sans-serif';
const STATE_FILL = STATES.map((s) => STATE_COLORS[s] ?? '#999');
const RUNNING = STATES.indexOf('running');
/** Series whose value says "none here" (the core's heap goal is 0 where GC is off). */
export const NO_VALUE = { 'heap-goal': 0 };
const WAITING = STATES.indexOf('waiting');

// A row's plot at y = 0, for times t0..t1 mapped by x. Returns a series row's maximum.
export function drawContent(ctx, row, datas, x, t0, t1) {
  const h = row.height;
  for (const d of datas) {
    if (!d) continue;
    if (d.type === 'slices') drawSlices(ctx, d, row, h, x, t0, t1);
    else if (d.type === 'spans') drawSpans(ctx, d, row, h, x, t0, t1);
    else if (d.type === 'instants') drawInstants(ctx, d, h, x, t0, t1);
    else if (d.type === 'activity') drawActivity(ctx, d, h, x, t0, t1);
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
      // Waiting is the background of a goroutine lane: a thin line, in the colour of
      // why it blocked (the goroutine table's colours), grey when it does not say.
      const reason = d.label[i] >= 0 ? d.labels[d.label[i]] : '';
      lines.add(reason ? blockColor(reason) : STATE_FILL[WAITING], x0, Math.max(1, x1 - x0));
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

/** Where row r of a span row's lanes is drawn: { top, height } from the row's top. */
export function spanLane(row, r) {
  const rows = row.rowsOf || 1;
  const lane = (row.height - 4) / rows;
  return { top: 2 + Math.min(r, rows - 1) * lane, height: barHeight(lane) };
}

// Lanes a few pixels high keep a pixel between bars; thinner ones (a folded row of
// many lanes) are filled.
const barHeight = (lane) => (lane >= 3 ? lane - 1 : lane);

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
    const color = row.key === 'tasks' ? taskColor(d.name[i]) : spanColor(d.name[i]);
    let b = rects.get(color);
    if (!b) rects.set(color, (b = []));
    b.push(x0, 2 + r * lane, x1 - x0);
    if (x1 - x0 > 24 && lane >= 10) labels.push(i, x0, x1, r);
  }
  for (const [color, b] of rects) {
    ctx.fillStyle = color;
    ctx.beginPath();
    for (let k = 0; k < b.length; k += 3) ctx.rect(b[k], b[k + 1], b[k + 2], barHeight(lane));
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

// A folded group: per pixel, its goroutines running, in syscall and runnable stacked
// from the bottom (scaled to the most at once in the view); a line where all wait.
const ACTIVE = [['running', STATE_COLORS.running], ['syscall', STATE_COLORS.syscall], ['runnable', STATE_COLORS.runnable]];
function drawActivity(ctx, d, h, x, t0, t1) {
  const n = d.running.length;
  let max = 0;
  for (let p = 0; p < n; p++) max = Math.max(max, d.running[p] + d.syscall[p] + d.runnable[p]);
  const scale = (h - 4) / Math.max(1, max);
  const paths = ACTIVE.map(() => []);
  const idle = [];
  for (let p = 0; p < n; p++) {
    const a = d.from + p * d.step;
    if (a + d.step < t0 || a > t1) continue;
    const x0 = x(a);
    const w = Math.max(1, x(a + d.step) - x0);
    let y = h - 2;
    let any = false;
    ACTIVE.forEach(([state], k) => {
      const v = d[state][p];
      if (v <= 0) return;
      const bar = Math.max(1, v * scale);
      paths[k].push(x0, y - bar, w, bar);
      y -= bar;
      any = true;
    });
    if (!any && d.waiting[p] > 0) idle.push(x0, w);
  }
  ACTIVE.forEach(([, color], k) => {
    if (!paths[k].length) return;
    ctx.fillStyle = color;
    ctx.beginPath();
    for (let i = 0; i < paths[k].length; i += 4) ctx.rect(paths[k][i], paths[k][i + 1], paths[k][i + 2], paths[k][i + 3]);
    ctx.fill();
  });
  if (idle.length) {
    ctx.fillStyle = STATE_COLORS.waiting;
    ctx.beginPath();
    for (let i = 0; i < idle.length; i += 2) ctx.rect(idle[i], h / 2 - 1, idle[i + 1], 2);
    ctx.fill();
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
  ctx.fillStyle = '#6b7280'; // grey that reads on the light and the dark background
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
  // The top of the axis: a round figure (in bytes, of KiB, MiB…) at or above the maximum.
  max = niceCeil(max, row.unit === 'bytes' ? 1024 : 1000);
  const yv = (v) => h - 3 - (v / max) * (h - 8);
  for (const [name, d] of list) {
    ctx.strokeStyle = SERIES_COLORS[name] ?? '#555';
    ctx.fillStyle = ctx.strokeStyle;
    ctx.lineWidth = 1;
    ctx.beginPath();
    const n = d.time.length;
    const none = NO_VALUE[name];  // a value that means "none here": not drawn
    if (d.exact) {
      for (let i = 0; i < n; i++) {
        const px = x(d.time[i]);
        const py = yv(d.value[i]);
        const drawn = d.value[i] !== none;
        if (i === 0 || d.value[i - 1] === none) {
          if (drawn) ctx.moveTo(px, py);
        } else {
          ctx.lineTo(px, yv(d.value[i - 1]));
          if (drawn) ctx.lineTo(px, py);
        }
      }
      if (n && d.value[n - 1] !== none) ctx.lineTo(x(t1), yv(d.value[n - 1]));
      ctx.stroke();
    } else {
      for (let i = 0; i < n; i++) {
        if (d.max[i] === none) continue;
        const px = x(d.time[i]);
        const a = yv(d.min[i] === none ? d.max[i] : d.min[i]);
        const b = yv(d.max[i]);
        ctx.rect(px, b, 1, Math.max(1, a - b));
      }
      ctx.fill();
    }
  }
  return max;
}

/** The least of 1, 2, 2.5, 5 × 10^k (× base^j, in units of base) at or above v. */
export function niceCeil(v, base = 1000) {
  let unit = 1;
  while (base === 1024 && v / unit >= 1024) unit *= 1024;
  const x = v / unit;
  const pow = 10 ** Math.floor(Math.log10(x));
  const m = [1, 2, 2.5, 5, 10].find((f) => f * pow >= x - 1e-9);
  return m * pow * unit;
}

const spanColors = [];
function spanColor(i) {
  return (spanColors[i] ??= nameColor(i));
}
const taskColors = [];
function taskColor(i) {
  return (taskColors[i] ??= taskNameColor(i));
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


/**
 * Draws a row's plot for times t0..t1 at `scale` px/ns into `canvas` (resized to fit,
 * `dpr` device pixels per px, `h` px high). Returns { t1 (where the strip really ends),
 * max (a series row's maximum) }.
 */
export function paintStrip(canvas, row, datas, t0, t1, scale, dpr, h) {
  const w = Math.max(1, Math.ceil((t1 - t0) * scale));
  const cw = Math.ceil(w * dpr);
  const ch = Math.ceil(h * dpr);
  if (canvas.width !== cw || canvas.height !== ch) {
    canvas.width = cw;
    canvas.height = ch;
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, cw, ch);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  const max = drawContent(ctx, row, datas, (t) => (t - t0) * scale, t0, t1);
  return { t1: t0 + w / scale, max };
}

// The fields of a query result that drawing reads (what a strip worker is sent).
const DRAWN = {
  slices: ['start', 'end', 'state', 'goroutine', 'count', 'label', 'labels'],
  spans: ['start', 'end', 'row', 'count', 'name', 'names'],
  instants: ['time', 'count'],
  series: ['time', 'value', 'min', 'max', 'exact'],
  activity: ['from', 'step', 'size', 'running', 'runnable', 'waiting', 'syscall'],
};
export function drawnPart(d) {
  const out = { type: d.type };
  for (const k of DRAWN[d.type] ?? []) out[k] = d[k];
  return out;
}
