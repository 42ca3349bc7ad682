#!/usr/bin/env bash
# Every test: installs what is missing, then builds and runs the native suite twice —
# Release, and under AddressSanitizer + UndefinedBehaviorSanitizer — then the
# WebAssembly build and the npm package's tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh"
jobs=$(nproc)

echo "== native tests (Release)"
"$root/scripts/build-native.sh" "$root/build"
(cd "$root/build" && ctest --output-on-failure -j "$jobs")

echo "== native tests (ASan + UBSan)"
"$root/scripts/build-native.sh" "$root/build-asan" -DGOTRACE_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
(cd "$root/build-asan" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j "$jobs")

echo "== WebAssembly build and npm package tests"
"$root/scripts/build-wasm.sh"
(cd "$root" && node --test tests/js/)
