// The analysis commands of the CLI: help, text, and JSON equal to the core's.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "corpus.h"
#include "json_parse.h"
#include "reference.h"
#include "scratch.h"

using namespace gotrace::test;

namespace {

std::string run(const std::string& args, int* status = nullptr) {
  std::string out;
  int rc = run_command(cli_path() + " " + args + " 2>&1", &out);
  if (status) *status = rc;
  return out;
}

std::string trace(const std::string& name) { return "'" + corpus_path(name + ".trace") + "'"; }

}  // namespace

TEST_CASE("every analysis command has --help", "[analysis][cli]") {
  for (const char* cmd : {"goroutines", "tasks", "regions", "mmu", "analysis"}) {
    int rc = -1;
    std::string out = run(std::string(cmd) + " --help", &rc);
    INFO(out);
    CHECK(rc == 0);
    CHECK(out.find(std::string("Usage: gotrace ") + cmd) != std::string::npos);
  }
}

TEST_CASE("gotrace analysis --json prints Go's reference shape", "[analysis][cli]") {
  // The CLI reads as Go 1.27 does: Go 1.27's references, exactly.
  for (const char* name : {"go127-annotations.default", "go127-gc-stress.default", "go127-workload"}) {
    DYNAMIC_SECTION(name) {
      const std::string path = newest_path(std::string(name) + ".trace");
      std::string out;
      CHECK(run_command(cli_path() + " analysis --json '" + path + "'", &out) == 0);
      Json ours = Json::parse(out);
      Json go = Json::parse(read_zstd(path + ".analysis.json.zst"));
      auto diff = compare_reports(ours, go, Tolerance{0, 0.0, 0});
      for (size_t i = 0; i < diff.size() && i < 10; i++) UNSCOPED_INFO(diff[i].where << ": " << diff[i].ours << " vs " << diff[i].go);
      CHECK(diff.empty());
    }
  }
}

TEST_CASE("gotrace analysis prints counts, the MMU table and timings", "[analysis][cli]") {
  int rc = -1;
  std::string out = run("analysis --time " + trace("go123-annotations"), &rc);
  CHECK(rc == 0);
  CHECK(out.find("goroutines  9") != std::string::npos);
  CHECK(out.find("stw+background+assist+sweep per-proc") != std::string::npos);
  CHECK(out.find("read_trace") != std::string::npos);
  CHECK(out.find("of the read time") != std::string::npos);
}

TEST_CASE("gotrace goroutines", "[analysis][cli]") {
  int rc = -1;
  std::string out = run("goroutines " + trace("go123-annotations"), &rc);
  CHECK(rc == 0);
  CHECK(out.find("Start function") != std::string::npos);
  CHECK(out.find("main.main.func1") != std::string::npos);
  out = run("goroutines --group=main.main " + trace("go123-annotations"), &rc);
  CHECK(rc == 0);
  CHECK(out.find("goroutine 1 ") != std::string::npos);
  CHECK(out.find("Block time (sync)") != std::string::npos);
  std::string json;
  CHECK(run_command(cli_path() + " goroutines --json " + trace("go123-annotations"), &json) == 0);
  Json j = Json::parse(json);
  CHECK(j["goroutines"].size() == 9);
  CHECK(j["groups"].size() > 1);
  run("goroutines --group=no.such.function " + trace("go123-annotations"), &rc);
  CHECK(rc == 1);
}

TEST_CASE("gotrace tasks and regions", "[analysis][cli]") {
  int rc = -1;
  std::string out = run("tasks " + trace("go123-annotations-stress"), &rc);
  CHECK(rc == 0);
  CHECK(out.find("Task type") != std::string::npos);
  CHECK(out.find("do ") != std::string::npos);
  out = run("tasks --list " + trace("go123-annotations-stress"), &rc);
  CHECK(rc == 0);
  CHECK(out.find("type2") != std::string::npos);
  std::string json;
  CHECK(run_command(cli_path() + " tasks --json " + trace("go123-annotations-stress"), &json) == 0);
  CHECK(Json::parse(json)["tasks"].size() == 23);

  out = run("regions " + trace("go123-annotations"), &rc);
  CHECK(rc == 0);
  CHECK(out.find("region0") != std::string::npos);
  out = run("regions --list " + trace("go123-annotations"), &rc);
  CHECK(rc == 0);
  CHECK(out.find("unended region") != std::string::npos);
  json.clear();
  CHECK(run_command(cli_path() + " regions --json " + trace("go123-annotations"), &json) == 0);
  CHECK(Json::parse(json)["regions"].size() == 6);
}

