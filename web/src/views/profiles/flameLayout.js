// Layout and aggregation of a flame graph (the FlameGraph of the npm package: nodes in
// depth-first order, node 0 the root). Pure functions, no DOM.

/** x offset (ns from the left edge of the root) of every node. */
export function layout(flame) {
  const n = flame.parent.length;
  const x = new Float64Array(n);
  const cursor = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    const p = flame.parent[i];
    x[i] = cursor[p];
    cursor[p] += flame.value[i];
    cursor[i] = x[i];
  }
  return x;
}

/** Functions by time: flat (in the function itself) and cumulative (in it or below,
 *  counted once per stack even when the function recurses). */
export function topFunctions(flame) {
  const n = flame.parent.length;
  const flat = new Map();
  const cum = new Map();
  const count = new Map();
  for (let i = 1; i < n; i++) {
    const name = flame.name[i];
    flat.set(name, (flat.get(name) ?? 0) + flame.self[i]);
    let recursive = false;
    for (let p = flame.parent[i]; p > 0; p = flame.parent[p]) {
      if (flame.name[p] === name) { recursive = true; break; }
    }
    if (!recursive) {
      cum.set(name, (cum.get(name) ?? 0) + flame.value[i]);
      count.set(name, (count.get(name) ?? 0) + flame.count[i]);
    }
  }
  // In `gotrace pprof --top`'s order (go tool pprof's): flat, then cum, the most first, then
  // by name; a table sorted by one column keeps this order among equals.
  return [...cum.keys()].map((name) => ({
    name: flame.names[name],
    flat: flat.get(name) ?? 0,
    cum: cum.get(name),
    count: count.get(name) ?? 0,
  })).sort((a, b) => b.flat - a.flat || b.cum - a.cum || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The deepest node's depth. */
export function maxDepth(flame) {
  let d = 0;
  for (let i = 0; i < flame.depth.length; i++) if (flame.depth[i] > d) d = flame.depth[i];
  return d;
}

/** Whether node i is node `root` or lies in its subtree. */
export function inSubtree(flame, i, root) {
  for (let p = i; p >= 0; p = flame.parent[p]) if (p === root) return true;
  return false;
}
