#!/usr/bin/env bash
# The tracer's instructions per operation of a scheduler workload, under callgrind: runs
# tracer-instructions (native/tracer/bench/tracer_instructions.cpp) traced and untraced,
# with N and 2N operations each; the differences cancel what does not grow with N
# (start-up, the trace's start and stop, symbolization), and the traced minus the
# untraced difference, over N, is what tracing adds per operation.
#   scripts/tracer-instructions.sh [BUILD_DIR] [N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build}
n=${2:-20000}
bin=$dir/native/tracer/tracer-instructions
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
[ -x "$bin" ] || { echo "$bin not built (cmake --build $dir --target tracer-instructions)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {  # WORKLOAD on|off N: instructions of the whole run
  valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" "$@" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for workload in jobs pingpong; do
  on1=$(count "$workload" on "$n")
  on2=$(count "$workload" on $((2 * n)))
  off1=$(count "$workload" off "$n")
  off2=$(count "$workload" off $((2 * n)))
  echo "$workload: untraced $(((off2 - off1) / n)) instructions per operation," \
    "tracing adds $((((on2 - on1) - (off2 - off1)) / n))"
done