TEST_CASE("gotrace mmu", "[analysis][cli]") {
  int rc = -1;
  std::string out = run("mmu " + trace("go123-gc-stress"), &rc);
  CHECK(rc == 0);
  CHECK(out.find("stw+background+assist+sweep") != std::string::npos);
  CHECK(out.find("100ms") != std::string::npos);
  std::string json;
  CHECK(run_command(cli_path() + " mmu --json --flags=stw --window=10ms --worst=2 --curve " + trace("go123-gc-stress"), &json) == 0);
  Json j = Json::parse(json);
  CHECK(j["mmu"]["flags"].string() == "stw");
  REQUIRE(j["mmu"]["windows"].size() == 1);
  CHECK(j["mmu"]["windows"][0]["window"].int64() == 10'000'000);
  CHECK(j["mmu"]["windows"][0]["worst"].size() == 2);
  CHECK(j["plot"]["curve"].size() == 100);
  // The reference's value for this window.
  Json go = Json::parse(read_zstd(corpus_path("go123-gc-stress.trace.analysis.json.zst")));
  CHECK(std::abs(j["mmu"]["windows"][0]["mmu"].number() - go["mmu"]["stw"]["10ms"].number()) <= 1e-6);

  // The worst window's start, in the text, counts from the trace's first event.
  std::string text, one;
  REQUIRE(run_command(cli_path() + " mmu --window=1us --worst=1 " + trace("go123-gc-stress"), &text) == 0);
  REQUIRE(run_command(cli_path() + " mmu --json --window=1us --worst=1 " + trace("go123-gc-stress"), &one) == 0);
  std::string stats_json;
  REQUIRE(run_command(cli_path() + " stats --json " + trace("go123-gc-stress"), &stats_json) == 0);
  const int64_t since_start = Json::parse(one)["mmu"]["windows"][0]["worst"][0]["time"].int64() -
                              Json::parse(stats_json)["time"]["start"].int64();
  const size_t line = text.find("\n       1µs");
  REQUIRE(line != std::string::npos);
  const std::string row = text.substr(line + 1, text.find('\n', line + 1) - line - 1);
  const std::string first = row.substr(row.rfind("  ") + 2);  // "464µs: 0.0000"
  const std::string value = first.substr(0, first.find(':'));
  double ns = std::stod(value);
  if (value.find("ms") != std::string::npos) ns *= 1e6;
  else if (value.find("µs") != std::string::npos) ns *= 1e3;
  else if (value.find("ns") == std::string::npos) ns *= 1e9;
  INFO(row);
  CHECK(std::llround(ns) == since_start);

  run("mmu --flags=nonsense " + trace("go123-gc-stress"), &rc);
  CHECK(rc != 0);
  run("mmu --window=banana " + trace("go123-gc-stress"), &rc);
  CHECK(rc != 0);
}

