#!/usr/bin/env bash
# The run that a profile-guided build of gotrace is optimized for (scripts/build-native.sh):
# what users run most (stats, analysis, dump) on traces of the repository's own of each
# family: Go 1.27 and Go 1.24 (one with many tasks and regions), and Go 1.21's v1
# format. None is the benchmarks' trace, nor a run of its program under its Go version.
#   scripts/profile-run.sh GOTRACE WORK_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gotrace=$1 work=$2
mkdir -p "$work"
n=0
for t in newest/go127-workload newest/go127-stress.stress newest/go124-annotations-stress.default go/go121-workload; do
  trace=$work/$(basename "$t").trace
  zstd -d -q -f "$root/tests/corpus/$t.trace.zst" -o "$trace"
  "$gotrace" stats --json "$trace" >/dev/null
  "$gotrace" analysis --json "$trace" >/dev/null
  "$gotrace" dump "$trace" >/dev/null
  n=$((n + 1))
done
echo "profile-run: $n traces read by $gotrace"
