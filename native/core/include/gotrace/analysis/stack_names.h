// Names for a list of stacks that tell each from the others: what `gotrace diff` prints
// and its JSON (the app's Compare) gives of the stacks whose time changed.
#pragma once

#include <string>
#include <vector>

namespace gotrace::analysis {

// Folded stacks (leaf first) named by their own frame and, where two would read the
// same, by as many of its callers as tell them apart ("a ← b ← c"), then by the frame
// where they part ("… ← x"; "(in x)" above the own frame); "(no stack)" for none.
std::vector<std::string> stack_names(const std::vector<std::string>& folded);

}  // namespace gotrace::analysis