TEST_CASE("gotrace json lists the analyses and prints one as the package does", "[analysis][cli]") {
  int rc = -1;
  std::string list = run("json", &rc);
  CHECK(rc == 0);
  CHECK(list.find("summary  (made for the others: no JSON of its own)\ngoroutineGroups\n") == 0);
  CHECK(list.find("\ntimeline  (made for the others") != std::string::npos);
  // Each listed without the mark prints; each with it says why not.
  std::istringstream lines(list);
  int printed = 0;
  for (std::string line; std::getline(lines, line);) {
    const bool own = line.find(' ') == std::string::npos;
    const std::string name = line.substr(0, line.find(' '));
    int status = -1;
    const std::string out = run("json " + name + " " + trace("go123-annotations"), &status);
    INFO(line << "\n" << out.substr(0, 200));
    CHECK(status == (own ? 0 : 1));
    if (own) printed++;
    else CHECK(out.find("has no JSON of its own") != std::string::npos);
  }
  CHECK(printed == 4);
  std::string types = run("json taskTypes " + trace("go123-annotations-stress"), &rc);
  CHECK(rc == 0);
  std::string tasks = run("tasks --json " + trace("go123-annotations-stress"), &rc);
  const Json want_doc = Json::parse(tasks), got_doc = Json::parse(types);
  const Json& want = want_doc["types"];
  const Json& got = got_doc["types"];
  REQUIRE(want.size() > 0);
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); i++) {
    CHECK(got[i]["name"].string() == want[i]["name"].string());
    CHECK(got[i]["count"].number() == want[i]["count"].number());
  }
  std::string bad = run("json nothing " + trace("go123-annotations"), &rc);
  CHECK(rc == 1);
  CHECK(bad.find("no analysis called 'nothing'") != std::string::npos);
  bad = run("json summary " + trace("go123-annotations"), &rc);
  CHECK(rc == 1);
  CHECK(bad.find("has no JSON of its own") != std::string::npos);
}

// What a user gets wrong, or a machine fails at: a clear error and a failing status,
// never a silent success or a raw library message.
TEST_CASE("bad values and bad files and failed writes get clear errors", "[analysis][cli]") {
  const std::string whole = corpus_path("go123-workload.trace");
  const std::string t = trace("go123-workload");
  // A trace cut in the middle of a batch, an empty file, a directory.
  const std::string dir = scratch_path("a-directory");
  std::filesystem::create_directories(dir);
  const std::string cut = scratch_path("cut.trace"), empty = scratch_path("empty.trace");
  {
    std::vector<uint8_t> bytes = read_bytes(whole);
    bytes.resize(bytes.size() / 2);
    std::ofstream(cut, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    std::ofstream(empty, std::ios::binary).flush();
  }
  struct Case {
    std::string args;
    int status;
    std::string says;
  };
  const Case cases[] = {
      {"bench " + cut, 1, "(no figures: the trace does not read to its end)"},
      {"bench -n abc " + t, 1, "--n wants a whole number from 1 to 1000000, not 'abc'"},
      {"timeline " + t + " --track=proc:0 --pixels=-5", 1, "--pixels wants a whole number from 1 to 1000000000, not -5"},
      {"pprof --type=sync --top=abc " + t, 1, "--top wants a whole number from 1 to"},
      {"pprof --type=sync --top=-1 " + t, 1, "--top wants a whole number from 1 to"},
      {"mmu --worst=abc " + t, 1, "--worst wants a whole number from 0 to 1000000, not 'abc'"},
      {"critical-path " + t + " --task-type=client --slowest=abc", 1, "--slowest wants a number, not 'abc'"},
      {"diff --top=-1 " + t + " " + t, 1, "--top wants a whole number from 1 to"},
      {"critical-path " + cut + " --goroutine=999999", 1, "; the trace could be read only in part: "},
      {"stats '" + dir + "'", 1, ": Is a directory"},
      {"stats '" + empty + "'", 1, "format       unknown (no Go execution trace header)"},
      {"diff - - < " + t, 1, "standard input can be read once"},
      {"help stats", 0, "Usage: gotrace stats"},
      {"help nosuch", 2, "gotrace: unknown command nosuch"},
      // Flags as typed, values where none is taken, output forms that exclude each other.
      {"stats -x " + t, 2, "gotrace stats: unknown option -x\n"},
      {"stats --json=yes " + t, 2, "gotrace stats: --json takes no value (given 'yes')"},
      {"timeline " + t + " --track=proc:zero", 1, "--track wants a whole number, not 'zero'"},
      {"tasks --json --list " + t, 2, "gotrace tasks: --json and --list cannot be given together"},
      {"goroutines --group=main.main --json " + t, 2, "--group and --json cannot be given together"},
      {"pprof --type=sync --folded -o x.pb.gz " + t, 2, "--folded and -o cannot be given together"},
      {"critical-path " + t + " --goroutine=1 --json --segments", 2, "--json and --segments cannot be given together"},
  };
  for (const Case& c : cases) {
    int rc = -1;
    const std::string out = run(c.args, &rc);
    INFO(c.args << "\n" << out);
    CHECK(rc == c.status);
    CHECK(out.find(c.says) != std::string::npos);
    CHECK(out.find("stoi") == std::string::npos);
  }
  // Standard output on a full disk.
  std::string full;
  CHECK(run_command(cli_path() + " stats " + t + " 2>&1 >/dev/full", &full) == 1);
  CHECK(full.find("gotrace stats: cannot write the output: No space left on device") != std::string::npos);
  // A header and no events: the read's error, not a complaint about a name never given.
  int rc = -1;
  const std::string header = scratch_path("header.trace");
  {
    std::vector<uint8_t> bytes = read_bytes(whole);
    bytes.resize(16);
    std::ofstream(header, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), 16);
  }
  const std::string out = run("pprof --type=sync --top '" + header + "'", &rc);
  INFO(out);
  CHECK(rc == 1);
  CHECK(out.find("no frequency event found") != std::string::npos);
  CHECK(out.find("matching goroutines") == std::string::npos);
}

