#include "gotrace/wall_clock.h"

#include <cstdio>

namespace gotrace {
namespace {

constexpr int64_t kSecond = 1000000000;

WallTime normalized(int64_t sec, int64_t nsec) {
  int64_t carry = nsec / kSecond;
  nsec -= carry * kSecond;
  if (nsec < 0) {
    nsec += kSecond;
    carry--;
  }
  return WallTime{static_cast<int64_t>(static_cast<uint64_t>(sec) + static_cast<uint64_t>(carry)), nsec};
}

}  // namespace

WallTime snapshot_wall(const ClockSnapshot& clock) {
  // Go reads both as unsigned varints and converts them to int64.
  return normalized(static_cast<int64_t>(clock.sec), static_cast<int64_t>(clock.nsec));
}

std::optional<WallTime> wall_time_at(const EventStore& store, Time t) {
  const ClockSnapshot* best = nullptr;
  for (const GenerationInfo& g : store.generations) {
    if (!g.clock) continue;
    // The last generation with a snapshot that begins at or before t; else the first.
    if (best && g.earliest > t) break;
    best = &*g.clock;
  }
  if (!best) return std::nullopt;
  const WallTime base = snapshot_wall(*best);
  const int64_t delta = static_cast<int64_t>(static_cast<uint64_t>(t) - static_cast<uint64_t>(best->trace));
  const WallTime whole = normalized(0, delta);  // delta as seconds and nanoseconds
  return normalized(static_cast<int64_t>(static_cast<uint64_t>(base.sec) + static_cast<uint64_t>(whole.sec)),
                    base.nsec + whole.nsec);
}

void append_rfc3339_nano(std::string& out, const WallTime& wall) {
  int64_t days = wall.sec / 86400, rem = wall.sec % 86400;
  if (rem < 0) {
    rem += 86400;
    days--;
  }
  // The civil date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  char buf[80];
  int n = std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld", (long long)year, (long long)month,
                        (long long)day, (long long)(rem / 3600), (long long)(rem / 60 % 60), (long long)(rem % 60));
  out.append(buf, static_cast<size_t>(n));
  if (wall.nsec != 0) {
    n = std::snprintf(buf, sizeof buf, ".%09lld", (long long)wall.nsec);
    while (buf[n - 1] == '0') n--;
    out.append(buf, static_cast<size_t>(n));
  }
  out += 'Z';
}

}  // namespace gotrace
