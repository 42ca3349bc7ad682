#include "futile.h"

#include <algorithm>

namespace gotrace::v1 {

void remove_futile_wakeups(std::vector<Event>& events) {
  if (std::none_of(events.begin(), events.end(), [](const Event& e) { return e.type == EvFutileWakeup; })) return;
  // Per goroutine: whether its current wakeup was marked futile, and the wakeup's events
  // (positions) that go with it.
  struct Wakeup {
    bool futile = false;
    std::vector<uint32_t> events;
  };
  FlatMap<uint32_t> slot_of;
  std::vector<Wakeup> wakeups;
  auto wakeup_of = [&](uint64_t g) -> Wakeup& {
    auto [slot, inserted] = slot_of.try_emplace(g);
    if (inserted) {
      *slot = static_cast<uint32_t>(wakeups.size());
      wakeups.emplace_back();
    }
    return wakeups[*slot];
  };
  std::vector<uint8_t> futile(events.size(), 0);
  for (uint32_t pos = 0; pos < events.size(); pos++) {
    const Event& ev = events[pos];
    switch (ev.type) {
      case EvGoUnblock:
        wakeup_of(ev.args[0]).events.assign(1, pos);
        break;
      case EvGoStart:
      case EvGoPreempt:
      case EvFutileWakeup: {
        Wakeup& w = wakeup_of(ev.g);
        w.events.push_back(pos);
        if (ev.type == EvFutileWakeup) w.futile = true;
        break;
      }
      case EvGoBlock:
      case EvGoBlockSend:
      case EvGoBlockRecv:
      case EvGoBlockSelect:
      case EvGoBlockSync:
      case EvGoBlockCond: {
        Wakeup& w = wakeup_of(ev.g);
        if (w.futile) {
          futile[pos] = 1;
          for (uint32_t e : w.events) futile[e] = 1;
        }
        w = Wakeup{};  // Go deletes the goroutine's entry
        break;
      }
    }
  }
  size_t n = 0;
  for (uint32_t pos = 0; pos < events.size(); pos++) {
    if (!futile[pos]) events[n++] = events[pos];
  }
  events.resize(n);
}

}  // namespace gotrace::v1
