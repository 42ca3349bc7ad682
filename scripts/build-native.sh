#!/usr/bin/env bash
# Configures and builds the native tree (library, CLI, tests, tracer) into build/ (Release),
# or into the directory and with the CMake options given. Compiles through ccache where
# it is installed (deps.sh installs it), so that a second tree of the same sources, such
# as the clone scripts/test-clone.sh builds, costs little: all but the profiled reader
# (native/core/CMakeLists.txt says why).
#
# The build is optimized for a profile of gotrace's own run (GCC's profile-guided
# optimization): a CLI with counters, built in BUILD_DIR-profile, runs
# scripts/profile-run.sh, and the counts it leaves guide BUILD_DIR's build (copied beside
# its object files). GCC matches counts to functions by their source locations, which
# name this tree's files by their absolute paths: counts fit only the tree that made them.
# The run is made again only when that CLI changed, and its counts then replace all the
# old ones (counts of a source that changed would not match it).
# GOTRACE_PROFILE=off builds without a profile.
#   scripts/build-native.sh [BUILD_DIR [CMAKE_OPTIONS...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
shift || true
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Paths below the checkout (and below its parent, where a clone of it sits within it)
  # are hashed relative to the build directory.
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$root")}
fi
# Replaces BUILD_DIR's counts with those of the instrumented tree in $1, and removes the
# object files they guide, which the build then compiles again with them (it does not
# know of counts).
take_counts() {
  find "$dir" -name '*.gcda' -delete
  (cd "$1" && find . -name '*.gcda' -exec cp --parents {} "$dir" \;)
  local n=0
  while read -r counts; do
    rm -f "${counts%.gcda}.o"
    n=$((n + 1))
  done < <(find "$dir" -name '*.gcda')
  [ "$n" -gt 0 ] || { echo "build-native: no profile counts in $1" >&2; exit 1; }
}
profile=(-DGOTRACE_PROFILE=use)
if [ "${GOTRACE_PROFILE:-on}" = off ]; then
  profile=(-DGOTRACE_PROFILE=)
else
  train=$dir-profile
  cmake -S "$root" -B "$train" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" -DGOTRACE_TESTS=OFF \
    -DGOTRACE_PROFILE=generate >/dev/null
  cmake --build "$train" -j "$(nproc)" --target gotrace
  # Which instrumented CLI made BUILD_DIR's counts: kept in BUILD_DIR, so that a build
  # directory made anew gets counts again even when the instrumented one is unchanged.
  trained=$(sha256sum "$train/native/cli/gotrace" | cut -d' ' -f1)
  if [ "$(cat "$dir/profile-trained" 2>/dev/null)" != "$trained" ]; then
    rm -f "$dir/profile-trained"
    find "$train" -name '*.gcda' -delete
    "$root/scripts/profile-run.sh" "$train/native/cli/gotrace" "$train/run"
    take_counts "$train"
    echo "$trained" >"$dir/profile-trained"
  fi
fi
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "${profile[@]}" "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
