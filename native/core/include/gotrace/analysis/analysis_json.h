// JSON for the analyses: the one place their results become JSON, so that the CLI's
// --json and the wasm bindings print the same objects. All times and durations in ns.
// One header per family, each beside its writers' folder in src/analysis/; this one
// gathers them for the CLI and the session.
#pragma once

#include "gotrace/analysis/critical_path_json.h"
#include "gotrace/analysis/mmu_json.h"
#include "gotrace/analysis/summary_json.h"
#include "gotrace/analysis/trace_diff_json.h"
