#!/usr/bin/env bash
# Configures the sanitized build (clang, ASan + UBSan, libFuzzer coverage): the test
# suite runs from it under the sanitizers and the fuzz targets are built in it. Line
# tables are all the sanitizers' reports need of debug information (file and line of
# each frame), and they build in less time than full -g.
#   scripts/configure-sanitized.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${GOTRACE_SHARED_DIR:-$root/../shared}
CC=clang CXX=clang++ cmake -S "$root" -B "$1" -DGOTRACE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
  -DGOTRACE_SHARED_DIR="$shared" >/dev/null
