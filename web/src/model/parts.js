// The parts a trace too large to hold whole is shown in: runs of its generations of at
// most `budget` events each (one generation at least), chosen from either end.

// A trace opened in parts may be opened whole instead up to this size: the 94 MB trace
// (16.8 M events) held whole takes about 1 GB of the tab and five seconds to show.
export const WHOLE_AT_MOST = 256 * 2 ** 20;

// The part that begins at generation `first`.
export function partFrom(generations, first, budget) {
  let last = first;
  let events = generations[first].events;
  while (last + 1 < generations.length && events + generations[last + 1].events <= budget) {
    events += generations[++last].events;
  }
  return [first, last];
}

// The part that ends at generation `last`.
export function partTo(generations, last, budget) {
  let first = last;
  let events = generations[last].events;
  while (first > 0 && events + generations[first - 1].events <= budget) {
    events += generations[--first].events;
  }
  return [first, last];
}

// The generation that holds time `t` (ns), or the first after it (the last past the end).
export function generationAt(generations, t) {
  const k = generations.findIndex((g) => g.end >= t);
  return k < 0 ? generations.length - 1 : k;
}
