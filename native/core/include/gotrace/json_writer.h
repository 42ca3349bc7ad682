// A small streaming JSON writer: the one place the core turns results into JSON, so
// the CLI's --json output and the wasm bindings print the same objects.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gotrace {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out, bool pretty = false) : out_(out), pretty_(pretty) {}
  // A writer that hands its text to `drain` (which empties the string) whenever an
  // object or array ends past `at` bytes: a large answer (the analysis of a 1 GB trace
  // is gigabytes of JSON) goes out as it is written instead of whole at the end.
  JsonWriter(std::string& out, bool pretty, std::function<void(std::string&)> drain, size_t at = size_t{1} << 20)
      : out_(out), pretty_(pretty), drain_(std::move(drain)), drain_at_(at) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);

  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(int64_t v);
  JsonWriter& value(uint64_t v);
  JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
  JsonWriter& value(unsigned v) { return value(static_cast<uint64_t>(v)); }
  JsonWriter& value(double v);
  JsonWriter& value(bool v);
  JsonWriter& null();

  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

 private:
  void before_value();
  void newline();
  void maybe_drain() {
    if (drain_ && out_.size() >= drain_at_) {
      drain_(out_);
      out_.clear();
    }
  }
  std::string& out_;
  bool pretty_;
  std::function<void(std::string&)> drain_;
  size_t drain_at_ = 0;
  struct Level {
    bool object;
    bool first;
  };
  std::vector<Level> stack_;
  bool after_key_ = false;
};

// Appends s as a JSON string literal (UTF-8 kept; invalid bytes become U+FFFD).
void append_json_string(std::string& out, std::string_view s);

// The JSON text `write` makes with a writer of its own (indented when `pretty`).
template <class F>
std::string json_of(bool pretty, F&& write) {
  std::string out;
  JsonWriter w(out, pretty);
  write(w);
  return out;
}

}  // namespace gotrace
