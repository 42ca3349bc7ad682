#!/usr/bin/env bash
# The trace reader under ThreadSanitizer: natively, a read from memory reads the next
# generation on a second thread while it orders one. Configures a build (build-reader-tsan,
# or the directory given) where everything is instrumented, builds the CLI and the core's
# tests, then reads traces of hundreds of generations, traces cut short (the read ahead
# fails) and reads canceled (the read ahead is taken back). Exits non-zero on any report.
#   scripts/test-reader-tsan.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build-reader-tsan}
start=$SECONDS
# -O1: quick to compile, and what ThreadSanitizer's documentation recommends.
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g -DNDEBUG" \
  -DGOTRACE_TSAN=ON -DGOTRACE_TESTS=ON >/dev/null
cmake --build "$dir" -j "$(nproc)" --target gotrace test_core
echo "== built in $((SECONDS - start)) s"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
gotrace=$dir/native/cli/gotrace
corpus=$root/tests/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== the core's reads from memory and from a source (ThreadSanitizer)"
# Comma-free names: a comma separates test names for Catch.
"$dir/tests/test_core" --warn NoTests "traces of hundreds of generations read from a source as from memory"
"$dir/tests/test_core" --warn NoTests "a read canceled after a generation keeps the strings and stacks of the generations read"

echo "== the CLI on traces of many generations, whole and cut short (ThreadSanitizer)"
ran=0
for name in go124-stacks.stress.trace go127-gomaxprocs.stress.trace go127-workload.trace; do
  trace=$corpus/newest/$name
  size=$(stat -c %s "$trace")
  "$gotrace" stats --json "$trace" > "$tmp/stats.json"
  grep -q '"error": null' "$tmp/stats.json" || { echo "stats of $name: an error" >&2; exit 1; }
  "$gotrace" dump "$trace" > /dev/null
  # Cut where a later generation is being read ahead: the read ends in an error, and the
  # events before it are printed; status 1 is expected, a report is not.
  for cut in $((size / 2)) $((size * 4 / 5)); do
    head -c "$cut" "$trace" > "$tmp/cut.trace"
    set +e
    "$gotrace" stats --json "$tmp/cut.trace" > "$tmp/stats.json" 2>&1
    status=$?
    set -e
    [ "$status" = 1 ] || { echo "stats of $name cut at $cut: status $status, not 1" >&2; cat "$tmp/stats.json" >&2; exit 1; }
  done
  ran=$((ran + 1))
done
[ "$ran" = 3 ] || { echo "read $ran traces, not 3" >&2; exit 1; }
echo "== done in $((SECONDS - start)) s"
