// Opening traces: one TraceClient for the page, the load state, and where the trace came
// from (so a reload can open it again: ?url= in the address, or the last file kept in
// IndexedDB).
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { TraceClient, CancelledError } from './client.js';
import { rememberFile, recallFile } from './recent.js';

export function useSession() {
  const clientRef = useRef(null);
  if (!clientRef.current) clientRef.current = new TraceClient();
  const client = clientRef.current;
  // status: 'empty' | 'loading' | 'ready'
  const [state, setState] = useState({ status: 'empty', serial: 0 });
  const [error, setError] = useState(null);
  const serialRef = useRef(0);

  const openBlob = useCallback(
    async (blob, name, { source = 'file' } = {}) => {
      const serial = ++serialRef.current;
      if (client.busy) client.cancel();
      setError(null);
      setState({ status: 'loading', name, serial, progress: { phase: 'reading', bytesDone: 0, bytesTotal: blob.size } });
      const started = performance.now();
      try {
        const info = await client.open(blob, {
          onProgress: (progress) => {
            if (serialRef.current === serial) setState((s) => (s.serial === serial ? { ...s, progress } : s));
          },
        });
        if (serialRef.current !== serial) return;
        info.name = name;
        info.openMs = performance.now() - started;
        setState({ status: 'ready', name, serial, info });
        if (source === 'file') {
          setAddressUrl(null);
          rememberFile(blob, name);
        }
      } catch (e) {
        if (serialRef.current !== serial) return;
        if (e instanceof CancelledError) {
          setState({ status: 'empty', serial });
          return;
        }
        setState({ status: 'empty', serial });
        setError({ title: `Could not open ${name}`, message: e.message });
      }
    },
    [client],
  );

  const openUrl = useCallback(
    async (url, name) => {
      let blob;
      const label = name ?? url;
      const serial = ++serialRef.current;
      setError(null);
      setState({ status: 'loading', name: label, serial, progress: { phase: 'fetching', bytesDone: 0, bytesTotal: 0 } });
      try {
        const res = await fetch(new URL(url, location.href), { credentials: 'omit', referrerPolicy: 'no-referrer' });
        if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`.trim());
        blob = await res.blob();
      } catch (e) {
        if (serialRef.current !== serial) return;
        setState({ status: 'empty', serial });
        setError({ title: `Could not fetch ${label}`, message: e.message || String(e) });
        return;
      }
      if (serialRef.current !== serial) return;
      setAddressUrl(url);
      await openBlob(blob, label, { source: 'url' });
    },
    [openBlob],
  );

  const cancel = useCallback(() => {
    serialRef.current++;
    client.cancel();
    setState({ status: 'empty', serial: serialRef.current });
  }, [client]);

  // On start: the worker compiles the core while the person picks a file; ?url= fetches;
  // otherwise a deep link (a hash) reopens the last file.
  useEffect(() => {
    client.warm();
    const url = new URL(location.href).searchParams.get('url');
    if (url) {
      openUrl(url, url.split('/').pop() || url);
    } else if (location.hash.length > 2) {
      recallFile().then((r) => {
        if (r && serialRef.current === 0) openBlob(r.blob, r.name, { source: 'recalled' });
      });
    }
  }, []);

  return { client, state, error, setError, openBlob, openUrl, cancel };
}

// Keeps ?url= in the address in step with what is open (a reload fetches it again).
function setAddressUrl(url) {
  const u = new URL(location.href);
  if (url) u.searchParams.set('url', url);
  else u.searchParams.delete('url');
  if (u.href !== location.href) history.replaceState(history.state, '', u.href);
}
