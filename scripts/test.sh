#!/usr/bin/env bash
# Every test: installs what is missing, then runs the native suite (Release), the same
# suite from a clone of HEAD with no ../shared beside it, the suite under ASan + UBSan
# followed by every fuzz target for a bounded time, the tracer and the reader under
# ThreadSanitizer, the WebAssembly build with the npm package's tests, and the web app's browser tests.
# Each step fails when it ran no test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh"
started=$SECONDS
step() { echo; echo "== $1 (at $((SECONDS - started)) s)"; }

step "native tests (Release)"
# Tests on, whatever an earlier configuration of build/ said (start.sh builds it without).
"$root/scripts/build-native.sh" "$root/build" -DGOTRACE_TESTS=ON
(cd "$root/build" && ctest --output-on-failure --no-tests=error -j "$(nproc)")

step "native tests from a clone with no ../shared beside it"
"$root/scripts/test-clone.sh"

step "native tests under ASan + UBSan, then fuzzing"
"$root/scripts/test-sanitized.sh"

step "tracer under ThreadSanitizer"
"$root/scripts/test-tracer-tsan.sh"

step "reader under ThreadSanitizer"
"$root/scripts/test-reader-tsan.sh"

step "WebAssembly build and npm package tests"
"$root/scripts/build-wasm.sh"
# The package's dependencies (@duckdb/node-api for gotrace-sql), as npm ci installs them.
if [[ ! -f $root/node_modules/.package-lock.json || $root/package-lock.json -nt $root/node_modules/.package-lock.json ]]; then
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error)
fi
# Two files at a time: each runs the WebAssembly core on one thread.
(cd "$root" && ./scripts/node-tests.sh --test-concurrency=2 tests/js/)

step "web app in Chromium"
"$root/scripts/test-web.sh"

echo; echo "== all tests passed in $((SECONDS - started)) s"
