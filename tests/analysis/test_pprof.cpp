// The pprof files: our gzip is valid (zlib reads it back), the protobuf decodes to the
// same samples, and the CLI prints Go's folded lines.
#include <catch2/catch.hpp>
#include <zlib.h>

#include <cstdio>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>

#include "corpus.h"
#include "gotrace/analysis/flame_graph.h"
#include "gotrace/encode/gzip.h"
#include "gotrace/analysis/pprof_folded.h"
#include "gotrace/analysis/pprof_writer.h"
#include "gotrace/analysis/profile_filter.h"
#include "gotrace/reader.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

std::vector<uint8_t> gunzip(const std::vector<uint8_t>& gz) {
  z_stream z{};
  REQUIRE(inflateInit2(&z, 16 + MAX_WBITS) == Z_OK);  // 16: gzip framing, checks the CRC
  std::vector<uint8_t> out;
  z.next_in = const_cast<Bytef*>(gz.data());
  z.avail_in = static_cast<uInt>(gz.size());
  int rc = Z_OK;
  while (rc == Z_OK) {
    uint8_t buf[1 << 14];
    z.next_out = buf;
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.insert(out.end(), buf, buf + (sizeof buf - z.avail_out));
  }
  inflateEnd(&z);
  CHECK(rc == Z_STREAM_END);
  CHECK(z.avail_in == 0);
  return out;
}

// A minimal protobuf reader: enough of profile.proto to check what we wrote.
class ProtoReader {
 public:
  ProtoReader(const uint8_t* p, size_t n) : p_(p), end_(p + n) {}
  bool next(uint32_t& field, uint32_t& wire) {
    if (p_ == end_) return false;
    uint64_t tag = varint();
    field = static_cast<uint32_t>(tag >> 3);
    wire = static_cast<uint32_t>(tag & 7);
    return true;
  }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      if (p_ == end_ || shift > 63) throw std::runtime_error("bad varint");
      uint8_t b = *p_++;
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
  }
  ProtoReader bytes() {
    uint64_t n = varint();
    if (n > uint64_t(end_ - p_)) throw std::runtime_error("bad length");
    ProtoReader r(p_, n);
    p_ += n;
    return r;
  }
  std::string str() {
    ProtoReader r = bytes();
    return std::string(reinterpret_cast<const char*>(r.p_), r.end_ - r.p_);
  }
  std::vector<uint64_t> packed() {
    ProtoReader r = bytes();
    std::vector<uint64_t> v;
    while (r.p_ != r.end_) v.push_back(r.varint());
    return v;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

struct Decoded {
  std::vector<std::string> strings;
  std::vector<std::pair<int64_t, int64_t>> sample_types, period_types;
  int64_t period = 0;
  struct Sample {
    std::vector<uint64_t> locations;
    std::vector<uint64_t> values;
  };
  std::vector<Sample> samples;
  struct Location {
    uint64_t address = 0, function = 0;
    int64_t line = 0;
  };
  std::map<uint64_t, Location> locations;
  struct Function {
    int64_t name = 0, system_name = 0, filename = 0;
  };
  std::map<uint64_t, Function> functions;
};

std::pair<int64_t, int64_t> value_type(ProtoReader r) {
  std::pair<int64_t, int64_t> vt;
  uint32_t f, w;
  while (r.next(f, w)) (f == 1 ? vt.first : vt.second) = static_cast<int64_t>(r.varint());
  return vt;
}

Decoded decode(const std::vector<uint8_t>& pb) {
  Decoded d;
  ProtoReader r(pb.data(), pb.size());
  uint32_t f, w;
  while (r.next(f, w)) {
    switch (f) {
      case 1: d.sample_types.push_back(value_type(r.bytes())); break;
      case 2: {
        ProtoReader m = r.bytes();
        Decoded::Sample s;
        while (m.next(f, w)) {
          REQUIRE(w == 2);  // packed
          (f == 1 ? s.locations : s.values) = m.packed();
        }
        d.samples.push_back(s);
        break;
      }
      case 4: {
        ProtoReader m = r.bytes();
        uint64_t id = 0;
        Decoded::Location loc;
        while (m.next(f, w)) {
          if (f == 1) id = m.varint();
          else if (f == 3) loc.address = m.varint();
          else if (f == 4) {
            ProtoReader line = m.bytes();
            while (line.next(f, w)) {
              uint64_t v = line.varint();
              if (f == 1) loc.function = v;
              if (f == 2) loc.line = static_cast<int64_t>(v);
            }
          } else FAIL("unexpected location field " << f);
        }
        d.locations[id] = loc;
        break;
      }
      case 5: {
        ProtoReader m = r.bytes();
        uint64_t id = 0;
        Decoded::Function fn;
        while (m.next(f, w)) {
          uint64_t v = m.varint();
          if (f == 1) id = v;
          if (f == 2) fn.name = static_cast<int64_t>(v);
          if (f == 3) fn.system_name = static_cast<int64_t>(v);
          if (f == 4) fn.filename = static_cast<int64_t>(v);
        }
        d.functions[id] = fn;
        break;
      }
      case 6: d.strings.push_back(r.str()); break;
      case 11: d.period_types.push_back(value_type(r.bytes())); break;
      case 12: d.period = static_cast<int64_t>(r.varint()); break;
      default: FAIL("unexpected profile field " << f);
    }
  }
  return d;
}

// The decoded profile back in our model, to compare with what was encoded.
PprofProfile to_model(const Decoded& d, std::vector<std::string>& keep_alive) {
  PprofProfile p;
  keep_alive = d.strings;
  for (const auto& [id, fn] : d.functions) {
    REQUIRE(id == p.functions.size() + 1);
    CHECK(fn.system_name == fn.name);
    p.functions.push_back({id, keep_alive.at(static_cast<size_t>(fn.name)), keep_alive.at(static_cast<size_t>(fn.filename))});
  }
  for (const auto& [id, loc] : d.locations) {
    REQUIRE(id == p.locations.size() + 1);
    p.locations.push_back({id, loc.address, loc.function, loc.line});
  }
  for (const auto& s : d.samples) {
    REQUIRE(s.values.size() == 2);
    p.samples.push_back({s.locations, static_cast<int64_t>(s.values[0]), static_cast<int64_t>(s.values[1])});
  }
  return p;
}

PprofProfile go_tool_pprof(const EventStore& store, ProfileType type) {
  return build_pprof_profile(store, compute_go_tool_profile(store, summarize(store), type));
}

}  // namespace

