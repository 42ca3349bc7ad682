// The SQL tables as Parquet files, written by the core itself (docs/sql.md): a host
// hands the bytes to a file and DuckDB's read_parquet (or Spark, Trino...) reads them,
// in parallel and only the columns a query uses, with no value passing through the host.
// Uncompressed pages, one per column and row group: BIGINTs delta-encoded, VARCHARs
// dictionary-encoded, NULLs as definition levels (not stored), min/max statistics on the
// integer columns.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gotrace/analysis/sql_tables.h"

namespace gotrace::analysis {

// Receives a file's bytes in order, a row group at a time.
using ParquetSink = std::function<void(std::span<const uint8_t>)>;

// Rows of a row group: DuckDB reads a file's row groups on parallel threads.
inline constexpr size_t kParquetGroupRows = size_t{1} << 15;

// One Parquet file of a table: write() the table's rows (whole or slice after slice, in
// order), then finish().
class SqlParquetWriter {
 public:
  SqlParquetWriter(const SqlTableSpec& spec, ParquetSink sink);
  ~SqlParquetWriter();
  SqlParquetWriter(const SqlParquetWriter&) = delete;
  SqlParquetWriter& operator=(const SqlParquetWriter&) = delete;

  // The rows of `t` (columns as the spec's), in row groups of at most `group_rows`.
  void write(const SqlTable& t, size_t group_rows = kParquetGroupRows);
  // Writes the footer: the file is complete.
  void finish();

  struct ColumnChunk {
    uint64_t start = 0, data_page = 0, size = 0;
    std::optional<uint64_t> dictionary_page;
    bool dictionary = false;
    std::vector<int32_t> encodings;  // parquet.thrift's numbers
    uint64_t nulls = 0;
    std::optional<std::pair<int64_t, int64_t>> min_max;
  };
  struct RowGroup {
    uint64_t rows = 0;
    std::vector<ColumnChunk> columns;
  };
  struct Scratch;

 private:
  void begin();
  void write_group(const SqlTable& t, size_t from, size_t to);
  void emit(const std::string& bytes);

  const SqlTableSpec& spec_;
  ParquetSink sink_;
  uint64_t offset_ = 0, rows_ = 0;
  bool begun_ = false, finished_ = false;
  std::vector<RowGroup> groups_;
  std::unique_ptr<Scratch> scratch_;
};

// summarize_intervals's summary, with the g_transitions table written as one Parquet
// file into `sink` from its intervals as they are counted, a row group at a time (the
// same file as write_sql_parquet's): the intervals, 48 bytes each (540 MB on the 94 MB
// trace), are never all held. The file is held until the summary is made (15 bytes an
// interval), and written only then: where the trace reuses a goroutine id the summary
// leaves the earlier goroutine out, and its intervals with it, when they were already
// in the file. Then nothing is written and nullopt is returned: summarize_intervals and
// write_sql_parquet it is. `events_by_type`, if given, is the store's count of events of
// each type (TraceStats::events_by_type).
std::optional<Summary> summarize_writing_g_transitions(const EventStore& store, int64_t trace_id,
                                                       const ParquetSink& sink,
                                                       const std::array<uint64_t, 256>* events_by_type = nullptr);

// A table of `source` as one Parquet file into `sink`; for events and g_transitions only
// rows [from, to) when given (a host splits these between workers).
void write_sql_parquet(const SqlSource& source, std::string_view table, const ParquetSink& sink, size_t from = 0,
                       std::optional<size_t> to = std::nullopt, size_t group_rows = kParquetGroupRows);

}  // namespace gotrace::analysis
