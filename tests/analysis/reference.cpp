#include "reference.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "corpus.h"

namespace gotrace::test {
namespace {

class Comparer {
 public:
  Comparer(const Tolerance& tol, std::vector<Mismatch>& out) : tol_(tol), out_(out) {}

  void report(const Json& a, const Json& b) {
    exact_string("error", a["error"], b["error"]);
    exact_int("events", a["events"], b["events"]);
    goroutines(a["goroutines"], b["goroutines"]);
    tasks(a["tasks"], b["tasks"]);
    mmu(a["mmu"], b["mmu"]);
  }

 private:
  void add(std::string where, std::string ours, std::string go, int64_t off = 0) {
    out_.push_back({std::move(where), std::move(ours), std::move(go), off});
  }
  static std::string show(const Json& v) {
    switch (v.type()) {
      case Json::Type::Null: return "null";
      case Json::Type::Bool: return v.boolean() ? "true" : "false";
      case Json::Type::Number: return v.is_integer() ? std::to_string(v.int64()) : std::to_string(v.number());
      case Json::Type::String: return '"' + v.string() + '"';
      case Json::Type::Array: return "[" + std::to_string(v.size()) + " elements]";
      case Json::Type::Object: return "{" + std::to_string(v.size()) + " members}";
    }
    return "?";
  }
  void exact_string(const std::string& w, const Json& a, const Json& b) {
    if (!a.is_string() || !b.is_string() || a.string() != b.string()) add(w, show(a), show(b));
  }
  void exact_int(const std::string& w, const Json& a, const Json& b) {
    if (!a.is_integer() || !b.is_integer() || a.int64() != b.int64()) add(w, show(a), show(b));
  }
  void exact(const std::string& w, const Json& a, const Json& b) {
    if (show(a) != show(b)) add(w, show(a), show(b));
  }
  void time(const std::string& w, const Json& a, const Json& b) {
    if (!a.is_integer() || !b.is_integer()) return add(w, show(a), show(b));
    int64_t off = std::llabs(a.int64() - b.int64());
    if (off > tol_.ns) add(w, show(a), show(b), off);
  }
  // A stats object: the same keys; every value a duration.
  void stats(const std::string& w, const Json& a, const Json& b) {
    std::set<std::string> keys;
    for (auto& [k, v] : a.members()) keys.insert(k);
    for (auto& [k, v] : b.members()) keys.insert(k);
    for (const std::string& k : keys) {
      if (!a.has(k) || !b.has(k)) {
        add(w + " / " + k, a.has(k) ? show(a[k]) : "absent", b.has(k) ? show(b[k]) : "absent");
        continue;
      }
      time(w + " / " + k, a[k], b[k]);
    }
  }
  void goroutines(const Json& a, const Json& b) {
    if (a.is_null() || b.is_null()) return exact("goroutines", a, b);
    if (a.size() != b.size()) return add("goroutines / count", std::to_string(a.size()), std::to_string(b.size()));
    for (size_t i = 0; i < a.size(); i++) {
      const Json &x = a[i], &y = b[i];
      std::string w = "goroutine " + show(y["id"]);
      exact_int(w + " / id", x["id"], y["id"]);
      exact_string(w + " / name", x["name"], y["name"]);
      exact_int(w + " / pc", x["pc"], y["pc"]);
      for (const char* k : {"creation", "start", "end"}) time(w + " / " + k, x[k], y[k]);
      stats(w + " / stats", x["stats"], y["stats"]);
      const Json &ra = x["regions"], &rb = y["regions"];
      if (ra.is_null() || rb.is_null()) {
        exact(w + " / regions", ra, rb);
        continue;
      }
      if (ra.size() != rb.size()) {
        add(w + " / regions / count", std::to_string(ra.size()), std::to_string(rb.size()));
        continue;
      }
      for (size_t r = 0; r < ra.size(); r++) {
        std::string wr = w + " / region " + std::to_string(r);
        exact_int(wr + " / task", ra[r]["task"], rb[r]["task"]);
        exact_string(wr + " / name", ra[r]["name"], rb[r]["name"]);
        time(wr + " / start", ra[r]["start"], rb[r]["start"]);
        time(wr + " / end", ra[r]["end"], rb[r]["end"]);
        stats(wr + " / stats", ra[r]["stats"], rb[r]["stats"]);
      }
    }
  }
  void tasks(const Json& a, const Json& b) {
    if (a.is_null() || b.is_null()) return exact("tasks", a, b);
    if (a.size() != b.size()) return add("tasks / count", std::to_string(a.size()), std::to_string(b.size()));
    for (size_t i = 0; i < a.size(); i++) {
      const Json &x = a[i], &y = b[i];
      std::string w = "task " + show(y["id"]);
      for (const char* k : {"id", "parent", "logs", "regions"}) exact_int(w + " / " + k, x[k], y[k]);
      exact_string(w + " / name", x["name"], y["name"]);
      exact(w + " / complete", x["complete"], y["complete"]);
      time(w + " / start", x["start"], y["start"]);
      time(w + " / end", x["end"], y["end"]);
      const Json &ga = x["goroutines"], &gb = y["goroutines"];
      bool same = ga.is_null() == gb.is_null() && (ga.is_null() || ga.size() == gb.size());
      for (size_t g = 0; same && !ga.is_null() && g < ga.size(); g++) same = ga[g].int64() == gb[g].int64();
      if (!same) add(w + " / goroutines", show(ga), show(gb));
    }
  }
  void mmu(const Json& a, const Json& b) {
    for (auto& [flags, windows] : b.members()) {
      if (!a.has(flags)) {
        add("mmu / " + flags, "absent", "present");
        continue;
      }
      for (auto& [label, v] : windows.members()) {
        std::string w = "mmu / " + flags + " / " + label;
        if (!a[flags].has(label)) {
          add(w, "absent", show(v));
          continue;
        }
        double ours = a[flags][label].number(), go = v.number();
        double allowed = tol_.mmu;
        if (tol_.mmu_ns > 0) allowed += static_cast<double>(tol_.mmu_ns) / window_ns(label);
        if (std::fabs(ours - go) > allowed) add(w, std::to_string(ours), std::to_string(go));
      }
    }
    if (a.size() != b.size()) add("mmu / flag sets", std::to_string(a.size()), std::to_string(b.size()));
  }
  static double window_ns(const std::string& label) {
    static const std::map<std::string, double> windows = {{"1µs", 1e3},  {"10µs", 1e4},  {"100µs", 1e5}, {"1ms", 1e6},
                                                          {"10ms", 1e7}, {"100ms", 1e8}, {"1s", 1e9}};
    auto it = windows.find(label);
    return it == windows.end() ? 1e9 : it->second;
  }

  const Tolerance& tol_;
  std::vector<Mismatch>& out_;
};

}  // namespace

std::vector<Mismatch> compare_reports(const Json& ours, const Json& go, const Tolerance& tol) {
  std::vector<Mismatch> out;
  Comparer(tol, out).report(ours, go);
  return out;
}

int64_t max_ns_off(const std::vector<Mismatch>& m) {
  int64_t off = 0;
  for (const Mismatch& x : m) off = std::max(off, x.ns_off);
  return off;
}

ReadResult ReferenceTrace::read() const { return go127 ? read_go127(read_bytes(path)) : read_go123(read_bytes(path)); }

std::vector<ReferenceTrace> traces_with_reference() {
  std::vector<ReferenceTrace> out;
  for (const std::string& name : every_trace()) {
    const bool newest = is_newest(name);
    ReferenceTrace t{newest ? name.substr(7) : name, trace_path(name), newest};
    if (file_exists(t.reference(".analysis.json.zst"))) out.push_back(t);
  }
  return out;
}

}  // namespace gotrace::test
