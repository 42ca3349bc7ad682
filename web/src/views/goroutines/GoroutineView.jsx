import { useMemo } from 'preact/hooks';
import { BreakdownBar } from '../common/BreakdownBar.jsx';
import { segments, rangeNames } from '../common/breakdown.js';
import { formatCount, formatDuration, formatTime, formatPercent, spanDuration, timelineHref, typeName } from '../../model/format.js';
import { criticalPathHref, goroutineHref, groupHref, wakeupHref } from '../common/links.js';
import { cached, part, scopedPart, statsOf } from '../../model/queries.js';
import { OutsidePart } from '../common/scope.jsx';
import { Pending, useAsync } from '../common/query.jsx';
import { StateLane } from '../common/StateLane.jsx';

// Who woke this goroutine and whom it woke, from every wake-up edge of its lifetime,
// counted in the engine from its index of wake edges (a long-lived goroutine's life
// holds millions of them).
const wakeups = (trace, id, t0, t1) => part(trace, 'wakeups', { id, t0, t1: t1 + 1 });

// `woken(e)`: the goroutine woken at an entry's first wake-up (this one, or the entry's).
function WakeList({ title, list, origin, testid, sampled, woken }) {
  return (
    <div class="gt-wake" data-testid={testid}>
      <h3>{title} ({list.length}{sampled ? ', sampled' : ''})</h3>
      {list.length === 0 ? <p>none</p> : (
        <ul>
          {list.slice(0, 100).map((e) => (
            <li key={e.goroutine}>
              {e.goroutine < 0 ? 'the runtime (no goroutine)' : <a href={goroutineHref(e.goroutine)}>G{e.goroutine}</a>}
              {' '}× {formatCount(e.count)}, first at <a href={wakeupHref(woken(e), e.first)}>{formatTime(e.first - origin)}</a>
            </li>
          ))}
          {list.length > 100 && <li>… {list.length - 100} more</li>}
        </ul>
      )}
    </div>
  );
}

// Of a part of a trace opened in parts: the goroutine over its whole life, its
// generations read again (worker: goroutineLife).
const wholeLife = (trace, id) => cached(trace, `life ${id}`, () => trace.call('goroutineLife', id));

