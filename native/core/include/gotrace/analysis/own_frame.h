// The frame a reader recognises in a stack: the innermost one outside the runtime's and
// the standard library's synchronisation machinery ("net/http.(*conn).serve" rather
// than "runtime.gopark" or "sync.(*Mutex).Lock"). One rule for the critical path's
// functions, the diff's stacks and the views that show them.
#pragma once

#include <string_view>

namespace gotrace::analysis {

// Whether a function (by its full name) is such machinery.
bool is_machinery_function(std::string_view func);

// The own frame of a folded stack ("leaf;caller;…;root"); the leaf when every frame is
// machinery.
std::string_view own_frame_of_folded(std::string_view folded);

}  // namespace gotrace::analysis
