import { useMemo, useState } from 'preact/hooks';

// A table whose every column sorts on a click of its header (again: the other way).
// Long tables show their first `limit` rows until asked for all of them. With `remote`
// ({ sort, onSort, total, onShowAll }) the rows come sorted and cut from elsewhere (the
// worker, for tables of many thousands of rows).
export function SortableTable({ columns, rows, initialSort, initialDesc = true, limit = 500, rowKey, testid, onRowClick, remote }) {
  const [localSort, setSort] = useState({ key: initialSort ?? columns[0].key, desc: initialDesc });
  const [showAll, setShowAll] = useState(false);
  const sort = remote ? remote.sort : localSort;
  const column = columns.find((c) => c.key === sort.key) ?? columns[0];
  const sorted = useMemo(() => {
    if (remote) return rows;
    const value = column.value;
    const keyed = rows.map((r, i) => [value(r), i, r]);
    keyed.sort((a, b) => {
      let c;
      if (typeof a[0] === 'number' && typeof b[0] === 'number') c = a[0] - b[0];
      else c = String(a[0]).localeCompare(String(b[0]));
      if (c === 0) return a[1] - b[1];
      return sort.desc ? -c : c;
    });
    return keyed.map((k) => k[2]);
  }, [rows, column, sort.desc]);
  const shown = showAll || remote ? sorted : sorted.slice(0, limit);
  const total = remote ? remote.total : sorted.length;
  const clickHeader = (key) => {
    const col = columns.find((c) => c.key === key);
    const next = (s) => (s.key === key ? { key, desc: !s.desc } : { key, desc: !!col.numeric });
    if (remote) remote.onSort(next(sort));
    else setSort(next);
  };
  return (
    <div class="gt-table-wrap">
      <table class="gt-table" data-testid={testid}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                data-key={c.key}
                class={c.numeric ? 'num' : ''}
                aria-sort={sort.key === c.key ? (sort.desc ? 'descending' : 'ascending') : 'none'}
                title={c.title ?? `Sort by ${c.label}`}
                onClick={c.sortable === false ? undefined : () => clickHeader(c.key)}
              >
                {c.label}
                {sort.key === c.key ? (sort.desc ? ' ▼' : ' ▲') : ''}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((r, i) => (
            <tr key={rowKey ? rowKey(r) : i} onClick={onRowClick ? () => onRowClick(r) : undefined}>
              {columns.map((c) => (
                <td key={c.key} data-key={c.key} data-value={c.numeric ? c.value(r) : undefined} class={c.numeric ? 'num' : ''}>
                  {c.render ? c.render(r) : c.format ? c.format(c.value(r)) : c.value(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {total > shown.length && (
        <button type="button" class="gt-more" onClick={() => (remote ? remote.onShowAll() : setShowAll(true))}>
          Show all {total} rows ({total - shown.length} more)
        </button>
      )}
    </div>
  );
}

/** The rows as CSV text (RFC 4180 quoting). */
export function toCSV(columns, rows) {
  const cell = (v) => {
    const s = v == null ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [columns.map((c) => cell(c.label)).join(',')];
  for (const r of rows) lines.push(columns.map((c) => cell(c.csv ? c.csv(r) : c.value(r))).join(','));
  return lines.join('\n') + '\n';
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** Copies the rows as CSV; `rows` may be a function giving them (or a promise of them). */
export function CopyCSVButton({ columns, rows, name }) {
  const [done, setDone] = useState('');
  return (
    <button
      type="button"
      class="gt-csv"
      data-testid="copy-csv"
      title={`Copy ${name} as CSV`}
      onClick={async () => {
        const all = typeof rows === 'function' ? await rows() : rows;
        setDone((await copyText(toCSV(columns, all))) ? 'copied' : 'copy failed');
      }}
    >
      Copy as CSV{done ? ` (${done})` : ''}
    </button>
  );
}
