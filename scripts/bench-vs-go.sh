#!/usr/bin/env bash
# Reading speed of gotrace against Go's own parser on the same files, in the same run:
# for each file, ROUNDS rounds of (Go's gotracebench, best of 3 parses; then
# `gotrace bench`, best of 5 reads), alternating so that both see the same machine. Prints
# each round and the ratio of the best events/s of each; then the whole process: a fresh
# `gotrace stats --json` (streamed: it reads, counts and exits) against the time Go's
# parser takes to parse the file in memory, best of each; the same for a fresh
# `gotrace analysis --json` (summaries, tasks and MMU, written out). Needs the Go oracle
# (../shared/tools/install-go-oracle.sh).
# With -g 1.27, Go 1.27's parser instead of Go 1.23's (the only one of the two that reads
# Go 1.26-format traces), built beside ../shared/tools/install-go-newest.sh's Go.
#   scripts/bench-vs-go.sh [-r ROUNDS] [-g 1.27] FILE...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=2
go=1.23
while [ $# -gt 0 ]; do
  case $1 in
    -r) rounds=$2; shift 2 ;;
    -g) go=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: scripts/bench-vs-go.sh [-r ROUNDS] [-g 1.27] FILE..." >&2; exit 2; }
if [ "$go" = 1.27 ]; then
  shared=${GOTRACE_SHARED_DIR:-$root/../shared}
  gobench=${GOTRACEBENCH:-/usr/local/lib/gotrace-go1.27/bin/gotracebench}
  if ! [ -x "$gobench" ]; then
    goroot=$(ls -d /usr/local/lib/gotrace-go1.27/usr/lib/go-1.27 2>/dev/null) ||
      { echo "bench-vs-go: Go 1.27 missing: run ../shared/tools/install-go-newest.sh" >&2; exit 2; }
    mkdir -p "$goroot/src/internal/trace/testdata/cmd/gotracebench"
    cp "$shared/tools/go-oracle-src/gotracebench/main.go" "$goroot/src/internal/trace/testdata/cmd/gotracebench/"
    (cd "$goroot/src/internal/trace" && GOROOT=$goroot GOTOOLCHAIN=local GOFLAGS=-mod=mod GOPROXY=off GOWORK=off \
      "$goroot/bin/go" build -o "$gobench" ./testdata/cmd/gotracebench)
  fi
else
  gobench=${GOTRACEBENCH:-/usr/local/lib/gotrace-oracle/gotracebench}
  [ -x "$gobench" ] || { echo "bench-vs-go: $gobench missing: run ../shared/tools/install-go-oracle.sh" >&2; exit 2; }
fi
echo "Go's parser: Go $go ($gobench)"
gotrace=$root/build/native/cli/gotrace
[ -x "$gotrace" ] || "$root/scripts/build-native.sh" "$root/build" >/dev/null

# A fresh gotrace process with ARGS: "SECONDS PEAK_RSS_KB", the seconds to the millisecond
# (/usr/bin/time's own are hundredths).
whole_process() {
  local start=$EPOCHREALTIME rss
  rss=$( { /usr/bin/time -f '%M' "$gotrace" "$@" > /dev/null; } 2>&1 | tail -1)
  python3 -c "print(f'{$EPOCHREALTIME - $start:.3f} $rss')"
}

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for file in "$@"; do
  best_go=0
  best_ours=0
  best_go_s=1e9
  best_stats_s=1e9
  best_analysis_s=1e9
  for ((r = 1; r <= rounds; r++)); do
    go_line=$("$gobench" "$file")
    go_eps=$(sed -n 's/.*events_per_s=\([0-9]*\).*/\1/p' <<< "$go_line")
    echo "round $r go:      $go_line"
    ours=$("$gotrace" bench "$file")
    ours_eps=$(sed -n 's/^events\/s *:* *\([0-9.]*\).*/\1/p' <<< "$ours" | head -1)
    echo "round $r gotrace: $(grep -E '^(events|events/s|first run|CPU time|store|peak RSS) ' <<< "$ours" | tr -s ' ' | paste -sd';')"
    go_s=$(sed -n 's/.*best_s=\([0-9.]*\).*/\1/p' <<< "$go_line")
    stats=$(whole_process stats --json "$file")
    echo "round $r gotrace stats, whole process: ${stats% *} s, peak RSS $(( ${stats#* } / 1024 )) MB"
    best_go_s=$(python3 -c "print(min($best_go_s, $go_s))")
    analysis=$(whole_process analysis --json "$file")
    echo "round $r gotrace analysis --json, whole process: ${analysis% *} s, peak RSS $(( ${analysis#* } / 1024 )) MB"
    best_stats_s=$(python3 -c "print(min($best_stats_s, ${stats% *}))")
    best_analysis_s=$(python3 -c "print(min($best_analysis_s, ${analysis% *}))")
    best_go=$(python3 -c "print(max($best_go, $go_eps))")
    best_ours=$(python3 -c "print(max($best_ours, $ours_eps))")
  done
  python3 -c "print(f'$file: gotrace {$best_ours/1e6:.2f} M events/s, Go {$best_go/1e6:.2f} M events/s: {$best_ours/$best_go:.2f}x')"
  python3 -c "print(f'$file: whole process, gotrace stats {$best_stats_s:.3f} s, Go parsing in memory {$best_go_s:.3f} s: {$best_go_s/$best_stats_s:.2f}x')"
  python3 -c "print(f'$file: whole process, gotrace analysis --json {$best_analysis_s:.3f} s, Go parsing in memory {$best_go_s:.3f} s: {$best_go_s/$best_analysis_s:.2f}x')"
done
