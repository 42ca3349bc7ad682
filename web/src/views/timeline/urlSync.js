// The timeline's view (span, range, selection) written to the URL a moment after it
// changes, so that links are deep links and a reload restores the view.
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { navigate, parseHash } from '../../model/router.js';
import { formatSel, parseQueryNow } from './view.js';

// The part of the address that says what the timeline shows.
const viewKey = (q) => ['t0', 't1', 'r0', 'r1', 'sel'].map((k) => (q[k] === undefined ? '' : String(q[k]))).join('|');

/**
 * { sync, isEcho }: sync() schedules the URL's update from `view.current` ({ t0, t1,
 * range, selection }); isEcho(query) says whether an address is the one sync last wrote.
 * The view follows such an address no more: it may have moved on since (a wheel turned
 * while the address was written), and following it would undo that move.
 */
export function useUrlSync(view) {
  const timer = useRef(0);
  const written = useRef(null);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useMemo(() => ({
    sync() {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        // The user may have followed a link away meanwhile: the timeline's URL is only
        // its own to write while it is shown.
        if (parseHash().path !== '/timeline') return;
        const s = view.current;
        const q = { ...parseQueryNow(), t0: Math.round(s.t0), t1: Math.round(s.t1) };
        if (s.range) {
          q.r0 = Math.round(s.range[0]);
          q.r1 = Math.round(s.range[1]);
        } else {
          delete q.r0;
          delete q.r1;
        }
        q.sel = s.selection ? formatSel(s.selection.track, s.selection.time) : undefined;
        written.current = viewKey(q);
        navigate('/timeline', q, { replace: true });
      }, 150);
    },
    // Once: an address seen is no echo again (a link to the same place later is followed).
    isEcho(query) {
      const echo = written.current !== null && viewKey(query) === written.current;
      written.current = null;
      return echo;
    },
  }), []);
}