// The text of gotrace diff: the stacks listed under a profile each read differently (four
// of net's changed stacks here end in the same functions, told apart by a deeper caller),
// and the MMU lines are aligned whatever the units' bytes ("µs" is two).
TEST_CASE("gotrace diff names each changed stack apart and aligns its columns", "[analysis][cli]") {
  int rc = -1;
  const std::string out = run("diff " + trace("go123-workload") + " '" + newest_path("go127-workload.trace") + "'", &rc);
  INFO(out);
  REQUIRE(rc == 0);
  std::istringstream lines(out);
  std::vector<std::string> listed;  // the stacks under the current profile
  std::vector<size_t> mmu_widths;
  int profiles = 0, stacks = 0;
  bool in_profile = false;
  auto chars = [](const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
  };
  for (std::string line; std::getline(lines, line);) {
    if (line.find(" profile: ") != std::string::npos) {
      listed.clear();
      profiles++;
      in_profile = true;
      continue;
    }
    if (line.empty()) in_profile = false;
    if (line.rfind("  MMU over ", 0) == 0) mmu_widths.push_back(chars(line.substr(0, line.find('%'))));
    // "  %13s  %s": a change, then the stack's name.
    if (in_profile && line.size() > 17) {
      const std::string name = line.substr(17);
      CHECK(std::find(listed.begin(), listed.end(), name) == listed.end());
      listed.push_back(name);
      stacks++;
    }
  }
  CHECK(profiles == 4);
  CHECK(stacks == 20);
  REQUIRE(mmu_widths.size() >= 5);
  for (size_t w : mmu_widths) CHECK(w == mmu_widths[0]);
}

TEST_CASE("gotrace diff counts the tasks that do not end and gives them no duration", "[analysis][cli]") {
  // Each trace's one task (unnamed) begins and never ends.
  int rc = -1;
  const std::string out = run("diff " + trace("go123-cpu-profile") + " '" + newest_path("go124-cpu-profile.default.trace") + "'", &rc);
  INFO(out);
  REQUIRE(rc == 0);
  const std::string tasks = out.substr(out.find("Task types:"), out.find("Region types:") - out.find("Task types:"));
  CHECK(tasks.find("1 -> 1") != std::string::npos);
  CHECK(tasks.find("- -> -") != std::string::npos);
  CHECK(tasks.find("0s -> 0s") == std::string::npos);
  CHECK(tasks.find("Not ended (counted, no duration):\n    (none): 1 -> 1") != std::string::npos);
  const std::string json = run("diff --json " + trace("go123-cpu-profile") + " '" + newest_path("go124-cpu-profile.default.trace") + "'", &rc);
  CHECK(json.find("\"not_ended\": {\n        \"before\": 1,\n        \"after\": 1\n") != std::string::npos);
}
