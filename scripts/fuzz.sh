#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs each for SECONDS (default 60)
# over a seed corpus made from tests/corpus: the trace corpus, Go's golden tests and Go's
# fuzz seeds. Fails on any crash, leak, timeout or allocation over 2 GB. Inputs that
# failed are kept in build-asan/artifacts/. The build directory is the sanitized one
# scripts/test-sanitized.sh also runs the test suite from (same configuration).
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus_dir=$root/tests/corpus
"$root/scripts/corpus.sh"
seconds=${1:-60}
shift || true
build=${GOTRACE_FUZZ_BUILD:-$root/build-asan}
"$root/scripts/configure-sanitized.sh" "$build"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(fuzz_read fuzz_raw_text)
  if [ -f "$root/tests/fuzz/fuzz_analysis.cpp" ]; then targets+=(fuzz_analysis); fi
fi
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"

# Seeds: small binary traces, golden tests as text and as binary, Go's fuzz seeds.
seeds=$build/seeds
if [ ! -d "$seeds/binary" ]; then
  mkdir -p "$seeds/binary" "$seeds/text"
  find "$corpus_dir/go" -name '*.trace' -size -200k -exec cp {} "$seeds/binary/" \;
  python3 "$root/tools/fuzz-seeds.py" "$corpus_dir" "$seeds" "$root/build/native/cli/gotrace"
fi
mkdir -p "$build/artifacts"
for t in "${targets[@]}"; do
  corpus=$build/corpus-$t
  mkdir -p "$corpus"
  case $t in
    fuzz_raw_text) dirs=("$seeds/text") ;;
    *) dirs=("$seeds/binary") ;;
  esac
  echo "== $t for ${seconds}s"
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    "$build/tests/fuzz/$t" "$corpus" "${dirs[@]}" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len=262144 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t-" 2>&1 | grep -E '^(#[0-9]+ *(DONE|INITED)|stat::|==|SUMMARY|ERROR|Done|INFO: (Seed|Running|Loaded))' || true
  if ls "$build/artifacts/$t-"* >/dev/null 2>&1; then
    echo "FAIL: $t found failing inputs:"; ls "$build/artifacts/$t-"*
    exit 1
  fi
done
echo "fuzzing: no crash, leak, timeout or oversized allocation"
