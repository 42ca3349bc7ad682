#!/usr/bin/env bash
# The find_package test: installs the build tree (cmake --install) into a fresh prefix,
# builds tests/package/consumer against it alone, runs it on a corpus trace and checks
# what it prints against the installed CLI.
#   tests/package/test-consumer.sh BUILD_DIR TRACE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1 trace=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
for f in bin/gotrace bin/gotrace-record lib/gotrace/libgotrace-record.so lib/cmake/gotrace/gotraceConfig.cmake lib/cmake/gotrace/gotraceConfigVersion.cmake \
         include/gotrace/reader.h include/gotrace/version.h include/gotrace/tracer/tracer.h; do
  [[ -e $work/prefix/$f ]] || { echo "not installed: $f" >&2; exit 1; }
done
[[ -n $(find "$work/prefix" -name 'libgotrace_core.a') && -n $(find "$work/prefix" -name 'libgotrace_tracer.a') ]] \
  || { echo "libraries not installed" >&2; exit 1; }
cmake -S "$here/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/build" >/dev/null
out=$("$work/build/consumer" "$trace" "$work/recorded.trace")
echo "$out"
version=$("$work/prefix/bin/gotrace" --version)
stats=$("$work/prefix/bin/gotrace" stats --json "$trace")
expect_events=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])' <<<"$stats")
expect_goroutines=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["goroutines"])' <<<"$stats")
want=$(printf '%s\nevents %s\ngoroutines %s\nrecorded ok' "$version" "$expect_events" "$expect_goroutines")
[[ $out == "$want" ]] || { printf 'expected:\n%s\n' "$want" >&2; exit 1; }
"$work/prefix/bin/gotrace" stats "$work/recorded.trace" >/dev/null
# gotrace-record, installed, finds its library in the prefix and records a program.
"$work/prefix/bin/gotrace-record" -q -o "$work/sleep.trace" sleep 0.05
recorded=$("$work/prefix/bin/gotrace" stats --json "$work/sleep.trace")
python3 -c 'import json,sys; s=json.load(sys.stdin); sys.exit(0 if s["goroutines"] == 1 else 1)' <<<"$recorded" \
  || { echo "gotrace-record: expected one goroutine (sleep's thread): $recorded" >&2; exit 1; }
echo "the consumer built against the installed package reads and writes traces as the CLI does"
