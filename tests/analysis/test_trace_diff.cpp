// gotrace diff against the commands whose figures it compares: a trace against itself is
// all zeros; between two traces every delta is the difference of the two sides'
// `gotrace goroutines|tasks|regions|pprof` outputs; the differential profile's total is
// the difference of the two profiles' totals.
#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <string>

#include "corpus.h"
#include "gotrace/analysis/own_frame.h"
#include "gotrace/analysis/trace_diff.h"
#include "gotrace/reader.h"
#include "json_parse.h"
#include "reference.h"
#include "scratch.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

Json cli_json(const std::string& args) {
  std::string out;
  const int rc = run_command(cli_path() + " " + args, &out);
  INFO(args);
  REQUIRE(rc == 0);
  return Json::parse(out);
}

std::string quoted(const std::string& path) { return "'" + path + "'"; }

// A v2 trace cut after its first half of generations: a trace of its own (each
// generation is self-contained), written to a temporary file.
std::string first_half(const std::string& path) {
  std::vector<uint8_t> bytes = read_bytes(path);
  ReadResult r = read_trace(bytes);
  REQUIRE(r.ok());
  REQUIRE(r.store.generations.size() >= 4);
  const GenerationInfo& cut = r.store.generations[r.store.generations.size() / 2];
  bytes.resize(cut.file_offset);
  const std::string out = scratch_path("first-half.trace");
  FILE* f = std::fopen(out.c_str(), "wb");
  REQUIRE(f);
  REQUIRE(std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
  std::fclose(f);
  return out;
}

// Checks `gotrace diff --json A B` against the per-trace commands of A and B.
void check_against_commands(const std::string& a, const std::string& b) {
  const Json diff = cli_json("diff --json --top=1000000 " + quoted(a) + " " + quoted(b));

  // Goroutine groups: every figure of `gotrace goroutines --json`.
  std::map<std::string, const Json*> ga, gb;
  const Json ja = cli_json("goroutines --json " + quoted(a)), jb = cli_json("goroutines --json " + quoted(b));
  for (const Json& g : ja["groups"].elements()) ga[g["name"].string()] = &g;
  for (const Json& g : jb["groups"].elements()) gb[g["name"].string()] = &g;
  size_t groups = 0;
  for (const Json& row : diff["groups"].elements()) {
    const std::string name = row["name"].string();
    INFO("group " << name);
    auto figure = [&](const std::map<std::string, const Json*>& side, const std::string& key) -> int64_t {
      auto it = side.find(name);
      if (it == side.end()) return 0;
      const Json& g = *it->second;
      if (g.has(key)) return g[key].int64();
      return g["stats"].has(key) ? g["stats"][key].int64() : 0;
    };
    CHECK(row["delta"]["count"].int64() == figure(gb, "count") - figure(ga, "count"));
    for (const auto& [key, value] : row["delta"].members()) {
      if (key == "count") continue;
      INFO(key);
      CHECK(value.int64() == figure(gb, key) - figure(ga, key));
    }
    groups++;
  }
  CHECK(groups == [&] {
    std::map<std::string, int> names;
    for (auto& [n, g] : ga) names[n]++;
    for (auto& [n, g] : gb) names[n]++;
    return names.size();
  }());

  // Task types: counts of complete tasks and their quantiles.
  auto task_quantiles = [&](const std::string& path) {
    std::map<std::string, Json> out;
    const Json tasks = cli_json("tasks --json " + quoted(path));
    for (const Json& t : tasks["types"].elements()) {
      out.emplace(t["name"].string(), t["durations"]["quantiles"]);
    }
    return out;
  };
  auto ta = task_quantiles(a), tb = task_quantiles(b);
  for (const Json& row : diff["tasks"].elements()) {
    const std::string name = row["name"].string();
    INFO("task type " << name);
    for (const char* q : {"p50", "p90", "p99", "max", "total"}) {
      const int64_t x = ta.count(name) ? ta.at(name)[q].int64() : 0, y = tb.count(name) ? tb.at(name)[q].int64() : 0;
      CHECK(row["delta"][q].int64() == y - x);
    }
    const int64_t x = ta.count(name) ? ta.at(name)["count"].int64() : 0, y = tb.count(name) ? tb.at(name)["count"].int64() : 0;
    CHECK(row["delta"]["count"].int64() == y - x);
  }

  // Region types: `gotrace regions` splits a type by where it starts; counts by type.
  auto region_counts = [&](const std::string& path) {
    std::map<std::string, int64_t> out;
    const Json regions = cli_json("regions --json " + quoted(path));
    for (const Json& t : regions["types"].elements()) {
      out[t["name"].string()] += t["count"].int64();
    }
    return out;
  };
  auto ra = region_counts(a), rb = region_counts(b);
  for (const Json& row : diff["regions"].elements()) {
    const std::string name = row["name"].string();
    INFO("region type " << name);
    CHECK(row["delta"]["count"].int64() == rb[name] - ra[name]);
  }

  // Profiles: the totals of `gotrace pprof --folded`.
  for (const char* type : {"net", "sync", "syscall", "sched"}) {
    INFO("profile " << type);
    auto total = [&](const std::string& path) {
      std::string out;
      REQUIRE(run_command(cli_path() + " pprof --folded --type=" + type + " " + quoted(path), &out) == 0);
      int64_t ns = 0;
      size_t at = 0;
      while (at < out.size()) {
        size_t end = out.find('\n', at);
        if (end == std::string::npos) end = out.size();
        const std::string line = out.substr(at, end - at);
        const size_t sp = line.find(' ');
        if (sp != std::string::npos) ns += std::stoll(line.substr(sp + 1));
        at = end + 1;
      }
      return ns;
    };
    const Json& p = diff["profiles"][type];
    const int64_t x = total(a), y = total(b);
    CHECK(p["before"]["ns"].int64() == x);
    CHECK(p["after"]["ns"].int64() == y);
    CHECK(p["delta"]["ns"].int64() == y - x);
  }
}

}  // namespace

