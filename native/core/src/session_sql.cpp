// TraceSession's SQL tables: what they are computed from (kept), and their columns as
// JavaScript receives them.
#include <cstring>

#include "gotrace/session.h"

namespace gotrace {

using namespace gotrace::analysis;

namespace {

// The tables computed from the summary (and its intervals); the others need neither.
bool needs_summary(std::string_view table) {
  return table == "goroutines" || table == "goroutine_blocks" || table == "g_transitions" || table == "tasks" ||
         table == "regions";
}

// The tables of single events (SqlKindEvents).
bool needs_kinds(std::string_view table) {
  return table == "logs" || table == "metrics" || table == "cpu_samples" || table == "labels" || table == "ranges";
}

// Every table's name and columns, and its row count in `src` when given.
Value tables_value(const SqlSource* src) {
  Value tables = Value::array();
  for (const SqlTableSpec& t : analysis::sql_tables()) {
    Value columns = Value::array();
    for (const SqlColumnSpec& c : t.columns) {
      Value col = Value::object();
      col.set("name", std::string(c.name));
      col.set("type", std::string(to_string(c.type)));
      if (auto values = sql_column_values(t.name, c.name); !values.empty()) col.set("values", Value(std::move(values)));
      columns.push(std::move(col));
    }
    Value table = Value::object();
    table.set("name", std::string(t.name));
    if (src) table.set("rows", static_cast<double>(sql_table_rows(*src, t.name)));
    table.set("columns", std::move(columns));
    tables.push(std::move(table));
  }
  return tables;
}

}  // namespace

SqlSource TraceSession::sql_source(int64_t trace_id, std::string path, bool summary, bool stats, bool kinds) {
  if (!sql_) sql_ = std::make_unique<SqlParts>();
  if (stats && !sql_->stats) sql_->stats = compute_stats(read_, &events_by_type());
  if (kinds && !sql_->kinds) sql_->kinds = sql_kind_events(read_.store, &events_by_type());
  if (summary && !sql_->summarized) {
    sql_->summary = summarize_intervals(read_.store, sql_->intervals);
    sql_->summarized = true;
  }
  return SqlSource{read_, sql_->stats ? &*sql_->stats : nullptr, sql_->kinds ? &*sql_->kinds : nullptr, sql_->summary, sql_->intervals, trace_id,
                   std::move(path)};
}

Value TraceSession::sql_tables() { return tables_value(nullptr); }

Value TraceSession::sql_schema() {
  const SqlSource src = sql_source(0, {}, true, true, true);
  return tables_value(&src);
}

SqlTable TraceSession::sql_table(std::string_view name, int64_t trace_id, std::string path, size_t offset,
                                 std::optional<size_t> limit) {
  return analysis::sql_table(sql_source(trace_id, std::move(path), needs_summary(name), name == "traces",
                        needs_kinds(name)), name, offset,
                             limit);
}

void TraceSession::sql_parquet(std::string_view name, int64_t trace_id, std::string path, size_t from,
                               std::optional<size_t> to, const ParquetSink& sink) {
  write_sql_parquet(sql_source(trace_id, std::move(path), needs_summary(name), name == "traces",
                        needs_kinds(name)), name, sink, from,
                    to);
}

Value TraceSession::sql_table_value(std::string_view name, int64_t trace_id, std::string path, size_t offset,
                                    std::optional<size_t> limit, bool int64_bytes) {
  SqlTable t = sql_table(name, trace_id, std::move(path), offset, limit);
  Value columns = Value::array();
  for (SqlColumn& c : t.columns) {
    Value col = Value::object();
    col.set("name", std::string(c.name));
    col.set("type", std::string(to_string(c.type)));
    switch (c.type) {
      case SqlType::BigInt:
        if (int64_bytes) {
          std::vector<uint8_t> bytes(c.ints.size() * sizeof(int64_t));
          if (!bytes.empty()) std::memcpy(bytes.data(), c.ints.data(), bytes.size());
          col.set("int64", std::move(bytes));
        } else {
          col.set("values", f64_column(c.ints));
        }
        break;
      case SqlType::Integer:
        col.set("values", std::move(c.int32s));
        break;
      case SqlType::Double:
        col.set("values", std::move(c.doubles));
        break;
      case SqlType::Boolean:
        col.set("values", std::move(c.bools));
        break;
      case SqlType::Varchar:
        col.set("dictionary", Value(Value::Strings(std::move(c.dictionary))));
        col.set("codes", std::move(c.int32s));
        break;
    }
    if (!c.nulls.empty()) col.set("nulls", std::move(c.nulls));
    columns.push(std::move(col));
  }
  Value out = Value::object();
  out.set("name", std::string(t.name));
  out.set("rows", static_cast<double>(t.rows));
  out.set("columns", std::move(columns));
  return out;
}

}  // namespace gotrace
