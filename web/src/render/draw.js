// Draws one frame of the timeline on a 2D canvas from the rows (layout.js) and the
// query results cached per track. Pure drawing: no queries.
//
// Row plots come from the strip cache (strips.js), which draws each row once and
// reuses it while panning and zooming; without a cache they are drawn directly.
import { formatBytes, formatCount, formatDuration, formatTick, timeTicks } from '../model/format.js';
import { LIGHT } from './theme.js';
import { MARKED_TASK, SERIES_COLORS, SERIES_NAMES, STATES } from './colors.js';
import { drawContent, FONT, spanLane } from './content.js';
import { AXIS_HEIGHT, stickyHeader, trackKey } from './layout.js';

export { createStripCache } from './strips.js';

export const LABEL_WIDTH = 200;
// The colours of the frame being drawn (theme.js).
let T = LIGHT;
export const MIN_LABEL_WIDTH = 120;
// Strip work (strips.js) starts in a frame only until this much of it is spent (ms).
const STRIP_BUDGET = 3;

/**
 * frame: { width, height, dpr, t0, t1, start, end (the trace's), rows, scrollY,
 *          data: Map(key → result), selection: { rowKey, start, end } | null,
 *          marked: the key of the row a link named (its goroutine, ?g=) | null,
 *          task: the id of a task to mark in the Tasks row | null,
 *          range: [a, b] | null, detail: [a, b] (the part open, of a trace opened in parts drawn whole) | null, arrows: [{ fromY, fromTime, toY, toTime, color, label? }],
 *          hoverX, cache (createStripCache(); none: everything drawn directly),
 *          labelWidth (the label column's, LABEL_WIDTH by default), theme (theme.js),
 *          clock (wallClock.js: a wall-clock ruler; none: times from the trace's start) }
 * Returns { pending: true when stale strips were left for a later frame, ruler: the
 * ruler's labels { corner, ticks }, axes: the top
 * of each plot's Y axis drawn, [{ key, max, text }] }.
 */
