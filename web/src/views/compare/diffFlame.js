// A differential flame graph's layout from a diff's stacks (folded "leaf;…;root" with
// before and after values): a frame's width is the larger of its two totals, so that
// what shrank away still shows, and its colour says how it changed (red: grew, blue:
// shrank, as Gregg's differential flame graphs and pprof's -diff_base colour them).

/** The tree of frames, root first: { name, before, after, children }. */
export function diffTree(stacks, value) {
  const root = { name: 'all', before: 0, after: 0, children: new Map() };
  for (const s of stacks) {
    const b = value(s.before), a = value(s.after);
    root.before += b;
    root.after += a;
    let node = root;
    for (const name of s.stack.split(';').reverse()) {
      let child = node.children.get(name);
      if (!child) node.children.set(name, (child = { name, before: 0, after: 0, children: new Map() }));
      child.before += b;
      child.after += a;
      node = child;
    }
  }
  return root;
}

/** Rectangles to draw: { name, x, width (0..1), depth, before, after }, frames narrower
 *  than `minWidth` of the whole left out (with what they hold). */
export function diffLayout(root, minWidth = 0.002) {
  const whole = Math.max(root.before, root.after) || 1;
  const out = [];
  const visit = (node, x, depth) => {
    const width = Math.max(node.before, node.after) / whole;
    if (width < minWidth) return;
    out.push({ name: node.name, x, width, depth, before: node.before, after: node.after });
    let cx = x;
    const children = [...node.children.values()].sort((p, q) => (p.name < q.name ? -1 : p.name > q.name ? 1 : 0));
    for (const c of children) {
      visit(c, cx, depth + 1);
      cx += Math.max(c.before, c.after) / whole;
    }
  };
  visit(root, 0, 0);
  return out;
}

/** Red for growth, blue for shrinkage, paler the smaller the change relative to the frame. */
export function diffColor(before, after) {
  const d = after - before;
  const share = Math.min(1, Math.abs(d) / Math.max(1, before, after));
  const light = 92 - Math.round(share * 42);
  return d >= 0 ? `hsl(0, 75%, ${light}%)` : `hsl(215, 75%, ${light}%)`;
}