TEST_CASE("gotrace diff of a trace against itself is all zeros", "[analysis][diff][cli]") {
  for (const char* name : {"go123-workload", "user_task_region_1_21_good", "go123-gc-stress"}) {
    DYNAMIC_SECTION(name) {
      const std::string t = quoted(corpus_path(std::string(name) + ".trace"));
      const Json diff = cli_json("diff --json --top=1000000 " + t + " " + t);
      REQUIRE(diff["groups"].size() > 0);
      for (const Json& row : diff["groups"].elements()) {
        for (const auto& [key, value] : row["delta"].members()) CHECK(value.int64() == 0);
      }
      for (const char* kind : {"tasks", "regions"}) {
        for (const Json& row : diff[kind].elements()) {
          for (const auto& [key, value] : row["delta"].members()) CHECK(value.int64() == 0);
        }
      }
      for (const auto& [key, value] : diff["gc"]["delta"].members()) CHECK(value.int64() == 0);
      for (const auto& [type, p] : diff["profiles"].members()) {
        CHECK(p["delta"]["ns"].int64() == 0);
        CHECK(p["delta"]["count"].int64() == 0);
        for (const Json& s : p["stacks"].elements()) {
          CHECK(s["delta"]["ns"].int64() == 0);
          CHECK(s["function"].string() == gotrace::analysis::own_frame_of_folded(s["stack"].string()));
        }
      }
    }
  }
}

TEST_CASE("gotrace diff deltas are the differences of the per-trace commands", "[analysis][diff][cli][corpus]") {
  SECTION("Go 1.22 and Go 1.23 runs of one program") {
    check_against_commands(corpus_path("go122-workload.trace"), corpus_path("go123-workload.trace"));
  }
  SECTION("a trace against its own first half") {
    const std::string whole = newest_path("go127-annotations-stress.stress.trace");  // 668 generations
    check_against_commands(first_half(whole), whole);
  }
  SECTION("a Go 1.27 trace against a Go 1.24 one") {
    check_against_commands(newest_path("go124-annotations-stress.default.trace"),
                           newest_path("go127-annotations-stress.default.trace"));
  }
}

