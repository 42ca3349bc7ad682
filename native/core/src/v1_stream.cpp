#include "v1_stream.h"

namespace gotrace::v1 {

void StreamReader::yield(uint32_t index, bool blocks_flag, Event& ev, bool& blocks, std::string_view& message) const {
  t_.event(index, ev);
  ev.type = merged_type(ev.type);
  blocks = blocks_flag;
  message = ev.type == EvUserLog && ev.args[2] < t_.messages.size() ? t_.messages[ev.args[2]] : std::string_view();
}

bool StreamReader::next(Event& ev, bool& blocks, std::string_view& message) {
  const std::vector<uint32_t>& order = s_.order;
  while (pos_ < order.size() && (order[pos_] & Stream::kMoved)) pos_++;  // they come from `moved`
  // A moved exit goes before the first other event later than it in (time, position)
  // order: Go's stable sort by time.
  if (moved_ < s_.moved.size()) {
    const Stream::Moved& m = s_.moved[moved_];
    bool first = pos_ == order.size();
    if (!first) {
      int64_t mts = t_.recs[m.index].ts, ts = t_.recs[order[pos_] & Stream::kIndexMask].ts;
      first = mts < ts || (mts == ts && m.pos < pos_);
    }
    if (first) {
      moved_++;
      yield(m.index, false, ev, blocks, message);
      return true;
    }
  }
  if (pos_ == order.size()) return false;
  uint32_t entry = order[pos_++];
  yield(entry & Stream::kIndexMask, entry & Stream::kSyscallBlocks, ev, blocks, message);
  return true;
}

}  // namespace gotrace::v1
