// The timeline's view in the URL: t0, t1 (absolute trace time, ns), sel (a slice:
// "proc:3@123456", "goroutine:42@…", "gc@…"), r0/r1 (a selected range), g (a goroutine
// to show: its group is opened and scrolled to), task (a task to mark in the Tasks row),
// group (a goroutine group to open). Links within the page change them too.
export function parseSel(s) {
  if (!s) return null;
  const m = /^([a-z]+)(?::(-?\d+))?@(-?\d+(?:\.\d+)?)$/.exec(s);
  if (!m) return null;
  const track = { kind: m[1] };
  if (m[2] !== undefined) track.id = Number(m[2]);
  return { track, time: Number(m[3]) };
}

export function formatSel(track, time) {
  return `${track.kind}${track.id !== undefined && track.id !== null ? ':' + track.id : ''}@${Math.round(time)}`;
}

export function num(v) {
  if (v === undefined || v === null || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** [a, b] cut to the trace's [start, end], or null when nothing of it is left (or a link
 *  names no span): a deep link from another trace, or edited, shows what it can. */
export function clampSpan(a, b, start, end) {
  if (a === null || b === null) return null;
  const lo = Math.max(a, start);
  const hi = Math.min(b, end);
  return hi > lo ? [lo, hi] : null;
}

/** The hash's query as it is now (the timeline reads it outside of renders). */
export function parseQueryNow() {
  const raw = location.hash.replace(/^#/, '');
  const q = raw.indexOf('?');
  return Object.fromEntries(new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)));
}
