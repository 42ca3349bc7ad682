import { typeName } from './format.js';

// Go tells region types apart by name and by where they begin (the pc of their start
// event's leaf frame). A name that several types share needs that pc in a link to one
// of them (a profile, its critical paths) and its place in a label.

/** The names several of `types` (regionTypes()'s) share. */
export function sharedNames(types) {
  const seen = new Set(), shared = new Set();
  for (const t of types) (seen.has(t.name) ? shared : seen).add(t.name);
  return shared;
}

/** One of the types that share a name, as labels name it: "name @ function" (or its pc). */
export function regionTypeLabel(type) {
  return `${typeName(type.name)} @ ${type.func || `0x${type.pc.toString(16)}`}`;
}
