// Wall-clock time of a Go 1.25+ trace, from the clock snapshots of its generations
// (Trace.clockSnapshots(): each one's trace time and its wall time in RFC 3339): the
// wall time of trace time t is the snapshot's plus t − its trace time, to the
// nanosecond (in BigInt: a wall time in ns does not fit a double). The snapshot is the
// last taken at or before t, else the first.

const NS = 1_000_000_000n;

/** Nanoseconds since 1970 of an RFC 3339 time such as 2026-11-27T04:11:05.996086443Z. */
function parseWall(text) {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(text);
  if (!m) return null;
  const sec = Date.parse(m[1] + 'Z') / 1000;
  if (!Number.isFinite(sec)) return null;
  return BigInt(sec) * NS + BigInt((m[2] ?? '').padEnd(9, '0'));
}

const pad = (n, w = 2) => String(n).padStart(w, '0');

/** The clock of a trace, or null when it has no snapshot (traces before Go 1.25). */
export function wallClock(snapshots) {
  const points = (snapshots ?? [])
    .map((s) => ({ trace: s.trace, wall: parseWall(s.wall) }))
    .filter((p) => p.wall !== null)
    .sort((a, b) => a.trace - b.trace);
  if (points.length === 0) return null;

  const at = (t) => {
    let p = points[0];
    for (const q of points) if (q.trace <= t) p = q;
    return p.wall + BigInt(Math.round(t) - p.trace);
  };
  // [date, time of day, nanoseconds of the second] of trace time t (rounded to a
  // multiple of `unit` ns).
  const parts = (t, unit = 1n) => {
    const ns = ((at(t) + unit / 2n) / unit) * unit;
    let sec = ns / NS;
    let frac = ns % NS;
    if (frac < 0n) {
      frac += NS;
      sec -= 1n;
    }
    const d = new Date(Number(sec) * 1000);
    const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
    return [date, time, String(frac).padStart(9, '0')];
  };

  return {
    /** "2026-11-27 04:11:05.996086443 UTC": trace time t to the nanosecond. */
    format(t) {
      const [date, time, frac] = parts(t);
      return `${date} ${time}.${frac} UTC`;
    },
    /** How far past a whole multiple of `step` ns the wall time of t is (ruler ticks
     *  shifted by it fall on round wall times). */
    phase(t, step) {
      const s = BigInt(Math.max(1, Math.round(step)));
      return Number(((at(t) % s) + s) % s);
    },
    /** A ruler tick's label: the time of day, to the digit the tick step needs. */
    tick(t, step) {
      const digits = Math.min(9, Math.max(0, Math.ceil(-Math.log10(step / 1e9) - 1e-9)));
      // Rounded, not cut, to the digits shown: a tick a nanosecond short of .67 reads .67.
      const [, time, frac] = parts(t, 10n ** BigInt(9 - digits));
      return digits ? `${time}.${frac.slice(0, digits)}` : time;
    },
  };
}
