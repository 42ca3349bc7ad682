// Draws one frame of the timeline on a 2D canvas from the rows (layout.js) and the
// query results cached per track. Pure drawing: no queries.
//
// Row plots come from the strip cache (strips.js), which draws each row once and
// reuses it while panning and zooming; without a cache they are drawn directly.
import { formatBytes, formatTick, timeTicks } from '../model/format.js';
import { MARKED_TASK, STATES } from './colors.js';
import { drawContent, FONT, spanLane } from './content.js';
import { AXIS_HEIGHT, trackKey } from './layout.js';

export { createStripCache } from './strips.js';

export const LABEL_WIDTH = 200;
// Strip work (strips.js) starts in a frame only until this much of it is spent (ms).
const STRIP_BUDGET = 3;

/**
 * frame: { width, height, dpr, t0, t1, start, end (the trace's), rows, scrollY,
 *          data: Map(key → result), selection: { rowKey, start, end } | null,
 *          task: the id of a task to mark in the Tasks row | null,
 *          range: [a, b] | null, arrows: [{ fromY, fromTime, toY, toTime, color }],
 *          hoverX, cache (createStripCache(); none: everything drawn directly) }
 * Returns { pending }: true when stale strips were left for a later frame.
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
      const r = cache.blit(ctx, row, datas, y, LABEL_WIDTH, view, performance.now() - began < STRIP_BUDGET);
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
    if (f.task != null && row.key === 'tasks') markTask(ctx, row, datas[0], f.task, y, x);
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
  cache?.endFrame();
  return { pending };
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

// Outlines the bar of task `id` among the overlapping ones of the Tasks row (on whole
// pixels: the outline is of one colour, which tests look for).
function markTask(ctx, row, d, id, y, x) {
  if (!d || d.type !== 'spans') return;
  ctx.strokeStyle = MARKED_TASK;
  ctx.lineWidth = 2;
  for (let i = 0; i < d.task.length; i++) {
    if (d.task[i] !== id) continue;
    const { top, height } = spanLane(row, d.row[i]);
    const x0 = Math.round(x(d.start[i]));
    ctx.strokeRect(x0, Math.round(y + top), Math.max(2, Math.round(x(d.end[i])) - x0), Math.round(height));
  }
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
