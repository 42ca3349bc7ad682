#!/usr/bin/env bash
# Configures and builds the native tree (library, CLI, tests, tracer) into build/ (Release),
# or into the directory and with the CMake options given. Compiles through ccache where
# it is installed (deps.sh installs it), so that a second tree of the same sources, such
# as the clone scripts/test-clone.sh builds, costs little.
#   scripts/build-native.sh [BUILD_DIR [CMAKE_OPTIONS...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build}
shift || true
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Paths below the checkout (and below its parent, where a clone of it sits within it)
  # are hashed relative to the build directory.
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$root")}
fi
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
