#!/usr/bin/env bash
# Configures the sanitized build (clang, ASan + UBSan, libFuzzer coverage): the test
# suite runs from it under the sanitizers and the fuzz targets are built in it.
#   scripts/configure-sanitized.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${GOTRACE_SHARED_DIR:-$root/../shared}
CC=clang CXX=clang++ cmake -S "$root" -B "$1" -DGOTRACE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGOTRACE_SHARED_DIR="$shared" >/dev/null
