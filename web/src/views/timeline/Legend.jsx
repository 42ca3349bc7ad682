// What the timeline's colours mean: the states of slices, the runtime's ranges, tasks,
// and the plots' series (each plot's own legend is drawn in its label column).
import { STATE_COLORS, SERIES_COLORS, taskNameColor } from '../../render/colors.js';
import { blockColor } from '../common/breakdown.js';

const ITEMS = [
  ['running', STATE_COLORS.running, 'running (on a proc or thread lane: the goroutine\'s own colour)'],
  ['runnable', STATE_COLORS.runnable, 'ready to run, waiting for a proc'],
  ['blocked', STATE_COLORS.waiting, 'waiting: blocked on a channel, a lock, the network, sleep… (a goroutine lane\'s line has the colour of the reason; the reason shows on hover and in the details)'],
  ['syscall', STATE_COLORS.syscall, 'in a system call'],
  ['GC · STW · sweep · assist', STATE_COLORS.active, 'the runtime\'s ranges: GC mark phases, stop-the-world pauses, sweeping, mark assists'],
  ['task', taskNameColor(0), 'a user task (one colour per task name)'],
  ['heap', SERIES_COLORS['heap-alloc'], 'the heap plot: bytes allocated; grey, the heap goal'],
];

// The reasons a goroutine blocks most often; a lane's blocked line has the colour of its
// reason (any other reason has a colour of its own too, told on hover).
const REASONS = ['network', 'select', 'chan receive', 'chan send', 'sync', 'sync.(*Cond).Wait', 'sleep', 'preempted', 'system goroutine wait'];

export function Legend() {
  return (
    <span class="legend" data-testid="timeline-legend">
      {ITEMS.map(([label, color, title]) => (
        <span key={label} class="legend-item" title={title} data-state={label}>
          <span class="swatch" style={{ background: color }} />
          {label}
          {label === 'blocked' && (
            <span class="legend-more" data-testid="legend-reasons">
              {REASONS.map((r) => (
                <span key={r} class="legend-item" data-reason={r}>
                  <span class="swatch line" style={{ background: blockColor(r) }} />
                  {r}
                </span>
              ))}
              <span class="muted">grey: no reason given; hover a lane for its reason</span>
            </span>
          )}
        </span>
      ))}
    </span>
  );
}
