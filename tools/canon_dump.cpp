// canon-dump, streaming: the canonical form of a `gotrace dump` / `go tool trace -d=1`
// stream (or a legacy listing), exactly as ../shared/tools/canon-dump prints it, but
// fast enough for multi-gigabyte dumps. Reads stdin, writes stdout.
//
// Go breaks ties between equal timestamps in an order that varies between runs, then
// moves the later event forward by 1 ns. Events whose times are less than 8 ns apart
// form a cluster; a cluster prints as "@<first time>" and then its events, without
// their times, sorted.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

struct Record {
  std::optional<long long> time;
  std::string text;
};

std::optional<size_t> number_end(const std::string& s, size_t i, long long& v) {
  size_t j = i;
  if (j < s.size() && s[j] == '-') j++;
  size_t digits = j;
  while (j < s.size() && s[j] >= '0' && s[j] <= '9') j++;
  if (j == digits) return std::nullopt;
  v = std::stoll(s.substr(i, j - i));
  return j;
}

std::vector<std::string> cluster;
long long cluster_time = 0, last_time = 0;
bool have_last = false;
std::string out;

void flush_out(bool force = false) {
  if (force || out.size() > (1 << 20)) {
    std::fwrite(out.data(), 1, out.size(), stdout);
    out.clear();
  }
}

void flush_cluster() {
  if (cluster.empty()) return;
  out += "@" + std::to_string(cluster_time) + "\n";
  std::sort(cluster.begin(), cluster.end());
  for (auto& t : cluster) out += t;
  cluster.clear();
  flush_out();
}

void emit(Record&& r) {
  if (!r.time) {
    flush_cluster();
    have_last = false;
    out += r.text;
    return;
  }
  long long t = *r.time;
  if (have_last && t - last_time >= 0 && t - last_time < 8) {
    cluster.push_back(std::move(r.text));
  } else {
    flush_cluster();
    cluster_time = t;
    cluster.push_back(std::move(r.text));
  }
  last_time = t;
  have_last = true;
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::optional<Record> current;  // an M= record that may take continuation lines
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!std::cin.eof()) line += '\n';
    long long v = 0;
    if (line.rfind("M=", 0) == 0) {
      if (current) emit(std::move(*current));
      Record r;
      for (size_t t = line.find(" Time="); t != std::string::npos; t = line.find(" Time=", t + 1)) {
        if (auto end = number_end(line, t + 6, v)) {
          r.time = v;
          line = line.substr(0, t) + " Time=_" + line.substr(*end);
          break;
        }
      }
      r.text = std::move(line);
      current = std::move(r);
    } else if (auto end = number_end(line, 0, v); end && *end < line.size() && line[*end] == ' ') {
      if (current) emit(std::move(*current));
      current.reset();
      emit(Record{v, "_ " + line.substr(*end + 1)});
    } else if (current && (line[0] == '\t' || line.rfind("Stack=", 0) == 0 || line.rfind("TransitionStack=", 0) == 0 ||
                           line == "\n")) {
      current->text += line;
    } else {
      if (current) emit(std::move(*current));
      current.reset();
      emit(Record{std::nullopt, line});
    }
  }
  if (current) emit(std::move(*current));
  flush_cluster();
  flush_out(true);
  return 0;
}
