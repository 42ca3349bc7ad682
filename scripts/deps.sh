#!/usr/bin/env bash
# Installs what gotrace needs to build and test, if it is missing (Debian 12, as root).
# Idempotent: does nothing when everything is present.
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for pkg in build-essential cmake g++ clang libclang-rt-14-dev catch2 libzstd-dev zlib1g-dev zstd python3 emscripten chromium ccache git; do
  have_pkg "$pkg" || need+=("$pkg")
done
# Node may come from another source than Debian (its npm included): ask for the
# commands, not the packages, so the two never conflict.
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
if ((${#need[@]})); then
  echo "deps: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
