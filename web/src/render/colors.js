// Colours of the timeline: slice states, goroutines (a stable hue per id) and series.
export const STATE_COLORS = {
  running: '#3fa34d',
  runnable: '#e5b73b',
  waiting: '#d9dde4',
  syscall: '#8e6bd1',
  active: '#d9534f',
};

export const STATES = ['running', 'runnable', 'waiting', 'syscall', 'active'];

/** The outline of the task a link marks in the Tasks row. */
export const MARKED_TASK = '#1d4ed8';

const cache = new Map();
/** A stable colour per goroutine id (procs and threads show which goroutine ran). */
export function goroutineColor(id) {
  if (id < 0) return '#9aa3b2';
  let c = cache.get(id);
  if (!c) {
    const h = ((id * 2654435761) >>> 0) % 360;
    c = `hsl(${h} 55% 55%)`;
    if (cache.size > 5000) cache.clear();
    cache.set(id, c);
  }
  return c;
}

export function nameColor(i) {
  const h = ((i * 137.508) % 360 + 360) % 360;
  return `hsl(${h.toFixed(0)} 50% 62%)`;
}

/** Task bars: blues and teals by task name, never the reds of GC. */
export function taskNameColor(i) {
  const h = 175 + ((i * 37) % 70);
  const l = 58 + ((i * 7) % 3) * 6;
  return `hsl(${h} 45% ${l}%)`;
}

export const SERIES_COLORS = {
  'heap-alloc': '#2563eb',
  'heap-goal': '#9aa3b2',
  'goroutines-running': '#3fa34d',
  'goroutines-runnable': '#e5b73b',
  'goroutines-waiting': '#9aa3b2',
  'goroutines-syscall': '#8e6bd1',
  'procs-running': '#3fa34d',
  gomaxprocs: '#9aa3b2',
};

/** What a plot's legend calls each series. */
export const SERIES_NAMES = {
  'heap-alloc': 'allocated',
  'heap-goal': 'goal',
  'goroutines-running': 'running',
  'goroutines-runnable': 'runnable',
  'goroutines-syscall': 'syscall',
  'goroutines-waiting': 'waiting',
  'procs-running': 'running',
  gomaxprocs: 'GOMAXPROCS',
};
