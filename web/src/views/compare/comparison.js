// The trace the open one is compared with, per opened trace (the worker keeps the trace
// itself; a newly opened trace starts with none).
const chosen = new WeakMap();

export const comparisonOf = (trace) => chosen.get(trace) ?? null;

/** Reads `file` in the worker as the trace to compare with; { name, stats, partialError }. */
export async function chooseComparison(trace, file) {
  const info = await trace.call('openComparison', file);
  const c = { name: file.name, ...info };
  chosen.set(trace, c);
  return c;
}
