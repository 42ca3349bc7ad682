#!/usr/bin/env bash
# Configures and builds the native tree (library, CLI, tests, tracer) into build/ (Release),
# or into the directory and with the CMake options given. Compiles through ccache where
# it is installed (deps.sh installs it), so that a second tree of the same sources, such
# as the clone scripts/test-clone.sh builds, costs little.
#
# The build is optimized for a profile of gotrace's own run (GCC's profile-guided
# optimization): a CLI with counters built in BUILD_DIR/profile/build runs
# scripts/profile-run.sh, and the counts it leaves in BUILD_DIR/profile/counts guide
# BUILD_DIR's build. The run is made again only when that CLI changed (its counts are
# then all new: counts of other sources would not match them). GOTRACE_PROFILE=off
# builds without a profile.
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
profile=()
if [ "${GOTRACE_PROFILE:-on}" != off ]; then
  train=$dir/profile/build counts=$dir/profile/counts
  cmake -S "$root" -B "$train" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" -DGOTRACE_TESTS=OFF \
    -DGOTRACE_PROFILE=generate "-DGOTRACE_PROFILE_DIR=$counts" >/dev/null
  cmake --build "$train" -j "$(nproc)" --target gotrace
  trained=$(sha256sum "$train/native/cli/gotrace" | cut -d' ' -f1)
  if [ "$(cat "$dir/profile/trained" 2>/dev/null)" != "$trained" ]; then
    rm -rf "$counts" "$dir/profile/trained"
    "$root/scripts/profile-run.sh" "$train/native/cli/gotrace" "$dir/profile/run"
    echo "$trained" >"$dir/profile/trained"
  fi
  profile=(-DGOTRACE_PROFILE=use "-DGOTRACE_PROFILE_DIR=$counts")
else
  profile=(-DGOTRACE_PROFILE=)
fi
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "${profile[@]}" "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
