import { useEffect, useRef, useState } from 'preact/hooks';
import { scopedPart } from '../../model/queries.js';
import { scopeOf } from '../common/scope.jsx';
import { typingIn } from '../common/typing.js';

// One box for everything (keyboard: /). The search runs in the worker, beside the
// analyses it looks through (worker/analysis-parts.js): of a trace opened in parts, the
// whole trace's once it is read (common/scope.jsx), the part's until then.
export function SearchBox({ trace, info }) {
  const scope = scopeOf(info, {});
  const input = useRef(null);
  const [text, setText] = useState('');
  const [found, setFound] = useState({ text: '', results: [] });
  const [loading, setLoading] = useState(false);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const closing = useRef(0);
  // Enter pressed before the results of the text typed came: the text, to go to the
  // first result once they come.
  const enterFor = useRef(null);

  useEffect(() => {
    const key = (e) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
      if (typingIn(e.target)) return;
      e.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    window.addEventListener('keydown', key);
    return () => window.removeEventListener('keydown', key);
  }, []);

  useEffect(() => {
    const q = text.trim();
    if (!q) return undefined;
    let live = true;
    setLoading(true);
    const timer = setTimeout(() => {
      scopedPart(trace, scope, 'search', q).then(
        (results) => { if (live) { setFound({ text: q, results }); setLoading(false); } },
        () => live && setLoading(false),
      );
    }, 60);
    return () => { live = false; clearTimeout(timer); };
  }, [trace, text, scope]);
  const results = found.text === text.trim() ? found.results : [];
  const go = (r) => {
    enterFor.current = null;
    if (!r) return;
    setOpen(false);
    input.current?.blur();
    location.hash = r.href;
  };
  useEffect(() => {
    if (enterFor.current !== null && enterFor.current === found.text) go(found.results[0]);
  }, [found]);
  const onKey = (e) => {
    if (e.key === 'ArrowDown') { e.preventDefault(); setActive((a) => Math.min(results.length - 1, a + 1)); }
    else if (e.key === 'ArrowUp') { e.preventDefault(); setActive((a) => Math.max(0, a - 1)); }
    else if (e.key === 'Enter') {
      if (found.text === text.trim()) go(results[active]);
      else enterFor.current = text.trim();
    }
    // Esc empties the box (as the browser does a search field's, without telling us).
    else if (e.key === 'Escape') { e.preventDefault(); enterFor.current = null; setText(''); setOpen(false); input.current?.blur(); }
  };
  return (
    <div class="gt-search">
      <input
        ref={input}
        type="search"
        data-testid="search"
        placeholder="Search (/)"
        aria-label="Search goroutines, tasks, regions and logs"
        value={text}
        onFocus={() => { clearTimeout(closing.current); setOpen(true); }}
        onBlur={() => { closing.current = setTimeout(() => setOpen(false), 150); }}
        onInput={(e) => { enterFor.current = null; setText(e.currentTarget.value); setActive(0); setOpen(true); }}
        onKeyDown={onKey}
      />
      {open && text.trim() && (
        <ul class="gt-search-results" data-testid="search-results" role="listbox">
          {info?.parts && (
            <li class="muted" data-testid="search-scope" data-scope={scope}>
              {scope === 'whole' ? 'In the whole trace' : info.parts.complete ? 'In this part' : 'In this part (the whole trace once it is read)'}
            </li>
          )}
          {loading && results.length === 0 && <li class="muted">Searching…</li>}
          {!loading && results.length === 0 && <li class="muted">Nothing found</li>}
          {results.map((r, i) => (
            <li key={i} role="option" aria-selected={i === active} class={i === active ? 'on' : ''}>
              <a href={r.href} data-kind={r.kind} onMouseDown={(e) => { e.preventDefault(); go(r); }}>
                <span class="kind">{r.kind}</span> {r.label} <span class="muted">{r.detail}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
