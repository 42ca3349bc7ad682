// Links between the views: each page's address, built in one place.
import { href, queryString } from '../../model/router.js';
import { timelineHref } from '../../model/format.js';
import { formatSel } from '../timeline/view.js';

export const goroutineHref = (id) => `#/goroutine/${id}`;
// (A group's name is one segment, slashes and all: href would split it.)
export const groupHref = (name, query = {}) => `#/goroutines/group/${encodeURIComponent(name)}${queryString(query)}`;
export const taskHref = (id) => `#/task/${id}`;

/** The critical path view: of a task, a region, a goroutine (over its life or a range),
 *  or summed over a task or region type (optionally a histogram bucket [min, max)). */
export const criticalPathHref = (selection) => href('/critical-path', selection);

// A wake-up in the timeline: 20 µs either side of it, the woken goroutine's lane open and
// its slice that begins there selected (its details name the waker, with an arrow).
const WAKE_SPAN = 20_000;
export const wakeupHref = (woken, time) =>
  timelineHref(time - WAKE_SPAN, time + WAKE_SPAN, { g: woken, sel: formatSel({ kind: 'goroutine', id: woken }, time + 1) });
