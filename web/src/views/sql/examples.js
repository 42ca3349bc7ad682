// Example queries, one click away in the SQL view (the browser test runs each of them,
// so that a table or column renamed breaks a test rather than the view).
export const EXAMPLES = [
  {
    label: 'Goroutines by block time',
    sql: `SELECT id AS goroutine, start_function, block_ns, exec_ns, start AS time, "end"
FROM goroutines
ORDER BY block_ns DESC
LIMIT 100`,
  },
  {
    label: 'Longest channel waits',
    sql: `SELECT goroutine, start AS time, "end", duration, reason
FROM g_transitions
WHERE state = 'waiting' AND reason ILIKE '%chan%'
ORDER BY duration DESC
LIMIT 100`,
  },
  {
    label: 'Tasks by type, p99',
    sql: `SELECT type, count(*) AS tasks,
       quantile_disc(duration, 0.5) AS p50_ns,
       quantile_disc(duration, 0.99) AS p99_ns
FROM tasks
GROUP BY type
ORDER BY p99_ns DESC`,
  },
  {
    label: 'GC ranges',
    sql: `SELECT name, start AS time, "end", duration, goroutine
FROM ranges
WHERE name ILIKE '%GC%'
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
