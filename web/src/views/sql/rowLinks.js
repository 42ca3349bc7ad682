// Which rows of a result link to the timeline: those with a goroutine and a time. The
// columns are found by name, as the tables name them (goroutine, time, start, end) and
// as a query may rename them (SELECT id AS goroutine, ...). Times in the tables are
// nanoseconds since the trace's start; the timeline's links take the trace's own clock.
import { timelineHref } from '../../model/format.js';

const GOROUTINE = ['goroutine', 'goroutine_id', 'goid', 'g'];
const TIME = ['time', 'start', 'ts'];
const END = ['end'];

const find = (names, wanted) => {
  for (const w of wanted) {
    const i = names.indexOf(w);
    if (i >= 0) return i;
  }
  return -1;
};

/** The columns a row's timeline link is made of ({ goroutine, time, end } indices, end
 *  -1 when none), or null when the result has no goroutine or no time. */
export function linkColumns(columns) {
  const names = columns.map((c) => c.name.toLowerCase());
  const goroutine = find(names, GOROUTINE);
  const time = find(names, TIME);
  if (goroutine < 0 || time < 0) return null;
  return { goroutine, time, end: find(names, END) };
}

const POINT_PAD = 1000;  // ns either side of a moment, as the app's other links to an event

/** The timeline at the row's goroutine and time (its lane revealed, the slice there
 *  selected), or null when the row has no goroutine or time. */
export function rowTimelineHref(row, link, traceStart) {
  const g = Number(row[link.goroutine]);
  const t = Number(row[link.time]);
  if (row[link.goroutine] === null || row[link.time] === null || !Number.isFinite(g) || !Number.isFinite(t)) return null;
  const start = traceStart + t;
  const endValue = link.end >= 0 ? row[link.end] : null;
  const end = endValue === null || !Number.isFinite(Number(endValue)) ? null : traceStart + Number(endValue);
  const [t0, t1] = end !== null && end > start ? [start, end] : [start - POINT_PAD, start + POINT_PAD];
  const at = end !== null && end > start ? Math.round((start + end) / 2) : start;
  return timelineHref(t0, t1, { g, sel: `goroutine:${g}@${at}` });
}
