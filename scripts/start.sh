#!/usr/bin/env bash
# The main job: installs what is missing, builds everything, shows gotrace at work on
# the bundled sample trace, then serves the web app on http://127.0.0.1:5173 (Ctrl-C
# stops it). Idempotent: a second run rebuilds only what changed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh"
"$root/scripts/build-native.sh" "$root/build" -DGOTRACE_TESTS=OFF
sample="$root/public/go123-workload.trace"
"$root/build/native/cli/gotrace" stats "$sample"
echo
"$root/build/native/cli/gotrace" dump "$sample" | head -n 40
echo
"$root/web/build.sh"
echo
echo "gotrace web app: http://127.0.0.1:5173/"
cd "$root"
exec npx --no-install vite preview --config web/vite.config.js --host 127.0.0.1 --port 5173 --strictPort
