// The figures each view of the app shows, read from the page, beside the native CLI's
// for the same trace: goroutine and group counts, task and region types, each
// profile's total, the MMU, the timeline's goroutines and procs. A view that shows
// another trace's figures (state kept from the trace opened before) disagrees here.
import { execFile as execFileCallback } from 'node:child_process';
import { promisify } from 'node:util';
import { cli } from './fixtures.mjs';

// "1 group", "1,234 goroutines": as the views count.
const counted = (n, noun) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

const execFile = promisify(execFileCallback);

const count = (s) => Number(String(s).replace(/[^0-9]/g, ''));
// `gotrace pprof --folded` lines: "COUNT NS leaf;...;root".
const foldedTotal = (folded) => folded.split('\n').filter(Boolean).reduce((s, l) => s + Number(l.split(' ')[1]), 0);
const sorted = (pairs) => pairs.map((p) => JSON.stringify(p)).sort();

/**
 * The CLI's figures for a trace, its commands started at once and run while the page
 * opens the trace (each a promise). `profile`: the profile type whose total is checked
 * (one per trace, the corpus's traces taking the four types in turn: a run of the CLI
 * per type and trace would double the crawl's time).
 */
export function cliFigures(file, profile) {
  const run = (...args) => {
    const p = execFile(cli, args, { maxBuffer: 1 << 30 }).then((r) => r.stdout);
    p.catch(() => {});  // awaited where used; a trace the CLI cannot read fails there
    return p;
  };
  const parsed = (...args) => {
    const p = run(...args, '--json').then(JSON.parse);
    p.catch(() => {});
    return p;
  };
  const stats = parsed('stats', file);
  const goroutines = parsed('goroutines', file);
  const tasks = parsed('tasks', file);
  const regions = parsed('regions', file);
  const mmu = parsed('mmu', file);
  const total = run('pprof', `--type=${profile}`, '--folded', file).then(foldedTotal);
  total.catch(() => {});
  const tracks = run('timeline', file, '--track=list').then((t) => t.split('\n'));
  tracks.catch(() => {});
  return {
    profile,
    stats: () => stats,
    goroutines: () => goroutines,
    tasks: () => tasks,
    regions: () => regions,
    mmu: async () => (await mmu).mmu,
    profileTotal: () => total,
    /** The number of tracks of a kind (`goroutine`, `proc`), or null if none is listed. */
    trackCount: async (kind) => {
      const line = (await tracks).find((l) => l.startsWith(`${kind} (`));
      return line ? Number(/\((\d+)\)/.exec(line)[1]) : null;
    },
  };
}

const rowsOf = (page, table, name, value) => page.$$eval(`[data-testid=${table}] tbody tr`, (trs, [n, v]) =>
  trs.map((tr) => [tr.querySelector(n).textContent, tr.querySelector(v).textContent]), [name, value]);

// Per route: the figures that view shows and the CLI's, as [what, shown, expected].
const CHECKS = {
  async '/overview'(page, cli) {
    const s = await cli.stats();
    const card = (key) => page.textContent(`[data-stat=${key}] .card-value`).then(count);
    return [
      ['goroutines', await card('goroutines'), s.goroutines],
      ['procs', await card('procs'), s.procs],
      ['events', await card('events'), s.events],
      ['GCs', await card('gcs'), s.gcs],
    ];
  },
  async '/goroutines'(page, cli) {
    const g = await cli.goroutines();
    const head = await page.textContent('[data-testid=goroutines-view] .gt-view-head span');
    const rows = await rowsOf(page, 'groups-table', 'td[data-key=name]', 'td[data-key=count]');
    return [
      ['goroutines and groups', head, `${counted(g.goroutines.length, 'goroutine')} in ${counted(g.groups.length, 'group')} by start function`],
      ['groups', sorted(rows.map(([n, c]) => [n, count(c)])), sorted(g.groups.map((x) => [x.name || '(no start function)', x.count]))],
    ];
  },
  async '/tasks'(page, cli) {
    const rows = await rowsOf(page, 'task-types', '[data-testid=type-name]', '[data-testid=type-count]');
    return [['task types', sorted(rows.map(([n, c]) => [n, count(c)])), sorted(((await cli.tasks()).types ?? []).map((t) => [t.name || '(unnamed)', t.count]))]];
  },
  async '/regions'(page, cli) {
    const rows = await rowsOf(page, 'region-types', '[data-testid=type-name]', '[data-testid=type-count]');
    // The name cell also holds the function and line of the region's start.
    const types = (await cli.regions()).types ?? [];
    const expected = types.map((t) => [`${t.name || '(unnamed)'}${t.func ? ` ${t.func}:${t.line}` : ''}`, t.count]);
    return [['region types', sorted(rows.map(([n, c]) => [n, count(c)])), sorted(expected)]];
  },
  async '/mmu'(page, cli) {
    const shown = new Map(await page.$$eval('[data-testid=mmu-windows] tbody tr', (trs) =>
      trs.map((tr) => [tr.querySelector('[data-testid=mmu-window]').title.replace(/ \(as Go writes it\)$/, ''), tr.children[1].textContent])));
    const mmu = await cli.mmu();
    const out = [['MMU flags', await page.textContent('[data-testid=mmu-flags-text]'), mmu.flags]];
    // The window lengths both list (the CLI's decades that are shorter than the trace).
    for (const w of mmu.windows) {
      if (shown.has(w.label)) out.push([`MMU at ${w.label}`, shown.get(w.label), `${(w.mmu * 100).toFixed(2)}%`]);
    }
    if (out.length < 2) out.push(['MMU windows in common', 0, '>0']);
    return out;
  },
  async '/sql'(page, cli) {
    // The tables' row counts the SQL view lists (before any is loaded into DuckDB).
    const rows = (table) => page.getAttribute(`[data-testid=sql-schema] [data-table=${table}]`, 'data-rows').then(Number);
    return [
      ['events table rows', await rows('events'), (await cli.stats()).events],
      ['goroutines table rows', await rows('goroutines'), (await cli.goroutines()).goroutines.length],
    ];
  },
  async '/timeline'(page, cli) {
    const labels = await page.evaluate(() => window.__gotraceTimeline.rowLabels());
    const out = [];
    for (const [kind, label] of [['goroutine', 'Goroutines'], ['proc', 'Procs']]) {
      const n = await cli.trackCount(kind);
      if (n == null) continue;
      const shown = labels.find((l) => l.startsWith(`${label} (`));
      out.push([`${label} row`, shown, `${label} (${n})`]);
    }
    return out;
  },
};
/** The profile types, each checked on a share of the traces. */
export const PROFILE_TYPES = ['net', 'sync', 'syscall', 'sched'];
for (const type of PROFILE_TYPES) {
  CHECKS[`/profiles/${type}`] = async (page, cli) => (cli.profile !== type ? [] : [
    [`${type} profile total`, Number(await page.getAttribute('[data-testid=flame-total]', 'data-ns')), await cli.profileTotal()],
  ]);
}

/** The figures of the view at `route` that differ from the CLI's, as lines of text
 *  (none when the route shows no figure checked here). */
export async function figureMismatches(page, route, cli) {
  const check = CHECKS[route];
  if (!check) return [];
  const out = [];
  for (const [what, shown, expected] of await check(page, cli)) {
    if (JSON.stringify(shown) !== JSON.stringify(expected)) out.push(`${route}: ${what} shows ${JSON.stringify(shown)}, the CLI ${JSON.stringify(expected)}`);
  }
  return out;
}

/** The routes whose figures figureMismatches() checks. */
export const checkedRoutes = () => Object.keys(CHECKS);
