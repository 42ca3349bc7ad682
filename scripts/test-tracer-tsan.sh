#!/usr/bin/env bash
# The tracer's stress test under ThreadSanitizer: configures a build (build-tracer-tsan, or
# the directory given) where the tracer, its tests and examples are instrumented and the
# (single-threaded) trace reader is not, builds only the tracer's test executable and
# what it needs, runs the stress test, then the rest of the tracer's tests. Exits non-zero
# on any report.
#   scripts/test-tracer-tsan.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build-tracer-tsan}
start=$SECONDS
# -O1: quick to compile, and what ThreadSanitizer's documentation recommends.
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DGOTRACE_TSAN=OFF -DGOTRACE_TRACER_TSAN=ON >/dev/null
cmake --build "$dir" -j "$(nproc)" --target test_tracer
echo "== built in $((SECONDS - start)) s"
# halt_on_error: the first report fails the run; exitcode: non-zero even if a report
# comes from a thread that outlives the failing test.
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
echo "== tracer stress test (ThreadSanitizer)"
"$dir/tests/test_tracer" --warn NoTests "[stress]"
echo "== tracer tests (ThreadSanitizer)"
"$dir/tests/test_tracer" --warn NoTests "~[stress]"
echo "== done in $((SECONDS - start)) s"
