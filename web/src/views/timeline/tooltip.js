// The timeline's tooltip: what a row shows at the pointer, as lines of text.
import { formatBytes, formatDuration, formatCount } from '../../model/format.js';
import { hitTest } from '../../render/draw.js';
import { trackKey } from '../../render/layout.js';
import { STATES } from '../../render/colors.js';
import { NO_VALUE } from '../../render/content.js';

// The Threads plot's series, as Go's viewer names them.
export const THREAD_SERIES = { 'procs-running': 'threads running', 'goroutines-syscall': 'threads in syscall' };

export function tipLines(row, data, t, slop, start) {
  const out = [];
  for (const ref of row.tracks) {
    const d = data.get(trackKey(ref));
    if (!d) continue;
    if (d.type === 'activity') {
      const p = Math.floor((t - d.from) / d.step);
      if (p < 0 || p >= d.running.length) continue;
      const f = (n) => (n >= 10 || n === 0 ? String(Math.round(n)) : n.toFixed(1));
      out.push(`${row.label.replace(/^[▸▾] /, '')}`);
      out.push(`running ${f(d.running[p])} · runnable ${f(d.runnable[p])} · syscall ${f(d.syscall[p])} · waiting ${f(d.waiting[p])}`);
      out.push(`goroutines on average over ${formatDuration(d.step)} at ${formatDuration(d.from + p * d.step - start, 6)}`);
      continue;
    }
    if (d.type === 'series') {
      let i = -1;
      for (let k = 0; k < d.time.length && d.time[k] <= t; k++) i = k;
      if (i < 0) continue;
      const value = d.value[i];
      const name = row.of === 'threads' ? THREAD_SERIES[ref.name] : ref.name;
      if (value === NO_VALUE[ref.name]) out.push(`${name}: none`);
      else out.push(`${name}: ${row.unit === 'bytes' ? formatBytes(value) : formatCount(value)}`);
      continue;
    }
    const i = hitTest(d, t, slop);
    if (i < 0) continue;
    if (d.type === 'slices') {
      const state = STATES[d.state[i]];
      const label = d.label[i] >= 0 ? d.labels[d.label[i]] : '';
      out.push(`${row.label.trim()}: ${state}${label ? ` (${label})` : ''}`);
      if (d.goroutine[i] >= 0) out.push(`goroutine G${d.goroutine[i]}`);
      out.push(d.count[i] > 1 ? `${d.count[i]} slices in ${formatDuration(d.end[i] - d.start[i])}` : `duration ${formatDuration(d.end[i] - d.start[i])}`);
      out.push(`at ${formatDuration(d.start[i] - start, 6)}`);
    } else if (d.type === 'spans') {
      out.push(`${d.names[d.name[i]] ?? ''}${d.count[i] > 1 ? ` (${d.count[i]} merged)` : ''}`);
      out.push(`duration ${formatDuration(d.end[i] - d.start[i])}`);
      if (d.task[i] > 0) out.push(`task ${d.task[i]}`);
    } else if (d.type === 'instants') {
      out.push(`${d.count[i]} ${row.label.toLowerCase()} at ${formatDuration(d.time[i] - start, 6)}`);
    }
  }
  return out;
}
