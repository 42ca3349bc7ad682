#!/usr/bin/env bash
# Runs Node's test runner on the files or folders given (with any node --test options
# before them), and fails when it ran no test, which Node's runner itself takes as a pass.
#   scripts/node-tests.sh [NODE_TEST_OPTIONS...] PATH...
set -euo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
node --test "$@" | tee "$log"
ran=$(sed -n 's/^# tests \([0-9]*\)$/\1/p' "$log" | tail -n 1)
if [[ -z $ran || $ran == 0 ]]; then
  echo "node-tests: no test ran ($*)" >&2
  exit 1
fi
