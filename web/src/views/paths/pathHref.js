// Links to the critical path view: of a task, a region, a goroutine (over its life or a
// range), or summed over a task or region type (optionally a histogram bucket [min, max)).
import { href } from '../../model/router.js';

export const criticalPathHref = (selection) => href('/critical-path', selection);
