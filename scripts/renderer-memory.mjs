// The memory of Chromium's renderer processes (the page, its workers and their
// WebAssembly heaps), for the benchmarks that report a tab's peak memory:
//   rss      resident memory, summed over the processes: counts the pages of Chromium's
//            own files (its code, fonts, shared by every process) once per process
//            (~90-120 MiB each, with 2-3 renderers even for a page that opened nothing);
//   private  resident memory not backed by a file (RssAnon + RssShmem): what the tab
//            itself holds, as Chromium's task manager's "memory footprint" counts it.
import { readFileSync, readdirSync } from 'node:fs';

export function rendererMemory() {
  let rss = 0;
  let own = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer')) continue;
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
      rss += kb('VmRSS');
      own += kb('RssAnon') + kb('RssShmem');
    } catch {}
  }
  return { rss, private: own };
}

// The resident memory alone (rendererMemory().rss).
export const rendererRss = () => rendererMemory().rss;
