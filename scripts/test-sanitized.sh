#!/usr/bin/env bash
# The native test suite under AddressSanitizer + UndefinedBehaviorSanitizer (clang), then
# every fuzz target for FUZZ_SECONDS each (default 20) from the same build. The tests
# that go over the whole corpus read a sample of it here (GOTRACE_CORPUS_SAMPLE: every
# program, mode and format, and the traces of hundreds of generations, under half the
# bytes), since the Release run reads all of it; GOTRACE_CORPUS_SAMPLE=0 reads all.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-asan
"$root/scripts/configure-sanitized.sh" "$build"
cmake --build "$build" -j "$(nproc)"
(cd "$build" && GOTRACE_CORPUS_SAMPLE=${GOTRACE_CORPUS_SAMPLE:-1} ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure --no-tests=error -j "$(nproc)")
GOTRACE_FUZZ_BUILD=$build "$root/scripts/fuzz.sh" "${FUZZ_SECONDS:-20}"
