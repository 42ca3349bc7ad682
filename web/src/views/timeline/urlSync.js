// The timeline's view (span, range, selection) written to the URL a moment after it
// changes, so that links are deep links and a reload restores the view.
import { useCallback, useEffect, useRef } from 'preact/hooks';
import { navigate, parseHash } from '../../model/router.js';
import { formatSel, parseQueryNow } from './view.js';

/** A function that schedules the URL's update from `view.current` ({ t0, t1, range, selection }). */
export function useUrlSync(view) {
  const timer = useRef(0);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
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
      navigate('/timeline', q, { replace: true });
    }, 150);
  }, []);
}
