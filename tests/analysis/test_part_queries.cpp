// A generation read alone (read_generations: what the web app and the npm package hold
// of a trace too large to hold whole, here with a part of one generation, the smallest
// cache) answers the timeline's queries within its span as the whole trace does: the
// same slices on every track (their states, reasons and times), so the same range
// figures (time in each state, counts: the range panel's one-pixel queries), the same
// instants and the same regions (those open through the whole part too). Every
// generation of every v2 corpus trace but the largest traces', which are sampled.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "corpus.h"
#include "gotrace/analysis/timeline.h"
#include "gotrace/analysis/timeline_details.h"
#include "gotrace/analysis/timeline_query.h"
#include "gotrace/reader.h"

using namespace gotrace;
using namespace gotrace::analysis;
using namespace gotrace::test;

namespace {

std::string text_of(const SliceRects& r) {
  std::ostringstream out;
  for (size_t i = 0; i < r.size(); i++) {
    out << r.start[i] << '-' << r.end[i] << ' ' << int(r.state[i]) << " x" << r.count[i] << " d" << r.detail[i] << " [";
    for (size_t s = 0; s < kSliceStates; s++) out << r.time_in[s][i] << ' ';
    out << "]\n";
  }
  return out.str();
}

std::string text_of(const InstantMarks& m) {
  std::ostringstream out;
  for (size_t i = 0; i < m.size(); i++) out << m.time[i] << ' ' << m.resource[i] << " x" << m.count[i] << '\n';
  return out.str();
}

std::string text_of(const SpanRects& r) {
  std::ostringstream out;
  for (size_t i = 0; i < r.size(); i++) {
    out << r.start[i] << '-' << r.end[i] << " row" << r.row[i] << " x" << r.count[i] << " task" << r.task[i] << " name"
        << r.name[i] << '\n';
  }
  return out.str();
}

// "" when equal, else the first line where they differ.
std::string first_difference(const std::string& got, const std::string& want) {
  std::istringstream a(got), b(want);
  std::string x, y;
  for (size_t line = 1;; line++) {
    const bool more_a = static_cast<bool>(std::getline(a, x)), more_b = static_cast<bool>(std::getline(b, y));
    if (!more_a && !more_b) return "";
    if (!more_a || !more_b || x != y) {
      return "line " + std::to_string(line) + ": part " + (more_a ? x : "(none)") + " | whole " +
             (more_b ? y : "(none)");
    }
  }
}

struct Checked {
  size_t generations = 0, tracks = 0, slices = 0, waits_told = 0;
  size_t regions_through = 0;  // regions open through a whole part (begun before it, ended after)
  // Procs and threads in a syscall as a part begins (some whose goroutine has no event
  // in the part: only the proc's first status says so).
  size_t syscalls_at_start = 0;
};

// The regions that span the whole view [from, to).
size_t spanning(const SpanRects& r, Time from, Time to) {
  size_t n = 0;
  for (size_t i = 0; i < r.size(); i++) n += r.start[i] == from && r.end[i] == to;
  return n;
}

// Generation g read alone against the whole trace, over [from, to): the part's first
// event to its last (the whole trace runs on past it; the part ends there).
void check_generation(std::span<const uint8_t> bytes, const ReadResult& whole, const TimelineIndex& whole_index,
                      const TrackList& whole_tracks, size_t g, Checked& checked) {
  INFO("generation " << g);
  ReadResult part;
  read_generations(bytes, whole.store, g, g, part);
  REQUIRE(part.ok());
  if (part.store.size() < 2) return;
  const TimelineIndex index = build_timeline_index(part.store);
  const Time from = part.store.time(0), to = part.store.time(part.store.size() - 1);
  if (to <= from) return;
  checked.generations++;
  std::vector<Track> tracks;
  for (int64_t p : whole_tracks.procs) tracks.push_back({TrackKind::Proc, p});
  for (int64_t m : whole_tracks.threads) tracks.push_back({TrackKind::Thread, m});
  for (int64_t p : whole_tracks.sweeps) tracks.push_back({TrackKind::Sweep, p});
  for (int64_t a : whole_tracks.assists) tracks.push_back({TrackKind::MarkAssist, a});
  for (int64_t go : whole_tracks.goroutines) tracks.push_back({TrackKind::Goroutine, go});
  if (whole_tracks.gc) tracks.push_back({TrackKind::GC, 0});
  if (whole_tracks.stw) tracks.push_back({TrackKind::STW, 0});
  // One pixel: the range panel's figures; a pixel a nanosecond: every slice, exactly. (In
  // between, slices narrower than a pixel merge in runs that begin where the track's
  // slices are numbered from, which a part numbers from its start.)
  const auto every_ns = static_cast<uint32_t>(std::min<Time>(to - from, Time{1} << 30));
  for (uint32_t pixels : {1u, every_ns}) {
    INFO(pixels << " pixels over " << from << "-" << to);
    const TimelineView view{from, to, pixels};
    for (const Track& t : tracks) {
      INFO(to_string(t.kind) << " " << t.id);
      const SliceRects want = query_slices(whole_index, t, view);
      const SliceRects got = query_slices(index, t, view);
      CHECK(first_difference(text_of(got), text_of(want)) == "");
      if (pixels == every_ns) {
        checked.tracks++;
        checked.slices += want.size();
        checked.syscalls_at_start += (t.kind == TrackKind::Proc || t.kind == TrackKind::Thread) && want.size() &&
                                     want.start[0] == from && want.state[0] == SliceState::Syscall;
        for (size_t i = 0; i < want.size(); i++) {
          checked.waits_told += want.state[i] == SliceState::Waiting && want.detail[i] != 0;
        }
      }
    }
    for (InstantKind kind :
         {InstantKind::Log, InstantKind::CPUSample, InstantKind::NetworkUnblock, InstantKind::SyscallExit}) {
      for (ResourceKind by : {ResourceKind::Goroutine, ResourceKind::Proc}) {
        INFO("instants " << int(kind) << " by " << int(by));
        const std::string want = text_of(query_instants(whole_index, kind, by, view));
        CHECK(first_difference(text_of(query_instants(index, kind, by, view)), want) == "");
      }
    }
    for (int64_t go : whole_tracks.region_goroutines) {
      INFO("regions of goroutine " << go);
      const SpanRects want = query_regions(whole_index, go, view);
      CHECK(first_difference(text_of(query_regions(index, go, view)), text_of(want)) == "");
      if (pixels == 1) checked.regions_through += spanning(want, from, to);
    }
  }
}

Checked check_every_v2_trace() {
  Checked checked;
  for_each_v2_trace_with_resume_points([&](const std::string& name, const std::vector<uint8_t>& bytes,
                                           const ReadResult& whole) {
    INFO(name);
    const TimelineIndex whole_index = build_timeline_index(whole.store);
    const TrackList whole_tracks = list_tracks(whole_index);
    const size_t n = whole.store.generations.size();
    const size_t step = std::max<size_t>(1, n / 24);  // the stress traces' hundreds: sampled
    for (size_t g = 0; g < n; g += step) check_generation(bytes, whole, whole_index, whole_tracks, g, checked);
  });
  return checked;
}

}  // namespace

TEST_CASE("a generation read alone answers the timeline within it as the whole trace does",
          "[analysis][generations][corpus]") {
  const Checked checked = check_every_v2_trace();
  WARN(checked.generations << " generations, " << checked.tracks << " tracks, " << checked.slices << " slices, "
                          << checked.waits_told << " waits told, " << checked.regions_through
                          << " regions open through a part, " << checked.syscalls_at_start
                          << " procs or threads in a syscall as it begins");
  // The whole corpus's figures, then the sample's (corpus_sampled).
  const bool sample = corpus_sampled();
  CHECK(checked.syscalls_at_start > 300);                   // 332; 330
  CHECK(checked.regions_through > (sample ? 30 : 50));      // 87: begun before the part, ended after it; 43
  CHECK(checked.generations > (sample ? 300 : 450));        // 491; 330
  CHECK(checked.tracks > 50000);                            // 69,248; 62,379
  CHECK(checked.slices > (sample ? 5000000 : 10000000));    // 12.7 million; 7.1 million
  CHECK(checked.waits_told > 200000);
}
