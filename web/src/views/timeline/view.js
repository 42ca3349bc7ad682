// The timeline's view in the URL: t0, t1 (absolute trace time, ns), sel (a slice:
// "proc:3@123456", "goroutine:42@…", "gc@…"), r0/r1 (a selected range), g (a goroutine
// to show: its group is opened and scrolled to).
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
