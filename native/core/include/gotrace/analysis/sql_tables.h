// The SQL tables of a trace (docs/sql.md): what a trace holds, as tables a SQL engine
// loads column by column. Every table has trace_id first, so that the tables of many
// traces query as one; times are ns since the trace's first event (traces.time_origin
// is that event's trace clock). The hosts (the bindings, gotrace-sql) only move the
// columns into DuckDB or Parquet.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gotrace/analysis/summary.h"
#include "gotrace/reader.h"
#include "gotrace/stats.h"

namespace gotrace::analysis {

enum class SqlType : uint8_t { BigInt, Integer, Double, Varchar, Boolean };
std::string_view to_string(SqlType t);  // as SQL names it: BIGINT, INTEGER, ...

struct SqlColumnSpec {
  std::string_view name;
  SqlType type;
};

struct SqlTableSpec {
  std::string_view name;
  std::span<const SqlColumnSpec> columns;
};

// Every table, in the order docs/sql.md describes them.
std::span<const SqlTableSpec> sql_tables();
// The values a VARCHAR column can hold when they are a closed set (event kinds and types,
// states, resources...): a host may store it as an ENUM of them. Empty for the others.
std::vector<std::string> sql_column_values(std::string_view table, std::string_view column);
const SqlTableSpec* find_sql_table(std::string_view name);

// One column's values. BIGINT in `ints`, INTEGER in `int32s`, DOUBLE in `doubles`,
// BOOLEAN in `bools` (0 or 1); VARCHAR as codes (in `int32s`) into `dictionary`, each
// string once. `nulls` is empty when no value is missing, else 1 per missing value.
struct SqlColumn {
  std::string_view name;
  SqlType type = SqlType::BigInt;
  std::vector<int64_t> ints;
  std::vector<int32_t> int32s;
  std::vector<double> doubles;
  std::vector<uint8_t> bools;
  std::vector<std::string> dictionary;
  std::vector<uint8_t> nulls;

  size_t size() const;
  bool null(size_t row) const { return !nulls.empty() && nulls[row]; }
  // The string of a VARCHAR row (empty when null).
  std::string_view text(size_t row) const {
    return null(row) ? std::string_view() : std::string_view(dictionary[static_cast<size_t>(int32s[row])]);
  }
};

struct SqlTable {
  std::string_view name;
  size_t rows = 0;
  std::vector<SqlColumn> columns;

  const SqlColumn& column(std::string_view name) const;  // throws for an unknown one
};

// The events of the kinds with a table of a row per event (logs, metrics, cpu_samples,
// labels) or paired up into one (ranges; procs: the procs' state transitions, for
// p_transitions), in order: found in one pass for them all, where each table would
// otherwise pass over every event for its few.
struct SqlKindEvents {
  std::vector<size_t> logs, metrics, samples, labels, ranges, procs;
};
// `events_by_type`, if given, is the store's count of events of each type: the lists take
// their memory at once.
SqlKindEvents sql_kind_events(const EventStore& store, const std::array<uint64_t, 256>* events_by_type = nullptr);

// What the tables are computed from. The summary and the goroutine intervals are those
// of summarize_intervals (the summary's own figures, with what they are summed from).
struct SqlSource {
  const ReadResult& read;
  const TraceStats* stats;  // only the traces table reads it (may be null for the others)
  const SqlKindEvents* kinds;  // only the tables of single events read it (may be null for the others)
  const Summary& summary;
  const std::vector<GoInterval>& intervals;
  int64_t trace_id = 0;
  std::string path;  // the traces table's path (may be empty: NULL)
};

// Rows [offset, offset + limit) of a table (all of them without a limit): a host loads a
// large trace's events a slice at a time. Throws for an unknown table.
SqlTable sql_table(const SqlSource& source, std::string_view name, size_t offset = 0,
                   std::optional<size_t> limit = std::nullopt);
// A table's row count, without its values where that is cheaper.
size_t sql_table_rows(const SqlSource& source, std::string_view name);

}  // namespace gotrace::analysis
