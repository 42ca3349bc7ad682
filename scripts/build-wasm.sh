#!/usr/bin/env bash
# Builds the WebAssembly core with Debian's Emscripten into build-wasm/ and copies the
# ES module and the .wasm into dist/ (the npm package's files, with gotrace-sql and its
# DuckDB loader).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}  # emcc needs Debian's acorn
# Through ccache where installed, as scripts/build-native.sh: a clone's build (start.sh's
# in the browser tests) then compiles little.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$root")}
fi
emcmake cmake -S "$root" -B "$root/build-wasm" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O3 -DNDEBUG" \
  "${launcher[@]}" >/dev/null
cmake --build "$root/build-wasm" -j "${JOBS:-2}" --target gotrace_wasm
mkdir -p "$root/dist"
cp "$root/build-wasm/wasm-bindings/gotrace-core.mjs" "$root/build-wasm/wasm-bindings/gotrace-core.wasm" \
   "$root/wasm-bindings/js/index.js" "$root/wasm-bindings/js/index.d.ts" \
   "$root/wasm-bindings/js/sql.js" "$root/wasm-bindings/js/sql-worker.js" "$root/wasm-bindings/js/gotrace-sql.js" \
   "$root/dist/"
chmod +x "$root/dist/gotrace-sql.js"
