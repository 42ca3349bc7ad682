import { formatDuration, formatPercent, timelineHref } from '../../model/format.js';
import { goroutineHref } from '../common/links.js';
import { categoryColor, segmentCategory } from './states.js';

// The path drawn across the goroutines it visits: a row per goroutine (in the order the
// path first meets them, walking forward), each segment on its goroutine's row, and a
// connector at each hand-off from one goroutine to the next. A path through more
// goroutines than rows draws those with the most time on it, and the one it ends on.
const MAX_ROWS = 16;
// A long path (a goroutine's life) has more segments than pixels: neighbours on one
// goroutine narrower than this share of the span are drawn as one bar, in the colour of
// the longest of them.
const MAX_BARS = 1500;

// The goroutines drawn, in the order the path meets them, and the time of those left out.
export function chartRows(segments, end, max = MAX_ROWS) {
  const order = [];
  const time = new Map();
  for (const s of segments) {
    if (!time.has(s.goroutine)) order.push(s.goroutine);
    time.set(s.goroutine, (time.get(s.goroutine) ?? 0) + (s.end - s.start));
  }
  if (order.length <= max) return { rows: order, left: 0, leftNs: 0 };
  const kept = new Set([end]);
  for (const g of [...order].sort((a, b) => time.get(b) - time.get(a) || order.indexOf(a) - order.indexOf(b))) {
    if (kept.size >= max) break;
    kept.add(g);
  }
  const rows = order.filter((g) => kept.has(g));
  const leftNs = order.filter((g) => !kept.has(g)).reduce((ns, g) => ns + time.get(g), 0);
  return { rows, left: order.length - rows.length, leftNs };
}

function bars(segments, span) {
  if (segments.length <= MAX_BARS) return segments.map((s) => ({ ...s, category: segmentCategory(s), merged: 1 }));
  const narrow = span / MAX_BARS;
  const out = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    const d = s.end - s.start;
    if (last && last.goroutine === s.goroutine && last.end === s.start && (d < narrow || last.end - last.start < narrow)) {
      if (d > last.longest) {
        last.longest = d;
        last.category = segmentCategory(s);
        last.function = s.function;
      }
      last.end = s.end;
      last.merged++;
      continue;
    }
    out.push({ ...s, category: segmentCategory(s), longest: d, merged: 1 });
  }
  return out;
}

export function PathChart({ path }) {
  const { from, to, segments } = path;
  const span = Math.max(1, to - from);
  const pos = (t) => (100 * (t - from)) / span;
  const { rows, left, leftNs } = chartRows(segments, path.goroutine);
  const rowOf = new Map(rows.map((g, i) => [g, i]));
  const handoffs = [];
  for (let i = 1; i < segments.length; i++) {
    const a = segments[i - 1], b = segments[i];
    if (a.goroutine !== b.goroutine && rowOf.has(a.goroutine) && rowOf.has(b.goroutine)) {
      handoffs.push({ t: b.start, from: rowOf.get(a.goroutine), to: rowOf.get(b.goroutine) });
    }
  }
  const ROW = 22;
  return (
    <>
      <div class="gt-path-chart" data-testid="path-chart" style={{ height: `${rows.length * ROW + 4}px` }}>
        {rows.map((g, i) => (
          <div class="row" key={g} style={{ top: `${i * ROW}px` }}>
            <a class="lbl" href={goroutineHref(g)} title={`goroutine ${g}`}>G{g}</a>
          </div>
        ))}
        <div class="plot">
          {bars(segments, span).filter((s) => rowOf.has(s.goroutine)).map((s, i) => (
            <a
              key={i}
              class="seg"
              data-testid="path-segment"
              href={timelineHref(s.start, s.end, { g: s.goroutine })}
              title={`G${s.goroutine} ${s.category}${s.function ? ` @ ${s.function}` : ''}: ${formatDuration(s.end - s.start)}${s.merged > 1 ? ` (${s.merged} segments, mostly this)` : ''}`}
              style={{
                top: `${rowOf.get(s.goroutine) * ROW + 3}px`,
                left: `${pos(s.start)}%`,
                width: `max(1px, ${pos(s.end) - pos(s.start)}%)`,
                background: categoryColor(s.category),
              }}
            />
          ))}
          {handoffs.map((h, i) => (
            <span
              key={`h${i}`}
              class="handoff"
              style={{
                left: `${pos(h.t)}%`,
                top: `${Math.min(h.from, h.to) * ROW + 11}px`,
                height: `${Math.abs(h.to - h.from) * ROW}px`,
              }}
            />
          ))}
        </div>
      </div>
      {left > 0 && (
        <p class="gt-note" data-testid="path-chart-left">
          {left} more goroutines on the path ({formatDuration(leftNs)}, {formatPercent(leftNs, span)} of its time) are not
          drawn; drawn are the one it ends on and those with the most time on it.
        </p>
      )}
    </>
  );
}
