// The trace's tables, their row counts and columns (from sqlSchema, before any is
// loaded); a click on a table's name puts a query of it in the editor.
export function SchemaList({ schema, isLoaded, onPick }) {
  return (
    <aside class="gt-sql-schema" data-testid="sql-schema">
      <h3>Tables</h3>
      {schema.map((t) => (
        <details key={t.name} data-table={t.name} data-rows={t.rows}>
          <summary>
            <button type="button" class="gt-linkish" title={`Query ${t.name}`} onClick={(e) => { e.preventDefault(); onPick(t.name); }}>{t.name}</button>
            {' '}<span class="gt-sql-rows">{t.rows.toLocaleString('en-US')}</span>
            {isLoaded(t.name) && <span class="gt-sql-loaded" title="In DuckDB"> ●</span>}
          </summary>
          <ul>
            {t.columns.map((c) => <li key={c.name}><code>{c.name}</code> <span class="gt-sql-type">{c.type}</span></li>)}
          </ul>
        </details>
      ))}
    </aside>
  );
}
