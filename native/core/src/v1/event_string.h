// The old parsers' Event.String(): Go 1.21's is the legacy listing's line, Go 1.23's
// appears inside its validation errors.
#pragma once

#include <string>

#include "trace.h"

namespace gotrace::v1 {

// "<ts> <Name> p=<P> g=<G> off=<off>", then " <arg>=<value>" per printed argument and
// " <sarg>=<string>" per string argument.
void append_go121_event_string(std::string& out, const Trace& t, const Event& ev);

// "<ts> <Name> p=<P> g=<G> stk=<stack>", then " <arg>=<value>" per printed argument.
void append_go123_event_string(std::string& out, const Event& ev);

}  // namespace gotrace::v1
