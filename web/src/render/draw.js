// Draws one frame of the timeline on a 2D canvas from the rows (layout.js) and the
// query results cached per track. Pure drawing: no state, no queries.
import { formatBytes, formatTick, timeTicks } from '../model/format.js';
import { STATE_COLORS, STATES, SERIES_COLORS, goroutineColor, nameColor } from './colors.js';
import { AXIS_HEIGHT, trackKey } from './layout.js';

export const LABEL_WIDTH = 200;
const FONT = '11px system-ui, sans-serif';

/**
 * frame: { width, height, t0, t1, start (trace start), rows, scrollY, data: Map(key → result),
 *          selection: { rowKey, start, end } | null, range: [a, b] | null,
 *          arrows: [{ fromRow, fromTime, toRow, toTime, kind }], hoverX }
 */
export function drawFrame(ctx, f) {
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

  // Rows, clipped below the axis.
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, top, width, height - top);
  ctx.clip();
  for (const row of f.rows) {
    const y = top + row.y - f.scrollY;
    if (y + row.height < top || y > height) continue;
    drawRow(ctx, row, y, f, x, scale, pw);
  }
  drawArrows(ctx, f, x, top);
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
}

function drawAxis(ctx, f, x, pw) {
  ctx.fillStyle = '#f5f6f8';
  ctx.fillRect(0, 0, f.width, AXIS_HEIGHT);
  ctx.fillStyle = '#dfe3ea';
  ctx.fillRect(0, AXIS_HEIGHT - 1, f.width, 1);
  const { step, ticks } = timeTicks(f.t0 - f.start, f.t1 - f.start, pw);
  ctx.fillStyle = '#1d2129';
  ctx.textAlign = 'left';
  for (const rel of ticks) {
    const px = Math.round(x(rel + f.start));
    ctx.fillStyle = '#c5cad3';
    ctx.fillRect(px, AXIS_HEIGHT - 8, 1, 8);
    ctx.fillStyle = '#1d2129';
    ctx.fillText(formatTick(rel, step), px + 3, AXIS_HEIGHT / 2 - 2);
  }
  ctx.fillStyle = '#6b7280';
  ctx.fillText(`${formatTick(f.t1 - f.t0, step)} shown`, 8, AXIS_HEIGHT / 2 - 2);
}

function drawRow(ctx, row, y, f, x, scale, pw) {
  const h = row.height;
  if (row.type === 'section') {
    ctx.fillStyle = '#eef1f5';
    ctx.fillRect(0, y, f.width, h);
    ctx.fillStyle = '#1d2129';
    ctx.font = 'bold ' + FONT;
    ctx.fillText(row.label, 6, y + h / 2);
    ctx.font = FONT;
    return;
  }
  const selected = f.selection && f.selection.rowKey === row.key;
  ctx.fillStyle = selected ? '#eef3fc' : '#ffffff';
  ctx.fillRect(0, y, f.width, h);
  ctx.fillStyle = '#eef0f3';
  ctx.fillRect(0, y + h - 1, f.width, 1);
  // Label column.
  ctx.fillStyle = row.type === 'group' ? '#1d2129' : '#4b5563';
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, y, LABEL_WIDTH - 4, h);
  ctx.clip();
  ctx.fillText(row.label, 6, y + h / 2);
  ctx.restore();
  ctx.fillStyle = '#dfe3ea';
  ctx.fillRect(LABEL_WIDTH - 1, y, 1, h);

  ctx.save();
  ctx.beginPath();
  ctx.rect(LABEL_WIDTH, y, pw, h);
  ctx.clip();
  for (const ref of row.tracks) {
    const d = f.data.get(trackKey(ref));
    if (!d) continue;
    if (d.type === 'slices') drawSlices(ctx, d, row, y, h, x, f);
    else if (d.type === 'spans') drawSpans(ctx, d, row, y, h, x);
    else if (d.type === 'instants') drawInstants(ctx, d, y, h, x);
  }
  if (row.type === 'series') drawSeries(ctx, row, y, h, x, f);
  ctx.restore();
}