export function drawFrame(ctx, f) {
  const began = performance.now();
  const { width, height } = f;
  const LW = f.labelWidth ?? LABEL_WIDTH;
  T = f.theme ?? LIGHT;
  ctx.save();
  ctx.fillStyle = T.bg;
  ctx.fillRect(0, 0, width, height);
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  const pw = width - LW;
  const scale = pw / Math.max(1, f.t1 - f.t0);
  const x = (t) => LW + (t - f.t0) * scale;
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
      ctx.fillStyle = T.section;
      ctx.fillRect(0, y, width, row.height);
    } else if ((f.selection && f.selection.rowKey === row.key) || f.marked === row.key) {
      ctx.fillStyle = T.selected;
      ctx.fillRect(0, y, width, row.height);
    }
    // The lane a link named (a goroutine's "Open in timeline"): an edge of its own, so
    // that it is found among its group's.
    if (f.marked === row.key) {
      ctx.fillStyle = T.marked;
      ctx.fillRect(0, y, 3, row.height);
    }
  }
  ctx.fillStyle = T.separator;
  ctx.beginPath();
  for (const [row, y] of visible) if (row.type !== 'section') ctx.rect(0, y + row.height - 1, width, 1);
  ctx.fill();

  // Plots.
  let pending = false;
  ctx.save();
  ctx.beginPath();
  ctx.rect(LW, top, pw, height - top);
  ctx.clip();
  const axes = []; // series rows drawn: [row, y, the top of their scale]
  const view = { t0: f.t0, t1: f.t1, start: f.start, end: f.end ?? f.t1, scale, pw, dpr: f.dpr || 1 };
  for (const [row, y] of visible) {
    if (row.type === 'section' || !row.tracks.length) continue;
    const datas = row.tracks.map((ref) => f.data.get(trackKey(ref)));
    if (!datas.some(Boolean)) continue;
    let max;
    if (cache) {
      const r = cache.blit(ctx, row, datas, y, LW, view, performance.now() - began < STRIP_BUDGET);
      pending = pending || r.pending;
      max = r.max;
    } else {
      ctx.save();
      ctx.translate(0, y);
      max = drawContent(ctx, row, datas, x, f.t0, f.t1);
      ctx.restore();
    }
    if (row.type === 'series') axes.push([row, y, max]);
    const sel = f.selection;
    if (sel && sel.rowKey === row.key && row.type === 'slices') {
      const x0 = x(sel.start);
      const x1 = x(sel.end);
      ctx.strokeStyle = T.strong;
      ctx.lineWidth = 2;
      ctx.strokeRect(x0, y + 1, Math.max(2, x1 - x0), row.height - 2);
    }
    if (f.task != null && row.key === 'tasks') markTask(ctx, row, datas[0], f.task, y, x);
  }
  drawArrows(ctx, f, x, top);
  ctx.restore();

  // Labels.
  for (const [row, y] of visible) {
    if (row.type === 'series') continue;
    ctx.fillStyle = row.type === 'section' || row.type === 'group' ? T.fg : T.label;
    if (row.type === 'section') ctx.font = 'bold ' + FONT;
    ctx.fillText(fitted(ctx, row.label, LW - 10), 6, y + row.height / 2);
    if (row.type === 'section') ctx.font = FONT;
  }
  ctx.fillStyle = T.line;
  ctx.beginPath();
  for (const [row, y] of visible) if (row.type !== 'section') ctx.rect(LW - 1, y, 1, row.height);
  ctx.fill();
  for (const [row, y, max] of axes) drawPlotLabel(ctx, row, y, max, LW);
  // The header of the group whose lanes are on screen, pinned under the ruler.
  const sticky = stickyHeader(rows, f.scrollY);
  if (sticky) {
    ctx.fillStyle = T.sticky;
    ctx.fillRect(0, top, width, sticky.height);
    ctx.fillStyle = T.tick;
    ctx.fillRect(0, top + sticky.height - 1, width, 1);
    ctx.fillStyle = T.fg;
    ctx.font = 'bold ' + FONT;
    ctx.fillText(sticky.label, 6, top + sticky.height / 2);
    ctx.font = FONT;
  }
  ctx.restore();

  // Of a trace opened in parts drawn whole: the time outside the part open (f.detail,
  // [start, end]) is the whole trace's zoomed-out timeline, shaded.
  if (f.detail) {
    const a = Math.min(width, Math.max(LW, x(f.detail[0])));
    const b = Math.max(LW, Math.min(width, x(f.detail[1])));
    ctx.fillStyle = T.outsidePart;
    if (a > LW) ctx.fillRect(LW, top, a - LW, height - top);
    if (b < width) ctx.fillRect(b, top, width - b, height - top);
  }
  // Range selection.
  if (f.range) {
    const a = Math.max(LW, x(f.range[0]));
    const b = Math.min(width, x(f.range[1]));
    if (b > a) {
      ctx.fillStyle = 'rgba(37, 99, 235, 0.12)';
      ctx.fillRect(a, top, b - a, height - top);
      ctx.fillStyle = 'rgba(37, 99, 235, 0.8)';
      ctx.fillRect(a, top, 1, height - top);
      ctx.fillRect(b - 1, top, 1, height - top);
    }
  }
  const ruler = drawAxis(ctx, f, x, pw, LW);
  if (f.hoverX != null && f.hoverX > LW) {
    ctx.fillStyle = T.hover;
    ctx.fillRect(Math.round(f.hoverX), top, 1, height - top);
  }
  ctx.restore();
  cache?.endFrame();
  return { pending, ruler, axes: axes.map(([row, , max]) => ({ key: row.key, max, text: axisText(row, max) })) };
}

const axisText = (row, max) => (max <= 0 ? '' : row.unit === 'bytes' ? formatBytes(max) : formatCount(max));

// A plot's label column: its name, a legend of its series, and its Y axis (the top of
// its scale and 0, right-aligned against the plot).
function drawPlotLabel(ctx, row, y, max, LW) {
  const h = row.height;
  ctx.fillStyle = T.fg;
  ctx.fillText(row.label, 6, y + 9);
  // The legend in up to two lines under the name.
  let lx = 6;
  let ly = y + 23;
  for (const ref of row.tracks) {
    const name = row.of === 'threads' && ref.name === 'goroutines-syscall' ? 'in syscall' : SERIES_NAMES[ref.name] ?? ref.name;
    const w = ctx.measureText(name).width;
    if (lx > 6 && lx + 10 + w > LW - 44) {
      if (ly > y + 23) break;
      lx = 6;
      ly += 13;
    }
    ctx.fillStyle = SERIES_COLORS[ref.name] ?? '#555';
    ctx.fillRect(lx, ly - 2, 8, 3);
    ctx.fillStyle = T.label;
    ctx.fillText(name, lx + 10, ly);
    lx += 10 + w + 8;
  }
  ctx.fillStyle = T.tick;
  ctx.fillRect(LW - 4, y + 5, 4, 1);
  ctx.fillRect(LW - 4, y + h - 3, 4, 1);
  if (max <= 0) return;
  ctx.fillStyle = T.muted;
  ctx.textAlign = 'right';
  ctx.fillText(axisText(row, max), LW - 6, y + 7);
  ctx.fillText('0', LW - 6, y + h - 5);
  ctx.textAlign = 'left';
}

