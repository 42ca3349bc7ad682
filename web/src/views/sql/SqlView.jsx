// SQL over the open trace: DuckDB-Wasm with the trace's tables (docs/sql.md), a query
// editor with example queries, the result a page at a time, exports as CSV or Parquet.
// The query is kept in the URL (#/sql?q=…), so a link or a reload runs it again.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { navigate } from '../../model/router.js';
import { sqlSession, quoteIdent } from './sqlSession.js';
import { EXAMPLES } from './examples.js';
import { linkColumns } from './rowLinks.js';
import { ResultTable } from './ResultTable.jsx';
import { SchemaList } from './SchemaList.jsx';
import { PartOnlyNote } from '../common/scope.jsx';
import './sql.css';

const PAGE = 100;

export function SqlView({ trace, info, query, route, openWhole }) {
  const session = useMemo(() => sqlSession(trace), [trace]);
  const [schema, setSchema] = useState(null);
  const [startError, setStartError] = useState(null);
  const [text, setText] = useState(query.q ?? EXAMPLES[0].sql);
  // The last run: { sql, running, result, error, progress, ms }.
  const [run, setRun] = useState(null);
  const [view, setView] = useState({ offset: 0, sort: null });
  const [page, setPage] = useState(null);
  const runs = useRef(0);

  useEffect(() => {
    let live = true;
    session.ready.then((s) => live && setSchema(s), (e) => live && setStartError(e));
    return () => { live = false; };
  }, [session]);

  const execute = async (sql) => {
    const n = ++runs.current;
    setText(sql);
    setPage(null);
    setRun({ sql, running: true });
    navigate('/sql', { q: sql }, { replace: true });
    const t0 = performance.now();
    try {
      await session.ready;
      const result = await session.run(sql, (progress) => n === runs.current && setRun({ sql, running: true, progress }));
      if (n !== runs.current) return;
      setView({ offset: 0, sort: null });
      setRun({ sql, result, ms: performance.now() - t0 });
    } catch (error) {
      if (n === runs.current) setRun({ sql, error, ms: performance.now() - t0 });
    }
  };

  // A query in the URL (a link, a reload) runs once the engine is ready.
  useEffect(() => {
    if (schema && query.q) execute(query.q);
  }, [schema]);

  const result = run?.result;
  useEffect(() => {
    if (!result || result.columns.length === 0) return;
    let live = true;
    session.page({ offset: view.offset, limit: PAGE, sort: view.sort }).then(
      (rows) => live && setPage({ rows, ...view }),
      (error) => live && setRun((r) => ({ ...r, error })),
    );
    return () => { live = false; };
  }, [result, view]);

  const link = useMemo(() => (result ? linkColumns(result.columns) : null), [result]);
  const sortBy = (column) => setView((v) => ({
    offset: 0,
    sort: v.sort?.column === column ? { column, desc: !v.sort.desc } : { column, desc: false },
  }));
  const download = async (format) => {
    try {
      const blob = await session.exportAs(format, view.sort);
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `query.${format}`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
    } catch (error) {
      setRun((r) => ({ ...r, error }));
    }
  };

  if (startError) {
    return <section class="gt-view"><p class="gt-error" role="alert" data-testid="sql-error">Could not open the SQL view: {String(startError.message ?? startError)}</p></section>;
  }
  return (
    <section class="gt-view gt-sql" data-testid="sql-view" data-ready={schema ? 1 : 0} data-ready-ms={schema ? Math.round(session.readyMs) : undefined}>
      <header class="gt-view-head">
        <h2>SQL</h2>
        <p class="gt-note">
          DuckDB over this trace's tables, in this page: nothing leaves it. Times are nanoseconds since the
          trace's start; a table is loaded the first time a query names it.
        </p>
        <PartOnlyNote info={info} route={route} what="tables" openWhole={openWhole} />
      </header>
      <div class="gt-sql-body">
        {schema ? <SchemaList schema={schema} isLoaded={(name) => session.loaded(name)} onPick={(name) => setText(`SELECT * FROM ${quoteIdent(name)} LIMIT 100`)} />
          : <p class="gt-loading">Starting DuckDB…</p>}
        <div class="gt-sql-main">
          <div class="gt-sql-examples" data-testid="sql-examples">
            {EXAMPLES.map((e) => (
              <button key={e.label} type="button" data-testid="sql-example" disabled={!schema} title={e.sql} onClick={() => execute(e.sql)}>{e.label}</button>
            ))}
          </div>
          <textarea
            class="gt-sql-editor"
            data-testid="sql-editor"
            spellcheck={false}
            rows={8}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                if (schema) execute(e.currentTarget.value);
              }
            }}
          />
          <div class="gt-sql-actions">
            <button type="button" data-testid="sql-run" disabled={!schema || run?.running} onClick={() => execute(text)}>Run</button>
            {run?.running && run.progress && <button type="button" data-testid="sql-stop" onClick={() => session.stop()}>Stop</button>}
            <span class="gt-note">Ctrl+Enter runs</span>
            {result && result.columns.length > 0 && (
              <>
                <button type="button" data-testid="sql-csv" onClick={() => download('csv')}>Download CSV</button>
                <button type="button" data-testid="sql-parquet" onClick={() => download('parquet')}>Download Parquet</button>
              </>
            )}
            <RunStatus run={run} />
          </div>
          {run?.error && <pre class="gt-error gt-sql-error" role="alert" data-testid="sql-error">{String(run.error.message ?? run.error)}</pre>}
          {result && result.columns.length === 0 && !run.error && <p data-testid="sql-done">Done.</p>}
          {result && result.columns.length > 0 && page && (
            <ResultTable
              result={result}
              rows={page.rows}
              offset={page.offset}
              pageSize={PAGE}
              sort={page.sort}
              onSort={sortBy}
              onPage={(offset) => setView((v) => ({ ...v, offset }))}
              link={link}
              traceStart={session.timeOrigin ?? info.stats.time.start}
            />
          )}
        </div>
      </div>
    </section>
  );
}

function RunStatus({ run }) {
  if (!run) return null;
  if (run.running) {
    const p = run.progress;
    const what = p ? `Loading ${p.table}: ${p.done.toLocaleString('en-US')} of ${p.rows.toLocaleString('en-US')} rows…` : 'Running…';
    return <span class="gt-loading" data-testid="sql-status">{what}</span>;
  }
  return <span class="gt-note" data-testid="sql-status" data-ms={Math.round(run.ms)}>{run.error ? 'Failed' : 'Done'} in {(run.ms / 1000).toFixed(2)} s</span>;
}
