// A query's result, a page at a time (the rows stay in DuckDB: a result of millions of
// rows is paged and sorted there, never copied here whole). A click on a header sorts
// by that column (again: the other way); a row with a goroutine and a time links to the
// timeline there.
import { rowTimelineHref } from './rowLinks.js';

export function ResultTable({ result, rows, offset, pageSize, sort, onSort, onPage, link, traceStart }) {
  const last = Math.min(result.rows, offset + rows.length);
  const arrow = (i) => (sort?.column === result.columns[i].name ? (sort.desc ? ' ▼' : ' ▲') : '');
  return (
    <div class="gt-sql-result">
      <div class="gt-sql-pager" data-testid="sql-pager">
        <span data-testid="sql-row-count" data-rows={result.rows}>
          {result.rows === 0 ? 'No rows' : `Rows ${(offset + 1).toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${result.rows.toLocaleString('en-US')}`}
        </span>
        {result.rerun && <span class="gt-note" data-testid="sql-rerun" title="A result this large is not kept: each page, sort and download runs the query again">(not kept: each page runs the query again)</span>}
        <button type="button" data-testid="sql-prev" disabled={offset === 0} onClick={() => onPage(Math.max(0, offset - pageSize))}>Previous</button>
        <button type="button" data-testid="sql-next" disabled={last >= result.rows} onClick={() => onPage(offset + pageSize)}>Next</button>
      </div>
      <div class="gt-table-wrap">
        <table class="gt-table" data-testid="sql-table">
          <thead>
            <tr>
              {link && <th class="gt-sql-link-col" title="The timeline at the row's goroutine and time">Timeline</th>}
              {result.columns.map((c, i) => (
                <th
                  key={c.name}
                  data-column={c.name}
                  title={`${c.type}: sort by ${c.name}`}
                  aria-sort={sort?.column === c.name ? (sort.desc ? 'descending' : 'ascending') : 'none'}
                  onClick={() => onSort(c.name)}
                >
                  {c.name}{arrow(i)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const to = link && rowTimelineHref(r, link, traceStart);
              return (
                <tr key={offset + i} data-testid="sql-row">
                  {link && <td>{to && <a href={to} data-testid="sql-row-link">timeline</a>}</td>}
                  {r.map((v, j) => (
                    <td key={j} class={v === null ? 'gt-sql-null' : result.columns[j].numeric ? 'num' : ''}>{v === null ? 'NULL' : String(v)}</td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