TEST_CASE("crc32 and gzip", "[pprof][gzip]") {
  const std::string check = "123456789";
  CHECK(crc32({reinterpret_cast<const uint8_t*>(check.data()), check.size()}) == 0xCBF43926u);

  std::mt19937 rng(7);
  std::vector<std::vector<uint8_t>> inputs;
  inputs.push_back({});
  inputs.push_back({'a'});
  std::vector<uint8_t> text;
  for (int i = 0; i < 5000; i++) {
    std::string s = "runtime.gcBgMarkWorker;main.main.func" + std::to_string(i % 37) + "\n";
    text.insert(text.end(), s.begin(), s.end());
  }
  inputs.push_back(text);
  std::vector<uint8_t> noise(200000);
  for (auto& b : noise) b = static_cast<uint8_t>(rng());
  inputs.push_back(noise);                       // incompressible: stored blocks
  inputs.push_back(std::vector<uint8_t>(100000, 0));  // long runs: matches of 258
  std::vector<uint8_t> mixed;
  for (int i = 0; i < 70000; i++) mixed.push_back(static_cast<uint8_t>(i % 3 == 0 ? rng() : 'x'));
  inputs.push_back(mixed);
  for (const auto& in : inputs) {
    std::vector<uint8_t> gz = gzip(in);
    CHECK(gunzip(gz) == in);
  }
  CHECK(gzip(text).size() < text.size() / 10);
  CHECK(gzip(noise).size() < noise.size() + 64);
}

TEST_CASE("pprof files decode to the same samples", "[pprof][corpus]") {
  ReadResult r = read_go123(read_bytes(corpus_path("go123-workload.trace")));  // Go 1.23's references
  REQUIRE(r.ok());
  for (ProfileType type : kProfileTypes) {
    INFO(to_string(type));
    PprofProfile p = go_tool_pprof(r.store, type);
    Decoded d = decode(gunzip(write_pprof(p)));
    REQUIRE(!d.strings.empty());
    CHECK(d.strings[0].empty());
    REQUIRE(d.sample_types.size() == 2);
    CHECK(d.strings[d.sample_types[0].first] == "contentions");
    CHECK(d.strings[d.sample_types[0].second] == "count");
    CHECK(d.strings[d.sample_types[1].first] == "delay");
    CHECK(d.strings[d.sample_types[1].second] == "nanoseconds");
    REQUIRE(d.period_types.size() == 1);
    CHECK(d.strings[d.period_types[0].first] == "trace");
    CHECK(d.period == 1);

    std::vector<std::string> strings;
    PprofProfile back = to_model(d, strings);
    REQUIRE(back.samples.size() == p.samples.size());
    for (size_t i = 0; i < p.samples.size(); i++) {
      CHECK(back.samples[i].location_ids == p.samples[i].location_ids);
      CHECK(back.samples[i].count == p.samples[i].count);
      CHECK(back.samples[i].nanoseconds == p.samples[i].nanoseconds);
    }
    REQUIRE(back.locations.size() == p.locations.size());
    for (size_t i = 0; i < p.locations.size(); i++) {
      CHECK(back.locations[i].address == p.locations[i].address);
      CHECK(back.locations[i].function_id == p.locations[i].function_id);
      CHECK(back.locations[i].line == p.locations[i].line);
    }
    // Decoded and folded, the file reads as Go's own profile.
    std::string ref = read_zstd(corpus_path("go123-workload.trace.pprof-" + std::string(to_string(type)) + ".folded.zst"));
    CHECK(pprof_folded(back) == ref);
  }
}

