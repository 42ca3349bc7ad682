#!/usr/bin/env bash
# Unpacks the test corpus's traces (tests/corpus/**/NAME.trace.zst) beside themselves as
# NAME.trace, where missing or older: the tests, the CLI and the browser read them there.
# Idempotent; quiet when there is nothing to do. Safe to run several at once (test files
# run in parallel each make sure of it): each unpacks to a file of its own, then renames.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
command -v zstd >/dev/null || "$root/scripts/deps.sh"
while IFS= read -r -d '' packed; do
  trace=${packed%.zst}
  [[ -f $trace && ! $packed -nt $trace ]] && continue
  zstd -d -q -f "$packed" -o "$trace.$$.tmp" && mv -f "$trace.$$.tmp" "$trace"
done < <(find "$root/tests/corpus" -name '*.trace.zst' -print0)
