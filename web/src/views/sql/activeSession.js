// The SQL session open now (its trace, and how to close it), kept apart from the session
// itself so that the app can close it when another trace is opened without loading
// DuckDB: a database of the previous trace's tables is then freed at once, whether or
// not the SQL view is shown.
let active = null;

export function activeSession() {
  return active;
}

export function setActiveSession(session) {
  active = session;
}

/** Closes the open session unless it is `trace`'s. */
export function closeSessionUnlessOf(trace) {
  if (active && active.trace !== trace) {
    active.close();
    active = null;
  }
}