function drawSlices(ctx, d, row, y, h, x, f) {
  const { start, end, state, goroutine, count } = d;
  const byGoroutine = row.resource && row.resource[0] !== 'goroutine';
  const pad = row.thin ? 1 : 2;
  const n = start.length;
  let lastX = -1;
  for (let i = 0; i < n; i++) {
    const s = STATES[state[i]];
    if (s === 'waiting' && !byGoroutine) {
      // Waiting is the background of a goroutine lane: a thin line.
      const x0 = x(start[i]);
      const x1 = x(end[i]);
      ctx.fillStyle = STATE_COLORS.waiting;
      ctx.fillRect(x0, y + h / 2 - 1, Math.max(1, x1 - x0), 2);
      continue;
    }
    let x0 = x(start[i]);
    let x1 = x(end[i]);
    if (x1 - x0 < 1) {
      // Sub-pixel slices: one rectangle per pixel column is enough.
      if (Math.floor(x0) === lastX) continue;
      x0 = Math.floor(x0);
      x1 = x0 + 1;
      lastX = x0;
    }
    ctx.fillStyle = byGoroutine && s === 'running' ? goroutineColor(goroutine[i]) : STATE_COLORS[s] ?? '#999';
    ctx.fillRect(x0, y + pad, x1 - x0, h - 2 * pad);
    if (x1 - x0 > 40 && !row.thin) {
      let text = '';
      if (byGoroutine && goroutine[i] >= 0) text = `G${goroutine[i]}`;
      else if (d.label[i] >= 0) text = d.labels[d.label[i]];
      else if (count[i] > 1) text = `${count[i]} slices`;
      if (text) {
        ctx.save();
        ctx.beginPath();
        ctx.rect(x0, y, x1 - x0, h);
        ctx.clip();
        ctx.fillStyle = '#ffffff';
        ctx.fillText(text, Math.max(x0, 200) + 3, y + h / 2);
        ctx.restore();
      }
    }
  }
  const sel = f.selection;
  if (sel && sel.rowKey === row.key) {
    const x0 = x(sel.start);
    const x1 = x(sel.end);
    ctx.strokeStyle = '#111827';
    ctx.lineWidth = 2;
    ctx.strokeRect(x0, y + 1, Math.max(2, x1 - x0), h - 2);
  }
}

function drawSpans(ctx, d, row, y, h, x) {
  const rows = row.rowsOf || 1;
  const lane = (h - 4) / rows;
  for (let i = 0; i < d.start.length; i++) {
    const r = Math.min(d.row[i], rows - 1);
    const x0 = x(d.start[i]);
    const x1 = Math.max(x0 + 1, x(d.end[i]));
    ctx.fillStyle = nameColor(d.name[i]);
    ctx.fillRect(x0, y + 2 + r * lane, x1 - x0, lane - 1);
    if (x1 - x0 > 50 && lane >= 10) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(x0, y, x1 - x0, h);
      ctx.clip();
      ctx.fillStyle = '#111827';
      ctx.fillText(d.names[d.name[i]] ?? '', Math.max(x0, 200) + 3, y + 2 + r * lane + lane / 2);
      ctx.restore();
    }
  }
}

function drawInstants(ctx, d, y, h, x) {
  ctx.fillStyle = '#374151';
  for (let i = 0; i < d.time.length; i++) {
    const px = Math.floor(x(d.time[i]));
    const c = Math.min(1, 0.35 + Math.log2(1 + d.count[i]) / 6);
    ctx.globalAlpha = c;
    ctx.fillRect(px, y + 3, 1.5, h - 6);
  }
  ctx.globalAlpha = 1;
}

function drawSeries(ctx, row, y, h, x, f) {
  let max = 0;
  const list = [];
  for (const ref of row.tracks) {
    const d = f.data.get(trackKey(ref));
    if (!d || d.type !== 'series') continue;
    list.push([ref.name, d]);
    for (let i = 0; i < d.max.length; i++) if (d.max[i] > max) max = d.max[i];
  }
  if (max <= 0) return;
  const yv = (v) => y + h - 3 - (v / max) * (h - 8);
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
      if (n) ctx.lineTo(x(f.t1), yv(d.value[n - 1]));
      ctx.stroke();
    } else {
      for (let i = 0; i < n; i++) {
        const px = x(d.time[i]);
        const a = yv(d.min[i]);
        const b = yv(d.max[i]);
        ctx.fillRect(px, b, 1, Math.max(1, a - b));
      }
    }
  }
  ctx.fillStyle = '#6b7280';
  ctx.textAlign = 'right';
  ctx.fillText(row.unit === 'bytes' ? formatBytes(max) : String(Math.round(max)), f.width - 4, y + 8);
  ctx.textAlign = 'left';
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
