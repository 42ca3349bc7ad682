// gotrace json: one analysis of the core's list (gotrace/session.h) as JSON.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "command.h"
#include "file_io.h"
#include "gotrace/reader.h"
#include "gotrace/session.h"
#include "output.h"

namespace gotrace::cli {
namespace {

int run_json(const Args& args) {
  if (args.positional().empty()) {
    for (const AnalysisInfo& a : kAnalyses)
      std::printf("%s%s\n", std::string(a.name).c_str(),
                  TraceSession::has_own_json(a.id) ? "" : "  (made for the others: no JSON of its own)");
    return 0;
  }
  if (args.positional().size() != 2) throw std::runtime_error("expected an analysis and one trace file (see --help)");
  const std::string& name = args.positional()[0];
  if (!parse_analysis(name)) throw std::runtime_error("no analysis called '" + name + "' (see gotrace json)");
  TraceSession session(read_trace(read_file(args.positional()[1])));
  std::string out = session.json(name, true);
  out += '\n';
  std::fwrite(out.data(), 1, out.size(), stdout);
  return finish(session.read());
}

Register reg({
    "json",
    "one analysis of the trace session's list as JSON (the npm package's trace.analysis())",
    "Usage: gotrace json [ANALYSIS FILE]\n\n"
    "Prints ANALYSIS of FILE as one JSON object (times in ns): the analyses that have a\n"
    "result of their own (goroutineGroups, taskTypes, regionTypes, ...). Without\n"
    "arguments, lists the analyses, in the order a viewer computes them, and says which\n"
    "have no JSON of their own. A trace that\n"
    "cannot be read to the end is analysed as far as it was read; the exit status is then 1.\n",
    {},
    {},
    run_json,
});

}  // namespace
}  // namespace gotrace::cli
