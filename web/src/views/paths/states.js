// How the critical path's states read and look: the goroutine views' colours where the
// state is the same (execution, scheduling wait, syscall, each block reason).
import { blockColor, PARTS } from '../common/breakdown.js';

const color = Object.fromEntries(PARTS.map((p) => [p.key, p.color]));

const STATE_COLORS = {
  running: color.exec,
  runnable: color.sched_wait,
  syscall: color.syscall,
  'GC mark assist': '#d81b60',
  'GC sweep': '#f06292',
  'stop-the-world': '#37474f',
  'not in trace': '#cfd8dc',
};

/** The colour of a segment or a category ("blocked: network", "stop-the-world (…)"). */
export function categoryColor(category) {
  if (category.startsWith('blocked')) return blockColor(category.slice(9) || 'blocked');
  if (category.startsWith('stop-the-world')) return STATE_COLORS['stop-the-world'];
  return STATE_COLORS[category] ?? '#90a4ae';
}

/** A segment's category, as the totals name it. */
export function segmentCategory(s) {
  if (s.state === 'stop-the-world' && s.reason) return s.reason;
  return s.reason ? `${s.state}: ${s.reason}` : s.state;
}
