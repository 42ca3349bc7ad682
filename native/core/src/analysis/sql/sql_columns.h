// Columns of a table written column by column into arrays sized once (the large tables:
// events, g_transitions), rather than a row at a time through SqlTableBuilder: strings
// coded through small tables rather than hashed per row.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gotrace/analysis/sql_tables.h"

namespace gotrace::analysis::detail {

// A VARCHAR column being written: codes, NULL until set, and its dictionary.
class TextColumn {
 public:
  TextColumn(SqlColumn& c, size_t rows) : c_(c) {
    c_.int32s.assign(rows, 0);
    c_.nulls.assign(rows, 1);
    codes_ = c_.int32s.data();
    nulls_ = c_.nulls.data();
  }
  void set(size_t row, int32_t code) {
    codes_[row] = code;
    nulls_[row] = 0;
  }
  // A string of the trace's string table (or another that lives as long): by address.
  int32_t stable(std::string_view s) {
    const auto key = std::pair<const void*, size_t>(s.data(), s.size());
    if (auto it = by_address_.find(key); it != by_address_.end()) return it->second;
    const int32_t code = text(s);
    by_address_.emplace(key, code);
    return code;
  }
  // A string of the store's string table, by its id: a log's message, say, of which a
  // trace has hundreds of thousands (no hash at all).
  int32_t interned(uint32_t id, std::string_view s) {
    if (id >= by_id_.size()) by_id_.resize(size_t{id} + 1, -1);
    int32_t& code = by_id_[id];
    if (code < 0) code = text(s);
    return code;
  }
  int32_t text(std::string_view s) {
    if (auto it = by_text_.find(s); it != by_text_.end()) return it->second;
    const auto code = static_cast<int32_t>(c_.dictionary.size());
    c_.dictionary.emplace_back(s);
    by_text_.emplace(std::string(s), code);
    return code;
  }

 private:
  struct PairHash {
    size_t operator()(const std::pair<const void*, size_t>& p) const {
      return std::hash<const void*>()(p.first) ^ (p.second * 0x9e3779b97f4a7c15ull);
    }
  };
  SqlColumn& c_;
  // The arrays, sized once (their addresses held: no reload through the column).
  int32_t* codes_;
  uint8_t* nulls_;
  std::unordered_map<std::pair<const void*, size_t>, int32_t, PairHash> by_address_;
  struct TextHash {  // finds a string_view without making a string of it
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, int32_t, TextHash, std::equal_to<>> by_text_;
  std::vector<int32_t> by_id_;  // code by string id (-1: none yet)
};

// A BIGINT column: values, NULL until set (when nullable).
class IntColumn {
 public:
  IntColumn(SqlColumn& c, size_t rows, bool nullable) : c_(c) {
    c_.ints.assign(rows, 0);
    if (nullable) c_.nulls.assign(rows, 1);
    values_ = c_.ints.data();
    nulls_ = nullable ? c_.nulls.data() : nullptr;
  }
  void set(size_t row, int64_t v) {
    values_[row] = v;
    if (nulls_) nulls_[row] = 0;
  }
  void id(size_t row, int64_t v) {  // an id, NULL when negative (none)
    if (v >= 0) set(row, v);
  }
  int64_t* data() { return values_; }

 private:
  SqlColumn& c_;
  int64_t* values_;
  uint8_t* nulls_;  // null when the column has no NULL
};

// A table's columns by name, with trace_id filled and `rows` rows.
inline SqlTable sized_table(std::string_view name, int64_t trace_id, size_t rows) {
  SqlTable t;
  t.name = name;
  t.rows = rows;
  for (const SqlColumnSpec& c : find_sql_table(name)->columns) {
    SqlColumn& col = t.columns.emplace_back();
    col.name = c.name;
    col.type = c.type;
  }
  t.columns.front().ints.assign(rows, trace_id);
  return t;
}

inline SqlColumn& column_of(SqlTable& t, std::string_view name) {
  for (SqlColumn& c : t.columns)
    if (c.name == name) return c;
  throw std::logic_error("no column " + std::string(name) + " in table " + std::string(t.name));
}

// A column with no NULL keeps no mask.
inline void drop_empty_null_masks(SqlTable& t) {
  for (SqlColumn& c : t.columns) {
    bool any = false;
    for (uint8_t x : c.nulls)
      if (x) {
        any = true;
        break;
      }
    if (!any) c.nulls.clear();
  }
}

}  // namespace gotrace::analysis::detail
