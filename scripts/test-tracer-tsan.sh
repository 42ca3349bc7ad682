#!/usr/bin/env bash
# The tracer's stress test under ThreadSanitizer: configures a TSan build (build-tsan, or
# the directory given), builds only the tracer's test executable and what it needs, runs
# the stress test (and the rest of the tracer's tests). Exits non-zero on any report.
#   scripts/test-tracer-tsan.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build-tsan}
cmake -S "$root" -B "$dir" -DGOTRACE_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" -j "$(nproc)" --target test_tracer
# halt_on_error: the first report fails the run; exitcode: non-zero even if a report
# comes from a thread that outlives the failing test.
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
echo "== tracer stress test (ThreadSanitizer)"
"$dir/tests/test_tracer" "[stress]"
echo "== tracer tests (ThreadSanitizer)"
"$dir/tests/test_tracer" "~[stress]"