// Runs `gotrace ARGS...` (each argument quoted), capturing stdout.
static int gotrace_cli(const std::vector<std::string>& args, std::string* out = nullptr) {
  std::string cmd = "'";
  cmd.append(cli_path()).append("'");
  for (const std::string& a : args) cmd.append(" '").append(a).append("'");
  cmd.append(" 2>/dev/null");
  return run_command(cmd, out);
}

TEST_CASE("gotrace pprof prints Go's folded profile and writes .pb.gz", "[pprof][cli][corpus]") {
  // The CLI reads as Go 1.27 does: Go 1.27's references.
  for (std::string name : {"go127-stress.default", "go124-stress.default", "go127-workload"}) {
    for (ProfileType type : kProfileTypes) {
      const std::string t(to_string(type));
      INFO(name << " " << t);
      std::string out;
      CHECK(gotrace_cli({"pprof", "--type=" + t, "--folded", newest_path(name + ".trace")}, &out) == 0);
      CHECK(out == read_zstd(newest_path(name + ".trace.pprof-" + t + ".folded.zst")));
    }
  }
  const std::string path = "gotrace-test-sched.pb.gz";
  CHECK(gotrace_cli({"pprof", "--type=sched", corpus_path("go123-stress.trace"), "-o", path}) == 0);
  std::vector<uint8_t> gz = read_bytes(path);
  std::remove(path.c_str());
  ReadResult r = read_trace(read_bytes(corpus_path("go123-stress.trace")));
  REQUIRE(r.ok());
  CHECK(gz == write_pprof(go_tool_pprof(r.store, ProfileType::Sched)));
  std::string help;
  CHECK(gotrace_cli({"pprof", "--help"}, &help) == 0);
  CHECK(help.find("--type") != std::string::npos);
  CHECK(gotrace_cli({"pprof", "--type=block", "--folded", corpus_path("go123-stress.trace")}) != 0);
}

TEST_CASE("flame graph and top functions", "[pprof][flame]") {
  ReadResult r = read_trace(read_bytes(corpus_path("go123-stress.trace")));
  REQUIRE(r.ok());
  PprofProfile p = go_tool_pprof(r.store, ProfileType::Sched);
  REQUIRE(!p.samples.empty());
  int64_t total_ns = 0;
  uint64_t total_count = 0;
  for (const PprofSample& s : p.samples) {
    total_ns += s.nanoseconds;
    total_count += static_cast<uint64_t>(s.count);
  }
  FlameGraph g = flame_graph(p);
  REQUIRE(g.size() > 1);
  CHECK(g.parent[0] == -1);
  CHECK(g.total_ns[0] == total_ns);
  CHECK(g.total_count[0] == total_count);
  int64_t self_sum = 0;
  for (size_t i = 0; i < g.size(); i++) {
    self_sum += g.self_ns[i];
    // Depth-first: a node's parent comes before it, one level up; totals add up.
    if (i == 0) continue;
    auto parent = static_cast<size_t>(g.parent[i]);
    CHECK(parent < i);
    CHECK(g.depth[i] == g.depth[parent] + 1);
    int64_t children = 0;
    for (size_t j = i + 1; j < g.size() && g.depth[j] > g.depth[i]; j++)
      if (static_cast<size_t>(g.parent[j]) == i) children += g.total_ns[j];
    CHECK(g.total_ns[i] == g.self_ns[i] + children);
  }
  CHECK(self_sum == total_ns);

  // Each folded line is one root-to-leaf path of the tree.
  std::map<std::string, int64_t> paths;
  std::vector<std::string> path_of(g.size());
  for (size_t i = 1; i < g.size(); i++) {
    auto parent = static_cast<size_t>(g.parent[i]);
    path_of[i] = g.names[g.name[i]];
    if (parent) path_of[i].append(";").append(path_of[parent]);
    if (g.self_ns[i]) paths[path_of[i]] += g.self_ns[i];
  }
  std::map<std::string, int64_t> folded;
  std::istringstream in(pprof_folded(p));
  int64_t count, ns;
  std::string stack;
  while (in >> count >> ns >> stack) folded[stack] += ns;
  CHECK(paths == folded);

  std::vector<TopFunction> top = top_functions(p);
  REQUIRE(!top.empty());
  int64_t flat = 0;
  for (size_t i = 0; i < top.size(); i++) {
    flat += top[i].flat_ns;
    CHECK(top[i].cum_ns >= top[i].flat_ns);
    CHECK(top[i].cum_ns <= total_ns);
    if (i) CHECK(top[i - 1].flat_ns >= top[i].flat_ns);
  }
  CHECK(flat == total_ns);
}
