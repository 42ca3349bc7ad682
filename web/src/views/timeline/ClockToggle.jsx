// The timeline's choice of clock for a Go 1.25+ trace, whose generations carry clock
// snapshots: times from the trace's start, or wall-clock times (to line the trace up
// with logs). The choice is the URL's `clock=wall`, so it survives a reload; a trace
// without snapshots shows no toggle.
import { useEffect, useState } from 'preact/hooks';
import { wallClock } from '../../model/wallClock.js';
import { navigate, parseHash } from '../../model/router.js';

const clocks = new WeakMap();
/** The trace's wallClock (null without snapshots), asked for once per open trace. */
function clockOf(trace) {
  let p = clocks.get(trace);
  if (!p) {
    p = trace.call('clockSnapshots').then(wallClock);
    clocks.set(trace, p);
    p.catch(() => clocks.delete(trace));
  }
  return p;
}

/** The wall clock when the URL asks for it and the trace has one, else null. */
export function useWallClock(trace, query) {
  const [clock, setClock] = useState(null);
  useEffect(() => {
    let live = true;
    clockOf(trace)
      .then((c) => live && setClock(() => c))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [trace]);
  return { clock, wall: clock !== null && query.clock === 'wall' };
}

export function ClockToggle({ clock, wall }) {
  if (!clock) return null;
  const toggle = () => {
    const { path, query } = parseHash();
    const q = { ...query };
    if (wall) delete q.clock;
    else q.clock = 'wall';
    navigate(path || '/timeline', q, { replace: true });
  };
  return (
    <label class="muted" title="Show times as the wall clock the trace recorded (Go 1.25+)">
      <input type="checkbox" data-testid="wall-clock" checked={wall} onChange={toggle} /> wall clock
    </label>
  );
}
