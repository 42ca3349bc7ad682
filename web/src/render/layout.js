// The rows of the timeline, from the trace's TrackList and which goroutine groups are
// open. A row knows its height, its label and the tracks to query for it.
export const AXIS_HEIGHT = 26;
const SLICE = 18;
const SERIES = 52;
const GROUP = 20;
const INSTANTS = 16;
const SECTION = 20;
const TASK_LANE = 12;
const TASK_LANES_SHOWN = 8;
/** The name under which the Tasks row's header is opened (no goroutine group has it). */
export const TASKS_GROUP = '\u0000tasks';

export function trackKey(ref) {
  return ref.kind + (ref.id !== undefined ? ':' + ref.id : '') + (ref.name ? ':' + ref.name : '') + (ref.by ? ':' + ref.by : '');
}

/** Rows top to bottom, each { key, type, label, height, y, tracks[] , … }. */
export function layoutRows(list, openGroups) {
  const rows = [];
  const add = (r) => {
    const row = { tracks: [], ...r };
    rows.push(row);
    return row;
  };
  const series = new Set(list.series);
  // Go's Threads plot: threads in syscalls (one per goroutine in one) and running
  // (one per proc running a goroutine).
  const plots = [
    ['Heap', ['heap-alloc', 'heap-goal'], 'bytes'],
    ['Goroutines', ['goroutines-running', 'goroutines-runnable', 'goroutines-syscall', 'goroutines-waiting'], 'count'],
    ['Threads', ['procs-running', 'goroutines-syscall'], 'count', 'threads'],
    ['Procs', ['procs-running', 'gomaxprocs'], 'count'],
  ];
  const plotRows = plots.filter(([, names]) => names.some((n) => series.has(n)));
  if (plotRows.length) add({ key: 's:plots', type: 'section', label: 'Plots', height: SECTION });
  for (const [label, names, unit, of] of plotRows) {
    const present = names.filter((n) => series.has(n));
    add({ key: 'plot:' + label, type: 'series', label, unit, of, height: SERIES, tracks: present.map((name) => ({ kind: 'series', name })) });
  }
  add({ key: 's:gc', type: 'section', label: 'Runtime', height: SECTION });
  if (list.gc) add({ key: 'gc', type: 'slices', label: 'GC', height: SLICE, tracks: [{ kind: 'gc' }] });
  if (list.stw) add({ key: 'stw', type: 'slices', label: 'STW', height: SLICE, tracks: [{ kind: 'stw' }] });
  if (list.taskRows > 0) {
    // Every lane of the task layout has its own line (a row cut to 8 lanes drew the
    // tasks of the others over its last one, labels and all). Past 8 lanes the row is
    // folded under a header: folded, the lanes share 8 lanes' height, unlabelled.
    const lanes = list.taskRows;
    const open = lanes <= TASK_LANES_SHOWN || openGroups.has(TASKS_GROUP);
    let header;
    if (lanes > TASK_LANES_SHOWN) {
      header = add({ key: 'group:tasks', type: 'group', label: `${open ? '▾' : '▸'} Tasks (${lanes} rows)`, height: GROUP, group: TASKS_GROUP });
    }
    const shown = open ? lanes : TASK_LANES_SHOWN;
    add({ key: 'tasks', type: 'spans', label: open ? 'Tasks' : 'Tasks (folded)', rowsOf: lanes, height: 4 + TASK_LANE * shown, tracks: [{ kind: 'tasks' }], header });
  }
  if (list.logs > 0) add({ key: 'logs', type: 'instants', label: 'Logs', height: INSTANTS, tracks: [{ kind: 'logs', by: 'proc' }] });
  if (list.samples > 0) add({ key: 'samples', type: 'instants', label: 'CPU samples', height: INSTANTS, tracks: [{ kind: 'samples', by: 'proc' }] });
  // go tool trace's "Network" and "Syscalls" lanes: goroutines blocked on the network
  // made runnable, and the ends of syscalls that had lost their proc.
  if (list.network > 0) add({ key: 'network', type: 'instants', label: 'Network', height: INSTANTS, tracks: [{ kind: 'network', by: 'proc' }] });
  if (list.syscalls > 0) add({ key: 'syscalls', type: 'instants', label: 'Syscalls', height: INSTANTS, tracks: [{ kind: 'syscalls', by: 'proc' }] });

  add({ key: 's:procs', type: 'section', label: `Procs (${list.procs.length})`, height: SECTION });
  const sweep = new Set(list.sweep);
  for (const p of list.procs) {
    add({ key: 'proc:' + p, type: 'slices', label: `Proc ${p}`, height: SLICE, tracks: [{ kind: 'proc', id: p }], resource: ['proc', p] });
    if (sweep.has(p)) add({ key: 'sweep:' + p, type: 'slices', label: `  sweep`, height: 8, tracks: [{ kind: 'sweep', id: p }], thin: true });
  }
  add({ key: 's:threads', type: 'section', label: `Threads (${list.threads.length})`, height: SECTION });
  for (const m of list.threads) {
    add({ key: 'thread:' + m, type: 'slices', label: `Thread ${m}`, height: SLICE, tracks: [{ kind: 'thread', id: m }], resource: ['thread', m] });
  }

  const g = list.goroutines;
  // Of a trace in parts shown whole, the goroutines' own lanes are the part's.
  const goroutines = list.goroutinesOfPart ? `Goroutines of this part (${g.id.length})` : `Goroutines (${g.id.length})`;
  add({ key: 's:goroutines', type: 'section', label: goroutines, height: SECTION });
  const members = g.groups.map(() => []);
  for (let i = 0; i < g.id.length; i++) members[g.group[i]].push(g.id[i]);
  const order = g.groups.map((name, i) => i).sort((a, b) => members[b].length - members[a].length || (g.groups[a] < g.groups[b] ? -1 : 1));
  const regions = new Set(list.regions);
  const assist = new Set(list.assist);
  for (const gi of order) {
    const name = g.groups[gi] || '(unknown start function)';
    const open = openGroups.has(g.groups[gi]);
    // A group of the whole trace that none of the part's goroutines is in: named to the
    // worker, which draws it from the index.
    const elsewhere = gi >= (g.partGroups ?? Infinity);
    const count = elsewhere ? 'none in this part' : members[gi].length;
    // A folded group's lane shows what its goroutines do (the core's group activity).
    const track = elsewhere ? { kind: 'group', id: gi, name: g.groups[gi] } : { kind: 'group', id: gi };
    const header = add({ key: 'group:' + gi, type: 'group', label: `${open ? '▾' : '▸'} ${name} (${count})`, height: GROUP, group: g.groups[gi], size: members[gi].length, tracks: open ? [] : [track] });
    if (!open) continue;
    for (const id of members[gi]) {
      add({ key: 'goroutine:' + id, type: 'slices', label: `G${id}`, height: SLICE, tracks: [{ kind: 'goroutine', id }], resource: ['goroutine', id], header });
      if (assist.has(id)) add({ key: 'assist:' + id, type: 'slices', label: '  assist', height: 8, tracks: [{ kind: 'assist', id }], thin: true, header });
      if (regions.has(id)) add({ key: 'regions:' + id, type: 'spans', label: '  regions', rowsOf: 2, height: 26, tracks: [{ kind: 'regions', id }], header });
    }
  }
  let y = 0;
  for (const r of rows) {
    r.y = y;
    y += r.height;
  }
  return { rows, height: y, groupOf: groupIndex(g) };
}

/** The header of the group whose rows the top of the screen shows, once the header
 *  itself is scrolled off (drawn pinned under the ruler), or null. */
export function stickyHeader(rows, scrollY) {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].y + rows[mid].height <= scrollY) lo = mid + 1;
    else hi = mid;
  }
  const first = rows[lo];
  return first?.header && first.header.y < scrollY ? first.header : null;
}

function groupIndex(g) {
  const m = new Map();
  for (let i = 0; i < g.id.length; i++) m.set(g.id[i], g.groups[g.group[i]]);
  return m;
}
