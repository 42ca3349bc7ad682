#!/usr/bin/env bash
# Every test: installs what is missing, then runs the native suite (Release), the same
# suite under ASan + UBSan followed by every fuzz target for a bounded time, the tracer
# under ThreadSanitizer, the WebAssembly build with the npm package's tests, and the web
# app's browser tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh"
started=$SECONDS
step() { echo; echo "== $1 (at $((SECONDS - started)) s)"; }

step "native tests (Release)"
"$root/scripts/build-native.sh" "$root/build"
(cd "$root/build" && ctest --output-on-failure -j "$(nproc)")

step "native tests under ASan + UBSan, then fuzzing"
"$root/scripts/test-sanitized.sh"

step "tracer under ThreadSanitizer"
"$root/scripts/test-tracer-tsan.sh"

step "WebAssembly build and npm package tests"
"$root/scripts/build-wasm.sh"
(cd "$root" && node --test tests/js/)

step "web app in Chromium"
"$root/scripts/test-web.sh"

echo; echo "== all tests passed in $((SECONDS - started)) s"
