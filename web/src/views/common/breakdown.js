// How a goroutine's (or a group's) lifetime splits up. The parts below partition its
// total time, so they stack into one bar; ranges (GC assist, STW, sweep) overlap them
// and are shown beside the bar instead.

export const PARTS = [
  { key: 'exec', label: 'Execution', color: '#2e7d32' },
  { key: 'sched_wait', label: 'Sched wait', color: '#f9a825' },
  { key: 'syscall', label: 'Syscall', color: '#6a1b9a' },
  { key: 'syscall_block', label: 'Syscall blocked', color: '#ab47bc' },
];

const BLOCK_COLORS = {
  network: '#1565c0',
  sync: '#c62828',
  'sync.(*Cond).Wait': '#e57373',
  select: '#ef6c00',
  'chan send': '#8d6e63',
  'chan receive': '#a1887f',
  preempted: '#00897b',
  sleep: '#78909c',
  'GC mark assist wait for work': '#d81b60',
  'system goroutine wait': '#b0bec5',
};
const SPARE = ['#5c6bc0', '#26a69a', '#9ccc65', '#ffa726', '#8e24aa', '#42a5f5', '#d4e157', '#ec407a'];

export function blockColor(reason) {
  if (BLOCK_COLORS[reason]) return BLOCK_COLORS[reason];
  let h = 0;
  for (let i = 0; i < reason.length; i++) h = (h * 31 + reason.charCodeAt(i)) >>> 0;
  return SPARE[h % SPARE.length];
}

/** The block reasons that occur in any of these stats objects, most time first. */
export function blockReasons(statsList) {
  const sum = new Map();
  for (const stats of statsList) {
    for (const k in stats) {
      if (k.startsWith('block:')) sum.set(k.slice(6), (sum.get(k.slice(6)) ?? 0) + stats[k]);
    }
  }
  return [...sum].sort((a, b) => b[1] - a[1]).map(([r]) => r);
}

/** The ranges (GC mark assist, STW, ...) that occur in any of these stats objects. */
export function rangeNames(statsList) {
  const sum = new Map();
  for (const stats of statsList) {
    for (const k in stats) {
      if (k.startsWith('range:')) sum.set(k.slice(6), (sum.get(k.slice(6)) ?? 0) + stats[k]);
    }
  }
  return [...sum].sort((a, b) => b[1] - a[1]).map(([r]) => r);
}

/** Total block time of a stats object. */
export function blockTotal(stats) {
  let t = 0;
  for (const k in stats) if (k.startsWith('block:')) t += stats[k];
  return t;
}

/** What is left of the total once every known part is taken away. */
export function unknownTime(stats) {
  const known = (stats.exec ?? 0) + (stats.sched_wait ?? 0) + (stats.syscall ?? 0)
    + (stats.syscall_block ?? 0) + blockTotal(stats);
  return Math.max(0, (stats.total ?? 0) - known);
}

/** The stacked segments of one stats object: [{key, label, value, color}], in a fixed order. */
export function segments(stats) {
  const out = [];
  for (const p of PARTS.slice(0, 2)) out.push({ ...p, value: stats[p.key] ?? 0 });
  for (const reason of blockReasons([stats])) {
    out.push({ key: `block:${reason}`, label: `Block: ${reason || 'unknown reason'}`, value: stats[`block:${reason}`], color: blockColor(reason) });
  }
  for (const p of PARTS.slice(2)) out.push({ ...p, value: stats[p.key] ?? 0 });
  out.push({ key: 'unknown', label: 'Unknown', value: unknownTime(stats), color: '#cfd8dc' });
  return out.filter((s) => s.value > 0);
}

/** How the goroutine table sorts on each column (shared by the page and the worker,
 *  which sorts a large group before sending the page its first rows). */
export const GOROUTINE_SORT = {
  id: (g) => g.id,
  start: (g) => g.start || -1,
  total: (g) => g.stats.total ?? 0,
  exec: (g) => g.stats.exec ?? 0,
  sched_wait: (g) => g.stats.sched_wait ?? 0,
  block: (g) => blockTotal(g.stats),
  syscall: (g) => g.stats.syscall ?? 0,
  syscall_block: (g) => g.stats.syscall_block ?? 0,
  unknown: (g) => unknownTime(g.stats),
  'range:GC mark assist': (g) => g.stats['range:GC mark assist'] ?? 0,
  breakdown: (g) => (g.stats.total ? (g.stats.exec ?? 0) / g.stats.total : 0),
};

/** The goroutines sorted by a column (ties: in the given order). */
export function sortGoroutines(rows, key, desc) {
  const value = GOROUTINE_SORT[key] ?? GOROUTINE_SORT.total;
  const keyed = rows.map((g, i) => [value(g), i, g]);
  keyed.sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : desc ? b[0] - a[0] : a[0] - b[0]));
  return keyed.map((k) => k[2]);
}
