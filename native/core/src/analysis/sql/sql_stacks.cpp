// The stacks and frames tables: each stack the events name (stack_id columns), and its
// frames from the leaf (level 0) to the root.
#include "analysis/sql/sql_builder.h"
#include "analysis/sql/sql_table_builders.h"

namespace gotrace::analysis::detail {

SqlTable stacks_table(const SqlSource& src) {
  const EventStore& s = src.read.store;
  SqlTableBuilder b(*find_sql_table("stacks"), src.trace_id);
  const size_t c_id = b.column("stack_id"), c_depth = b.column("depth"), c_function = b.column("function"),
               c_root = b.column("root_function");
  for (size_t id = 1; id < s.stacks.size(); id++) {
    const auto frames = s.stacks.frames(static_cast<StackID>(id));
    b.big(c_id, static_cast<int64_t>(id));
    b.integer(c_depth, static_cast<int32_t>(frames.size()));
    if (!frames.empty()) {
      b.text(c_function, s.strings.get(s.stacks.frame(frames.front()).func));
      b.text(c_root, s.strings.get(s.stacks.frame(frames.back()).func));
    }
    b.end_row();
  }
  return b.take();
}

SqlTable frames_table(const SqlSource& src) {
  const EventStore& s = src.read.store;
  SqlTableBuilder b(*find_sql_table("frames"), src.trace_id);
  const size_t c_id = b.column("stack_id"), c_level = b.column("level"), c_function = b.column("function"),
               c_file = b.column("file"), c_line = b.column("line"), c_pc = b.column("pc");
  for (size_t id = 1; id < s.stacks.size(); id++) {
    const auto frames = s.stacks.frames(static_cast<StackID>(id));
    for (size_t level = 0; level < frames.size(); level++) {
      const Frame& f = s.stacks.frame(frames[level]);
      b.big(c_id, static_cast<int64_t>(id));
      b.integer(c_level, static_cast<int32_t>(level));
      b.text(c_function, s.strings.get(f.func));
      b.text(c_file, s.strings.get(f.file));
      b.big(c_line, static_cast<int64_t>(f.line));
      b.big(c_pc, static_cast<int64_t>(f.pc));
      b.end_row();
    }
  }
  return b.take();
}

}  // namespace gotrace::analysis::detail
