// TraceSession's SQL tables: what they are computed from (kept), and their columns as
// JavaScript receives them.
#include <cstring>

#include "gotrace/session.h"

namespace gotrace {

using namespace gotrace::analysis;

namespace {

// What a table is computed from; the empty name stands for every table (sqlSchema's
// row counts).
struct SqlNeeds {
  bool summary = false;    // the goroutine summary
  bool intervals = false;  // its intervals, kept
  bool stats = false;      // the trace's stats
  bool kinds = false;      // the events of the tables of single events
};

SqlNeeds sql_needs(std::string_view table) {
  if (table.empty()) return {true, true, true, true};
  SqlNeeds n;
  n.summary = table == "goroutines" || table == "goroutine_blocks" || table == "g_transitions" || table == "tasks" ||
              table == "regions";
  n.intervals = table == "g_transitions";
  n.stats = table == "traces";
  n.kinds = table == "logs" || table == "metrics" || table == "cpu_samples" || table == "labels" || table == "ranges" ||
            table == "p_transitions";
  return n;
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

SqlSource TraceSession::sql_source(int64_t trace_id, std::string path, std::string_view table) {
  const SqlNeeds needs = sql_needs(table);
  if (!sql_) sql_ = std::make_unique<SqlParts>();
  if (needs.stats && !sql_->stats) sql_->stats = compute_stats(read_, &events_by_type());
  if (needs.kinds && !sql_->kinds) sql_->kinds = sql_kind_events(read_.store, &events_by_type());
  // A summary made while g_transitions was written (sql_parquet) kept no intervals.
  if ((needs.summary && !sql_->summarized) || (needs.intervals && !sql_->intervals_kept)) {
    sql_->intervals.clear();
    sql_->summary = summarize_intervals(read_.store, sql_->intervals);
    sql_->summarized = sql_->intervals_kept = true;
  }
  return SqlSource{read_, sql_->stats ? &*sql_->stats : nullptr, sql_->kinds ? &*sql_->kinds : nullptr,
                   sql_->summary, sql_->intervals, trace_id, std::move(path)};
}

Value TraceSession::sql_tables() { return tables_value(nullptr); }

Value TraceSession::sql_schema() {
  const SqlSource src = sql_source(0, {}, "");
  return tables_value(&src);
}

SqlTable TraceSession::sql_table(std::string_view name, int64_t trace_id, std::string path, size_t offset,
                                 std::optional<size_t> limit) {
  return analysis::sql_table(sql_source(trace_id, std::move(path), name), name, offset, limit);
}

void TraceSession::sql_parquet(std::string_view name, int64_t trace_id, std::string path, size_t from,
                               std::optional<size_t> to, const ParquetSink& sink) {
  // The whole g_transitions table before the summary is made: written as the summary
  // counts its intervals, which are not kept (unless the trace reuses goroutine ids).
  if (name == "g_transitions" && from == 0 && !to && !(sql_ && sql_->summarized)) {
    if (std::optional<Summary> summary = summarize_writing_g_transitions(read_.store, trace_id, sink, &events_by_type())) {
      if (!sql_) sql_ = std::make_unique<SqlParts>();
      sql_->summary = std::move(*summary);
      sql_->summarized = true;
      sql_->intervals_kept = false;
      return;
    }
  }
  write_sql_parquet(sql_source(trace_id, std::move(path), name), name, sink, from, to);
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
