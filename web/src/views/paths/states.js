// How the critical path's states read and look: the goroutine views' colours where the
// state is the same (execution, scheduling wait, syscall, each block reason).
import { blockColor, PARTS } from '../common/breakdown.js';

const color = Object.fromEntries(PARTS.map((p) => [p.key, p.color]));

const STATE_COLORS = {
  running: color.exec,
  runnable: color.sched_wait,
  syscall: color.syscall,
  'GC mark assist': '#880e4f',  // darker than the wait for assist work's pink
  'GC sweep': '#f06292',
  'stop-the-world': '#37474f',
  'not in trace': '#cfd8dc',
};

// Stops of the world by reason: slate greys apart, each reason its own.
const STW_SHADES = ['#37474f', '#607d8b', '#263238', '#546e7a', '#455a64'];

/** The colour of a segment or a category ("blocked: network", "stop-the-world (…)"). */
export function categoryColor(category) {
  if (category.startsWith('blocked')) return blockColor(category.slice(9) || 'blocked');
  if (category.startsWith('stop-the-world')) {
    const known = ['stop-the-world', 'stop-the-world (GC mark termination)', 'stop-the-world (GC sweep termination)'].indexOf(category);
    if (known >= 0) return STW_SHADES[known];
    let h = 0;
    for (let i = 0; i < category.length; i++) h = (h * 31 + category.charCodeAt(i)) >>> 0;
    return STW_SHADES[3 + (h % 2)];
  }
  return STATE_COLORS[category] ?? '#90a4ae';
}

/** A segment's category, as the totals name it. */
export function segmentCategory(s) {
  if (s.state === 'stop-the-world' && s.reason) return s.reason;
  return s.reason ? `${s.state}: ${s.reason}` : s.state;
}