// The ruler: ticks from f.origin (OpenedTrace.origin: the trace's start, or for a part of
// a trace the whole trace's), or with f.clock (wallClock.js) on round wall times,
// labelled with the time of day, the corner giving the wall time of the left edge.
// Returns what it wrote: { corner, ticks }.
function drawAxis(ctx, f, x, pw, LW) {
  ctx.fillStyle = T.axis;
  ctx.fillRect(0, 0, f.width, AXIS_HEIGHT);
  ctx.fillStyle = T.line;
  ctx.fillRect(0, AXIS_HEIGHT - 1, f.width, 1);
  const wall = f.clock ?? null;
  const o = f.origin;
  let { step, ticks } = timeTicks(f.t0 - o, f.t1 - o, pw);
  if (wall) {
    // Ticks on round wall times, from the view's start: each generation's clock snapshot
    // differs a little, so a shift taken at the trace's start would not hold here.
    const round = f.t0 - o - wall.phase(f.t0, step);
    ticks = [];
    for (let t = round < f.t0 - o ? round + step : round; t <= f.t1 - o; t += step) ticks.push(t);
  }
  // Zoomed in far from the origin, labels in the step's unit grow long ("5563500 ns"):
  // the first tick then gives its time in full ("5.5635 ms"), the others what follows it.
  const far = !wall && ticks.length > 1 && Math.abs(ticks[ticks.length - 1]) / step >= 1e4;
  const magnitude = Math.max(...ticks.map(Math.abs), step);
  const label = (rel, i) => {
    if (wall) return wall.tick(rel + o, step);
    if (!far) return formatTick(rel, step, magnitude);
    if (i > 0) return `+${formatTick(rel - ticks[0], step)}`;
    const digits = Math.floor(Math.log10(Math.abs(rel))) - Math.floor(Math.log10(step)) + 1;
    return formatDuration(rel, Math.min(15, Math.max(3, digits)));
  };
  const labels = ticks.map(label);
  ctx.textAlign = 'left';
  ctx.fillStyle = T.tick;
  ctx.beginPath();
  for (const rel of ticks) ctx.rect(Math.round(x(rel + o)), AXIS_HEIGHT - 8, 1, 8);
  ctx.fill();
  ctx.fillStyle = T.fg;
  ticks.forEach((rel, i) => ctx.fillText(labels[i], Math.round(x(rel + o)) + 3, AXIS_HEIGHT / 2 - 2));
  ctx.fillStyle = T.axis;
  ctx.fillRect(0, 0, LW, AXIS_HEIGHT - 1);
  ctx.fillStyle = T.muted;
  const corner = wall ? wall.format(f.t0) : `${formatTick(f.t1 - f.t0, step)} shown`;
  if (wall) {
    ctx.font = '10px system-ui, sans-serif';
    ctx.fillText(corner, 4, AXIS_HEIGHT / 2 - 2, LW - 6);
    ctx.font = FONT;
  } else {
    ctx.fillText(corner, 8, AXIS_HEIGHT / 2 - 2);
  }
  return { corner, ticks: labels };
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
    if (a.label) {
      // The goroutine an arrow comes from, when its lane is not where the arrow starts.
      ctx.font = '10px system-ui, sans-serif';
      const w = ctx.measureText(a.label).width + 4;
      ctx.fillRect(x0 + 3, y0 - 13, w, 12);
      ctx.fillStyle = '#ffffff';
      ctx.fillText(a.label, x0 + 5, y0 - 4);
    }
  }
}

// A label cut to fit a width, with an ellipsis (cached per label).
const fits = new Map();
function fitted(ctx, text, width) {
  const key = width + '\u0000' + text;
  let s = fits.get(key);
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
  fits.set(key, s);
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
