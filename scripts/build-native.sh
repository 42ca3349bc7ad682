#!/usr/bin/env bash
# Configures and builds the native tree (library, CLI, tests, tracer) into build/ (Release),
# or into the directory and with the CMake options given.
#   scripts/build-native.sh [BUILD_DIR [CMAKE_OPTIONS...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build}
shift || true
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
