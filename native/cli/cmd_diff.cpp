// gotrace diff: what changed between two traces of a program, or two ranges of one.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "both_at_once.h"
#include "command.h"
#include "file_io.h"
#include "gotrace/analysis/analysis_json.h"
#include "gotrace/analysis/histogram.h"
#include "gotrace/analysis/pprof_writer.h"
#include "gotrace/analysis/trace_diff.h"
#include "gotrace/analysis/stack_names.h"
#include "gotrace/reader.h"
#include "gotrace/session.h"
#include "output.h"

namespace gotrace::cli {
namespace {

using namespace gotrace::analysis;

std::string delta(int64_t before, int64_t after) {
  std::string d = (after >= before ? "+" : "-") + human_duration(std::llabs(after - before));
  if (before != 0) {
    char pct[32];
    std::snprintf(pct, sizeof pct, " (%+.1f%%)", 100.0 * static_cast<double>(after - before) / static_cast<double>(before));
    d += pct;
  }
  return d;
}

int64_t get(const std::map<std::string, int64_t>& m, const char* k) {
  auto it = m.find(k);
  return it == m.end() ? 0 : it->second;
}

void print_groups(const TraceFigures& a, const TraceFigures& b, size_t top) {
  struct Row {
    std::string name;
    GroupFigures x, y;
  };
  std::map<std::string, Row> by_name;
  for (const auto& [name, g] : a.groups) by_name[name].x = g;
  for (const auto& [name, g] : b.groups) by_name[name].y = g;
  std::vector<Row> rows;
  for (auto& [name, row] : by_name) {
    row.name = name;
    rows.push_back(std::move(row));
  }
  auto change = [](const Row& r) { return std::llabs(get(r.y.ns, "total") - get(r.x.ns, "total")); };
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& p, const Row& q) { return change(p) > change(q); });
  std::printf("Goroutine groups, largest change in total time first:\n");
  std::printf("  %-50s %15s %22s %22s %22s %22s\n", "Group", "Count", "Execution", "Sched wait", "Blocked", "Total");
  for (size_t k = 0; k < rows.size() && k < top; k++) {
    const Row& r = rows[k];
    const std::string name = r.name.empty() ? "(no start function)" : r.name;
    const std::string count = std::to_string(r.x.count) + " -> " + std::to_string(r.y.count);
    std::printf("  %-50s %15s %22s %22s %22s %22s\n", name.c_str(), count.c_str(),
                delta(get(r.x.ns, "exec"), get(r.y.ns, "exec")).c_str(),
                delta(get(r.x.ns, "sched_wait"), get(r.y.ns, "sched_wait")).c_str(),
                delta(get(r.x.ns, "block"), get(r.y.ns, "block")).c_str(),
                delta(get(r.x.ns, "total"), get(r.y.ns, "total")).c_str());
  }
  if (rows.size() > top) std::printf("  … %zu more (--top, --json)\n", rows.size() - top);
}

// Each type's count and durations before -> after. Of tasks, `not_ended` counts those
// begun that do not end: in the count, and said apart, as they have no duration.
void print_types(const char* title, const std::map<std::string, std::vector<int64_t>>& a,
                 const std::map<std::string, std::vector<int64_t>>& b,
                 const std::map<std::string, uint64_t>& not_ended_a = {},
                 const std::map<std::string, uint64_t>& not_ended_b = {}) {
  std::map<std::string, std::pair<DurationQuantiles, DurationQuantiles>> rows;
  for (const auto& [name, d] : a) rows[name].first = duration_quantiles(d);
  for (const auto& [name, d] : b) rows[name].second = duration_quantiles(d);
  if (rows.empty()) return;
  auto not_ended = [](const std::map<std::string, uint64_t>& m, const std::string& name) {
    auto it = m.find(name);
    return it == m.end() ? uint64_t{0} : it->second;
  };
  std::printf("\n%s:\n  %-30s %15s %28s %28s %28s\n", title, "Type", "Count", "p50", "p99", "max");
  std::string without;  // the types with instances that do not end
  for (const auto& row : rows) {
    const std::string& name = row.first;
    const auto& q = row.second;  // (named: clang 14 cannot capture a structured binding)
    auto side = [&](int64_t x, int64_t y) {
      auto one = [](const DurationQuantiles& d, int64_t v) { return d.count ? human_duration(v) : std::string("-"); };
      return one(q.first, x) + " -> " + one(q.second, y);
    };
    const uint64_t open_a = not_ended(not_ended_a, name), open_b = not_ended(not_ended_b, name);
    const std::string label = name.empty() ? "(none)" : name;
    const std::string count = std::to_string(q.first.count + open_a) + " -> " + std::to_string(q.second.count + open_b);
    std::printf("  %-30s %15s %28s %28s %28s\n", label.c_str(), count.c_str(), side(q.first.p50, q.second.p50).c_str(),
                side(q.first.p99, q.second.p99).c_str(), side(q.first.max, q.second.max).c_str());
    if (open_a || open_b) without += "\n    " + label + ": " + std::to_string(open_a) + " -> " + std::to_string(open_b);
  }
  if (!without.empty()) std::printf("  Not ended (counted, no duration):%s\n", without.c_str());
}

