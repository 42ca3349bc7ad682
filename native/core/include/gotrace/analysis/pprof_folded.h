// A pprof profile as folded stacks: one line per distinct stack,
// "COUNT NANOSECONDS leaf;caller;…;root", samples with the same stack summed, lines
// sorted by stack (bytewise). The form of Go's reference profiles in the corpus.
#pragma once

#include <string>

#include "gotrace/analysis/pprof_profile.h"

namespace gotrace::analysis {

std::string pprof_folded(const PprofProfile& profile);

}  // namespace gotrace::analysis