TEST_CASE("the differential profile's total is the difference of the totals", "[analysis][diff]") {
  ReadResult a = read_trace(read_bytes(corpus_path("go122-workload.trace")));
  ReadResult b = read_trace(read_bytes(corpus_path("go123-workload.trace")));
  REQUIRE((a.ok() && b.ok()));
  const TraceFigures x = trace_figures(a.store, summarize(a.store));
  const TraceFigures y = trace_figures(b.store, summarize(b.store));
  for (const char* type : {"net", "sync", "syscall", "sched", "cpu"}) {
    INFO(type);
    const FoldedProfile &p = x.profiles.at(type), &q = y.profiles.at(type);
    const PprofProfile d = differential_profile(p, q);
    int64_t ns = 0, count = 0;
    for (const PprofSample& s : d.samples) {
      ns += s.nanoseconds;
      count += s.count;
      REQUIRE_FALSE(s.location_ids.empty());
      for (uint64_t id : s.location_ids) REQUIRE((id >= 1 && id <= d.locations.size()));
    }
    CHECK(ns == q.total.ns - p.total.ns);
    CHECK(count == q.total.count - p.total.count);
    if (std::string(type) != "cpu") CHECK_FALSE(d.samples.empty());
  }
  // Written as pprof with -o: a gzipped file.
  const std::string out = scratch_path("diff-sync.pb.gz");
  REQUIRE(run_command(cli_path() + " diff --pprof=sync -o " + quoted(out) + " " +
                      quoted(corpus_path("go122-workload.trace")) + " " + quoted(corpus_path("go123-workload.trace"))) == 0);
  const std::vector<uint8_t> gz = read_bytes(out);
  REQUIRE(gz.size() > 100);
  CHECK((gz[0] == 0x1f && gz[1] == 0x8b));
}

TEST_CASE("gotrace diff of two ranges of one trace", "[analysis][diff][cli]") {
  const std::string t = quoted(corpus_path("go123-workload.trace"));
  const Json stats = cli_json("stats --json " + t);
  ReadResult r = read_trace(read_bytes(corpus_path("go123-workload.trace")));
  REQUIRE(r.ok());
  const Time first = r.store.time(0), last = r.store.time(r.store.size() - 1), mid = first + (last - first) / 2;
  const std::string ranges = std::to_string(first) + ":" + std::to_string(mid) + "," + std::to_string(mid) + ":" +
                             std::to_string(last);
  const Json diff = cli_json("diff --json --top=1000000 --range=" + ranges + " " + t);
  // Each goroutine's time inside a range sums to at most the range per goroutine; the
  // two halves' task counts add up to the trace's tasks that begin in them.
  int64_t tasks = 0;
  for (const Json& row : diff["tasks"].elements()) {
    tasks += row["before"]["quantiles"]["count"].int64() + row["after"]["quantiles"]["count"].int64();
  }
  const Json whole = cli_json("tasks --json " + t);
  int64_t complete = 0;
  for (const Json& ty : whole["types"].elements()) complete += ty["complete"].int64();
  CHECK(tasks <= complete);
  CHECK(tasks >= complete - 20);  // tasks that begin before the first event's time or at the very end
  for (const Json& row : diff["groups"].elements()) {
    for (const char* side : {"before", "after"}) {
      const Json& s = row[side];
      if (!s.has("total")) continue;
      int64_t parts = 0;
      for (const char* k : {"exec", "sched_wait", "syscall", "block", "unknown"}) parts += s.has(k) ? s[k].int64() : 0;
      CHECK(parts == s["total"].int64());
      CHECK(s["total"].int64() <= static_cast<int64_t>(s["count"].uint64()) * (mid - first + 1));
    }
  }
  (void)stats;
}

TEST_CASE("the own frame of a stack passes over the runtime's and sync's machinery", "[diff]") {
  using gotrace::analysis::own_frame_of_folded;
  CHECK(own_frame_of_folded("runtime.gopark;sync.(*Mutex).lockSlow;sync.(*Mutex).Lock;main.work;main.main") == "main.work");
  CHECK(own_frame_of_folded("internal/poll.(*FD).Read;net.(*conn).Read;main.serve") == "net.(*conn).Read");
  CHECK(own_frame_of_folded("sync/atomic.AddInt64;iter.Pull;runtime/trace.WithRegion;main.f") == "main.f");
  CHECK(own_frame_of_folded("runtime.gopark;runtime.goparkunlock") == "runtime.gopark");
  CHECK(own_frame_of_folded("main.main") == "main.main");
  CHECK(own_frame_of_folded("") == "");
}