// `s` padded with spaces to `width` characters (UTF-8: "µs" is two bytes, one character).
std::string padded(std::string s, size_t width) {
  size_t chars = 0;
  for (unsigned char c : s) chars += (c & 0xC0) != 0x80;
  if (chars < width) s.append(width - chars, ' ');
  return s;
}

void print_gc(const GcFigures& a, const GcFigures& b) {
  std::printf("\nGC: %llu -> %llu cycles; stop-the-world %llu -> %llu times, %s -> %s\n",
              static_cast<unsigned long long>(a.cycles), static_cast<unsigned long long>(b.cycles),
              static_cast<unsigned long long>(a.stw_count), static_cast<unsigned long long>(b.stw_count),
              human_duration(a.stw_ns).c_str(), human_duration(b.stw_ns).c_str());
  for (size_t k = 0; k < a.mmu.size() && k < b.mmu.size(); k++) {
    std::printf("  MMU over %s %5.1f%% -> %5.1f%%\n", padded(human_duration(a.mmu[k].first), 8).c_str(),
                100 * a.mmu[k].second, 100 * b.mmu[k].second);
  }
}

void print_profiles(const TraceFigures& a, const TraceFigures& b) {
  for (const char* type : {"sync", "net", "syscall", "sched", "cpu"}) {
    auto x = a.profiles.find(type), y = b.profiles.find(type);
    if (x == a.profiles.end() || y == b.profiles.end()) continue;
    if (std::string(type) == "cpu") {
      if (!x->second.total.count && !y->second.total.count) continue;
      std::printf("\nCPU samples: %lld -> %lld\n", static_cast<long long>(x->second.total.count),
                  static_cast<long long>(y->second.total.count));
      continue;
    }
    std::printf("\n%s profile: %s -> %s, %s\n", type, human_duration(x->second.total.ns).c_str(),
                human_duration(y->second.total.ns).c_str(), delta(x->second.total.ns, y->second.total.ns).c_str());
    // The stacks whose time changed most, by their own frame.
    std::vector<std::pair<int64_t, std::string>> changes;  // (change, folded stack)
    std::map<std::string, int64_t> d;
    for (const auto& [stack, v] : y->second.stacks) d[stack] += v.ns;
    for (const auto& [stack, v] : x->second.stacks) d[stack] -= v.ns;
    for (const auto& [stack, ns] : d) {
      if (ns) changes.push_back({ns, stack});
    }
    std::stable_sort(changes.begin(), changes.end(),
                     [](const auto& p, const auto& q) { return std::llabs(p.first) > std::llabs(q.first); });
    changes.resize(std::min<size_t>(changes.size(), 5));
    std::vector<std::string> stacks;
    for (const auto& c : changes) stacks.push_back(c.second);
    const std::vector<std::string> names = stack_names(stacks);
    for (size_t k = 0; k < changes.size(); k++) {
      std::printf("  %13s  %s\n", ((changes[k].first >= 0 ? "+" : "-") + human_duration(std::llabs(changes[k].first))).c_str(),
                  names[k].c_str());
    }
  }
}

Interval parse_range(const std::string& v) {
  const size_t colon = v.find(':');
  if (colon == std::string::npos) throw std::runtime_error("a range is FROM:TO (trace times, ns), not '" + v + "'");
  Interval i{parse_whole("range", v.substr(0, colon)), parse_whole("range", v.substr(colon + 1))};
  if (i.end <= i.start) throw std::runtime_error("the range " + v + " ends before it starts");
  return i;
}

