// The app shell: open a trace (drop, picker, sample, ?url=), loading progress, errors,
// tabs and the hash router. Views come from the route registry (views/routes.js).
import { useEffect, useRef, useState } from 'preact/hooks';
import { useSession } from './model/session.js';
import { href, match, navigate, onForeignEntry, useHash } from './model/router.js';
import { routes, headerItems, tabs, tabOf } from './views/routes.js';
import { Welcome } from './views/shell/Welcome.jsx';
import { Progress } from './views/shell/Progress.jsx';
import { ErrorBanner } from './views/shell/ErrorBanner.jsx';
import { KeyboardHelp } from './views/shell/KeyboardHelp.jsx';
import { PartBar } from './views/shell/PartBar.jsx';

const SAMPLE = 'go123-workload.trace';

export function App() {
  const route = useHash();
  const routeRef = useRef(route);
  routeRef.current = route;
  // Another trace: the same view, without what named the one before (ids, times).
  const onNewTrace = () => navigate(...viewOfAnyTrace(routeRef.current), { replace: true });
  // Back or Forward to a page of the trace open before: the same view of this one.
  onForeignEntry((r) => navigate(...viewOfAnyTrace(r), { replace: true }));
  const { opened, loading, error, setError, openBlob, openUrl, openPart, openWhole, cancel } = useSession({ onNewTrace });
  const fileInput = useRef(null);
  const [dragging, setDragging] = useState(false);

  // Drop a file anywhere on the page.
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
    const enter = (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      setDragging(true);
    };
    const over = (e) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      const f = e.dataTransfer.files[0];
      if (f) openBlob(f, f.name);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [openBlob]);

  const pick = () => fileInput.current?.click();
  const onFile = (e) => {
    const f = e.currentTarget.files?.[0];
    e.currentTarget.value = '';
    if (f) openBlob(f, f.name);
  };
  const openSample = () => openUrl(SAMPLE, SAMPLE);

  const ready = opened !== null;
  let body;
  if (ready) {
    body = <RouteView key={opened.serial} route={route} trace={opened.trace} info={opened.info} openPart={openPart} openWhole={openWhole} />;
  } else {
    body = <Welcome onPick={pick} onSample={openSample} loading={loading !== null} />;
  }

  return (
    <div class={`app${dragging ? ' dragging' : ''}`}>
      <header class="topbar">
        <a class="brand" href={href('/overview')}>gotrace</a>
        {ready && <Tabs route={route} />}
        <div class="spacer" />
        {ready && headerItems.map((Item, i) => <Item key={`${opened.serial}:${i}`} trace={opened.trace} info={opened.info} route={route} />)}
        {ready && (
          <span class="trace-name" title={opened.name} data-opened={opened.serial}>
            {opened.name}
          </span>
        )}
        {/* Narrow windows show the short words (styles.css). */}
        <button type="button" class="topbar-button" onClick={pick} aria-label="Open trace…" title="Open a trace file">
          <span class="wide-only">Open trace…</span>
          <span class="narrow-only">Open…</span>
        </button>
        <button type="button" class="topbar-button" onClick={openSample} aria-label="Open the sample" title="Open the sample trace">
          <span class="wide-only">Open the sample</span>
          <span class="narrow-only">Sample</span>
        </button>
        <input ref={fileInput} type="file" class="hidden" data-testid="file-input" onChange={onFile} />
      </header>
      {error && <ErrorBanner error={error} onClose={() => setError(null)} />}
      {loading && <Progress name={loading.name} progress={loading.progress} onCancel={cancel} />}
      {ready && opened.info.parts && (
        <PartBar parts={opened.info.parts} eventCount={opened.info.eventCount} bytes={opened.info.bytes} onOpenPart={openPart} onOpenWhole={openWhole}
          busy={loading !== null} />
      )}
      <main class="main">{body}</main>
      {dragging && <div class="drop-overlay">Drop a trace to open it</div>}
      <KeyboardHelp />
    </div>
  );
}

// In a window too narrow for every tab the tabs scroll: a fade marks each side that
// hides some (styles.css), and the active tab is scrolled into view.
function useOverflowCue(ref, active) {
  const [sides, setSides] = useState('');
  useEffect(() => {
    const nav = ref.current;
    if (!nav) return undefined;
    const measure = () => {
      const left = nav.scrollLeft > 1;
      const right = nav.scrollLeft + nav.clientWidth < nav.scrollWidth - 1;
      setSides(`${left ? ' more-left' : ''}${right ? ' more-right' : ''}`);
    };
    measure();
    nav.addEventListener('scroll', measure, { passive: true });
    const ro = new ResizeObserver(measure);
    ro.observe(nav);
    return () => { nav.removeEventListener('scroll', measure); ro.disconnect(); };
  }, [ref]);
  useEffect(() => {
    ref.current?.querySelector('.tab.active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [ref, active]);
  return sides;
}

function Tabs({ route }) {
  const current = routes.find((r) => match(r.path, route.segments));
  const owner = tabOf(current, route);
  const ref = useRef(null);
  const sides = useOverflowCue(ref, owner);
  return (
    <nav class={`tabs${sides}`} ref={ref} data-testid="tabs">
      {tabs().map((t) => {
        const active = owner === t.path || (t.prefix && owner.startsWith(t.prefix)) || route.path === t.path;
        return (
          <a key={t.path} href={href(t.path)} class={`tab${active ? ' active' : ''}${t.available ? '' : ' unavailable'}`}>
            {t.label}
          </a>
        );
      })}
    </nav>
  );
}

// [path, query] of the view a route shows, for any trace: a page of one goroutine, task
// or group gives its tab's list; what the query says of no trace in particular (a route's
// `anyTrace` keys: the SQL view's query) is kept.
function viewOfAnyTrace(route) {
  const r = routes.find((x) => match(x.path, route.segments));
  if (!r) return ['/overview', {}];
  const kept = Object.fromEntries((r.anyTrace ?? []).filter((k) => route.query[k] !== undefined).map((k) => [k, route.query[k]]));
  return [tabOf(r, route) === r.path ? route.path : tabOf(r, route), kept];
}

function RouteView({ route, trace, info, openPart, openWhole }) {
  for (const r of routes) {
    const params = match(r.path, route.segments);
    if (params) {
      const View = r.view;
      return <View trace={trace} info={info} params={params} query={route.query} route={route} openPart={openPart} openWhole={openWhole} />;
    }
  }
  return (
    <div class="page">
      <h2>Not available</h2>
      <p>
        This build has no view for <code>{route.path}</code>. <a href={href('/overview')}>Back to the overview</a>.
      </p>
    </div>
  );
}
