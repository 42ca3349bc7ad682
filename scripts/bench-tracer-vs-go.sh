#!/usr/bin/env bash
# The C++ tracer against Go's own tracer on the same work, on the same machine, in the
# same run: tracer-bench's workloads (`tracer-bench vs-go`) and their Go equivalents
# (native/tracer/bench/go, built here with Go 1.27 from ../shared/tools/install-go-newest.sh,
# or the Go of GOTRACE_GOROOT) run in alternation, workload by workload, for ROUNDS rounds
# (C++ first in one round, Go first in the next); each run does PAIRS untraced/traced
# pairs, then one traced run written to a file and read back by `gotrace stats` for its
# events and bytes, so that both sides' events are counted alike.
# Prints the table of docs/tracer.md (medians over all pairs, the range of the rounds'
# medians in brackets) with the C++/Go ratios and each goal's verdict. A benchmark:
# nothing fails on its figures. The raw lines stay in BUILD_DIR/tracer-vs-go.results
# (tools/tracer-vs-go-table.py FILE prints the table again).
# With -i N, it counts instructions under callgrind instead, which the machine's other
# work does not disturb: what tracing adds per job and per ping-pong round trip on one
# worker (one P), from runs of N and 2N operations traced and untraced (as
# scripts/tracer-instructions.sh, whose tracer-instructions it runs for the C++ side).
#   scripts/bench-tracer-vs-go.sh [-r ROUNDS] [-p PAIRS] [-i N] [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=3
pairs=5
instructions=
while [ $# -gt 0 ]; do
  case $1 in
    -r) rounds=$2; shift 2 ;;
    -p) pairs=$2; shift 2 ;;
    -i) instructions=$2; shift 2 ;;
    *) break ;;
  esac
done
dir=${1:-$root/build}
goroot=${GOTRACE_GOROOT:-/usr/local/lib/gotrace-go1.27/usr/lib/go-1.27}
if ! [ -x "$goroot/bin/go" ]; then
  echo "bench-tracer-vs-go: no Go at $goroot, so nothing to compare with: install Go 1.27 there" \
    "(bash ../shared/tools/install-go-newest.sh) or set GOTRACE_GOROOT to a Go 1.23+ GOROOT" >&2
  exit 2
fi
bench=$dir/native/tracer/tracer-bench
gotrace=$dir/native/cli/gotrace
[ -x "$bench" ] && [ -x "$gotrace" ] || cmake --build "$dir" -j "$(nproc)" --target tracer-bench gotrace >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root/native/tracer/bench/go" &&
  GOROOT=$goroot GOTOOLCHAIN=local GOPROXY=off GOWORK=off GOFLAGS=-mod=mod \
    "$goroot/bin/go" build -o "$work/go-tracer-bench" .)
if [ -n "$instructions" ]; then
  command -v valgrind >/dev/null || { echo "bench-tracer-vs-go: valgrind is not installed" >&2; exit 2; }
  cmake --build "$dir" --target tracer-instructions >/dev/null
  count() {  # COMMAND...: instructions of the whole run
    # (Callgrind cannot follow the signals of Go's asynchronous preemption.)
    GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$@" 2>&1 |
      sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
  }
  n=$instructions
  for workload in jobs pingpong; do
    for lang in cpp go; do
      if [ $lang = cpp ]; then cmd=("$dir/native/tracer/tracer-instructions" "$workload"); else
        cmd=("$work/go-tracer-bench" -instructions "$workload"); fi
      on1=$(count "${cmd[@]}" on "$n")
      on2=$(count "${cmd[@]}" on $((2 * n)))
      off1=$(count "${cmd[@]}" off "$n")
      off2=$(count "${cmd[@]}" off $((2 * n)))
      echo "$workload $lang: untraced $(((off2 - off1) / n)) instructions per operation," \
        "tracing adds $((((on2 - on1) - (off2 - off1)) / n))"
    done
  done
  exit 0
fi
results=$dir/tracer-vs-go.results
: > "$results"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
  "load $(cut -d' ' -f1-3 /proc/loadavg); Go: $("$goroot/bin/go" version)" | tee -a "$results" | sed 's/^/# /'
run() {  # ROUND LANG WORKLOAD [--trace-dir DIR]: the side's lines, tagged
  local round=$1 lang=$2 workload=$3
  shift 3
  if [ "$lang" = cpp ]; then
    "$bench" vs-go --pairs "$pairs" "$@" "$workload"
  else
    "$work/go-tracer-bench" -pairs "$pairs" "$@" "$workload"
  fi | sed "s/^/$round $lang /" >> "$results"
}
workloads=(cost jobs-1us jobs-10us pingpong thread-pingpong)
for ((r = 1; r <= rounds; r++)); do
  i=0
  for w in "${workloads[@]}"; do
    traces=()
    mkdir -p "$work/$r"
    [ "$w" = cost ] || traces=(--trace-dir "$work/$r")
    if (((r + i) % 2)); then order=(cpp go); else order=(go cpp); fi
    for lang in "${order[@]}"; do run "$r" "$lang" "$w" ${traces[@]+"${traces[@]}"}; done
    echo "round $r/$rounds: $w done (load $(cut -d' ' -f1 /proc/loadavg))" >&2
    i=$((i + 1))
  done
done
# Events and bytes of each traced run, counted by the same reader for both sides.
grep ' trace ' "$results" | while read -r round lang _ workload ops file; do
  stats=$("$gotrace" stats --json "$file") || { echo "bench-tracer-vs-go: $file does not read back" >&2; exit 1; }
  python3 -c 'import json, sys; s = json.load(sys.stdin); print(s["events"], s["bytes"])' <<< "$stats" |
    { read -r events bytes; echo "$round $lang events $workload $ops $events $bytes"; } >> "$results"
  rm -f "$file"
done
python3 "$root/tools/tracer-vs-go-table.py" "$results"