int run_diff(const Args& args) {
  const bool ranges = args.has_value("range");
  const size_t files = ranges ? 1 : 2;
  if (args.positional().size() != files) {
    throw std::runtime_error(ranges ? "--range compares two ranges of one trace file (see --help)"
                                    : "expected two trace files, before and after (see --help)");
  }
  if (files == 2 && args.positional()[0] == "-" && args.positional()[1] == "-")
    throw std::runtime_error("standard input can be read once: give at most one of the traces as -");
  const size_t top = args.has_value("top") ? static_cast<size_t>(parse_bounded("top", args.value("top"), 1, INT64_MAX)) : 20;
  std::optional<Interval> range_a, range_b;
  if (ranges) {
    const std::string v = args.value("range");
    const size_t comma = v.find(',');
    if (comma == std::string::npos) throw std::runtime_error("--range wants two ranges: FROM:TO,FROM:TO");
    range_a = parse_range(v.substr(0, comma));
    range_b = parse_range(v.substr(comma + 1));
  }
  // The two sides are independent: each is read and measured on a thread of its own.
  std::vector<std::unique_ptr<TraceSession>> sessions(files);
  auto open_side = [&](size_t k) {
    sessions[k] = std::make_unique<TraceSession>(read_trace(read_file(args.positional()[k])));
    sessions[k]->summary();
  };
  TraceFigures range_before, range_after;
  if (ranges) {
    open_side(0);
    TraceSession& t = *sessions[0];
    both_at_once([&] { range_after = trace_figures(t.store(), t.summary(), range_b); },
                 [&] { range_before = trace_figures(t.store(), t.summary(), range_a); });
  } else {
    both_at_once(
        [&] {
          open_side(1);
          sessions[1]->diff_figures();
        },
        [&] {
          open_side(0);
          sessions[0]->diff_figures();
        });
  }
  for (size_t k = 0; k < sessions.size(); k++) {
    if (!sessions[k]->read().ok()) {
      std::fprintf(stderr, "%s: %s (compared as far as it was read)\n", args.positional()[k].c_str(),
                   sessions[k]->read().error->what());
    }
  }
  const TraceFigures& before = ranges ? range_before : sessions[0]->diff_figures();
  const TraceFigures& after = ranges ? range_after : sessions[1]->diff_figures();
  if (args.has_value("pprof")) {
    const std::string type = args.value("pprof");
    auto x = before.profiles.find(type), y = after.profiles.find(type);
    if (x == before.profiles.end() || y == after.profiles.end()) {
      throw std::runtime_error("--pprof wants net, sync, syscall, sched or cpu, not '" + type + "'");
    }
    if (!args.has_value("o")) throw std::runtime_error("--pprof writes a file: give -o FILE");
    const std::vector<uint8_t> gz = write_pprof(differential_profile(x->second, y->second));
    write_file(args.value("o"), gz.data(), gz.size());
  }
  if (args.flag("json")) {
    print_json([&](JsonWriter& w) { trace_diff_json(w, before, after, top); });
  } else if (!args.has_value("pprof")) {
    print_groups(before, after, top);
    print_types("Task types", before.tasks, after.tasks, before.tasks_not_ended, after.tasks_not_ended);
    print_types("Region types", before.regions, after.regions);
    print_gc(before.gc, after.gc);
    print_profiles(before, after);
  }
  std::fflush(stdout);
  for (const auto& t : sessions) {
    if (!t->read().ok()) return 1;
  }
  return 0;
}

Register reg({
    "diff",
    "what changed between two traces (groups, tasks, regions, GC, profiles)",
    "Usage: gotrace diff BEFORE AFTER [--json] [--top=N] [--pprof=TYPE -o FILE]\n"
    "       gotrace diff FILE --range=FROM:TO,FROM:TO [--json] [--top=N] [--pprof=TYPE -o FILE]\n\n"
    "Compares two traces of a program (before and after a change, a good and a bad run),\n"
    "or two time ranges of one trace (trace times, ns; the first is 'before'). Changes are\n"
    "after minus before:\n\n"
    "  goroutine groups   count, execution, scheduling wait, time blocked (by reason in\n"
    "                     --json), syscalls, GC assists; by start function\n"
    "  task and region    count and duration quantiles (histograms in --json)\n"
    "  types\n"
    "  GC                 cycles, stops of the world, the MMU at 1µs .. 1s windows\n"
    "  profiles           the net, sync, syscall and sched profiles of `go tool trace\n"
    "                     -pprof` and the CPU samples, by stack (function names)\n\n"
    "Over whole traces the figures are those of `gotrace goroutines|tasks|regions|pprof`;\n"
    "over a range, each goroutine's time inside it, and the tasks and regions that begin\n"
    "in it.\n\n"
    "  --json          everything as one JSON object (times in ns)\n"
    "  --top=N         how many groups and profile stacks to list (default 20)\n"
    "  --pprof=TYPE    write the differential profile of TYPE (net, sync, syscall, sched,\n"
    "  -o FILE         cpu) as a gzipped pprof file: after minus before, as `go tool pprof\n"
    "                  -base` shows it\n\n"
    "A trace that cannot be read to the end is compared as far as it was read; the exit\n"
    "status is then 1.\n",
    {"range", "top", "pprof", "o"},
    {"range", "top", "pprof", "o", "json"},
    run_diff,
});

}  // namespace
}  // namespace gotrace::cli
