// A table filled a row at a time: each row sets the columns it has, by index (from
// column(name), once per table), and end_row() makes the others NULL. Strings go into
// each column's dictionary once.
#pragma once

#include "gotrace/go_int.h"

#include <array>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gotrace/analysis/sql_tables.h"

namespace gotrace::analysis::detail {

class SqlTableBuilder {
 public:
  explicit SqlTableBuilder(const SqlTableSpec& spec, int64_t trace_id) : trace_id_(trace_id) {
    table_.name = spec.name;
    for (const SqlColumnSpec& c : spec.columns) {
      SqlColumn& col = table_.columns.emplace_back();
      col.name = c.name;
      col.type = c.type;
    }
    codes_.resize(table_.columns.size());
    std::array<int32_t, 16> none;
    none.fill(-1);
    recent_.assign(table_.columns.size(), none);
  }

  size_t column(std::string_view name) const {
    for (size_t k = 0; k < table_.columns.size(); k++)
      if (table_.columns[k].name == name) return k;
    throw std::logic_error("no column " + std::string(name) + " in table " + std::string(table_.name));
  }

  void reserve(size_t rows) {
    for (SqlColumn& c : table_.columns) values_reserve(c, rows);
  }

  void big(size_t k, int64_t v) { table_.columns[k].ints.push_back(v); }
  void integer(size_t k, int32_t v) { table_.columns[k].int32s.push_back(v); }
  void real(size_t k, double v) { table_.columns[k].doubles.push_back(v); }
  void boolean(size_t k, bool v) { table_.columns[k].bools.push_back(v ? 1 : 0); }
  void text(size_t k, std::string_view s) { table_.columns[k].int32s.push_back(code(k, s)); }
  // A time of the trace clock, as ns since the trace's first event.
  void time(size_t k, Time t) { big(k, wrap_sub(t, origin_)); }  // int64 arithmetic as Go's
  void null(size_t k) {
    SqlColumn& c = table_.columns[k];
    c.nulls.resize(table_.rows + 1, 0);
    c.nulls[table_.rows] = 1;
    push_zero(c);
  }

  void set_origin(Time origin) { origin_ = origin; }
  Time origin() const { return origin_; }

  // Ends the row: trace_id and the columns it did not set (NULL).
  void end_row() {
    SqlColumn& id = table_.columns[0];
    id.ints.push_back(trace_id_);
    for (size_t k = 1; k < table_.columns.size(); k++) {
      SqlColumn& c = table_.columns[k];
      if (values_size(c) == table_.rows) null(k);
    }
    table_.rows++;
  }

  SqlTable take() {
    for (SqlColumn& c : table_.columns)
      if (!c.nulls.empty()) c.nulls.resize(table_.rows, 0);
    return std::move(table_);
  }

 private:
  static size_t values_size(const SqlColumn& c) {
    switch (c.type) {
      case SqlType::BigInt: return c.ints.size();
      case SqlType::Integer:
      case SqlType::Varchar: return c.int32s.size();
      case SqlType::Double: return c.doubles.size();
      case SqlType::Boolean: return c.bools.size();
    }
    return 0;
  }
  static void values_reserve(SqlColumn& c, size_t n) {
    switch (c.type) {
      case SqlType::BigInt: c.ints.reserve(n); break;
      case SqlType::Integer:
      case SqlType::Varchar: c.int32s.reserve(n); break;
      case SqlType::Double: c.doubles.reserve(n); break;
      case SqlType::Boolean: c.bools.reserve(n); break;
    }
  }
  static void push_zero(SqlColumn& c) {
    switch (c.type) {
      case SqlType::BigInt: c.ints.push_back(0); break;
      case SqlType::Integer:
      case SqlType::Varchar: c.int32s.push_back(0); break;
      case SqlType::Double: c.doubles.push_back(0); break;
      case SqlType::Boolean: c.bools.push_back(0); break;
    }
  }

  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  int32_t code(size_t k, std::string_view s) {
    // Most columns repeat a few strings (states, reasons, names): a small cache by a cheap
    // hash, checked against the dictionary's string, spares hashing the whole string.
    auto& recent = recent_[k];
    auto& dict = table_.columns[k].dictionary;
    const size_t slot = (s.size() * 31 + (s.empty() ? 0 : static_cast<unsigned char>(s.back()) * 7 +
                                                          static_cast<unsigned char>(s[s.size() / 2]))) % recent.size();
    if (const int32_t c = recent[slot]; c >= 0 && dict[static_cast<size_t>(c)] == s) return c;
    auto& codes = codes_[k];
    int32_t c;
    if (auto it = codes.find(s); it != codes.end()) {
      c = it->second;
    } else {
      c = static_cast<int32_t>(dict.size());
      dict.emplace_back(s);
      codes.emplace(std::string(s), c);
    }
    recent[slot] = c;
    return c;
  }

  SqlTable table_;
  int64_t trace_id_;
  Time origin_ = 0;
  std::vector<std::unordered_map<std::string, int32_t, Hash, std::equal_to<>>> codes_;
  std::vector<std::array<int32_t, 16>> recent_;
};

// The trace clock's value at time 0 of the tables: the first event's.
inline Time time_origin(const EventStore& s) { return s.size() ? s.time(0) : 0; }

}  // namespace gotrace::analysis::detail
