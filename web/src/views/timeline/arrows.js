// The timeline's wake-up arrows: the selected goroutine's, or (Flows) every one in view.

export const MAX_FLOWS = 1000;
export const FLOW_COLOR = '#7c3aed';

/** Every wake-up edge of the view (the flows toggle), from the lane of the goroutine that
 *  woke (or the proc or thread it ran on) to the lane of the goroutine woken. An arrow
 *  whose waker's lane is not on screen starts on the proc or thread it woke from, or at
 *  the edge of the screen, and is labelled with the goroutine it comes from.
 *  `[top, bottom]`: the rows' y on screen. */
export function flowArrows(s, layout, [top, bottom]) {
  const e = s.data.get('edges');
  if (!e || e.type !== 'edges') return [];
  const y = new Map();
  for (const r of layout.rows) if (r.type === 'slices') y.set(r.key, r.y + r.height / 2);
  const shown = (v) => v !== undefined && v >= top && v <= bottom;
  const clamp = (v) => Math.min(bottom - 4, Math.max(top + 4, v));
  // The first of the candidate rows that is on screen, else the first laid out, held
  // to the screen's edge; `own`: it is the first candidate's.
  const placeOn = (keys) => {
    const ys = keys.map((k) => y.get(k));
    const i = ys.findIndex(shown);
    if (i >= 0) return { y: ys[i], own: i === 0 };
    const any = ys.find((v) => v !== undefined);
    return any === undefined ? null : { y: clamp(any), own: false };
  };
  const out = [];
  for (let i = 0; i < e.goroutine.length && out.length < MAX_FLOWS; i++) {
    const g = e.fromGoroutine[i];
    const from = placeOn([...(g >= 0 ? ['goroutine:' + g] : []), 'proc:' + e.fromProc[i], 'thread:' + e.fromThread[i]]);
    const to = placeOn(['goroutine:' + e.goroutine[i], 'proc:' + e.toProc[i], 'thread:' + e.toThread[i]]);
    if (!from || !to) continue;
    const arrow = { fromTime: e.fromTime[i], toTime: e.toTime[i], fromY: from.y, toY: to.y, color: FLOW_COLOR, goroutine: e.goroutine[i], from: g };
    if (g >= 0 && !from.own) arrow.label = `G${g}`;
    out.push(arrow);
  }
  return out;
}

/** Unblock edges that touch the selected goroutine, placed on the visible rows. */
export function arrowsFor(s, layout) {
  const sel = s.selection;
  if (!sel || sel.goroutine === undefined || sel.goroutine < 0) return [];
  const y = new Map();
  for (const r of layout.rows) if (r.type === 'slices') y.set(r.key, r.y + r.height / 2);
  const place = (g, p, m) => y.get('goroutine:' + g) ?? y.get('proc:' + p) ?? y.get('thread:' + m);
  const out = [];
  const e = s.data.get('edges');
  const G = sel.goroutine;
  if (e && e.type === 'edges') {
    for (let i = 0; i < e.goroutine.length && out.length < 400; i++) {
      if (e.goroutine[i] !== G && e.fromGoroutine[i] !== G) continue;
      const fromY = place(e.fromGoroutine[i], e.fromProc[i], e.fromThread[i]);
      const toY = place(e.goroutine[i], e.toProc[i], e.toThread[i]);
      if (fromY === undefined || toY === undefined) continue;
      out.push({ fromTime: e.fromTime[i], toTime: e.toTime[i], fromY, toY, color: e.goroutine[i] === G ? '#111827' : '#2563eb' });
    }
  }
  const w = sel.wokenBy;
  if (w && w.goroutine >= 0) {
    const fromY = y.get('goroutine:' + w.goroutine);
    const toY = y.get(sel.rowKey);
    if (fromY !== undefined && toY !== undefined) out.push({ fromTime: w.time, toTime: sel.start, fromY, toY, color: '#d9534f' });
  }
  return out;
}
