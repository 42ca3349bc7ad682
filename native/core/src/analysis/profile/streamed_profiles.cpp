// StreamedProfiles: the profiles' pass over a second streamed read, each generation as
// it comes, with the goroutines of the first read's summary.
#include "gotrace/streamed_profiles.h"

#include <stdexcept>
#include <utility>

#include "gotrace/analysis/pprof_profile.h"
#include "gotrace/analysis/pprof_writer.h"

namespace gotrace {

using analysis::ProfileType;

StreamedProfiles::StreamedProfiles(const EventStore& tables, const analysis::Summary& summary, const EventStore& events)
    : tables_(tables), filter_{nullptr, std::nullopt, &summary} {
  // As select_profiles: a trace without goroutines has empty profiles.
  if (!summary.goroutines.empty()) pass_.emplace(events, analysis::kProfileTypes, filter_);
}

StreamedProfiles::StreamedProfiles(const EventStore& tables, analysis::GoroutineLifetimes lifetimes,
                                   const EventStore& events)
    : tables_(tables), lifetimes_(std::move(lifetimes)), filter_{nullptr, std::nullopt, nullptr, &lifetimes_} {
  if (lifetimes_.size() != 0) pass_.emplace(events, analysis::kProfileTypes, filter_);
}

StreamedProfiles::~StreamedProfiles() = default;

void StreamedProfiles::add(size_t from, size_t to) {
  if (profiles_) throw std::logic_error("events added to finished profiles");
  if (pass_) pass_->add(from, to);
}

void StreamedProfiles::finish() {
  if (profiles_) return;
  profiles_.emplace();
  for (ProfileType t : analysis::kProfileTypes) (*profiles_)[static_cast<size_t>(t)].type = t;
  if (pass_) {
    for (analysis::Profile& p : pass_->take()) (*profiles_)[static_cast<size_t>(p.type)] = std::move(p);
  }
  pass_.reset();
  lifetimes_ = {};  // of no more use: let go
}

const analysis::Profile& StreamedProfiles::profile(ProfileType type) const {
  if (!profiles_) throw std::runtime_error("the trace is still being read: its profiles are made in a second read");
  return (*profiles_)[static_cast<size_t>(type)];
}

const analysis::FlameGraph& StreamedProfiles::flame(ProfileType type) {
  const analysis::Profile& p = profile(type);
  auto& slot = flames_[static_cast<size_t>(type)];
  if (!slot) slot = std::make_unique<analysis::FlameGraph>(analysis::flame_graph(analysis::build_pprof_profile(tables_, p)));
  return *slot;
}

std::vector<uint8_t> StreamedProfiles::pprof(ProfileType type) const {
  return analysis::write_pprof(analysis::build_pprof_profile(tables_, profile(type)));
}

}  // namespace gotrace
