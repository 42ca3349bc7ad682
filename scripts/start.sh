#!/usr/bin/env bash
# The main job: installs what is missing, builds everything, and shows gotrace at work
# on the bundled sample trace.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh"
"$root/scripts/build-native.sh" "$root/build" -DGOTRACE_TESTS=OFF
sample="$root/public/go123-workload.trace"
"$root/build/native/cli/gotrace" stats "$sample"
echo
"$root/build/native/cli/gotrace" dump "$sample" | head -n 40
