#!/usr/bin/env bash
# The web app's browser tests: builds what is missing (web/build.sh), serves web/dist on
# a free 127.0.0.1 port and runs the Playwright tests in tests/web/ with Debian's
# Chromium. Needs the native CLI (build/native/cli/gotrace) for the reference figures.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[[ -x build/native/cli/gotrace ]] || ./scripts/build-native.sh "$root/build" -DGOTRACE_TESTS=OFF
./web/build.sh
log=$(mktemp)
node web/serve.mjs 0 >"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do [[ -s $log ]] && break; sleep 0.1; done
url=$(head -n1 "$log")
echo "web: serving web/dist at $url"
# Two files at a time: a page's work is one worker thread, and each file has a browser
# of its own.
GOTRACE_WEB_URL=$url ./scripts/node-tests.sh --test-concurrency=2 tests/web/
