// Numbers for people: durations (trace time is in nanoseconds), bytes, counts, shares;
// and the timeline link every view puts on a time range.
import { href } from './router.js';

const UNITS = [
  ['s', 1e9],
  ['ms', 1e6],
  ['µs', 1e3],
  ['ns', 1],
];

/** 1234567 → "1.23 ms". */
export function formatDuration(ns, digits = 3) {
  if (!Number.isFinite(ns)) return '—';
  const a = Math.abs(ns);
  if (a === 0) return '0';
  for (const [u, f] of UNITS) {
    if (a >= f || f === 1) return `${trim((ns / f).toPrecision(digits))} ${u}`;
  }
  return `${ns} ns`;
}

/**
 * A point in time, ns since the trace's start, to the microsecond (to the nanosecond within
 * its first millisecond): a page's times then tell events apart ("38.912346 s", where
 * formatDuration's three digits say "38.9 s" of an event 45 µs long).
 */
export function formatTime(ns) {
  if (!Number.isFinite(ns)) return '—';
  const a = Math.abs(ns);
  if (a === 0) return '0';
  const resolution = a >= 1e6 ? 1e3 : 1;  // ns
  for (const [u, f] of UNITS) {
    if (a >= f || f === 1) return `${trim((ns / f).toFixed(Math.round(Math.log10(f / resolution))))} ${u}`;
  }
  return `${ns} ns`;
}

function trim(s) {
  return s.includes('e') ? String(Number(s)) : s.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/** A region's or task's span in ns: one open at an edge of the trace counts to that edge
 *  (as the regions view does). `time`: the trace's {start, end}; a summary says "none"
 *  with 0 or null. */
export const spanNs = (r, time) => (r.end || time.end) - (r.start || time.start);

/** spanNs as the tables give it, marked when it has not ended. */
export function spanDuration(r, time) {
  return `${formatDuration(spanNs(r, time))}${r.end ? '' : ' (not ended)'}`;
}

/** A task or region type's name as the views show it: the empty name is "(unnamed)". */
export const typeName = (name) => name || '(unnamed)';

/** "1 task", "2 tasks": a count and its noun (plural with an s). */
export function countOf(n, noun) {
  return `${formatCount(n)} ${n === 1 ? noun : `${noun}s`}`;
}

export function formatBytes(n) {
  if (!Number.isFinite(n)) return '—';
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[i]}`;
}

export function formatCount(n) {
  if (!Number.isFinite(n)) return '—';
  return Math.round(n).toLocaleString('en-US');
}

/** Axis ticks for [t0, t1] ns over `pixels`: a step of 1, 2 or 5 × 10^k ns, and a unit. */
export function timeTicks(t0, t1, pixels, minSpacing = 90) {
  const span = Math.max(1, t1 - t0);
  const raw = (span / Math.max(1, pixels)) * minSpacing;
  const pow = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw);
  const first = Math.ceil(t0 / step) * step;
  const ticks = [];
  for (let t = first; t <= t1; t += step) ticks.push(t);
  return { step, ticks };
}

/** Label for a tick at offset `t` from the trace start, in the unit of `magnitude` (the
 *  ruler's largest tick: "20.005 s", not "20005 ms"), with the decimals `step` needs. */
export function formatTick(t, step, magnitude = step) {
  if (t === 0) return '0';  // the trace's start, in any unit
  const [u, f] = UNITS.find(([, f]) => Math.max(step, Math.abs(magnitude)) >= f) ?? UNITS[3];
  const decimals = Math.max(0, Math.ceil(-Math.log10(step / f) - 1e-9));
  return `${(t / f).toFixed(Math.min(decimals, 6))} ${u}`;
}

export function formatPercent(part, whole) {
  if (!whole) return '0%';
  return `${((100 * part) / whole).toFixed(1)}%`;
}

/** A link to the timeline showing [t0, t1] (trace times in ns) with a margin around
 *  it; `extra` adds to the query (g: a goroutine to select, task, group). */
export function timelineHref(t0, t1, extra = {}) {
  const span = Math.max(1, t1 - t0);
  const pad = Math.max(1, Math.round(span * 0.05));
  return href('/timeline', { t0: Math.round(t0 - pad), t1: Math.round(t1 + pad), ...extra });
}
