// Example queries, one click away in the SQL view (the browser test runs each of them,
// so that a table or column renamed breaks a test rather than the view). Columns named
// goroutine and time (or start and end) make a row a link to the timeline.
export const EXAMPLES = [
  {
    label: 'Goroutines by block time',
    sql: `SELECT goroutine, name, block, exec, total, start, "end"
FROM goroutines
ORDER BY block DESC, goroutine
LIMIT 100`,
  },
  {
    // docs/sql.md's question, asked of one trace.
    label: 'Blocked on channels, by start function',
    sql: `SELECT g.name, sum(b.duration) / 1e6 AS blocked_ms
FROM goroutine_blocks b JOIN goroutines g USING (trace_id, goroutine)
WHERE b.reason LIKE 'chan%'
GROUP BY 1 ORDER BY 2 DESC LIMIT 10`,
  },
  {
    label: 'Longest channel waits',
    sql: `SELECT goroutine, reason, duration, start, "end"
FROM g_transitions
WHERE state = 'Waiting' AND (reason LIKE 'chan %' OR reason = 'select')
ORDER BY duration DESC
LIMIT 100`,
  },
  {
    label: 'Tasks by type, p99',
    sql: `SELECT name AS type, count(*) AS tasks,
       quantile_disc(duration, 0.5) AS p50,
       quantile_disc(duration, 0.99) AS p99,
       max(duration) AS max
FROM tasks
WHERE duration IS NOT NULL
GROUP BY name
ORDER BY p99 DESC`,
  },
  {
    label: 'GC ranges',
    sql: `SELECT name, scope, goroutine, duration, start, "end"
FROM ranges
WHERE name LIKE 'GC%' OR name LIKE 'stop-the-world%'
ORDER BY start`,
  },
  {
    label: 'Events by kind',
    sql: `SELECT kind, count(*) AS events
FROM events
GROUP BY kind
ORDER BY events DESC`,
  },
];
