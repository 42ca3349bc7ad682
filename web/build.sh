#!/usr/bin/env bash
# Builds the web app into web/dist: the WebAssembly core when dist/ is missing or older
# than its sources, the npm dependencies when node_modules is missing or older than
# package-lock.json, then `npm run build`. Does only what is needed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
wasm=dist/gotrace-core.wasm
stale_wasm() {
  for f in dist/index.js dist/index.d.ts dist/gotrace-core.mjs "$wasm"; do [[ -f $f ]] || return 0; done
  [[ -n $(find native/core wasm-bindings CMakeLists.txt -newer "$wasm" -type f -print -quit) ]]
}
if stale_wasm; then
  echo "web: building the WebAssembly core"
  ./scripts/build-wasm.sh
fi
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "web: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
npx --no-install vite build --config web/vite.config.js --logLevel warn
echo "web: built web/dist"
