// Opening traces: one TraceClient for the page, the trace open in it (an OpenedTrace per
// open, so that nothing kept for one trace shows for the next), the load under way, and
// where the trace came from (so a reload can open it again: ?url= in the address, or the
// last file kept in IndexedDB). A file that cannot be opened leaves the open trace open.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { TraceClient, CancelledError } from './client.js';
import { OpenedTrace } from './openedTrace.js';
import { rememberFile, recallFile, rememberOpenedWhole } from './recent.js';
import { formatBytes } from './format.js';
import { navigate, parseHash, stampHistory, traceSearchChanged } from './router.js';

/**
 * onNewTrace(): called as a trace the person chose is shown, not one reopened on start
 * (the address is then a deep link into it): the app leaves views of the trace before.
 */
export function useSession({ onNewTrace } = {}) {
  const clientRef = useRef(null);
  if (!clientRef.current) {
    clientRef.current = new TraceClient();
    // Whether requests are in flight: the browser tests wait on it, not on timeouts.
    window.__gotraceBusy = () => clientRef.current.busy;
  }
  const client = clientRef.current;
  // opened: { name, info, trace (OpenedTrace), serial } | null
  const [opened, setOpened] = useState(null);
  // loading: { name, serial, progress } | null
  const [loading, setLoading] = useState(null);
  const [error, setError] = useState(null);
  const serialRef = useRef(0);
  const loadingRef = useRef(false);
  const newTraceRef = useRef(onNewTrace);
  newTraceRef.current = onNewTrace;

  // A load under way holds the worker (the parser runs to its end): a new one replaces
  // the worker, and the trace open in it goes too.
  const dropLoad = useCallback(() => {
    if (!loadingRef.current) return;
    loadingRef.current = false;
    client.cancel();
    setOpened(null);
  }, [client]);

  // One load in the worker, `request(onProgress)` resolving with what it opened: its
  // progress shown, then the trace it opened (named `name`; `beforeShown()` called just
  // before), unless another load came meanwhile. Resolves whether it was shown; a
  // failure is shown as `failure`.
  const load = useCallback(
    async (name, progress, request, failure, beforeShown) => {
      const serial = ++serialRef.current;
      loadingRef.current = true;
      setError(null);
      setLoading({ name, serial, progress });
      const started = performance.now();
      try {
        const info = await request((p) => {
          if (serialRef.current === serial) setLoading((l) => (l?.serial === serial ? { ...l, progress: p } : l));
        });
        if (serialRef.current !== serial) return false;
        loadingRef.current = false;
        info.name = name;
        info.openMs = performance.now() - started;
        beforeShown?.();
        setOpened({ name, info, trace: new OpenedTrace(client, info), serial });
        setLoading(null);
        return true;
      } catch (e) {
        if (serialRef.current !== serial) return false;
        loadingRef.current = false;
        setLoading(null);
        // The worker refused the file and keeps the trace it had; a cancelled load took
        // the worker, and that trace, with it (and a part that could not be read, the
        // part before).
        if (!client.traceId) setOpened(null);
        if (!(e instanceof CancelledError)) setError({ title: failure, message: e.message });
        return false;
      }
    },
    [client],
  );

  // The file of the trace open (a trace opened in parts can be opened whole).
  const blobRef = useRef(null);
  const openBlob = useCallback(
    async (blob, name, { source = 'file', whole = false } = {}) => {
      dropLoad();
      blobRef.current = blob;
      const shown = await load(
        name,
        { phase: 'reading', bytesDone: 0, bytesTotal: blob.size },
        (onProgress) => client.open(blob, { onProgress, whole }),
        `Could not open ${name}`,
        () => {
          // The same file (name and size) reopened keeps its addresses in the history.
          stampHistory(`${name}\u0000${blob.size}`);
          // A trace the person chose: the app leaves the views of the one before.
          if (source !== 'recalled' && source !== 'startUrl') newTraceRef.current?.();
        },
      );
      if (shown && source === 'file') {
        setAddressUrl(null);
        rememberFile(blob, name);
      }
    },
    [client, dropLoad, load],
  );

  const openUrl = useCallback(
    async (url, name, { source = 'url' } = {}) => {
      let blob;
      const label = name ?? url;
      dropLoad();
      const serial = ++serialRef.current;
      setError(null);
      setLoading({ name: label, serial, progress: { phase: 'fetching', bytesDone: 0, bytesTotal: 0 } });
      try {
        const res = await fetch(new URL(url, location.href), { credentials: 'omit', referrerPolicy: 'no-referrer' });
        if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`.trim());
        blob = await res.blob();
      } catch (e) {
        if (serialRef.current !== serial) return;
        setLoading(null);
        setError({ title: `Could not fetch ${label}`, message: e.message || String(e) });
        return;
      }
      if (serialRef.current !== serial) return;
      setAddressUrl(url);
      await openBlob(blob, label, { source });
    },
    [openBlob, dropLoad],
  );

  // Another part of a trace opened in parts: shown in place of the part open, in the
  // same view (its ids and times may not be in the new part: the views say so).
  // Generations [first, last], or (one of them null) the part that begins at `first` or
  // ends at `last`, as the worker chooses it. The timeline then shows `timeline`, [t0, t1],
  // or without it the part (the span it showed is let go). The address says so as the
  // part is shown, in the same render: written earlier, the part before (still shown
  // while the new one is read) would take it for a link out of its span and write its
  // own span back, which the new part would then take for a link out of its own.
  const openPart = useCallback(
    async (first, last, { timeline } = {}) => {
      if (!opened?.info.parts || loadingRef.current) return;
      const { name } = opened;
      await load(
        name,
        { phase: 'parsing', bytesDone: 0, bytesTotal: 0 },
        (onProgress) => client.openPart(first, last, { onProgress }),
        `Could not open that part of ${name}`,
        () => {
          const { path, query } = parseHash();
          if (timeline) {
            navigate('/timeline', { ...query, t0: Math.round(timeline[0]), t1: Math.round(timeline[1]) }, { replace: true });
          } else if (path === '/timeline' && query.t0 !== undefined) {
            const { t0, t1, ...rest } = query;
            navigate('/timeline', rest, { replace: true });
          }
        },
      );
    },
    [client, opened, load],
  );

  // A trace opened in parts, opened whole instead: every view then shows all of it in
  // full (the timeline's every track, critical paths, SQL), in more time and memory.
  const openWhole = useCallback(async () => {
    const blob = blobRef.current;
    if (!opened?.info.parts || !blob || loadingRef.current) return;
    const { name } = opened;
    const shown = await load(
      name,
      { phase: 'reading', bytesDone: 0, bytesTotal: blob.size },
      (onProgress) => client.open(blob, { onProgress, whole: true }),
      `Could not open ${name} whole`,
    );
    if (shown) rememberOpenedWhole(blob, name);  // a reload opens it whole again
  }, [client, opened, load]);

  // A trace opened in parts is read on in the background: what the part bar and the
  // overview show of it (generations, stats) follows, once a second until it is read.
  useEffect(() => {
    const parts = opened?.info.parts;
    if (!parts || parts.complete) return undefined;
    const timer = setTimeout(async () => {
      let next;
      try {
        next = await opened.trace.call('partsInfo');
      } catch {
        return;  // another trace or part is open
      }
      setOpened((o) => (o === opened ? { ...o, info: { ...o.info, parts: next } } : o));
    }, 1000);
    return () => clearTimeout(timer);
  }, [opened]);

  const cancel = useCallback(() => {
    serialRef.current++;
    dropLoad();
    setLoading(null);
  }, [dropLoad]);

  // On start: the worker compiles the core while the person picks a file; ?url= fetches;
  // otherwise a deep link (a hash) reopens the last file.
  useEffect(() => {
    client.warm();
    const url = new URL(location.href).searchParams.get('url');
    if (url) {
      openUrl(url, url.split('/').pop() || url, { source: 'startUrl' });
    } else if (location.hash.length > 2) {
      recallFile().then((r) => {
        if (!r || serialRef.current !== 0) return;
        if (r.blob) {
          openBlob(r.blob, r.name, { source: 'recalled', whole: Boolean(r.whole) });
        } else {
          setError({
            title: `${r.name} was not reopened`,
            message:
              `Files over ${formatBytes(r.keptBytes)} are not copied into the browser's storage, and this one is ` +
              `${formatBytes(r.size)}: open it again (Open trace…, or drop it here).`,
          });
        }
      });
    }
  }, []);

  return { client, opened, loading, error, setError, openBlob, openUrl, openPart, openWhole, cancel };
}

// Keeps ?url= in the address in step with what is open (a reload fetches it again).
function setAddressUrl(url) {
  const u = new URL(location.href);
  if (url) u.searchParams.set('url', url);
  else u.searchParams.delete('url');
  if (u.href !== location.href) history.replaceState(history.state, '', u.href);
  traceSearchChanged();
}
