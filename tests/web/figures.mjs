// The figures each view of the app shows, read from the page, beside the native CLI's
// for the same trace: goroutine and group counts, task and region types, each
// profile's total, the MMU, the timeline's goroutines and procs. A view that shows
// another trace's figures (state kept from the trace opened before) disagrees here.
import { gotrace, gotraceJson as json } from './fixtures.mjs';

const count = (s) => Number(String(s).replace(/[^0-9]/g, ''));
// `gotrace pprof --folded` lines: "COUNT NS leaf;...;root".
const foldedTotal = (folded) => folded.split('\n').filter(Boolean).reduce((s, l) => s + Number(l.split(' ')[1]), 0);
const sorted = (pairs) => pairs.map((p) => JSON.stringify(p)).sort();

/** The CLI's figures for a trace, each computed on first use. */
export function cliFigures(file) {
  const memo = new Map();
  const once = (key, f) => () => (memo.has(key) ? memo.get(key) : (memo.set(key, f()), memo.get(key)));
  const tracks = once('tracks', () => gotrace('timeline', file, '--track=list').split('\n'));
  return {
    stats: once('stats', () => json('stats', file)),
    goroutines: once('goroutines', () => json('goroutines', file)),
    tasks: once('tasks', () => json('tasks', file)),
    regions: once('regions', () => json('regions', file)),
    mmu: once('mmu', () => json('mmu', file).mmu),
    profileTotal: (type) => once(`pprof ${type}`, () => foldedTotal(gotrace('pprof', `--type=${type}`, '--folded', file)))(),
    /** The number of tracks of a kind (`goroutine`, `proc`), or null if none is listed. */
    trackCount: (kind) => {
      const line = tracks().find((l) => l.startsWith(`${kind} (`));
      return line ? Number(/\((\d+)\)/.exec(line)[1]) : null;
    },
  };
}

const rowsOf = (page, table, name, value) => page.$$eval(`[data-testid=${table}] tbody tr`, (trs, [n, v]) =>
  trs.map((tr) => [tr.querySelector(n).textContent, tr.querySelector(v).textContent]), [name, value]);

// Per route: the figures that view shows and the CLI's, as [what, shown, expected].
const CHECKS = {
  async '/overview'(page, cli) {
    const s = cli.stats();
    const card = (key) => page.textContent(`[data-stat=${key}] .card-value`).then(count);
    return [
      ['goroutines', await card('goroutines'), s.goroutines],
      ['procs', await card('procs'), s.procs],
      ['events', await card('events'), s.events],
      ['GCs', await card('gcs'), s.gcs],
    ];
  },
  async '/goroutines'(page, cli) {
    const g = cli.goroutines();
    const head = await page.textContent('[data-testid=goroutines-view] .gt-view-head span');
    const rows = await rowsOf(page, 'groups-table', 'td[data-key=name]', 'td[data-key=count]');
    return [
      ['goroutines and groups', head, `${g.goroutines.length.toLocaleString('en-US')} goroutines in ${g.groups.length} groups by start function`],
      ['groups', sorted(rows.map(([n, c]) => [n, count(c)])), sorted(g.groups.map((x) => [x.name || '(no start function)', x.count]))],
    ];
  },
  async '/tasks'(page, cli) {
    const rows = await rowsOf(page, 'task-types', '[data-testid=type-name]', '[data-testid=type-count]');
    return [['task types', sorted(rows.map(([n, c]) => [n, count(c)])), sorted((cli.tasks().types ?? []).map((t) => [t.name || '(unnamed)', t.count]))]];
  },
  async '/regions'(page, cli) {
    const rows = await rowsOf(page, 'region-types', '[data-testid=type-name]', '[data-testid=type-count]');
    // The name cell also holds the function and line of the region's start.
    const types = cli.regions().types ?? [];
    const expected = types.map((t) => [`${t.name || '(unnamed)'}${t.func ? ` ${t.func}:${t.line}` : ''}`, t.count]);
    return [['region types', sorted(rows.map(([n, c]) => [n, count(c)])), sorted(expected)]];
  },
  async '/mmu'(page, cli) {
    const shown = new Map(await page.$$eval('[data-testid=mmu-windows] tbody tr', (trs) =>
      trs.map((tr) => [tr.querySelector('[data-testid=mmu-window]').title.replace(/ \(as Go writes it\)$/, ''), tr.children[1].textContent])));
    const out = [['MMU flags', await page.textContent('[data-testid=mmu-flags-text]'), cli.mmu().flags]];
    // The window lengths both list (the CLI's decades that are shorter than the trace).
    for (const w of cli.mmu().windows) {
      if (shown.has(w.label)) out.push([`MMU at ${w.label}`, shown.get(w.label), `${(w.mmu * 100).toFixed(2)}%`]);
    }
    if (out.length < 2) out.push(['MMU windows in common', 0, '>0']);
    return out;
  },
  async '/timeline'(page, cli) {
    const labels = await page.evaluate(() => window.__gotraceTimeline.rowLabels());
    const out = [];
    for (const [kind, label] of [['goroutine', 'Goroutines'], ['proc', 'Procs']]) {
      const n = cli.trackCount(kind);
      if (n == null) continue;
      const shown = labels.find((l) => l.startsWith(`${label} (`));
      out.push([`${label} row`, shown, `${label} (${n})`]);
    }
    return out;
  },
};
for (const type of ['net', 'sync', 'syscall', 'sched']) {
  CHECKS[`/profiles/${type}`] = async (page, cli) => [
    [`${type} profile total`, Number(await page.getAttribute('[data-testid=flame-total]', 'data-ns')), cli.profileTotal(type)],
  ];
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