export function GoroutineView({ trace, id, info, openPart }) {
  const ofPart = useAsync(async () => {
    const [data, stats] = await Promise.all([part(trace, 'goroutine', id), statsOf(trace)]);
    return { group: data?.group, stats, g: data?.goroutine };
  }, [trace, id]);
  // A goroutine of another part (a link from the whole trace's views): its figures from
  // the whole trace's summary, and the part where it lives offered.
  const complete = Boolean(info?.parts?.complete);
  const elsewhere = useAsync(async () => (trace.inParts && complete && ofPart.data && !ofPart.data.g
    ? { id, ...(await scopedPart(trace, 'whole', 'goroutine', id)) }
    : null), [trace, id, ofPart.data, complete]);
  const away = elsewhere.data?.id === id && elsewhere.data.goroutine ? elsewhere.data : null;
  const life = useAsync(async () => (trace.inParts && ofPart.data?.g ? { id, ...(await wholeLife(trace, id)) } : null), [trace, id, ofPart.data]);
  // In a part, the whole life's figures once read (the part's until then).
  const whole = trace.inParts && life.data?.id === id && life.data.goroutine ? life.data : null;
  // (One object per answer: the wake-ups below are asked again when it changes.)
  const of = whole ?? away;
  const wholeData = useMemo(
    () => (of && ofPart.data ? { ...ofPart.data, group: of.group, g: of.goroutine } : null),
    [of, ofPart.data],
  );
  const state = wholeData ? { ...ofPart, data: wholeData } : ofPart;
  // The wake-ups need the index of wake edges: they come after the figures.
  const woken = useAsync(async () => {
    const d = state.data;
    if (!d?.g || d.g.id !== id || away) return null;
    return { id, ...(await wakeups(trace, id, d.g.start || d.g.creation || d.stats.time.start, d.g.end || d.stats.time.end)) };
  }, [trace, id, state.data]);
  if (!state.data || (trace.inParts && complete && !state.data.g && elsewhere.loading)) return <Pending state={state} what={`goroutine ${id}`} />;
  const { group, stats, g } = state.data;
  const wakes = woken.data?.id === id ? woken.data : null;
  if (!g) {
    const where = trace.inParts && !complete ? 'part (the rest of the trace is still being read)' : 'trace';
    return <p class="gt-error">There is no goroutine {id} in this {where}. <a href="#/goroutines">All goroutines</a></p>;
  }
  const origin = trace.origin;  // where the times shown count from
  const t0 = g.creation || g.start || stats.time.start;
  const t1 = g.end || (away ? info.parts.generations.at(-1).end : stats.time.end);
  const total = g.stats.total ?? 0;
  const segs = segments(g.stats);
  const ranges = rangeNames([g.stats]);
  return (
    <section class="gt-view" data-testid="goroutine-view">
      <header class="gt-view-head">
        <h2>
          <a href="#/goroutines">Goroutines</a> › <a href={groupHref(group)}>{group || '(no start function)'}</a> › <span data-testid="goroutine-title">G{g.id}</span>
        </h2>
        <a href={timelineHref(t0, t1, { g: g.id })} data-testid="goroutine-timeline-link">Open in timeline</a>
        {!away && (
          <>
            {' · '}<a href={criticalPathHref({ goroutine: g.id })} data-testid="goroutine-critical-path-link">Critical path</a>
            <a href={`#/profiles/sync?goroutine=${g.id}`}>Profiles of this goroutine</a>
          </>
        )}
      </header>
      {away && <OutsidePart info={info} openPart={openPart} t0={t0} t1={t1} what={`G${g.id}'s life`} />}
      {trace.inParts && !away && (
        <p class="gt-scope" data-testid="goroutine-life">
          {whole
            ? `Over the goroutine's whole life (generations ${whole.generations[0] + 1} to ${whole.generations[1] + 1} of the trace, read again).`
            : life.error
              ? `This part's figures: the goroutine's whole life could not be read (${life.error.message ?? life.error}).`
              : "This part's figures, while the goroutine's whole life is read…"}
        </p>
      )}
      <dl class="gt-facts">
        <dt>Start function</dt><dd>{g.name || '(none seen)'}</dd>
        {/* Go's summary dates a goroutine there before the trace (or part) at its start. */}
        <dt>Created</dt><dd>{g.creation > (away ? info.parts.stats.time.start : stats.time.start)
          ? formatTime(g.creation - origin) : info?.parts && !away ? 'before this part' : 'before the trace'}</dd>
        <dt>First ran</dt><dd>{g.start ? formatTime(g.start - origin) : 'never'}</dd>
        <dt>Ended</dt><dd>{g.end ? formatTime(g.end - origin) : 'still alive at the end'}</dd>
        <dt>Total</dt><dd data-stat="total" data-ns={total}>{formatDuration(total)}</dd>
      </dl>
      <BreakdownBar stats={g.stats} />
      <table class="gt-table gt-stats" data-testid="goroutine-stats">
        <thead><tr><th>Time in</th><th class="num">Duration</th><th class="num">Share</th><th class="num">ns</th></tr></thead>
        <tbody>
          {segs.map((s) => (
            <tr key={s.key} data-stat={s.key} data-ns={s.value}>
              <td><i class="gt-swatch" style={{ background: s.color }} />{s.label}</td>
              <td class="num">{formatDuration(s.value)}</td>
              <td class="num">{formatPercent(s.value, total)}</td>
              <td class="num">{s.value}</td>
            </tr>
          ))}
          {ranges.map((r) => (
            <tr key={r} data-stat={`range:${r}`} data-ns={g.stats[`range:${r}`]}>
              <td>In range: {r}</td>
              <td class="num">{formatDuration(g.stats[`range:${r}`])}</td>
              <td class="num">{formatPercent(g.stats[`range:${r}`], total)}</td>
              <td class="num">{g.stats[`range:${r}`]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Lane</h3>
      {/* The lane needs the timeline's index, the longest analysis to build: it is asked
          for once the wake-ups are in, so that they never wait behind it. */}
      {away ? <p class="muted">Its lane, wake-ups, critical path and profiles are in the part that holds it.</p> : wakes || woken.error ? (
        <StateLane
          trace={trace}
          goroutine={g.id}
          t0={t0}
          t1={t1}
          onPick={(t) => { location.hash = timelineHref(t - (t1 - t0) / 200, t + (t1 - t0) / 200, { g: g.id }); }}
        />
      ) : <p class="gt-loading">Computing the lane…</p>}
      {away ? null : wakes ? (
        <div class="gt-wakes">
          <WakeList title="Woken by" list={wakes.wokenBy} sampled={wakes.sampled} origin={origin} testid="woken-by" woken={() => g.id} />
          <WakeList title="Woke" list={wakes.woke} sampled={wakes.sampled} origin={origin} testid="woke" woken={(e) => e.goroutine} />
        </div>
      ) : <Pending state={woken} what="the wake-ups" />}
      {g.regions && g.regions.length > 0 && (
        <>
          <h3>Regions ({g.regions.length})</h3>
          <table class="gt-table">
            <thead><tr><th>Region</th><th>Task</th><th class="num">Start</th><th class="num">Duration</th></tr></thead>
            <tbody>
              {g.regions.slice(0, 500).map((r, i) => (
                <tr key={i}>
                  <td><a href={timelineHref(r.start || t0, r.end || t1, { g: g.id })}>{typeName(r.name)}</a></td>
                  <td>{r.task ? <a href={`#/task/${r.task}`}>task {r.task}</a> : ''}</td>
                  <td class="num">{r.start ? formatTime(r.start - origin) : 'before the trace'}</td>
                  <td class="num">{spanDuration(r, stats.time)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
