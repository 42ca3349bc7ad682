// The resident memory of Chromium's renderer processes (the page, its workers and their
// WebAssembly heaps), for the benchmarks that report a tab's peak memory.
import { readFileSync, readdirSync } from 'node:fs';

export function rendererRss() {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer')) continue;
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) total += Number(m[1]) * 1024;
    } catch {}
  }
  return total;
}
