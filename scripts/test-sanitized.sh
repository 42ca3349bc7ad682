#!/usr/bin/env bash
# The native test suite under AddressSanitizer + UndefinedBehaviorSanitizer (clang), then
# every fuzz target for FUZZ_SECONDS each (default 45) from the same build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-asan
"$root/scripts/configure-sanitized.sh" "$build"
cmake --build "$build" -j "$(nproc)"
(cd "$build" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure --no-tests=error -j "$(nproc)")
GOTRACE_FUZZ_BUILD=$build "$root/scripts/fuzz.sh" "${FUZZ_SECONDS:-45}"
