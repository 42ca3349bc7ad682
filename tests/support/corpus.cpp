#include "corpus.h"

#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fnmatch.h>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>

#include "gotrace/event_format.h"
#include "sha256.h"

namespace fs = std::filesystem;

namespace gotrace::test {

std::string corpus_dir() {
  const char* dir = std::getenv("GOTRACE_CORPUS_DIR");
  return dir && *dir ? dir : GOTRACE_CORPUS_DIR;
}
std::string corpus_path(const std::string& name) { return corpus_dir() + "/go/" + name; }
std::string newest_path(const std::string& name) { return corpus_dir() + "/newest/" + name; }
std::string golden_dir() { return corpus_dir() + "/golden"; }
std::string fuzz_dir() { return corpus_dir() + "/fuzz"; }
std::string cli_path() { return GOTRACE_CLI_PATH; }

std::optional<std::string> large_trace_path() {
  if (corpus_sampled()) return std::nullopt;  // the sanitized run: the corpus's go123-workload is the same program
  const char* dir = std::getenv("GOTRACE_SHARED_DIR");
  std::string path = std::string(dir && *dir ? dir : GOTRACE_SHARED_DIR) + "/corpus/go/go123-workload-large.trace.zst";
  if (!fs::exists(path)) return std::nullopt;
  return path;
}

bool file_exists(const std::string& path) { return fs::exists(path); }

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

std::string read_text(const std::string& path) {
  auto b = read_bytes(path);
  return std::string(b.begin(), b.end());
}

std::string read_zstd(const std::string& path) {
  auto in = read_bytes(path);
  ZSTD_DStream* ds = ZSTD_createDStream();
  ZSTD_initDStream(ds);
  std::string out;
  std::vector<char> buf(ZSTD_DStreamOutSize());
  ZSTD_inBuffer ib{in.data(), in.size(), 0};
  while (ib.pos < ib.size) {
    ZSTD_outBuffer ob{buf.data(), buf.size(), 0};
    size_t r = ZSTD_decompressStream(ds, &ob, &ib);
    if (ZSTD_isError(r)) {
      ZSTD_freeDStream(ds);
      throw std::runtime_error("zstd: " + path + ": " + ZSTD_getErrorName(r));
    }
    out.append(buf.data(), ob.pos);
  }
  ZSTD_freeDStream(ds);
  return out;
}

bool corpus_sampled() {
  const char* v = std::getenv("GOTRACE_CORPUS_SAMPLE");
  return v && *v && std::string(v) != "0";
}

namespace {

// GOTRACE_CORPUS_SAMPLE=1 (scripts/test-sanitized.sh sets it): the corpus-wide tests read a
// sample, since under the sanitizers the whole corpus takes a quarter of CI's time and the
// Release run has just read all of it. The sample keeps every trace of at most 1 MB, the
// smallest of each program (so every format, program and mode is read) and Go 1.27's
// stress-mode traces (hundreds of generations: long lives, regions and syscalls through
// parts): under half the bytes.
constexpr uintmax_t kSampleSmallBytes = 1'000'000;

// The program a trace records: corpus/newest names its traces PROGRAM.MODE.
std::string program_of(const std::string& name) { return name.substr(0, name.find('.')); }

std::vector<std::string> sampled(const std::vector<std::string>& names) {
  std::vector<uintmax_t> sizes;
  std::map<std::string, size_t> smallest;  // program -> index in names
  for (size_t k = 0; k < names.size(); k++) {
    sizes.push_back(fs::file_size(trace_path(names[k])));
    auto [it, added] = smallest.try_emplace(program_of(names[k]), k);
    if (!added && sizes[k] < sizes[it->second]) it->second = k;
  }
  std::vector<std::string> kept;
  for (size_t k = 0; k < names.size(); k++) {
    const std::string& n = names[k];
    const bool go127_stress = n.rfind("newest/go127-", 0) == 0 && n.ends_with(".stress");
    if (sizes[k] <= kSampleSmallBytes || smallest.at(program_of(n)) == k || go127_stress) kept.push_back(n);
  }
  return kept;
}

// Names of the traces of corpus/go matching any of the globs, sorted.
std::vector<std::string> go_traces(const std::vector<std::string>& globs) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(corpus_dir() + "/go")) {
    std::string n = e.path().filename().string();
    if (n.size() < 7 || n.substr(n.size() - 6) != ".trace") continue;
    std::string base = n.substr(0, n.size() - 6);
    for (const auto& g : globs) {
      if (fnmatch(g.c_str(), base.c_str(), 0) == 0) {
        names.push_back(base);
        break;
      }
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::vector<std::string> corpus_traces(const std::vector<std::string>& globs) {
  std::vector<std::string> names = go_traces(globs);
  return corpus_sampled() ? sampled(names) : names;
}

std::vector<std::string> every_trace() {
  std::vector<std::string> names = go_traces({"*"});
  for (const auto& e : fs::directory_iterator(corpus_dir() + "/newest")) {
    std::string n = e.path().filename().string();
    if (n.size() > 6 && n.substr(n.size() - 6) == ".trace") names.push_back("newest/" + n.substr(0, n.size() - 6));
  }
  std::sort(names.begin(), names.end());
  return corpus_sampled() ? sampled(names) : names;
}

bool is_newest(const std::string& name) { return name.rfind("newest/", 0) == 0; }

std::string trace_path(const std::string& name) {
  return is_newest(name) ? newest_path(name.substr(7) + ".trace") : corpus_path(name + ".trace");
}

std::vector<std::string> every_trace_path(const std::string& dir) {
  std::vector<std::string> paths;
  for (const std::string& name : every_trace()) {
    if (dir.empty() || (dir == "newest") == is_newest(name)) paths.push_back(trace_path(name));
  }
  return paths;
}

void for_each_v2_trace_with_resume_points(
    const std::function<void(const std::string&, const std::vector<uint8_t>&, const ReadResult&)>& f) {
  for (const std::string& name : every_trace()) {
    const std::vector<uint8_t> bytes = read_bytes(trace_path(name));
    ReadOptions o;
    o.resume_points = true;
    const ReadResult whole = read_trace(bytes, o);
    if (!whole.store.format.legacy && whole.ok()) f(name, bytes, whole);
  }
}

ReferenceListing reference_listing(const std::string& base) {
  ReferenceListing ref;
  if (fs::exists(base + ".zst")) {
    ref.found = true;
    ref.text = strip_exit_line(read_zstd(base + ".zst"));
    return ref;
  }
  return reference_hash(base);
}

ReferenceListing reference_hash(const std::string& base) {
  ReferenceListing ref;
  if (!fs::exists(base + ".canon.sha256")) return ref;
  std::istringstream line(read_text(base + ".canon.sha256"));
  std::string lines, exit_code;
  line >> ref.canon_sha256 >> lines >> exit_code;
  if (ref.canon_sha256.size() != 64 || lines.rfind("lines=", 0) != 0 || exit_code.rfind("exit=", 0) != 0)
    throw std::runtime_error("malformed reference hash " + base + ".canon.sha256");
  ref.found = true;
  ref.lines = std::stoul(lines.substr(6));
  ref.exit_code = std::stoi(exit_code.substr(5));
  return ref;
}

std::string canonical_difference(const std::string& ours, const ReferenceListing& ref) {
  if (!ref.found) return "no reference listing";
  std::string canon = canon_dump(ours);
  if (!ref.text) {
    size_t lines = static_cast<size_t>(std::count(ours.begin(), ours.end(), '\n'));
    std::string hash = sha256_hex(canon);
    if (hash == ref.canon_sha256 && lines == ref.lines) return "";
    return "canonical sha256 " + hash + " lines=" + std::to_string(lines) + ", Go's " + ref.canon_sha256 +
           " lines=" + std::to_string(ref.lines);
  }
  std::string theirs = canon_dump(*ref.text);
  if (canon == theirs) return "";
  size_t at = 0, line = 1;
  while (at < canon.size() && at < theirs.size() && canon[at] == theirs[at]) line += canon[at++] == '\n';
  auto line_at = [&](const std::string& s) {
    size_t begin = at == 0 ? std::string::npos : s.rfind('\n', at - 1);
    begin = begin == std::string::npos ? 0 : begin + 1;
    return s.substr(begin, s.find('\n', begin) - begin);
  };
  return "canonical line " + std::to_string(line) + ": ours `" + line_at(canon) + "`, Go's `" + line_at(theirs) + "`";
}

ReadResult read_go123(std::span<const uint8_t> bytes) {
  ReadOptions options;
  options.syncs = SyncPlacement::Go123;
  return read_trace(bytes, options);
}

ReadResult read_go127(std::span<const uint8_t> bytes) {
  ReadOptions options;
  options.syncs = SyncPlacement::Go127;
  return read_trace(bytes, options);
}

std::string dump_text(const ReadResult& r, GoListing listing) {
  std::string out;
  for (size_t i = 0; i < r.store.size(); i++) {
    append_go_event_string(out, r.store, i, listing);
    out += '\n';
  }
  if (r.error) out += std::string(r.error->what()) + "\n";
  return out;
}

std::string strip_exit_line(std::string text) {
  if (text.empty()) return text;
  size_t end = text.back() == '\n' ? text.size() - 1 : text.size();
  size_t start = text.rfind('\n', end - 1);
  start = start == std::string::npos ? 0 : start + 1;
  if (text.compare(start, 5, "exit=") == 0) text.erase(start);
  return text;
}

// A port of ../shared/tools/canon-dump.
std::string canon_dump(const std::string& dump) {
  struct Record {
    bool timed = false;
    long long time = 0;
    std::string text;
  };
  std::vector<Record> records;
  long current = -1;  // index of the record continuation lines attach to
  // Parses "-?\d+" at s[i]; returns the end index or npos.
  auto number_at = [](const std::string& s, size_t i, long long& v) -> size_t {
    size_t j = i;
    if (j < s.size() && s[j] == '-') j++;
    size_t digits = j;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') j++;
    if (j == digits) return std::string::npos;
    v = std::stoll(s.substr(i, j - i));
    return j;
  };
  size_t pos = 0;
  std::string line;
  while (pos < dump.size()) {
    size_t nl = dump.find('\n', pos);
    size_t end = nl == std::string::npos ? dump.size() : nl;
    line.assign(dump, pos, end - pos);
    line += '\n';
    pos = end + 1;
    long long v = 0;
    size_t after;
    if (line.rfind("M=", 0) == 0) {
      Record r;
      for (size_t t = line.find(" Time="); t != std::string::npos; t = line.find(" Time=", t + 1)) {
        if ((after = number_at(line, t + 6, v)) != std::string::npos) {
          r.timed = true;
          r.time = v;
          line = line.substr(0, t) + " Time=_" + line.substr(after);
          break;
        }
      }
      r.text = line;
      records.push_back(r);
      current = static_cast<long>(records.size()) - 1;
    } else if ((after = number_at(line, 0, v)) != std::string::npos && line[after] == ' ') {
      current = -1;
      records.push_back({true, v, "_ " + line.substr(after + 1)});
    } else if (current >= 0 && (line[0] == '\t' || line.rfind("Stack=", 0) == 0 ||
                                line.rfind("TransitionStack=", 0) == 0 || line == "\n")) {
      records[current].text += line;
    } else {
      current = -1;
      records.push_back({false, 0, line});
    }
  }
  std::string out;
  std::vector<std::string> cluster;
  long long first = 0, last = 0;
  bool have_last = false;
  auto flush = [&] {
    if (cluster.empty()) return;
    out += "@" + std::to_string(first) + "\n";
    std::sort(cluster.begin(), cluster.end());
    for (auto& t : cluster) out += t;
    cluster.clear();
  };
  for (auto& r : records) {
    if (!r.timed) {
      flush();
      have_last = false;
      out += r.text;
      continue;
    }
    if (have_last && r.time - last >= 0 && r.time - last < 8) {
      cluster.push_back(r.text);
    } else {
      flush();
      first = r.time;
      cluster.push_back(r.text);
    }
    last = r.time;
    have_last = true;
  }
  flush();
  return out;
}

int run_command(const std::string& cmd, std::string* out) {
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char buf[1 << 14];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0)
    if (out) out->append(buf, n);
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace gotrace::test
