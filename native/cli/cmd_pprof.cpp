// gotrace pprof: the profiles of `go tool trace -pprof=TYPE`, as gzipped pprof protobuf
// (what `go tool pprof` opens), as folded stacks, or as a table of top functions.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "command.h"
#include "file_io.h"
#include "gotrace/analysis/flame_graph.h"
#include "gotrace/analysis/pprof_folded.h"
#include "gotrace/analysis/pprof_writer.h"
#include "gotrace/analysis/profile_filter.h"
#include "gotrace/reader.h"
#include "gotrace/streamed_read.h"
#include "output.h"
#include "summarized_read.h"

namespace gotrace::cli {
namespace {

using namespace gotrace::analysis;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

Time parse_time(const Args& args, const std::string& name) {
  const std::string v = args.value(name);
  try {
    size_t used = 0;
    long long t = std::stoll(v, &used);
    if (used == v.size()) return t;
  } catch (const std::exception&) {
  }
  throw std::runtime_error("--" + name + " wants a time in ns, not '" + v + "'");
}

void print_top(const PprofProfile& p, size_t n) {
  std::vector<TopFunction> top = top_functions(p);
  int64_t total = 0;
  for (const PprofSample& s : p.samples) total += s.nanoseconds;
  std::printf("%12s %6s %12s %6s %8s  %s\n", "flat", "flat%", "cum", "cum%", "count", "function");
  for (size_t i = 0; i < top.size() && i < n; i++) {
    const TopFunction& f = top[i];
    auto pct = [&](int64_t v) { return total ? 100.0 * static_cast<double>(v) / static_cast<double>(total) : 0.0; };
    // Four significant digits, as `go tool pprof -top` rounds (ns in full outgrew the column).
    std::printf("%12s %5.1f%% %12s %5.1f%% %8lld  %s\n", human_duration(f.flat_ns).c_str(), pct(f.flat_ns),
                human_duration(f.cum_ns).c_str(), pct(f.cum_ns), static_cast<long long>(f.cum_count),
                f.name.c_str());
  }
}

int run_pprof(const Args& args) {
  if (args.positional().size() != 1) throw std::runtime_error("expected one trace file (see --help)");
  std::optional<ProfileType> type = parse_profile_type(args.value("type"));
  if (!type) throw std::runtime_error("--type must be net, sync, syscall or sched");
  const bool folded = args.flag("folded");
  const bool timing = args.flag("timing");
  const std::string out_path = args.value("o");
  const bool top = args.flag("top");
  if (!folded && !top && out_path.empty()) throw std::runtime_error("say where to write the profile (-o OUT.pb.gz), or use --folded or --top");

  // Two streamed reads, each holding about a generation's events: the first summarizes
  // the trace (the goroutines' times, which the profile counts within), the second
  // profiles it.
  auto t0 = Clock::now();
  const auto trace = read_summarized(args.positional()[0]);
  const ReadResult& r = trace->read;
  double read_ms = ms_since(t0);
  if (!r.ok()) {
    // Go profiles what it read before the problem; so do we, and say so.
    std::fprintf(stderr, "gotrace pprof: %s\n", r.error->what());
    if (r.store.size() == 0) return 1;
  }
  const Summary& summary = trace->views().summary();

  auto t2 = Clock::now();
  GoroutineIntervals goroutines;
  ProfileFilter filter{&goroutines, std::nullopt};
  if (args.has_value("region-pc") && !args.has_value("region"))
    throw std::runtime_error("--region-pc narrows --region: give the region type's name too");
  if (args.has_value("region")) {
    std::optional<RegionsAtPc> at;
    if (args.has_value("region-pc")) at.emplace(RegionsAtPc{r.store, trace->views().events(), parse_pc("region-pc", args.value("region-pc"))});
    goroutines = region_type_intervals(summary, args.value("region"), at ? &*at : nullptr);
  } else if (!args.has_value("goroutine")) {
    filter = {nullptr, std::nullopt, &summary};  // every goroutine: read from the summary as it goes
  } else {
    goroutines = goroutine_group_intervals(summary, args.value("goroutine"));
    if (goroutines.goroutines() == 0)
      throw std::runtime_error("failed to find matching goroutines for name: " + args.value("goroutine"));
  }
  if (args.has_value("from") || args.has_value("to")) {
    filter.window = Interval{args.has_value("from") ? parse_time(args, "from") : trace->first_time,
                             args.has_value("to") ? parse_time(args, "to") : trace->last_time};
  }
  ReadResult again;
  ProfilePass pass(again.store, {&*type, 1}, filter);
  read_streamed(trace->file->bytes(), again, [&](const EventStore& s, size_t from, size_t to) {
    pass.add(from, to);
    release_read_bytes(*trace->file, s);
  });
  const Profile profile = std::move(pass.take()[0]);
  // The second read's tables are the first's: the profile names the first's stacks.
  PprofProfile pprof = build_pprof_profile(r.store, profile);
  double profile_ms = ms_since(t2);

  if (!out_path.empty()) {
    std::vector<uint8_t> gz = write_pprof(pprof);
    write_file(out_path, gz.data(), gz.size());
  }
  if (folded) {
    std::string text = pprof_folded(pprof);
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  if (top) {
    const std::string n = args.value("top");
    print_top(pprof, n.empty() ? 20 : static_cast<size_t>(parse_bounded("top", n, 1, INT64_MAX)));
  }
  if (timing) {
    std::fprintf(stderr, "read and summary %.1f ms (%zu events), profile (read again) %.1f ms\n", read_ms,
                 r.store.size(), profile_ms);
  }
  return r.ok() ? 0 : 1;
}

Register reg({
    "pprof",
    "blocking, syscall and scheduler-latency profiles, as `go tool trace -pprof`",
    "Usage: gotrace pprof --type=net|sync|syscall|sched FILE (-o OUT.pb.gz | --folded | --top[=N])\n\n"
    "Computes the profile `go tool trace -pprof=TYPE FILE` computes: the time goroutines\n"
    "spent blocked on the network (net), blocked on synchronization (sync), in syscalls\n"
    "(syscall) or waiting to be scheduled (sched), by the stack where that began.\n\n"
    "  --type=TYPE        net, sync, syscall or sched\n"
    "  -o OUT.pb.gz       write a gzipped pprof protobuf (`go tool pprof OUT.pb.gz` opens it)\n"
    "  --folded           print folded stacks: \"COUNT NS leaf;...;root\" per stack, sorted\n"
    "  --top[=N]          print the N functions with the most time (default 20)\n"
    "  --goroutine=NAME   only goroutines whose start function is NAME\n"
    "  --region=TYPE      only time inside user regions of this type\n"
    "  --region-pc=PC     and only those begun at PC (0x..., as `gotrace regions` prints\n"
    "                     it): one of the region types that share a name\n"
    "  --from=NS --to=NS  only this part of the trace (trace times, ns)\n"
    "  --timing           print on stderr how long reading and profiling took\n",
    {"type", "o", "goroutine", "region", "region-pc", "from", "to"},
    {"type", "o", "folded", "top", "goroutine", "region", "region-pc", "from", "to", "timing"},
    run_pprof,
    {"top"},
    {{"o", "folded", "top"}},
});

}  // namespace
}  // namespace gotrace::cli
