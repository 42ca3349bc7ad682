#!/usr/bin/env bash
# The repository alone passes its own tests: clones HEAD into build-clone/gotrace (where
# no ../shared lies beside it), builds it and runs the native suite there. The tests
# that need the 94 MB trace of ../shared say that they pass it by; those that go over
# the whole corpus read the sample (GOTRACE_CORPUS_SAMPLE), as the Release run of the
# same commit reads all of it. The clone is built without a profile (GOTRACE_PROFILE=off):
# counts name their sources by absolute path, so the Release tree's would not fit it, and
# a profile run of its own would cost CI a minute for speed that no test looks at (a fresh
# clone's profiled build is tested by tests/web/start.test.mjs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clone=$root/build-clone/gotrace
rm -rf "$clone"
mkdir -p "$(dirname "$clone")"
git clone -q "$root" "$clone"
[[ ! -e $clone/../shared ]] || { echo "test-clone: $clone/../shared exists" >&2; exit 1; }
GOTRACE_PROFILE=off "$clone/scripts/build-native.sh" "$clone/build" -DGOTRACE_TESTS=ON
(cd "$clone/build" && GOTRACE_SHARED_DIR= GOTRACE_CORPUS_SAMPLE=${GOTRACE_CORPUS_SAMPLE:-1} ctest --output-on-failure --no-tests=error -j "$(nproc)")
rm -rf "$clone"
