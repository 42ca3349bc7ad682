// The tables and their columns: the one list docs/sql.md, the bindings and gotrace-sql
// follow.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "gotrace/v2_spec.h"

#include "gotrace/analysis/sql_tables.h"

namespace gotrace::analysis {

namespace {

constexpr SqlType B = SqlType::BigInt, I = SqlType::Integer, V = SqlType::Varchar, Z = SqlType::Boolean;

constexpr SqlColumnSpec kTraces[] = {
    {"trace_id", B},    {"path", V},        {"go_version", V},  {"format", V},      {"bytes", B},
    {"generations", B}, {"events", B},      {"goroutines", B},  {"procs", B},       {"threads", B},
    {"gcs", B},         {"stacks", B},      {"strings", B},     {"time_origin", B}, {"duration", B},
    {"wall_start", B},  {"wall_end", B},    {"error", V},
};
constexpr SqlColumnSpec kEvents[] = {
    {"trace_id", B}, {"event", B},     {"time", B},        {"kind", V},        {"type", V},
    {"thread", B},   {"proc", B},      {"goroutine", B},   {"stack_id", B},    {"resource", V},
    {"resource_id", B}, {"from_state", V}, {"to_state", V}, {"reason", V},     {"transition_stack_id", B},
    {"name", V},     {"value", B},     {"task", B},        {"parent_task", B}, {"message", V},
};
constexpr SqlColumnSpec kGoroutines[] = {
    {"trace_id", B}, {"goroutine", B},  {"name", V},     {"pc", B},         {"system", Z},
    {"creation", B}, {"start", B},      {"end", B},      {"total", B},      {"exec", B},
    {"sched_wait", B}, {"syscall", B},  {"syscall_block", B}, {"block", B}, {"unknown", B},
    {"regions", I},
};
constexpr SqlColumnSpec kGoroutineBlocks[] = {
    {"trace_id", B}, {"goroutine", B}, {"reason", V}, {"duration", B},
};
constexpr SqlColumnSpec kGTransitions[] = {
    {"trace_id", B},   {"goroutine", B}, {"from_state", V}, {"state", V},      {"to_state", V},
    {"reason", V},     {"start", B},     {"end", B},        {"duration", B},   {"stack_id", B},
    {"start_event", B}, {"end_event", B}, {"counted_as", V},
};
constexpr SqlColumnSpec kPTransitions[] = {
    {"trace_id", B}, {"proc", B},  {"state", V},     {"start", B},     {"end", B},
    {"duration", B}, {"thread", B}, {"start_event", B}, {"end_event", B},
};
constexpr SqlColumnSpec kTasks[] = {
    {"trace_id", B}, {"task", B},       {"name", V},    {"parent", B},  {"start", B},
    {"end", B},      {"duration", B},   {"complete", Z}, {"goroutines", I}, {"regions", I},
    {"logs", I},
};
constexpr SqlColumnSpec kRegions[] = {
    {"trace_id", B}, {"region", B},    {"goroutine", B}, {"task", B},       {"name", V},
    {"start", B},    {"end", B},       {"duration", B},  {"exec", B},       {"sched_wait", B},
    {"syscall", B},  {"syscall_block", B}, {"block", B}, {"unknown", B},
};
constexpr SqlColumnSpec kLogs[] = {
    {"trace_id", B}, {"event", B},   {"time", B},    {"goroutine", B}, {"task", B},
    {"category", V}, {"message", V}, {"stack_id", B},
};
constexpr SqlColumnSpec kRanges[] = {
    {"trace_id", B}, {"name", V},        {"scope", V},     {"resource_id", B}, {"start", B},
    {"end", B},      {"duration", B},    {"goroutine", B}, {"start_event", B}, {"end_event", B},
    {"bytes_swept", B}, {"bytes_reclaimed", B},
};
constexpr SqlColumnSpec kMetrics[] = {
    {"trace_id", B}, {"event", B}, {"time", B}, {"name", V}, {"value", B},
};
constexpr SqlColumnSpec kCpuSamples[] = {
    {"trace_id", B}, {"event", B}, {"time", B}, {"thread", B}, {"proc", B}, {"goroutine", B}, {"stack_id", B},
};
constexpr SqlColumnSpec kStacks[] = {
    {"trace_id", B}, {"stack_id", B}, {"depth", I}, {"function", V}, {"root_function", V},
};
constexpr SqlColumnSpec kFrames[] = {
    {"trace_id", B}, {"stack_id", B}, {"level", I}, {"function", V}, {"file", V}, {"line", B}, {"pc", B},
};
constexpr SqlColumnSpec kLabels[] = {
    {"trace_id", B}, {"event", B}, {"time", B}, {"goroutine", B}, {"resource", V}, {"resource_id", B}, {"label", V},
};

constexpr SqlTableSpec kTables[] = {
    {"traces", kTraces},          {"events", kEvents},
    {"goroutines", kGoroutines},  {"goroutine_blocks", kGoroutineBlocks},
    {"g_transitions", kGTransitions}, {"p_transitions", kPTransitions},
    {"tasks", kTasks},            {"regions", kRegions},
    {"logs", kLogs},              {"ranges", kRanges},
    {"metrics", kMetrics},        {"cpu_samples", kCpuSamples},
    {"stacks", kStacks},          {"frames", kFrames},
    {"labels", kLabels},
};

}  // namespace

std::string_view to_string(SqlType t) {
  switch (t) {
    case SqlType::BigInt: return "BIGINT";
    case SqlType::Integer: return "INTEGER";
    case SqlType::Double: return "DOUBLE";
    case SqlType::Varchar: return "VARCHAR";
    case SqlType::Boolean: return "BOOLEAN";
  }
  return "";
}

std::span<const SqlTableSpec> sql_tables() { return kTables; }

std::vector<std::string> sql_column_values(std::string_view table, std::string_view column) {
  std::vector<std::string> v;
  auto add = [&](std::string_view s) {
    if (std::find(v.begin(), v.end(), s) == v.end()) v.emplace_back(s);
  };
  const bool states = column == "from_state" || column == "to_state" || (column == "state" && table != "regions");
  if (table == "events" && column == "kind") {
    for (int k = 0; k <= static_cast<int>(EventKind::Experimental); k++) add(to_string(static_cast<EventKind>(k)));
  } else if (table == "events" && column == "type") {
    for (int t = 0; t < 256; t++) add(v2::event_name(static_cast<uint8_t>(t)));
    add("Sync");
  } else if ((table == "events" || table == "labels") && column == "resource") {
    for (int r = 0; r <= static_cast<int>(ResourceKind::Thread); r++) add(to_string(static_cast<ResourceKind>(r)));
  } else if ((table == "events" || table == "g_transitions" || table == "p_transitions") && states) {
    for (int g = 0; g <= static_cast<int>(GoState::Syscall); g++) add(to_string(static_cast<GoState>(g)));
    for (int p = 0; p <= static_cast<int>(ProcState::Idle); p++) add(to_string(static_cast<ProcState>(p)));
    add("Bad");  // what to_string gives a value out of range
  } else if (table == "g_transitions" && column == "counted_as") {
    for (const char* f : {"exec", "sched_wait", "syscall", "syscall_block", "block"}) add(f);
  } else if (table == "ranges" && column == "scope") {
    for (const char* s : {"Global", "Goroutine", "Proc", "Thread"}) add(s);
  }
  return v;
}

const SqlTableSpec* find_sql_table(std::string_view name) {
  for (const SqlTableSpec& t : kTables)
    if (t.name == name) return &t;
  return nullptr;
}

size_t SqlColumn::size() const {
  switch (type) {
    case SqlType::BigInt: return ints.size();
    case SqlType::Integer:
    case SqlType::Varchar: return int32s.size();
    case SqlType::Double: return doubles.size();
    case SqlType::Boolean: return bools.size();
  }
  return 0;
}

const SqlColumn& SqlTable::column(std::string_view n) const {
  for (const SqlColumn& c : columns)
    if (c.name == n) return c;
  throw std::invalid_argument("no column " + std::string(n) + " in table " + std::string(name));
}

}  // namespace gotrace::analysis
